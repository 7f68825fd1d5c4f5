"""Uniqueness against a known solution: is the puzzle still unique once an orbit is blanked?

Blanking an orbit of a unique puzzle taken from a solution *S* keeps it unique exactly when no
solution differs from *S* in that orbit, so each test is cheaper than counting solutions:

1. an unavoidable set of *S* left without a clue means two solutions (the quick sets of
   :func:`.unavoidable.quick_sets`, then every difference found by step 2 is learned);
2. otherwise the exact solver is asked, cell by cell of the orbit, for a solution where the
   cell does not hold its digit of *S* (:func:`xlsudoku.engine.solver.other_solution`:
   a single from the givens needs no search); none for every cell means unique.

The propagation and search are the solver's: this module only keeps the puzzle and the sets.
"""

from __future__ import annotations

from collections.abc import Sequence

from xlsudoku.engine.generate.clock import Clock
from xlsudoku.engine.generate.unavoidable import quick_sets
from xlsudoku.engine.grid import Cell, Grid
from xlsudoku.engine.solver import Work, other_solution


class Oracle:
    """A puzzle taken from a known solution, and cheap tests of blanking orbits.

    With a *clock*, every search of a test counts its work there (and stops with
    :class:`~.clock.Stopped` when the clock says so; the puzzle is then unchanged).

    >>> from xlsudoku.engine.fill import random_grid
    >>> import random
    >>> oracle = Oracle(random_grid(random.Random(1)))
    >>> oracle.try_remove((0, 80)), oracle.givens
    (True, 79)
    """

    def __init__(self, solution: Grid, learn: bool = True, clock: Clock | None = None) -> None:
        self.solution = solution
        self.geometry = solution.geometry
        self.clock = clock
        self.work: Work | None = None if clock is None else clock.solver
        self.sol = solution.cells
        self.cells = list(self.sol)
        self.blank = 0  # bit c set when cell c is blank
        # unavoidable sets (cell bits) by cell; learned ones are added as they are found
        self.sets_by_cell: list[list[int]] = [[] for _ in range(self.geometry.cell_count)]
        self.known_sets: set[int] = set()
        for u in quick_sets(solution):
            self.add_set(u)
        # remember the difference of every second solution found (worth it when the same
        # grid is descended again; a single pass never meets the same set twice)
        self.learn = learn

    def reset(self, blank: frozenset[Cell]) -> None:
        """Make the puzzle the full solution with the *blank* cells blanked."""
        cells = list(self.sol)
        bits = 0
        for c in blank:
            cells[c] = 0
            bits |= 1 << c
        self.cells = cells
        self.blank = bits

    def puzzle(self) -> Grid:
        """Return the current puzzle."""
        return Grid(tuple(self.cells), self.geometry)

    @property
    def givens(self) -> int:
        """Number of clues of the current puzzle."""
        return self.geometry.cell_count - self.blank.bit_count()

    def is_given(self, cell: Cell) -> bool:
        """Return True when *cell* is a clue of the current puzzle."""
        return not self.blank >> cell & 1

    def add_set(self, u: int) -> None:
        """Remember the unavoidable set *u* (cell bits) for quick rejections."""
        if u in self.known_sets:
            return
        self.known_sets.add(u)
        x = u
        while x:
            low = x & -x
            x ^= low
            self.sets_by_cell[low.bit_length() - 1].append(u)

    def try_remove(self, orbit: Sequence[Cell]) -> bool:
        """Blank *orbit* if the puzzle stays unique; return whether it did."""
        if not self.can_remove(orbit):
            return False
        for c in orbit:
            self.cells[c] = 0
            self.blank |= 1 << c
        return True

    def can_remove(self, orbit: Sequence[Cell]) -> bool:
        """Return True when blanking *orbit* keeps the puzzle unique (the puzzle is unchanged)."""
        if self.clock is not None:
            self.clock.tick()
        after = self.blank
        for c in orbit:
            after |= 1 << c
        sets_by_cell = self.sets_by_cell
        for c in orbit:
            for u in sets_by_cell[c]:
                if u & after == u:  # every cell of an unavoidable set blank: two solutions
                    return False
        cells = self.cells[:]
        for c in orbit:
            cells[c] = 0
        other = other_solution(cells, self.sol, orbit, self.geometry, self.work)
        if other is None:
            return True
        if self.learn:
            diff = 0
            for c, (d, s) in enumerate(zip(other, self.sol, strict=True)):
                if d != s:
                    diff |= 1 << c
            self.add_set(diff)
        return False
