"""What the commands share: output formats, error lines (the input: :mod:`.inputs`)."""

from __future__ import annotations

import argparse
import sys
import typing

if typing.TYPE_CHECKING:
    Subparsers: typing.TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # argparse's class is not subscriptable at run time
    Subparsers = argparse._SubParsersAction


FORMAT_NAMES = ("line", "sdm", "sdk", "ss", "grid", "csv", "json")


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


def report_bad(line: int, error: object) -> None:
    """Print a bad input line and why on standard error."""
    print(f"line {line}: {error}", file=sys.stderr)
