"""Plain descent: blank clue orbits of a random grid while the puzzle stays unique.

1. Fill a random complete grid (:func:`xlsudoku.engine.fill.random_grid`).
2. Blank the cells the pattern keeps blank, then the free orbits of the symmetry in a random
   order; after each blanking ask the oracle (:mod:`.oracle`) whether the puzzle is still
   unique and put the orbit back when it is not (*feedback*).
3. Stop as soon as the puzzle has exactly the target number of opens.  An attempt (a *trial*)
   that ends above the target is repeated on the same grid with a new order when it ended
   *close* to the target (*solution reuse*), on a new grid when it ended far above.
4. Out of trials or time, the best puzzle comes back with a message naming the fewest opens.

:func:`trials` is that loop; a strategy that does more with each trial's puzzle passes an
*improve* step to it, for the attempts that ended far above the target.  On shapes other than
9x9 (whose deep targets have no exhaustive search, :mod:`.deep`) such an attempt is *iterated*
(:func:`iterate`): give
``PERTURB_ORBITS`` blank orbits back and descend again over every clue orbit in a new order,
keeping the result when it has no more opens (equal ones move the search across plateaus),
until ``STALL_ROUNDS`` rounds in a row found nothing lower.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate.clock import Clock, Stopped
from xlsudoku.engine.generate.oracle import Oracle
from xlsudoku.engine.generate.request import Form, form_for
from xlsudoku.engine.generate.strategy import Outcome, Plan, Stop, givens_message
from xlsudoku.engine.grid import CLASSIC, Cell, Grid
from xlsudoku.engine.patterns import Pattern
from xlsudoku.engine.symmetry import Symmetry

# An attempt is *close* when it ended at most this many orbits above the target: the next
# attempt then reuses the same solution grid (with a new order); farther above, a new grid.
CLOSE_ORBITS = 2

# Attempts on one grid before a new grid is drawn however close they came.
MAX_REUSE = 30

# Iterated descent: blank orbits given back per round, and rounds in a row without a lower
# puzzle before the grid is left (measured on 16x16, 180°: from 104 to 92 opens in 33 rounds).
PERTURB_ORBITS = 2
STALL_ROUNDS = 30

Orbits = list[tuple[Cell, ...]]


def attempt(
    oracle: Oracle, form: Form, target: int, rng: random.Random, clock: Clock | None
) -> tuple[Orbits, bool]:
    """Run one descent: blank free orbits in random order while unique, stopping at *target*.

    Returns the orbits not tested (the rest were tested and are needed) and whether the
    *clock* (its limit, or cancel) cut the attempt short; the oracle's searches count their
    work on the clock it was made with.
    """
    oracle.reset(form.fixed_blank)
    order = list(form.free)
    rng.shuffle(order)
    givens = oracle.givens
    untested: Orbits = []
    for i, orbit in enumerate(order):
        if givens == target:
            untested.extend(order[i:])
            break
        if givens - len(orbit) < target:
            untested.append(orbit)
            continue
        try:
            if clock is not None:
                clock.poll()
            removed = oracle.try_remove(orbit)
        except Stopped:
            untested.extend(order[i:])
            return untested, True
        if removed:
            givens -= len(orbit)
    return untested, False


def minimal_puzzle(
    solution: Grid,
    rng: random.Random,
    symmetry: Symmetry = Symmetry.ROTATE_180,
    pattern: int | str | Pattern | None = None,
) -> Grid:
    """Return a minimal symmetric puzzle of *solution*: one descent over every free orbit.

    Minimal means no free orbit (outside the pattern) can be blanked keeping the puzzle unique.

    >>> sol = random_grid(random.Random(3))
    >>> p = minimal_puzzle(sol, random.Random(4))
    >>> from xlsudoku.engine.solver import count_solutions
    >>> count_solutions(p), all(d in (0, s) for d, s in zip(p, sol))
    (1, True)
    """
    form = form_for(solution.geometry, symmetry, pattern)
    oracle = Oracle(solution, learn=False)
    attempt(oracle, form, -1, rng, None)
    return oracle.puzzle()


def minimize(puzzle: Grid, solution: Grid, form: Form, least: int, rng: random.Random) -> Grid:
    """Return *puzzle* with free clue orbits blanked in random order while it stays unique.

    Orbits are blanked only while at least *least* clues remain, so the result is minimal
    unless that bound stopped it.

    >>> from xlsudoku.engine.generate.request import form_for
    >>> from xlsudoku.engine.grid import CLASSIC
    >>> sol = random_grid(random.Random(3))
    >>> form = form_for(CLASSIC, Symmetry.ROTATE_180, None)
    >>> p = minimize(sol, sol, form, 0, random.Random(4))
    >>> is_minimal(p, sol, form.free)
    True
    """
    oracle = Oracle(solution)
    oracle.reset(frozenset(c for c, d in enumerate(puzzle.cells) if not d))
    order = [o for o in form.free if puzzle[o[0]]]
    rng.shuffle(order)
    for orbit in order:
        if oracle.givens - len(orbit) >= least:
            oracle.try_remove(orbit)
    return oracle.puzzle()


def is_minimal(
    puzzle: Grid,
    solution: Grid,
    orbits: Iterable[tuple[Cell, ...]],
    clock: Clock | None = None,
) -> bool:
    """Return True when no clue orbit of *orbits* can be blanked keeping *puzzle* unique.

    With a *clock*, the tests count their work there; when it stops them, minimality is not
    shown and the answer is False.

    >>> sol = random_grid(random.Random(3))
    >>> from xlsudoku.engine.symmetry import orbits
    >>> is_minimal(sol, sol, orbits(Symmetry.ROTATE_180, sol.geometry))
    False
    """
    oracle = Oracle(solution, learn=False, clock=clock)
    oracle.reset(frozenset(c for c, d in enumerate(puzzle.cells) if not d))
    try:
        for orbit in orbits:
            if oracle.is_given(orbit[0]) and oracle.can_remove(orbit):
                return False
    except Stopped:
        return False
    return True


@dataclass(slots=True)
class Best:
    """The best puzzle so far and the orbits never shown to be needed in it."""

    puzzle: Grid
    solution: Grid
    givens: int
    untested: Orbits = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Trial:
    """One trial handed to an *improve* step: its grid, oracle and number, and the best so far."""

    solution: Grid
    oracle: Oracle
    number: int
    best: Best


# An improve step gets a trial whose descent ended far above the target (more than the close
# orbits), and returns a better puzzle or None, and whether another order on the same grid may
# still help.
Improve = Callable[[Plan, Trial], tuple[Best | None, bool]]


def trials(plan: Plan, improve: Improve | None = None) -> Outcome:
    """Run descents (with solution reuse) until the target, the trials or the time run out."""
    request, form, rng = plan.request, plan.form, plan.rng
    target = request.target_givens
    close = CLOSE_ORBITS * max((len(o) for o in form.free), default=1)
    best: Best | None = None
    oracle: Oracle | None = None
    solution = Grid.empty(request.geometry)
    count = grids = reuse = 0
    again = False
    stop: Stop = "trials"
    while count < request.trials:
        if count and plan.cancelled():
            stop = "cancel"
            break
        if oracle is None or not again:
            solution = random_grid(rng, request.geometry)
            oracle = Oracle(solution, clock=plan.clock)
            grids += 1
            reuse = 0
        count += 1
        reuse += 1
        again_allowed = True
        untested, cut = attempt(oracle, form, target, rng, plan.clock)
        givens = oracle.givens
        if best is None or givens < best.givens:
            best = Best(oracle.puzzle(), solution, givens, untested)
        if improve is not None and givens - target > close and not cut:
            better, again_allowed = improve(plan, Trial(solution, oracle, count, best))
            if better is not None and better.givens < best.givens:
                best = better
            cut = plan.late()
        if plan.progress is not None:
            plan.progress(count, best.givens)
        if best.givens == target:
            stop = "reached"
            break
        if cut or plan.late():
            stop = "cancel" if plan.cancelled() and not plan.late() else "time"
            break
        again = again_allowed and givens - target <= close and reuse < MAX_REUSE
    assert best is not None
    return Outcome(
        puzzle=best.puzzle,
        solution=best.solution,
        stop=stop,
        trials=count,
        grids=grids,
        message=givens_message(stop, plan, best.givens, count, grids),
        untested=tuple(best.untested),
    )


def iterate(plan: Plan, trial: Trial) -> tuple[Best | None, bool]:
    """Lower a trial's puzzle on its own grid by rounds of give-back and descent.

    Returns the lowest puzzle found below the trial's (or None), and False: the next trial
    draws a new grid.

    >>> from xlsudoku.engine.grid import geometry_for_size
    >>> from xlsudoku.engine.generate.request import GenerateRequest, form_of
    >>> request = GenerateRequest(target_givens=6, pattern=None, geometry=geometry_for_size(4))
    >>> plan = Plan.begin(request, form_of(request), random.Random(2), None)
    >>> solution = random_grid(random.Random(2), request.geometry)
    >>> oracle = Oracle(solution)
    >>> _ = attempt(oracle, plan.form, -1, plan.rng, None)
    >>> start = oracle.puzzle()
    >>> better, _ = iterate(plan, Trial(solution, oracle, 1, Best(start, solution, 0)))
    >>> better is None or better.givens < start.given_count
    True
    """
    oracle, form, rng = trial.oracle, plan.form, plan.rng
    target = plan.request.target_givens
    current = oracle.puzzle()
    givens = current.given_count
    best: Best | None = None
    stall = 0
    try:
        while stall < STALL_ROUNDS and givens > target:
            back = [o for o in form.free if not current[o[0]]]
            if len(back) < PERTURB_ORBITS:
                break
            back = rng.sample(back, PERTURB_ORBITS)
            blank = {c for c, d in enumerate(current.cells) if not d}
            for orbit in back:
                blank.difference_update(orbit)
            oracle.reset(frozenset(blank))
            order = [o for o in form.free if current[o[0]]]
            rng.shuffle(order)
            count = oracle.givens
            for orbit in order + back:  # the orbits given back are tested last
                if count == target:
                    break
                if count - len(orbit) >= target and oracle.try_remove(orbit):
                    count -= len(orbit)
            if count > givens:
                stall += 1
                continue
            stall = stall + 1 if count == givens else 0
            current, givens = oracle.puzzle(), count
            if best is None or count < best.givens:
                untested = [o for o in form.free if current[o[0]]]
                best = Best(current, trial.solution, count, untested)
    except Stopped:
        pass  # the limit or cancel: the lowest puzzle so far stands
    return best, False


def run(plan: Plan) -> Outcome:
    """Run the plain descent strategy (iterated on shapes other than 9x9)."""
    return trials(plan, None if plan.request.geometry == CLASSIC else iterate)
