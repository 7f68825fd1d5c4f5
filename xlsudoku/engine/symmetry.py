"""Symmetries of a clue pattern as orbit tables.

An *orbit* is a set of cells that a symmetry maps onto each other; the generator blanks or keeps
a whole orbit at once, so every puzzle it makes has the symmetry.
"""

from __future__ import annotations

import enum
import functools

import numpy as np

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


def _generators(symmetry: Symmetry, idx: np.ndarray) -> list[np.ndarray]:
    """Return index arrays of the maps generating *symmetry*'s group."""
    maps = {
        Symmetry.NONE: [],
        Symmetry.ROTATE_180: [np.rot90(idx, 2)],
        Symmetry.ROTATE_90: [np.rot90(idx, 1)],
        Symmetry.HORIZONTAL: [idx[::-1, :]],
        Symmetry.VERTICAL: [idx[:, ::-1]],
        Symmetry.DIAGONAL: [idx.T],
        Symmetry.ANTIDIAGONAL: [np.rot90(idx, 2).T],
        Symmetry.DIHEDRAL: [np.rot90(idx, 1), idx.T],
    }
    return maps[symmetry]


@functools.cache
def orbits(symmetry: Symmetry, geo: Geometry) -> tuple[tuple[Cell, ...], ...]:
    """Return the orbits of *symmetry* on *geo*, each sorted, ordered by first cell.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> o = orbits(Symmetry.ROTATE_180, CLASSIC)
    >>> len(o), o[0], o[-1]
    (41, (0, 80), (40,))
    """
    n = geo.size
    idx = np.arange(n * n).reshape(n, n)
    parent = list(range(n * n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for m in _generators(symmetry, idx):
        for a, b in zip(idx.ravel().tolist(), m.ravel().tolist(), strict=True):
            ra, rb = find(a), find(b)
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
