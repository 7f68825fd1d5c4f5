"""Console script ``xlsudoku``: the engine commands plus the workbook commands.

Workbook commands run a button of the workbook on the file, without Excel
(:mod:`xlsudoku.addin.headless`):

- ``xlsudoku start WORKBOOK [--output PATH]``: START with the parameters in the file;
- ``xlsudoku save WORKBOOK``: SAVE TO COLLECTION; ``xlsudoku clear WORKBOOK``: CLEAR;
- ``xlsudoku import|delete|sort WORKBOOK``: the Collection tools (``import WORKBOOK FILE``
  first puts FILE into the Import from cell);
- ``xlsudoku analyze|hint|solve WORKBOOK``: the Analyze sheet's buttons.  With anything but an
  ``.xlsx``/``.xlsm`` path these three are the engine's commands on a puzzle.
- ``xlsudoku bench start``: the START benchmark (:mod:`xlsudoku.addin.bench`).

``format``, ``grade`` and ``count`` (and ``solve`` with ``--sheet``) read a workbook's puzzles
(its Collection, then its Generator puzzle) when FILE is an ``.xlsx``/``.xlsm`` path
(:mod:`xlsudoku.production.workbook_input`); ``batch`` and ``booklet`` come from
:mod:`xlsudoku.production.cli`, ``bench batch`` from :mod:`xlsudoku.production.bench`.

Every other command is the engine's (:mod:`engine.cli`).  Exit status of a workbook command: 0
done, 1 the input in the workbook was bad (the status cell says why), 2 the file cannot be used,
130 interrupted before anything was written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from xlsudoku.engine import cli
from xlsudoku.production import cli as production_cli
from xlsudoku.production.workbook_input import PARTS, is_workbook, workbook_source

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
    "Benchmark of START on the workbook: xlsudoku bench start; of batch and booklets: "
    "xlsudoku bench batch."
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
    from xlsudoku.addin.cellio import MissingPart
    from xlsudoku.addin.package import PackageError

    try:
        source = getattr(args, "source", None)
        inputs = {} if source is None else {"ImportSource": str(Path(source).resolve())}
        done = headless.run(
            args.command, args.workbook, args.output, progress=not args.quiet, inputs=inputs
        )
    except (headless.WorkbookError, MissingPart, PackageError) as error:
        print(f"xlsudoku {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            f"xlsudoku {args.command}: interrupted; {args.workbook} was not changed",
            file=sys.stderr,
        )
        return 130
    outcome = done.outcome
    print(outcome.status)
    if outcome.ok and args.command == "start":
        print(f"puzzle: {outcome.detail.puzzle}")
    print(f"saved {done.saved_to}")
    return 0 if outcome.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xlsudoku``; return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:2] == ["bench", "start"]:
        from xlsudoku.addin import bench

        return bench.main(args[2:])
    if args[:2] == ["bench", "batch"]:
        from xlsudoku.production import bench as production_bench

        return production_bench.main(args[2:])
    if args and args[0] in WORKBOOK_COMMANDS:
        asks_sheet = any(arg.startswith("--sheet") for arg in args[1:])
        if args[0] not in SHARED_WITH_ENGINE or (_names_workbook(args[1:]) and not asks_sheet):
            parsed = workbook_parser().parse_args(args)
            return int(parsed.run(parsed))
    parsed = build_parser().parse_args(args)
    if parsed.command in READS_WORKBOOKS and is_workbook(parsed.source):
        parsed.source_reader = workbook_source(parsed.sheet or "all")
    return int(parsed.run(parsed))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
