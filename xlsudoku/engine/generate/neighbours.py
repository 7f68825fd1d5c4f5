"""Neighbour moves: new unique symmetric puzzles one or two orbits away from a known one.

Few grids have a 180°-symmetric puzzle of 20 clues or fewer (none of some 260 random grids
searched exhaustively), but such puzzles lie close to others: blank one or two clue orbits of a
puzzle and give one orbit (another, or one just blanked) any digits its candidates allow, and
ask the exact solver whether the result is unique.  Its solution is usually a *new* grid, one
that a random fill would almost never draw.  Blanking a pair and the centre of a 21 and giving
another pair found a 20 around half of the 21s tried.

:func:`neighbours` yields the moves of one *stage* of a puzzle, cheapest and most promising
first:

0. blank one clue orbit and give a lighter one, or blank two (one of them light) and give one
   (fewer clues);
1. blank one orbit and give one as heavy (as many clues: puzzles to explore further);
2. blank two heavy orbits and give one (fewer clues).

When every orbit free to change has one weight (a pattern fixes the center cell, so only pairs
are left under 180°), no orbit is lighter: stage 0 then blanks any two and gives one, the only
move that lowers such a puzzle, and stage 2 is empty.  (Put after stage 1, as before, it came
only once the equal puzzles of the whole pool had been explored: patterns 8 and 9 never got
from 23 to 21 through neighbours in 60 s; now in 2-3 s.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator
from typing import cast

from xlsudoku.engine.generate.clock import Clock
from xlsudoku.engine.generate.lowclue import OrbitSpace
from xlsudoku.engine.grid import CLASSIC, Geometry
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.solver import FAST9, Work, singles_candidates, solutions_cells

# Stages of moves (see the module notes).
STAGES = 3

# Digit choices tried for one added orbit at most (larger orbits are skipped).
VALUE_LIMIT = 729

Move = tuple[tuple[int, ...], int, bool]  # orbits blanked, their clues, give one as heavy


def _plan(space: OrbitSpace, cells: tuple[int, ...], stage: int) -> list[Move]:
    """Return the blankings of *stage* for the puzzle *cells*, lightest first."""
    weight = space.weight
    clue_orbits = [
        i for i, orbit in enumerate(space.orbits) if cells[orbit[0]] and not space.forced >> i & 1
    ]
    heavy = max(weight)
    fixed = space.forced | space.forbidden
    # with one weight among the orbits free to change (a pattern fixing the center), no
    # orbit is lighter: blanking two and giving one is then the cheapest lowering move
    one_weight = len({w for i, w in enumerate(weight) if not fixed >> i & 1}) == 1
    if stage == 1:
        return [((r,), weight[r], True) for r in clue_orbits]
    doubles: list[Move] = [
        ((a, b), weight[a] + weight[b], False)
        for k, a in enumerate(clue_orbits)
        for b in clue_orbits[k + 1 :]
    ]
    doubles.sort(key=lambda item: item[1])
    if stage == 0:
        singles: list[Move] = [((r,), weight[r], False) for r in clue_orbits]
        return singles + [m for m in doubles if one_weight or m[1] < 2 * heavy]
    return [m for m in doubles if not one_weight and m[1] >= 2 * heavy]


def neighbours(
    space: OrbitSpace,
    cells: tuple[int, ...],
    stage: int,
    clock: Clock,
    geometry: Geometry = CLASSIC,
) -> Iterator[tuple[int, tuple[int, ...] | None]]:
    """Yield ``(clues, cells)`` for each unique neighbour, ``(0, None)`` for each other check.

    Digit choices that solutions found by earlier checks of the same blanking already show to
    leave two solutions are not checked (nor yielded).  Orbits fixed open (``space.forced``)
    are never blanked, orbits fixed blank (``space.forbidden``) never given.  Each check counts
    its work on *clock* (which raises :class:`~.clock.Stopped` to stop).

    >>> import random
    >>> from xlsudoku.engine.symmetry import Symmetry
    >>> from xlsudoku.engine.solver import count_solutions
    >>> from xlsudoku.engine.grid import Grid
    >>> known = Grid.parse(
    ...     "6......2.....8....3..1...6......367...........819......9...2..5....5.....1......8")
    >>> space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, (), (), random.Random(0))
    >>> from xlsudoku.engine.generate.clock import Clock
    >>> clues, cells = next(m for m in neighbours(space, known.cells, 1, Clock()) if m[1])
    >>> clues, Grid(cells).given_count, count_solutions(Grid(cells)), Grid(cells) != known
    (18, 18, 1, True)
    """
    weight = space.weight
    work = clock.solver
    open_orbits = [
        i
        for i, orbit in enumerate(space.orbits)
        if not cells[orbit[0]] and not space.forbidden >> i & 1
    ]
    clues = sum(1 for d in cells if d)
    for removed, w_removed, same in _plan(space, cells, stage):
        base = list(cells)
        for r in removed:
            for c in space.orbits[r]:
                base[c] = 0
        # an orbit just blanked may come back with other digits
        adds = [
            x
            for x in open_orbits + list(removed)
            if (weight[x] == w_removed if same else weight[x] < w_removed)
        ]
        cands = singles_candidates(base, geometry)
        if cands is None:  # pragma: no cover - base is part of a solvable puzzle
            continue
        checks = _Checks9(base, work) if geometry == CLASSIC else _Checks(base, geometry, work)
        for x in adds:
            orbit = space.orbits[x]
            choices = [digits_of(cands[c]) for c in orbit]
            if math.prod(len(options) for options in choices) > VALUE_LIMIT:
                continue
            again = tuple(cells[c] for c in orbit) if x in removed else None
            seen = checks.seen(orbit)
            for digits in itertools.product(*choices):
                if digits == again:
                    continue  # the puzzle itself
                key = checks.key(orbit, digits)
                if seen.get(key, 0) > 1:
                    continue  # two solutions known
                if checks.unique(key, orbit, seen):
                    trial = base[:]
                    for c, d in zip(orbit, digits, strict=True):
                        trial[c] = d
                    yield clues - w_removed + weight[x], tuple(trial)
                else:
                    yield 0, None


class _Checks:
    """The uniqueness checks of one blanking and the solutions of it they find.

    Every check of a blanking finds solutions of the blanked puzzle; two of them that agree on
    an orbit show that giving the orbit those digits leaves two solutions: no check needed.
    A *key* names an orbit's digits, and a solution's digits on that orbit.
    """

    def __init__(self, base: list[int], geometry: Geometry, work: Work) -> None:
        self.base = base
        self.geometry = geometry
        self.work = work
        self.found: list[tuple[int, ...]] = []
        self.known: set[tuple[int, ...]] = set()

    def key(self, orbit: tuple[int, ...], digits: tuple[int, ...]) -> Hashable:
        """Return the key of *digits* on *orbit*."""
        return digits

    def solution_key(self, orbit: tuple[int, ...], solution: tuple[int, ...]) -> Hashable:
        """Return the key of *solution*'s digits on *orbit*."""
        return tuple(solution[c] for c in orbit)

    def seen(self, orbit: tuple[int, ...]) -> dict[Hashable, int]:
        """Return how many known solutions have each key on *orbit*."""
        seen: dict[Hashable, int] = {}
        for solution in self.found:
            key = self.solution_key(orbit, solution)
            seen[key] = seen.get(key, 0) + 1
        return seen

    def unique(self, key: Hashable, orbit: tuple[int, ...], seen: dict[Hashable, int]) -> bool:
        """Return whether giving *orbit* the digits *key* leaves one solution; count the rest."""
        trial = self.base[:]
        for c, d in zip(orbit, cast(tuple[int, ...], key), strict=True):
            trial[c] = d
        solved = solutions_cells(trial, self.geometry, 2, self.work)
        for solution in solved:
            if solution not in self.known:
                self.known.add(solution)
                self.found.append(solution)
                other = self.solution_key(orbit, solution)
                seen[other] = seen.get(other, 0) + 1
        return len(solved) == 1


class _Checks9(_Checks):
    """:class:`_Checks` on the 9x9 solver's candidate ints: keys and solutions are ints.

    The same searches as :func:`~xlsudoku.engine.solver.solutions_cells` (same start, same
    limit, the same work counted), without building digit lists and tuples for each.
    """

    def __init__(self, base: list[int], work: Work) -> None:
        super().__init__(base, CLASSIC, work)
        given = FAST9.given
        self.givens = sum(given[c][d] for c, d in enumerate(base) if d)
        self.ints: list[int] = []
        self.known_ints: set[int] = set()
        self.spread: dict[tuple[int, ...], int] = {}

    def key(self, orbit: tuple[int, ...], digits: tuple[int, ...]) -> Hashable:
        """Return the candidate bits of *digits* on *orbit*."""
        given = FAST9.given
        return sum(given[c][d] for c, d in zip(orbit, digits, strict=True))

    def _spread(self, orbit: tuple[int, ...]) -> int:
        bits = self.spread.get(orbit)
        if bits is None:
            bits = self.spread[orbit] = FAST9.spread(sum(1 << c for c in orbit))
        return bits

    def seen(self, orbit: tuple[int, ...]) -> dict[Hashable, int]:
        """Return how many known solutions have each key on *orbit*."""
        bits = self._spread(orbit)
        seen: dict[Hashable, int] = {}
        for solution in self.ints:
            key = solution & bits
            seen[key] = seen.get(key, 0) + 1
        return seen

    def unique(self, key: Hashable, orbit: tuple[int, ...], seen: dict[Hashable, int]) -> bool:
        """Return whether giving *orbit* the digits *key* leaves one solution; count the rest."""
        keep: list[int] = []
        stats = FAST9.search_givens(self.givens | cast(int, key), 2, keep)
        self.work(1 + stats.guesses)
        bits = self._spread(orbit)
        for solution in keep:
            if solution not in self.known_ints:
                self.known_ints.add(solution)
                self.ints.append(solution)
                other = solution & bits
                seen[other] = seen.get(other, 0) + 1
        return len(keep) == 1
