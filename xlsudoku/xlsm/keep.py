"""Cells openpyxl cannot write back, put back as they were after a save.

openpyxl reads a workbook into Python values and writes those out again, and some cells do
not survive the trip: a whole number of 16 or more digits comes back as a rounded float
(``1.234567890123457e+16``), an ISO date cell (``t="d"``) as a bare serial number, a number
Excel reads but Python rounds past its range (``1.7976931348623157E+308``) as one Excel
cannot read, a formula without its cached value, rich text as plain text, a value under a
merged range not at all; and a 309-digit integer stops the save with ``OverflowError``.

So a save that keeps cells works in two steps around openpyxl's own save:

1. :func:`clear_unwritable` blanks, in the workbook about to be saved, the values openpyxl
   cannot write at all (integers beyond a float's range); step 2 puts them back.
2. :func:`keep_cells` compares every cell of the original package with the cell openpyxl
   wrote, sheet by sheet in row order (both files are streamed, so memory stays flat), and
   wherever a cell the run did not change differs, writes the original value back: its
   type and value text as they were, a string with its rich text, a formula's cached value.
   The style is the one openpyxl wrote (the cell's own, renumbered).  A formula's cached
   value is kept only when no sheet the formula may read was changed; otherwise it is left
   out, as openpyxl does, and Excel computes it when the file is opened (openpyxl marks
   every saved workbook for a full calculation on load).

A cell that cannot be put back (a formula openpyxl dropped, XML from another namespace inside
a string) raises :class:`CellNotKept` naming it: the caller refuses to save rather than lose it.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from defusedxml.ElementTree import iterparse

from xlsudoku.xlsm.cells import column_letters, column_number
from xlsudoku.xlsm.errors import PackageError
from xlsudoku.xlsm.sheetxml import (
    CELL_ADDRESS,
    EMPTY_SHEET_DATA,
    FORMULA_PARTS,
    MAIN_NS,
    ROW_NUMBER,
    Cells,
    SheetContext,
    defined_names,
    plain_xml,
    relationships,
    sheet_parts,
    xml_attributes,
    xml_text,
)
from xlsudoku.xlsm.xmltext import escape, unescape

_M = MAIN_NS
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_SHARED_STRINGS = "/sharedStrings"
_ADDRESS = re.compile(r"^([A-Z]{1,3})([0-9]+)$")

# Whole numbers beyond this are floats to openpyxl's writer, and beyond a float's range they
# stop the save (OverflowError).
FLOAT_LIMIT = 2**1023


class CellNotKept(PackageError):
    """A cell openpyxl would change cannot be put back; the message names it."""


@dataclass(frozen=True, slots=True)
class _Original:
    """A cell of the original package.

    Attributes:
        row, column: Where it is (1-based).
        kind: The ``t`` attribute (``n`` when absent; ``s`` for shared and inline strings).
        value: The value as XML text (``<v>``'s, escaped as in the file), or the plain text of
            a string (None when it has rich text runs).
        inner: The inner XML of a string (its ``<t>``, or ``<r>`` runs), as in the file.
        formula: The formula text (a shared formula's master text for its followers), or None.
        raw: The cell's XML as in the file, when it was read with patterns and not looked
            into yet (``kind`` is then ``""``; :meth:`_Reader.resolve` reads the rest).
    """

    row: int
    column: int
    kind: str
    value: str | None
    inner: str | None = None
    formula: str | None = None
    raw: bytes = b""

    @property
    def key(self) -> tuple[int, int]:
        return self.row, self.column

    @property
    def address(self) -> str:
        return f"{column_letters(self.column)}{self.row}"


def clear_unwritable(workbook: Any, changed: Cells) -> int:
    """Blank the cells of *workbook* whose values openpyxl cannot write; return how many.

    Only cells the run did not change (:data:`Cells`) are blanked: :func:`keep_cells` puts
    their original values back after the save.

    >>> import openpyxl
    >>> book = openpyxl.Workbook()
    >>> book.active["A1"], book.active["A2"] = 10**400, 5
    >>> clear_unwritable(book, {}), book.active["A1"].value, book.active["A2"].value
    (1, None, 5)
    """
    cleared = 0
    for sheet in workbook.worksheets:
        written = changed.get(sheet.title, frozenset())
        for key, cell in getattr(sheet, "_cells", {}).items():
            value = getattr(cell, "_value", None)
            if type(value) is int and abs(value) >= FLOAT_LIMIT and key not in written:
                cell._value = None
                cleared += 1
    return cleared


class PartsNotKept(PackageError):
    """openpyxl's save would drop package parts; the message names them."""


# Parts openpyxl writes again from what it read, under names of its own (sheets, strings,
# comments, their drawings, pictures), or leaves out by design because Excel rebuilds them on
# load (the calculation chain).
_REWRITTEN = re.compile(
    r"xl/(worksheets/sheet\d+|sharedStrings|styles|theme/theme\d+|comments/comment\d+"
    r"|comments\d+|drawings/(commentsDrawing|vmlDrawing|drawing)\d+|media/[^/]+|calcChain)"
    r"\.\w+|xl/(worksheets|drawings)/_rels/\w+\.xml\.rels|docProps/(app|core)\.xml",
    re.IGNORECASE,
)


def check_parts_kept(original: bytes, saved: bytes) -> None:
    """Refuse a *saved* package that lacks a part of *original* openpyxl does not write again.

    openpyxl writes only what it models: an add-in's web extension and task pane, custom XML,
    charts and any part it does not know are not in what it saves.

    Raises:
        PartsNotKept: names the parts that would be lost (up to five).

    >>> import openpyxl
    >>> buffer = io.BytesIO()
    >>> openpyxl.Workbook().save(buffer)
    >>> check_parts_kept(buffer.getvalue(), buffer.getvalue()) is None
    True
    """
    with (
        zipfile.ZipFile(io.BytesIO(original)) as before,
        zipfile.ZipFile(io.BytesIO(saved)) as after,
    ):
        kept = set(after.namelist())
        lost = [
            name
            for name in before.namelist()
            if name not in kept and not name.endswith("/") and not _REWRITTEN.fullmatch(name)
        ]
    if lost:
        more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
        raise PartsNotKept(
            f"saving this workbook cell by cell is not possible, and a whole save would lose "
            f"{', '.join(lost[:5])}{more}; nothing was saved (open and save the file in Excel "
            "first)"
        )


def keep_cells(original: bytes, saved: bytes, changed: Cells) -> bytes:
    """Return the package *saved* with the cells of *original* the run did not change put back.

    *original* is the package the workbook was read from, *saved* what openpyxl wrote, and
    *changed* the cells the run wrote (those are openpyxl's to write).  When nothing needs
    putting back, *saved* itself is returned.

    Raises:
        CellNotKept: a cell openpyxl changed cannot be put back (the message names it).

    >>> import openpyxl
    >>> buffer = io.BytesIO()
    >>> openpyxl.Workbook().save(buffer)
    >>> saved = buffer.getvalue()
    >>> keep_cells(saved, saved, {}) is saved  # nothing differs: nothing to put back
    True
    """
    with (
        zipfile.ZipFile(io.BytesIO(original)) as before,
        zipfile.ZipFile(io.BytesIO(saved)) as after,
    ):
        old_parts = sheet_parts(before)
        new_parts = sheet_parts(after)
        strings = _shared_strings(before)
        names = defined_names(before)
        changed_sheets = {title.casefold() for title, cells in changed.items() if cells}
        patched: dict[str, bytes] = {}
        for title, old_part in old_parts.items():
            new_part = new_parts.get(title)
            if new_part is None:
                continue
            context = SheetContext(title, changed.get(title, frozenset()), changed_sheets, names)
            data = after.read(new_part)
            fixed = _keep_sheet(before.read(old_part), data, strings, context)
            if fixed is not data:
                patched[new_part] = fixed
        if not patched:
            return saved
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
            for info in after.infolist():
                out.writestr(info, patched.get(info.filename, after.read(info.filename)))
    return buffer.getvalue()


def _shared_strings(archive: zipfile.ZipFile) -> list[tuple[str | None, str]]:
    """Return each shared string as (plain XML text or None when rich, inner XML)."""
    rels = relationships(archive, "xl/workbook.xml")
    part = next((p for kind, p in rels.values() if kind.endswith(_SHARED_STRINGS)), None)
    if part is None or part not in archive.namelist():
        return []
    data = archive.read(part)
    if plain_xml(data, b"<sst"):
        return [_string_text((inner or b"").decode("utf-8")) for inner in _SI.findall(data)]
    strings = []
    for _, element in iterparse(io.BytesIO(data), events=("end",)):
        if element.tag == f"{_M}si":
            strings.append(_string(element, "the shared strings"))
            element.clear()
    return strings


_SI = re.compile(rb"<si>(.*?)</si>|<si\s*/>", re.DOTALL)
_PLAIN_T = re.compile(r"^<t(?:\s[^>]*)?>([^<]*)</t>$|^<t(?:\s[^>]*)?/>$", re.DOTALL)


def _string_text(inner: str) -> tuple[str | None, str]:
    """Return a string's (plain XML text or None when rich, inner XML) from its inner XML."""
    plain = _PLAIN_T.match(inner.strip())
    return (plain.group(1) or "" if plain else None), inner


def _string(element: Any, where: str) -> tuple[str | None, str]:
    """Return a ``<si>``/``<is>`` element as (plain XML text or None when rich, inner XML)."""
    children = list(element)
    inner = "".join(_xml(child, where) for child in children)
    if len(children) == 1 and children[0].tag == f"{_M}t" and not len(children[0]):
        return xml_text(children[0].text or ""), inner
    return None, inner


def _xml(element: Any, where: str) -> str:
    """Serialize an element of the main namespace with the default prefix."""
    if not element.tag.startswith(_M):
        raise CellNotKept(f"{where}: holds XML openpyxl does not write ({element.tag})")
    tag = element.tag[len(_M) :]
    attributes = ""
    for key, value in element.attrib.items():
        if key == _XML_SPACE:
            key = "xml:space"
        elif key.startswith("{"):
            raise CellNotKept(f"{where}: holds an attribute openpyxl does not write ({key})")
        attributes += f" {key}={_quoted(value)}"
    body = xml_text(element.text or "") + "".join(_xml(child, where) for child in element)
    tail = xml_text(element.tail or "") if element.tail and element.tail.strip() else ""
    if not body:
        return f"<{tag}{attributes}/>{tail}"
    return f"<{tag}{attributes}>{body}</{tag}>{tail}"


def _quoted(text: str) -> str:
    return '"' + escape(text, {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#9;"}) + '"'


class _Reader:
    """The cells of one original worksheet, in row order, each looked into only when needed.

    What Excel and openpyxl write is read with patterns (fast; a cell's value is parsed only
    when openpyxl wrote the cell differently); any other XML with the parser.
    """

    def __init__(self, data: bytes, strings: list[tuple[str | None, str]], title: str) -> None:
        self.data = data
        self.strings = strings
        self.title = title
        self.masters: dict[str, str] = {}

    def cells(self) -> Iterator[_Original]:
        """Yield the cells that hold something, in row order.

        Raises:
            CellNotKept: the cells are out of order, or a string cannot be put back.
        """
        last = (0, 0)
        plain = plain_xml(self.data, b"<sheetData")
        found = (
            self._by_pattern() if plain else _cells_by_parser(self.data, self.strings, self.title)
        )
        for cell in found:
            if cell.key <= last:
                raise CellNotKept(
                    f"{self.title}!{cell.address}: the sheet's cells are out of order; nothing "
                    "was saved (open and save the file in Excel first)"
                )
            last = cell.key
            yield cell

    def _by_pattern(self) -> Iterator[_Original]:
        start = self.data.find(b"<sheetData")
        end = self.data.find(b"</sheetData>", start)
        row = column = 0
        for token in _TOKEN.finditer(self.data, start, end if end >= 0 else start):
            if token.group("row") is not None:
                number = ROW_NUMBER.search(token.group("row"))
                row = int(number.group(1)) if number else row + 1
                column = 0
                continue
            body = token.group("body")
            if token.group("cell") is None:
                continue
            address = CELL_ADDRESS.search(token.group("cell"))
            column = column_number(address.group(1).decode()) if address else column + 1
            row = int(address.group(2)) if address else row
            if not body:
                continue
            if b"<f" in body:  # a shared formula's master text, for its followers
                self._note_master(body)
            yield _Original(row, column, "", None, raw=token.group(0))

    def _note_master(self, body: bytes) -> None:
        formula = FORMULA_PARTS.search(body)
        if formula is None or not formula.group("text"):
            return
        attributes = xml_attributes(formula.group("attrs"))
        shared = attributes.get(b"si", b"").decode("ascii", "replace")
        if attributes.get(b"t") == b"shared" and shared and shared not in self.masters:
            self.masters[shared] = unescape(formula.group("text").decode("utf-8"))

    def resolve(self, cell: _Original) -> _Original | None:
        """Return *cell* with its kind, value and formula read (None when it holds nothing)."""
        if cell.kind:
            return cell
        token = _TOKEN.match(cell.raw)
        assert token is not None
        attributes = xml_attributes(token.group("cell"))
        body = token.group("body") or b""
        kind = attributes.get(b"t", b"n").decode("ascii", "replace")
        where = f"{self.title}!{cell.address}"
        formula = None
        found_formula = FORMULA_PARTS.search(body)
        if found_formula is not None:
            formula = unescape((found_formula.group("text") or b"").decode("utf-8"))
            formula_attributes = xml_attributes(found_formula.group("attrs"))
            shared = formula_attributes.get(b"si", b"").decode("ascii", "replace")
            if formula_attributes.get(b"t") == b"shared" and shared:
                formula = self.masters.get(shared, formula)
        value_match = _V.search(body)
        value = None if value_match is None else value_match.group(1).decode("utf-8")
        inner = None
        if kind == "s" and value is not None and formula is None:
            value, inner = _shared(self.strings, value, where)
        elif kind == "inlineStr":
            inline = _IS.search(body)
            if inline is not None:
                value, inner = _string_text(inline.group(1).decode("utf-8"))
            kind = "s"
        if value is None and inner is None and formula is None:
            return None
        return _Original(cell.row, cell.column, kind, value, inner, formula)


def _shared(
    strings: list[tuple[str | None, str]], index: str, where: str
) -> tuple[str | None, str]:
    """Return shared string *index* (text of a ``<v>``), naming *where* when it is missing."""
    try:
        return strings[int(index)]
    except (ValueError, IndexError):
        raise CellNotKept(f"{where}: refers to a shared string that is not there") from None


def _cells_by_parser(
    data: bytes, strings: list[tuple[str | None, str]], title: str
) -> Iterator[_Original]:
    """Yield the cells of any worksheet XML, parsed (with bounded memory)."""
    masters: dict[str, str] = {}
    row = column = 0
    parent = None
    for event, element in iterparse(io.BytesIO(data), events=("start", "end")):
        tag = element.tag
        if event == "start":
            if tag == f"{_M}sheetData":
                parent = element
            elif tag == f"{_M}row":
                number = element.get("r") or ""
                row = int(number) if number.isascii() and number.isdigit() else row + 1
                column = 0
            continue
        if tag == f"{_M}c":
            match = _ADDRESS.match(element.get("r") or "")
            column = column_number(match.group(1)) if match else column + 1
            if match:
                row = int(match.group(2))
            found = _read_cell(element, row, column, strings, masters, title)
            element.clear()
            if found is not None:
                yield found
        elif tag == f"{_M}row" and parent is not None:
            parent.clear()  # the rows read so far are not needed any more


def _read_cell(
    element: Any,
    row: int,
    column: int,
    strings: list[tuple[str | None, str]],
    masters: dict[str, str],
    title: str,
) -> _Original | None:
    kind = element.get("t", "n")
    formula_element = element.find(f"{_M}f")
    formula = None
    if formula_element is not None:
        formula = formula_element.text or ""
        shared = formula_element.get("si")
        if formula_element.get("t") == "shared" and shared is not None:
            if formula:
                masters[shared] = formula
            formula = masters.get(shared, formula)
    value_element = element.find(f"{_M}v")
    value = None if value_element is None else xml_text(value_element.text or "")
    inner = None
    where = f"{title}!{column_letters(column)}{row}"
    if kind == "s" and value is not None and formula is None:
        value, inner = _shared(strings, value, where)
    elif kind == "inlineStr":
        inline = element.find(f"{_M}is")
        if inline is not None:
            value, inner = _string(inline, where)
        kind = "s"
    if value is None and inner is None and formula is None:
        return None
    return _Original(row, column, kind, value, inner, formula)


# openpyxl's own output, read with patterns: rows, their ends and cells, in document order.
_TOKEN = re.compile(
    rb"<row\b(?P<row>[^>]*?)(?P<empty>/)?>|</row>|<c\b(?P<cell>[^>]*?)(?:/>|>(?P<body>.*?)</c>)",
    re.DOTALL,
)
_ATTRIBUTE = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')
_V = re.compile(rb"<v(?:\s[^>]*)?>(.*?)</v>", re.DOTALL)
_F = re.compile(rb"<f\b[^>]*?(?:/>|>.*?</f>)", re.DOTALL)
_IS = re.compile(rb"<is>(.*?)</is>", re.DOTALL)
_T = re.compile(rb'\bt="([^"]*)"')
_IS_T = re.compile(rb"^<is>\s*<t(?:\s[^>]*)?>(.*?)</t>\s*</is>$", re.DOTALL)


def _keep_sheet(
    old: bytes, new: bytes, strings: list[tuple[str | None, str]], context: SheetContext
) -> bytes:
    """Return the worksheet XML *new* with the unchanged cells of *old* put back."""
    empty = EMPTY_SHEET_DATA.search(new)
    if _sheet_data(old) == _sheet_data(new):
        return new  # openpyxl wrote every cell as it was (a file it saved before)
    reader = _Reader(old, strings, context.title)
    pending = (cell for cell in reader.cells() if cell.key not in context.written)
    edits: list[tuple[int, int, bytes]] = []
    walk = _Walk(pending, context, edits, reader.resolve)
    if empty is not None:  # <sheetData/>: every original cell goes in
        rows = walk.rows_before(1 << 40)
        if rows:
            edits.append((empty.start(), empty.end(), b"<sheetData>" + rows + b"</sheetData>"))
        return _apply(new, edits)
    start = new.find(b"<sheetData")
    end = new.find(b"</sheetData>", start)
    if start < 0 or end < 0:
        return new
    row_number, row_open = 0, False
    for token in _TOKEN.finditer(new, start, end):
        if token.group("row") is not None:
            number = _number(xml_attributes(token.group("row")).get(b"r", b""), context)
            walk.insert(token.start(), walk.rows_before(number))
            row_number, row_open = number, token.group("empty") is None
            if not row_open:
                walk.fill_empty_row(number, token)
        elif token.group(0) == b"</row>":
            walk.cells_before((row_number, 1 << 30), token.start(), row_number)
            row_open = False
        else:
            match = CELL_ADDRESS.search(token.group("cell"))
            if match is None:
                continue
            key = (int(match.group(2)), column_number(match.group(1).decode()))
            walk.cells_before(key, token.start(), row_number if row_open else -1)
            walk.compare(key, token)
    walk.insert(end, walk.rows_before(1 << 40))
    return _apply(new, edits)


def _sheet_data(data: bytes) -> bytes | None:
    """Return the ``<sheetData>`` element of worksheet XML *data* as bytes (None if none)."""
    start = data.find(b"<sheetData")
    end = data.find(b"</sheetData>", start)
    return None if start < 0 or end < 0 else data[start:end]


def _apply(data: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    """Return *data* with *edits* (start, end, replacement; in order) made."""
    if not edits:
        return data
    pieces, at = [], 0
    for begin, finish, text in edits:
        pieces += [data[at:begin], text]
        at = finish
    pieces.append(data[at:])
    return b"".join(pieces)


def _number(text: bytes, context: SheetContext) -> int:
    """Return a row number openpyxl wrote."""
    try:
        return int(text)
    except ValueError:
        raise CellNotKept(f"{context.title}: a row without a number; nothing was saved") from None


def _same(raw: bytes, token: re.Match[bytes]) -> bool:
    """Return True when openpyxl wrote the cell *raw* as it was: same value, same type."""
    body = token.group("body")
    opening, _, rest = raw.partition(b">")
    if not body or rest[:-4] != body:
        return False
    old_kind = _T.search(opening)
    new_kind = _T.search(token.group("cell"))
    return (old_kind.group(1) if old_kind else b"n") == (new_kind.group(1) if new_kind else b"n")


class _Walk:
    """The merge of the original cells (in row order) with the cells openpyxl wrote."""

    def __init__(
        self,
        pending: Iterator[_Original],
        context: SheetContext,
        edits: list[tuple[int, int, bytes]],
        resolve: Callable[[_Original], _Original | None],
    ) -> None:
        self.pending = pending
        self.context = context
        self.edits = edits
        self.resolve = resolve
        self.next: _Original | None = next(pending, None)

    def _advance(self) -> None:
        self.next = next(self.pending, None)

    def cells_before(self, key: tuple[int, int], position: int, row: int) -> None:
        """Put back the original cells before *key* that openpyxl did not write at all."""
        while self.next is not None and self.next.key < key:
            if self.next.row != row:
                return  # a row openpyxl did not write: rows_before puts it back
            self.edits.append((position, position, self._cell(self.next, b"")))
            self._advance()

    def rows_before(self, number: int) -> bytes:
        """Return the original rows before row *number* that openpyxl did not write at all."""
        rows: list[bytes] = []
        while self.next is not None and self.next.row < number:
            row = self.next.row
            cells = []
            while self.next is not None and self.next.row == row:
                cells.append(self._cell(self.next, b""))
                self._advance()
            rows.append(b'<row r="%d">' % row + b"".join(cells) + b"</row>")
        return b"".join(rows)

    def insert(self, position: int, text: bytes) -> None:
        """Insert *text* at *position* of openpyxl's sheet."""
        if text:
            self.edits.append((position, position, text))

    def fill_empty_row(self, number: int, token: re.Match[bytes]) -> None:
        """Open a ``<row .../>`` openpyxl wrote empty when original cells belong in it."""
        cells = []
        while self.next is not None and self.next.row == number:
            cells.append(self._cell(self.next, b""))
            self._advance()
        if cells:
            opening = token.group(0)[:-2].rstrip() + b">"
            self.edits.append((token.start(), token.end(), opening + b"".join(cells) + b"</row>"))

    def compare(self, key: tuple[int, int], token: re.Match[bytes]) -> None:
        """Put the original cell at *key* back when openpyxl wrote it differently."""
        if self.next is None or self.next.key != key:
            return
        found, self.next = self.next, None
        self._advance()
        body = token.group("body") or b""
        if found.raw and _same(found.raw, token):
            return
        cell = self.resolve(found)
        if cell is None:
            return
        attrs = xml_attributes(token.group("cell"))
        if cell.formula is not None:
            self._keep_cache(cell, token, attrs, body)
            return
        kind = attrs.get(b"t", b"n").decode("ascii", "replace")
        if cell.kind == "s":
            plain = _IS_T.match(body.strip()) if kind == "inlineStr" else None
            if plain is not None and plain.group(1).decode("utf-8") == cell.value:
                return
        else:
            value = _V.search(body)
            written = None if value is None else value.group(1).decode("utf-8")
            if kind == cell.kind and written == cell.value:
                return
        self.edits.append((token.start(), token.end(), self._cell(cell, attrs.get(b"s", b""))))

    def _keep_cache(
        self, cell: _Original, token: re.Match[bytes], attrs: dict[bytes, bytes], body: bytes
    ) -> None:
        """Give a formula openpyxl wrote back its cached value, when that value is current."""
        formula = _F.search(body)
        if formula is None:
            raise CellNotKept(
                f"{self.context.where(cell.address)}: the formula of this cell would be lost; "
                "nothing was saved"
            )
        if (
            cell.value is None
            or cell.kind == "s"
            or not self.context.cache_is_fresh(cell.formula or "")
        ):
            return
        style = attrs.get(b"s")
        head = b'<c r="%s"' % cell.address.encode()
        head += b' s="%s"' % style if style else b""
        head += b"" if cell.kind == "n" else b' t="%s"' % cell.kind.encode()
        value = cell.value.encode()
        self.edits.append(
            (
                token.start(),
                token.end(),
                head + b">" + formula.group(0) + b"<v>" + value + b"</v></c>",
            )
        )

    def _cell(self, found: _Original, style: bytes) -> bytes:
        """Return the original cell as XML with openpyxl's *style* index (b"" when empty)."""
        cell = self.resolve(found)
        if cell is None:
            return b""
        if cell.formula is not None:
            raise CellNotKept(
                f"{self.context.where(cell.address)}: the formula of this cell would be lost; "
                "nothing was saved"
            )
        head = b'<c r="%s"' % cell.address.encode()
        head += b' s="%s"' % style if style else b""
        if cell.kind == "s":
            inner = cell.inner if cell.inner is not None else f"<t>{cell.value or ''}</t>"
            return head + b' t="inlineStr"><is>' + inner.encode() + b"</is></c>"
        kind = b"" if cell.kind == "n" else b' t="%s"' % cell.kind.encode()
        return head + kind + b"><v>" + (cell.value or "").encode() + b"</v></c>"
