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

A puzzle *needs* a technique when the human-style solver, taking the techniques in solve order
up to that technique, finishes it, but without the technique stalls: the technique is then the
hardest step of the graded path (see :func:`needs_tables`).  Everything is judged through the
public solver and grader (:func:`~xlsudoku.engine.logic.solve_path`,
:func:`~xlsudoku.engine.grading.grade_path`, the ``TECHNIQUES`` registry).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass

from xlsudoku.engine.generate import deep, descent
from xlsudoku.engine.generate.clock import Stopped
from xlsudoku.engine.generate.oracle import Oracle
from xlsudoku.engine.generate.request import Form
from xlsudoku.engine.generate.strategy import Outcome, Plan, Stop, plural
from xlsudoku.engine.grading import grade_path, rating_path
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.logic import limit_table, solve_path
from xlsudoku.engine.ratings import DEFAULT_PROFILE, profile_table
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
    rows = [i for i, spec in enumerate(table) if spec.technique is technique]
    if not rows:
        raise ValueError(f"needs: {technique.value} has no finder in the technique table")
    through = table[: rows[-1] + 1]
    return tuple(spec for spec in through if spec.technique is not technique), through


@dataclass(frozen=True, slots=True)
class Goal:
    """A level to reach or a technique to need, judged through the public solver and grader.

    Attributes:
        level: The wanted level, or None.
        needs: The technique the puzzle must need, or None.
        table: The technique table (solve order, levels, scores).
    """

    level: Level | None
    needs: Technique | None
    table: tuple[TechniqueSpec, ...] = TECHNIQUES

    def distance(self, puzzle: Grid) -> Distance:
        """Return how far *puzzle* (unique) is from the goal: ``MET`` when it meets it.

        Level: the number of levels between, then the score (when too easy a harder puzzle is
        closer, when too hard an easier one).  Technique: ``(1, gap)`` when the solver does
        not need it (*gap*: from the hardest step's score up to the technique's), ``(2,
        cells)`` when the solver up to the technique cannot finish (*cells* left unsolved).

        >>> from xlsudoku.engine.fill import random_grid
        >>> p = descent.minimal_puzzle(random_grid(random.Random(4)), random.Random(4))
        >>> from xlsudoku.engine.grading import grade
        >>> (Goal(Level.EASY, None).distance(p)[0] == 0) == (grade(p).level is Level.EASY)
        True
        """
        if self.needs is None:
            assert self.level is not None
            g = grade_path(solve_path(puzzle, self.table), self.table)
            level = g.level
            if level is Level.BEYOND and rating_path(puzzle, profile_table(DEFAULT_PROFILE)).solved:
                # the puzzle's analysis calls Diabolical what a rating profile's chains solve
                # (grading.human_level): the goal judges a level the way the analysis does
                level = Level.DIABOLICAL
            gap = abs(int(level) - int(self.level))
            if gap == 0:
                return MET
            return (gap, g.score if level > self.level else -g.score)
        without, through = needs_tables(self.needs, self.table)
        cap = max(spec.level for spec in through)
        path = solve_path(puzzle, without, max_level=cap)
        if path.solved:  # the technique is not needed: too easy
            top = max(spec.score for spec in through if spec.technique is self.needs)
            hardest = grade_path(path, self.table).score
            return (1, max(top - hardest, 0.0))
        rest = solve_path(path.board, through, max_level=cap)
        if rest.solved:  # stalls without it and finishes with it: needed
            return MET
        return (2, float(sum(1 for d in rest.board.values if not d)))

    def met(self, puzzle: Grid) -> bool:
        """Return True when *puzzle* meets the goal."""
        return self.distance(puzzle)[0] == 0

    def not_too_hard(self, puzzle: Grid) -> bool:
        """Return True when the solver up to the goal finishes *puzzle* (no harder technique).

        For a level: the techniques of that level and below (trial and error only for
        Beyond); for a technique: the solve order up to it.

        >>> Goal(Level.EASY, None).not_too_hard(Grid.parse("12345678." + "." * 72))
        False
        """
        if self.needs is not None:
            through = needs_tables(self.needs, self.table)[1]
            cap = max(spec.level for spec in through)
            return solve_path(puzzle, through, max_level=cap).solved
        assert self.level is not None
        return solve_path(puzzle, limit_table(self.table, self.level), self.level).solved

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

    def key(self, target: int) -> tuple[Distance, int]:
        """Order candidates: nearest the goal, then nearest the opens."""
        return self.distance, abs(self.puzzle.given_count - target)


def _swap(oracle: Oracle, puzzle: Grid, form: Form, rng: random.Random) -> Grid | None:
    """Return *puzzle* with one blank orbit put back and a clue orbit of its size blanked.

    None when the pair drawn would leave two solutions (or there is no pair to draw).
    """
    clues = [o for o in form.free if puzzle[o[0]]]
    blanks = [o for o in form.free if not puzzle[o[0]]]
    if not clues or not blanks:
        return None
    back = rng.choice(blanks)
    out = [o for o in clues if len(o) == len(back)]
    if not out:
        return None
    orbit = rng.choice(out)
    blank = {c for c, d in enumerate(puzzle.cells) if not d}
    oracle.reset(frozenset(blank.difference(back)))
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
    target = plan.request.opens
    for orbit in order:
        opens = oracle.opens
        if opens == target or stop():
            return
        if opens - len(orbit) < target or not oracle.can_remove(orbit):
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
    seen = {start.puzzle}
    graded = draws = 0
    while current.distance[0] and graded < CLIMB_STEPS and draws < SWAP_DRAWS:
        if stop():
            break
        draws += 1
        moved = _swap(oracle, current.puzzle, plan.form, plan.rng)
        if moved is None or moved in seen:
            continue
        seen.add(moved)
        graded += 1
        plan.clock.tick(GRADE_TICKS)
        distance = goal.distance(moved)
        if distance <= current.distance:
            current = _Candidate(moved, current.solution, distance)
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
    >>> r.reached, r.opens, r.message.startswith("Made a Medium puzzle with 26 opens")
    (True, 26, True)
    """
    request = plan.request
    target = request.opens
    goal = Goal(request.difficulty, request.needs)

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
                found = _Candidate(reached.puzzle, reached.solution, goal.distance(reached.puzzle))
            else:
                # time-shared: the next descents reuse the grid and stay within the goal's
                # techniques, so they end near the goal (at the opens, or above when stuck)
                _descend(oracle, plan, goal.not_too_hard, stop)
                puzzle = oracle.puzzle()
                plan.clock.tick(GRADE_TICKS)
                found = _Candidate(puzzle, oracle.solution, goal.distance(puzzle))
            if found.puzzle.given_count == target:
                found = _climb(plan, oracle, found, goal, stop)
        except Stopped:
            # the limit or cancel inside a search: this attempt's puzzle is lost, unless it
            # is the only one (one more grading, past the limit)
            if best is None and reached is not None:
                best = _Candidate(reached.puzzle, reached.solution, goal.distance(reached.puzzle))
            break
        if best is None or found.key(target) < best.key(target):
            best = found
        if plan.progress is not None:
            plan.progress(attempts, best.puzzle.given_count)
        if best.key(target) == (MET, 0):
            break
    assert best is not None
    return Outcome(
        best.puzzle,
        best.solution,
        _stop(plan, best, target, attempts),
        attempts,
        grids,
        _message(plan, goal, best, attempts),
    )


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
    target = plan.request.opens
    opens = best.puzzle.given_count
    tries = plural(attempts, "attempt")
    if best.key(target) == (MET, 0):
        return f"Made {goal.name} with {opens} opens in {tries} ({plan.elapsed():.2f} s)"
    missed = [goal.what] if best.distance[0] else []
    if opens != target:
        missed.append("opens")
    # the closest puzzle's level and hardest step are its analysis's, shown beside this message
    closest = f"closest: {opens} opens"
    why = f"missed the {' and the '.join(missed)}"
    if plan.cancelled():
        return f"Cancelled after {tries}; {closest} ({why})"
    if attempts < plan.request.trials:
        return (
            f"Could not make {goal.name} with {target} opens in {_limit_text(plan)} ({tries}); "
            f"{closest} ({why})"
        )
    return f"Could not make {goal.name} with {target} opens in {tries}; {closest} ({why})"
