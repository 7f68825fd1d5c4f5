"""The low-clue search itself: fresh grids and neighbour moves, time-shared, in one process.

Two moves take turns (:mod:`.deep` runs them for the generator, :mod:`.workers` on other
processes; this module imports neither, so the data flows one way):

- *fresh grids* (a trial each): on a new random solution grid, the exhaustive hitting-set search
  (:class:`.low_givens.GridSearch`) asks for fewer opens than the best so far; a grid that gives a
  new best is kept and asked for fewer again on the next fresh turn (the pool explores the new
  best first), until it reaches the target or proves that the grid has nothing lower;
- *neighbours* (:mod:`.neighbours`): puzzles with as many opens as the best are changed by
  blanking one or two clue orbits and giving one orbit any digits; a unique result with fewer
  opens is a new best (the pool starts afresh from it, keeping the puzzles one open above it
  as its *reserve*), one with as many joins the puzzles to explore (the *pool*).  Every puzzle
  of the pool has a step of its moves (``STAGE_ORDER``) before any has the next, newest puzzle
  first: each puzzle the walk reaches has its cheap lowering moves tried at once, and the walk
  goes on from it (a walk over the puzzles as good as the best, far from the first of them).

The walk that found a new best does not end there: the puzzles of the pool one open above it
stay, as the *reserve*, and go on with their moves after the puzzles as good as the best at each
step (their equal neighbours join the reserve, their lowering ones the pool).  A best whose own
walk runs dry at once (few puzzles as good as it have any neighbour as good) is then followed
by other puzzles as good, reached from the walk one open above, instead of by fresh grids alone.

The pool gets ``POOL_SHARE`` of the work while it has puzzles, fresh grids the rest (work is
counted in clock ticks, :mod:`.clock`, not timed, so that a seeded run is reproducible).  Once
a neighbour move has given the best so far, the pool gets ``NEIGHBOUR_SHARE`` instead: the
puzzles near that best are then where lower ones are found, and a fresh grid rarely holds one
as low; while fresh grids give the records (patterns that fix many cells), they keep their
larger share.

A search can get *stuck*: the puzzles as good as the best all lie near the one found first, and
none of them has a lower neighbour.  After ``STUCK_TICKS`` without a new best, or once the pool
holds no puzzle as good as the best (the reserve aside), each fresh grid also gives the pool a
*spare*: a puzzle of the grid one or two opens above the best.  Only its lowering moves (the
head of stage 0, :mod:`.neighbours`) are tried (those that stay above the best are spares in
turn), and the puzzles as good as the best that they reach start the exploration again
somewhere else.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate.clock import WORK_TICKS, Clock, Stopped
from xlsudoku.engine.generate.low_givens import GridSearch, OrbitSpace, pad
from xlsudoku.engine.generate.neighbours import KINDS, neighbours
from xlsudoku.engine.generate.strategy import Plan, Stop
from xlsudoku.engine.generate.unavoidable import kept, mask_of, other_solution
from xlsudoku.engine.grid import CLASSIC, Cell, Geometry, Grid
from xlsudoku.engine.solver import solve
from xlsudoku.engine.symmetry import Symmetry

# Neighbour search: this many checks of one pool puzzle per turn.
TURN_CHECKS = 400

# Share of the work the pool of neighbours gets while it has puzzles (fresh grids get the
# rest).  The work of a turn is counted in clock ticks (search nodes, and the solver's steps
# weighed as :mod:`.clock` says) rather than timed, so that a seeded run does not depend on the
# machine's speed or load.
POOL_SHARE = 0.75

# The pool's share once the best so far came from a neighbour move.
NEIGHBOUR_SHARE = 0.9

# Puzzles kept waiting in the pool at most: the walk over puzzles as good as the best goes on
# for minutes, and a puzzle refused by a full pool never has its lowering moves tried.
POOL_LIMIT = 50_000

# The order in which every puzzle of the pool has the stages of its moves (:mod:`.neighbours`):
# the heads and tails of the lowering and equal moves (kinds 0 and 1) before the head of kind 2,
# which costs far more per puzzle.
STAGE_ORDER = (0, 1, KINDS, KINDS + 1, 2, KINDS + 2)

# Ticks without a new best after which a search is stuck and fresh grids give spares.
STUCK_TICKS = 30 * WORK_TICKS


@dataclass(frozen=True, slots=True)
class Found:
    """A puzzle with fewer opens than any before it in the run.

    Attributes:
        puzzle: The puzzle (unique, symmetric, fixed cells kept).
        solution: Its solution.
        seconds: Wall time since the search began.
        grids: Fresh grids drawn by then.
        source: ``grid`` (the exhaustive search of a grid) or ``neighbour`` (a neighbour move).
    """

    puzzle: Grid
    solution: Grid
    seconds: float
    grids: int
    source: str

    @property
    def givens(self) -> int:
        """Clues of the puzzle."""
        return self.puzzle.given_count


@dataclass(frozen=True, slots=True)
class Task:
    """What one search works on: picklable, so that another process can run it too.

    Attributes:
        target: Opens wanted (the search stops there).
        symmetry: Symmetry of the clues.
        fixed_given: Cells that stay clues (the pattern's open cells).
        fixed_blank: Cells that stay blank (the rest of the pattern's box).
        max_grids: Fresh grids allowed (the trials), or None.
        geometry: Shape of the grid.
    """

    target: int
    symmetry: Symmetry
    fixed_given: frozenset[Cell]
    fixed_blank: frozenset[Cell]
    max_grids: int | None = None
    geometry: Geometry = CLASSIC


class LowSearch:
    """Fresh grids and neighbour moves, time-shared, in one process.

    Args:
        task: What to search for.
        rng: Random source for grids and orbit orders.
        clock: Deadline and cancel hook (polled during the search).
        on_record: Called with each new best.
        on_grid: Called with ``(grids drawn, best opens)`` after each fresh grid.

    >>> task = Task(22, Symmetry.ROTATE_180, frozenset(), frozenset(), max_grids=20)
    >>> search = LowSearch(task, random.Random(2), Clock(None, None))
    >>> search.run(), search.best.givens
    ('reached', 22)
    """

    def __init__(
        self,
        task: Task,
        rng: random.Random,
        clock: Clock,
        on_record: Callable[[Found], None] | None = None,
        on_grid: Callable[[int, int], None] | None = None,
    ) -> None:
        self.task = task
        self.rng = rng
        self.clock = clock
        self.on_record = on_record
        self.on_grid = on_grid
        self.began = time.perf_counter()
        self.best: Found | None = None
        self.grids = 0
        self.explored = 0
        # the orbit order of the neighbour moves and of padding (any fixed order will do)
        self.space = self._space(random.Random(0))
        # pool entries (step, tier, number, cells): the step of every puzzle in STAGE_ORDER comes
        # before the next step of any; within a step the puzzles as good as the best (tier 0)
        # before the reserve (tier 1: those one open above it, kept from the walk before)
        self.pool: list[tuple[int, int, int, tuple[int, ...]]] = []
        self.moves: dict[int, Iterator[tuple[int, tuple[int, ...] | None]]] = {}
        self.numbered = 0
        self.seen: set[tuple[int, ...]] = set()
        self.fresh_work = 0
        self.pool_work = 0
        # pool numbers of the spares (stage 0 only), and the tick of the last record
        self.spares: set[int] = set()
        self.since = 0
        # a grid that gave the best so far, searched for fewer on the next fresh turn
        self.held: tuple[GridSearch, Grid, OrbitSpace] | None = None

    def _space(self, rng: random.Random) -> OrbitSpace:
        task = self.task
        return OrbitSpace(task.geometry, task.symmetry, task.fixed_given, task.fixed_blank, rng)

    @property
    def level(self) -> int:
        """Opens of the best puzzle so far (one more than the cells when there is none)."""
        return self.task.geometry.cell_count + 1 if self.best is None else self.best.givens

    def run(self) -> Stop:
        """Search until the target, the grids, the deadline or cancel; return why it stopped."""
        task = self.task
        try:
            while self.level > task.target:
                self.clock.poll()
                if self.pool_turn():
                    self._counted(self.explore, pool=True)
                elif self.held is not None or task.max_grids is None or self.grids < task.max_grids:
                    self._counted(self.fresh, pool=False)
                else:
                    return "trials"
        except Stopped:
            return "time" if self.clock.late() else "cancel"
        return "reached"

    def _counted(self, turn: Callable[[], None], pool: bool) -> None:
        before = self.clock.count
        try:
            turn()
        finally:
            spent = max(1, self.clock.count - before)  # a turn is never free
            if pool:
                self.pool_work += spent
            else:
                self.fresh_work += spent

    # ---- records -------------------------------------------------------------------------

    def record(self, puzzle: Grid, solution: Grid, source: str) -> None:
        """Keep *puzzle* as the new best and start the pool afresh from it."""
        self.best = Found(puzzle, solution, time.perf_counter() - self.began, self.grids, source)
        if self.on_record is not None:
            self.on_record(self.best)
        self.keep_reserve(puzzle.given_count)
        self.spares.clear()
        self.since = self.clock.count
        self.add_to_pool(puzzle.cells)

    def keep_reserve(self, givens: int) -> None:
        """Keep the walk's puzzles one open above a new best of *givens* as the reserve.

        The rest of the pool (the reserve before, the spares, puzzles further above) is dropped.
        A reserve puzzle keeps its step and the moves it is in the middle of.
        """
        reserve = [
            (step, 1, number, cells)
            for step, tier, number, cells in self.pool
            if tier == 0 and number not in self.spares and _given_count(cells) == givens + 1
        ]
        self.pool[:] = reserve
        heapq.heapify(self.pool)
        numbers = {number for _, _, number, _ in reserve}
        for number in [n for n in self.moves if n not in numbers]:
            del self.moves[number]

    def add_to_pool(self, cells: tuple[int, ...], spare: bool = False, tier: int = 0) -> bool:
        """Queue *cells* for its neighbour moves unless seen before or the pool is full.

        A *spare* gets its lowering moves (stage 0) only.  Returns whether it was queued.
        """
        if cells in self.seen or len(self.pool) >= POOL_LIMIT:
            return False
        self.seen.add(cells)
        self.numbered += 1
        # newest first within a step: the walk goes on from the puzzles it just reached and
        # gets farther from the first best than oldest first would
        number = -self.numbered
        heapq.heappush(self.pool, (0, tier, number, cells))
        if spare:
            self.spares.add(number)
        return True

    @property
    def stuck(self) -> bool:
        """True after ``STUCK_TICKS`` without a new best, or with no puzzle as good in the pool."""
        if self.best is None:
            return False
        if self.clock.count - self.since >= STUCK_TICKS:
            return True
        return not any(tier == 0 for _, tier, _, _ in self.pool)

    def pool_turn(self) -> bool:
        """Return True when the next turn goes to the pool (see the module notes for its share)."""
        if not self.pool:
            return False
        best = self.best
        share = NEIGHBOUR_SHARE if best is not None and best.source == "neighbour" else POOL_SHARE
        return self.pool_work * (1 - share) <= self.fresh_work * share

    # ---- fresh grids ---------------------------------------------------------------------

    def fresh(self) -> None:
        """Search a grid for fewer opens than the best; on failure, one as good for the pool.

        A grid that gave a new best is kept and searched for fewer again on the next fresh
        turn (so the pool first explores the new best), a new grid drawn only when it has none.
        """
        task = self.task
        if self.held is not None:
            search, solution, space = self.held
            self.held = None
        else:
            solution = random_grid(self.rng, task.geometry)
            self.grids += 1
            space = self._space(self.rng)
            every = (1 << len(space.orbits)) - 1
            # else the fixed blank cells hold an unavoidable set of this grid: nothing to search
            if other_solution(solution, space.cells(every & ~space.forbidden)) is not None:
                if self.on_grid is not None:
                    self.on_grid(self.grids, self.level)
                return
            search = GridSearch(solution, space, self.clock)
        if self.lower_on(search, solution, space):
            self.held = (search, solution, space)
            return
        if self.level > task.target and len(self.pool) < POOL_LIMIT:
            found = search.run(self.level, task.target)
            if found is not None:
                self.add_to_pool(kept(solution, space.cells(found)).cells)
            elif self.stuck:
                found = search.run(self.level + 2, self.level + 1)
                if found is not None:
                    self.add_to_pool(kept(solution, space.cells(found)).cells, spare=True)
        if self.on_grid is not None:
            self.on_grid(self.grids, self.level)

    def lower_on(self, search: GridSearch, solution: Grid, space: OrbitSpace) -> bool:
        """Ask the exhaustive search on one grid for fewer opens; return whether it found them."""
        target = self.task.target
        if self.level <= target:
            return False
        found = search.run(max(target, self.level - 1), target)
        if found is None:
            return False
        self.record(kept(solution, space.cells(found)), solution, "grid")
        return True

    # ---- neighbours ----------------------------------------------------------------------

    def explore(self) -> None:
        """Run the first pool entry's moves for a turn; requeue it, or its next stage."""
        step, tier, number, cells = self.pool[0]
        stage = STAGE_ORDER[step]
        moves = self.moves.get(number)
        if moves is None:
            moves = neighbours(self.space, cells, stage, self.clock, self.task.geometry)
            self.moves[number] = moves
            if stage == 0:
                self.explored += 1
        level = self.level
        spare = number in self.spares
        above = _given_count(cells) if spare or tier else 0
        spent = 0
        for givens, found in moves:
            spent += 1
            if found is not None:
                if givens < level:
                    self.found_lower(found)
                    return
                if givens == level:
                    self.add_to_pool(found)
                elif tier and givens == above:
                    self.add_to_pool(found, tier=1)  # the reserve's walk goes on
                elif spare and givens < above:
                    self.add_to_pool(found, spare=True)  # a spare lower, still above the best
            if spent >= TURN_CHECKS:
                return  # the entry stays first and goes on next turn
        del self.moves[number]
        heapq.heappop(self.pool)
        if step + 1 < len(STAGE_ORDER) and number not in self.spares:
            heapq.heappush(self.pool, (step + 1, tier, number, cells))
        self.spares.discard(number)

    def found_lower(self, cells: tuple[int, ...]) -> None:
        """Record a neighbour with fewer opens; its own neighbours come next.

        Its grid is not searched exhaustively: at the opens neighbours reach, the grid of a new
        best has hardly ever held a puzzle with fewer, and proving that costs the pool many
        checks.
        """
        task = self.task
        puzzle = Grid(cells, task.geometry)
        solution = solve(puzzle)
        if solution is None:  # pragma: no cover - the puzzle was counted unique
            raise AssertionError("a unique neighbour has no solution")
        if puzzle.given_count < task.target:
            # below the target: give orbits back to make it exactly, if the orbit sizes allow
            space = self.space
            padded = pad(space, space.to_orbits(mask_of(puzzle.givens())), task.target)
            if padded is None:
                return
            puzzle = kept(solution, space.cells(padded))
        self.record(puzzle, solution, "neighbour")


def _given_count(cells: tuple[int, ...]) -> int:
    return sum(1 for d in cells if d)


@dataclass(frozen=True, slots=True)
class Summary:
    """What the search (in one process or several) gives the strategy.

    Attributes:
        best: The best puzzle found, or None when no grid got that far.
        stop: Why it ended.
        grids: Fresh grids drawn in all.
        explored: Puzzles whose neighbours were explored in all.
        workers: Processes that searched.
        errors: What went wrong in other processes (their searches were lost; this one's
            was not).
    """

    best: Found | None
    stop: Stop
    grids: int
    explored: int
    workers: int = 1
    errors: tuple[str, ...] = ()


def search_here(plan: Plan, task: Task, clock: Clock) -> Summary:
    """Run the search in this process on *clock*, reporting each new best to the plan's progress."""
    progress = plan.progress

    def on_grid(grids: int, givens: int) -> None:
        if progress is not None and givens <= task.geometry.cell_count:
            progress(grids, givens)

    search = LowSearch(
        task,
        plan.rng,
        clock,
        on_record=lambda found: on_grid(found.grids, found.givens),
        on_grid=on_grid,
    )
    stop = search.run()
    return Summary(search.best, stop, search.grids, search.explored)
