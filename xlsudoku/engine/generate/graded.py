"""Generation to a target difficulty: a level, or a technique the puzzle must need, at the opens.

A graded request has two targets, and it is *reached* only when both are met: exactly the
requested number of opens, and the level (or the needed technique).

Attempts come in threes on one solution grid (``ATTEMPTS_PER_GRID``):

1. **Reach the opens** (first attempt): the plain strategy for those opens (the descent with
   solution reuse, :mod:`.descent`, or for a deep 9x9 target the low-clue search,
   :mod:`.deep`) makes a unique puzzle with exactly the opens, on fresh grids.
2. **Descend within the goal** (the next two, on the same grid): blank orbits in a new random
   order, keeping one blanked only when the puzzle stays unique and the solver up to the goal
   (:meth:`Goal.not_too_hard`) still finishes it, down to the opens.
3. **Climb at the opens** (every attempt that is at the opens): while the goal is not met, try
   *swaps* on the same grid, putting one blank orbit back and blanking a clue orbit of the same
   size, so the opens never change; keep a unique result no farther from the goal
   (:meth:`Goal.distance`; sideways moves cross plateaus).  At most ``CLIMB_STEPS`` puzzles
   are graded per attempt, so the time is shared between fresh grids, guided descents and
   climbs.

Out of trials or time (``DEFAULT_SECONDS`` when the request has none), or when cancelled, the
closest puzzle comes back: the one nearest the goal, then nearest the opens, and the message
says what was missed (the level or technique, the opens, or both).

A puzzle has a level when its score under the request's rating profile falls in the level's
band (:func:`xlsudoku.engine.ratings.level_of`), and *needs* a technique when the profile's
path takes a step of it: the goal judges a puzzle by its analysis
(:func:`xlsudoku.engine.analysis.analyze`), and the result carries the analysis of the puzzle
kept, so nothing analyses it again.  A cheap bound comes first for a level up to Very hard: a
puzzle that the profile's techniques below the next band (a chain-free head of its table)
cannot finish is too hard and is not rated, and the path of one they finish is its rating path.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass

from xlsudoku.engine.analysis import Analysis, analyze
from xlsudoku.engine.generate import deep, descent
from xlsudoku.engine.generate.clock import Stopped
from xlsudoku.engine.generate.oracle import Oracle
from xlsudoku.engine.generate.request import Form
from xlsudoku.engine.generate.strategy import Outcome, Plan, Stop, plural
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.logic import solve_path
from xlsudoku.engine.ratings import DEFAULT_PROFILE, band_of, profile_table, row_technique
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import TECHNIQUES, TechniqueSpec

# Seconds allowed when the request has no time limit.
DEFAULT_SECONDS = 30.0
# Attempts (each a descent and its climb) per solution grid: the first reaches the opens with
# the plain strategy on fresh grids, the others descend again on its grid.
ATTEMPTS_PER_GRID = 3
# Trials the plain strategy gets to reach the opens in the first attempt of a grid.
REACH_TRIALS = 30
# Puzzles graded by the climb of one attempt at most.
CLIMB_STEPS = 40
# Swaps drawn by one climb at most (many leave two solutions and are not graded).
SWAP_DRAWS = 20 * CLIMB_STEPS
# Ticks of the run's clock one grading counts (measured: a few milliseconds of CPU on 9x9).
GRADE_TICKS = 300

# How far a puzzle is from the goal: MET, else lower is closer.
Distance = tuple[int, float]
MET: Distance = (0, 0.0)


def needs_tables(
    technique: Technique, table: tuple[TechniqueSpec, ...] = TECHNIQUES
) -> tuple[tuple[TechniqueSpec, ...], tuple[TechniqueSpec, ...]]:
    """Return the solver tables that tell whether a puzzle needs *technique*: without, through.

    *through* is the solve order up to the technique's last row; *without* is the same without
    the technique.  A puzzle needs the technique when *through* finishes it and *without*
    stalls.

    >>> without, through = needs_tables(Technique.X_WING)
    >>> through[-1].technique.value, [s for s in through if s not in without][0].technique.value
    ('X-Wing', 'X-Wing')
    >>> needs_tables(Technique.TRIAL_AND_ERROR)
    Traceback (most recent call last):
    ...
    ValueError: needs: Trial and Error has no finder in the technique table
    """
    row = row_technique(technique)
    rows = [i for i, spec in enumerate(table) if spec.technique is row]
    if not rows:
        raise ValueError(f"needs: {technique.value} has no finder in the technique table")
    through = table[: rows[-1] + 1]
    return tuple(spec for spec in through if spec.technique is not row), through


@dataclass(frozen=True, slots=True)
class Goal:
    """A level to reach or a technique to need, judged by the puzzle's analysis.

    A level is the band of the puzzle's score under the rating profile
    (:func:`xlsudoku.engine.ratings.level_of`); a puzzle needs a technique when the profile's
    path takes a step of it (:meth:`xlsudoku.engine.analysis.Analysis.uses`).

    Attributes:
        level: The wanted level, or None.
        needs: The technique the puzzle must need, or None.
        profile: The rating profile (``se``, ``sukaku``).
    """

    level: Level | None
    needs: Technique | None
    profile: str = DEFAULT_PROFILE

    def judge(self, puzzle: Grid, solution: Grid) -> tuple[Distance, Analysis | None]:
        """Return how far *puzzle* (unique, of *solution*) is from the goal, and its analysis.

        ``MET`` when it meets the goal.  Level: the levels between, then how far the score is
        from the level's band.  Technique: ``(1, gap)``, *gap* from the score to the
        technique's.  A puzzle that the profile's techniques below the level's band cannot
        finish is too hard: ``(1, cells left)``, and no analysis (the cheap bound saves the
        rating of a puzzle that cannot be kept).

        >>> from xlsudoku.engine.fill import random_grid
        >>> from xlsudoku.engine.solver import solve
        >>> p = descent.minimal_puzzle(random_grid(random.Random(4)), random.Random(4))
        >>> distance, analysis = Goal(Level.EASY, None).judge(p, solve(p))
        >>> (distance == MET) == (analysis is not None and analysis.level is Level.EASY)
        True
        """
        if self.needs is None:
            assert self.level is not None
            low, high = band_of(self.level, self.profile)
            below = _bound_table(profile_table(self.profile), high)
            path = None
            if below is not None:
                path = solve_path(puzzle, below, max_level=Level.DIABOLICAL)
                if not path.solved:
                    return (1, float(sum(1 for d in path.board.values if not d))), None
            # a path that finished with a chain-free head of the table is the rating path
            analysis = analyze(puzzle, self.profile, solution=solution, path=path)
            graded = analysis.graded()
            gap = abs(int(graded.level) - int(self.level))
            if gap == 0:
                return MET, analysis
            off = low - graded.score if graded.level < self.level else graded.score - (high or 0)
            return (gap, round(max(off, 0.0), 1)), analysis
        analysis = analyze(puzzle, self.profile, solution=solution)
        if analysis.uses(self.needs):
            return MET, analysis
        row = row_technique(self.needs)
        top = max(s.score for s in profile_table(self.profile) if s.technique is row)
        return (1, round(abs(top - analysis.graded().score), 1)), analysis

    def distance(self, puzzle: Grid) -> Distance:
        """Return how far *puzzle* (unique) is from the goal (see :meth:`judge`).

        >>> Goal(Level.EASY, None).distance(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        (0, 0.0)
        """
        solution = solve(puzzle)
        assert solution is not None
        return self.judge(puzzle, solution)[0]

    def met(self, puzzle: Grid) -> bool:
        """Return True when *puzzle* meets the goal."""
        return self.distance(puzzle)[0] == 0

    def not_too_hard(self, puzzle: Grid) -> bool:
        """Return True when the profile's techniques up to the goal finish *puzzle*.

        For a level: the techniques scored below the next level's band (everything for
        Beyond); for a technique: the profile's solve order up to it.

        >>> Goal(Level.EASY, None).not_too_hard(Grid.parse("12345678." + "." * 72))
        False
        """
        table = profile_table(self.profile)
        if self.needs is not None:
            through = needs_tables(self.needs, table)[1]
            return solve_path(puzzle, through, max_level=Level.DIABOLICAL).solved
        assert self.level is not None
        high = band_of(self.level, self.profile)[1]
        if high is None:
            return True
        below = tuple(s for s in table if s.score < high)
        return solve_path(puzzle, below, max_level=Level.DIABOLICAL).solved

    @property
    def name(self) -> str:
        """Return the goal for a sentence: ``a Hard puzzle``, ``a puzzle needing X-Wing``."""
        if self.needs is not None:
            return f"a puzzle needing {self.needs.value}"
        assert self.level is not None
        label = self.level.label
        return f"{'an' if label[0] in 'AEIOU' else 'a'} {label} puzzle"

    @property
    def what(self) -> str:
        """Return what the goal is about, for "missed the ...": ``level`` or ``technique``."""
        return "level" if self.needs is None else "technique"


@dataclass(slots=True)
class _Candidate:
    """A puzzle of an attempt and its distances to the two targets."""

    puzzle: Grid
    solution: Grid
    distance: Distance
    analysis: Analysis | None = None

    def key(self, target: int) -> tuple[Distance, int]:
        """Order candidates: nearest the goal, then nearest the opens."""
        return self.distance, abs(self.puzzle.given_count - target)


@dataclass(frozen=True, slots=True)
class _Orbits:
    """The free orbits of a puzzle that are clues and that are blank, and its blank cells."""

    given_orbits: list[tuple[int, ...]]
    blanks: list[tuple[int, ...]]
    blank: frozenset[int]

    @classmethod
    def of(cls, puzzle: Grid, form: Form) -> _Orbits:
        """Return the orbits of *puzzle* under *form*."""
        cells = puzzle.cells
        given_orbits = [o for o in form.free if cells[o[0]]]
        blanks = [o for o in form.free if not cells[o[0]]]
        return cls(given_orbits, blanks, frozenset(c for c, d in enumerate(cells) if not d))


def _swap(oracle: Oracle, orbits: _Orbits, rng: random.Random) -> Grid | None:
    """Return the puzzle of *orbits* with a blank orbit put back and a clue orbit blanked.

    The clue orbit has the size of the one put back.  None when the pair drawn would leave
    two solutions (or there is no pair to draw).
    """
    given_orbits, blanks = orbits.given_orbits, orbits.blanks
    if not given_orbits or not blanks:
        return None
    back = rng.choice(blanks)
    out = [o for o in given_orbits if len(o) == len(back)]
    if not out:
        return None
    orbit = rng.choice(out)
    oracle.reset(orbits.blank.difference(back))
    if not oracle.try_remove(orbit):
        return None
    return oracle.puzzle()


def _descend(
    oracle: Oracle, plan: Plan, keep: Callable[[Grid], bool], stop: Callable[[], bool]
) -> None:
    """Blank free orbits in random order while unique and *keep* holds, down to the opens.

    An orbit is blanked only when the puzzle stays within the goal's techniques (one refused
    now would be refused later too: fewer clues only make a puzzle harder), so the descent
    ends at the opens near the goal, or above them.
    """
    oracle.reset(plan.form.fixed_blank)
    order = list(plan.form.free)
    plan.rng.shuffle(order)
    target = plan.request.target_givens
    for orbit in order:
        givens = oracle.givens
        if givens == target or stop():
            return
        if givens - len(orbit) < target or not oracle.can_remove(orbit):
            continue
        cells = list(oracle.cells)
        for c in orbit:
            cells[c] = 0
        plan.clock.tick(GRADE_TICKS)
        if keep(Grid(tuple(cells), oracle.geometry)):
            oracle.try_remove(orbit)


def _climb(
    plan: Plan, oracle: Oracle, start: _Candidate, goal: Goal, stop: Callable[[], bool]
) -> _Candidate:
    """Move *start* by swaps, keeping moves no farther from the goal, for ``CLIMB_STEPS``."""
    current = start
    orbits = _Orbits.of(start.puzzle, plan.form)
    seen = {start.puzzle}
    graded = draws = 0
    while current.distance[0] and graded < CLIMB_STEPS and draws < SWAP_DRAWS:
        if stop():
            break
        draws += 1
        moved = _swap(oracle, orbits, plan.rng)
        if moved is None or moved in seen:
            continue
        seen.add(moved)
        graded += 1
        plan.clock.tick(GRADE_TICKS)
        distance, analysis = goal.judge(moved, current.solution)
        if distance <= current.distance:
            current = _Candidate(moved, current.solution, distance, analysis)
            orbits = _Orbits.of(moved, plan.form)
    return current


def _reach(plan: Plan) -> Outcome:
    """Make a unique puzzle with the request's opens: the plain strategy for those opens.

    The descent with solution reuse (:mod:`.descent`), or for a deep 9x9 target the low-clue
    search (:mod:`.deep`), for at most ``REACH_TRIALS`` trials within the run's time.
    """
    request = dataclasses.replace(plan.request, trials=REACH_TRIALS, difficulty=None, needs=None)
    reach = deep.run if deep.is_deep(request) else descent.run
    return reach(dataclasses.replace(plan, request=request, progress=None))


def run(plan: Plan) -> Outcome:
    """Make a puzzle of the request's level (or needing its technique) at its opens.

    ``reached`` is True when both targets were met; otherwise the closest puzzle comes back and
    the message says what was missed (see the module notes).

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(difficulty=Level.MEDIUM, seed=3))
    >>> r.reached, r.givens, r.message.startswith("Made a Medium puzzle with 26 opens")
    (True, 26, True)
    """
    request = plan.request
    target = request.target_givens
    goal = Goal(request.difficulty, request.needs, request.profile)

    def stop() -> bool:
        return plan.late() or plan.cancelled()

    best: _Candidate | None = None
    attempts = grids = 0
    oracle: Oracle | None = None
    reached: Outcome | None = None
    while attempts < request.trials:
        if attempts and stop():
            break
        attempts += 1
        try:
            if oracle is None or attempts % ATTEMPTS_PER_GRID == 1:
                # reach the opens on fresh grids (the plain strategy's own solution reuse)
                reached = _reach(plan)
                grids += reached.grids
                oracle = Oracle(reached.solution, clock=plan.clock)
                plan.clock.tick(GRADE_TICKS)
                found = _judged(goal, reached.puzzle, reached.solution)
            else:
                # time-shared: the next descents reuse the grid and stay within the goal's
                # techniques, so they end near the goal (at the opens, or above when stuck)
                _descend(oracle, plan, goal.not_too_hard, stop)
                puzzle = oracle.puzzle()
                plan.clock.tick(GRADE_TICKS)
                found = _judged(goal, puzzle, oracle.solution)
            if found.puzzle.given_count == target:
                found = _climb(plan, oracle, found, goal, stop)
        except Stopped:
            # the limit or cancel inside a search: this attempt's puzzle is lost, unless it
            # is the only one (one more grading, past the limit)
            if best is None and reached is not None:
                best = _judged(goal, reached.puzzle, reached.solution)
            break
        if best is None or found.key(target) < best.key(target):
            best = found
        if plan.progress is not None:
            plan.progress(attempts, best.puzzle.given_count)
        if best.key(target) == (MET, 0):
            break
    assert best is not None
    # the goal's own analysis of the puzzle it keeps (a too-hard one was bounded, not rated)
    analysis = best.analysis or analyze(best.puzzle, request.profile, solution=best.solution)
    return Outcome(
        best.puzzle,
        best.solution,
        _stop(plan, best, target, attempts),
        attempts,
        grids,
        _message(plan, goal, best, attempts),
        analysis=analysis,
        missed=_missed(goal, best, target),
    )


def _bound_table(
    table: tuple[TechniqueSpec, ...], high: float | None
) -> tuple[TechniqueSpec, ...] | None:
    """Return the head of *table* scored below *high*, when its path is the rating path.

    That is when the rows below *high* come first in the table and none of them searches
    within a rating (a chain row): the rating path of a puzzle they finish takes the same
    steps.  None otherwise (the bound would cost more than the rating).

    >>> from xlsudoku.engine.ratings import SE_TABLE
    >>> len(_bound_table(SE_TABLE, 2.9)), _bound_table(SE_TABLE, 9.0)
    (8, None)
    """
    if high is None:
        return None
    head = tuple(spec for spec in table if spec.score < high)
    if head != table[: len(head)] or any(s.find_within or s.early for s in head):
        return None
    return head


def _judged(goal: Goal, puzzle: Grid, solution: Grid) -> _Candidate:
    distance, analysis = goal.judge(puzzle, solution)
    return _Candidate(puzzle, solution, distance, analysis)


def _missed(goal: Goal, best: _Candidate, target: int) -> tuple[str, ...]:
    """Return what the kept puzzle missed: ``level`` or ``technique``, and ``opens``."""
    missed = [goal.what] if best.distance[0] else []
    if best.puzzle.given_count != target:
        missed.append("opens")
    return tuple(missed)


def _stop(plan: Plan, best: _Candidate, target: int, attempts: int) -> Stop:
    if best.key(target) == (MET, 0):
        return "reached"
    if plan.cancelled():
        return "cancel"
    if attempts < plan.request.trials:
        return "time"
    return "trials"


def _limit_text(plan: Plan) -> str:
    return "no limit" if plan.limit is None else plan.limit.text()


def _message(plan: Plan, goal: Goal, best: _Candidate, attempts: int) -> str:
    """Return the sentence: made, or what was missed and the closest puzzle."""
    target = plan.request.target_givens
    givens = best.puzzle.given_count
    tries = plural(attempts, "attempt")
    if best.key(target) == (MET, 0):
        return f"Made {goal.name} with {givens} opens in {tries} ({plan.elapsed():.2f} s)"
    missed = list(_missed(goal, best, target))
    # the closest puzzle's level and hardest step are its analysis's, shown beside this message
    closest = f"closest: {givens} opens"
    why = f"missed the {' and the '.join(missed)}"
    if plan.cancelled():
        return f"Cancelled after {tries}; {closest} ({why})"
    if attempts < plan.request.trials:
        return (
            f"Could not make {goal.name} with {target} opens in {_limit_text(plan)} ({tries}); "
            f"{closest} ({why})"
        )
    return f"Could not make {goal.name} with {target} opens in {tries}; {closest} ({why})"
