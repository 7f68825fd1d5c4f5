"""The process shell every command runs in: exits, Ctrl+C, closed pipes, typed errors.

Every command runs inside :func:`run_guarded`, the one place that turns what went wrong into
a message on standard error and an exit status that means one thing
(:class:`xlsudoku.errors.Exit`):

- a command raises a :class:`~xlsudoku.errors.CommandError` (``BadInput``, ``UnusableFile``,
  ``EnvironmentFault``, ``Interrupted``): its message is printed, its status returned;
- Ctrl+C at any moment prints one line and exits 130; what the line says about files comes from
  :attr:`Interrupts.state`, which a command that writes keeps true as it goes;
- a closed standard output (``xlsudoku ... | head``) ends the command quietly with status 0;
- an ``OSError`` (disk full, permission, a path too long) and ``MemoryError`` become messages;
- a command that returns a non-zero status without having printed anything on standard error
  gets a line saying what the status means, so no failure is silent.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xlsudoku.errors import (
    CommandError,
    EnvironmentFault,
    Exit,
    Interrupted,
    os_error_message,
)
from xlsudoku.interrupts import Interrupts

if TYPE_CHECKING:  # annotations only: the command modules import it for type checking
    from typing import Any, Protocol, TextIO

    class Subparsers(Protocol):
        """What ``ArgumentParser.add_subparsers()`` returns, as the command modules use it."""

        def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
            """Add the parser of subcommand *name*."""
            ...


class _WatchedStream:
    """A text stream that remembers whether anything was written to it."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.written = False

    def write(self, text: str) -> int:
        self.written = self.written or bool(text)
        return self.stream.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


# Commands whose next word names what they do (``workbook start``, ``bench se``).
NOUNS = ("workbook", "bench")


def command_name(argv: Sequence[str]) -> str:
    """Return the command of *argv* for messages: its first words that are not options.

    >>> command_name(["workbook", "start", "book.xlsm"]), command_name(["grade", "p.txt"])
    ('workbook start', 'grade')
    >>> command_name([])
    ''
    """
    words = [arg for arg in argv if not arg.startswith("-")][:2]
    name = " ".join(words if words[:1] and words[0] in NOUNS else words[:1])
    return name[:60]


INTERRUPTED = int(Exit.INTERRUPTED)


def leave_after_interrupt(status: int) -> None:
    """End the process now with *status*, its streams flushed (the program after Ctrl+C).

    The command has said what happened to its files and closed them; the interpreter's own
    shutdown is skipped, because a Ctrl+C it met there (an interrupted object finalised late)
    would end the process by the signal instead of with the status said.
    """
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


def _close_stdout() -> None:
    """Point standard output at the null device: the reader is gone (a closed pipe)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def tolerate_console_encoding(streams: Sequence[object] | None = None) -> None:
    r"""Let standard output and error write any text, whatever the console's encoding.

    A console that is not UTF-8 (a Windows code page, ``PYTHONIOENCODING=ascii``, ``LANG=C``
    on an old system) cannot encode every character a puzzle file's name or a workbook cell
    may hold; the character is written as a ``\x..`` escape rather than stopping the command
    after its work is done.  A UTF-8 stream is left as it is.

    >>> import io
    >>> out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> tolerate_console_encoding([out]); print("café", file=out); out.flush()
    >>> out.buffer.getvalue()
    b'caf\\xe9\n'
    """
    for stream in (sys.stdout, sys.stderr) if streams is None else streams:
        encoding = str(getattr(stream, "encoding", "") or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding not in ("utf8", "utf8sig") and reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def run_guarded(
    argv: Sequence[str],
    prepare: Callable[[list[str]], tuple[Callable[[Interrupts], int], str]],
    *,
    presses: Callable[[], int] | None = None,
    program: bool = False,
) -> int:
    """Run the command of *argv* with the house rules on exits; return its status.

    ``prepare(argv)`` parses the command line and returns ``(run, state)``: ``run(interrupts)``
    does the work and returns the status, *state* says what the command's files are before it
    runs (what a Ctrl+C before the command says more prints).  See the module notes.  *presses*
    counts Ctrl+C pressed before the guard was in place (they are raised once the command is
    parsed, so the message names its files).  With *program* (the console script itself)
    Ctrl+C is ignored once the status is decided, so a press while the interpreter exits
    changes nothing; otherwise the previous handler is restored.  ``SystemExit`` (``--help``,
    argparse's usage errors, status 2) passes through.
    """
    name = f"xlsudoku {command_name(argv)}".rstrip()
    if program:
        tolerate_console_encoding()
    interrupts = Interrupts()
    interrupts.program = program
    stderr = sys.stderr
    watched = _WatchedStream(stderr)
    sys.stderr = watched
    status: int = Exit.OK
    try:
        try:
            run, interrupts.state = prepare(list(argv))
            interrupts.presses = presses() if presses is not None else 0
            interrupts.install()
            status = run(interrupts)
            if interrupts.requested() and status != Exit.INTERRUPTED:
                raise Interrupted(interrupts.state or "stopped early")
            sys.stdout.flush()
        except BaseException as error:
            interrupts.raised = True  # from here on a press is only counted
            if isinstance(error, SystemExit | GeneratorExit):
                raise
            status = _failure(name, error, interrupts.state)
        if status != Exit.OK and not watched.written:
            known = Exit(status) if status in Exit._value2member_map_ else None
            meaning = known.meaning if known is not None else "failed"
            print(f"{name}: exit status {status}: {meaning}", file=stderr)
    finally:
        sys.stderr = stderr
        interrupts.closed = True
        if not program:
            interrupts.restore()
        if program and interrupts.installed():
            # The status is decided and said: from here a press changes nothing.  Ignored
            # rather than handled, because Python's shutdown puts back the default action of a
            # handled signal (a late press would kill the process with -2) but not of an
            # ignored one.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    return int(status)


def _failure(name: str, error: BaseException, state: str) -> Exit:
    """Say why the command stopped on *error*; return the status (re-raise what is a bug).

    *state* is what happened to the command's files (:attr:`Interrupts.state`).
    """
    if isinstance(error, KeyboardInterrupt):
        return _say(name, Interrupted(state))
    if isinstance(error, BrokenPipeError):
        _close_stdout()  # the reader (e.g. head) stopped reading: not a failure
        return Exit.OK
    if isinstance(error, CommandError):
        return _say(name, error)
    if isinstance(error, MemoryError):
        return _say(name, EnvironmentFault("out of memory; nothing more was written"))
    if isinstance(error, OSError):
        message, status = os_error_message(error)
        return _say(name, CommandError(message), status)
    raise error


def _say(name: str, error: CommandError, status: Exit | None = None) -> Exit:
    """Print *error* as one line on standard error; return its exit status."""
    text = " ".join(str(error).split())
    if isinstance(error, Interrupted):
        text = f"interrupted; {text}" if text else "interrupted"
    text = text or error.exit.meaning
    try:
        print(f"{name}: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # standard error is closed too: the status alone tells
    return status if status is not None else error.exit
