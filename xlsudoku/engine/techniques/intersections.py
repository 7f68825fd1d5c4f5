"""Locked candidates: pointing (box to line) and claiming (line to box).

Where a box meets a row or column, the three cells they share are an *intersection*.  If a
digit's candidates in the box all lie in the intersection, the digit must go there, so the rest
of the line loses it (pointing); if a line's candidates all lie in the intersection, the rest of
the box loses it (claiming).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, House
from xlsudoku.engine.steps import Elimination, Step, Technique

# (box, line, shared cells, rest of the box, rest of the line)
_Intersection = tuple[House, House, tuple[Cell, ...], tuple[Cell, ...], tuple[Cell, ...]]


@functools.cache
def intersections(geo: Geometry) -> tuple[_Intersection, ...]:
    """Return every box-line intersection of *geo* (boxes in order, rows before columns).

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> box, line, shared, box_rest, line_rest = intersections(CLASSIC)[0]
    >>> box, line, shared, len(box_rest), len(line_rest)
    (18, 0, (0, 1, 2), 6, 6)
    """
    n = geo.size
    found = []
    for box in range(2 * n, 3 * n):
        box_cells = set(geo.houses[box])
        for line in range(2 * n):
            line_cells = set(geo.houses[line])
            shared = box_cells & line_cells
            if not shared:
                continue
            found.append(
                (
                    box,
                    line,
                    tuple(sorted(shared)),
                    tuple(sorted(box_cells - shared)),
                    tuple(sorted(line_cells - shared)),
                )
            )
    return tuple(found)


@functools.cache
def _neighbours(geo: Geometry) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Return per intersection the others that make up the rest of its box and of its line.

    The rest of a box beside its cells on a row are its cells on the other rows: the other
    intersections of the box with rows; the rest of the row, its intersections with the
    other boxes (indices into :func:`intersections`).
    """
    n = geo.size
    table = intersections(geo)
    return tuple(
        (
            tuple(
                k
                for k, (b, other, *_) in enumerate(table)
                if b == box and other != line and (other < n) == (line < n)
            ),
            tuple(k for k, (b, other, *_) in enumerate(table) if other == line and b != box),
        )
        for box, line, *_ in table
    )


@functools.lru_cache(maxsize=2)
def intersection_digits(board: Board) -> tuple[tuple[int, int, int], ...]:
    """Return per intersection the digits (a mask) of its cells, the rest of its box and line.

    Cached for a board: pointing and claiming (and direct pointing) read the same masks.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse("...456789" + "." * 72))
    >>> [bin(m) for m in intersection_digits(b)[0]]
    ['0b111', '0b111111111', '0b0']
    """
    cands = board.cands
    table = intersections(board.geometry)
    digits = []
    for _, _, shared, _, _ in table:
        here = 0
        for c in shared:
            here |= cands[c]
        digits.append(here)
    out = []
    for here, (in_box, in_line) in zip(digits, _neighbours(board.geometry), strict=True):
        box = line = 0
        for k in in_box:
            box |= digits[k]
        for k in in_line:
            line |= digits[k]
        out.append((here, box, line))
    return tuple(out)


def _locked(board: Board, pointing: bool) -> Iterator[Step]:
    """Yield pointing (box to line) or claiming (line to box) steps."""
    geo = board.geometry
    cands = board.cands
    for (box, line, shared, box_rest, line_rest), (inside, in_box, in_line) in zip(
        intersections(geo), intersection_digits(board), strict=True
    ):
        if not inside:
            continue
        if pointing:
            locked, source, target, targets = inside & ~in_box & in_line, box, line, line_rest
        else:
            locked, source, target, targets = inside & ~in_line & in_box, line, box, box_rest
        while locked:
            low = locked & -locked
            locked ^= low
            digit = low.bit_length()
            hit = tuple(c for c in targets if cands[c] & low)
            pattern = tuple(c for c in shared if cands[c] & low)
            names = ", ".join(geo.cell_name(c) for c in hit)
            ch = geo.digit_char(digit)
            yield Step(
                Technique.POINTING if pointing else Technique.CLAIMING,
                (),
                tuple(Elimination(c, digit) for c in hit),
                pattern,
                (source, target),
                (digit,),
                f"{'Pointing' if pointing else 'Claiming'}: in {geo.house_name(source)}, {ch} "
                f"can only go in {', '.join(geo.cell_name(c) for c in pattern)}, which lie in "
                f"{geo.house_name(target)}; so {ch} is removed from {names}",
            )


def find_pointing(board: Board) -> Iterator[Step]:
    """Yield each box whose candidates of a digit lie in one row or column.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse("...456789" "123......" + "." * 63))
    >>> next(find_pointing(b)).explanation.split(";")[0]
    'Pointing: in box 1, 4 can only go in r3c1, r3c2, r3c3, which lie in row 3'
    """
    return _locked(board, pointing=True)


def find_claiming(board: Board) -> Iterator[Step]:
    """Yield each row or column whose candidates of a digit lie in one box.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse("...456789" + "." * 72))
    >>> for part in next(find_claiming(b)).explanation.split("; "):
    ...     print(part)
    Claiming: in row 1, 1 can only go in r1c1, r1c2, r1c3, which lie in box 1
    so 1 is removed from r2c1, r2c2, r2c3, r3c1, r3c2, r3c3
    """
    return _locked(board, pointing=False)
