"""The ``xlsudoku`` command line: one parser, assembled from a tuple of command modules.

Each module of :data:`COMMAND_MODULES` lists ``COMMANDS``: functions that add a subcommand to
the one parser and set its ``run(args) -> int`` with ``set_defaults``.  A command word means one
thing: ``solve FILE`` solves the puzzles of FILE (a puzzle file or a workbook's Collection and
Generator puzzle), ``workbook solve BOOK`` presses the Analyze sheet's SOLVE on BOOK.

- :mod:`.puzzles`: solve, count, format;
- :mod:`.analysis`: grade, hint, analyze;
- :mod:`.generate`: generate;
- :mod:`.workbook`: ``workbook start|save|clear|import|delete|sort|analyze|hint|solve`` (a
  button of the workbook, run on the file without Excel);
- :mod:`.production`: batch, booklet;
- :mod:`.bench`: ``bench WHAT`` (every benchmark and the reliability soak).

Every command runs inside :func:`xlsudoku.cli.shell.run_guarded`: exit status 0 done, 1 bad
input (a puzzle, a line, a cell: the status cell and the message say which), 2 a wrong command
line, 3 a file that cannot be used, 4 the machine got in the way, 5 a goal missed, 130 Ctrl+C
(:class:`xlsudoku.errors.Exit`).  Only the standard library is imported before a command runs,
and each command imports what it needs when it runs: ``xlsudoku workbook start`` loads neither
the benchmarks nor Dask nor fpdf2.
"""

from __future__ import annotations

# Only what Ctrl+C handling needs is imported before main() counts presses: a press during the
# imports of a command would otherwise end the process with Python's own traceback.
import signal
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing on the count path

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from types import ModuleType

    from xlsudoku.interrupts import Interrupts


# The command words of each command module, in the order ``--help`` lists them.  A command line
# that starts with one of them needs only its module: ``xlsudoku count FILE`` neither imports
# the benchmarks nor builds their parsers (a tenth of the whole process on small inputs).
# ``tests/test_cli.py`` holds this table to the words the modules add.
COMMAND_WORDS: dict[str, tuple[str, ...]] = {
    "analysis": ("grade", "hint", "analyze", "explain"),
    "generate": ("generate",),
    "puzzles": ("solve", "count", "format"),
    "workbook": ("workbook",),
    "production": ("batch", "daily", "booklet", "stats"),
    "bench": ("bench",),
}


def command_modules(word: str | None = None) -> tuple[ModuleType, ...]:
    """Return the command modules, in the order ``--help`` lists their commands.

    With a command *word*, only the module that adds it (every module for an unknown word).

    >>> [m.__name__ for m in command_modules("count")]
    ['xlsudoku.cli.puzzles']
    >>> len(command_modules())
    6
    """
    import importlib

    names = [name for name, words in COMMAND_WORDS.items() if word in words] or COMMAND_WORDS
    return tuple(importlib.import_module(f"xlsudoku.cli.{name}") for name in names)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """Return the one parser: with every command, or only the one *argv* starts with.

    Parsing *argv* with either gives the same namespace, the same help and the same errors:
    a command word selects its subparser before anything else is read.

    >>> parser = build_parser()
    >>> parser.parse_args(["workbook", "start", "book.xlsm"]).button
    'start'
    >>> build_parser(["solve", "book.xlsm"]).parse_args(["solve", "book.xlsm"]).command
    'solve'
    """
    import argparse

    parser = argparse.ArgumentParser(
        prog="xlsudoku",
        description="Symmetric Sudoku generator, solver and grader, and the xlsudoku workbook "
        "without Excel.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in command_modules(argv[0] if argv else None):
        for add in module.COMMANDS:
            add(sub)
    return parser


def _prepare(argv: list[str]) -> tuple[Callable[[Interrupts], int], str]:
    """Parse *argv*; return its command's run (given the command's Ctrl+C) and first state.

    A command that writes files sets ``first_state`` (``args -> str``): what its files are
    before it runs, said if Ctrl+C comes first.
    """
    args = build_parser(argv).parse_args(argv)
    args.argv = list(argv)
    args.main = main  # the entry itself, for a tool that runs command lines in-process
    first_state: Callable[[argparse.Namespace], str] | None = getattr(args, "first_state", None)

    def run(interrupts: Interrupts) -> int:
        args.interrupts = interrupts
        command: Callable[[argparse.Namespace], int] = args.run
        return int(command(args))

    return run, first_state(args) if first_state is not None else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xlsudoku``; return the exit status.

    Without *argv* this is the program itself (``sys.argv``): Ctrl+C is counted from the first
    line on, before anything else is imported, and stays handled until the interpreter exits.
    """
    presses: list[int] = []
    previous = None
    try:
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # ignored, as a job started
            # with & in a script is: leave it so
            previous = signal.signal(signal.SIGINT, lambda signum, frame: presses.append(signum))
    except ValueError:  # not the main thread: signals are not ours to handle
        pass
    try:
        from xlsudoku.cli.shell import INTERRUPTED, leave_after_interrupt, run_guarded

        args = list(sys.argv[1:] if argv is None else argv)
        status = run_guarded(args, _prepare, presses=presses.__len__, program=argv is None)
    finally:
        if argv is not None and previous is not None:
            signal.signal(signal.SIGINT, previous)
    if argv is None and status == INTERRUPTED:
        leave_after_interrupt(status)
    return status


__all__ = ["build_parser", "command_modules", "main"]
