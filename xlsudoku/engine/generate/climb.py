"""Generation to a score: climb from fresh puzzles through neighbour moves toward the range.

A score request (``GenerateRequest.score``, a :class:`~.request.ScoreRange` on the scale of the
request's rating profile) is met by a puzzle whose rating lies in the range.  The search has
*starts* (a trial each) and *climbs*:

1. **Start**: ``SAMPLE`` fresh puzzles, each a descent of a random grid under the request's
   form (pattern, symmetry) down to a minimal puzzle, are rated; the closest to the range is
   where the climb begins.  Ratings of 7 to 8 are common among minimal puzzles, so a range
   there is usually met by a start alone.
2. **Climb**: the current puzzle's moves are rated one by one, and the first that is closer
   to the range becomes the current puzzle.  One as close moves the climb sideways (at most
   ``SIDEWAYS`` times in a row), across the plateaus of equal ratings; puzzles seen before
   are skipped.  The moves (:meth:`_Climb.moves`), cheapest first: on the puzzle's own
   solution grid, one clue orbit blanked while the puzzle stays unique (harder, as a rule) or,
   when the puzzle is too hard, one blank orbit given back (easier); swaps of a blank orbit
   given back and a clue orbit blanked; then the low-clue search's neighbour moves
   (:mod:`.neighbours`: blank one or two clue orbits and give one orbit any digits its
   candidates allow, kept when the exact solver finds one solution), which lead to new grids.
3. **Restart**: after ``STALL`` moves rated without getting closer, or when a puzzle has
   no neighbour left, the climb ends and a new start begins.

Rating is the costly part, and most moves of a hard puzzle make an easy one.  A move is not
rated when naked and hidden singles solve it (:func:`singles_solve`, a propagation of the exact
solver) and the current puzzle is rated above what singles give (:func:`singles_bound`) and
below the range: it is surely farther.  A rating walks the profile's rating path
(:func:`xlsudoku.engine.logic.walk_path`, what :func:`xlsudoku.engine.grading.rating_path` takes)
and stops early where its score is known: once singles solve the board left and the highest
step so far is at least what singles give (every step left is rated lower), or, for an open
range (``MIN-``), at the first step rated at the range's low end (the puzzle meets it; the
puzzle that comes back is then rated whole, once).
With ``target_givens`` as a ceiling, a puzzle above it is farther than any below.

Every rating ticks the run's clock (``RATE_TICKS`` a step of a chain row), like the searches,
so a seeded run with a work budget stops at the same point on every machine; out of trials or
time, or when cancelled, the closest puzzle comes back, with its rating in the message.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from dataclasses import dataclass

from xlsudoku.engine.analysis import RATING_NAMES
from xlsudoku.engine.board import Board
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate.clock import Stopped
from xlsudoku.engine.generate.descent import attempt
from xlsudoku.engine.generate.low_givens import OrbitSpace
from xlsudoku.engine.generate.neighbours import KINDS, neighbours
from xlsudoku.engine.generate.oracle import Oracle
from xlsudoku.engine.generate.request import ScoreRange
from xlsudoku.engine.generate.strategy import Outcome, Plan, Stop, plural
from xlsudoku.engine.grading import rater
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.logic import Poll, walk_path
from xlsudoku.engine.ratings import profile_table
from xlsudoku.engine.solver import singles_candidates, solve
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.techniques import TechniqueSpec

# Seconds allowed when the request has no limit.
DEFAULT_SECONDS = 120.0
# Fresh puzzles rated for one start; the closest begins the climb.
SAMPLE = 6
# Moves rated without getting closer before the climb restarts.
STALL = 120
# Sideways moves (to a neighbour exactly as close) in a row at most.
SIDEWAYS = 30
# Swaps (a blank orbit given back, a clue orbit blanked) drawn for one puzzle at most.
SWAP_DRAWS = 400
# Stages of the neighbour moves a climbing puzzle gets, in this order (:mod:`.neighbours`): the
# heads of the lowering and equal moves, then their tails.
STAGE_ORDER = (0, 1, KINDS, KINDS + 1)
# Ticks of the run's clock a rating counts, and again for each step of a chain row.
RATE_TICKS = 300
# Ticks a puzzle counts when singles solve it and it is not rated.
SKIP_TICKS = 10

# Each start and each new closest puzzle is told at INFO level (a long run's progress, for
# those who listen).
LOG = logging.getLogger(__name__)

# How far a puzzle is from the request: (opens above the ceiling, score outside the range).
Distance = tuple[int, float]
MET: Distance = (0, 0.0)


@dataclass(frozen=True, slots=True)
class Rater:
    """Rates puzzles under one profile: the cheap bound first, the full rating path after.

    Attributes:
        table: The profile's technique table.
        singles: The rating a puzzle that singles solve has at most (:func:`singles_bound`).
    """

    table: tuple[TechniqueSpec, ...]
    singles: float

    @classmethod
    def of(cls, profile: str) -> Rater:
        """Return the rater of the profile named *profile*.

        >>> Rater.of("sukaku").singles
        2.3
        """
        table = profile_table(profile)
        return cls(table, singles_bound(table))

    def rate(
        self, puzzle: Grid, enough: float | None = None, poll: Poll | None = None
    ) -> tuple[float, int, bool]:
        """Return the rating of *puzzle* (unique), its steps of chain rows, and if it is whole.

        With *enough*, the rating path stops at its first step rated *enough* or more: the
        rating is then at least that step's score (the highest step so far), not whole.
        *poll* is called before each row is asked (it raises to abandon the rating).

        >>> hard = Grid.parse(
        ...     "...8...97......3......15.6.67.2..8.3.8..6..2.3.5..4.16.6.13......2......41...7...")
        >>> score, chains, whole = Rater.of("se").rate(hard)
        >>> score, chains > 0, whole
        (9.1, True, True)
        >>> Rater.of("se").rate(hard, enough=8.0)[0::2]
        (8.3, False)
        """
        rate = rater(puzzle.geometry.size)
        score, chains = 0.0, 0
        walk = walk_path(Board.from_grid(puzzle), self.table, rate=rate, poll=poll)
        for taken in walk:
            assert taken is not None  # trial and error is allowed: the walk never stalls
            before, spec, step = taken
            if score >= self.singles and singles_solve(before.grid):
                break  # every step left is a single or a row asked before one
            score = max(score, rate(step, spec))
            chains += spec is None or spec.find_within is not None
            if enough is not None and score >= enough:
                return score, chains, False
        return score, chains, True


def singles_bound(table: tuple[TechniqueSpec, ...]) -> float:
    """Return a bound of the rating of a puzzle that naked and hidden singles solve.

    Such a puzzle's rating path takes a single, or a row asked before the naked single,
    at every step.

    >>> singles_bound(profile_table("se"))
    2.3
    """
    rows = [spec.technique for spec in table]
    last = rows.index(Technique.NAKED_SINGLE)
    return max(spec.score for spec in table[: last + 1])


def singles_solve(puzzle: Grid) -> bool:
    """Return True when naked and hidden singles alone solve *puzzle*.

    >>> singles_solve(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
    True
    """
    masks = singles_candidates(puzzle.cells, puzzle.geometry)
    return masks is not None and all(m and not m & (m - 1) for m in masks)


@dataclass(frozen=True, slots=True)
class Rated:
    """A puzzle, its solution (None until needed), its rating and whether that is whole.

    A rating that is not whole stopped at a step that meets an open range: the puzzle's
    rating is at least *score*.
    """

    puzzle: Grid
    solution: Grid | None
    score: float
    distance: Distance
    whole: bool = True


class _Climb:
    """The state of one run: the request's range, the rater, the best puzzle so far."""

    def __init__(self, plan: Plan) -> None:
        request = plan.request
        assert request.score is not None
        self.plan = plan
        self.range: ScoreRange = request.score
        self.ceiling = request.target_givens
        self.rater = Rater.of(request.profile)
        self.form = plan.form
        self.best: Rated | None = None
        self.rated = 0
        self.skipped = 0
        self.grids = 0
        # An open range is met by any step rated at its low end: the rating may stop there.
        self.enough = self.range.low if self.range.high is None else None

    def stop(self) -> bool:
        return self.plan.late() or self.plan.cancelled()

    def poll(self) -> None:
        """Raise :class:`Stopped` when the run is late or cancelled (a long rating ends)."""
        if self.stop():
            raise Stopped

    def rate(
        self, puzzle: Grid, solution: Grid | None = None, below: Rated | None = None
    ) -> Rated | None:
        """Rate *puzzle*, count it on the clock, and keep it when it is the closest so far.

        With *below* (the current puzzle of a climb), a puzzle that is surely farther than
        *below* is not rated (None): one that singles solve, when *below* is rated above what
        singles give and under the range, without fewer opens above the ceiling.
        """
        over = max(0, puzzle.given_count - self.ceiling)
        if (
            below is not None
            and self.rater.singles < below.score < self.range.low
            and over >= below.distance[0]
            and singles_solve(puzzle)
        ):
            self.skipped += 1
            self.plan.clock.tick(SKIP_TICKS)
            return None
        score, chains, whole = self.rater.rate(puzzle, self.enough, self.poll)
        self.rated += 1
        self.plan.clock.tick(RATE_TICKS * (1 + chains))
        found = Rated(puzzle, solution, score, (over, self.range.distance(score)), whole)
        if self.best is None or found.distance < self.best.distance:
            self.best = found
            LOG.info(
                "closest so far: rating %s%.1f with %d opens (%d rated, %d skipped, %d grids)",
                "" if whole else ">= ",
                score,
                puzzle.given_count,
                self.rated,
                self.skipped,
                self.grids,
            )
        return found

    def fresh(self, clocked: bool = True) -> Rated:
        """Return a minimal puzzle of a new random grid under the form, rated.

        Unclocked (*clocked* False), nothing stops it: the one puzzle of a run stopped
        before any was rated.
        """
        plan = self.plan
        clock = plan.clock if clocked else None
        solution = random_grid(plan.rng, plan.request.geometry)
        self.grids += 1
        oracle = Oracle(solution, learn=False, clock=clock)
        attempt(oracle, self.form, -1, plan.rng, clock)
        puzzle = oracle.puzzle()
        if clocked:
            found = self.rate(puzzle, solution)
            assert found is not None
            return found
        score = self.rater.rate(puzzle)[0]
        over = max(0, puzzle.given_count - self.ceiling)
        return Rated(puzzle, solution, score, (over, self.range.distance(score)), True)

    def start(self) -> Rated:
        """Return the closest of ``SAMPLE`` fresh puzzles (fewer when one meets the range)."""
        chosen: Rated | None = None
        for _ in range(SAMPLE):
            found = self.fresh()
            if chosen is None or found.distance < chosen.distance:
                chosen = found
            if chosen.distance == MET or self.stop():
                break
        assert chosen is not None
        return chosen

    def moves(self, current: Rated) -> Iterator[tuple[Grid, Grid | None]]:
        """Yield the unique neighbours of *current* with their solutions when known.

        First the moves on its own solution grid (cheap: the oracle knows the solution):
        one clue orbit blanked (harder, as a rule) or, when *current* is too hard, one blank
        orbit given back (easier); then swaps of a blank orbit given back and a clue orbit
        blanked; then the neighbour moves that give new digits (:mod:`.neighbours`: a new
        solution grid, the way off a grid whose puzzles are all too easy).
        """
        solution = current.solution or solve(current.puzzle)
        assert solution is not None
        oracle = Oracle(solution, clock=self.plan.clock)
        free = self.form.free
        given_orbits = [o for o in free if current.puzzle[o[0]]]
        blanks = [o for o in free if not current.puzzle[o[0]]]
        rng = self.plan.rng
        rng.shuffle(given_orbits)
        rng.shuffle(blanks)
        blank = frozenset(c for c, d in enumerate(current.puzzle.cells) if not d)
        too_hard = self.range.high is not None and round(current.score, 1) > self.range.high
        if too_hard:
            for orbit in blanks:
                yield current.puzzle.with_cells({c: solution[c] for c in orbit}), solution
        else:
            for orbit in given_orbits:
                oracle.reset(blank)
                if oracle.try_remove(orbit):
                    yield oracle.puzzle(), solution
        pairs = [(back, out) for back in blanks for out in given_orbits]
        rng.shuffle(pairs)
        for back, out in pairs[:SWAP_DRAWS]:
            oracle.reset(blank.difference(back))
            if oracle.try_remove(out):
                yield oracle.puzzle(), solution
        space = OrbitSpace(
            self.plan.request.geometry,
            self.plan.request.symmetry,
            self.form.fixed_given,
            self.form.fixed_blank,
            rng,
        )
        for stage in STAGE_ORDER:
            for count, cells in neighbours(
                space, current.puzzle.cells, stage, self.plan.clock, self.plan.request.geometry
            ):
                if cells is not None and count:
                    yield Grid(cells, current.puzzle.geometry), None

    def climb(self, current: Rated) -> None:
        """Move from *current* toward the range until it is met, stalls or time is up."""
        seen = {current.puzzle}
        since = sideways = 0
        while current.distance != MET and not self.stop():
            moved = False
            for puzzle, solution in self.moves(current):
                if puzzle in seen:
                    continue
                seen.add(puzzle)
                found = self.rate(puzzle, solution, current)
                since += 1
                if found is None:
                    pass
                elif found.distance < current.distance:
                    current, since, sideways, moved = found, 0, 0, True
                elif found.distance == current.distance and sideways < SIDEWAYS:
                    current, sideways, moved = found, sideways + 1, True
                if moved or since >= STALL or self.stop():
                    break
            if not moved:
                return


def run(plan: Plan) -> Outcome:
    """Make a puzzle whose rating lies in the request's score range (see the module notes).

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(score=ScoreRange(3.0, 4.5), seed=3))
    >>> r.reached, r.message.startswith("Made a puzzle of SE rating")
    (True, True)
    """
    state = _Climb(plan)
    starts = 0
    try:
        while starts < plan.request.trials:
            if starts and state.stop():
                break
            starts += 1
            begun = state.start()
            LOG.info(
                "start %d: climbing from rating %.1f with %d opens",
                starts,
                begun.score,
                begun.puzzle.given_count,
            )
            if plan.progress is not None and state.best is not None:
                plan.progress(starts, state.best.puzzle.given_count)
            if begun.distance != MET:
                state.climb(begun)
            assert state.best is not None
            if state.best.distance == MET:
                break
    except Stopped:
        pass  # the limit or cancel inside a search: the closest so far comes back
    best = state.best
    if best is None:  # stopped before a single puzzle was rated: one more, past the limit
        best = state.fresh(clocked=False)
    if not best.whole:  # its rating stopped once the range was met: the whole rating, once
        best = dataclasses.replace(best, score=state.rater.rate(best.puzzle)[0], whole=True)
    solution = best.solution or solve(best.puzzle)
    assert solution is not None
    stop = _stop(plan, best, starts)
    return Outcome(
        best.puzzle,
        solution,
        stop,
        starts,
        state.grids,
        _message(plan, best, starts, state.rated, stop),
    )


def _stop(plan: Plan, best: Rated, starts: int) -> Stop:
    if best.distance == MET:
        return "reached"
    if plan.cancelled():
        return "cancel"
    if starts < plan.request.trials or plan.late():
        return "time"
    return "trials"


def _message(plan: Plan, best: Rated, starts: int, rated: int, stop: Stop) -> str:
    """Return the sentence: made, or missed with the closest puzzle and its rating."""
    request = plan.request
    assert request.score is not None
    scale = RATING_NAMES.get(request.profile, request.profile)
    wanted = request.score
    asked = (
        f"{wanted.low:.1f} or more"
        if wanted.high is None
        else f"{wanted.low:.1f}"
        if wanted.low == wanted.high
        else f"{wanted.low:.1f}-{wanted.high:.1f}"
    )
    givens = best.puzzle.given_count
    tries = f"{plural(starts, 'start')}, {plural(rated, 'puzzle')} rated"
    if stop == "reached":
        return (
            f"Made a puzzle of {scale} {best.score:.1f} ({asked}) with {givens} opens in "
            f"{tries} ({plan.elapsed():.2f} s)"
        )
    closest = f"closest: {scale} {best.score:.1f} with {givens} opens"
    if best.distance[0]:
        closest += f", above the ceiling of {request.target_givens}"
    if stop == "cancel":
        return f"Cancelled after {tries}; {closest}"
    within = f" in {plan.limit.text()}" if stop == "time" and plan.limit is not None else ""
    return f"Could not make a puzzle of {scale} {asked}{within} ({tries}); {closest}"
