"""Puzzles, entries and pencil marks in cells, read with messages that name the cell.

Puzzles are read by :func:`read_block` (the top-left corner of a 16x16 block of cells, shaped
by a geometry: digits 1-9, 10-16 or the letters A-G above 9, blank, 0 or ``.`` for an empty
cell), :func:`read_grid` (a block exactly the puzzle's size) and :func:`read_string` (a puzzle
typed as one line of text in one cell); a puzzle Excel turned into a number is read back when
Excel kept it whole (:func:`number_puzzle`).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Sequence

from xlsudoku.addin import layout
from xlsudoku.addin.params.cells import (
    ParamError,
    Raw,
    as_text,
    is_blank,
    number_of,
    shown,
    unusable,
)
from xlsudoku.engine.formats import read_puzzles
from xlsudoku.engine.grid import (
    CLASSIC,
    ConflictError,
    Geometry,
    Grid,
    ParseError,
    char_to_digit,
    geometry_for_cells,
)


def _grid_digit(value: Raw, size: int) -> int | None:
    """Return the digit a grid cell holds (0 = empty), or None when it is not one.

    Numbers 1 to *size*, their text, and above 9 the letters the engine writes (A = 10).

    >>> _grid_digit(7.0, 9), _grid_digit(" 12 ", 16), _grid_digit("b", 16), _grid_digit(10, 9)
    (7, 12, 11, None)
    """
    if is_blank(value):
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = number_of(value)  # None for a number beyond every float (hundreds of digits)
        if number is not None and number.is_integer() and 0 <= number <= size:
            return int(number)
        return None
    if isinstance(value, str):
        text = value.strip()
        if text in (".", "-", "_", "*"):
            return 0
        number = number_of(text)
        if number is not None:
            return _grid_digit(number, size)
        if len(text) == 1 and size > 9:
            return char_to_digit(text, size)
    return None


def _digits_rule(size: int) -> str:
    return "a digit 1-9" if size == 9 else f"a number 1-{size}"


def read_grid(
    name: str | None, rows: Sequence[Sequence[Raw]], geometry: Geometry = CLASSIC
) -> Grid:
    """Read a block of cells exactly the size of *geometry* (at defined *name*, if any).

    With a defined *name*, messages give each cell's Excel address too; without one (a range
    passed to a custom function) only the ``rXcY`` name.

    Raises:
        ParamError: naming the cell of each bad value, or the two cells of a clash.

    >>> rows = [[None] * 9 for _ in range(9)]
    >>> rows[0][0] = 5.0
    >>> str(read_grid("AnalyzeGrid", rows))[:3]
    '5..'
    >>> rows[0][8] = 5
    >>> read_grid("AnalyzeGrid", rows)
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: digit 5 repeated in row 1: r1c1 (C6) and r1c9 (K6)
    >>> read_grid(None, [[1, 2]])
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: the puzzle must be a 9x9 block of cells, got 1x2
    """
    ref = layout.NAMES[name] if name is not None else None
    size = geometry.size
    if len(rows) != size or any(len(row) != size for row in rows):
        where = f"{name} ({ref.address})" if ref is not None else "the puzzle"
        width = max((len(row) for row in rows), default=0)
        raise ParamError(
            [f"{where} must be a {size}x{size} block of cells, got {len(rows)}x{width}"]
        )
    return _read_cells(ref, rows, geometry)


def read_block(name: str, rows: Sequence[Sequence[Raw]], geometry: Geometry) -> Grid:
    """Read the puzzle of *geometry* from the top-left corner of the block at defined *name*.

    The cells outside the puzzle's corner must be empty: a digit there belongs to a puzzle of
    another shape, and the message says which cell and what to do.

    Raises:
        ParamError: naming the cells at fault.

    >>> from xlsudoku.engine.grid import geometry_for_size
    >>> rows = [[None] * 16 for _ in range(16)]
    >>> rows[0][:4] = [1, 2, 3, 4]
    >>> str(read_block("AnalyzeGrid", rows, geometry_for_size(4)))
    '1234............'
    >>> rows[5][5] = 7
    >>> read_block("AnalyzeGrid", rows, geometry_for_size(4))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: cell H11 holds 7 but is outside the 4x4 grid: set ...
    """
    ref = layout.NAMES[name]
    corner = _corner(ref, rows, geometry, "set Geometry to the puzzle's shape, or clear")
    return _read_cells(ref, corner, geometry)


def _corner(
    ref: layout.Ref, rows: Sequence[Sequence[Raw]], geometry: Geometry, fix: str
) -> list[list[Raw]]:
    """Return the *geometry* corner of the block *rows*; a value outside it is a ParamError.

    The message names the first such cell, counts the others and ends with *fix* ("clear" the
    cells, or something to do first).
    """
    size = geometry.size
    outside = [
        (r, c)
        for r, row in enumerate(rows)
        for c, value in enumerate(row)
        if (r >= size or c >= size) and not is_blank(value)
    ]
    if outside:
        r, c = outside[0]
        more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
        raise ParamError(
            [
                f"cell {ref.cell(r, c)} holds {shown(rows[r][c])} but is outside the "
                f"{geometry.name} grid{more}: {fix} the cell{'s' if more else ''}"
            ]
        )
    return [list(row[:size]) for row in rows[:size]]


def _read_cells(ref: layout.Ref | None, rows: Sequence[Sequence[Raw]], geo: Geometry) -> Grid:
    return _checked(Grid(tuple(_digits(ref, rows, geo)), geo), ref)


def read_entries(name: str, rows: Sequence[Sequence[Raw]], geometry: Geometry) -> list[int]:
    """Return the digits (0 = empty) in the *geometry* corner of block *name*, clashes allowed.

    A player's entries may repeat a digit (a mistake CHECK points out); what is not a digit,
    or a digit outside the shape, is named by its cell.

    Raises:
        ParamError: naming the cells at fault.

    >>> rows = [[None] * 16 for _ in range(16)]
    >>> rows[0][:2] = [3, 3.0]
    >>> read_entries("PlayGrid", rows, CLASSIC)[:3]
    [3, 3, 0]
    >>> rows[0][2] = "x"
    >>> read_entries("PlayGrid", rows, CLASSIC)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: cell r1c3 (E6) holds 'x'; type a digit 1-9 or leave it empty
    """  # noqa: E501
    ref = layout.NAMES[name]
    return _digits(ref, _corner(ref, rows, geometry, "clear"), geometry)


def _digits(ref: layout.Ref | None, rows: Sequence[Sequence[Raw]], geo: Geometry) -> list[int]:
    """Return the digit of every cell of *rows* (0 = empty), naming each bad cell."""
    digits: list[int] = []
    problems: list[str] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            digit = _grid_digit(value, geo.size)
            if digit is None:
                reason = unusable(value)
                problems.append(
                    f"cell {_cell_label(ref, r * geo.size + c, geo)} "
                    + (reason if reason else f"holds {shown(value)}")
                    + f"; type {_digits_rule(geo.size)} or leave it empty"
                )
                digit = 0
            digits.append(digit)
    if problems:
        if len(problems) > 3:
            problems = problems[:3] + [f"and {len(problems) - 3} more bad cells"]
        raise ParamError(problems)
    return digits


def _cell_label(ref: layout.Ref | None, cell: int, geo: Geometry = CLASSIC) -> str:
    """Return ``r1c2`` for *cell*, with its Excel address when the block's *ref* is known."""
    name = geo.cell_name(cell)
    return name if ref is None else f"{name} ({ref.cell(*divmod(cell, geo.size))})"


def string_geometry(value: Raw, chosen: Geometry) -> Geometry:
    """Return the shape of a puzzle typed as one line: *chosen* when the length fits it.

    Else the standard shape of that many cells (a 256-character line is 16x16).

    >>> from xlsudoku.engine.grid import geometry
    >>> x = geometry(3, 3, True)
    >>> string_geometry("." * 36, CLASSIC).name, string_geometry("." * 81, x).name
    ('6x6', '9x9-X')
    """
    text = as_text(value)
    count = len("".join(text.split()))
    if count == chosen.cell_count:
        return chosen
    with contextlib.suppress(ParseError):
        return geometry_for_cells(count)
    return chosen


def cell_text(value: Raw) -> str:
    """Return a cell's value as text: a whole number without ``.0``, text stripped.

    >>> cell_text(12.0), cell_text(" ab "), cell_text(2.5)
    ('12', 'ab', '2.5')
    """
    return as_text(value).strip()


_PATH = re.compile(r"^(~|[A-Za-z]:|\.{1,2}[/\\])|[/\\]|\.[A-Za-z][A-Za-z0-9]{1,4}$")


def looks_like_path(text: str) -> bool:
    """Return True when one line of text reads as a file path and holds no puzzle.

    >>> looks_like_path("/etc/passwd"), looks_like_path("puzzles.sdm"), looks_like_path("C:x")
    (True, True, True)
    >>> looks_like_path("4.....8.5.3" + "." * 70), looks_like_path("hello")
    (False, False)
    """
    line = text.strip().strip('"')
    if not _PATH.search(line):
        return False
    return not any(isinstance(found, Grid) for _, found in read_puzzles(line))


def read_string(name: str, value: Raw, geometry: Geometry = CLASSIC) -> Grid:
    """Read a puzzle typed into one cell (defined name *name*) as one line of *geometry*.

    Raises:
        ParamError: naming the cell, with the engine's reason (length, character, clash).

    >>> str(read_string("AnalyzeString", "12" + "." * 79))[:4]
    '12..'
    >>> read_string("AnalyzeString", "12345")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: AnalyzeString (C3): a 9x9 puzzle needs 81 cells, found 5
    """
    ref = layout.NAMES[name]
    reason = unusable(value)
    if reason is not None:
        raise ParamError([f"{name} ({ref.address}) {reason}"])
    if isinstance(value, int | float) and not isinstance(value, bool):
        text, _ = number_puzzle(name, value)
    else:
        text = "".join(str(value).split())
    try:
        grid = Grid.parse(text, geometry)
    except ParseError as error:
        raise ParamError([f"{name} ({ref.address}): {error}"]) from None
    try:
        return grid.validate()
    except ConflictError as error:
        raise ParamError([f"{name} ({ref.address}): {error}"]) from None


# Excel keeps 15 significant digits of a number: a puzzle typed with 0 for blanks into a cell
# not formatted as Text loses its leading zeros, and every digit after the 15th.
EXCEL_DIGITS = 15


def number_puzzle(name: str, value: int | float) -> tuple[str, int]:
    """Return the puzzle that Excel turned into the number *value*, and the zeros put back.

    A whole number of at most 15 digits is exact: the puzzle is its digits after as many leading
    zeros (blanks) as make 81.  A longer one lost every digit after the 15th, so it cannot be
    read back: the message says how to paste it so that Excel keeps it.

    Raises:
        ParamError: naming the cell, when the number is not a puzzle Excel kept whole.

    >>> text, zeros = number_puzzle("AnalyzeString", 12.0)
    >>> text[-3:], len(text), zeros
    ('012', 81, 79)
    >>> number_puzzle("AnalyzeString", 1.2e80)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: AnalyzeString (C3) holds the number 1.2E+80, not the ...
    """
    ref = layout.NAMES[name]
    size = CLASSIC.cell_count
    # an int longer than any puzzle is not written out (Python refuses beyond 4300 digits)
    longer = isinstance(value, int) and abs(value) >= 10**size
    exact = not longer and (
        isinstance(value, int)
        or (math.isfinite(value) and float(value).is_integer() and abs(value) < 10**EXCEL_DIGITS)
    )
    digits = str(int(value)) if exact else ""
    if not exact or not digits.isdigit() or len(digits) > size:
        huge = isinstance(value, int) and abs(value) >= 10**308  # beyond a float
        number = shown(value) if huge else f"the number {value:.{EXCEL_DIGITS}G}"
        raise ParamError(
            [
                f"{name} ({ref.address}) holds {number}, not the "
                f"puzzle: Excel keeps only {EXCEL_DIGITS} digits of a number, so the cells "
                f"after the {EXCEL_DIGITS}th digit are lost. Format {ref.address} as Text "
                "(Home > Number Format > Text) or type ' before the puzzle, and paste it again "
                "(or write . for the blanks)"
            ]
        )
    return digits.zfill(size), size - len(digits)


def number_note(name: str, value: Raw) -> str:
    """Return the status sentence for a puzzle read back from a number, or "" for text.

    >>> number_note("AnalyzeString", 12.0)[:60]
    'AnalyzeString (C3) held a number: Excel had dropped its 79 l'
    >>> number_note("AnalyzeString", "12" + "." * 79)
    ''
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    _, zeros = number_puzzle(name, value)
    ref = layout.NAMES[name]
    return (
        f"{name} ({ref.address}) held a number: Excel had dropped its {zeros} leading zeros "
        "(blank cells), read back as 81 digits. "
    )


def _checked(grid: Grid, ref: layout.Ref | None) -> Grid:
    """Return *grid* when no digit repeats; else name the two clashing cells."""
    conflicts = grid.conflicts()
    if not conflicts:
        return grid
    geo = grid.geometry
    house, digit, first, second = conflicts[0]
    message = (
        f"digit {digit} repeated in {geo.house_name(house)}: "
        f"{_cell_label(ref, first, geo)} and {_cell_label(ref, second, geo)}"
    )
    if len(conflicts) > 1:
        more = len(conflicts) - 1
        message += f" (and {more} more clash{'es' if more > 1 else ''})"
    raise ParamError([message])


def read_candidates(rows: Sequence[Sequence[Raw]], geo: Geometry) -> list[int | None]:
    r"""Return the candidate mask each cell of the Candidates block holds (None: none stored).

    Every digit character of a cell's text is a candidate; spaces and line breaks are not.

    >>> rows = [["1 3\n 5 "] + [None] * 8] + [[None] * 9 for _ in range(8)]
    >>> read_candidates(rows, CLASSIC)[:2]
    [21, None]
    """
    masks: list[int | None] = []
    for r in range(geo.size):
        for c in range(geo.size):
            value = rows[r][c] if r < len(rows) and c < len(rows[r]) else None
            mask = 0
            for ch in "" if is_blank(value) else as_text(value):
                digit = char_to_digit(ch, geo.size) if ch not in " \n\r\t" else None
                if digit:
                    mask |= 1 << (digit - 1)
            masks.append(mask or None)
    return masks
