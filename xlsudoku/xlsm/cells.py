"""A1 addresses and Excel's column unit, for any workbook.

Columns are numbered from 1 (``A``) as rows are; an address is ``C5`` or, absolute, ``$C$5``;
a reference a person types names a sheet and, optionally, a range on it (``'My sheet'!A1:B9``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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


def character_width(points: float) -> float:
    """Return the column width in characters (Excel's unit) that is *points* wide.

    Excel's default font draws a character 7 pixels wide and pads a column by 5 pixels.

    >>> character_width(0), character_width(56.0)
    (0.0, 9.95)
    """
    pixels = points * 4 / 3
    return 0.0 if pixels <= 0 else round(max(pixels - 5, 0) / 7, 2)
