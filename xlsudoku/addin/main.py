"""Console script ``xlsudoku``: the engine commands plus the workbook commands.

Workbook commands run a button of the workbook on the file, without Excel
(:mod:`xlsudoku.addin.headless`):

- ``xlsudoku start WORKBOOK [--output PATH]``: START with the parameters in the file;
- ``xlsudoku save WORKBOOK``: SAVE TO COLLECTION; ``xlsudoku clear WORKBOOK``: CLEAR;
- ``xlsudoku import|delete|sort WORKBOOK``: the Collection tools (``import WORKBOOK FILE``
  first puts FILE into the Import from cell);
- ``xlsudoku analyze|hint|solve WORKBOOK``: the Analyze sheet's buttons.  With anything but an
  ``.xlsx``/``.xlsm`` path these three are the engine's commands on a puzzle.
- ``xlsudoku bench start``: the START benchmark (:mod:`xlsudoku.addin.bench`);
  ``xlsudoku bench soak``: the reliability soak (:mod:`xlsudoku.addin.soak`).

``format``, ``grade`` and ``count`` (and ``solve`` with ``--sheet``) read a workbook's puzzles
(its Collection, then its Generator puzzle) when FILE is an ``.xlsx``/``.xlsm`` path
(:mod:`xlsudoku.production.workbook_input`); ``batch`` and ``booklet`` come from
:mod:`xlsudoku.production.cli`, ``bench batch`` from :mod:`xlsudoku.production.bench`.

Every other command is the engine's (:mod:`engine.cli`).  Every command runs inside
:func:`xlsudoku.engine.cli.common.run_guarded`: exit status 0 done, 1 bad input (a puzzle, a
line, a cell: the status cell and the message say which), 2 a wrong command line, 3 a file that
cannot be used (missing, damaged, over a limit, read-only, a broken layout), 4 the machine got in
the way (disk full, permissions, out of memory, another run holding the file too long), 5 a
benchmark missed its goal, 130 Ctrl+C (the message says what happened to the file).  Every
non-zero status comes with a message on standard error; Ctrl+C never shows a traceback, from the
first module loaded on, and a closed output pipe (``| head``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlsudoku.engine.cli.common import Interrupts

WORKBOOK_COMMANDS: dict[str, str] = {
    "start": "START: generate a puzzle with the parameters in the workbook",
    "save": "SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection",
    "clear": "CLEAR: blank the puzzle, solution and statistics",
    "import": "IMPORT: add the puzzles of the file (or text) in Import from to the Collection",
    "delete": "DELETE: move the Collection rows listed in Delete ids to the Removed sheet",
    "sort": "SORT: reorder the Collection's rows by the Sort by column",
    "analyze": "ANALYZE: check, count and grade the puzzle on the Analyze sheet",
    "hint": "HINT: the next hint for the puzzle on the Analyze sheet",
    "solve": "SOLVE: write the solution of the puzzle on the Analyze sheet",
}
# Engine commands of the same name that take a puzzle instead of a workbook.
SHARED_WITH_ENGINE = ("analyze", "hint", "solve")
# Engine commands that read a workbook's puzzles (Collection, Generator) as their input.
READS_WORKBOOKS = ("format", "grade", "count", "solve")

EPILOG = (
    "workbook commands (run a button on the file, without Excel): "
    + "; ".join(f"{name} WORKBOOK" for name in WORKBOOK_COMMANDS)
    + " (analyze, hint and solve with an .xlsx/.xlsm path). "
    "Benchmarks on the workbook: xlsudoku bench start (START end to end), xlsudoku bench soak "
    "(reliability: concurrent writers, kills, Ctrl+C, hostile files, fuzzing); of batch and "
    "booklets: xlsudoku bench batch."
)


def _add_workbook_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str
) -> None:
    p = sub.add_parser(name, help=WORKBOOK_COMMANDS[name], description=WORKBOOK_COMMANDS[name])
    p.add_argument("workbook", metavar="WORKBOOK", help="the .xlsm (or .xlsx) workbook file")
    if name == "import":
        p.add_argument(
            "source",
            metavar="FILE",
            nargs="?",
            help="a puzzle file to import (default: what the Import from cell names)",
        )
    p.add_argument(
        "--output",
        metavar="PATH",
        help="write the result to PATH (.xlsm/.xlsx) and leave WORKBOOK unchanged",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for another xlsudoku run writing the same file (default 60)",
    )
    p.set_defaults(run=_run_workbook_command, command=name)


def workbook_parser() -> argparse.ArgumentParser:
    """Return the parser of the workbook commands alone."""
    parser = argparse.ArgumentParser(prog="xlsudoku", description="Run a workbook button.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in WORKBOOK_COMMANDS:
        _add_workbook_command(sub, name)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """Return the engine's parser with START, SAVE and CLEAR added (for ``--help``)."""
    from xlsudoku.engine import cli
    from xlsudoku.production import cli as production_cli
    from xlsudoku.production.workbook_input import PARTS

    parser = cli.build_parser()
    parser.epilog = EPILOG
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name in WORKBOOK_COMMANDS:
                if name not in action.choices:
                    _add_workbook_command(action, name)
            for add in production_cli.COMMANDS:
                add(action)
            for name in READS_WORKBOOKS:
                action.choices[name].add_argument(
                    "--sheet",
                    choices=PARTS,
                    default=None,
                    help="with a workbook (.xlsx/.xlsm): read its Collection, its Generator "
                    "puzzle, or all (default for a workbook; solve needs it, since "
                    "'solve WORKBOOK' alone is the Analyze sheet's SOLVE button)",
                )
    return parser


def _names_workbook(rest: Sequence[str]) -> bool:
    from xlsudoku.addin.headless import is_workbook_path

    positional = [arg for arg in rest if not arg.startswith("-")]
    return bool(positional) and is_workbook_path(positional[0])


def _run_workbook_command(args: argparse.Namespace) -> int:
    from xlsudoku.addin import headless

    def say_waiting(seconds: float) -> None:
        print(
            f"xlsudoku {args.command}: {args.output or args.workbook} is being written by another "
            f"xlsudoku run; waiting for it (up to {seconds:g} s)",
            file=sys.stderr,
            flush=True,
        )

    source = getattr(args, "source", None)
    inputs = {} if source is None else {"ImportSource": str(Path(source).resolve())}
    done = headless.run(
        args.command,
        args.workbook,
        args.output,
        progress=not args.quiet,
        interrupts=args.interrupts,
        wait=args.wait,
        on_wait=say_waiting,
        inputs=inputs,
    )
    outcome = done.outcome
    print(outcome.status)
    if outcome.ok and args.command == "start":
        print(f"puzzle: {outcome.detail.puzzle}")
    print(f"saved {done.saved_to}")
    if not outcome.ok:
        print(f"xlsudoku {args.command}: {outcome.status}", file=sys.stderr)
    return 0 if outcome.ok else 1


def _bench_start(argv: list[str]) -> int:
    from xlsudoku.addin import bench

    return bench.main(argv)


def _bench_soak(argv: list[str]) -> int:
    from xlsudoku.addin import soak

    return soak.main(argv)


def _bench_batch(argv: list[str]) -> int:
    from xlsudoku.production import bench as production_bench

    return production_bench.main(argv)


# ``xlsudoku bench WHAT`` benchmarks beyond the engine's (those are in engine.cli): the workbook
# and the production of puzzles.
WORKBOOK_BENCHES: dict[str, Callable[[list[str]], int]] = {
    "start": _bench_start,
    "soak": _bench_soak,
    "batch": _bench_batch,
}


def _dispatch(argv: list[str], interrupts: Interrupts) -> int:
    """Parse *argv* and run its command (a workbook command, a workbook benchmark, the engine's)."""
    from xlsudoku.production.workbook_input import is_workbook, workbook_source

    if argv[:1] == ["bench"] and argv[1:2] and argv[1] in WORKBOOK_BENCHES:
        return WORKBOOK_BENCHES[argv[1]](argv[2:])
    if argv and argv[0] in WORKBOOK_COMMANDS:
        asks_sheet = any(arg.startswith("--sheet") for arg in argv[1:])
        if argv[0] not in SHARED_WITH_ENGINE or (_names_workbook(argv[1:]) and not asks_sheet):
            parsed = workbook_parser().parse_args(argv)
            parsed.interrupts = interrupts
            return int(parsed.run(parsed))
    parsed = build_parser().parse_args(argv)
    parsed.interrupts = interrupts
    if parsed.command in READS_WORKBOOKS and is_workbook(parsed.source):
        parsed.source_reader = workbook_source(parsed.sheet or "all")
    return int(parsed.run(parsed))


def _first_state(argv: Sequence[str]) -> str:
    """Return what a workbook command's file is before anything runs (for an early Ctrl+C).

    >>> _first_state(["start", "book.xlsm"]), _first_state(["save", "b.xlsm", "--output", "o.xlsm"])
    ('book.xlsm was not changed', 'nothing was written to o.xlsm')
    >>> _first_state(["solve", "p.txt"])
    ''
    """
    if not argv or argv[0] not in WORKBOOK_COMMANDS:
        return ""
    rest = list(argv[1:])
    if "--output" in rest[:-1]:
        return f"nothing was written to {rest[rest.index('--output') + 1]}"
    paths = [arg for arg in rest if not arg.startswith("-")]
    return f"{paths[0]} was not changed" if paths and _names_workbook(paths) else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xlsudoku``; return the exit status.

    Without *argv* this is the program itself (``sys.argv``): Ctrl+C is counted from the first
    line on, before the engine is imported, and stays handled until the interpreter exits.
    """
    presses: list[int] = []
    previous = None
    with contextlib.suppress(ValueError):  # not the main thread: signals are not ours to handle
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # ignored, as a job started
            # with & in a script is: leave it so
            previous = signal.signal(signal.SIGINT, lambda signum, frame: presses.append(signum))
    try:
        from xlsudoku.engine.cli.common import run_guarded

        args = list(sys.argv[1:] if argv is None else argv)
        return run_guarded(
            args, _dispatch, presses=presses.__len__, program=argv is None, state=_first_state(args)
        )
    finally:
        if argv is not None and previous is not None:
            signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
