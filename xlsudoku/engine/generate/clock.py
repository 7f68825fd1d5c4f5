"""The clock of a run: its limit (wall-clock, CPU or counted work) and the cancel hook.

Every search of a run counts its work on one :class:`Clock`: :meth:`Clock.tick` adds *ticks*,
and every ``POLL_TICKS`` of them the clock looks at its limit and at the cancel hook and raises
:class:`Stopped` when either says stop.  The searches catch it and return their best so far.

A tick is one node of the low-clue search (or one uniqueness test of a descent); a call of the
exact solver counts ``SOLVER_TICKS`` ticks for each of its steps (:meth:`Clock.solver`: the
call itself and each guess on 9x9, each node on other shapes), so the ticks follow the CPU time
the search spends.  ``WORK_TICKS``
ticks make one *work unit*, about a second of CPU time of the machine that measured them.  A
budget of work (:class:`~.request.Budget`) is then a limit every machine agrees on: it stops a
seeded run at the same tick, so the same seed gives the same puzzle under any load.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from xlsudoku.engine.generate.request import Budget, BudgetKind

# The limit and the cancel hook are looked at every this many ticks.
POLL_TICKS = 64

# Ticks in a work unit: measured, a tick (a node of the low-clue search with its share of the
# bookkeeping) takes about 10 us of CPU, so a unit is about a second.
WORK_TICKS = 100_000

# Ticks of one step of the exact solver (a call or a guess on 9x9, a node on other shapes):
# measured about 40 us for a step of the low-clue search's checks on 9x9 (a 16x16 node costs
# about twice that).
SOLVER_TICKS = 3

Cancel = Callable[[], bool]


class Stopped(Exception):
    """The limit was reached or the cancel hook said stop."""


class Clock:
    """Counts the ticks of a run and stops it at its limit or when the cancel hook says so.

    Args:
        deadline: Value of *read* after which the run is late, or None.
        cancel: Polled with the limit; True stops the run.
        read: The clock *deadline* is read on (``time.perf_counter`` or
            ``time.process_time``).
        work: Ticks after which the run is late, or None.
        count: Ticks already spent (a clock narrowed from another keeps its count).

    >>> clock = Clock(work=200)
    >>> for _ in range(3):
    ...     clock.tick(64)
    >>> clock.late(), clock.count
    (False, 192)
    >>> try:
    ...     clock.tick(64)
    ... except Stopped:
    ...     print("stopped at", clock.count)
    stopped at 256
    """

    __slots__ = ("cancel", "count", "deadline", "next_poll", "read", "work")

    def __init__(
        self,
        deadline: float | None = None,
        cancel: Cancel | None = None,
        *,
        read: Callable[[], float] = time.perf_counter,
        work: int | None = None,
        count: int = 0,
    ) -> None:
        self.deadline = deadline
        self.cancel = cancel
        self.read = read
        self.work = work
        self.count = count
        self.next_poll = count + POLL_TICKS

    @classmethod
    def start(
        cls,
        limit: Budget | None,
        cancel: Cancel | None = None,
        *,
        wall: float | None = None,
        cpu: float | None = None,
        count: int = 0,
    ) -> Clock:
        """Return a clock for *limit* counted from the moments *wall* and *cpu* (else now).

        *wall* is a ``time.perf_counter()`` value, *cpu* a ``time.process_time()`` value;
        *count* ticks are already spent (a work limit counts them too).

        >>> Clock.start(Budget(2.0, BudgetKind.WORK)).work == 2 * WORK_TICKS
        True
        >>> Clock.start(Budget(5.0), wall=100.0).deadline
        105.0
        """
        if limit is None:
            return cls(None, cancel, count=count)
        if limit.kind is BudgetKind.WORK:
            return cls(None, cancel, work=count + round(limit.amount * WORK_TICKS), count=count)
        if limit.kind is BudgetKind.CPU:
            begun = time.process_time() if cpu is None else cpu
            return cls(begun + limit.amount, cancel, read=time.process_time, count=count)
        begun = time.perf_counter() if wall is None else wall
        return cls(begun + limit.amount, cancel, count=count)

    def tick(self, ticks: int = 1) -> None:
        """Count *ticks* of work; poll the limit and the cancel hook every ``POLL_TICKS``.

        Raises:
            Stopped: the limit was reached or the cancel hook said stop.
        """
        self.count += ticks
        if self.count >= self.next_poll:
            self.poll()

    def solver(self, steps: int) -> None:
        """Count *steps* of the exact solver (its work callback, :data:`.solver.Work`)."""
        self.tick(steps * SOLVER_TICKS)

    def late(self) -> bool:
        """Return True when the limit has been reached."""
        if self.work is not None and self.count >= self.work:
            return True
        return self.deadline is not None and self.read() > self.deadline

    def cancelled(self) -> bool:
        """Return True when the cancel hook says stop."""
        return self.cancel is not None and self.cancel()

    def poll(self) -> None:
        """Raise :class:`Stopped` when the limit has been reached or the cancel hook says stop."""
        self.next_poll = self.count + POLL_TICKS
        if self.late() or self.cancelled():
            raise Stopped

    def remaining(self) -> float | None:
        """Return what is left of the limit (seconds, or work units), or None for no limit.

        >>> Clock(work=3 * WORK_TICKS, count=WORK_TICKS).remaining()
        2.0
        """
        if self.work is not None:
            return max(0, self.work - self.count) / WORK_TICKS
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.read())


__all__ = [
    "POLL_TICKS",
    "SOLVER_TICKS",
    "WORK_TICKS",
    "Clock",
    "Stopped",
]
