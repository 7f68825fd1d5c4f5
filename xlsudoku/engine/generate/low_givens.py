"""Low-clue search: symmetric unique puzzles with fewer clues than random descent reaches.

Random descent (blank orbits while the puzzle stays unique) ends at a *minimal* puzzle, one
that loses uniqueness whatever orbit is blanked next; with 180° symmetry those have 24 to 30
clues, and fewer than 23 come out rarely.  This module searches a solution grid exhaustively
instead.

**Hitting sets.**  A puzzle taken from a grid *S* is unique exactly when it keeps a clue in
every unavoidable set of *S* (:mod:`.unavoidable`).  A symmetric puzzle is a union of
*orbits* of the symmetry, so each unavoidable set becomes the set of orbits that meet it, and a
symmetric puzzle is unique exactly when its orbits *hit* every such orbit set.  The search
enumerates the orbit sets of at most *limit* clues that hit every known set:

- branch on the known set with the fewest orbits still allowed: take its first allowed orbit,
  or forbid that orbit and continue (so no orbit set is visited twice);
- prune when the clues left cannot hit the pairwise disjoint sets still missed (each needs an
  orbit of its own), or when only one more orbit fits and no orbit lies in every missed set;
- when a candidate hits every known set, ask the exact solver (:mod:`engine.solver`): if the
  puzzle is unique the search is over; if not, the difference between the two solutions holds
  new unavoidable sets, the minimal ones inside it are *learned*, and the search goes on.

The start sets are the two- and three-digit sets of the grid; learning adds the rest as needed.
Failing to find a puzzle means no symmetric puzzle of at most *limit* clues exists on that grid
(with the fixed cells).  A unique set with fewer clues than wanted gets orbits back
(:func:`pad`): a superset of a unique puzzle is unique.

:class:`GridSearch` is this search on one grid (the deep strategy, :mod:`.deep`, runs it on
every fresh grid and on the grids its neighbour moves reach); :func:`descend` runs it once on
the caller's grid.  Every puzzle either gives has been checked unique by the exact solver.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable

from xlsudoku.engine.generate.clock import Clock, Stopped
from xlsudoku.engine.generate.unavoidable import (
    check_solution,
    difference,
    digit_sets,
    kept,
    minimal_sets,
    other_solution,
    sets_within,
)
from xlsudoku.engine.grid import CLASSIC, Cell, Geometry, Grid, SudokuError
from xlsudoku.engine.solver import KERNEL, count_solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric, orbits

# Solutions enumerated inside a learned difference to find the minimal sets it holds: a few
# suffice (measured: 16 is faster overall than 64 or 256, and than learning the difference as is).
LEARN_LIMIT = 16

# The branching set is the one with the fewest allowed orbits among this many missed sets
# (kept smallest first); scanning them all costs more than the smaller tree saves.
BRANCH_SCAN = 8

# Sets (by index, smallest first) a node looks at first as an int of their own.
WINDOW = 256


class LowGivensError(SudokuError):
    """A low-clue request that cannot be searched; the message names the cell or parameter."""


class OrbitSpace:
    """The orbits of a symmetry in a random order, and which are fixed open or fixed blank.

    Orbit sets are ints: bit ``i`` for ``orbits[i]``.
    """

    def __init__(
        self,
        geometry: Geometry,
        symmetry: Symmetry,
        fixed_given: Iterable[Cell],
        fixed_blank: Iterable[Cell],
        rng: random.Random,
    ) -> None:
        found = list(orbits(symmetry, geometry))
        rng.shuffle(found)
        self.orbits = tuple(found)
        self.weight = tuple(len(o) for o in found)
        bit_of = [0] * geometry.cell_count
        cells_of_orbit = []
        for i, orbit in enumerate(found):
            m = 0
            for c in orbit:
                bit_of[c] = 1 << i
                m |= 1 << c
            cells_of_orbit.append(m)
        self.bit_of = tuple(bit_of)
        self.cell_mask = tuple(cells_of_orbit)
        self.forced = self.to_orbits(_cell_mask(fixed_given, geometry, "fixed_given"))
        self.forbidden = self.to_orbits(_cell_mask(fixed_blank, geometry, "fixed_blank"))
        both = self.forced & self.forbidden
        if both:
            orbit = found[both.bit_length() - 1]
            names = ", ".join(geometry.cell_name(c) for c in orbit)
            raise LowGivensError(
                f"fixed_given and fixed_blank meet in the {symmetry.value} orbit {names}"
            )
        # weight classes, lightest first: (weight, orbits of that weight)
        classes: dict[int, int] = {}
        for i, w in enumerate(self.weight):
            classes[w] = classes.get(w, 0) | 1 << i
        self.classes = tuple(sorted(classes.items()))

    def to_orbits(self, cells: int) -> int:
        """Return the orbits meeting the cell set *cells*."""
        bit_of = self.bit_of
        m = 0
        while cells:
            low = cells & -cells
            m |= bit_of[low.bit_length() - 1]
            cells ^= low
        return m

    def cells(self, orbit_set: int) -> int:
        """Return the cell set of the orbits in *orbit_set*."""
        cell_mask = self.cell_mask
        m = 0
        while orbit_set:
            low = orbit_set & -orbit_set
            m |= cell_mask[low.bit_length() - 1]
            orbit_set ^= low
        return m

    def weight_of(self, orbit_set: int) -> int:
        """Return the number of cells of the orbits in *orbit_set*."""
        return self.cells(orbit_set).bit_count()


def _cell_mask(cells: Iterable[Cell], geometry: Geometry, name: str) -> int:
    m = 0
    for c in cells:
        if not 0 <= c < geometry.cell_count:
            raise LowGivensError(f"{name}: cell {c} is outside the {geometry.name} grid")
        m |= 1 << c
    return m


class GridSearch:
    """The hitting-set search on one solution grid; known sets persist between runs."""

    def __init__(self, solution: Grid, space: OrbitSpace, clock: Clock) -> None:
        self.solution = solution
        self.space = space
        self.clock = clock
        geo = solution.geometry
        self.checks = 0
        self.nodes = 0
        self.work = clock.solver
        # on 9x9 the solver's candidate ints serve directly: the givens of an orbit set are an
        # OR of its orbits' bits, a difference an XOR of two solutions
        self.fast = geo == CLASSIC
        if self.fast:
            given, sol = KERNEL.given, solution.cells
            self.solution_bits = sum(given[c][sol[c]] for c in range(geo.cell_count))
            self.orbit_bits = [sum(given[c][sol[c]] for c in o) for o in space.orbits]
            start = self._digit_sets()
        else:
            start = digit_sets(solution, 3 if geo.size <= 9 else 2)
        self.known: list[int] = minimal_sets(space.to_orbits(u) for u in start)
        self.known_set = set(self.known)

    def _digit_sets(self) -> list[int]:
        """Return :func:`.unavoidable.digit_sets` of the 9x9 solution (three digits at most).

        The same sets found on the solver's candidate ints, and like it off the clock: a
        grid's start is not search work.
        """
        mine = self.solution_bits
        by_digit = [0] * 10
        for c, d in enumerate(self.solution.cells):
            by_digit[d] |= 1 << c
        found: list[int] = []
        for k in (2, 3):
            for digits in itertools.combinations(range(1, 10), k):
                blank = 0
                for d in digits:
                    blank |= by_digit[d]
                keep: list[int] = []
                KERNEL.search_givens(mine & ~KERNEL.spread(blank), 64, keep)
                found.extend(KERNEL.cell_set(other ^ mine) for other in keep if other != mine)
        return minimal_sets(found)

    def _differences(self, givens: int, limit: int) -> list[int]:
        """Return the cells where each solution of *givens* (9x9 bits) differs, up to *limit*."""
        keep: list[int] = []
        stats = KERNEL.search_givens(givens, limit, keep)
        self.work(1 + stats.guesses)
        mine = self.solution_bits
        return [KERNEL.cell_set(k ^ mine) for k in keep if k != mine]

    def other(self, orbit_set: int) -> int | None:
        """Return the cells where another solution of *orbit_set*'s puzzle differs, or None."""
        if not self.fast:
            found = other_solution(self.solution, self.space.cells(orbit_set), self.work)
            return None if found is None else difference(found, self.solution)
        givens = 0
        bits = self.orbit_bits
        while orbit_set:
            low = orbit_set & -orbit_set
            orbit_set ^= low
            givens |= bits[low.bit_length() - 1]
        diffs = self._differences(givens, 2)
        return diffs[0] if diffs else None

    def within(self, blank: int) -> list[int]:
        """Return minimal unavoidable sets inside the cells *blank* (``LEARN_LIMIT`` solutions)."""
        if not self.fast:
            return sets_within(self.solution, blank, LEARN_LIMIT, self.work)
        return minimal_sets(
            self._differences(self.solution_bits & ~KERNEL.spread(blank), LEARN_LIMIT)
        )

    def learn(self, orbit_set: int) -> list[int] | None:
        """Return None when *orbit_set* gives a unique puzzle, else the new sets it misses."""
        self.checks += 1
        space = self.space
        diff = self.other(orbit_set)
        if diff is None:
            return None
        inside = self.within(diff)
        sets = minimal_sets([space.to_orbits(u) for u in inside] + [space.to_orbits(diff)])
        new = [u for u in sets if u not in self.known_set]
        if not new:  # pragma: no cover - would mean a known set was missed by the search
            raise AssertionError("learned nothing from a second solution")
        self.known.extend(new)
        self.known_set.update(new)
        return new

    def run(self, limit: int, least: int = 0, prefer: int = 0) -> int | None:
        """Return an orbit set of *least* to *limit* clues giving a unique puzzle, or None.

        A unique set of fewer than *least* clues is padded with more orbits (those of *prefer*
        first) to exactly *least*, or else to the fewest above it that the orbit sizes allow
        within *limit*; a superset of a unique puzzle is unique.  None means that no such
        puzzle exists (the search is exhaustive).

        Raises:
            Stopped: the deadline passed or the cancel hook said stop.
        """
        space = self.space
        weight = space.weight
        classes = space.classes
        forced, forbidden = space.forced, space.forbidden
        base = space.weight_of(forced)
        if base > limit:
            return None
        free_weights = sorted(w for i, w in enumerate(weight) if not (forced | forbidden) >> i & 1)
        # fewest clues two more orbits can add: below that, at most one more orbit fits
        two = free_weights[0] + free_weights[1] if len(free_weights) > 1 else math.inf
        tick = self.clock.tick
        # a set meeting no orbit of the lightest weight needs at least the next weight
        light_weight, light = classes[0]
        heavy_weight = classes[1][0] if len(classes) > 1 else light_weight

        def fit(found: int) -> int | None:
            for total in range(least, limit + 1):
                padded = pad(space, found, total, prefer)
                if padded is not None:
                    return padded
            return None

        # orbits of at most rem clues, for each rem
        fits = [sum(mask for w, mask in classes if w <= rem) for rem in range(limit + 1)]

        # The known sets get indices, smallest first and learned ones after them, so that the
        # sets a node still misses are one int over those indices (its lowest bit the smallest
        # set) and choosing an orbit removes the sets it meets in one step: hits[i] holds the
        # sets that orbit i meets.
        sets = sorted(self.known, key=int.bit_count)
        hits = [0] * len(space.orbits)

        def index(first: int) -> None:
            for j in range(first, len(sets)):
                u, bit = sets[j], 1 << j
                while u:
                    low = u & -u
                    u ^= low
                    hits[low.bit_length() - 1] |= bit

        # the sets meeting an orbit set, for the orbit sets of the bound; cleared on learning
        met: dict[int, int] = {}

        def meeting(orbit_set: int) -> int:
            """Return the sets meeting *orbit_set*."""
            found = 0
            while orbit_set:
                low = orbit_set & -orbit_set
                orbit_set ^= low
                found |= hits[low.bit_length() - 1]
            return found

        def in_every(cand: int, missed: int) -> int:
            """Return the orbits of *cand* that lie in every set of *missed* (not empty)."""
            cand &= sets[(missed & -missed).bit_length() - 1]
            out = cand
            while cand:
                low = cand & -cand
                cand ^= low
                if missed & ~hits[low.bit_length() - 1]:
                    out ^= low
            return out

        def learn(orbit_set: int) -> list[int] | None:
            new = self.learn(orbit_set)
            if new is not None:
                first = len(sets)
                sets.extend(new)
                index(first)
                met.clear()
            return new

        index(0)
        window = (1 << WINDOW) - 1

        def node(chosen: int, rem: int, banned: int, missed: int) -> int | None:
            tick()
            self.nodes += 1
            seen = len(sets)
            while True:
                if len(sets) > seen:
                    for j in range(seen, len(sets)):
                        if not sets[j] & chosen:
                            missed |= 1 << j
                    seen = len(sets)
                if not missed:
                    new = learn(chosen)
                    if new is None:
                        # no superset fits when this one cannot be padded
                        return fit(chosen)
                    missed = (1 << len(sets)) - (1 << seen)
                    seen = len(sets)
                    continue
                if rem < two:
                    # one more orbit at most: it must lie in every missed set
                    cand = in_every(fits[rem] & ~banned, missed)
                    while cand:
                        b = cand & -cand
                        cand ^= b
                        tick()
                        if learn(chosen | b) is None:
                            fitted = fit(chosen | b)
                            if fitted is not None:
                                return fitted
                            continue
                        for u in sets[seen:]:
                            cand &= u
                        seen = len(sets)
                    return None
                # disjoint missed sets each need an orbit of their own (a lower bound on the
                # clues still needed): take the smallest, drop the sets meeting it, repeat
                # (the first sets in a few words of their own: short ints are cheap)
                keep = ~banned
                rest = missed & window
                tail = missed ^ rest
                gone = lower = 0
                while True:
                    if not rest:
                        if not tail:
                            break
                        rest = tail & ~gone
                        tail = 0
                        if not rest:
                            break
                    low = rest & -rest
                    a = sets[low.bit_length() - 1] & keep
                    if not a:
                        return None
                    lower += light_weight if a & light else heavy_weight
                    if lower > rem:
                        return None
                    m = met.get(a)
                    if m is None:
                        m = met[a] = meeting(a)
                    if tail:
                        gone |= m
                    rest ^= rest & m  # m holds the set itself
                # branch on the smallest of the first few
                best = 0
                best_count = 1 << 30
                # the smallest sets come first: a few words usually hold the first few
                rest = missed & window
                if rest.bit_count() < BRANCH_SCAN:
                    rest = missed
                for _ in range(BRANCH_SCAN):
                    if not rest:
                        break
                    low = rest & -rest
                    rest ^= low
                    a = sets[low.bit_length() - 1] & keep
                    k = a.bit_count()
                    if k < best_count:
                        best, best_count = a, k
                b = best & -best
                i = b.bit_length() - 1
                w = weight[i]
                if w <= rem:
                    child = missed & ~hits[i]
                    # the child can add one orbit at most, one that lies in every set still
                    # missed: when none does, it needs no node of its own
                    if rem - w < two and child and not in_every(fits[rem - w] & keep, child):
                        tick()
                        self.nodes += 1
                        banned |= b
                        continue
                    found = node(chosen | b, rem - w, banned, child)
                    if found is not None:
                        return found
                banned |= b

        return node(forced, limit - base, forbidden, ((1 << len(sets)) - 1) & ~meeting(forced))


def pad(space: OrbitSpace, found: int, target: int, prefer: int = 0) -> int | None:
    """Return *found* with orbits added (those of *prefer* first) to make *target* clues.

    None when the orbit sizes cannot make exactly *target*; *found* itself when it has *target*
    clues or more.  A superset of a unique puzzle is unique, so the padded puzzle stays unique.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, (), (), random.Random(1))
    >>> center = space.to_orbits(1 << 40)
    >>> space.weight_of(pad(space, center, 5)), pad(space, center, 4)
    (5, None)
    """
    need = target - space.weight_of(found)
    if need <= 0:
        return found
    free = [i for i in range(len(space.orbits)) if not (found | space.forbidden) >> i & 1]
    free.sort(key=lambda i: not prefer >> i & 1)
    reach: dict[int, int] = {0: 0}  # clues added -> orbit set adding them
    for i in free:
        w = space.weight[i]
        for total, orbit_set in list(reach.items()):
            if total + w <= need and total + w not in reach:
                reach[total + w] = orbit_set | 1 << i
        if need in reach:
            return found | reach[need]
    return None


def _validate(
    solution: Grid,
    start: Grid,
    symmetry: Symmetry,
    fixed_given: frozenset[Cell],
    fixed_blank: frozenset[Cell],
) -> None:
    """Raise :class:`LowGivensError` naming the cell when the descend inputs disagree."""
    try:
        check_solution(solution)
    except SudokuError as err:
        raise LowGivensError(str(err)) from None
    geo = solution.geometry
    if start.geometry != geo:
        raise LowGivensError(f"start is a {start.geometry.name} grid, the solution {geo.name}")
    # the orbit checks of OrbitSpace (cells inside the grid, no orbit both open and blank)
    OrbitSpace(geo, symmetry, fixed_given, fixed_blank, random.Random(0))
    for c, (d, s) in enumerate(zip(start.cells, solution.cells, strict=True)):
        if d and d != s:
            raise LowGivensError(f"start gives {d} at {geo.cell_name(c)}, the solution has {s}")
    if not is_symmetric(start, symmetry):
        for orbit in orbits(symmetry, geo):
            if len({bool(start[c]) for c in orbit}) > 1:
                names = ", ".join(geo.cell_name(c) for c in orbit)
                raise LowGivensError(f"start is not {symmetry.value}-symmetric: orbit {names}")
    for c in sorted(fixed_given):
        if not start[c]:
            raise LowGivensError(f"fixed_given cell {geo.cell_name(c)} is blank in start")
    for c in sorted(fixed_blank):
        if start[c]:
            raise LowGivensError(f"fixed_blank cell {geo.cell_name(c)} is a clue in start")
    if count_solutions(start, 2) != 1:
        raise LowGivensError("start has more than one solution")


def descend(
    solution: Grid,
    start: Grid,
    target: int,
    symmetry: Symmetry,
    fixed_given: frozenset[int],
    fixed_blank: frozenset[int],
    rng: random.Random,
    deadline: float | None = None,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Grid:
    """Return a unique symmetric puzzle of *solution* with *target* clues, or *start*.

    Searches every symmetric clue set of at most *target* clues that keeps the *fixed_given*
    cells and blanks the *fixed_blank* ones (see the module notes).  When one is found with
    fewer clues than *target*, orbits (those of *start* first) are given back to make exactly
    *target* clues (adding clues keeps it unique); one the orbit sizes cannot bring to *target*
    does not count.

    Args:
        solution: The complete grid.
        start: A unique puzzle taken from *solution*, symmetric, with the fixed cells kept.
        target: Clues wanted.
        symmetry: Symmetry of the clue pattern.
        fixed_given: Cells that stay clues.
        fixed_blank: Cells that stay blank.
        rng: Random source (the order in which orbits are tried).
        deadline: ``time.perf_counter()`` value after which the search stops.
        cancel: Polled during the search; True stops it.
        progress: Called with the clue count of the puzzle found.

    Returns:
        The puzzle found, else *start*: when the target is not reachable on this grid (with
        these fixed cells), or the deadline or cancel cut the search short.  Every puzzle
        returned is unique (checked by the exact solver).

    Raises:
        LowGivensError: The inputs disagree (the message names the cell).

    >>> from xlsudoku.engine.fill import random_grid
    >>> s = random_grid(random.Random(4))
    >>> p = descend(s, s, 24, Symmetry.ROTATE_180, frozenset(), frozenset(), random.Random(1))
    >>> p.given_count, is_symmetric(p, Symmetry.ROTATE_180), count_solutions(p)
    (24, True, 1)
    """
    fixed_given, fixed_blank = frozenset(fixed_given), frozenset(fixed_blank)
    _validate(solution, start, symmetry, fixed_given, fixed_blank)
    if start.given_count <= target:
        return start
    clock = Clock(deadline, cancel)  # on time.perf_counter, as *deadline*
    space = OrbitSpace(solution.geometry, symmetry, fixed_given, fixed_blank, rng)
    try:
        clock.poll()
        search = GridSearch(solution, space, clock)
        found = search.run(target, target, space.to_orbits(_given_mask(start)))
    except Stopped:
        return start
    if found is None:
        return start
    puzzle = kept(solution, space.cells(found))
    if count_solutions(puzzle, 2) != 1:  # pragma: no cover - the search checked it
        raise AssertionError("the low-clue search returned a puzzle that is not unique")
    if progress is not None:
        progress(puzzle.given_count)
    return puzzle


def _given_mask(grid: Grid) -> int:
    m = 0
    for c, d in enumerate(grid.cells):
        if d:
            m |= 1 << c
    return m


__all__ = [
    "Clock",
    "GridSearch",
    "LowGivensError",
    "OrbitSpace",
    "Stopped",
    "descend",
    "pad",
]
