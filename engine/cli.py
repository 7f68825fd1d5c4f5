"""The ``xlsudoku`` engine commands; the only engine module that prints.

Each command is a pair ``_add_<name>(subparsers)`` / ``_run_<name>(args) -> int`` listed in
``COMMANDS``; ``addin.main`` adds the workbook commands on top of :func:`build_parser`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

AddFn = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

COMMANDS: list[AddFn] = []


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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the engine command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
