"""The progress bar of a long run on a terminal, with an estimate that can be believed.

A generator run ends at its trials or at its time limit, whichever comes first, so the time
left is the sooner of the two: the rest of the time limit, or the trials left at the pace so
far (:func:`time_left`).  The bar is drawn on standard error only when it is a terminal, or
when asked (``--progress``); a pipe or a log never gets one (:func:`wanted`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO


def time_left(elapsed: float, done: int, total: int | None, limit: float | None) -> float | None:
    """Return the seconds a run may still take, or None when nothing bounds it yet.

    The run stops at *total* steps or after *limit* seconds, whichever comes first.

    >>> time_left(6.0, 3, 299, 60.0)  # 2 s a trial: the time limit comes first
    54.0
    >>> time_left(1.0, 100, 299, 60.0)  # 10 ms a trial: the trials run out first
    1.99
    >>> time_left(1.0, 0, 299, None) is None
    True
    """
    bounds = []
    if limit is not None:
        bounds.append(max(limit - elapsed, 0.0))
    if total and done > 0:
        bounds.append(elapsed / done * max(total - done, 0))
    return min(bounds) if bounds else None


def clock(seconds: float | None) -> str:
    """Return *seconds* as ``m:ss`` (``?`` when unknown).

    >>> clock(54.0), clock(1.99), clock(None)
    ('0:54', '0:02', '?')
    """
    if seconds is None:
        return "?"
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def wanted(forced: bool, quiet: bool, stream: TextIO | None = None) -> bool:
    """Return whether to draw a bar: asked for, or *stream* (stderr) is a terminal.

    >>> import io
    >>> wanted(False, False, io.StringIO()), wanted(True, False, io.StringIO())
    (False, True)
    >>> wanted(True, True, io.StringIO())
    False
    """
    if quiet:
        return False
    target = sys.stderr if stream is None else stream
    return forced or target.isatty()


class RunBar:
    """A tqdm bar of trials whose estimate follows the time limit and the trials left.

    Call the instance with ``(trial, best opens)`` as the generator's progress callback;
    :meth:`close` ends the bar.
    """

    def __init__(
        self,
        total: int | None,
        limit: float | None,
        unit: str = "trial",
        stream: TextIO | None = None,
        now: Callable[[], float] = time.perf_counter,
    ) -> None:
        from tqdm import tqdm  # type: ignore[import-untyped]

        self.total, self.limit, self.now = total, limit, now
        self.started = now()
        self.bar: Any = tqdm(
            total=total,
            unit=unit,
            delay=1.0,
            leave=False,
            file=sys.stderr if stream is None else stream,
            bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}, {postfix}]",
        )

    def __call__(self, done: int, best: int | None = None, *rest: Any) -> None:
        """Show *done* steps and the best opens so far, with the time that may be left."""
        left = time_left(self.now() - self.started, done, self.total, self.limit)
        postfix = f"up to {clock(left)} left"
        if best is not None:
            postfix += f", best {best} opens"
        self.bar.set_postfix_str(postfix, refresh=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        """End the bar (it leaves no line behind)."""
        self.bar.close()
