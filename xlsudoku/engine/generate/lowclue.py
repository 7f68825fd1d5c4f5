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
(with the fixed cells).  :func:`descend` is this search on the caller's grid.

**Neighbours.**  Few grids have a 180°-symmetric puzzle of 20 clues or fewer (none of some 260
random grids searched), but such puzzles lie close to others: :func:`search_low` also changes
the best puzzles found so far by blanking one or two clue orbits and giving one orbit any
digits, which usually lands on another grid (blanking a pair and the centre of a 21 and giving
another pair reached a 20 around half of the 21s tried).  Every puzzle returned has been
checked unique by the exact solver.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.fill import random_grid
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
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.solver import (
    count_solutions,
    count_solutions_cells,
    singles_candidates,
    solve,
)
from xlsudoku.engine.symmetry import Symmetry, is_symmetric, orbits

# Solutions enumerated inside a learned difference to find the minimal sets it holds: a few
# suffice (measured: 16 is faster overall than 64 or 256, and than learning the difference as is).
LEARN_LIMIT = 16

# The branching set is the one with the fewest allowed orbits among this many missed sets
# (kept smallest first); scanning them all costs more than the smaller tree saves.
BRANCH_SCAN = 8

# The deadline and the cancel hook are polled every this many search nodes.
POLL_NODES = 64


class LowClueError(SudokuError):
    """A low-clue request that cannot be searched; the message names the cell or parameter."""


class _Stop(Exception):
    """The deadline passed or the cancel hook said stop."""


class _Clock:
    """The deadline and cancel hook, polled every :data:`POLL_NODES` calls of :meth:`tick`."""

    def __init__(self, deadline: float | None, cancel: Callable[[], bool] | None) -> None:
        self.deadline = deadline
        self.cancel = cancel
        self.count = 0

    def tick(self) -> None:
        self.count += 1
        if self.count % POLL_NODES == 0:
            self.poll()

    def poll(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stop
        if self.cancel is not None and self.cancel():
            raise _Stop


class _Space:
    """The orbits of a symmetry in a random order, and which are fixed open or fixed blank.

    Orbit sets are ints: bit ``i`` for ``orbits[i]``.
    """

    def __init__(
        self,
        geometry: Geometry,
        symmetry: Symmetry,
        fixed_open: Iterable[Cell],
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
        self.forced = self.to_orbits(_cell_mask(fixed_open, geometry, "fixed_open"))
        self.forbidden = self.to_orbits(_cell_mask(fixed_blank, geometry, "fixed_blank"))
        both = self.forced & self.forbidden
        if both:
            orbit = found[both.bit_length() - 1]
            names = ", ".join(geometry.cell_name(c) for c in orbit)
            raise LowClueError(
                f"fixed_open and fixed_blank meet in the {symmetry.value} orbit {names}"
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
            raise LowClueError(f"{name}: cell {c} is outside the {geometry.name} grid")
        m |= 1 << c
    return m


class _GridSearch:
    """The hitting-set search on one solution grid; known sets persist between runs."""

    def __init__(self, solution: Grid, space: _Space, clock: _Clock) -> None:
        self.solution = solution
        self.space = space
        self.clock = clock
        geo = solution.geometry
        start = digit_sets(solution, 3 if geo.size <= 9 else 2)
        self.known: list[int] = minimal_sets(space.to_orbits(u) for u in start)
        self.known_set = set(self.known)
        self.checks = 0
        self.nodes = 0

    def learn(self, orbit_set: int) -> list[int] | None:
        """Return None when *orbit_set* gives a unique puzzle, else the new sets it misses."""
        self.checks += 1
        space = self.space
        clues = space.cells(orbit_set)
        other = other_solution(self.solution, clues)
        if other is None:
            return None
        diff = difference(other, self.solution)
        inside = sets_within(self.solution, diff, LEARN_LIMIT)
        sets = minimal_sets([space.to_orbits(u) for u in inside] + [space.to_orbits(diff)])
        new = [u for u in sets if u not in self.known_set]
        if not new:  # pragma: no cover - would mean a known set was missed by the search
            raise AssertionError("learned nothing from a second solution")
        self.known.extend(new)
        self.known_set.update(new)
        return new

    def run(self, limit: int) -> int | None:
        """Return an orbit set of at most *limit* clues giving a unique puzzle, or None.

        None means that no such puzzle exists (the search is exhaustive).

        Raises:
            _Stop: the deadline passed or the cancel hook said stop.
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
        known = self.known
        learn = self.learn
        tick = self.clock.tick
        # a set meeting no orbit of the lightest weight needs at least the next weight
        light_weight, light = classes[0]
        heavy_weight = classes[1][0] if len(classes) > 1 else light_weight

        def fits(rem: int) -> int:
            m = 0
            for w, mask in classes:
                if w <= rem:
                    m |= mask
            return m

        def node(chosen: int, rem: int, banned: int, missed: list[int]) -> int | None:
            tick()
            self.nodes += 1
            seen = len(known)
            while True:
                if len(known) > seen:
                    missed = missed + [u for u in known[seen:] if not u & chosen]
                    seen = len(known)
                if not missed:
                    new = learn(chosen)
                    if new is None:
                        return chosen
                    missed = new
                    seen = len(known)
                    continue
                if rem < two:
                    # one more orbit at most: it must lie in every missed set
                    cand = fits(rem) & ~banned
                    for u in missed:
                        cand &= u
                        if not cand:
                            return None
                    while cand:
                        b = cand & -cand
                        cand ^= b
                        tick()
                        if learn(chosen | b) is None:
                            return chosen | b
                        for u in known[seen:]:
                            cand &= u
                        seen = len(known)
                    return None
                # disjoint missed sets each need an orbit of their own (a lower bound on the
                # clues still needed); branch on the smallest of the first few
                keep = ~banned
                used = lower = 0
                for u in missed:
                    a = u & keep
                    if not a:
                        return None
                    if not a & used:
                        used |= a
                        lower += light_weight if a & light else heavy_weight
                best = 0
                best_count = 1 << 30
                for u in missed[:BRANCH_SCAN]:
                    a = u & keep
                    k = a.bit_count()
                    if k < best_count:
                        best, best_count = a, k
                if lower > rem:
                    return None
                b = best & -best
                w = weight[b.bit_length() - 1]
                if w <= rem:
                    found = node(chosen | b, rem - w, banned, [u for u in missed if not u & b])
                    if found is not None:
                        return found
                banned |= b

        missed = sorted((u for u in known if not u & forced), key=int.bit_count)
        return node(forced, limit - base, forbidden, missed)


def _pad(space: _Space, found: int, target: int, prefer: int, rng: random.Random) -> int:
    """Add orbits (those of *prefer* first) to *found* to make exactly *target* clues if possible.

    A superset of a unique puzzle is unique, so the padded puzzle stays unique.
    """
    need = target - space.weight_of(found)
    if need <= 0:
        return found
    free = [i for i in range(len(space.orbits)) if not (found | space.forbidden) >> i & 1]
    rng.shuffle(free)
    free.sort(key=lambda i: not prefer >> i & 1)
    reach: dict[int, int] = {0: 0}  # clues added -> orbit set adding them
    for i in free:
        w = space.weight[i]
        for total, orbit_set in list(reach.items()):
            if total + w <= need and total + w not in reach:
                reach[total + w] = orbit_set | 1 << i
        if need in reach:
            return found | reach[need]
    return found


def _validate(
    solution: Grid,
    start: Grid,
    symmetry: Symmetry,
    fixed_open: frozenset[Cell],
    fixed_blank: frozenset[Cell],
) -> None:
    """Raise :class:`LowClueError` naming the cell when the descend inputs disagree."""
    try:
        check_solution(solution)
    except SudokuError as err:
        raise LowClueError(str(err)) from None
    geo = solution.geometry
    if start.geometry != geo:
        raise LowClueError(f"start is a {start.geometry.name} grid, the solution {geo.name}")
    # the orbit checks of _Space (cells inside the grid, no orbit both open and blank)
    _Space(geo, symmetry, fixed_open, fixed_blank, random.Random(0))
    for c, (d, s) in enumerate(zip(start.cells, solution.cells, strict=True)):
        if d and d != s:
            raise LowClueError(f"start gives {d} at {geo.cell_name(c)}, the solution has {s}")
    if not is_symmetric(start, symmetry):
        for orbit in orbits(symmetry, geo):
            if len({bool(start[c]) for c in orbit}) > 1:
                names = ", ".join(geo.cell_name(c) for c in orbit)
                raise LowClueError(f"start is not {symmetry.value}-symmetric: orbit {names}")
    for c in sorted(fixed_open):
        if not start[c]:
            raise LowClueError(f"fixed_open cell {geo.cell_name(c)} is blank in start")
    for c in sorted(fixed_blank):
        if start[c]:
            raise LowClueError(f"fixed_blank cell {geo.cell_name(c)} is a clue in start")
    if count_solutions(start, 2) != 1:
        raise LowClueError("start has more than one solution")


def descend(
    solution: Grid,
    start: Grid,
    target: int,
    symmetry: Symmetry,
    fixed_open: frozenset[int],
    fixed_blank: frozenset[int],
    rng: random.Random,
    deadline: float | None = None,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Grid:
    """Return a unique symmetric puzzle of *solution* with *target* clues, or *start*.

    Searches every symmetric clue set of at most *target* clues that keeps the *fixed_open*
    cells and blanks the *fixed_blank* ones (see the module notes).  When one is found with
    fewer clues than *target*, orbits (those of *start* first) are given back until the puzzle
    has exactly *target* clues, where the orbit sizes allow it; adding clues keeps it unique.

    Args:
        solution: The complete grid.
        start: A unique puzzle taken from *solution*, symmetric, with the fixed cells kept.
        target: Clues wanted.
        symmetry: Symmetry of the clue pattern.
        fixed_open: Cells that stay clues.
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
        LowClueError: The inputs disagree (the message names the cell).

    >>> from xlsudoku.engine.fill import random_grid
    >>> s = random_grid(random.Random(4))
    >>> p = descend(s, s, 24, Symmetry.ROTATE_180, frozenset(), frozenset(), random.Random(1))
    >>> p.given_count, is_symmetric(p, Symmetry.ROTATE_180), count_solutions(p)
    (24, True, 1)
    """
    fixed_open, fixed_blank = frozenset(fixed_open), frozenset(fixed_blank)
    _validate(solution, start, symmetry, fixed_open, fixed_blank)
    if start.given_count <= target:
        return start
    clock = _Clock(deadline, cancel)
    space = _Space(solution.geometry, symmetry, fixed_open, fixed_blank, rng)
    try:
        clock.poll()
        search = _GridSearch(solution, space, clock)
        found = search.run(target)
    except _Stop:
        return start
    if found is None:
        return start
    found = _pad(space, found, target, space.to_orbits(_given_mask(start)), rng)
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


@dataclass(frozen=True, slots=True)
class Record:
    """A new fewest-clues puzzle found by :func:`search_low`.

    Attributes:
        clues: Its clue count.
        seconds: Wall time since the search started.
        grids: Fresh solution grids drawn so far.
        cpu: Processor time of this process since the search started.
        source: ``grid`` (the exhaustive search on a grid) or ``neighbour`` (a neighbour move
            from a puzzle of the pool).
    """

    clues: int
    seconds: float
    grids: int
    cpu: float = 0.0
    source: str = "grid"


@dataclass(frozen=True, slots=True)
class LowClueResult:
    """What :func:`search_low` found.

    Attributes:
        puzzle: The puzzle with the fewest clues, or None when no grid was searched to the end.
        solution: Its solution (None with no puzzle).
        clues: Clue count of *puzzle* (0 with no puzzle).
        target: The clue count asked for.
        reached: Whether *clues* is at most *target*.
        grids: Solution grids drawn.
        seconds: Wall time.
        stop: ``reached``, ``time``, ``cancel`` or ``grids``.
        records: Each new fewest-clues puzzle as it came, in order.
        message: One line for the user.
        explored: Puzzles whose neighbours were searched.
    """

    puzzle: Grid | None
    solution: Grid | None
    clues: int
    target: int
    reached: bool
    grids: int
    seconds: float
    stop: str
    records: tuple[Record, ...]
    message: str
    explored: int = 0

    def first(self, clues: int) -> Record | None:
        """Return the first record of at most *clues* clues, or None.

        >>> r = LowClueResult(None, None, 0, 20, False, 1, 2.0, "time",
        ...                   (Record(23, 0.5, 1), Record(21, 1.5, 3)), "")
        >>> r.first(22).seconds, r.first(23).grids, r.first(20)
        (1.5, 1, None)
        """
        for record in self.records:
            if record.clues <= clues:
                return record
        return None

    def seconds_to(self, clues: int) -> float | None:
        """Return the wall time when *clues* or fewer was first reached, or None.

        >>> LowClueResult(None, None, 0, 20, False, 1, 2.0, "time", (Record(21, 1.5, 3),),
        ...               "").seconds_to(22)
        1.5
        """
        record = self.first(clues)
        return None if record is None else record.seconds


def search_low(
    target: int,
    symmetry: Symmetry = Symmetry.ROTATE_180,
    fixed_open: frozenset[int] = frozenset(),
    fixed_blank: frozenset[int] = frozenset(),
    rng: random.Random | None = None,
    deadline: float | None = None,
    cancel: Callable[[], bool] | None = None,
    geometry: Geometry = CLASSIC,
    progress: Callable[[int, int], None] | None = None,
    max_grids: int | None = None,
    neighbours: bool = True,
) -> LowClueResult:
    """Search for a unique symmetric puzzle of at most *target* clues; return the best found.

    Two searches take turns (see the module notes):

    - *fresh grids*: on a new random solution grid, the exhaustive search asks for fewer clues
      than the best so far (any number on the first grid), then fewer again after each find,
      until it reaches *target* or proves this grid has nothing lower;
    - *neighbours* (when *neighbours* is True): puzzles with as many clues as the best are
      changed by blanking one or two clue orbits and giving one other orbit any digits; a
      unique result with fewer clues is a new best (on another grid, usually), one with as
      many joins the puzzles to explore.

    The records kept in the result tell when each clue count was first reached.

    Args:
        target: Clues wanted (the search stops at or below it).
        symmetry: Symmetry of the clue pattern.
        fixed_open: Cells that stay clues.
        fixed_blank: Cells that stay blank.
        rng: Random source for the grids and orbit orders (a fresh one when None).
        deadline: ``time.perf_counter()`` value to stop at.
        cancel: Polled during the search; True stops it with the best so far.
        geometry: Grid shape.
        progress: Called with ``(fresh grids drawn, fewest clues so far)`` after each grid and
            each new best.
        max_grids: Stop before drawing more fresh grids than this.
        neighbours: Explore the neighbours of the best puzzles between fresh grids.

    Returns:
        The best puzzle found, its solution and the records.  Without a deadline, cancel hook
        or *max_grids* an unreachable target runs for ever.

    Raises:
        LowClueError: A fixed cell is outside the grid, or an orbit is both fixed open and
            fixed blank.

    >>> r = search_low(22, rng=random.Random(2), max_grids=5)
    >>> r.reached, r.clues <= 22, count_solutions(r.puzzle), r.stop
    (True, True, 1, 'reached')
    """
    fixed_open, fixed_blank = frozenset(fixed_open), frozenset(fixed_blank)
    _Space(geometry, symmetry, fixed_open, fixed_blank, random.Random(0))  # validate the cells
    run = _LowSearch(
        target,
        symmetry,
        fixed_open,
        fixed_blank,
        rng if rng is not None else random.Random(),
        _Clock(deadline, cancel),
        geometry,
        progress,
    )
    stop = "grids"
    try:
        while True:
            run.clock.poll()
            if neighbours and run.pool_turn():
                run.explore_turn()
            elif max_grids is None or run.grids < max_grids:
                run.fresh_grid(neighbours)
            else:
                break
            if run.best_clues <= target:
                stop = "reached"
                break
            if not neighbours:
                run.clear_pool()
    except _Stop:
        stop = "time" if deadline is not None and time.perf_counter() > deadline else "cancel"
    return run.result(stop)


# Neighbour search: this many checks of one pool puzzle per turn.
TURN_CHECKS = 400

# Share of the time the pool of neighbours gets while it has puzzles (fresh grids get the rest).
POOL_SHARE = 0.75

# Stages of neighbour moves (see _LowSearch.neighbours_of).
STAGES = 3

# Puzzles kept waiting in the pool at most.
POOL_LIMIT = 500

# Digit choices tried for one added orbit at most (larger orbits are skipped).
VALUE_LIMIT = 729


class _LowSearch:
    """The state of :func:`search_low`: best puzzle, records, and the pool of neighbours."""

    def __init__(
        self,
        target: int,
        symmetry: Symmetry,
        fixed_open: frozenset[int],
        fixed_blank: frozenset[int],
        rng: random.Random,
        clock: _Clock,
        geometry: Geometry,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        self.target = target
        self.symmetry = symmetry
        self.fixed_open = fixed_open
        self.fixed_blank = fixed_blank
        self.rng = rng
        self.clock = clock
        self.geometry = geometry
        self.progress = progress
        self.began = time.perf_counter()
        self.cpu_began = time.process_time()
        self.best: tuple[Grid, Grid] | None = None
        self.best_clues = geometry.cell_count + 1
        self.records: list[Record] = []
        self.grids = 0
        self.explored = 0
        # the orbit order of the neighbour search (any fixed order will do)
        self.space = _Space(geometry, symmetry, fixed_open, fixed_blank, random.Random(0))
        # pool entries (stage, number, cells); stage 0 of every puzzle comes before stage 1 ...
        self.pool: list[tuple[int, int, tuple[int, ...]]] = []
        self.moves: dict[int, Iterator[tuple[int, tuple[int, ...] | None]]] = {}
        self.numbered = 0
        self.seen: set[tuple[int, ...]] = set()
        self.fresh_seconds = 0.0
        self.pool_seconds = 0.0

    # ---- records -------------------------------------------------------------------------

    def record(self, puzzle: Grid, solution: Grid, source: str = "grid") -> None:
        """Keep *puzzle* as the new best and start the pool afresh from it."""
        clues = puzzle.given_count
        self.best = (puzzle, solution)
        self.best_clues = clues
        self.records.append(
            Record(
                clues,
                time.perf_counter() - self.began,
                self.grids,
                time.process_time() - self.cpu_began,
                source,
            )
        )
        if self.progress is not None:
            self.progress(self.grids, clues)
        self.clear_pool()
        self.add_to_pool(puzzle.cells)

    def add_to_pool(self, cells: tuple[int, ...]) -> None:
        if cells not in self.seen and len(self.pool) < POOL_LIMIT:
            self.seen.add(cells)
            self.numbered += 1
            heapq.heappush(self.pool, (0, self.numbered, cells))

    def clear_pool(self) -> None:
        self.pool.clear()
        self.moves.clear()

    def pool_turn(self) -> bool:
        """Return True when the next turn goes to the pool (it gets POOL_SHARE of the time)."""
        if not self.pool:
            return False
        return self.pool_seconds * (1 - POOL_SHARE) <= self.fresh_seconds * POOL_SHARE

    # ---- fresh grids ---------------------------------------------------------------------

    def fresh_grid(self, plateau: bool) -> None:
        """Search a new grid for fewer clues than the best; on failure, one as good for the pool."""
        began = time.perf_counter()
        try:
            self.fresh(plateau)
        finally:
            self.fresh_seconds += time.perf_counter() - began

    def fresh(self, plateau: bool) -> None:
        geometry = self.geometry
        solution = random_grid(self.rng, geometry)
        self.grids += 1
        space = _Space(geometry, self.symmetry, self.fixed_open, self.fixed_blank, self.rng)
        every = (1 << len(space.orbits)) - 1
        if other_solution(solution, space.cells(every & ~space.forbidden)) is None:
            search = _GridSearch(solution, space, self.clock)
            self.lower_on(search, solution, space)
            if plateau and self.best_clues > self.target and len(self.pool) < POOL_LIMIT:
                found = search.run(self.best_clues)
                if found is not None:
                    self.add_to_pool(kept(solution, space.cells(found)).cells)
        # else the fixed blank cells hold an unavoidable set of this grid
        if self.progress is not None and self.best is not None:
            self.progress(self.grids, self.best_clues)

    def lower_on(self, search: _GridSearch, solution: Grid, space: _Space) -> None:
        """Step the exhaustive search on one grid down while it finds fewer clues."""
        while self.best_clues > self.target:
            found = search.run(max(self.target, self.best_clues - 1))
            if found is None:
                return
            self.record(kept(solution, space.cells(found)), solution)

    # ---- neighbours ----------------------------------------------------------------------

    def explore_turn(self) -> None:
        """Run the first pool entry's moves for a turn; requeue it, or its next stage."""
        began = time.perf_counter()
        try:
            self.explore()
        finally:
            self.pool_seconds += time.perf_counter() - began

    def explore(self) -> None:
        stage, number, cells = self.pool[0]
        moves = self.moves.get(number)
        if moves is None:
            moves = self.moves[number] = self.neighbours_of(cells, stage)
            if stage == 0:
                self.explored += 1
        level = self.best_clues
        spent = 0
        for clues, found in moves:
            spent += 1
            if found is not None:
                if clues < level:
                    self.found_lower(found)
                    return
                self.add_to_pool(found)
            if spent >= TURN_CHECKS:
                return  # the entry stays first and goes on next turn
        del self.moves[number]
        heapq.heappop(self.pool)
        if stage + 1 < STAGES:
            heapq.heappush(self.pool, (stage + 1, number, cells))

    def found_lower(self, cells: tuple[int, ...]) -> None:
        """Record a neighbour with fewer clues, then search its grid for fewer still."""
        puzzle = Grid(cells, self.geometry)
        solution = solve(puzzle)
        if solution is None:  # pragma: no cover - the puzzle was counted unique
            raise AssertionError("a unique neighbour has no solution")
        self.record(puzzle, solution, "neighbour")
        if self.best_clues > self.target:
            space = _Space(
                self.geometry, self.symmetry, self.fixed_open, self.fixed_blank, self.rng
            )
            self.lower_on(_GridSearch(solution, space, self.clock), solution, space)

    def neighbours_of(
        self, cells: tuple[int, ...], stage: int
    ) -> Iterator[tuple[int, tuple[int, ...] | None]]:
        """Yield ``(clues, cells)`` for each unique neighbour, ``(0, None)`` for each other check.

        The moves of each stage: 0, blank one clue orbit and give a lighter one, or blank two
        (one of them light) and give one; 1, blank one and give one as heavy (as many clues:
        puzzles for the pool); 2, blank two heavy ones and give one.
        """
        space = self.space
        weight = space.weight
        geo = self.geometry
        clue_orbits = [
            i
            for i, orbit in enumerate(space.orbits)
            if cells[orbit[0]] and not space.forced >> i & 1
        ]
        open_orbits = [
            i
            for i, orbit in enumerate(space.orbits)
            if not cells[orbit[0]] and not space.forbidden >> i & 1
        ]
        heavy = max(weight)
        clues = sum(1 for d in cells if d)
        # (orbits blanked, their clues, whether the orbit given weighs the same)
        singles: list[tuple[tuple[int, ...], int, bool]] = [
            ((r,), weight[r], same) for same in (False, True) for r in clue_orbits
        ]
        doubles: list[tuple[tuple[int, ...], int, bool]] = [
            ((a, b), weight[a] + weight[b], False)
            for k, a in enumerate(clue_orbits)
            for b in clue_orbits[k + 1 :]
        ]
        doubles.sort(key=lambda item: item[1])
        if stage == 0:
            plan = [m for m in singles if not m[2]] + [m for m in doubles if m[1] < 2 * heavy]
        elif stage == 1:
            plan = [m for m in singles if m[2]]
        else:
            plan = [m for m in doubles if m[1] >= 2 * heavy]
        for removed, w_removed, same in plan:
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
            cands = singles_candidates(base, geo)
            if cands is None:  # pragma: no cover - base is part of a solvable puzzle
                continue
            for x in adds:
                orbit = space.orbits[x]
                choices = [digits_of(cands[c]) for c in orbit]
                if math.prod(len(options) for options in choices) > VALUE_LIMIT:
                    continue
                for digits in itertools.product(*choices):
                    trial = base[:]
                    for c, d in zip(orbit, digits, strict=True):
                        trial[c] = d
                    self.clock.tick()
                    if count_solutions_cells(trial, geo, 2) == 1:
                        yield clues - w_removed + weight[x], tuple(trial)
                    else:
                        yield 0, None

    # ---- result --------------------------------------------------------------------------

    def result(self, stop: str) -> LowClueResult:
        return _result(
            self.best,
            self.best_clues,
            self.target,
            self.grids,
            time.perf_counter() - self.began,
            stop,
            self.records,
            self.explored,
        )


def _result(
    best: tuple[Grid, Grid] | None,
    best_clues: int,
    target: int,
    grids: int,
    seconds: float,
    stop: str,
    records: list[Record],
    explored: int,
) -> LowClueResult:
    g = f"{grids} grid{'s' if grids != 1 else ''}"
    if best is None:
        message = f"No puzzle found in {g} ({seconds:.1f} s, stopped: {stop})"
        return LowClueResult(
            None, None, 0, target, False, grids, seconds, stop, (), message, explored
        )
    puzzle, solution = best
    if best_clues <= target:
        message = f"Reached {best_clues} clues (target {target}) in {g}, {seconds:.1f} s"
    else:
        message = f"Could not reach {target} clues in {g} ({seconds:.1f} s); best is {best_clues}"
    return LowClueResult(
        puzzle,
        solution,
        best_clues,
        target,
        best_clues <= target,
        grids,
        seconds,
        stop,
        tuple(records),
        message,
        explored,
    )


__all__ = [
    "LowClueError",
    "LowClueResult",
    "Record",
    "descend",
    "search_low",
]
