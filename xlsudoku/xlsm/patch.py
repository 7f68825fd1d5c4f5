"""A workbook package with only the cells a run changed written into it.

:func:`patch_cells` writes new values, fills and sizes into the ``<sheetData>``, ``<cols>``
and ``<dimension>`` of the sheets that change (and the fills a run chose into the styles), and
copies every other part of the package byte for byte: the VBA project, the buttons, an
xlwings Lite add-in, custom XML, charts, comments, data validations, conditional formats and
any part nothing here knows.  Where a sheet is not written as Excel or openpyxl write it, it
says so (None) and the caller saves the whole workbook with openpyxl and
:mod:`xlsudoku.xlsm.keep`.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from xlsudoku.xlsm.cells import column_letters, column_number
from xlsudoku.xlsm.sheetxml import (
    CELL_ADDRESS,
    EMPTY_SHEET_DATA,
    FORMULA_PARTS,
    ROW_NUMBER,
    SheetContext,
    defined_names,
    plain_xml,
    relationships,
    sheet_parts,
    xml_attributes,
    xml_text,
)
from xlsudoku.xlsm.xmltext import unescape

Value = None | bool | int | float | str
"""A value :func:`patch_cells` writes: blank, TRUE/FALSE, a number or a string."""

# Whole numbers within a double's range: written with all their digits, as openpyxl writes
# them (Excel reads each as the nearest double); past it no number can hold them.
_FLOAT_RANGE = 2**1023
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_MAX_TEXT = 32_767  # characters Excel keeps in a cell


Size = tuple[float | None, bool]
"""A column's width (characters) or a row's height (points), None for the default; hidden."""


@dataclass(frozen=True, slots=True)
class Sizes:
    """The sizes a run set on one sheet: column -> :data:`Size`, row -> :data:`Size`."""

    columns: Mapping[int, Size]
    rows: Mapping[int, Size]


class _NotPatchable(Exception):
    """The package cannot be patched in place: the caller saves it whole."""


def patch_cells(
    original: bytes,
    values: Mapping[str, Mapping[tuple[int, int], Any]],
    sizes: Mapping[str, Sizes] | None = None,
    fills: Mapping[str, Mapping[tuple[int, int], str | None]] | None = None,
) -> bytes | None:
    """Return *original* with the cells of *values* set and every other cell left as it was.

    *values* maps a sheet title to ``(row, column)`` (1-based) -> the new value (:data:`Value`,
    or a date or time, written as its serial number;
    None blanks the cell), *sizes* a sheet title to the column widths and row heights to
    set, and *fills* a sheet title to cells -> their new fill colour (``"FFRRGGBB"``, None for
    no fill).  Only the ``<sheetData>``, ``<cols>`` and ``<dimension>`` of the sheets that
    change are rewritten, and for *fills* the fills and cell formats of the styles (each one
    added once, then reused); every other part of the package is copied byte for byte, so
    the VBA project, the buttons, an add-in, custom XML, charts, comments and the conditional
    formats are what the file had.  A cell keeps its style (a new one takes its row's or its
    column's, as one typed in Excel does); a formula in it is replaced by the value, as
    typing does.
    Like a save by openpyxl, the workbook asks Excel to calculate every formula on load, and
    a formula's cached value is dropped when it may read a sheet that changed.

    Returns None, having changed nothing, when the package cannot be patched this way: a
    value of another type, a sheet not written as Excel or openpyxl write them (another
    namespace prefix, comments, cells or rows out of order, no cell addresses), a formula
    whose cached value may be stale but cannot be told.  The caller then saves the whole
    workbook with openpyxl.

    >>> import openpyxl
    >>> book = openpyxl.Workbook()
    >>> book.active.title = "Data"
    >>> book.active["B2"] = "old"
    >>> buffer = io.BytesIO()
    >>> book.save(buffer)
    >>> patched = patch_cells(buffer.getvalue(), {"Data": {(2, 2): 42, (3, 1): "new"}})
    >>> sheet = openpyxl.load_workbook(io.BytesIO(patched)).active
    >>> sheet["B2"].value, sheet["A3"].value
    (42, 'new')
    >>> patch_cells(buffer.getvalue(), {"Data": {(1, 1): object()}}) is None
    True
    >>> red = patch_cells(buffer.getvalue(), {}, fills={"Data": {(2, 2): "FFFF0000"}})
    >>> openpyxl.load_workbook(io.BytesIO(red)).active["B2"].fill.fgColor.rgb
    'FFFF0000'
    """
    try:
        return _patch(original, values, sizes or {}, fills or {})
    except _NotPatchable:
        return None


def _patch(
    original: bytes,
    values: Mapping[str, Mapping[tuple[int, int], Any]],
    sizes: Mapping[str, Sizes],
    fills: Mapping[str, Mapping[tuple[int, int], str | None]],
) -> bytes:
    with zipfile.ZipFile(io.BytesIO(original)) as archive:
        parts = sheet_parts(archive)
        if any(title not in parts for title in [*values, *sizes, *fills]):
            raise _NotPatchable
        workbook = archive.read("xl/workbook.xml")
        if not plain_xml(workbook, b"<workbook"):
            raise _NotPatchable
        if _DATE_1904.search(workbook) and any(
            isinstance(value, dt.date | dt.time)
            for sheet in values.values()
            for value in sheet.values()
        ):
            raise _NotPatchable  # dates counted from 1904: openpyxl's to convert
        styles_part = next(
            (
                part
                for kind, part in relationships(archive, "xl/workbook.xml").values()
                if kind.endswith("/styles") and part in archive.namelist()
            ),
            None,
        )
        styles = _Styles(archive.read(styles_part) if styles_part and fills else None)
        cells: dict[str, dict[tuple[int, int], _Writer]] = {}
        for title in {*values, *fills}:
            sheet_values, sheet_fills = values.get(title, {}), fills.get(title, {})
            cells[title] = {
                key: _cell_xml(
                    key,
                    sheet_values.get(key, _KEEP),
                    styles.restyle(sheet_fills[key]) if key in sheet_fills else None,
                )
                for key in {*sheet_values, *sheet_fills}
            }
        changed_sheets = {title.casefold() for title, sheet in values.items() if sheet}
        names = defined_names(archive)
        patched: dict[str, bytes] = {"xl/workbook.xml": _calculate_on_load(workbook)}
        for title, part in parts.items():
            data = archive.read(part)
            if not plain_xml(data, b"<worksheet"):
                if cells.get(title) or title in sizes or b"<f" in data:
                    raise _NotPatchable
                continue
            context = SheetContext(title, frozenset(), changed_sheets, names)
            fixed = _patch_sheet(data, cells.get(title, {}), context, sizes.get(title))
            if fixed is not data:
                patched[part] = fixed
        styled = styles.data()
        if styled is not None and styles_part is not None:
            patched[styles_part] = styled
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                out.writestr(info, patched.get(info.filename, archive.read(info.filename)))
    return buffer.getvalue()


_Writer = Callable[[bytes | None, bytes], bytes]
"""What writes a cell, given its XML in the sheet (None: not there) and a new cell's style."""

_DATE_1904 = re.compile(rb'<workbookPr\b[^>]*\bdate1904="(?:1|true)"')
_KEEP = object()  # a cell whose value stays as it is (only its fill changes)


def _cell_xml(
    key: tuple[int, int], value: Any, restyle: Callable[[bytes], bytes] | None = None
) -> _Writer:
    """Return what writes the cell at *key* holding *value* (:data:`_KEEP`: as it is).

    *restyle* turns the cell's style index into the one it gets (its new fill).
    """
    row, column = key
    if row < 1 or not 1 <= column <= 16_384:
        raise _NotPatchable
    address = f"{column_letters(column)}{row}".encode()
    if value is _KEEP:
        body = b""
    elif value is None:
        body = b""
    elif isinstance(value, bool):
        body = b' t="b"><v>%d</v></c>' % value
    elif isinstance(value, int):
        if abs(value) >= _FLOAT_RANGE:
            raise _NotPatchable
        body = b' t="n"><v>%d</v></c>' % value
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise _NotPatchable
        body = b' t="n"><v>' + repr(value).encode() + b"</v></c>"
    elif isinstance(value, str):
        if len(value) > _MAX_TEXT or _XML_ILLEGAL.search(value):
            raise _NotPatchable
        text = xml_text(value).encode("utf-8")
        body = b' t="inlineStr"><is><t xml:space="preserve">' + text + b"</t></is></c>"
    elif isinstance(value, dt.date | dt.time) and not getattr(value, "tzinfo", None):
        # a serial number, shown as a date by the cell's format (a new cell takes its column's)
        from openpyxl.utils.datetime import to_excel

        body = b' t="n"><v>' + repr(float(to_excel(value))).encode() + b"</v></c>"
    else:
        raise _NotPatchable

    def cell(old: bytes | None, default: bytes) -> bytes:
        if old is not None:
            style = xml_attributes(_CELL.match(old).group("attrs")).get(b"s", b"")  # type: ignore[union-attr]
        else:
            style = default if body or restyle is not None else b""
        if restyle is not None:
            style = restyle(style)
        if value is _KEEP and old is not None:
            return _with_style(old, style)
        head = b'<c r="' + address + b'"' + (b' s="' + style + b'"' if style else b"")
        if body:
            return head + body
        return head + b"/>" if style else b""

    return cell


def _with_style(cell: bytes, style: bytes) -> bytes:
    """Return the XML of *cell* with style index *style* (b"": the default)."""
    found = _CELL.match(cell)
    assert found is not None
    attrs = re.sub(rb'\s+s="[^"]*"', b"", found.group("attrs"))
    attrs = (
        re.sub(rb'(\br="[^"]*")', rb'\1 s="' + style + rb'"', attrs, count=1) if style else attrs
    )
    return b"<c" + attrs + cell[found.end("attrs") :]


def _calculate_on_load(workbook: bytes) -> bytes:
    """Return workbook XML that asks for every formula to be calculated when it is opened."""
    found = re.search(rb"<calcPr\b[^>]*?/?>", workbook)
    if found is None:
        raise _NotPatchable
    tag = found.group(0)
    if re.search(rb'\bfullCalcOnLoad="(1|true)"', tag):
        return workbook
    tag = re.sub(rb'\s*\bfullCalcOnLoad="[^"]*"', b"", tag)
    end = len(tag) - (2 if tag.endswith(b"/>") else 1)
    tag = tag[:end].rstrip() + b' fullCalcOnLoad="1"' + tag[end:]
    return workbook[: found.start()] + tag + workbook[found.end() :]


_SINGLE_QUOTED = re.compile(rb"<[^>]*=\s*'")
_ROW = re.compile(rb"<row\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</row>)", re.DOTALL)
_CELL = re.compile(rb"<c\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</c>)", re.DOTALL)
_FORMULA_CACHE = re.compile(rb"(<f\b[^>]*?(?:/>|>.*?</f>))\s*<v(?:\s[^>/]*)?>[^<]+</v>", re.DOTALL)


def _patch_sheet(
    data: bytes,
    cells: Mapping[tuple[int, int], _Writer],
    context: SheetContext,
    sizes: Sizes | None,
) -> bytes:
    """Return worksheet XML *data* with *cells* and *sizes* written, stale caches dropped."""
    sizes = sizes or Sizes({}, {})
    if _SINGLE_QUOTED.search(data) and (cells or sizes.rows or sizes.columns):
        raise _NotPatchable  # attributes in single quotes: not read with patterns
    empty = EMPTY_SHEET_DATA.search(data)
    if empty is not None:
        start, end = empty.start(), empty.end()
        rows: list[tuple[int, bytes]] = []
    else:
        start = data.find(b"<sheetData")
        end = data.find(b"</sheetData>", start)
        if start < 0 or end < 0:
            raise _NotPatchable
        open_end = data.find(b">", start) + 1
        rows = _rows(data, open_end, end)
        start, end = open_end, end
    stale = _stale_caches(rows, context)
    if not cells and not stale and not sizes.rows and not sizes.columns:
        return data
    wanted: dict[int, dict[int, _Writer]] = {}
    for (row, column), cell in cells.items():
        wanted.setdefault(row, {})[column] = cell
    by_number = dict(rows)
    for number in stale:
        by_number[number] = _FORMULA_CACHE.sub(rb"\1", by_number[number])
    for number in sizes.rows:
        wanted.setdefault(number, {})
    for number, row_cells in wanted.items():
        by_number[number] = _patch_row(
            by_number.get(number), number, row_cells, sizes.rows.get(number), data[:start]
        )
    body = b"".join(by_number[number] for number in sorted(by_number))
    if empty is not None:
        body = b"<sheetData>" + body + b"</sheetData>"
    head = _columns(_dimension(data[:start], cells), sizes.columns)
    return head + body + data[end:]


def _rows(data: bytes, start: int, end: int) -> list[tuple[int, bytes]]:
    """Return the rows between *start* and *end* as (number, XML), checking their order."""
    rows: list[tuple[int, bytes]] = []
    at = start
    for found in _ROW.finditer(data, start, end):
        if data[at : found.start()].strip():
            raise _NotPatchable
        number = ROW_NUMBER.search(found.group("attrs"))
        if number is None or (rows and int(number.group(1)) <= rows[-1][0]):
            raise _NotPatchable
        _check_cell_order(found.group("body") or b"", int(number.group(1)))
        rows.append((int(number.group(1)), found.group(0)))
        at = found.end()
    if data[at:end].strip():
        raise _NotPatchable
    return rows


def _check_cell_order(body: bytes, number: int) -> None:
    """Refuse a row whose cells are out of order or in another row (a whole save says so)."""
    last = 0
    for address in CELL_ADDRESS.finditer(body):
        column = column_number(address.group(1).decode())
        if int(address.group(2)) != number or column <= last:
            raise _NotPatchable
        last = column


def _stale_caches(rows: list[tuple[int, bytes]], context: SheetContext) -> list[int]:
    """Return the rows holding a formula whose cached value may read a changed sheet."""
    stale = []
    for number, row in rows:
        if b"<f" not in row:
            continue
        for found in _FORMULA_CACHE.finditer(row):
            formula = FORMULA_PARTS.match(found.group(1))
            if formula is None or formula.group("text") is None:
                raise _NotPatchable  # a shared formula's follower: its text is elsewhere
            if not context.cache_is_fresh(unescape(formula.group("text").decode("utf-8"))):
                stale.append(number)
                break
    return stale


def _patch_row(
    row: bytes | None,
    number: int,
    cells: Mapping[int, _Writer],
    size: Size | None,
    head_xml: bytes = b"",
) -> bytes:
    """Return the XML of row *number* (None: not in the sheet yet) with *cells* and *size*.

    A cell new to the row takes the row's style, or its column's (from *head_xml*, the
    sheet's XML before ``<sheetData>``), as a cell typed in Excel does.
    """
    if row is None:
        attrs, body = b' r="%d"' % number, b""
    else:
        found = _ROW.fullmatch(row)
        assert found is not None
        attrs = re.sub(rb'\s+spans="[^"]*"', b"", found.group("attrs")).rstrip()
        body = found.group("body") or b""
    if size is not None:
        height, hidden = size
        attrs = re.sub(rb'\s+(?:ht|customHeight|hidden)="[^"]*"', b"", attrs)
        attrs += b' ht="%s" customHeight="1"' % _number_text(height) if height else b""
        attrs += b' hidden="1"' if hidden else b""
    head = b"<row" + attrs + b">"
    present: dict[int, bytes] = {}
    at = 0
    for cell in _CELL.finditer(body):
        if body[at : cell.start()].strip():
            raise _NotPatchable
        address = CELL_ADDRESS.search(cell.group("attrs"))
        if address is None or int(address.group(2)) != number:
            raise _NotPatchable
        column = column_number(address.group(1).decode())
        if present and column <= max(present):
            raise _NotPatchable
        present[column] = cell.group(0)
        at = cell.end()
    if body[at:].strip():
        raise _NotPatchable
    row_attrs = xml_attributes(attrs)
    row_style = (
        row_attrs.get(b"s", b"") if row_attrs.get(b"customFormat") in (b"1", b"true") else b""
    )
    column_styles = _column_styles(head_xml) if cells and not row_style else []
    for column, write in cells.items():
        default = row_style or next(
            (style for low, high, style in column_styles if low <= column <= high), b""
        )
        present[column] = write(present.get(column), default)
        if not present[column]:
            del present[column]
    inner = b"".join(present[column] for column in sorted(present))
    if not inner and row is None and size is None:
        return b""
    return head + inner + b"</row>"


def _number_text(value: float) -> bytes:
    """Return a size as the XML text openpyxl writes (no ``.0`` on a whole number).

    >>> _number_text(56.0), _number_text(9.95)
    (b'56', b'9.95')
    """
    if value != value or value in (float("inf"), float("-inf")):
        raise _NotPatchable
    return (b"%d" % value) if float(value).is_integer() else repr(float(value)).encode()


_COLS = re.compile(rb"<cols>(?P<body>.*?)</cols>", re.DOTALL)
_COL = re.compile(rb"<col\b(?P<attrs>[^>]*?)/>")


def _column_styles(head: bytes) -> list[tuple[int, int, bytes]]:
    """Return (first, last column, style index) of the styled ``<col>`` entries in *head*."""
    found = _COLS.search(head)
    styles = []
    for col in _COL.finditer(found.group("body") if found else b""):
        attrs = xml_attributes(col.group("attrs"))
        try:
            low, high = int(attrs[b"min"]), int(attrs[b"max"])
        except (KeyError, ValueError):
            raise _NotPatchable from None
        if attrs.get(b"style", b"0") != b"0":
            styles.append((low, high, attrs[b"style"]))
    return styles


def _columns(head: bytes, columns: Mapping[int, Size]) -> bytes:
    """Return the sheet's XML before ``<sheetData>`` with the widths of *columns* set."""
    if not columns:
        return head
    found = _COLS.search(head)
    if found is None:
        raise _NotPatchable
    entries: list[dict[bytes, bytes]] = []
    at = 0
    body = found.group("body")
    for col in _COL.finditer(body):
        if body[at : col.start()].strip():
            raise _NotPatchable
        entries.append(xml_attributes(col.group("attrs")))
        at = col.end()
    if body[at:].strip():
        raise _NotPatchable
    for column, (width, hidden) in columns.items():
        entries = _split_at(entries, column)
        entry = next((e for e in entries if int(e[b"min"]) == column), None)
        if entry is None:
            entry = {b"min": b"%d" % column, b"max": b"%d" % column}
            entries.append(entry)
        for key in (b"width", b"customWidth", b"hidden"):
            entry.pop(key, None)
        if width:  # as openpyxl writes it: no width 0, a hidden column's width is its own
            entry[b"width"], entry[b"customWidth"] = _number_text(width), b"1"
        if hidden:
            entry[b"hidden"] = b"1"
    entries.sort(key=lambda e: int(e[b"min"]))
    text = b"".join(
        b"<col" + b"".join(b' %s="%s"' % item for item in entry.items()) + b"/>"
        for entry in entries
    )
    return head[: found.start()] + b"<cols>" + text + b"</cols>" + head[found.end() :]


def _split_at(entries: list[dict[bytes, bytes]], column: int) -> list[dict[bytes, bytes]]:
    """Return *entries* (``<col>`` attributes) with *column* in an entry of its own."""
    result = []
    for entry in entries:
        try:
            low, high = int(entry[b"min"]), int(entry[b"max"])
        except (KeyError, ValueError):
            raise _NotPatchable from None
        if not low <= column <= high or low == high:
            result.append(entry)
            continue
        for begin, end in ((low, column - 1), (column, column), (column + 1, high)):
            if begin <= end:
                result.append({**entry, b"min": b"%d" % begin, b"max": b"%d" % end})
    return result


def _dimension(head: bytes, cells: Mapping[tuple[int, int], object]) -> bytes:
    """Return the sheet's XML before ``<sheetData>`` with ``<dimension>`` covering *cells*."""
    found = re.search(rb'<dimension\s+ref="([A-Z]{1,3})([0-9]+)(?::([A-Z]{1,3})([0-9]+))?"', head)
    written = list(cells)
    if found is None or not written:
        return head
    first = (int(found.group(2)), column_number(found.group(1).decode()))
    last = first
    if found.group(3):
        last = (int(found.group(4)), column_number(found.group(3).decode()))
    top = min(first[0], *(row for row, _ in written))
    left = min(first[1], *(column for _, column in written))
    bottom = max(last[0], *(row for row, _ in written))
    right = max(last[1], *(column for _, column in written))
    if (top, left, bottom, right) == (*first, *last):
        return head
    ref = f"{column_letters(left)}{top}:{column_letters(right)}{bottom}".encode()
    return head[: found.start()] + b'<dimension ref="' + ref + b'"' + head[found.end() :]


_CELL_XFS = re.compile(rb"<cellXfs\b(?P<attrs>[^>]*?)>(?P<body>.*?)</cellXfs>", re.DOTALL)
_FILLS = re.compile(rb"<fills\b(?P<attrs>[^>]*?)>(?P<body>.*?)</fills>", re.DOTALL)
_XF = re.compile(rb"<xf\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</xf>)", re.DOTALL)
_FILL = re.compile(rb"<fill\b[^>]*?(?:/>|>.*?</fill>)", re.DOTALL)
_COUNT = re.compile(rb'\s+count="[^"]*"')


class _Styles:
    """The fills and cell formats of a package's styles, with those a patch adds.

    A fill and a cell format are added only when the styles do not hold an equal one yet, so
    pressing a button again adds nothing.
    """

    def __init__(self, data: bytes | None) -> None:
        self.source = data
        self.fills: list[bytes] = []
        self.formats: list[bytes] = []
        self.added = False
        if data is None:
            return
        if not plain_xml(data, b"<styleSheet") or _SINGLE_QUOTED.search(data):
            raise _NotPatchable
        fills, formats = _FILLS.search(data), _CELL_XFS.search(data)
        if fills is None or formats is None:
            raise _NotPatchable
        self.fills = _entries(_FILL, fills.group("body"))
        self.formats = _entries(_XF, formats.group("body"))

    def restyle(self, colour: str | None) -> Callable[[bytes], bytes]:
        """Return what turns a style index into the one with fill *colour* (None: no fill)."""
        if self.source is None:
            raise _NotPatchable
        if colour is None:
            fill = b'<fill><patternFill patternType="none"/></fill>'
        elif re.fullmatch(r"[0-9A-F]{8}", colour):
            fill = (
                b'<fill><patternFill patternType="solid"><fgColor rgb="%s"/>'
                b'<bgColor indexed="64"/></patternFill></fill>' % colour.encode()
            )
        else:
            raise _NotPatchable
        fill_id = self._index(self.fills, fill)

        def restyle(style: bytes) -> bytes:
            try:
                base = self.formats[int(style or b"0")]
            except (ValueError, IndexError):
                raise _NotPatchable from None
            found = _XF.fullmatch(base)
            assert found is not None
            attrs = xml_attributes(found.group("attrs"))
            if attrs.get(b"fillId", b"0") == b"%d" % fill_id:
                return style
            attrs[b"fillId"], attrs[b"applyFill"] = b"%d" % fill_id, b"1"
            text = b"<xf" + b"".join(b' %s="%s"' % item for item in attrs.items())
            body = found.group("body")
            text += b">" + body + b"</xf>" if body is not None else b"/>"
            return b"%d" % self._index(self.formats, text)

        return restyle

    def _index(self, entries: list[bytes], entry: bytes) -> int:
        """Return where *entry* is in *entries*, adding it at the end when it is not there."""
        for index, present in enumerate(entries):
            if present == entry:
                return index
        entries.append(entry)
        self.added = True
        return len(entries) - 1

    def data(self) -> bytes | None:
        """Return the styles with what was added (None: nothing was)."""
        if not self.added or self.source is None:
            return None
        data = self.source
        for pattern, entries in ((_FILLS, self.fills), (_CELL_XFS, self.formats)):
            found = pattern.search(data)
            assert found is not None
            name = b"fills" if pattern is _FILLS else b"cellXfs"
            attrs = _COUNT.sub(b"", found.group("attrs"))
            element = b'<%s count="%d"%s>%s</%s>' % (
                name,
                len(entries),
                attrs,
                b"".join(entries),
                name,
            )
            data = data[: found.start()] + element + data[found.end() :]
        return data


def _entries(pattern: re.Pattern[bytes], body: bytes) -> list[bytes]:
    """Return the elements *pattern* finds in *body*, refusing anything between them."""
    entries, at = [], 0
    for found in pattern.finditer(body):
        if body[at : found.start()].strip():
            raise _NotPatchable
        entries.append(found.group(0))
        at = found.end()
    if body[at:].strip():
        raise _NotPatchable
    return entries
