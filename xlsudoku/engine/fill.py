"""Random complete grids from an explicit random number generator.

How the grid is drawn (the distribution is not uniform over all grids; no cheap exact
sampler of uniform Sudoku grids is known):

- The boxes on the main diagonal share no row, column or box, so each gets an independent
  uniformly random permutation of the digits (for 9x9: boxes 1, 5 and 9; for shapes whose
  boxes are not square, the diagonal boxes of the first ``min(bands, stacks)`` bands).
- The exact solver completes the grid, branching in a random digit order.  X-Sudoku grids
  start from a random first row instead, and so do Windoku and Jigsaw grids (their extra or
  irregular houses link the diagonal boxes).

Every grid that exists can come out (the random start covers every choice of the diagonal
boxes and the branch order every completion), but grids with many completions of their
diagonal boxes come out less often than grids with few.  The same seed always gives the
same grid.
"""

from __future__ import annotations

import random

from xlsudoku.engine.grid import CLASSIC, Geometry, Grid
from xlsudoku.engine.solver import random_solution


def _start_cells(rng: random.Random, geometry: Geometry) -> list[int]:
    """Return the cells of :func:`random_start` as a list."""
    n = geometry.size
    cells = [0] * geometry.cell_count
    if not geometry.standard:
        row = list(range(1, n + 1))
        rng.shuffle(row)
        cells[:n] = row
        return cells
    stacks = n // geometry.box_cols
    houses = geometry.houses
    for i in range(min(n // geometry.box_rows, stacks)):
        digits = list(range(1, n + 1))
        rng.shuffle(digits)
        for cell, d in zip(houses[2 * n + i * stacks + i], digits, strict=True):
            cells[cell] = d
    return cells


def random_start(rng: random.Random, geometry: Geometry = CLASSIC) -> Grid:
    """Return the random partial grid :func:`random_grid` completes.

    >>> start = random_start(random.Random(3))
    >>> start.given_count, start.conflicts()
    (27, ())
    """
    return Grid(tuple(_start_cells(rng, geometry)), geometry)


def random_grid(rng: random.Random, geometry: Geometry = CLASSIC) -> Grid:
    """Return a random complete grid of *geometry* drawn with *rng* (see the module notes).

    >>> g = random_grid(random.Random(1))
    >>> g.is_complete, g.conflicts(), g == random_grid(random.Random(1))
    (True, (), True)
    """
    for _ in range(100):
        found = random_solution(_start_cells(rng, geometry), rng, geometry)
        if found is not None:
            return Grid(found, geometry)
    raise RuntimeError(f"could not fill a {geometry.name} grid")  # pragma: no cover
