"""The image command: one grid as a PNG or SVG, drawn as the booklet draws it."""

from __future__ import annotations

import argparse
import sys
import typing

from xlsudoku.cli.inputs import SHEETS, add_geometry, ids_arg

if typing.TYPE_CHECKING:
    from xlsudoku.cli.shell import Subparsers

SIZES = (100, 4000)  # the narrowest and widest images, in pixels


def size_arg(text: str) -> int:
    """Read ``--size``: a width in pixels within :data:`SIZES`."""
    low, high = SIZES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{text!r} is not a width of {low}-{high} pixels")
    return value


def _add_image(sub: Subparsers) -> None:
    p = sub.add_parser(
        "image",
        help="one grid as a PNG or SVG picture (for a newsletter or a web page)",
        description=(
            "Draw one puzzle to a PNG or SVG image, with the booklet's grid: thick lines "
            "between boxes (a Jigsaw's irregular ones too), X-Sudoku's diagonals and "
            "Windoku's extra boxes shaded.  PUZZLE is a puzzle typed on the command line "
            "(81 characters for 9x9), or a file the booklet reads (a puzzle file, a batch or "
            "daily set, a workbook); --id picks which of its puzzles.  Needs matplotlib: "
            "pip install 'xlsudoku[charts]'."
        ),
    )
    p.add_argument("source", metavar="PUZZLE|FILE", help="a puzzle, or a file holding puzzles")
    p.add_argument("-o", "--output", required=True, metavar="IMAGE", help="the .png or .svg")
    p.add_argument(
        "--solution", action="store_true", help="draw the answer: givens bold, the rest grey"
    )
    p.add_argument("--title", default="", help="a line over the grid (default: none)")
    p.add_argument(
        "--size",
        type=size_arg,
        default=600,
        metavar="PIXELS",
        help=f"the image's width, {SIZES[0]}-{SIZES[1]} pixels (default 600)",
    )
    p.add_argument(
        "--id",
        type=ids_arg,
        metavar="ID",
        help="which puzzle of FILE: a workbook's Collection id, or a record number (default 1)",
    )
    p.add_argument("--sheet", choices=SHEETS, default="all", help="which puzzles of a workbook")
    add_geometry(p)
    p.add_argument(
        "--replace", action="store_true", help="replace an existing file that is not our image"
    )
    p.set_defaults(run=_run_image)


def _run_image(args: argparse.Namespace) -> int:
    from pathlib import Path

    from xlsudoku.addin.drawing import ImageError, draw_image, image_format, made_by_image
    from xlsudoku.cli.outputs import check_output
    from xlsudoku.engine.formats import parse_puzzle
    from xlsudoku.engine.grid import SudokuError
    from xlsudoku.errors import EnvironmentFault, Exit, MissingExtra, os_error_message
    from xlsudoku.production.inputs import Entry, chosen, complete, read_entries

    try:
        image_format(Path(args.output))
    except ImageError as error:
        print(f"xlsudoku image: {error}", file=sys.stderr)
        return Exit.USAGE
    is_file = args.source == "-" or Path(args.source).exists()
    inputs = [args.source] if is_file and args.source != "-" else []
    out = check_output(
        args.output, option="-o", inputs=inputs, replace=args.replace, ours=made_by_image
    )
    label = "PUZZLE"
    try:
        if is_file:
            found = read_entries(args.source, args.sheet)
            picked = chosen(found, args.id or frozenset({1}))
            if len(picked) > 1:
                print("xlsudoku image: --id: name one puzzle", file=sys.stderr)
                return Exit.USAGE
            if not picked:
                where = "--id: no such id" if args.id else "no puzzle"
                print(f"xlsudoku image: {where} in {args.source}", file=sys.stderr)
                return Exit.BAD_INPUT
            label, item = picked[0]
            if isinstance(item, SudokuError):
                raise item
            entry = item
            if args.geometry is not None:
                entry = Entry(parse_puzzle(str(entry.puzzle), args.geometry))
        else:
            entry = Entry(parse_puzzle(args.source, args.geometry))
        solution = complete(entry, grade_missing=False).solution if args.solution else None
    except SudokuError as error:
        print(f"xlsudoku image: {label}: {error}", file=sys.stderr)
        return Exit.BAD_INPUT
    try:
        draw_image(out.real, entry.puzzle, solution, args.title, args.size)
    except MissingExtra as error:
        raise EnvironmentFault(str(error)) from None
    except OSError as error:
        print(f"xlsudoku image: cannot write {args.output}: {error}", file=sys.stderr)
        return os_error_message(error)[1]
    print(f"{args.output}: {entry.puzzle.geometry.name}, {args.size} pixels wide")
    return 0


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("image",)
COMMANDS = (_add_image,)
