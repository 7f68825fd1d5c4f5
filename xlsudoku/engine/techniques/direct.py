"""Direct techniques: a pointing or hidden subset that leaves a hidden single at once.

Sudoku Explainer tries these before the naked single and rates them low (direct pointing 1.7,
direct hidden pair 2.0, direct hidden triple 2.5): the pattern is only worth seeing for the
single it uncovers, so the step places that digit and nothing more.  The candidates the pattern
rules out stay, as in SE: later steps must remove them again (a pointing, a hidden pair), and
those steps can set the rating.

- *Direct pointing*: in a box, a digit can only go in one row (or column); so it cannot go in
  that line outside the box, and another box the line crosses is left with one place for it.
- *Direct hidden pair / triple*: in a house, two (three) digits can only go in the same two
  (three) cells; so those cells hold nothing else, and another digit is left with one place in
  the house.

(SE's direct claiming, 1.9, never decides a rating: whenever a line's claim leaves a hidden
single, a box's pointing does too, and SE tries pointing first.)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, House
from xlsudoku.engine.steps import Placement, Step, Technique
from xlsudoku.engine.techniques.intersections import intersection_digits, intersections
from xlsudoku.engine.techniques.subsets import house_candidates, house_places


def _places(board: Board, house: House, bit: int) -> tuple[Cell, ...]:
    """Return the cells of *house* where the digit of *bit* is a candidate."""
    cands = board.cands
    return tuple(c for c in board.geometry.houses[house] if cands[c] & bit)


def _se_house_order(board: Board) -> tuple[House, ...]:
    """Return the houses in Sudoku Explainer's order: boxes, columns, rows."""
    n = board.geometry.size
    return tuple(range(2 * n, 3 * n)) + tuple(range(n, 2 * n)) + tuple(range(n))


def find_direct_pointing(board: Board) -> Iterator[Step]:
    """Yield each pointing that leaves a hidden single in another box the line crosses.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     ".34...9179.73.1..6.619.73..3...74168146.9.573.781....97.26.9.3.4..7.56.16..4..79."))
    >>> print(next(find_direct_pointing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Direct pointing: in box 6, 2 can only go in r6c7, r6c8, which lie in row 6; so 2 cannot go
    elsewhere in row 6, and r4c2 is the only place left for 2 in box 4
    """
    geo = board.geometry
    n = geo.size
    cands = board.cands
    table = tuple(zip(intersections(geo), intersection_digits(board), strict=True))
    for columns in (True, False):  # columns first, then rows (SE's order)
        for (box, line, shared, _, _), (inside, rest, outside) in table:
            if (line >= n) != columns:
                continue
            locked = inside & ~rest & outside
            while locked:
                low = locked & -locked
                locked ^= low
                pattern = tuple(c for c in shared if cands[c] & low)
                if len(pattern) >= 2:
                    yield from _pointing_singles(board, box, line, pattern, low.bit_length())


def _pointing_singles(
    board: Board, box: House, line: House, pattern: tuple[Cell, ...], digit: int
) -> Iterator[Step]:
    """Yield the hidden singles a pointing of *digit* from *box* along *line* leaves."""
    geo = board.geometry
    n = geo.size
    bit = 1 << (digit - 1)
    line_cells = set(geo.houses[line])
    for other in range(2 * n, 3 * n):
        if other == box or not line_cells & set(geo.houses[other]):
            continue
        places = _places(board, other, bit)
        if len(places) < 2:
            continue
        left = [c for c in places if c not in line_cells]
        if len(left) != 1:
            continue
        cell = left[0]
        ch = geo.digit_char(digit)
        yield Step(
            Technique.DIRECT_POINTING,
            (Placement(cell, digit),),
            (),
            pattern + (cell,),
            (box, line, other),
            (digit,),
            f"Direct pointing: in {geo.house_name(box)}, {ch} can only go in "
            f"{', '.join(geo.cell_name(c) for c in pattern)}, which lie in "
            f"{geo.house_name(line)}; so {ch} cannot go elsewhere in {geo.house_name(line)}, "
            f"and {geo.cell_name(cell)} is the only place left for {ch} in "
            f"{geo.house_name(other)}",
        )


def find_direct_hidden_subsets(board: Board, size: int) -> Iterator[Step]:
    """Yield each hidden subset of *size* digits that leaves another digit one place.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"))
    >>> step = next(find_direct_hidden_subsets(b, 2))
    >>> step.technique.value, step.placements
    ('Direct Hidden Pair', (Placement(cell=45, digit=3),))
    """
    geo = board.geometry
    houses = house_candidates(board)
    for house in _se_house_order(board):
        yield from direct_hidden_in(geo, size, house, houses[house])


@functools.lru_cache(maxsize=8192)
def direct_hidden_in(
    geo: Geometry, size: int, house: House, house_cands: tuple[int, ...]
) -> tuple[Step, ...]:
    """Return the direct hidden subsets of *size* in *house*, whose cells hold *house_cands*.

    The steps rest on the house's candidates alone (cached, see
    :func:`xlsudoku.engine.techniques.subsets.hidden_subsets_in`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"))
    >>> [s.placements for s in direct_hidden_in(b.geometry, 2, 21, house_candidates(b)[21])]
    [(Placement(cell=45, digit=3),)]
    """
    n = geo.size
    technique = Technique.DIRECT_HIDDEN_PAIR if size == 2 else Technique.DIRECT_HIDDEN_TRIPLE
    word = "pair" if size == 2 else "triple"
    found = []
    spread = house_places(geo, house, house_cands, size)
    if spread is None:
        return ()
    empty, _, places = spread
    # a digit of the subset has at most *size* places (the subset's cells hold them all)
    usable = [d for d in range(1, n + 1) if 0 < places[d - 1].bit_count() <= size]
    for digits in itertools.combinations(usable, size):
        inside = 0
        for d in digits:
            inside |= places[d - 1]
        if inside.bit_count() != size:
            continue
        union = sorted(c for i, c in enumerate(empty) if inside >> i & 1)
        for other in range(1, n + 1):
            if other in digits or places[other - 1].bit_count() < 2:
                continue
            outside = places[other - 1] & ~inside
            if outside.bit_count() != 1:
                continue
            cell = empty[outside.bit_length() - 1]
            digit_names = " and ".join(geo.digit_char(d) for d in digits)
            where = " and ".join(geo.cell_name(c) for c in union)
            ch = geo.digit_char(other)
            found.append(
                Step(
                    technique,
                    (Placement(cell, other),),
                    (),
                    tuple(union) + (cell,),
                    (house,),
                    digits + (other,),
                    f"Direct hidden {word}: in {geo.house_name(house)}, {digit_names} can "
                    f"only go in {where} (hidden {word}), so {ch} cannot go there, and "
                    f"{geo.cell_name(cell)} is the only place left for {ch} in "
                    f"{geo.house_name(house)}",
                )
            )
            break
    return tuple(found)


def find_direct_hidden_pair(board: Board) -> Iterator[Step]:
    """Yield each hidden pair that leaves a hidden single in its house (SE 2.0).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "..6..79...9..4..8.....35..7..9....46..1...3..36....7..5..32.....1..5..2...24..1.."))
    >>> print(next(find_direct_hidden_pair(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Direct hidden pair: in box 1, 3 and 5 can only go in r1c2 and r2c3 (hidden pair), so 7 cannot go
    there, and r2c1 is the only place left for 7 in box 1
    """
    return find_direct_hidden_subsets(board, 2)


def find_direct_hidden_triple(board: Board) -> Iterator[Step]:
    """Yield each hidden triple that leaves a hidden single in its house (SE 2.5).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4..5..37.32......4.6.......8....2.3.21.84...........9..7..9.1..94.651.......7...."))
    >>> print(next(find_direct_hidden_triple(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Direct hidden triple: in box 6, 1 and 2 and 8 can only go in r4c9 and r6c7 and r6c9 (hidden
    triple), so 4 cannot go there, and r4c7 is the only place left for 4 in box 6
    """
    return find_direct_hidden_subsets(board, 3)
