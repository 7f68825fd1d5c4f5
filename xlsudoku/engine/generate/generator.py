"""Generate a puzzle: validate the request, pick the strategy, report what it found.

Strategies (one signature, :mod:`.strategy`):

- :mod:`.descent` — blank orbits of random grids while unique, with solution reuse;
- :mod:`.deep` — 9x9 targets of ``LOW_GIVENS_TARGET`` opens or fewer: the low-clue search (fresh
  grids searched exhaustively and neighbour moves, :mod:`.low_givens`, :mod:`.neighbours`);
- :mod:`.graded` — a difficulty level or a technique to need;
- :mod:`.climb` — a score range under a rating profile: fresh puzzles, then neighbour moves
  toward the range.

This module decides which one runs and with what time limit, then builds the
:class:`~.request.GenerateResult`: whether the puzzle is minimal, and the seed, whatever the
strategy.  What the puzzle is like (grade, ranks) is its analysis
(:func:`xlsudoku.engine.analysis.analyze` with the proved solution), which the caller asks for.
"""

from __future__ import annotations

import random
import time

from xlsudoku.engine.analysis import Analysis, analyze
from xlsudoku.engine.generate import climb, deep, descent, graded
from xlsudoku.engine.generate.clock import Clock
from xlsudoku.engine.generate.request import (
    Budget,
    BudgetKind,
    Form,
    GenerateRequest,
    GenerateResult,
    form_of,
)
from xlsudoku.engine.generate.strategy import Cancel, Outcome, Plan, Progress, Strategy
from xlsudoku.engine.logic import Poll

DESCENT = Strategy("descent", descent.run)
DEEP = Strategy("deep", deep.run, deep.DEFAULT_SECONDS)
GRADED = Strategy("graded", graded.run, graded.DEFAULT_SECONDS)
CLIMB = Strategy("climb", climb.run, climb.DEFAULT_SECONDS)


def pick(request: GenerateRequest) -> Strategy:
    """Return the strategy for *request*.

    >>> pick(GenerateRequest()).name, pick(GenerateRequest(target_givens=22)).name
    ('descent', 'deep')
    """
    if request.score is not None:
        return CLIMB
    if request.graded:
        return GRADED
    if deep.is_deep(request):
        return DEEP
    return DESCENT


def generate(
    request: GenerateRequest,
    *,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> GenerateResult:
    """Generate a unique symmetric puzzle with the requested number of opens.

    Args:
        request: What to generate (validated first; see :func:`.request.validate_request`).
        progress: Called after each trial with ``(trial number, best opens so far)``.
        cancel: Polled between trials (and by the low-clue search); when it returns True the
            best puzzle so far is returned.

    Returns:
        The result; when the target was not reached, the best puzzle and a message naming the
        fewest opens reached.  The same seed and request give the same puzzle (unless a
        wall-clock or CPU limit or cancel cut the run short; a work budget stops the run at the
        same point on every machine).

    Raises:
        GenerateError: The request is invalid (the message names the field).

    >>> r = generate(GenerateRequest(target_givens=26, pattern=1, seed=7))
    >>> r.givens, r.reached, r.puzzle.given_count, r.seed
    (26, True, 26, 7)
    >>> [r.puzzle[c] != 0 for c in (30, 31, 32, 39, 40, 41, 48, 49, 50)]
    [True, False, True, False, False, False, True, False, True]
    """
    form = form_of(request)
    strategy = pick(request)
    seed = request.seed if request.seed is not None else random.SystemRandom().randrange(1 << 32)
    limit = limit_of(request, strategy)
    plan = Plan.begin(request, form, random.Random(seed), limit, progress, cancel)
    started = plan.started
    outcome = strategy.run(plan)
    allowed = limit if outcome.limit is None else outcome.limit
    return GenerateResult(
        puzzle=outcome.puzzle,
        solution=outcome.solution,
        givens=outcome.puzzle.given_count,
        target=request.target_givens,
        reached=outcome.reached,
        minimal=is_minimal(outcome, form),
        trials_used=outcome.trials,
        grids_tried=outcome.grids,
        seconds=time.perf_counter() - started,
        seed=seed,
        message=outcome.message,
        request=request.with_seed(seed),
        time_limit=allowed.amount if allowed and allowed.kind is BudgetKind.WALL else None,
        stop=outcome.stop,
        workers=outcome.workers,
        limit=allowed,
        analysis=outcome.analysis,
        missed=outcome.missed if outcome.reached is False else (),
    )


def result_analysis(
    result: GenerateResult, *, ranks: bool = False, poll: Poll | None = None
) -> Analysis:
    """Return the analysis of a generated puzzle: the generator's own, else made once here.

    A graded request's goal analysed the puzzle it kept (``result.analysis``); an ungraded one
    is analysed with the solution the generator proved unique, under the request's profile.
    With *ranks* the rank statistics are added to it (the path is not walked again).  *poll*
    bounds the grading and the ranks (:data:`xlsudoku.engine.logic.Poll`: it raises to abandon
    them).

    >>> r = generate(GenerateRequest(seed=7))
    >>> a = result_analysis(r)
    >>> a.unique, a.profile, a.puzzle == r.puzzle
    (True, 'se', True)
    """
    analysis = result.analysis
    if analysis is None:
        analysis = analyze(
            result.puzzle, result.request.profile, solution=result.solution, poll=poll
        )
    return analysis.with_ranks(poll) if ranks else analysis


# Work units the minimality test of a result may spend (beyond the run's limit); a few hundred
# milliseconds settle a 16x16 puzzle, a 9x9 one far less.
MINIMAL_WORK = 2.0


def limit_of(request: GenerateRequest, strategy: Strategy) -> Budget | None:
    """Return the limit of a run: the request's, else the strategy's default wall-clock time.

    >>> limit_of(GenerateRequest(target_givens=22), DEEP), limit_of(GenerateRequest(), DESCENT)
    (Budget(amount=60.0, kind=<BudgetKind.WALL: 'wall'>), None)
    """
    if request.limit is not None:
        return request.limit
    return None if strategy.default_seconds is None else Budget(strategy.default_seconds)


def is_minimal(outcome: Outcome, form: Form, cancel: Cancel | None = None) -> bool:
    """Return True when no clue orbit of the puzzle (pattern orbits too) can be blanked.

    The test gets ``MINIMAL_WORK`` work units (counted, so the answer is the same on every
    machine) and stops early when *cancel* says so (a caller's deadline has passed); a
    puzzle it cannot settle is not called minimal.
    """
    orbits = form.free if outcome.untested is None else outcome.untested
    clock = Clock.start(Budget(MINIMAL_WORK, BudgetKind.WORK), cancel)
    return descent.is_minimal(
        outcome.puzzle, outcome.solution, (*orbits, *form.fixed_orbits), clock
    )
