"""What the commands share: the input argument, output formats, error lines."""

from __future__ import annotations

import argparse
import sys
import typing

if typing.TYPE_CHECKING:
    Subparsers: typing.TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # argparse's class is not subscriptable at run time
    Subparsers = argparse._SubParsersAction


def read_puzzle_arg(text: str) -> str:
    """Return the puzzle text of a PUZZLE argument: the text itself, a file's contents or stdin."""
    from pathlib import Path

    if text == "-":
        return sys.stdin.read()
    if Path(text).is_file():
        return Path(text).read_text(encoding="utf-8")
    return text


FORMAT_NAMES = ("line", "sdm", "sdk", "ss", "grid", "csv")


def add_input(p: argparse.ArgumentParser) -> None:
    """Add the FILE argument (a file, - for standard input, or a puzzle) and ``--csv``."""
    p.add_argument(
        "source",
        nargs="?",
        default="-",
        metavar="FILE",
        help="puzzle file, - for standard input (default), or a puzzle itself; one-line "
        "puzzles (one per line, first field), drawings, .sdk, .ss, .sdm, TSV or CSV",
    )
    p.add_argument(
        "--csv", action="store_true", help="read the input as CSV (automatic for *.csv files)"
    )


def add_output_format(p: argparse.ArgumentParser, default: str = "line") -> None:
    """Add ``--format`` with the puzzle formats the engine writes."""
    p.add_argument(
        "--format",
        choices=FORMAT_NAMES,
        default=default,
        help=f"output style (default {default}): line (81 characters, . for blanks), "
        "sdm (0 for blanks), sdk, ss (Simple Sudoku), grid (a picture), csv",
    )


def read_source(
    args: argparse.Namespace, validate: bool = True
) -> list[tuple[int | str, object]] | None:
    """Return ``(line, Grid | SudokuError)`` for each puzzle of the command's input.

    ``args.source_reader``, when set, reads FILE instead: the console script passes one for
    workbooks (``(path, validate) -> [(label, Grid | SudokuError)]``, the label naming the
    cell; it raises SudokuError when the file cannot be read).  Returns None (after saying why
    on standard error) when FILE neither exists nor is a puzzle.
    """
    from pathlib import Path

    from xlsudoku.engine.formats import read_puzzles
    from xlsudoku.engine.grid import SudokuError

    source: str = args.source
    reader = getattr(args, "source_reader", None)
    if reader is not None:
        try:
            return list(reader(source, validate))
        except SudokuError as error:
            print(f"xlsudoku {args.command}: {error}", file=sys.stderr)
            return None
    name = "stdin.csv" if args.csv else ""
    if source == "-":
        text = sys.stdin.read()
    elif Path(source).is_file():
        try:
            text = Path(source).read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            print(
                f"xlsudoku {args.command}: {source} is not a text puzzle file (the xlsudoku "
                "command reads .xlsx/.xlsm workbooks)",
                file=sys.stderr,
            )
            return None
        name = source + (".csv" if args.csv else "")
    elif len(source.strip()) >= 16 and "/" not in source and "\\" not in source:
        text = source  # a puzzle given on the command line
    else:
        print(f"xlsudoku {args.command}: no such file: {source}", file=sys.stderr)
        return None
    return list(read_puzzles(text, name, validate=validate))


def report_bad(line: int | str, error: object) -> None:
    """Print a bad input line (or the cell a label names) and why on standard error."""
    print(f"{line}: {error}" if isinstance(line, str) else f"line {line}: {error}", file=sys.stderr)
