"""Generation to a target difficulty: a level, or a technique the puzzle must need.

The puzzle is made directly, not by filtering a batch:

1. Fill a random grid and blank the pattern's blank cells (a pattern fixes the center box).
2. Blank the free orbits of the symmetry in a random order, keeping an orbit blanked only when
   the puzzle stays unique *and* the solver limited to the target (the techniques up to the
   target level, or the table up to the needed technique) still solves it.
3. Once at or below the requested opens, look one step ahead: grade the puzzles that blanking
   each of several removable orbits would give and stop at one whose level is the target (for a
   needed technique: whose solve path uses it); else blank the first removable orbit and go on.
   Puzzles an easier level solves are thus never returned as a success; when the descent runs
   out of orbits still too easy, the attempt is rejected and another order (or a new grid) is
   tried.
4. Attempts are bounded by the request's trials and time limit (``DEFAULT_SECONDS`` when it has
   none); when the target is not met the closest puzzle is returned and the message says so.

The difficulty is the goal and the opens a floor that is left only when needed: a hard level is
rarely reached at a high clue count, so the descent goes on below the requested opens until the
level is met (the message then names both numbers).  ``GenerateResult.reached`` is True when the
difficulty target was met.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate.request import KNOWN_FLOOR
from xlsudoku.engine.generate.strategy import Outcome, Plan, Stop, plural
from xlsudoku.engine.grading import Grade, grade_path
from xlsudoku.engine.grid import Cell, Grid
from xlsudoku.engine.logic import limit_table, solve_path
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import TECHNIQUES, TechniqueSpec

# Seconds allowed when the request has no time limit.
DEFAULT_SECONDS = 30.0
# Attempts on one solution grid before a new grid is filled.
ATTEMPTS_PER_GRID = 3
# Once the difficulty is met above the requested opens (an easy level often cannot go lower),
# at most this many more attempts look for a puzzle closer to the opens.
ATTEMPTS_FOR_OPENS = 10
# At or below the requested opens, a step grades up to this many removable orbits and takes
# one that meets the goal (a one-step look-ahead towards the target).
LOOKAHEAD = 12


@dataclass(frozen=True, slots=True)
class _Goal:
    """What an attempt aims at: the solver table it may use and the test of success."""

    table: tuple[TechniqueSpec, ...]
    level: Level | None
    needs: Technique | None

    def met(self, g: Grade) -> bool:
        if self.needs is not None:
            return any(t is self.needs for t, _ in g.counts)
        return g.level == self.level

    def distance(self, g: Grade) -> int:
        """How far *g* is from the goal (0 = met); lower is closer.

        A puzzle that does not use the needed technique is as far as its level is from the
        technique's level, plus one.
        """
        if self.needs is not None:
            if self.met(g):
                return 0
            wanted = max(spec.level for spec in self.table if spec.technique is self.needs)
            return 1 + abs(int(g.level) - int(wanted))
        assert self.level is not None
        return abs(int(g.level) - int(self.level))

    @property
    def name(self) -> str:
        if self.needs is not None:
            return f"a puzzle needing {self.needs.value}"
        assert self.level is not None
        label = self.level.label
        return f"{'an' if label[0] in 'AEIOU' else 'a'} {label} puzzle"


def goal_table(
    level: Level | None, needs: Technique | None, table: tuple[TechniqueSpec, ...] = TECHNIQUES
) -> tuple[TechniqueSpec, ...]:
    """Return the techniques the limited solver may use for a level or a needed technique.

    For a technique: every technique of its level or below, so the puzzle needs nothing
    harder than the technique's level.

    >>> [s.technique.value for s in goal_table(None, Technique.POINTING)][-2:]
    ['Pointing', 'Claiming']
    >>> len(goal_table(Level.BEYOND, None)) == len(TECHNIQUES)
    True
    """
    if needs is not None:
        levels = [spec.level for spec in table if spec.technique is needs]
        if not levels:
            raise ValueError(f"needs: {needs.value} has no finder in the technique table")
        return limit_table(table, max(levels))
    return limit_table(table, level)


@dataclass(slots=True)
class _Candidate:
    puzzle: Grid
    solution: Grid
    grade: Grade
    distance: int


def _attempt(
    solution: Grid,
    fixed_blank: frozenset[Cell],
    free: tuple[tuple[Cell, ...], ...],
    goal: _Goal,
    target_opens: int,
    rng: random.Random,
    deadline: float,
    cancel: Callable[[], bool] | None,
) -> _Candidate:
    """Run one descent on *solution*; return the puzzle it ends with and its grade.

    Above the requested opens the first removable orbit (in random order) is blanked.  At or
    below them, each step looks ahead: up to ``LOOKAHEAD`` removable orbits are graded and one
    that meets the goal ends the attempt; otherwise the first removable one is blanked.  An
    orbit that cannot be blanked now never can later (fewer clues only lose solvability and
    uniqueness), so it is dropped.
    """
    geo = solution.geometry
    cells = [0 if c in fixed_blank else d for c, d in enumerate(solution.cells)]
    floor = KNOWN_FLOOR.get(geo.name, geo.size - 1)
    pending = list(free)
    rng.shuffle(pending)
    opens = sum(1 for d in cells if d)
    puzzle = Grid(tuple(cells), geo)
    current: Grade | None = None
    full_table = len(goal.table) == len(TECHNIQUES)
    while pending:
        chosen: tuple[int, Grid, Grade | None] | None = None
        graded = 0
        dropped: list[int] = []
        for index, orbit in enumerate(pending):
            if time.perf_counter() > deadline or (cancel is not None and cancel()):
                pending = []
                break
            if opens - len(orbit) < floor:
                dropped.append(index)
                continue
            trial = list(puzzle.cells)
            for c in orbit:
                trial[c] = 0
            candidate = Grid(tuple(trial), geo)
            if count_solutions(candidate, 2) != 1:
                dropped.append(index)
                continue
            limited = solve_path(candidate, goal.table, max_level=_cap(goal))
            if not limited.solved:
                dropped.append(index)
                continue
            if opens - len(orbit) > target_opens:
                chosen = (index, candidate, None)
                break
            # the limited path is the full one when the goal allows every technique
            g = grade_path(limited if full_table else solve_path(candidate))
            graded += 1
            if goal.met(g):
                chosen = (index, candidate, g)
                break
            if chosen is None:
                chosen = (index, candidate, g)
            if graded >= LOOKAHEAD:
                break
        if chosen is None:
            break
        index, puzzle, current = chosen
        opens = puzzle.given_count
        for i in sorted({*dropped, index}, reverse=True):
            del pending[i]
        if current is not None and goal.met(current):
            break
    if current is None:
        current = grade_path(solve_path(puzzle))
    return _Candidate(puzzle, solution, current, goal.distance(current))


def _cap(goal: _Goal) -> Level | None:
    """Return *max_level* for the limited solver: None allows trial and error (BEYOND only)."""
    if goal.level is Level.BEYOND:
        return None
    return Level.DIABOLICAL


def run(plan: Plan) -> Outcome:
    """Make a puzzle of the request's difficulty (or needing its technique); see the module notes.

    ``reached`` is True when the difficulty (or technique) target was met; otherwise the
    closest puzzle comes back and the message says so.

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(difficulty=Level.MEDIUM, seed=3))
    >>> r.reached, r.message.startswith("Made a Medium puzzle")
    (True, True)
    """
    request, rng = plan.request, plan.rng
    deadline = plan.deadline
    assert deadline is not None  # the strategy has a default time limit
    goal = _Goal(goal_table(request.difficulty, request.needs), request.difficulty, request.needs)
    fixed_blank, free = plan.form.fixed_blank, plan.form.free
    best: _Candidate | None = None
    attempts = grids = met_at = 0
    solution = Grid.empty(request.geometry)
    stop: Stop = "trials"
    while attempts < request.trials:
        if attempts and plan.cancelled():
            stop = "reached" if best is not None and best.distance == 0 else "cancel"
            break
        if attempts % ATTEMPTS_PER_GRID == 0:
            solution = random_grid(rng, request.geometry)
            grids += 1
        attempts += 1
        found = _attempt(
            solution, fixed_blank, free, goal, request.opens, rng, deadline, plan.cancel
        )
        if best is None or (found.distance, abs(found.puzzle.given_count - request.opens)) < (
            best.distance,
            abs(best.puzzle.given_count - request.opens),
        ):
            best = found
        if plan.progress is not None:
            plan.progress(attempts, best.puzzle.given_count)
        if best.distance == 0:
            stop = "reached"
            met_at = met_at or attempts
            if best.puzzle.given_count <= request.opens or attempts - met_at >= ATTEMPTS_FOR_OPENS:
                break
        if plan.late():
            stop = "reached" if best.distance == 0 else "time"
            break
    assert best is not None
    opens = best.puzzle.given_count
    hardest = best.grade.hardest.value if best.grade.hardest else "none"
    got = f"{best.grade.level.label}, hardest {hardest}"
    tries = plural(attempts, "attempt")
    if stop == "reached":
        message = (
            f"Made {goal.name} with {opens} opens (target {request.opens}) in {tries} "
            f"({plan.elapsed():.2f} s)"
        )
    elif stop == "cancel":
        message = f"Cancelled after {tries}; closest: {got}, {opens} opens"
    elif stop == "time":
        message = (
            f"Could not make {goal.name} in {plan.limit:g} s ({tries}); closest: {got}, "
            f"{opens} opens"
        )
    else:
        message = f"Could not make {goal.name} in {tries}; closest: {got}, {opens} opens"
    return Outcome(best.puzzle, best.solution, stop, attempts, grids, message)
