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


def _locked(board: Board, pointing: bool) -> Iterator[Step]:
    """Yield pointing (box to line) or claiming (line to box) steps."""
    geo = board.geometry
    cands = board.cands
    for box, line, shared, box_rest, line_rest in intersections(geo):
        inside = 0
        for c in shared:
            inside |= cands[c]
        if not inside:
            continue
        in_box = 0
        for c in box_rest:
            in_box |= cands[c]
        in_line = 0
        for c in line_rest:
            in_line |= cands[c]
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
