"""What the commands share: the input argument, output formats, error lines."""

from __future__ import annotations

import argparse
import sys
import typing

if typing.TYPE_CHECKING:
    from xlsudoku.engine.formats import PuzzleRecord

    Subparsers: typing.TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # argparse's class is not subscriptable at run time
    Subparsers = argparse._SubParsersAction


def read_puzzle_arg(text: str) -> str:
    """Return the puzzle text of a PUZZLE argument: the text itself, a file's contents or stdin."""
    from pathlib import Path

    from xlsudoku.engine.cli.inputs import existing_file

    if text == "-":
        return sys.stdin.read()
    if existing_file(text):
        return Path(text).read_text(encoding="utf-8")
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


def read_records(args: argparse.Namespace, validate: bool = True) -> list[PuzzleRecord] | None:
    """Return the records (line, grid or error, .sdk info) of the puzzles of the command's input.

    Returns None (after saying why on standard error) when FILE neither exists nor is a
    puzzle.  The puzzles are read on ``--geometry`` when given.
    """
    from pathlib import Path

    from xlsudoku.engine.cli.inputs import existing_file, looks_like_puzzle
    from xlsudoku.engine.formats import read_records as read

    source: str = args.source
    name = "stdin.csv" if args.csv else ""
    if source == "-":
        text = sys.stdin.read()
    elif existing_file(source):
        text = Path(source).read_text(encoding="utf-8-sig")
        name = source + (".csv" if args.csv else "")
    elif looks_like_puzzle(source):
        text = source  # a puzzle given on the command line
    else:
        print(
            f"xlsudoku {args.command}: no such file (and not a puzzle): {source}", file=sys.stderr
        )
        return None
    return list(read(text, name, geometry=args.geometry, validate=validate))


def read_source(args: argparse.Namespace, validate: bool = True) -> list[tuple[int, object]] | None:
    """Return ``(line, Grid | SudokuError)`` for each puzzle of the command's input.

    Returns None (after saying why on standard error) when FILE neither exists nor is a
    puzzle.
    """
    records = read_records(args, validate)
    return None if records is None else [(r.line, r.result) for r in records]


def report_bad(line: int, error: object) -> None:
    """Print a bad input line and why on standard error."""
    print(f"line {line}: {error}", file=sys.stderr)
