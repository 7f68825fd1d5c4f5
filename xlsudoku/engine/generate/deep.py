"""Deep targets: descents whose puzzles the low-clue search (:mod:`.lowclue`) takes further.

Random descent rarely goes below 23 opens on 9x9, so at or below ``LOW_CLUE_TARGET`` each
trial's puzzle is handed to :func:`.lowclue.descend`, which searches every symmetric clue set
of the trial's grid with at most the target opens (keeping the pattern's cells), for at most
``TRIAL_SECONDS``.  That search is exhaustive on its grid, so the next trial takes a new grid.
"""

from __future__ import annotations

import time

from xlsudoku.engine.generate import descent
from xlsudoku.engine.generate.descent import Best, Trial
from xlsudoku.engine.generate.lowclue import descend
from xlsudoku.engine.generate.request import Form, GenerateRequest
from xlsudoku.engine.generate.strategy import Outcome, Plan
from xlsudoku.engine.grid import CLASSIC, Grid
from xlsudoku.engine.solver import count_solutions

# Targets at or below this many opens (9x9) are deep.
LOW_CLUE_TARGET = 23

# Without a time limit, a deep run gets this many seconds in all, so an unreachable target
# ends with a message instead of running for hours.
DEFAULT_SECONDS = 60.0

# The low-clue search works on one solution grid per trial, for at most this many seconds.
TRIAL_SECONDS = 10.0


def is_deep(request: GenerateRequest) -> bool:
    """Return True when the request's opens are a deep target (9x9, ``LOW_CLUE_TARGET`` or less).

    >>> is_deep(GenerateRequest(opens=22)), is_deep(GenerateRequest(opens=26))
    (True, False)
    """
    return request.opens <= LOW_CLUE_TARGET and request.geometry == CLASSIC


def _improve(plan: Plan, trial: Trial) -> tuple[Best | None, bool]:
    """Search the trial's grid for a puzzle with at most the target opens."""
    trial_deadline = time.perf_counter() + TRIAL_SECONDS
    deadline = plan.deadline
    if deadline is not None:
        trial_deadline = min(trial_deadline, deadline)
    shown = trial.best.opens
    progress = plan.progress

    def deep_progress(opens_now: int) -> None:
        if progress is not None and opens_now < shown:
            progress(trial.number, opens_now)

    form = plan.form
    found = descend(
        trial.solution,
        trial.oracle.puzzle(),
        plan.request.opens,
        plan.request.symmetry,
        form.fixed_open,
        form.fixed_blank,
        plan.rng,
        deadline=trial_deadline,
        cancel=plan.cancel,
        progress=deep_progress,
    )
    # its search of a grid is exhaustive: another order on this grid cannot do better
    if found.given_count >= shown or not _usable(found, trial.solution, form):
        return None, False
    # the low-clue search tells nothing about which orbits are needed: test them all
    clue_orbits = [o for o in form.free if found[o[0]]]
    return Best(found, trial.solution, found.given_count, clue_orbits), False


def _usable(puzzle: Grid, solution: Grid, form: Form) -> bool:
    """Return True when *puzzle* is a unique puzzle of *solution* with the form's cells.

    The boundary between this strategy and the search: what the user gets is checked here.
    """
    cells = puzzle.cells
    if any(d and d != s for d, s in zip(cells, solution.cells, strict=True)):
        return False
    if any(not cells[c] for c in form.fixed_open) or any(cells[c] for c in form.fixed_blank):
        return False
    if any(bool(cells[o[0]]) != bool(cells[c]) for o in form.free for c in o):
        return False
    return count_solutions(puzzle, 2) == 1


def run(plan: Plan) -> Outcome:
    """Run descents, each followed by the low-clue search on its grid."""
    return descent.trials(plan, improve=_improve)
