"""Reading and writing the workbook's defined names: the CellIO protocol and two adapters.

:mod:`xlsudoku.addin.actions` is written once against :class:`CellIO`; two adapters carry it:

- :class:`XlwingsIO` wraps an ``xlwings.Book``: the classic desktop book (``Book.caller()``)
  and the remote book xlwings Lite and xlwings Server build from Excel's JSON payload, where
  every write becomes an action Excel applies when the script returns.
- :class:`OpenpyxlIO` wraps an ``openpyxl.Workbook`` for the headless runner.

Both resolve a workbook-scoped defined name to its range, read a single cell as a value and a
block as a list of rows, and check first that the sheets and names an action needs exist and
keep the layout's contract (:meth:`CellIO.require`): each name on its sheet, with its shape.  A
workbook with a missing or renamed sheet, or a name moved onto another sheet (which would make
START overwrite Collection rows) or stretched to another shape, gets a message naming it before
anything is written.
"""

from __future__ import annotations

import copy
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from xlsudoku.addin import layout
from xlsudoku.engine.grid import SudokuError
from xlsudoku.xlsm.cells import (
    MAX_COLUMNS,
    MAX_ROWS,
    character_width,
    filled_rows,
    fit_block,
    keep_text,
    overlap,
    plain,
    plain_rows,
    range_shape,
    runs,
    sheet_reference,
)

if TYPE_CHECKING:  # pragma: no cover - imported for annotations only
    import xlwings as xw
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

Value = Any
"""A cell value: None, bool, int, float, str or a date."""

Block = list[list[Value]]


class MissingPart(SudokuError):
    """The workbook lacks a sheet or a defined name an action needs, or a name is misplaced."""


Place = tuple[str, tuple[int, int], str]
"""Where a defined name points: sheet title, ``(rows, columns)`` and the address text."""


class CellIO(Protocol):
    """Access to the workbook through its defined names (see :data:`addin.layout.NAMES`)."""

    def require(self, names: Iterable[str]) -> None:
        """Raise :class:`MissingPart` naming every missing sheet or defined name."""

    def read(self, name: str) -> Value | Block:
        """Return one cell's value, or a block of cells as a list of rows."""

    def write(self, name: str, value: Value | Block) -> None:
        """Write one value, or a block shaped like the name's range ("" and None blank a cell)."""

    def clear(self, name: str) -> None:
        """Blank every cell of the name's range (values only, formats stay)."""

    def table_rows(self, name: str) -> Block:
        """Return the rows under the header row *name*, down to the last non-empty one."""

    def append_rows(
        self,
        name: str,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None = None,
    ) -> int:
        """Write *rows* under the last non-empty row below header *name*; return the first row.

        *row_heights* (points, one per row) set the heights of the rows written (None leaves
        them).
        """

    def replace_rows(
        self,
        name: str,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None = None,
    ) -> None:
        """Make *rows* the whole table under header *name*: write them, blank the rows below."""

    def set_sizes(
        self,
        name: str,
        column_widths: Sequence[float] | None,
        row_heights: Sequence[float] | None,
    ) -> None:
        """Set the widths of the range's columns and the heights of its rows, in points.

        0 hides a column or row; None leaves that dimension as it is.
        """

    def fill(self, name: str, colour: str | None, cells: Iterable[tuple[int, int]] | None) -> None:
        """Set the fill of *cells* (0-based offsets in the range; None = all) to *colour*.

        *colour* is ``#RRGGBB``; None removes the fill.
        """

    def read_sheet(self, reference: str) -> Block | None:
        """Return the cells a person names: ``Sheet`` (its used range) or ``Sheet!A1:B9``.

        None when no sheet of the workbook has that name (case is forgiven).
        """

    def sheet_size(self, reference: str) -> tuple[int, int] | None:
        """Return ``(rows, columns)`` that :meth:`read_sheet` would read, reading no cell.

        None when no sheet of the workbook has that name.
        """

    def selected_row(self, sheet: str) -> int | None:
        """Return the row of the selected cell when *sheet* is the active sheet, else None."""


def missing_message(sheets: Iterable[str], names: Iterable[str], found: Iterable[str]) -> str:
    """Return the message for missing *sheets* and defined *names* (*found* = sheets present).

    >>> print(missing_message(["Collection"], [], ["Generator", "Analyze"]))
    The workbook has no sheet 'Collection' (its sheets: Generator, Analyze); restore it from \
workbooks/xlsudoku.xlsm.
    >>> print(missing_message([], ["Opens"], ["Generator"]))
    The workbook has no defined name 'Opens' (Generator!C6); restore it from \
workbooks/xlsudoku.xlsm.
    """
    parts = []
    sheets, names = list(dict.fromkeys(sheets)), list(dict.fromkeys(names))
    if sheets:
        listed = ", ".join(f"'{sheet}'" for sheet in sheets)
        noun = "sheet" if len(sheets) == 1 else "sheets"
        parts.append(f"no {noun} {listed} (its sheets: {', '.join(found) or 'none'})")
    if names:
        listed = ", ".join(f"'{name}' ({layout.NAMES[name]})" for name in names)
        noun = "defined name" if len(names) == 1 else "defined names"
        parts.append(f"no {noun} {listed}")
    return "The workbook has " + " and ".join(parts) + "; restore it from workbooks/xlsudoku.xlsm."


def misplaced_message(name: str, place: Place) -> str | None:
    """Return why defined *name* at *place* breaks the layout's contract (None if it keeps it).

    >>> misplaced_message("Status", ("Collection", (1, 1), "$C$13"))[26:]
    'points at Collection!$C$13, not at the sheet Generator (Generator!C17)'
    >>> misplaced_message("PuzzleGrid", ("Generator", (9, 8), "$F$4:$M$12"))[30:]
    'points at Generator!$F$4:$M$12, 9x8 cells, not 16x16 (Generator!F4:U19)'
    >>> misplaced_message("Opens", ("Generator", (1, 1), "$C$5")) is None
    True
    """
    ref = layout.NAMES[name]
    sheet, shape, address = place
    where = f"the defined name '{name}' points at {sheet}!{address}"
    if sheet.casefold() != ref.sheet.casefold():
        return f"{where}, not at the sheet {ref.sheet} ({ref})"
    if tuple(shape) != ref.shape:
        rows, columns = shape
        return f"{where}, {rows}x{columns} cells, not {ref.shape[0]}x{ref.shape[1]} ({ref})"
    return None


def overlap_messages(placed: Mapping[str, Place]) -> list[str]:
    """Return why defined names at their *placed* positions overlap, one line per moved name.

    A table's header takes the rows under it too: a button writing one name would write over
    the other.

    >>> overlap_messages({"Status": ("Generator", (1, 1), "$C$6"),
    ...                   "Opens": ("Generator", (1, 1), "$C$6")})[0][:64]
    "the defined name 'Status' points at Generator!$C$6, over the cel"
    >>> overlap_messages({"Status": ("Generator", (1, 1), "$C$16"),
    ...                   "Opens": ("Generator", (1, 1), "$C$6")})
    []
    """
    order = {name: index for index, name in enumerate(layout.NAMES)}
    named = sorted(placed, key=lambda name: order.get(name, len(order)))
    spans = {name: layout.footprint(name, placed[name][2]) for name in named}
    covered: dict[str, list[str]] = {}
    for index, first in enumerate(named):
        for second in named[index + 1 :]:
            same_sheet = placed[first][0].casefold() == placed[second][0].casefold()
            if same_sheet and overlap(spans[first], spans[second]):
                moved, other = (second, first) if _at_home(first, placed) else (first, second)
                covered.setdefault(moved, []).append(other)
    problems = []
    for moved, others in covered.items():
        sheet, _, address = placed[moved]
        listed = ", ".join(f"'{other}' ({placed[other][2]})" for other in others)
        problems.append(
            f"the defined name '{moved}' points at {sheet}!{address}, over the cells of "
            f"{listed}: a button would write one over the other (the template has it at "
            f"{layout.NAMES[moved]})"
        )
    return problems


def _at_home(name: str, placed: Mapping[str, Place]) -> bool:
    """Return True when *name* points where the template put it."""
    ref = layout.NAMES[name]
    sheet, _, address = placed[name]
    return sheet.casefold() == ref.sheet.casefold() and address.replace("$", "") == ref.address


def require(names: Iterable[str], found: Sequence[str], place: Callable[[str], Place]) -> None:
    """Raise :class:`MissingPart` naming each missing sheet and defined name of *names*.

    A sheet is missing when not in *found*; a name when *place* raises ``KeyError`` or
    ``AttributeError`` for it (each adapter resolves names its own way); a name that is not one
    block (``ValueError``) or points at another sheet or shape than the layout's is misplaced.
    """
    names = list(names)
    sheets = _missing_sheets(names, found)
    missing_names = []
    misplaced = []
    placed: dict[str, Place] = {}
    for name in names:
        if layout.NAMES[name].sheet in sheets:
            continue
        try:
            where = place(name)
        except ValueError as error:  # the name is there but is not one block of cells
            misplaced.append(str(error))
            continue
        except (KeyError, AttributeError, TypeError):
            missing_names.append(name)
            continue
        problem = misplaced_message(name, where)
        if problem is not None:
            misplaced.append(problem)
        else:
            placed[name] = where
    if sheets or missing_names:
        raise MissingPart(missing_message(sheets, missing_names, found))
    misplaced += overlap_messages(placed)
    if misplaced:
        raise MissingPart(
            "The workbook breaks its layout: "
            + "; ".join(misplaced)
            + ". Nothing was written; restore the names from workbooks/xlsudoku.xlsm."
        )


def _missing_sheets(names: Iterable[str], found: Sequence[str]) -> list[str]:
    """Return the layout sheets that *names* live on and that are not among *found*."""
    present = {sheet.casefold() for sheet in found}
    return [
        layout.NAMES[name].sheet
        for name in names
        if layout.NAMES[name].sheet.casefold() not in present
    ]


@dataclass(frozen=True, slots=True)
class _Table:
    """A table on a sheet: the header row, its columns and the rows found below it."""

    sheet: Any
    header_row: int
    first_col: int
    last_col: int
    rows: Block


class _Tables:
    """``table_rows``, ``append_rows`` and ``replace_rows`` of both adapters, written once.

    An adapter gives three primitives: ``_table`` (read the rows under a header), and
    ``_write_rows`` / ``_blank_rows`` (write or blank whole rows of the table's columns).
    """

    def _table(self, name: str) -> _Table:
        raise NotImplementedError

    def _write_rows(
        self,
        table: _Table,
        start: int,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None,
    ) -> None:
        raise NotImplementedError

    def _blank_rows(self, table: _Table, first: int, last: int) -> None:
        raise NotImplementedError

    def table_rows(self, name: str) -> Block:
        """Return the rows under header *name* down to the last non-empty one."""
        rows = self._table(name).rows
        return rows[: filled_rows(rows)]

    def append_rows(
        self,
        name: str,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None = None,
    ) -> int:
        """Write *rows* below the table's last non-empty row; return the first row number."""
        table = self._table(name)
        start = table.header_row + 1 + filled_rows(table.rows)
        if rows:
            self._write_rows(table, start, rows, row_heights)
        return start

    def replace_rows(
        self,
        name: str,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None = None,
    ) -> None:
        """Write *rows* under the header and blank the old rows below them."""
        table = self._table(name)
        old = filled_rows(table.rows)
        if rows:
            self._write_rows(table, table.header_row + 1, rows, row_heights)
        if old > len(rows):
            self._blank_rows(table, table.header_row + 1 + len(rows), table.header_row + old)


# -- xlwings -----------------------------------------------------------------------------------


class XlwingsIO(_Tables):
    """CellIO over an ``xlwings.Book``: desktop (``Book.caller()``) or remote (Lite/Server).

    Reads keep Excel's error values as text (``#N/A``) so the parameter checks can name them;
    text that Excel would turn into a number or date on writing gets a leading apostrophe.
    """

    def __init__(self, book: xw.Book) -> None:
        self.book = book
        # Lite and Server: each write is an action an Office.js client applies.  Only actions
        # every client registers are sent (tests/test_xl.py lists them): the xlwings Server
        # client has no column width or row height, so sizes stay as the template sets them
        # and the Collection's rows are autofitted instead.
        engine = getattr(getattr(book.app, "engine", None), "name", "")
        self.remote = engine in ("remote", "officejs")

    def _sheet_names(self) -> list[str]:
        return [sheet.name for sheet in self.book.sheets]

    def put_picture(self, path: str, sheet: str, anchor: str, name: str) -> None:
        """Insert the picture file *path* into *sheet* at cell *anchor*, named *name*.

        An earlier picture of that name is deleted first, so pressing again replaces it.
        """
        target = self.book.sheets[sheet]
        for picture in list(target.pictures):
            if picture.name == name:
                picture.delete()
        picture = target.pictures.add(path, anchor=target.range(anchor))
        picture.name = name

    def require(self, names: Iterable[str]) -> None:
        """Raise :class:`MissingPart` naming each missing or misplaced sheet or defined name."""
        require(names, self._sheet_names(), self._place)

    def _range(self, name: str) -> Any:
        return self.book.names[name].refers_to_range

    def _place(self, name: str) -> Place:
        rng = self._range(name)
        return str(rng.sheet.name), tuple(rng.shape), str(rng.address)  # type: ignore[return-value]

    def read(self, name: str) -> Value | Block:
        """Return one cell's value or a block of rows."""
        rng = self._range(name)
        if rng.shape == (1, 1):
            return plain(rng.options(err_to_str=True).value)
        block = rng.options(ndim=2, err_to_str=True).value
        return plain_rows(block)

    def write(self, name: str, value: Value | Block) -> None:
        """Write one value or a block shaped like the range."""
        rng = self._range(name)
        block = fit_block(value, rng.shape)
        rng.value = [[keep_text(v) for v in row] for row in block]

    def clear(self, name: str) -> None:
        """Blank the range's values.

        Written as empty values rather than ``clear_contents``: Excel refuses to clear part of a
        merged block, and the status and hint names point at the first cell of one.
        """
        rng = self._range(name)
        rows, columns = rng.shape
        rng.value = [[None] * columns for _ in range(rows)]

    def read_sheet(self, reference: str) -> Block | None:
        """Return a sheet's used range or a range on it (see :meth:`CellIO.read_sheet`)."""
        found = sheet_reference(reference, self._sheet_names())
        if found is None:
            return None
        sheet = self.book.sheets[found[0]]
        if found[1] is not None:
            rng = sheet.range(found[1])
        else:
            try:
                rng = sheet.used_range
            except NotImplementedError:  # the remote engine before 0.37: the payload's values
                return plain_rows(sheet.api["values"])
        return plain_rows(rng.options(ndim=2, err_to_str=True).value)

    def sheet_size(self, reference: str) -> tuple[int, int] | None:
        """Return the size :meth:`read_sheet` would read: its address's, or the used range's."""
        found = sheet_reference(reference, self._sheet_names())
        if found is None:
            return None
        if found[1] is not None:
            return range_shape(found[1])
        sheet = self.book.sheets[found[0]]
        try:
            rows, columns = sheet.used_range.shape
        except NotImplementedError:  # the remote engine before 0.37: the payload's values
            values = sheet.api["values"]
            return len(values), max((len(row) for row in values), default=0)
        return int(rows), int(columns)

    def selected_row(self, sheet: str) -> int | None:
        """Return the selected cell's row when *sheet* is active (Excel's selection)."""
        try:
            selection = self.book.selection
        except (AttributeError, KeyError, NotImplementedError, TypeError):
            return None  # no selection in this request (a shape, or an older client)
        if selection is None or selection.sheet.name != sheet:
            return None
        return int(selection.row)

    def _table(self, name: str) -> _Table:
        """Return the table under header *name*: every row down to the sheet's last used row."""
        header = self._range(name)
        sheet = header.sheet
        first_row, first_col = header.row, header.column
        last_col = first_col + header.shape[1] - 1
        last_row = _last_used_row(sheet)
        rows: Block = []
        if last_row > first_row:
            block = sheet.range((first_row + 1, first_col), (last_row, last_col))
            values = block.options(ndim=2, err_to_str=True).value
            rows = plain_rows(values)
        return _Table(sheet, first_row, first_col, last_col, rows)

    def _write_rows(
        self,
        table: _Table,
        start: int,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None,
    ) -> None:
        target = table.sheet.range(
            (start, table.first_col), (start + len(rows) - 1, table.last_col)
        )
        block = fit_block([list(row) for row in rows], target.shape)
        target.value = [[keep_text(v) for v in row] for row in block]
        if self.remote:
            if row_heights:
                target.rows.autofit()
            return
        for offset, height in enumerate(row_heights or ()):
            target.rows[offset].row_height = height

    def _blank_rows(self, table: _Table, first: int, last: int) -> None:
        stale = table.sheet.range((first, table.first_col), (last, table.last_col))
        stale.value = [[None] * stale.shape[1] for _ in range(stale.shape[0])]

    def set_sizes(
        self,
        name: str,
        column_widths: Sequence[float] | None,
        row_heights: Sequence[float] | None,
    ) -> None:
        """Set column widths and row heights (points; xlwings' desktop engines take characters).

        Hidden columns and rows (size 0) are hidden through ``column_width``/``row_height`` 0.
        A remote book (Lite, Server) leaves the sizes as they are: not every client can set
        them (docs/workbook.md, "The sheets").
        """
        if self.remote:
            return
        rng = self._range(name)
        sheet, row, column = rng.sheet, rng.row, rng.column
        last_row, last_column = row + rng.shape[0] - 1, column + rng.shape[1] - 1
        for first, last, points in runs(column_widths or ()):
            span = sheet.range((row, column + first), (last_row, column + last))
            span.column_width = character_width(points)
        for first, last, points in runs(row_heights or ()):
            sheet.range((row + first, column), (row + last, last_column)).row_height = points

    def fill(self, name: str, colour: str | None, cells: Iterable[tuple[int, int]] | None) -> None:
        """Set the fill colour of cells of the range (None = no fill)."""
        rng = self._range(name)
        if colour is None and self.remote:
            # The xlwings Server client sets the colour it is sent as text (no None), and the
            # remote engine before 0.37 takes only "#RRGGBB": white is what no fill looks like
            # on these sheets (their grids draw no gridlines).
            colour = NO_FILL_WHITE
        for target in [rng] if cells is None else (rng[r, c] for r, c in cells):
            target.color = colour


NO_FILL_WHITE = "#FFFFFF"


def _last_used_row(sheet: Any) -> int:
    """Return the last row of *sheet*'s used range.

    xlwings' remote engine (Lite, Server) has ``Sheet.used_range`` only from 0.37; before, the
    sheet's ``api`` is the payload Excel sent, whose ``values`` are the used range from A1.
    """
    try:
        used = sheet.used_range
    except NotImplementedError:
        return max(len(sheet.api["values"]), 1)
    return int(used.row + used.shape[0] - 1)


# -- openpyxl ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _destinations(formula: str) -> tuple[tuple[str, str], ...]:
    """Return the ``(sheet, address)`` pairs a defined name's *formula* points at.

    Cached by the formula text, so a name moved to another place is read again: openpyxl
    tokenizes the formula on every look-up, and a button looks its names up thousands of times.

    >>> _destinations("'Play'!$C$5:$K$13")
    (('Play', '$C$5:$K$13'),)
    """
    from openpyxl.workbook.defined_name import DefinedName

    return tuple(DefinedName("name", attr_text=formula).destinations)


class OpenpyxlIO(_Tables):
    """CellIO over an ``openpyxl`` workbook loaded with formulas (``data_only=False``).

    A cell holding a formula reads as its text (``=A1+1``): openpyxl cannot calculate, and
    the parameter checks say so.
    """

    def __init__(self, workbook: Workbook) -> None:
        self.workbook = workbook
        # sheet title -> the (row, column) cells whose values this adapter wrote: saving keeps
        # every other cell as the file had it (xlsudoku.xlsm.patch)
        self.written: dict[str, set[tuple[int, int]]] = {}
        # sheet title -> the columns and the rows whose sizes it set
        self.resized: dict[str, tuple[set[int], set[int]]] = {}
        # sheet title -> cell -> the fill colour it set ("FFRRGGBB", None for no fill)
        self.filled: dict[str, dict[tuple[int, int], str | None]] = {}

    def _wrote(self, sheet: Worksheet, row: int, column: int) -> None:
        self.written.setdefault(sheet.title, set()).add((row, column))

    def _sheet_names(self) -> list[str]:
        return list(self.workbook.sheetnames)

    def _resolve(self, name: str) -> tuple[Worksheet, tuple[int, int, int, int]]:
        """Return the sheet and ``(min_row, min_col, max_row, max_col)`` of defined *name*."""
        sheet_name, address, (min_row, min_col, max_row, max_col) = self._bounds(name)
        if min_row is None or min_col is None or max_row is None or max_col is None:
            raise ValueError(f"the defined name '{name}' does not point at one block of cells")
        return self.workbook[sheet_name], (min_row, min_col, max_row, max_col)

    def _bounds(self, name: str) -> tuple[str, str, tuple[int | None, ...]]:
        """Return the sheet, address and ``(min_row, min_col, max_row, max_col)`` of *name*.

        A whole row or column has None for the open ends.
        """
        from openpyxl.utils.cell import range_boundaries

        defined = self.workbook.defined_names.get(name)
        if defined is None:
            raise KeyError(name)
        destinations = _destinations(defined.value)
        if len(destinations) != 1:
            raise ValueError(f"the defined name '{name}' does not point at one block of cells")
        sheet_name, address = destinations[0]
        if sheet_name not in self.workbook.sheetnames:
            raise KeyError(sheet_name)
        min_col, min_row, max_col, max_row = range_boundaries(address.replace("$", ""))
        return sheet_name, address, (min_row, min_col, max_row, max_col)

    def _place(self, name: str) -> Place:
        sheet_name, address, (min_row, min_col, max_row, max_col) = self._bounds(name)
        rows = (max_row or MAX_ROWS) - (min_row or 1) + 1
        columns = (max_col or MAX_COLUMNS) - (min_col or 1) + 1
        return sheet_name, (rows, columns), address

    def require(self, names: Iterable[str]) -> None:
        """Raise :class:`MissingPart` naming each missing or misplaced sheet or defined name."""
        require(names, self._sheet_names(), self._place)

    def read(self, name: str) -> Value | Block:
        """Return one cell's value or a block of rows."""
        sheet, (r0, c0, r1, c1) = self._resolve(name)
        block = [
            [plain(sheet.cell(r, c).value) for c in range(c0, c1 + 1)] for r in range(r0, r1 + 1)
        ]
        if (r0, c0) == (r1, c1):
            return block[0][0]
        return block

    def read_sheet(self, reference: str) -> Block | None:
        """Return a sheet's used range or a range on it (see :meth:`CellIO.read_sheet`)."""
        found = sheet_reference(reference, self._sheet_names())
        if found is None:
            return None
        sheet = self.workbook[found[0]]
        cells = sheet[found[1]] if found[1] is not None else sheet.iter_rows()
        if found[1] is not None and not isinstance(cells, tuple):
            cells = ((cells,),)
        elif found[1] is not None and cells and not isinstance(cells[0], tuple):
            cells = (cells,)
        return [[plain(cell.value) for cell in row] for row in cells]

    def sheet_size(self, reference: str) -> tuple[int, int] | None:
        """Return the size :meth:`read_sheet` would read: its address's, or the used range's."""
        found = sheet_reference(reference, self._sheet_names())
        if found is None:
            return None
        if found[1] is not None:
            return range_shape(found[1])
        sheet = self.workbook[found[0]]
        return sheet.max_row, sheet.max_column

    def selected_row(self, sheet: str) -> int | None:
        """Return the row of the active cell the file keeps when *sheet* is its active sheet."""
        active = self.workbook.active
        if active is None or active.title != sheet:
            return None
        views = active.views.sheetView
        selection = views[0].selection if views else []
        cell = selection[0].activeCell if selection else None
        match = re.fullmatch(r"\$?[A-Z]{1,3}\$?([1-9]\d*)", str(cell or "").upper())
        return int(match[1]) if match else None

    def write(self, name: str, value: Value | Block) -> None:
        """Write one value or a block shaped like the range."""
        sheet, (r0, c0, r1, c1) = self._resolve(name)
        self._write_block(sheet, r0, c0, fit_block(value, (r1 - r0 + 1, c1 - c0 + 1)))

    @staticmethod
    def _writable(sheet: Worksheet, row: int, column: int) -> Any:
        """Return the cell at *row*, *column*, refusing one hidden under a merged block."""
        from openpyxl.cell.cell import MergedCell

        cell = sheet.cell(row, column)
        if isinstance(cell, MergedCell):
            raise MissingPart(
                f"The cell {sheet.title}!{cell.coordinate} lies inside a merged block and "
                "cannot be written: a defined name was moved over merged cells. Nothing was "
                "written; restore the names from workbooks/xlsudoku.xlsm."
            )
        return cell

    def _write_block(self, sheet: Worksheet, r0: int, c0: int, block: Block) -> None:
        for r, row in enumerate(block):
            for c, value in enumerate(row):
                cell = self._writable(sheet, r0 + r, c0 + c)
                self._wrote(sheet, r0 + r, c0 + c)
                cell.value = None if value == "" else value
                if isinstance(value, str) and value.startswith("="):
                    cell.data_type = "s"  # text that only looks like a formula stays text

    def clear(self, name: str) -> None:
        """Blank the range's values."""
        sheet, (r0, c0, r1, c1) = self._resolve(name)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                self._writable(sheet, r, c).value = None
                self._wrote(sheet, r, c)

    def _table(self, name: str) -> _Table:
        sheet, (r0, c0, _, c1) = self._resolve(name)
        # Read what is there without creating a cell for every empty coordinate (openpyxl's
        # sheet.cell() adds one): a stray value far down costs one row, not a million.
        present = sheet._cells
        last = max((r for r, c in present if c0 <= c <= c1 and r > r0), default=r0)
        columns = range(c0, c1 + 1)
        rows = [
            [plain(present[r, c].value) if (r, c) in present else None for c in columns]
            for r in range(r0 + 1, last + 1)
        ]
        return _Table(sheet, r0, c0, c1, rows)

    def _write_rows(
        self,
        table: _Table,
        start: int,
        rows: Sequence[Sequence[Value]],
        row_heights: Sequence[float] | None,
    ) -> None:
        from openpyxl.utils.cell import get_column_letter

        sheet, c0, c1 = table.sheet, table.first_col, table.last_col
        # A new cell takes its column's format (text, date, wrapping), as one typed in Excel does.
        for column in range(c0, c1 + 1):
            dimension = sheet.column_dimensions.get(get_column_letter(column))
            if dimension is not None and dimension.has_style:
                for row in range(start, start + len(rows)):
                    cell = sheet.cell(row, column)
                    if not cell.has_style:
                        cell._style = copy.copy(dimension._style)
        block = fit_block([list(row) for row in rows], (len(rows), c1 - c0 + 1))
        self._write_block(sheet, start, c0, block)
        for offset, height in enumerate(row_heights or ()):
            sheet.row_dimensions[start + offset].height = height
        self.resized.setdefault(sheet.title, (set(), set()))[1].update(
            range(start, start + len(row_heights or ()))
        )

    def _blank_rows(self, table: _Table, first: int, last: int) -> None:
        for row in range(first, last + 1):
            for column in range(table.first_col, table.last_col + 1):
                table.sheet.cell(row, column).value = None
                self._wrote(table.sheet, row, column)

    def set_sizes(
        self,
        name: str,
        column_widths: Sequence[float] | None,
        row_heights: Sequence[float] | None,
    ) -> None:
        """Set column widths and row heights (points); 0 hides the column or row."""
        from openpyxl.utils.cell import get_column_letter

        sheet, (r0, c0, _, _) = self._resolve(name)
        for offset, points in enumerate(column_widths or ()):
            dimension = sheet.column_dimensions[get_column_letter(c0 + offset)]
            dimension.width, dimension.hidden = character_width(points), points <= 0
        for offset, points in enumerate(row_heights or ()):
            dimension = sheet.row_dimensions[r0 + offset]
            dimension.height, dimension.hidden = points, points <= 0
        columns, rows = self.resized.setdefault(sheet.title, (set(), set()))
        columns.update(range(c0, c0 + len(column_widths or ())))
        rows.update(range(r0, r0 + len(row_heights or ())))

    def fill(self, name: str, colour: str | None, cells: Iterable[tuple[int, int]] | None) -> None:
        """Set the fill colour of cells of the range (None = no fill)."""
        from openpyxl.styles import PatternFill
        from openpyxl.styles.cell_style import StyleArray

        sheet, (r0, c0, r1, c1) = self._resolve(name)
        rgb = None if colour is None else "FF" + colour.lstrip("#").upper()
        pattern = PatternFill(fill_type=None) if rgb is None else PatternFill("solid", fgColor=rgb)
        every = itertools.product(range(r1 - r0 + 1), range(c1 - c0 + 1))
        filled = self.filled.setdefault(sheet.title, {})
        # The fill is looked up in the workbook's table once and its index set on each cell, as
        # ``cell.fill = pattern`` does: that assignment hashes and compares the fill again for
        # every cell, which made filling a grid the slowest part of a headless button.
        fill_id = sheet.parent._fills.add(pattern)
        for r, c in every if cells is None else cells:
            cell = self._writable(sheet, r0 + r, c0 + c)
            if not cell._style:
                cell._style = StyleArray()
            cell._style.fillId = fill_id
            filled[r0 + r, c0 + c] = rgb
