"""The puzzle input of the commands: FILE or PUZZLE arguments, ``--geometry``, ``--format``.

A FILE or PUZZLE argument is ``-`` (standard input), an existing file, or the puzzle itself; a
puzzle typed as an argument (a 16x16 line of 256 characters, a drawing, JSON) is recognised by
its characters and never handed to the file system as a name.  Files are read without
trusting them: special files refused, bytes that are not UTF-8 named by line and column.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from xlsudoku.errors import BadInput, UnusableFile, shorten

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
# The parts of a workbook read as puzzles (xlsudoku.production.workbook_input.PARTS; a test holds
# them equal): the parser is built without loading openpyxl.
SHEETS = ("all", "collection", "generator")

if TYPE_CHECKING:
    from xlsudoku.engine.formats import PuzzleRecord
    from xlsudoku.engine.grid import Geometry


def looks_like_puzzle(text: str) -> bool:
    """Return True when a command-line argument is a puzzle rather than a file name.

    The engine's test (:func:`xlsudoku.engine.formats.looks_like_puzzle`), loaded when asked.

    >>> looks_like_puzzle("4.2......1.....3"), looks_like_puzzle("puzzles.txt")
    (True, False)
    """
    from xlsudoku.engine.formats import looks_like_puzzle as is_puzzle

    return is_puzzle(text)


def geometry_arg(text: str) -> Geometry:
    """Return the geometry named by a ``--geometry`` argument (argparse type)."""
    from xlsudoku.engine.formats import geometry_named
    from xlsudoku.engine.grid import ParseError

    try:
        return geometry_named(text)
    except ParseError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def ids_arg(text: str) -> frozenset[int]:
    """Read ``--ids`` (``3,7-12``); argparse names the option in the message.

    >>> sorted(ids_arg("2,5-6"))
    [2, 5, 6]
    """
    from xlsudoku.production.inputs import parse_ids

    try:
        return parse_ids(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_geometry(p: argparse.ArgumentParser, default: str | None = None) -> None:
    """Add ``--geometry``: the shape puzzles are read as (or generated on)."""
    p.add_argument(
        "--geometry",
        type=geometry_arg,
        default=default,
        metavar="SHAPE",
        help="9x9, 9x9-X (diagonals), 9x9-windoku, 9x9-jigsaw:LAYOUT, 4x4, 6x6, 12x12 or 16x16; "
        + (
            f"default {default}"
            if default
            else "default: from the puzzle's size (and from JSON input); X-Sudoku must be named"
        ),
    )


def decode_text(data: bytes, where: str) -> str:
    r"""Return *data* as UTF-8 text (a leading byte-order mark dropped), naming a bad line.

    >>> decode_text(b"\xef\xbb\xbf12.", "p.txt")
    '12.'
    >>> decode_text(b"123\n45\xff", "p.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.errors.BadInput: p.txt line 2, column 3: byte 0xff is not UTF-8 text ...
    """
    from xlsudoku.engine import formats
    from xlsudoku.engine.grid import ParseError

    try:
        return formats.decode_text(data, where)
    except ParseError as error:
        raise BadInput(str(error)) from None


def _read_stdin() -> str:
    """Return standard input as text, naming the line of a byte that is not UTF-8.

    Raises:
        UnusableFile: more than :data:`~xlsudoku.engine.formats.MAX_TEXT_BYTES` bytes.
    """
    from xlsudoku.engine.formats import MAX_TEXT_BYTES

    buffer = getattr(sys.stdin, "buffer", None)
    data = sys.stdin.read(MAX_TEXT_BYTES + 1) if buffer is None else buffer.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise UnusableFile(
            f"standard input holds more than {MAX_TEXT_BYTES / 2**20:,.0f} MB, the limit for "
            "a puzzle file; nothing was read"
        )
    return data if isinstance(data, str) else decode_text(data, "standard input")


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
    from xlsudoku.engine.formats import MAX_TEXT_BYTES
    from xlsudoku.xlsm.errors import WorkbookError
    from xlsudoku.xlsm.files import read_bytes

    try:
        data = read_bytes(Path(path), MAX_TEXT_BYTES, "a puzzle file")
    except WorkbookError as error:
        raise UnusableFile(shorten(str(error), 200)) from None
    if data.startswith(b"PK\x03\x04"):
        raise BadInput(
            f"{shorten(path)}: not a text puzzle file but a zip package, such as a workbook "
            "(the xlsudoku command reads .xlsx/.xlsm workbooks)"
        )
    return decode_text(data, shorten(path))


def read_puzzle_arg(text: str) -> str:
    """Return the puzzle text of a PUZZLE argument: the text itself, a file's contents or stdin."""
    if text == "-":
        return _read_stdin()
    if _file_kind(text):
        return _read_file(text)
    return text


FORMAT_NAMES = ("line", "sdm", "sdk", "ss", "grid", "csv", "json")


def add_input(p: argparse.ArgumentParser) -> None:
    """Add FILE (a file, a workbook, - or a puzzle), ``--csv``, ``--geometry``, ``--sheet``."""
    p.add_argument(
        "source",
        nargs="?",
        default="-",
        metavar="FILE",
        help="puzzle file, - for standard input (default), a puzzle itself, or an .xlsx/.xlsm "
        "workbook (its Collection and Generator puzzle); one-line puzzles (one per line, first "
        "field), drawings, .sdk, .ss, .sdm, TSV, CSV or JSON",
    )
    p.add_argument(
        "--csv", action="store_true", help="read the input as CSV (automatic for *.csv files)"
    )
    p.add_argument(
        "--sheet",
        choices=SHEETS,
        default="all",
        help="with a workbook (.xlsx/.xlsm): read its Collection, its Generator puzzle, or "
        "both (default all)",
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

    The puzzles are read on ``--geometry`` when given.  A workbook (``.xlsx``/``.xlsm``) is read
    as puzzles: its Collection's rows and its Generator puzzle (``--sheet``), each labelled with
    the cell it came from (:mod:`xlsudoku.production.workbook_input`).

    Raises:
        UnusableFile: FILE is neither a file nor a puzzle, is a folder, pipe or device, or is a
            workbook that cannot be read.
        BadInput: the file holds bytes that are not UTF-8 text (the line is named).
    """
    from xlsudoku.engine.formats import PuzzleRecord
    from xlsudoku.engine.formats import read_records as read
    from xlsudoku.engine.grid import SudokuError

    source: str = args.source
    if source != "-" and Path(source).suffix.lower() in WORKBOOK_SUFFIXES:
        from xlsudoku.production.workbook_input import read_workbook

        try:
            found = read_workbook(source, getattr(args, "sheet", "all"), validate)
        except SudokuError as error:
            raise UnusableFile(str(error)) from None
        return [PuzzleRecord(puzzle.label, puzzle.puzzle) for puzzle in found]
    name = "stdin.csv" if args.csv else ""
    if source == "-":
        text = _read_stdin()
    elif _file_kind(source):
        text = _read_file(source)
        name = source + (".csv" if args.csv else "")
    elif looks_like_puzzle(source):
        text = source  # a puzzle given on the command line
    else:
        raise UnusableFile(f"no such file (and not a puzzle): {shorten(source)}")
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


# The rating profiles of xlsudoku.engine.ratings.PROFILES (a test holds them equal): the
# parser is built without loading the engine.
PROFILES = ("se", "sukaku")


def add_profile(p: argparse.ArgumentParser) -> None:
    """Add ``--profile``: the rating profile that scores, levels and explains the puzzles."""
    p.add_argument(
        "--profile",
        choices=PROFILES,
        default=PROFILES[0],
        help="rating profile: se = classic Sudoku Explainer 1.2.1 (default), "
        "sukaku = SukakuExplainer; the level is the band of its score (docs/grading.md)",
    )
