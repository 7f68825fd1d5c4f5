"""How the commands tell a puzzle argument from a file name, and ``--geometry``.

A FILE or PUZZLE argument is ``-`` (standard input), an existing file, or the puzzle itself; a
puzzle typed as an argument (a 16x16 line of 256 characters, a drawing, JSON) is recognised by
its characters and never handed to the file system as a name (:mod:`.common` reads them).
"""

from __future__ import annotations

import argparse
import typing

if typing.TYPE_CHECKING:
    from xlsudoku.engine.grid import Geometry


# Characters a puzzle typed as an argument may hold besides cell characters: drawing
# separators, and the field separators of a ``puzzle:count`` or ``puzzle,level`` line.
_PUZZLE_PUNCTUATION = frozenset("|+=-:,;\t ")


def looks_like_puzzle(text: str) -> bool:
    """Return True when a command-line argument is a puzzle rather than a file name.

    A puzzle is several lines (a drawing), JSON, or made only of cell characters and
    separators with at least 16 cells (the smallest grid).

    >>> looks_like_puzzle("4.2......1.....3"), looks_like_puzzle("puzzles.txt")
    (True, False)
    >>> looks_like_puzzle("." * 256), looks_like_puzzle("../data/p.sdk")
    (True, False)
    """
    from xlsudoku.engine.grid import char_to_digit

    body = text.strip()
    if "\n" in body or body[:1] in ("{", "["):
        return True
    cells = [ch for ch in body if ch not in _PUZZLE_PUNCTUATION]
    return len(cells) >= 16 and all(char_to_digit(ch, 16) is not None for ch in cells)


def geometry_arg(text: str) -> Geometry:
    """Return the geometry named by a ``--geometry`` argument (argparse type)."""
    from xlsudoku.engine.formats import geometry_named
    from xlsudoku.engine.grid import ParseError

    try:
        return geometry_named(text)
    except ParseError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_geometry(p: argparse.ArgumentParser, default: str | None = None) -> None:
    """Add ``--geometry``: the shape puzzles are read as (or generated on)."""
    p.add_argument(
        "--geometry",
        type=geometry_arg,
        default=default,
        metavar="SHAPE",
        help="9x9, 9x9-X (diagonals), 4x4, 6x6, 12x12 or 16x16; "
        + (
            f"default {default}"
            if default
            else "default: from the puzzle's size (and from JSON input); X-Sudoku must be named"
        ),
    )
