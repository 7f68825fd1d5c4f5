"""The one signature every generation strategy has: ``run(plan) -> Outcome``.

A :class:`Plan` is everything a strategy gets (the validated request and its form, the random
source, the limit and the clock that enforces it, the progress and cancel callbacks); an
:class:`Outcome` is what it gives
back (the best puzzle, why it stopped, what it spent, and a sentence for the user).  The
generator (:mod:`.generator`) builds the plan, picks the strategy and turns the outcome into a
:class:`~.request.GenerateResult`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from xlsudoku.engine.analysis import Analysis
from xlsudoku.engine.generate.clock import Clock
from xlsudoku.engine.generate.request import Budget, Form, GenerateRequest
from xlsudoku.engine.grid import Cell, Grid

Stop = Literal["reached", "trials", "time", "cancel", "unlikely"]
Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class Plan:
    """What a strategy works with (:meth:`begin` makes one as a run begins).

    Attributes:
        request: The request (validated).
        form: Its form: fixed cells, free orbits, floor.
        rng: The random source, seeded from the request's seed.
        started: ``time.perf_counter()`` when the run began.
        cpu_started: ``time.process_time()`` when the run began.
        limit: The run's limit (the request's, or the strategy's default), or None.
        clock: Counts the run's work and stops it at *limit* or on *cancel*; every search of
            the run ticks it.
        progress: Called after each trial with ``(trial number, best opens so far)``.
        cancel: Polled between trials; True stops the run with the best puzzle so far.
    """

    request: GenerateRequest
    form: Form
    rng: random.Random
    started: float
    cpu_started: float
    limit: Budget | None
    clock: Clock
    progress: Progress | None = None
    cancel: Cancel | None = None

    @classmethod
    def begin(
        cls,
        request: GenerateRequest,
        form: Form,
        rng: random.Random,
        limit: Budget | None,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> Plan:
        """Return the plan of a run that begins now, its clock started.

        >>> from xlsudoku.engine.generate.request import form_of
        >>> plan = Plan.begin(GenerateRequest(), form_of(GenerateRequest()), random.Random(),
        ...                   Budget(60.0))
        >>> plan.late(), plan.clock.deadline == plan.started + 60.0
        (False, True)
        """
        started, cpu_started = time.perf_counter(), time.process_time()
        clock = Clock.start(limit, cancel, wall=started, cpu=cpu_started)
        return cls(request, form, rng, started, cpu_started, limit, clock, progress, cancel)

    def narrowed(self, limit: Budget | None) -> Clock:
        """Return a clock for *limit* counted from the run's start, with the ticks spent so far.

        A strategy that allows itself less than the plan's limit searches on it, then counts
        its ticks as the run's (:meth:`absorb`).
        """
        return Clock.start(
            limit, self.cancel, wall=self.started, cpu=self.cpu_started, count=self.clock.count
        )

    def absorb(self, clock: Clock) -> None:
        """Count the ticks of a narrowed *clock* as the run's."""
        self.clock.count = max(self.clock.count, clock.count)

    def late(self) -> bool:
        """Return True when the limit has been reached."""
        return self.clock.late()

    def cancelled(self) -> bool:
        """Return True when the caller asked to stop."""
        return self.cancel is not None and self.cancel()

    def elapsed(self) -> float:
        """Return the wall-clock seconds since the run began."""
        return time.perf_counter() - self.started


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a strategy found.

    Attributes:
        puzzle: The best puzzle (unique, symmetric, with the form's fixed cells).
        solution: Its solution.
        stop: Why the run ended: the target was ``reached``, or out of ``trials`` or ``time``,
            or ``cancel``, or the target is ``unlikely`` to be met at all (a short search only).
        trials: Attempts made.
        grids: Solution grids filled.
        message: One sentence for the user.
        untested: Clue orbits not shown to be needed, or None when nothing is known (the
            generator then tests every clue orbit for minimality).
        limit: The limit the strategy allowed itself when that differs from the plan's
            (a short search of an unlikely target), else None.
        workers: Processes that searched.
        analysis: The analysis of *puzzle* when the strategy made one (a graded goal), else
            None.
        missed: What the puzzle missed (``opens``, ``level``, ``technique``) when not reached.
    """

    puzzle: Grid
    solution: Grid
    stop: Stop
    trials: int
    grids: int
    message: str
    untested: tuple[tuple[Cell, ...], ...] | None = None
    limit: Budget | None = None
    workers: int = 1
    analysis: Analysis | None = None
    missed: tuple[str, ...] = ()

    @property
    def reached(self) -> bool:
        """True when the strategy met its target."""
        return self.stop == "reached"


Run = Callable[[Plan], Outcome]


@dataclass(frozen=True, slots=True)
class Strategy:
    """A strategy: its name, its run function and its default limit (wall-clock seconds)."""

    name: str
    run: Run
    default_seconds: float | None = None


def plural(count: int, word: str) -> str:
    """Return ``"1 trial"`` / ``"3 trials"``.

    >>> plural(1, "trial"), plural(2, "grid")
    ('1 trial', '2 grids')
    """
    return f"{count} {word}{'s' if count != 1 else ''}"


def givens_message(stop: Stop, plan: Plan, best: int, trials: int, grids: int) -> str:
    """Return the sentence of a run aiming at a number of opens.

    >>> from xlsudoku.engine.generate.request import form_of
    >>> plan = Plan.begin(GenerateRequest(), form_of(GenerateRequest()), random.Random(),
    ...                   Budget(60.0))
    >>> givens_message("time", plan, 28, 40, 9)
    'Could not reach 26 opens in 60 s (40 trials); best is 28 opens'
    """
    target = plan.request.target_givens
    t = plural(trials, "trial")
    if stop == "reached":
        return f"Reached {target} opens in {t} on {plural(grids, 'grid')} ({plan.elapsed():.2f} s)"
    if stop == "cancel":
        return f"Cancelled after {t}; best is {best} opens (target {target})"
    if stop == "time" and plan.limit is not None:
        return f"Could not reach {target} opens in {plan.limit.text()} ({t}); best is {best} opens"
    return f"Could not reach {target} opens in {t}; best is {best} opens"
