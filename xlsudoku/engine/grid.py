"""Glossary, geometry tables, the Grid value and its parsing and formatting.

Glossary (one vocabulary across the project):

- *cell*: an ``int`` from 0 to ``size * size - 1``, row-major.  User text is 1-based: ``r3c5``.
- *digit*: an ``int`` from 1 to ``size``; 0 means an empty cell.  Digits above 9 are written
  as letters: 10 = ``A``, 11 = ``B`` ... 16 = ``G``.
- *house*: a row, a column, a box or an extra house (X-Sudoku's diagonals, Windoku's four
  extra boxes); an ``int`` index into ``Geometry.houses``: rows first, then columns, then
  boxes, then the extra houses.  A Jigsaw's boxes are its irregular regions.
- *peer*: another cell sharing a house with a cell.
- *given*: a filled cell of a puzzle.  The workbook's and the command line's word for it is
  "opens" (the Opens cell, ``--opens``, messages); code says *given* only, never "open" or
  "clue" (``tests/test_architecture.py`` checks the engine).  A count the generator aims at is
  ``target_givens``; a count it reached is ``givens``.
- *candidate*: a digit still possible in an empty cell.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where an array is made, off the core import path
    import numpy as np

Cell = int
Digit = int
House = int

BLANKS = frozenset(".0-*_")
DIGIT_CHARS = "123456789ABCDEFG"


class SudokuError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidPuzzle(SudokuError):
    """The text or values given do not describe a valid puzzle."""


class ParseError(InvalidPuzzle):
    """Text that cannot be read as a grid; the message names the line, row or column.

    Attributes:
        row: 1-based grid row of the fault, when there is one.
        column: 1-based grid column of the fault, when there is one.

    >>> err = ParseError("bad character 'x' at row 2, column 3", row=2, column=3)
    >>> str(err), err.row, err.column
    ("bad character 'x' at row 2, column 3", 2, 3)
    """

    def __init__(self, message: str, row: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.row = row
        self.column = column


class ConflictError(InvalidPuzzle):
    """The same digit is given twice in one house.

    Attributes:
        conflicts: ``(house, digit, first_cell, second_cell)`` for every clash found.
    """

    def __init__(self, message: str, conflicts: tuple[tuple[int, int, int, int], ...]) -> None:
        super().__init__(message)
        self.conflicts = conflicts


@dataclass(frozen=True, slots=True)
class Geometry:
    """The shape of a Sudoku: boxes of ``box_rows`` x ``box_cols``, optional extra houses.

    Houses are data: ``diagonals`` adds X-Sudoku's two diagonals, ``windoku`` the four extra
    3x3 boxes of a Windoku (rows and columns 2-4 and 6-8), and ``regions`` (one character per
    cell naming its box, see :func:`jigsaw_regions`) replaces the rectangular boxes by a
    Jigsaw's irregular ones.  Build one through :func:`geometry` (cached), not directly: the
    tables are computed once.

    >>> g = geometry(2, 3)
    >>> g.size, g.cell_count, len(g.houses)
    (6, 36, 18)
    >>> CLASSIC.name, len(WINDOKU.houses), WINDOKU.house_name(30)
    ('9x9', 31, 'extra box 4')
    """

    box_rows: int
    box_cols: int
    diagonals: bool = False
    windoku: bool = False
    regions: str = ""
    size: int = field(init=False, compare=False)
    cell_count: int = field(init=False, compare=False, repr=False)
    all_digits: int = field(init=False, compare=False, repr=False)
    houses: tuple[tuple[Cell, ...], ...] = field(init=False, compare=False, repr=False)
    houses_of: tuple[tuple[House, ...], ...] = field(init=False, compare=False, repr=False)
    peers: tuple[tuple[Cell, ...], ...] = field(init=False, compare=False, repr=False)
    peer_sets: tuple[frozenset[Cell], ...] = field(init=False, compare=False, repr=False)
    # the hash of the compared fields, made once: the engine's tables are cached per geometry
    hash_value: int = field(init=False, compare=False, repr=False)

    def __hash__(self) -> int:
        return self.hash_value

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise SudokuError(f"box shape {self.box_rows}x{self.box_cols} is not positive")
        size = self.box_rows * self.box_cols
        if size > len(DIGIT_CHARS):
            raise SudokuError(f"size {size} is above the largest supported size 16")
        houses: list[tuple[Cell, ...]] = []
        houses += [tuple(r * size + c for c in range(size)) for r in range(size)]
        houses += [tuple(r * size + c for r in range(size)) for c in range(size)]
        if (self.windoku or self.regions) and (size != 9 or self.diagonals):
            raise SudokuError("Windoku and Jigsaw are 9x9 shapes without diagonals")
        if self.windoku and self.regions:
            raise SudokuError("a grid is Windoku or Jigsaw, not both")
        bands, stacks = size // self.box_rows, size // self.box_cols
        if self.regions:
            region_of = jigsaw_regions(self.regions)
            bands, stacks = 0, 0
            for name in sorted(set(region_of)):
                houses.append(tuple(c for c, r in enumerate(region_of) if r == name))
        for b in range(bands * stacks):
            r0, c0 = (b // stacks) * self.box_rows, (b % stacks) * self.box_cols
            houses.append(
                tuple(
                    (r0 + i) * size + c0 + j
                    for i in range(self.box_rows)
                    for j in range(self.box_cols)
                )
            )
        if self.diagonals:
            houses.append(tuple(i * size + i for i in range(size)))
            houses.append(tuple(i * size + size - 1 - i for i in range(size)))
        if self.windoku:
            for r0, c0 in WINDOKU_CORNERS:
                houses.append(tuple((r0 + i) * size + c0 + j for i in range(3) for j in range(3)))
        houses_of: list[list[House]] = [[] for _ in range(size * size)]
        for h, cells in enumerate(houses):
            for cell in cells:
                houses_of[cell].append(h)
        peer_sets = []
        for cell in range(size * size):
            ps = {p for h in houses_of[cell] for p in houses[h]}
            ps.discard(cell)
            peer_sets.append(frozenset(ps))
        setattr_ = object.__setattr__
        setattr_(self, "size", size)
        setattr_(self, "cell_count", size * size)
        setattr_(self, "all_digits", (1 << size) - 1)
        setattr_(self, "houses", tuple(houses))
        setattr_(self, "houses_of", tuple(tuple(hs) for hs in houses_of))
        setattr_(self, "peer_sets", tuple(peer_sets))
        setattr_(self, "peers", tuple(tuple(sorted(ps)) for ps in peer_sets))
        setattr_(
            self,
            "hash_value",
            hash((self.box_rows, self.box_cols, self.diagonals, self.windoku, self.regions)),
        )

    @property
    def name(self) -> str:
        """Short name such as ``9x9``, ``6x6``, ``9x9-X``, ``9x9-windoku`` or ``9x9-jigsaw:...``.

        A Jigsaw is named by its published layout's name, or else by its 81 region characters.

        >>> geometry(3, 3, regions=JIGSAW_LAYOUTS["steps"]).name
        '9x9-jigsaw:steps'
        """
        if self.windoku:
            return f"{self.size}x{self.size}-windoku"
        if self.regions:
            for layout_name, regions in JIGSAW_LAYOUTS.items():
                if regions == self.regions:
                    return f"{self.size}x{self.size}-jigsaw:{layout_name}"
            return f"{self.size}x{self.size}-jigsaw:{self.regions}"
        return f"{self.size}x{self.size}" + ("-X" if self.diagonals else "")

    @property
    def standard(self) -> bool:
        """True when the houses are rows, columns and rectangular boxes only.

        The techniques whose proof rests on that shape (uniqueness, rectangles) check it.

        >>> CLASSIC.standard, geometry(3, 3, True).standard, WINDOKU.standard
        (True, False, False)
        """
        return not (self.diagonals or self.windoku or self.regions)

    @property
    def box_count(self) -> int:
        """Number of boxes (equal to ``size``)."""
        return self.size

    def row_of(self, cell: Cell) -> int:
        """Return the 0-based row of *cell*.

        >>> CLASSIC.row_of(80)
        8
        """
        return cell // self.size

    def col_of(self, cell: Cell) -> int:
        """Return the 0-based column of *cell*.

        >>> CLASSIC.col_of(10)
        1
        """
        return cell % self.size

    def box_of(self, cell: Cell) -> int:
        """Return the 0-based box of *cell*.

        >>> CLASSIC.box_of(40)
        4
        """
        return self.houses_of[cell][2] - 2 * self.size

    def cell_at(self, row: int, col: int) -> Cell:
        """Return the cell at 0-based *row* and *col*.

        >>> CLASSIC.cell_at(2, 4)
        22
        """
        return row * self.size + col

    def cell_name(self, cell: Cell) -> str:
        """Return the 1-based name ``rXcY`` of *cell*.

        >>> CLASSIC.cell_name(22)
        'r3c5'
        """
        return f"r{cell // self.size + 1}c{cell % self.size + 1}"

    def house_name(self, house: House) -> str:
        """Return the 1-based name of *house*: ``row 3``, ``column 5``, ``box 9``, ``diagonal``.

        >>> [CLASSIC.house_name(h) for h in (2, 13, 26)]
        ['row 3', 'column 5', 'box 9']
        """
        n = self.size
        if house < n:
            return f"row {house + 1}"
        if house < 2 * n:
            return f"column {house - n + 1}"
        if house < 3 * n:
            return f"box {house - 2 * n + 1}"
        if self.windoku:
            return f"extra box {house - 3 * n + 1}"
        return "diagonal" if house == 3 * n else "anti-diagonal"

    def digit_char(self, digit: Digit) -> str:
        """Return the character of *digit* (``.`` for 0).

        >>> CLASSIC.digit_char(0), geometry(4, 4).digit_char(16)
        ('.', 'G')
        """
        return "." if digit == 0 else DIGIT_CHARS[digit - 1]


@functools.cache
def geometry(
    box_rows: int = 3,
    box_cols: int = 3,
    diagonals: bool = False,
    windoku: bool = False,
    regions: str = "",
) -> Geometry:
    """Return the (cached) geometry with boxes of *box_rows* x *box_cols* (or Jigsaw *regions*).

    >>> geometry(3, 3) is CLASSIC, geometry(3, 3, windoku=True) is WINDOKU
    (True, True)
    """
    return Geometry(box_rows, box_cols, diagonals, windoku, regions)


# Top-left cells (0-based row, column) of Windoku's four extra boxes: rows and columns 2-4
# and 6-8 in the 1-based names of the sheet.
WINDOKU_CORNERS = ((1, 1), (1, 5), (5, 1), (5, 5))

# Jigsaw layouts by name (the project's own): one character per cell, row by row, naming its
# box.  Each is symmetric under a half turn, so a puzzle's givens can share that symmetry.
JIGSAW_LAYOUTS: dict[str, str] = {
    "spiral": "111113333122222336144522236114525336444555666477585699478885669477888889777799999",
    "steps": "111122223112222333144233363114455563444555666745556699747778669777888899788889999",
    "comb": "111223333411222233411252333411255666444555666444558996777858996778888996777788999",
}


def jigsaw_regions(text: str) -> str:
    """Check a Jigsaw layout and return it: 81 characters, 9 connected regions of 9 cells.

    Each character names the region (box) of one cell, row by row; any 9 distinct
    characters will do.

    Raises:
        SudokuError: naming what is wrong (the length, a region's size or its split).

    >>> classic = "".join(str((c // 27) * 3 + c % 9 // 3 + 1) for c in range(81))
    >>> jigsaw_regions("4" + classic[1:27] + "1" + classic[28:])
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.SudokuError: jigsaw layout: region '4' is not connected: r1c1 cannot reach r4c2
    >>> jigsaw_regions(JIGSAW_LAYOUTS["steps"])[:9]
    '111122223'
    """  # noqa: E501
    size = 9
    if len(text) != size * size:
        raise SudokuError(
            f"jigsaw layout: needs {size * size} characters (one region name per cell), "
            f"got {len(text)}"
        )
    names = sorted(set(text))
    if len(names) != size:
        raise SudokuError(f"jigsaw layout: needs {size} regions, found {len(names)}")
    for name in names:
        cells = [c for c, r in enumerate(text) if r == name]
        if len(cells) != size:
            raise SudokuError(
                f"jigsaw layout: region {name!r} has {len(cells)} cells, each needs {size}"
            )
        reached = {cells[0]}
        frontier = [cells[0]]
        while frontier:
            c = frontier.pop()
            r, k = divmod(c, size)
            for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
                nxt = rr * size + kk
                if 0 <= rr < size and 0 <= kk < size and text[nxt] == name and nxt not in reached:
                    reached.add(nxt)
                    frontier.append(nxt)
        if len(reached) != size:
            far = min(set(cells) - reached)
            raise SudokuError(
                f"jigsaw layout: region {name!r} is not connected: "
                f"r{cells[0] // size + 1}c{cells[0] % size + 1} cannot reach "
                f"r{far // size + 1}c{far % size + 1}"
            )
    return text


CLASSIC = geometry(3, 3)
WINDOKU = geometry(3, 3, windoku=True)

# Standard shapes by side length (the box is wider than tall where it is not square).
SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4)}


def geometry_for_size(size: int, diagonals: bool = False) -> Geometry:
    """Return the standard geometry of side *size* (4, 6, 9, 12 or 16).

    >>> geometry_for_size(12).box_cols
    4
    """
    if size not in SHAPES:
        raise SudokuError(f"no standard geometry of size {size}; sizes are 4, 6, 9, 12, 16")
    return geometry(*SHAPES[size], diagonals)


def geometry_for_cells(count: int, diagonals: bool = False) -> Geometry:
    """Return the standard geometry with *count* cells.

    >>> geometry_for_cells(81).name
    '9x9'
    """
    for size in SHAPES:
        if size * size == count:
            return geometry_for_size(size, diagonals)
    raise ParseError(f"{count} cells is not a grid size (16, 36, 81, 144 or 256 cells)")


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable grid of digits (0 = empty) on a geometry.

    >>> g = Grid.parse("1" + "." * 80)
    >>> g[0], g.given_count, str(g)[:3]
    (1, 1, '1..')
    """

    cells: tuple[Digit, ...]
    geometry: Geometry = CLASSIC

    def __post_init__(self) -> None:
        if len(self.cells) != self.geometry.cell_count:
            raise InvalidPuzzle(
                f"a {self.geometry.name} grid has {self.geometry.cell_count} cells, "
                f"got {len(self.cells)}"
            )

    @classmethod
    def empty(cls, geometry: Geometry = CLASSIC) -> Grid:
        """Return the empty grid of *geometry*.

        >>> Grid.empty().given_count
        0
        """
        return cls((0,) * geometry.cell_count, geometry)

    @classmethod
    def parse(cls, text: str, geometry: Geometry | None = None) -> Grid:
        """Read a grid from one line or a multi-line drawing.

        Blanks are any of ``. 0 - * _``; in multi-line text, ``|``, ``+``, spaces and lines made
        only of ``- + = |`` are separators.  The geometry is inferred from the cell count when
        not given (X-Sudoku must be asked for).

        >>> Grid.parse("4.2." "...." ".1.." "...3").geometry.name
        '4x4'
        >>> Grid.parse("x" * 81)
        Traceback (most recent call last):
        ...
        xlsudoku.engine.grid.ParseError: bad character 'x' at row 1, column 1
        """
        if text.isprintable():  # no line break: one row, read without splitting it into lines
            chars = text.strip()
            if "|" in chars or "+" in chars or " " in chars:
                chars = chars.translate(_ROW_NOISE)
        else:
            chars = _cell_chars(text)
        geo = geometry or geometry_for_cells(len(chars))
        if len(chars) != geo.cell_count:
            raise ParseError(
                f"a {geo.name} puzzle needs {geo.cell_count} cells, found {len(chars)}"
            )
        try:
            return cls(tuple(map(_char_values(geo.size).__getitem__, chars)), geo)
        except KeyError:
            pass  # a character outside the table: read cell by cell, to name a bad one
        cells = []
        for i, ch in enumerate(chars):
            digit = char_to_digit(ch, geo.size)
            if digit is None:
                row, col = i // geo.size + 1, i % geo.size + 1
                raise ParseError(f"bad character {ch!r} at row {row}, column {col}", row, col)
            cells.append(digit)
        return cls(tuple(cells), geo)

    @classmethod
    def from_rows(
        cls, rows: Iterable[Iterable[int | None]], geometry: Geometry | None = None
    ) -> Grid:
        """Build a grid from rows of ints (``None`` or 0 for empty).

        >>> Grid.from_rows([[1, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]).given_count
        2
        """
        values = [0 if v is None else int(v) for row in rows for v in row]
        geo = geometry or geometry_for_cells(len(values))
        for i, v in enumerate(values):
            if not 0 <= v <= geo.size:
                raise InvalidPuzzle(f"value {v} at {geo.cell_name(i)} is outside 1-{geo.size}")
        return cls(tuple(values), geo)

    def __getitem__(self, cell: Cell) -> Digit:
        return self.cells[cell]

    def __iter__(self) -> Iterator[Digit]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        chars = DIGIT_CHARS
        return "".join("." if d == 0 else chars[d - 1] for d in self.cells)

    @property
    def given_count(self) -> int:
        """Number of filled cells (givens, "opens")."""
        return sum(1 for d in self.cells if d)

    @property
    def is_complete(self) -> bool:
        """True when every cell is filled."""
        return all(self.cells)

    def rows(self) -> list[list[Digit]]:
        """Return the grid as a list of rows of ints.

        >>> len(Grid.empty().rows())
        9
        """
        n = self.geometry.size
        return [list(self.cells[r * n : (r + 1) * n]) for r in range(n)]

    def to_array(self) -> np.ndarray:
        """Return a (size, size) ``int8`` array (numpy: ``pip install 'xlsudoku[array]'``).

        >>> Grid.empty().to_array().shape
        (9, 9)
        """
        try:
            import numpy as np
        except ImportError:
            raise ImportError("Grid.to_array needs numpy: pip install 'xlsudoku[array]'") from None

        n = self.geometry.size
        return np.array(self.cells, dtype=np.int8).reshape(n, n)

    def with_cells(self, changes: dict[Cell, Digit]) -> Grid:
        """Return a copy with the cells in *changes* set.

        >>> Grid.empty().with_cells({0: 5})[0]
        5
        """
        cells = list(self.cells)
        for cell, digit in changes.items():
            cells[cell] = digit
        return Grid(tuple(cells), self.geometry)

    def givens(self) -> tuple[Cell, ...]:
        """Return the filled cells in order.

        >>> Grid.parse("1" + "." * 79 + "2").givens()
        (0, 80)
        """
        return tuple(i for i, d in enumerate(self.cells) if d)

    def conflicts(self) -> tuple[tuple[House, Digit, Cell, Cell], ...]:
        """Return every ``(house, digit, first_cell, second_cell)`` where a digit repeats.

        >>> Grid.parse("11" + "." * 79).conflicts()
        ((0, 1, 0, 1), (18, 1, 0, 1))
        """
        found = []
        for h, cells in enumerate(self.geometry.houses):
            seen: dict[Digit, Cell] = {}
            for cell in cells:
                d = self.cells[cell]
                if d:
                    if d in seen:
                        found.append((h, d, seen[d], cell))
                    else:
                        seen[d] = cell
        return tuple(found)

    def validate(self) -> Grid:
        """Raise :class:`ConflictError` naming both cells when a digit repeats in a house.

        >>> Grid.parse("1" + "." * 8 + "1" + "." * 71).validate()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        xlsudoku.engine.grid.ConflictError: digit 1 repeated in column 1: r1c1 and r2c1 (and ...
        """
        found = self.conflicts()
        if found:
            h, d, a, b = found[0]
            geo = self.geometry
            msg = (
                f"digit {geo.digit_char(d)} repeated in {geo.house_name(h)}: "
                f"{geo.cell_name(a)} and {geo.cell_name(b)}"
            )
            if len(found) > 1:
                msg += f" (and {len(found) - 1} more clash{'es' if len(found) > 2 else ''})"
            raise ConflictError(msg, found)
        return self


def char_to_digit(ch: str, size: int) -> int | None:
    """Return the digit of *ch* for a grid of *size*, 0 for a blank, None if invalid.

    ``0`` is a blank for sizes up to 9; for 12 and 16 letters ``A``.. are 10 and up.

    >>> char_to_digit("7", 9), char_to_digit(".", 9), char_to_digit("A", 16), char_to_digit("A", 9)
    (7, 0, 10, None)
    """
    if ch in BLANKS:
        return 0
    idx = DIGIT_CHARS.find(ch.upper())
    if idx < 0 or idx >= size:
        return None
    return idx + 1


@functools.cache
def _char_values(size: int) -> dict[str, int]:
    """Return every character a grid of *size* reads, with its digit (0 for a blank).

    The table behind :meth:`Grid.parse`: the same answers as :func:`char_to_digit`, read by one
    dictionary lookup per cell.

    >>> table = _char_values(9)
    >>> table["7"], table["."], table["0"], "A" in table, _char_values(16)["a"]
    (7, 0, 0, False, 10)
    """
    chars = BLANKS | set(DIGIT_CHARS) | set(DIGIT_CHARS.lower())
    found = {ch: char_to_digit(ch, size) for ch in chars}
    return {ch: digit for ch, digit in found.items() if digit is not None}


_SEPARATOR_CHARS = frozenset("-+=|: ")
_ROW_NOISE = str.maketrans("", "", "|+ ")


def is_separator_line(line: str, side: int | None = None) -> bool:
    """Return True when *line* of a grid drawing separates rows rather than holding cells.

    Lines made of ``- + = | :`` and spaces separate, except a line of dashes only (with spaces
    or ``|``) that has exactly *side* dashes: it is a row of blank cells.

    >>> is_separator_line("+-------+-------+-------+"), is_separator_line("-----------", 9)
    (True, True)
    >>> is_separator_line("---|---|---", 9), is_separator_line("1..|...|...")
    (False, False)
    """
    text = line.strip()
    if not text or not set(text) <= _SEPARATOR_CHARS or not ("-" in text or "=" in text):
        return False
    if side is not None and set(text) <= frozenset("- |"):
        return text.translate(_ROW_NOISE).count("-") != side
    return True


def drawing_rows(text: str) -> list[tuple[int, str]]:
    r"""Return ``(line index, cell characters)`` for each row line of a grid drawing.

    Separators (``|``, ``+``, spaces and separator lines) are dropped.  A one-line text is a
    single row, in which ``-`` is a blank.

    >>> drawing_rows("12|34\n--+--\n3 4|1 2")
    [(0, '1234'), (2, '3412')]
    """
    lines = text.splitlines()
    content = [(i, ln.strip()) for i, ln in enumerate(lines) if ln.strip()]
    if len(content) == 1:
        i, line = content[0]
        return [(i, line.translate(_ROW_NOISE))]
    side = None
    for _, line in content:
        if not is_separator_line(line):
            side = len(line.translate(_ROW_NOISE))
            break
    return [
        (i, line.translate(_ROW_NOISE)) for i, line in content if not is_separator_line(line, side)
    ]


def _cell_chars(text: str) -> str:
    """Strip separators from *text* and return one character per cell."""
    return "".join(row for _, row in drawing_rows(text))
