"""Commands on puzzle files: solve, count, format."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from xlsudoku.cli.inputs import add_input, add_output_format, read_records, read_source, report_bad

if TYPE_CHECKING:
    from xlsudoku.cli.shell import Subparsers


def _add_solve(sub: Subparsers) -> None:
    p = sub.add_parser(
        "solve",
        help="print the solution of each puzzle",
        description="Print the solution of each puzzle of FILE (one per input puzzle, in "
        "order). Bad lines, puzzles without a solution and puzzles with more than one are "
        "reported on standard error with their line number; the exit status is 1 when any "
        "puzzle was bad or had no solution.",
    )
    add_input(p)
    add_output_format(p)
    p.set_defaults(run=_run_solve)


def _run_solve(args: argparse.Namespace) -> int:
    from xlsudoku.engine.formats import PuzzleFormat, format_grid
    from xlsudoku.engine.grid import Grid
    from xlsudoku.engine.solver import solutions

    found = read_source(args)
    fmt = PuzzleFormat.parse(args.format)
    status = 0
    separate = fmt not in (PuzzleFormat.LINE, PuzzleFormat.SDM)
    printed = False
    for line, result in found:
        if not isinstance(result, Grid):
            report_bad(line, result)
            status = 1
            continue
        sols = solutions(result, 2)
        if not sols:
            report_bad(line, "no solution")
            status = 1
            continue
        if len(sols) > 1:
            report_bad(line, "more than one solution; printing one")
        if separate and printed:
            print()
        print(format_grid(sols[0], fmt))
        printed = True
    return status


MAX_COUNT_LIMIT = 1_000_000
"""The largest ``count --limit``: counting is about 25,000 solutions a second."""


def _add_count(sub: Subparsers) -> None:
    p = sub.add_parser(
        "count",
        help="print the number of solutions of each puzzle (capped)",
        description="Print the number of solutions of each puzzle of FILE, one per line, "
        "counting up to --limit: a count that reaches the limit prints as >=N. Bad lines are "
        "reported on standard error with their line number (exit status 1).",
    )
    add_input(p)
    p.add_argument(
        "--limit",
        type=int,
        default=2,
        metavar="N",
        help="stop counting at N solutions (default 2: enough to tell unique puzzles; at most "
        "1000000)",
    )
    p.add_argument(
        "--with-puzzle",
        action="store_true",
        help="print the puzzle (one line) and a tab before each count",
    )
    p.set_defaults(run=_run_count)


def _run_count(args: argparse.Namespace) -> int:
    from xlsudoku.engine.grid import ConflictError, Grid
    from xlsudoku.engine.solver import count_solutions

    if args.limit < 1:
        print("xlsudoku count: --limit must be at least 1", file=sys.stderr)
        return 2
    if args.limit > MAX_COUNT_LIMIT:  # about 25,000 solutions a second: 10^9 would take hours
        print(
            f"xlsudoku count: --limit {args.limit:,} would run for hours; the most is "
            f"{MAX_COUNT_LIMIT:,} (about a minute on an empty grid)",
            file=sys.stderr,
        )
        return 2
    # Clashing givens have no solution: only a puzzle counted 0 is checked for a clash (the
    # message read_source would give), not all of them before counting.
    found = read_source(args, validate=False)
    status = 0
    for line, result in found:
        n = count_solutions(result, args.limit) if isinstance(result, Grid) else 0
        if isinstance(result, Grid) and not n:
            try:
                result.validate()
            except ConflictError as error:
                result = error
        if not isinstance(result, Grid):
            report_bad(line, result)
            status = 1
            continue
        text = f">={n}" if n >= args.limit and args.limit > 1 else str(n)
        print(f"{result}\t{text}" if args.with_puzzle else text)
    return status


def _add_format(sub: Subparsers) -> None:
    p = sub.add_parser(
        "format",
        help="convert puzzles between file formats",
        description="Read the puzzles of FILE in any supported format and write them in "
        "--format. .sdk info lines (#A author, #D description, #C comment, #B date, #S source, "
        "#L level, #U address) are kept in sdk and json output (a note on standard error says "
        "when another format drops them). Bad lines are reported on standard error (exit "
        "status 1); repeated digits are kept unless --validate is given.",
    )
    add_input(p)
    add_output_format(p, default="grid")
    p.add_argument(
        "--validate", action="store_true", help="treat a digit repeated in a house as an error"
    )
    p.set_defaults(run=_run_format)


def _run_format(args: argparse.Namespace) -> int:
    from xlsudoku.engine.formats import INFO_FORMATS, INFO_LETTERS, PuzzleFormat, write_puzzles
    from xlsudoku.engine.grid import Grid

    found = read_records(args, validate=args.validate)
    fmt = PuzzleFormat.parse(args.format)
    status = 0
    grids, infos = [], []
    for record in found:
        if isinstance(record.result, Grid):
            grids.append(record.result)
            infos.append(record.info)
        else:
            report_bad(record.line, record.result)
            status = 1
    dropped = sum(1 for info in infos if any(key in info for key in INFO_LETTERS.values()))
    if dropped and fmt not in INFO_FORMATS:
        print(
            f"xlsudoku format: note: the info lines (#A, #D, ...) of {dropped} "
            f"puzzle{'s' if dropped != 1 else ''} are not kept in {fmt.value} output; "
            "sdk and json keep them",
            file=sys.stderr,
        )
    sys.stdout.write(write_puzzles(grids, fmt, infos))
    return status


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("solve", "count", "format")
COMMANDS = (_add_solve, _add_count, _add_format)
