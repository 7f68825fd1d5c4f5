"""What the commands share: the input argument, output formats, errors, exits and Ctrl+C.

Every command runs inside :func:`run_guarded`, the one place that turns what went wrong into
a message on standard error and an exit status that means one thing (:class:`Exit`):

- a command raises a :class:`CommandError` (:class:`BadInput`, :class:`UnusableFile`,
  :class:`EnvironmentFault`, :class:`Interrupted`): its message is printed, its status returned;
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
import enum
import errno
import os
import signal
import sys
import typing
from collections.abc import Callable, Iterator, Sequence
from types import FrameType

if typing.TYPE_CHECKING:
    from xlsudoku.engine.formats import PuzzleRecord

    Subparsers: typing.TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # argparse's class is not subscriptable at run time
    Subparsers = argparse._SubParsersAction


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


class EnvironmentFault(CommandError):
    """The machine got in the way: disk full, out of memory, no permission, a busy file."""

    exit = Exit.ENVIRONMENT


class Interrupted(CommandError):
    """Ctrl+C stopped the command; the message says what happened to its files."""

    exit = Exit.INTERRUPTED


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
            sys.unraisablehook = _quiet
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


class _WatchedStream:
    """A text stream that remembers whether anything was written to it."""

    def __init__(self, stream: typing.TextIO) -> None:
        self.stream = stream
        self.written = False

    def write(self, text: str) -> int:
        self.written = self.written or bool(text)
        return self.stream.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def command_name(argv: Sequence[str]) -> str:
    """Return the command of *argv* for messages: its first word that is not an option.

    >>> command_name(["--quiet", "start", "book.xlsm"]), command_name([])
    ('start', '')
    """
    return next((arg for arg in argv if not arg.startswith("-")), "")[:40]


def os_error_message(error: OSError) -> tuple[str, Exit]:
    """Return the message and exit status for an ``OSError`` a command did not expect.

    >>> os_error_message(OSError(errno.ENOSPC, "No space left on device", "out.xlsm"))
    ('out.xlsm: no space left on the device; nothing more was written', <Exit.ENVIRONMENT: 4>)
    >>> os_error_message(OSError(errno.ENAMETOOLONG, "File name too long", "x" * 300))[1]
    <Exit.UNUSABLE_FILE: 3>
    """
    where = f"{_short(str(error.filename))}: " if error.filename is not None else ""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"{where}no space left on the device; nothing more was written", Exit.ENVIRONMENT
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{where}permission denied ({error.strerror})", Exit.ENVIRONMENT
    if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP):
        return f"{where}{(error.strerror or 'cannot be used').lower()}", Exit.UNUSABLE_FILE
    return f"{where}{error.strerror or error}", Exit.ENVIRONMENT


def _short(text: str, limit: int = 80) -> str:
    """Return *text*, cut in the middle when longer than *limit* characters.

    >>> _short("a" * 100, 10)
    'aaaa…aaaaa'
    """
    return text if len(text) <= limit else text[: limit // 2 - 1] + "…" + text[-(limit // 2) :]


def _close_stdout() -> None:
    """Point standard output at the null device: the reader is gone (a closed pipe)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def run_guarded(
    argv: Sequence[str],
    command: Callable[[list[str], Interrupts], int],
    *,
    presses: Callable[[], int] | None = None,
    program: bool = False,
    state: str = "",
) -> int:
    """Run *command* (``command(argv, interrupts) -> status``) with the house rules on exits.

    See the module notes.  *presses* counts Ctrl+C pressed before the guard was in place;
    *state* is what to say about the files if Ctrl+C comes before the command says more.
    With *program* (the console script itself) Ctrl+C is ignored once the status is decided,
    so a press while the interpreter exits changes nothing; otherwise the previous handler is
    restored.
    ``SystemExit`` (``--help``, argparse's usage errors, status 2) passes through.
    """
    name = f"xlsudoku {command_name(argv)}".rstrip()
    interrupts = Interrupts(presses() if presses is not None else 0)
    interrupts.state = state
    interrupts.program = program
    stderr = sys.stderr
    watched = _WatchedStream(stderr)
    sys.stderr = watched
    status: int = Exit.OK
    try:
        try:
            interrupts.install()
            status = command(list(argv), interrupts)
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


def _quiet(unraisable: object) -> None:
    """Say nothing about an exception raised while an object is collected."""


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


# -- reading puzzles -----------------------------------------------------------------------------


def decode_text(data: bytes, where: str) -> str:
    r"""Return *data* as UTF-8 text (a leading byte-order mark dropped), naming a bad line.

    >>> decode_text(b"\xef\xbb\xbf12.", "p.txt")
    '12.'
    >>> decode_text(b"123\n45\xff", "p.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.engine.cli.common.BadInput: p.txt line 2, column 3: byte 0xff is not UTF-8 text ...
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise BadInput(
            f"{where} line {line}, column {column}: byte 0x{data[error.start]:02x} is not UTF-8 "
            "text (a puzzle file is text)"
        ) from None


def _read_stdin() -> str:
    """Return standard input as text, naming the line of a byte that is not UTF-8."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    return decode_text(buffer.read(), "standard input")


def _file_kind(text: str) -> str:
    """Return ``"file"``, ``"special"`` (a folder, pipe or device) or ``""`` (nothing there).

    Never opens the path (a pipe would block) and never raises for a name that cannot be a
    path (too long, a NUL byte): such a name is nothing there.

    >>> _file_kind(__file__), _file_kind("/"), _file_kind("x" * 5000)
    ('file', 'special', '')
    """
    import stat

    try:
        mode = os.stat(text).st_mode
    except (OSError, ValueError):
        return ""
    return "file" if stat.S_ISREG(mode) else "special"


def _read_file(path: str) -> str:
    """Return the text of the puzzle file at *path* (special files refused, bad bytes named)."""
    from pathlib import Path

    if _file_kind(path) == "special":
        raise UnusableFile(f"{_short(path)}: not a regular file (a folder, pipe or device)")
    data = Path(path).read_bytes()
    if data.startswith(b"PK\x03\x04"):
        raise BadInput(
            f"{_short(path)}: not a text puzzle file but a zip package, such as a workbook "
            "(the xlsudoku command reads .xlsx/.xlsm workbooks)"
        )
    return decode_text(data, _short(path))


def read_puzzle_arg(text: str) -> str:
    """Return the puzzle text of a PUZZLE argument: the text itself, a file's contents or stdin."""
    if text == "-":
        return _read_stdin()
    if _file_kind(text):
        return _read_file(text)
    return text


FORMAT_NAMES = ("line", "sdm", "sdk", "ss", "grid", "csv", "json")


def add_input(p: argparse.ArgumentParser) -> None:
    """Add FILE (a file, - for standard input, or a puzzle), ``--csv`` and ``--geometry``."""
    from xlsudoku.engine.cli.inputs import add_geometry

    p.add_argument(
        "source",
        nargs="?",
        default="-",
        metavar="FILE",
        help="puzzle file, - for standard input (default), or a puzzle itself; one-line "
        "puzzles (one per line, first field), drawings, .sdk, .ss, .sdm, TSV, CSV or JSON",
    )
    p.add_argument(
        "--csv", action="store_true", help="read the input as CSV (automatic for *.csv files)"
    )
    add_geometry(p)


def add_output_format(p: argparse.ArgumentParser, default: str = "line") -> None:
    """Add ``--format`` with the puzzle formats the engine writes."""
    p.add_argument(
        "--format",
        choices=FORMAT_NAMES,
        default=default,
        help=f"output style (default {default}): line (81 characters, . for blanks), "
        "sdm (0 for blanks), sdk, ss (Simple Sudoku), grid (a picture), csv, json (one object "
        "per line, with the geometry and the .sdk info)",
    )


def read_records(args: argparse.Namespace, validate: bool = True) -> list[PuzzleRecord]:
    """Return the records (line, grid or error, .sdk info) of the puzzles of the command's input.

    The puzzles are read on ``--geometry`` when given.  ``args.source_reader``, when set,
    reads FILE instead: the console script passes one for workbooks (``(path, validate) ->
    [(label, Grid | SudokuError)]``, the label naming the cell; it raises SudokuError when the
    file cannot be read).

    Raises:
        UnusableFile: FILE is neither a file nor a puzzle, is a folder, pipe or device, or is a
            workbook the reader cannot read.
        BadInput: the file holds bytes that are not UTF-8 text (the line is named).
    """
    from xlsudoku.engine.cli.inputs import looks_like_puzzle
    from xlsudoku.engine.formats import PuzzleRecord
    from xlsudoku.engine.formats import read_records as read
    from xlsudoku.engine.grid import SudokuError

    source: str = args.source
    reader = getattr(args, "source_reader", None)
    if reader is not None:
        try:
            return [PuzzleRecord(label, result) for label, result in reader(source, validate)]
        except SudokuError as error:
            raise UnusableFile(str(error)) from None
    name = "stdin.csv" if args.csv else ""
    if source == "-":
        text = _read_stdin()
    elif _file_kind(source):
        text = _read_file(source)
        name = source + (".csv" if args.csv else "")
    elif looks_like_puzzle(source):
        text = source  # a puzzle given on the command line
    else:
        raise UnusableFile(f"no such file (and not a puzzle): {_short(source)}")
    geometry = getattr(args, "geometry", None)
    return list(read(text, name, geometry=geometry, validate=validate))


def read_source(args: argparse.Namespace, validate: bool = True) -> list[tuple[int | str, object]]:
    """Return ``(line, Grid | SudokuError)`` for each puzzle of the command's input.

    Raises:
        UnusableFile: see :func:`read_records`.
        BadInput: see :func:`read_records`.
    """
    return [(record.line, record.result) for record in read_records(args, validate)]


def report_bad(line: int | str, error: object) -> None:
    """Print a bad input line (or the cell a label names) and why on standard error."""
    print(f"{line}: {error}" if isinstance(line, str) else f"line {line}: {error}", file=sys.stderr)
