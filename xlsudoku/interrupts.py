"""Ctrl+C (SIGINT) for one command: what a press does, and what to say about the files.

Every layer that runs long or writes files may take an :class:`Interrupts`: the generator's
cancel hook reads :meth:`Interrupts.requested`, the file library shields the moment a file is
replaced (:meth:`Interrupts.shielded`), and the command line's shell says
:attr:`Interrupts.state` after an interrupt.  :func:`cut_when` bounds code that takes no stop
hook of its own (the engine's grading) by one: a press or a deadline cuts it short.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType


class Interrupts:
    """Ctrl+C (SIGINT) for one command: what a press does, and what to say about the files.

    By default the first press raises ``KeyboardInterrupt`` where the command is; every later
    press is only counted, so cleaning up and printing the message are never cut short.
    Inside :meth:`cooperative` the first press only asks the command to stop (see
    :meth:`requested`) and a second one raises; inside :meth:`shielded` (the moment a file is
    replaced) presses are counted and raised when the block is over.  :attr:`state` says what
    happened to the command's files so far; the message after an interrupt prints it.  With
    :attr:`program` (the process is the command) an interrupt also silences the complaints of
    objects it left half done when they are collected.

    >>> interrupts = Interrupts()
    >>> with interrupts.cooperative():
    ...     interrupts.press()
    >>> interrupts.requested()
    True
    """

    def __init__(self, presses: int = 0) -> None:
        self.presses = presses
        self.raised = False
        self.closed = False
        self.program = False
        self.state = ""
        self._cooperative = 0
        self._shielded = 0
        self._previous: object = None

    def requested(self) -> bool:
        """Return True once Ctrl+C was pressed."""
        return self.presses > 0

    def _due(self) -> bool:
        """Return True when the presses so far call for raising ``KeyboardInterrupt`` now."""
        if self.raised or self.closed or self._shielded:
            return False
        return self.presses > (1 if self._cooperative else 0)

    def press(self) -> None:
        """Count one Ctrl+C and raise ``KeyboardInterrupt`` when it is due."""
        self.presses += 1
        if self._due():
            self._raise()

    def _raise(self) -> None:
        """Raise ``KeyboardInterrupt`` (once); from now on later presses are only counted."""
        self.raised = True
        if self.program:
            # Objects the interrupt leaves half done (a zip being written) would complain when
            # collected; the one line after the interrupt already says what happened to files.
            sys.unraisablehook = quiet_unraisable
        raise KeyboardInterrupt

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.press()

    def install(self) -> None:
        """Make SIGINT call :meth:`press` (in the main thread, unless SIGINT is ignored).

        A process started with SIGINT ignored (a job started with ``&`` by a script) keeps
        ignoring it, as Python itself does.
        """
        with contextlib.suppress(ValueError):
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                self._previous = signal.signal(signal.SIGINT, self._handle)
        if self.presses and self._due():  # pressed before the handler was in place
            self._raise()

    def installed(self) -> bool:
        """Return True when :meth:`install` put the handler in place (and it is not restored)."""
        return self._previous is not None

    def restore(self) -> None:
        """Put back the SIGINT handler that was there before :meth:`install`."""
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]
            self._previous = None

    @contextlib.contextmanager
    def cooperative(self) -> Iterator[Interrupts]:
        """Within the block, a first press asks to stop (:meth:`requested`); a second raises."""
        self._cooperative += 1
        try:
            yield self
        finally:
            self._cooperative -= 1

    @contextlib.contextmanager
    def shielded(self) -> Iterator[Interrupts]:
        """Within the block, presses wait: one that came is raised when the block ends."""
        self._shielded += 1
        try:
            yield self
        finally:
            self._shielded -= 1
        if self._due():
            self._raise()


@contextlib.contextmanager
def handled(given: Interrupts | None = None) -> Iterator[Interrupts]:
    """Yield *given*, or else an :class:`Interrupts` installed for the block and then restored.

    A command line passes its own; a run called from a program gets one for its duration.
    """
    if given is not None:
        yield given
        return
    own = Interrupts()
    own.install()
    try:
        yield own
    finally:
        own.closed = True
        own.restore()


class Cut(BaseException):
    """A stop hook said stop inside a block run under :func:`cut_when`.

    A ``BaseException`` like ``KeyboardInterrupt``, so no ``except Exception`` of the code cut
    short swallows it.
    """


# Seconds between two looks at a stop hook inside cut_when: Ctrl+C and a deadline are answered
# within about this.
CUT_POLL_SECONDS = 0.1


@contextlib.contextmanager
def cut_when(stop: Callable[[], bool], every: float = CUT_POLL_SECONDS) -> Iterator[None]:
    """Within the block, raise :class:`Cut` as soon as *stop* says so (looked at every *every* s).

    For code that takes no stop hook of its own, such as the engine's grading of a big puzzle:
    a timer signal looks at *stop* while it runs.  Where there is no timer signal (Windows) or
    outside the main thread, the block runs to its end.

    >>> import time
    >>> try:
    ...     with cut_when(lambda: True):
    ...         time.sleep(5)
    ... except Cut:
    ...     print("cut")
    cut
    """
    timer = getattr(signal, "SIGALRM", None)
    if timer is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def look(signum: int, frame: FrameType | None) -> None:
        if stop():
            raise Cut

    if stop():
        raise Cut
    previous = signal.signal(timer, look)
    signal.setitimer(signal.ITIMER_REAL, every, every)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(timer, previous)


def quiet_unraisable(unraisable: object) -> None:
    """Say nothing about an exception raised while an object is collected."""
