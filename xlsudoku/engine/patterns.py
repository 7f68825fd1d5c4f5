"""Center-box patterns: which cells of the center box are open (always clues).

A pattern fixes the whole center box of a puzzle: its open cells are always givens and its
other cells are always blank; the generator only blanks orbits outside the center box.  The
twelve presets are all symmetric under 180° rotation; presets 1-6 open an even number of cells,
presets 7-12 an odd number, and every odd preset opens the center cell (a 180° orbit of two cells
can never give an odd count).  An explicit pattern is a 9-character mask of the center box, row
by row, with ``x`` or ``1`` for an open cell and ``.`` or ``0`` for a blank one.

======  ===============  =====  =======================
preset  name             opens  picture (rows of box 5)
======  ===============  =====  =======================
1       corners          4      ``x.x / ... / x.x``
2       diamond          4      ``.x. / x.x / .x.``
3       ring             8      ``xxx / x.x / xxx``
4       empty            0      ``... / ... / ...``
5       diagonal ends    2      ``x.. / ... / ..x``
6       sides            2      ``... / x.x / ...``
7       center           1      ``... / .x. / ...``
8       saltire          5      ``x.x / .x. / x.x``
9       cross            5      ``.x. / xxx / .x.``
10      full             9      ``xxx / xxx / xxx``
11      diagonal         3      ``x.. / .x. / ..x``
12      bar              3      ``... / xxx / ...``
======  ===============  =====  =======================

Only geometries with a center box (an odd number of bands and of stacks, i.e. 9x9 and 9x9-X)
take a pattern; the others need ``pattern=None``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xlsudoku.engine.grid import CLASSIC, Cell, Geometry, Grid, SudokuError
from xlsudoku.engine.symmetry import Symmetry, orbit_index, orbits

GIVEN_CHARS = frozenset("xX1#*")
BLANK_CHARS = frozenset(".0-_")


class PatternError(SudokuError):
    """A pattern that is unknown, malformed, or does not fit the geometry or symmetry."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """Open cells of the center box, as a row-major mask of ``x`` (open) and ``.`` (blank).

    >>> p = preset(1)
    >>> p.number, p.name, p.mask, p.given_count
    (1, 'corners', 'x.x...x.x', 4)
    """

    number: int | None
    name: str
    mask: str

    @property
    def given_count(self) -> int:
        """Number of open cells (clues) the pattern puts in the center box."""
        return self.mask.count("x")

    @property
    def label(self) -> str:
        """Return how messages name the pattern, e.g. ``pattern 1 (corners)``.

        >>> preset(9).label, parse_pattern("x........").label
        ('pattern 9 (cross)', "pattern 'x........'")
        """
        if self.number is None:
            return f"pattern {self.mask!r}"
        return f"pattern {self.number} ({self.name})"

    @property
    def short_label(self) -> str:
        """Return ``pattern 1`` for a preset, the quoted mask for a custom pattern.

        >>> preset(1).short_label
        'pattern 1'
        """
        if self.number is None:
            return f"pattern {self.mask!r}"
        return f"pattern {self.number}"

    def rows(self) -> tuple[tuple[bool, ...], ...]:
        """Return the mask as rows of booleans (True = open), for drawing on a sheet.

        >>> preset(12).rows()
        ((False, False, False), (True, True, True), (False, False, False))
        """
        side = _side(len(self.mask))
        return tuple(
            tuple(ch == "x" for ch in self.mask[r * side : (r + 1) * side]) for r in range(side)
        )

    def picture(self) -> str:
        """Return the mask as lines of ``x`` and ``.`` separated by spaces.

        >>> print(preset(2).picture())
        . x .
        x . x
        . x .
        """
        return "\n".join(" ".join("x" if v else "." for v in row) for row in self.rows())

    def cells(self, geometry: Geometry = CLASSIC) -> tuple[Cell, ...]:
        """Return the open cells of the pattern in the center box of *geometry*.

        >>> preset(1).cells()
        (30, 32, 48, 50)
        """
        box = center_box(geometry)
        self._check_fits(geometry)
        return tuple(c for c, ch in zip(box, self.mask, strict=True) if ch == "x")

    def blank_cells(self, geometry: Geometry = CLASSIC) -> tuple[Cell, ...]:
        """Return the cells of the center box that the pattern keeps blank.

        >>> preset(9).blank_cells()
        (30, 32, 48, 50)
        """
        box = center_box(geometry)
        self._check_fits(geometry)
        return tuple(c for c, ch in zip(box, self.mask, strict=True) if ch != "x")

    def check_symmetry(self, symmetry: Symmetry, geometry: Geometry = CLASSIC) -> None:
        """Raise :class:`PatternError` unless every orbit of *symmetry* is all open or all blank.

        >>> preset(11).check_symmetry(Symmetry.ROTATE_180)
        >>> preset(11).check_symmetry(Symmetry.ROTATE_90)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        xlsudoku.engine.patterns.PatternError: pattern 11 (diagonal) is not symmetric under ...
        """
        given_cells = set(self.cells(geometry))
        box = set(center_box(geometry))
        index = orbit_index(symmetry, geometry)
        table = orbits(symmetry, geometry)
        for cell in sorted(box):
            for other in table[index[cell]]:
                if other not in box:
                    raise PatternError(
                        f"{symmetry.value} symmetry maps the center box cell "
                        f"{geometry.cell_name(cell)} outside the box, so it takes no pattern"
                    )
                if (cell in given_cells) != (other in given_cells):
                    a, b = (cell, other) if cell in given_cells else (other, cell)
                    raise PatternError(
                        f"{self.label} is not symmetric under {symmetry.value}: "
                        f"{geometry.cell_name(a)} is open but {geometry.cell_name(b)} is blank"
                    )

    def _check_fits(self, geometry: Geometry) -> None:
        size = geometry.box_rows * geometry.box_cols
        if len(self.mask) != size or geometry.box_rows != geometry.box_cols:
            raise PatternError(
                f"{self.label} has {len(self.mask)} cells but the {geometry.name} center box "
                f"has {size}"
            )


def _side(length: int) -> int:
    side = math.isqrt(length)
    if side * side != length:
        raise PatternError(f"a pattern mask needs a square number of cells, got {length}")
    return side


PRESETS: tuple[Pattern, ...] = (
    Pattern(1, "corners", "x.x...x.x"),
    Pattern(2, "diamond", ".x.x.x.x."),
    Pattern(3, "ring", "xxxx.xxxx"),
    Pattern(4, "empty", "........."),
    Pattern(5, "diagonal ends", "x.......x"),
    Pattern(6, "sides", "...x.x..."),
    Pattern(7, "center", "....x...."),
    Pattern(8, "saltire", "x.x.x.x.x"),
    Pattern(9, "cross", ".x.xxx.x."),
    Pattern(10, "full", "xxxxxxxxx"),
    Pattern(11, "diagonal", "x...x...x"),
    Pattern(12, "bar", "...xxx..."),
)


def preset(number: int) -> Pattern:
    """Return preset *number* (1-12).

    >>> preset(7).mask
    '....x....'
    >>> preset(13)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.engine.patterns.PatternError: unknown pattern 13: presets are 1-12, or a ...
    """
    if isinstance(number, bool) or not 1 <= number <= len(PRESETS):
        raise PatternError(
            f"unknown pattern {number}: presets are 1-{len(PRESETS)}, "
            f"or a 9-character mask such as {PRESETS[0].mask!r}"
        )
    return PRESETS[number - 1]


def parse_pattern(value: int | str | Pattern | None) -> Pattern | None:
    """Return the pattern named by *value*: a preset number, a mask, a Pattern, or None.

    Text that is a number names a preset; other text is a mask (spaces and ``/`` or ``|``
    separators are ignored; ``x``, ``X``, ``1``, ``#``, ``*`` are open, ``.``, ``0``, ``-``,
    ``_`` blank).  A mask equal to a preset's becomes that preset.  Empty text or "none" is None.

    >>> parse_pattern("3").name, parse_pattern("x.x/.../x.x").number, parse_pattern(None)
    ('ring', 1, None)
    >>> parse_pattern("x.x.y....")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.engine.patterns.PatternError: bad character 'y' at position 5 of pattern ...
    """
    if value is None or isinstance(value, Pattern):
        return value
    if isinstance(value, int):
        return preset(value)
    text = str(value).strip()
    if text == "" or text.lower() == "none":
        return None
    if text.isascii() and text.isdigit() and len(text) <= 2:
        return preset(int(text))
    chars = [ch for ch in text if ch not in " /|\t\n"]
    mask = []
    for i, ch in enumerate(chars):
        if ch in GIVEN_CHARS:
            mask.append("x")
        elif ch in BLANK_CHARS:
            mask.append(".")
        else:
            raise PatternError(
                f"bad character {ch!r} at position {i + 1} of pattern {text!r}: "
                "use x or 1 for open, . or 0 for blank"
            )
    _side(len(mask))
    joined = "".join(mask)
    for p in PRESETS:
        if p.mask == joined:
            return p
    return Pattern(None, "custom", joined)


def center_box(geometry: Geometry = CLASSIC) -> tuple[Cell, ...]:
    """Return the cells of the center box, row-major; raise if the geometry has none.

    >>> center_box()
    (30, 31, 32, 39, 40, 41, 48, 49, 50)
    >>> from xlsudoku.engine.grid import geometry_for_size
    >>> center_box(geometry_for_size(6))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.engine.patterns.PatternError: the 6x6 grid has no center box (2 stacks ...
    """
    bands = geometry.size // geometry.box_rows
    stacks = geometry.size // geometry.box_cols
    if bands % 2 == 0 or stacks % 2 == 0:
        what = f"{bands} bands" if bands % 2 == 0 else f"{stacks} stacks"
        raise PatternError(
            f"the {geometry.name} grid has no center box ({what} of boxes), "
            "so it takes no pattern: use pattern None"
        )
    box = (bands // 2) * stacks + stacks // 2
    return geometry.houses[2 * geometry.size + box]


def detect_pattern(grid: Grid) -> int | str | None:
    """Return the preset number (or else the mask) of the givens in *grid*'s center box.

    None when the shape has no center box.

    >>> def given_at(*cells):
    ...     return Grid(tuple(5 if cell in cells else 0 for cell in range(81)))
    >>> detect_pattern(given_at(30, 32, 48, 50)), detect_pattern(given_at(30, 31))
    (1, 'xx.......')
    """
    try:
        box = center_box(grid.geometry)
    except PatternError:
        return None
    mask = "".join("x" if grid[cell] else "." for cell in box)
    for pattern in PRESETS:
        if pattern.mask == mask:
            return pattern.number
    return mask


def show_pattern(
    value: int | str | Pattern | None, geometry: Geometry = CLASSIC
) -> tuple[tuple[Cell, ...], str]:
    """Return the open cells of a pattern and its picture (what the workbook draws).

    ``None`` gives no cells and the picture ``(no pattern)``.

    >>> cells, picture = show_pattern(1)
    >>> cells
    (30, 32, 48, 50)
    >>> print(picture)
    x . x
    . . .
    x . x
    """
    pattern = parse_pattern(value)
    if pattern is None:
        return (), "(no pattern)"
    return pattern.cells(geometry), pattern.picture()
