"""Independent oracle for the tests: each symmetry's cell maps written out by hand (no numpy)."""

from __future__ import annotations

from collections.abc import Callable

from xlsudoku.engine.symmetry import Symmetry

CellMap = Callable[[int, int], tuple[int, int]]


def symmetry_maps(symmetry: Symmetry, n: int) -> list[CellMap]:
    """Return maps (row, col) -> (row, col) generating *symmetry* on an n x n grid."""
    rot90: CellMap = lambda r, c: (c, n - 1 - r)  # noqa: E731
    rot180: CellMap = lambda r, c: (n - 1 - r, n - 1 - c)  # noqa: E731
    table: dict[Symmetry, list[CellMap]] = {
        Symmetry.NONE: [],
        Symmetry.ROTATE_180: [rot180],
        Symmetry.ROTATE_90: [rot90],
        Symmetry.HORIZONTAL: [lambda r, c: (n - 1 - r, c)],
        Symmetry.VERTICAL: [lambda r, c: (r, n - 1 - c)],
        Symmetry.DIAGONAL: [lambda r, c: (c, r)],
        Symmetry.ANTIDIAGONAL: [lambda r, c: (n - 1 - c, n - 1 - r)],
        Symmetry.DIHEDRAL: [rot90, lambda r, c: (c, r)],
    }
    return table[symmetry]
