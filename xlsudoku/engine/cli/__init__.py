"""The ``xlsudoku`` engine commands; the only engine package that prints.

One module per family of commands, each listing ``COMMANDS``: ``add(subparsers)`` functions
that register a subcommand whose ``run(args) -> int`` gives the exit status.
:mod:`.puzzles` (solve, count, format), :mod:`.analysis` (grade, hint, analyze),
:mod:`.generate` (generate), :mod:`.bench` (bench); :mod:`.common` holds what they share.
``xlsudoku.addin.main`` adds the workbook commands on top of :func:`build_parser`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from xlsudoku.engine.cli import analysis, bench, generate, puzzles
from xlsudoku.engine.cli.bench import BENCH_SUITES
from xlsudoku.engine.cli.common import Interrupts, run_guarded

COMMANDS = (*analysis.COMMANDS, *generate.COMMANDS, *puzzles.COMMANDS, *bench.COMMANDS)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every engine subcommand."""
    parser = argparse.ArgumentParser(
        prog="xlsudoku",
        description="Sudoku generator, solver and grader (engine of the xlsudoku workbook).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


def _dispatch(argv: list[str], interrupts: Interrupts) -> int:
    """Parse *argv* and run its command, which may use *interrupts* (``args.interrupts``)."""
    args = build_parser().parse_args(argv)
    args.interrupts = interrupts
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the engine command line; return the exit status (see :func:`.common.run_guarded`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    return run_guarded(args, _dispatch, program=argv is None)


__all__ = ["BENCH_SUITES", "COMMANDS", "build_parser", "main"]
