"""The one signature every generation strategy has: ``run(plan) -> Outcome``.

A :class:`Plan` is everything a strategy gets (the validated request and its form, the random
source, the deadline, the progress and cancel callbacks); an :class:`Outcome` is what it gives
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

from xlsudoku.engine.generate.request import Form, GenerateRequest
from xlsudoku.engine.grid import Cell, Grid

Stop = Literal["reached", "trials", "time", "cancel", "unlikely"]
Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class Plan:
    """What a strategy works with.

    Attributes:
        request: The request (validated).
        form: Its form: fixed cells, free orbits, floor.
        rng: The random source, seeded from the request's seed.
        started: ``time.perf_counter()`` when the run began.
        limit: Seconds allowed (the request's, or the strategy's default), or None.
        progress: Called after each trial with ``(trial number, best opens so far)``.
        cancel: Polled between trials; True stops the run with the best puzzle so far.
    """

    request: GenerateRequest
    form: Form
    rng: random.Random
    started: float
    limit: float | None
    progress: Progress | None = None
    cancel: Cancel | None = None

    @property
    def deadline(self) -> float | None:
        """``time.perf_counter()`` value after which the run stops, or None."""
        return None if self.limit is None else self.started + self.limit

    def late(self) -> bool:
        """Return True when the deadline has passed."""
        deadline = self.deadline
        return deadline is not None and time.perf_counter() > deadline

    def cancelled(self) -> bool:
        """Return True when the caller asked to stop."""
        return self.cancel is not None and self.cancel()

    def elapsed(self) -> float:
        """Return the seconds since the run began."""
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
        time_limit: Seconds the strategy allowed itself when that differs from the plan's
            limit (a short search of an unlikely target), else None.
        workers: Processes that searched.
    """

    puzzle: Grid
    solution: Grid
    stop: Stop
    trials: int
    grids: int
    message: str
    untested: tuple[tuple[Cell, ...], ...] | None = None
    time_limit: float | None = None
    workers: int = 1

    @property
    def reached(self) -> bool:
        """True when the strategy met its target."""
        return self.stop == "reached"


Run = Callable[[Plan], Outcome]


@dataclass(frozen=True, slots=True)
class Strategy:
    """A strategy: its name, its run function and its time limit when the request has none."""

    name: str
    run: Run
    default_seconds: float | None = None


def plural(count: int, word: str) -> str:
    """Return ``"1 trial"`` / ``"3 trials"``.

    >>> plural(1, "trial"), plural(2, "grid")
    ('1 trial', '2 grids')
    """
    return f"{count} {word}{'s' if count != 1 else ''}"


def opens_message(stop: Stop, plan: Plan, best: int, trials: int, grids: int) -> str:
    """Return the sentence of a run aiming at a number of opens.

    >>> from xlsudoku.engine.generate.request import form_of
    >>> plan = Plan(GenerateRequest(), form_of(GenerateRequest()), random.Random(), 0.0, 60.0)
    >>> opens_message("time", plan, 28, 40, 9)
    'Could not reach 26 opens in 60 s (40 trials); best is 28 opens'
    """
    target = plan.request.opens
    t = plural(trials, "trial")
    if stop == "reached":
        return f"Reached {target} opens in {t} on {plural(grids, 'grid')} ({plan.elapsed():.2f} s)"
    if stop == "cancel":
        return f"Cancelled after {t}; best is {best} opens (target {target})"
    if stop == "time":
        return f"Could not reach {target} opens in {plan.limit:g} s ({t}); best is {best} opens"
    return f"Could not reach {target} opens in {t}; best is {best} opens"
