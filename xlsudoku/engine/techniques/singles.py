"""Singles: full house, hidden single and naked single.

Each finder yields one step per placement, in cell (or house) order.  The hidden single finder
looks at boxes first and then at rows and columns, as people (and Sudoku Explainer, which
scores a box single 1.2 and a line single 1.5) do.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Geometry, House
from xlsudoku.engine.steps import Placement, Step, Technique

# A house and the getter of its cells' entries from a tuple of the whole grid (values or
# candidates): one call in C where a loop over the cells would run in Python.
HouseGetter = tuple[House, tuple[int, ...], Callable[[tuple[int, ...]], tuple[int, ...]]]


@functools.cache
def house_getters(geo: Geometry) -> tuple[HouseGetter, ...]:
    """Return each house, its cells and their getter: boxes first, then rows, columns, extras.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> house, cells, get = house_getters(CLASSIC)[0]
    >>> house, cells[:4], get(tuple(range(81)))[:4]
    (18, (0, 1, 2, 9), (0, 1, 2, 9))
    """
    n = geo.size
    order = tuple(range(2 * n, 3 * n)) + tuple(range(2 * n)) + tuple(range(3 * n, len(geo.houses)))
    return tuple((h, geo.houses[h], operator.itemgetter(*geo.houses[h])) for h in order)


def find_full_house(board: Board) -> Iterator[Step]:
    """Yield a step for each house with exactly one empty cell.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> next(find_full_house(b)).explanation
    'Full house: r1c9 is the last empty cell of row 1, so it is 9'
    """
    geo = board.geometry
    values = board.values
    seen: set[int] = set()
    for house, cells, get in house_getters(geo):
        in_house = get(values)
        if in_house.count(0) != 1:
            continue
        cell = cells[in_house.index(0)]
        if cell in seen:
            continue
        cands = board.cands[cell]
        if not cands or cands & (cands - 1):
            continue
        seen.add(cell)
        digit = cands.bit_length()
        yield Step(
            Technique.FULL_HOUSE,
            (Placement(cell, digit),),
            (),
            (cell,),
            (house,),
            (digit,),
            f"Full house: {geo.cell_name(cell)} is the last empty cell of "
            f"{geo.house_name(house)}, so it is {geo.digit_char(digit)}",
        )


def find_hidden_single(board: Board) -> Iterator[Step]:
    """Yield a step for each digit that has one place left in a house (boxes first).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(".23......" "......1.." "........1" + "." * 54))
    >>> next(find_hidden_single(b)).explanation
    'Hidden single: 1 can only go in r1c1 within box 1'
    """
    geo = board.geometry
    cands = board.cands
    seen: set[tuple[int, int]] = set()
    for house, cells, get in house_getters(geo):
        once = twice = 0
        for m in get(cands):
            twice |= once & m
            once |= m
        hidden = once & ~twice
        while hidden:
            low = hidden & -hidden
            hidden ^= low
            digit = low.bit_length()
            cell = next(c for c in cells if cands[c] & low)
            if (cell, digit) in seen:
                continue
            seen.add((cell, digit))
            yield Step(
                Technique.HIDDEN_SINGLE,
                (Placement(cell, digit),),
                (),
                (cell,),
                (house,),
                (digit,),
                f"Hidden single: {geo.digit_char(digit)} can only go in "
                f"{geo.cell_name(cell)} within {geo.house_name(house)}",
            )


def find_naked_single(board: Board) -> Iterator[Step]:
    """Yield a step for each empty cell with a single candidate.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> next(find_naked_single(b)).explanation
    'Naked single: r1c9 can only be 9 (every other digit is in its row, column or box)'
    """
    geo = board.geometry
    for cell, m in enumerate(board.cands):
        if m and not m & (m - 1):
            digit = m.bit_length()
            yield Step(
                Technique.NAKED_SINGLE,
                (Placement(cell, digit),),
                (),
                (cell,),
                (),
                (digit,),
                f"Naked single: {geo.cell_name(cell)} can only be {geo.digit_char(digit)} "
                "(every other digit is in its row, column or box)",
            )
