"""Symmetries of a clue pattern as orbit tables.

An *orbit* is a set of cells that a symmetry maps onto each other; the generator blanks or keeps
a whole orbit at once, so every puzzle it makes has the symmetry.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable

from xlsudoku.engine.grid import Cell, Geometry, Grid


class Symmetry(enum.Enum):
    """Clue-pattern symmetries; values are the names the CLI and the workbook accept."""

    NONE = "none"
    ROTATE_180 = "rotate180"
    ROTATE_90 = "rotate90"
    HORIZONTAL = "horizontal"  # mirror in the horizontal axis: row r <-> row n-1-r
    VERTICAL = "vertical"  # mirror in the vertical axis: column c <-> column n-1-c
    DIAGONAL = "diagonal"  # mirror in the main diagonal: (r, c) <-> (c, r)
    ANTIDIAGONAL = "antidiagonal"  # mirror in the anti-diagonal: (r, c) <-> (n-1-c, n-1-r)
    DIHEDRAL = "dihedral"  # all eight of the above together

    @classmethod
    def parse(cls, text: str) -> Symmetry:
        """Return the symmetry named *text* (value, name or a common alias).

        >>> Symmetry.parse("180"), Symmetry.parse("Rotate 90")
        (<Symmetry.ROTATE_180: 'rotate180'>, <Symmetry.ROTATE_90: 'rotate90'>)
        """
        key = "".join(ch for ch in str(text).lower() if ch.isalnum())
        for sym in cls:
            if key in (sym.value, sym.name.lower().replace("_", "")):
                return sym
        alias = _ALIASES.get(key)
        if alias is None:
            names = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown symmetry {text!r}; choose one of {names}")
        return alias


_ALIASES = {
    "180": Symmetry.ROTATE_180,
    "rot180": Symmetry.ROTATE_180,
    "rotational": Symmetry.ROTATE_180,
    "90": Symmetry.ROTATE_90,
    "rot90": Symmetry.ROTATE_90,
    "mirrorh": Symmetry.HORIZONTAL,
    "mirrorv": Symmetry.VERTICAL,
    "full": Symmetry.DIHEDRAL,
    "all": Symmetry.DIHEDRAL,
    "no": Symmetry.NONE,
    "random": Symmetry.NONE,
}


# A map sends (row, column) to (row, column) on an n x n grid.
CellMap = Callable[[int, int, int], tuple[int, int]]


def _rotate_90(r: int, c: int, n: int) -> tuple[int, int]:
    return c, n - 1 - r


def _rotate_180(r: int, c: int, n: int) -> tuple[int, int]:
    return n - 1 - r, n - 1 - c


def _horizontal(r: int, c: int, n: int) -> tuple[int, int]:
    return n - 1 - r, c


def _vertical(r: int, c: int, n: int) -> tuple[int, int]:
    return r, n - 1 - c


def _diagonal(r: int, c: int, n: int) -> tuple[int, int]:
    return c, r


def _antidiagonal(r: int, c: int, n: int) -> tuple[int, int]:
    return n - 1 - c, n - 1 - r


# The maps generating each symmetry's group (plain Python: the engine's core needs no numpy,
# so it also runs where numpy cannot be installed).
_GENERATORS: dict[Symmetry, tuple[CellMap, ...]] = {
    Symmetry.NONE: (),
    Symmetry.ROTATE_180: (_rotate_180,),
    Symmetry.ROTATE_90: (_rotate_90,),
    Symmetry.HORIZONTAL: (_horizontal,),
    Symmetry.VERTICAL: (_vertical,),
    Symmetry.DIAGONAL: (_diagonal,),
    Symmetry.ANTIDIAGONAL: (_antidiagonal,),
    Symmetry.DIHEDRAL: (_rotate_90, _diagonal),
}


@functools.cache
def orbits(symmetry: Symmetry, geo: Geometry) -> tuple[tuple[Cell, ...], ...]:
    """Return the orbits of *symmetry* on *geo*, each sorted, ordered by first cell.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> o = orbits(Symmetry.ROTATE_180, CLASSIC)
    >>> len(o), o[0], o[-1]
    (41, (0, 80), (40,))
    """
    n = geo.size
    parent = list(range(n * n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for cell_map in _GENERATORS[symmetry]:
        for a in range(n * n):
            r, c = cell_map(*divmod(a, n), n)
            ra, rb = find(a), find(r * n + c)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[Cell]] = {}
    for cell in range(n * n):
        groups.setdefault(find(cell), []).append(cell)
    return tuple(tuple(g) for g in sorted(groups.values()))


@functools.cache
def orbit_index(symmetry: Symmetry, geo: Geometry) -> tuple[int, ...]:
    """Return, for each cell, the index of its orbit in :func:`orbits`.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> orbit_index(Symmetry.ROTATE_180, CLASSIC)[80]
    0
    """
    table = [0] * geo.cell_count
    for i, orbit in enumerate(orbits(symmetry, geo)):
        for cell in orbit:
            table[cell] = i
    return tuple(table)


def is_symmetric(grid: Grid, symmetry: Symmetry) -> bool:
    """Return True when the filled cells of *grid* form a pattern with *symmetry*.

    >>> from xlsudoku.engine.grid import Grid
    >>> is_symmetric(Grid.parse("1" + "." * 79 + "2"), Symmetry.ROTATE_180)
    True
    >>> is_symmetric(Grid.parse("1" + "." * 80), Symmetry.ROTATE_180)
    False
    """
    for orbit in orbits(symmetry, grid.geometry):
        filled = [bool(grid.cells[c]) for c in orbit]
        if any(filled) and not all(filled):
            return False
    return True


# Strongest first: a puzzle typed by hand is recorded with the first symmetry it has.
STRONGEST_FIRST = (
    Symmetry.DIHEDRAL,
    Symmetry.ROTATE_90,
    Symmetry.ROTATE_180,
    Symmetry.HORIZONTAL,
    Symmetry.VERTICAL,
    Symmetry.DIAGONAL,
    Symmetry.ANTIDIAGONAL,
)


def symmetry_of(grid: Grid, preferred: Symmetry | None = None) -> Symmetry:
    """Return *preferred* if the givens of *grid* have it, else the strongest symmetry they have.

    >>> from xlsudoku.engine.grid import Grid
    >>> corners = Grid.parse("1" + "." * 7 + "2" + "." * 63 + "3" + "." * 7 + "4")
    >>> symmetry_of(corners), symmetry_of(corners, Symmetry.ROTATE_180)
    (<Symmetry.DIHEDRAL: 'dihedral'>, <Symmetry.ROTATE_180: 'rotate180'>)
    >>> symmetry_of(Grid.parse(".1" + "." * 79))
    <Symmetry.NONE: 'none'>
    """
    if preferred is not None and is_symmetric(grid, preferred):
        return preferred
    for symmetry in STRONGEST_FIRST:
        if is_symmetric(grid, symmetry):
            return symmetry
    return Symmetry.NONE
