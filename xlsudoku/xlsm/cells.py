"""Cells of any workbook: A1 addresses, Excel's column unit, and values as Excel keeps them.

Columns are numbered from 1 (``A``) as rows are; an address is ``C5`` or, absolute, ``$C$5``;
a reference a person types names a sheet and, optionally, a range on it (``'My sheet'!A1:B9``).
A block of values is a list of rows.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Every error value Excel shows in a cell (Office.js sends them as these strings, openpyxl
# reads them from cells of type "e").
EXCEL_ERRORS = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#CONNECT!",
        "#BUSY!",
        "#UNKNOWN!",
        "#DATA!",
        "#PYTHON!",
    }
)
# Text Excel would turn into a number, date, time, percentage or formula when a program writes
# it through Range.Value (COM) or setValues (Office.js); a leading apostrophe keeps it text.
_EXCEL_WOULD_CONVERT = re.compile(r"^\s*[=+@-]|^[\d\s.,:/%$eE+-]*\d[\d\s.,:/%$eE+-]*$")

MAX_ROWS = 1_048_576  # Excel's sheet size: what a whole column or row spans
MAX_COLUMNS = 16_384
_CELL = re.compile(r"^\$?([A-Z]{1,3})\$?([1-9][0-9]*)$")
_RANGE = re.compile(r"[A-Z]{1,3}[1-9]\d*(:[A-Z]{1,3}[1-9]\d*)?")


def column_number(letters: str) -> int:
    """Return the 1-based number of column *letters* (0 for none).

    >>> column_number("A"), column_number("Q"), column_number("AA"), column_number("XFD")
    (1, 17, 27, 16384)
    """
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def column_letters(number: int) -> str:
    """Return the letters of 1-based column *number*.

    >>> column_letters(1), column_letters(17), column_letters(27)
    ('A', 'Q', 'AA')
    """
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def parse_cell(address: str) -> tuple[int, int]:
    """Return ``(row, column)``, both 1-based, of a single-cell A1 *address*.

    >>> parse_cell("C5"), parse_cell("$F$12")
    ((5, 3), (12, 6))
    """
    match = _CELL.match(address.upper())
    if match is None:
        raise ValueError(f"not a cell address: {address!r}")
    return int(match.group(2)), column_number(match.group(1))


def cell_address(row: int, column: int) -> str:
    """Return the A1 address of 1-based *row* and *column*.

    >>> cell_address(12, 6)
    'F12'
    """
    return f"{column_letters(column)}{row}"


def absolute(address: str) -> str:
    """Return *address* (a cell or a rectangle) with ``$`` before every column and row.

    >>> absolute("C5"), absolute("BC1:BC6")
    ('$C$5', '$BC$1:$BC$6')
    """
    parts = []
    for part in address.split(":"):
        row, column = parse_cell(part)
        parts.append(f"${column_letters(column)}${row}")
    return ":".join(parts)


def sheet_reference(text: str, sheets: Sequence[str]) -> tuple[str, str | None] | None:
    """Return (sheet, address or None) of a reference such as ``Paste`` or ``'My sheet'!A1:A9``.

    None when *text* names no sheet of *sheets* (case is forgiven) or its address is not a
    range.

    >>> sheet_reference("paste!$a$1:a20", ["Generator", "Paste"])
    ('Paste', 'A1:A20')
    >>> sheet_reference("'Paste'", ["Paste"]), sheet_reference("4...1", ["Paste"])
    (('Paste', None), None)
    """
    name, bang, address = text.strip().rpartition("!")
    if not bang:
        name, address = address, ""
    name = name.strip()
    if len(name) > 1 and name[0] == name[-1] == "'":
        name = name[1:-1].replace("''", "'")
    sheet = next((s for s in sheets if s.lower() == name.lower()), None)
    cells = address.replace("$", "").strip().upper()
    if sheet is None or (cells and not _RANGE.fullmatch(cells)):
        return None
    return sheet, cells or None


def range_shape(address: str) -> tuple[int, int]:
    """Return ``(rows, columns)`` of the cell or rectangle *address*, reading no cell.

    >>> range_shape("A1:A500"), range_shape("$B$2"), range_shape("A1:XFD1048576")
    ((500, 1), (1, 1), (1048576, 16384))
    """
    first, _, last = address.partition(":")
    (top, left), (bottom, right) = parse_cell(first), parse_cell(last or first)
    return abs(bottom - top) + 1, abs(right - left) + 1


def character_width(points: float) -> float:
    """Return the column width in characters (Excel's unit) that is *points* wide.

    Excel's default font draws a character 7 pixels wide and pads a column by 5 pixels.

    >>> character_width(0), character_width(56.0)
    (0.0, 9.95)
    """
    pixels = points * 4 / 3
    return 0.0 if pixels <= 0 else round(max(pixels - 5, 0) / 7, 2)


def keep_text(value: Any) -> Any:
    """Return *value* as a program writes it so that Excel keeps text as text.

    >>> keep_text("1,5"), keep_text("=A1"), keep_text("r3c5"), keep_text(7)
    ("'1,5", "'=A1", 'r3c5', 7)
    """
    if isinstance(value, str) and _EXCEL_WOULD_CONVERT.match(value):
        return "'" + value
    return value


def plain(value: Any) -> Any:
    """Return a cell value as a plain Python value (formula objects become their text).

    >>> plain(3.5), plain(type("ArrayFormula", (), {"text": "=A1:A2"})())
    (3.5, '=A1:A2')
    """
    if value is None or isinstance(value, bool | int | float | str | dt.date | dt.time):
        return value
    text = getattr(value, "text", None)  # openpyxl's ArrayFormula keeps the formula in .text
    return text if isinstance(text, str) else str(value)


def plain_rows(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Return a block of cell values with each made :func:`plain`."""
    return [[plain(value) for value in row] for row in rows]


def fit_block(value: Any, shape: tuple[int, int]) -> list[list[Any]]:
    """Return *value* as a block of *shape*; a single value is repeated, short rows padded.

    >>> fit_block(0, (1, 2)), fit_block([[1], [2, 3]], (2, 2))
    ([[0, 0]], [[1, None], [2, 3]])
    """
    rows, columns = shape
    if not isinstance(value, list | tuple):
        return [[value] * columns for _ in range(rows)]
    block = [list(row) if isinstance(row, list | tuple) else [row] for row in value]
    if len(block) > rows or any(len(row) > columns for row in block):
        raise ValueError(f"{len(block)} rows do not fit a range of {rows}x{columns} cells")
    block += [[] for _ in range(rows - len(block))]
    return [row + [None] * (columns - len(row)) for row in block]


def filled_rows(rows: Sequence[Sequence[Any]]) -> int:
    """Return how many leading rows reach the last row with a non-blank value.

    >>> filled_rows([[1], [None], [""]]), filled_rows([[None]])
    (1, 0)
    """
    for index in range(len(rows) - 1, -1, -1):
        if any(value not in (None, "") for value in rows[index]):
            return index + 1
    return 0


def runs(sizes: Sequence[float]) -> list[tuple[int, int, float]]:
    """Return ``(first, last, size)`` for each run of equal *sizes* (offsets inclusive).

    >>> runs([5, 5, 0, 0, 0, 5])
    [(0, 1, 5), (2, 4, 0), (5, 5, 5)]
    """
    found: list[tuple[int, int, float]] = []
    for offset, size in enumerate(sizes):
        if found and found[-1][2] == size and found[-1][1] == offset - 1:
            found[-1] = (found[-1][0], offset, size)
        else:
            found.append((offset, offset, size))
    return found


@dataclass(frozen=True, slots=True)
class Ref:
    """A place in a workbook: a sheet and an A1 address (one cell or a rectangle).

    >>> ref = Ref("Generator", "F4:N12")
    >>> ref.shape, ref.top_left, ref.formula
    ((9, 9), 'F4', 'Generator!$F$4:$N$12')
    >>> str(Ref("Generator", "C5"))
    'Generator!C5'
    """

    sheet: str
    address: str

    def __post_init__(self) -> None:
        for part in self.address.split(":"):
            parse_cell(part)

    def __str__(self) -> str:
        return f"{self.sheet}!{self.address}"

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """Return ``(first_row, first_column, last_row, last_column)``, 1-based.

        >>> Ref("Analyze", "C5:K13").bounds
        (5, 3, 13, 11)
        """
        parts = self.address.split(":")
        first_row, first_col = parse_cell(parts[0])
        last_row, last_col = parse_cell(parts[-1])
        return first_row, first_col, last_row, last_col

    @property
    def shape(self) -> tuple[int, int]:
        """Return ``(rows, columns)``.

        >>> Ref("Generator", "P16:Q35").shape
        (20, 2)
        """
        first_row, first_col, last_row, last_col = self.bounds
        return last_row - first_row + 1, last_col - first_col + 1

    @property
    def top_left(self) -> str:
        """Return the address of the first cell.

        >>> Ref("Generator", "P4:Q13").top_left
        'P4'
        """
        return self.address.split(":")[0]

    @property
    def formula(self) -> str:
        """Return the absolute reference a defined name points to.

        >>> Ref("Collection", "A1:K1").formula
        'Collection!$A$1:$K$1'
        """
        return f"{self.sheet}!{absolute(self.address)}"

    def cell(self, row: int, column: int) -> str:
        """Return the address of the cell at 0-based offset (*row*, *column*) inside this ref.

        >>> Ref("Generator", "F4:N12").cell(8, 8)
        'N12'
        """
        rows, columns = self.shape
        if not (0 <= row < rows and 0 <= column < columns):
            raise IndexError(f"offset ({row}, {column}) outside {self}")
        first_row, first_col, _, _ = self.bounds
        return cell_address(first_row + row, first_col + column)

    def row_span(self, row: int) -> Ref:
        """Return this ref's columns on 1-based sheet *row* (a heading over a block).

        >>> Ref("Generator", "F4:U19").row_span(3).address
        'F3:U3'
        """
        _, first_col, _, last_col = self.bounds
        return Ref(self.sheet, f"{cell_address(row, first_col)}:{cell_address(row, last_col)}")

    def part(self, rows: int, columns: int) -> Ref:
        """Return the top-left *rows* x *columns* part of this ref.

        >>> Ref("Generator", "F4:U19").part(9, 9).address
        'F4:N12'
        """
        first_row, first_col, _, _ = self.bounds
        return Ref(
            self.sheet,
            f"{cell_address(first_row, first_col)}:"
            f"{cell_address(first_row + rows - 1, first_col + columns - 1)}",
        )


def overlap(first: tuple[int, int, int, int], second: tuple[int, int, int, int]) -> bool:
    """Return True when two ``(first_row, first_column, last_row, last_column)`` bounds meet.

    >>> overlap((4, 2, 14, 3), (6, 3, 6, 3)), overlap((16, 3, 16, 3), (6, 3, 6, 3))
    (True, False)
    """
    return not (
        first[2] < second[0] or second[2] < first[0] or first[3] < second[1] or second[3] < first[1]
    )
