"""Typed errors every layer may raise, and the exit status each one means.

A command raises a :class:`CommandError` (:class:`BadInput`, :class:`UnusableFile`,
:class:`EnvironmentFault`, :class:`Interrupted`) with a message that names the cell, line or
argument; the command line's shell (:mod:`xlsudoku.cli.shell`) prints it on one line and
returns its :class:`Exit` status.  The engine's own errors
(:class:`xlsudoku.engine.grid.SudokuError`) and the file library's
(:mod:`xlsudoku.xlsm.errors`) are turned into these by the layer that knows what the user asked
for.
"""

from __future__ import annotations

import enum
import errno


class Exit(enum.IntEnum):
    """Exit statuses of every ``xlsudoku`` command; each means one thing.

    >>> int(Exit.INTERRUPTED), Exit.UNUSABLE_FILE.meaning
    (130, 'a file cannot be used')
    """

    OK = 0
    BAD_INPUT = 1
    USAGE = 2
    UNUSABLE_FILE = 3
    ENVIRONMENT = 4
    GOAL_NOT_MET = 5
    INTERRUPTED = 130

    @property
    def meaning(self) -> str:
        """Return what the status says, in a few words."""
        return _MEANINGS[self]


_MEANINGS = {
    Exit.OK: "done",
    Exit.BAD_INPUT: "the input was bad (a puzzle, a line of a file or a cell)",
    Exit.USAGE: "the command line was wrong",
    Exit.UNUSABLE_FILE: "a file cannot be used",
    Exit.ENVIRONMENT: "the machine got in the way (disk, memory, permissions, a busy file)",
    Exit.GOAL_NOT_MET: "a goal was missed: a benchmark's (the figures above say which) or a "
    "generated puzzle's target (opens, level or technique)",
    Exit.INTERRUPTED: "interrupted",
}


class CommandError(Exception):
    """A command cannot go on; the message says why and :attr:`exit` which status to return."""

    exit: Exit = Exit.BAD_INPUT


class BadInput(CommandError):
    """A puzzle, a line of a file or a cell holds something the command cannot take."""

    exit = Exit.BAD_INPUT


class UnusableFile(CommandError):
    """A file cannot be used: missing, special, damaged, over a limit, or read-only."""

    exit = Exit.UNUSABLE_FILE


class MissingExtra(RuntimeError):
    """A picture or chart needs matplotlib, which the ``charts`` extra installs."""


class EnvironmentFault(CommandError):
    """The machine got in the way: disk full, out of memory, no permission, a busy file."""

    exit = Exit.ENVIRONMENT


class Interrupted(CommandError):
    """Ctrl+C stopped the command; the message says what happened to its files."""

    exit = Exit.INTERRUPTED


def os_error_message(error: OSError) -> tuple[str, Exit]:
    """Return the message and exit status for an ``OSError`` a command did not expect.

    >>> os_error_message(OSError(errno.ENOSPC, "No space left on device", "out.xlsm"))
    ('out.xlsm: no space left on the device; nothing more was written', <Exit.ENVIRONMENT: 4>)
    >>> os_error_message(OSError(errno.ENAMETOOLONG, "File name too long", "x" * 300))[1]
    <Exit.UNUSABLE_FILE: 3>
    """
    where = f"{shorten(str(error.filename))}: " if error.filename is not None else ""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{where}no space left on the device; nothing more was written", Exit.ENVIRONMENT
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{where}permission denied ({error.strerror})", Exit.ENVIRONMENT
    if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP):
        return f"{where}{(error.strerror or 'cannot be used').lower()}", Exit.UNUSABLE_FILE
    return f"{where}{error.strerror or error}", Exit.ENVIRONMENT


def shorten(text: str, limit: int = 80) -> str:
    """Return *text*, cut in the middle when longer than *limit* characters.

    >>> shorten("a" * 100, 10)
    'aaaa…aaaaa'
    """
    return text if len(text) <= limit else text[: limit // 2 - 1] + "…" + text[-(limit // 2) :]
