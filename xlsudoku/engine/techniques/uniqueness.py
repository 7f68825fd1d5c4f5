"""Uniqueness techniques: Unique Rectangles, hidden and avoidable rectangles, BUG+1.

They assume the puzzle has exactly one solution (every generated or graded puzzle here does).

A *deadly pattern* is four unsolved cells at the corners of a rectangle spanning two rows, two
columns and exactly two boxes, all holding only the same two digits {a, b}: the two digits could
be swapped, giving two solutions.  So at least one corner must hold another digit:

- Type 1: three corners are exactly {a, b}; the fourth cannot be a or b.
- Type 2: two corners are {a, b} and the other two (the *roof*) are {a, b, z}; one roof cell
  is z, so a cell that sees both roof cells cannot be z.
- Type 3: the roof's extra digits act as one cell; with other cells of a house they share they
  form a naked subset, whose digits leave the rest of that house.
- Type 4: one of a, b has only the two roof cells left in a house they share; that digit is in
  one of them, so the other digit of the pair cannot be in either.

BUG+1 (bivalue universal grave plus one): every unsolved cell has two candidates except one
with three, and each candidate appears twice in every house except one digit that appears three
times in the houses of that cell.  Without that digit the grid would have zero or two
solutions, so the cell holds it: its other two candidates go (as Sudoku Explainer and HoDoKu
put it; a naked single follows).

On X-Sudoku, Windoku and Jigsaw (extra or irregular houses) the swap argument does not hold for
every rectangle; these finders then find nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit, House
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.steps import Elimination, Step, Technique


@dataclass(frozen=True, slots=True)
class _Rectangle:
    """Four corners and the pair {a, b} they all hold; *floor* are the cells holding only them."""

    corners: tuple[Cell, Cell, Cell, Cell]
    pair: int
    floor: tuple[Cell, ...]
    roof: tuple[Cell, ...]


@functools.lru_cache(maxsize=8)
def _rectangles(board: Board, min_floor: int = 2, max_extra: int = 9) -> tuple[_Rectangle, ...]:
    """Return every rectangle where *min_floor* or more corners hold the same two candidates only.

    With *max_extra*, a corner holds at most that many other digits.  Cached: the unique
    rectangle types search the same rectangles of a board in turn.

    Each other corner must hold at least one of the two digits.  A corner may miss one of them
    (HoDoKu's "missing candidates"): candidates only ever go when no solution has them, and
    swapping a and b in a deadly pattern would give a solution that has them.
    """
    return tuple(_each_rectangle(board, min_floor, max_extra))


def _each_rectangle(board: Board, min_floor: int, max_extra: int) -> Iterator[_Rectangle]:
    """Yield the rectangles of :func:`_rectangles`."""
    geo = board.geometry
    if not geo.standard:
        return
    n = geo.size
    cands = board.cands
    values = board.values
    by_mask: dict[int, list[Cell]] = {}
    for c in range(geo.cell_count):
        if not values[c] and cands[c].bit_count() == 2:
            by_mask.setdefault(cands[c], []).append(c)

    def fits(cell: Cell, pair: int) -> bool:
        m = cands[cell]
        return bool(m & pair) and (m & ~pair).bit_count() <= max_extra

    seen: set[tuple[Cell, ...]] = set()
    for pair in sorted(by_mask):
        cells = by_mask[pair]
        for i, p in enumerate(cells):
            rp, cp = divmod(p, n)
            partners = cells[i + 1 :] if min_floor >= 2 else [p]
            for q in partners:
                rq, cq = divmod(q, n)
                if q == p:  # one anchor corner: every rectangle through it
                    rows = [r for r in range(n) if r != rp and fits(r * n + cp, pair)]
                    cols = [c for c in range(n) if c != cp and fits(rp * n + c, pair)]
                    options = [(rp, r, cp, c) for r in rows for c in cols]
                elif rp == rq:
                    options = [(rp, r, cp, cq) for r in range(n) if r != rp]
                elif cp == cq:
                    options = [(rp, rq, c, cp) for c in range(n) if c != cp]
                else:
                    options = [(rp, rq, cp, cq)]
                for r1, r2, c1, c2 in options:
                    corners = tuple(sorted((r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)))
                    if (pair, *corners) in seen:
                        continue
                    seen.add((pair, *corners))
                    same_band = r1 // geo.box_rows == r2 // geo.box_rows
                    if same_band == (c1 // geo.box_cols == c2 // geo.box_cols):
                        continue  # one box or four boxes
                    if any(values[k] or not fits(k, pair) for k in corners):
                        continue
                    floor = tuple(k for k in corners if cands[k] == pair)
                    if len(floor) == 4 or len(floor) < min_floor:
                        continue
                    roof = tuple(k for k in corners if cands[k] != pair)
                    a, b, c, d = corners
                    yield _Rectangle((a, b, c, d), pair, floor, roof)


def _names(board: Board, cells: tuple[Cell, ...], joint: str = "and") -> str:
    """Return ``r1c2, r3c4 and r5c6``."""
    names = [board.geometry.cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {joint} " + names[-1]


def _digits(board: Board, mask: int, joint: str = "and") -> str:
    """Return the digits of *mask* as ``1, 2 and 3``."""
    chars = [board.geometry.digit_char(d) for d in digits_of(mask)]
    return chars[0] if len(chars) == 1 else ", ".join(chars[:-1]) + f" {joint} " + chars[-1]


def _intro(board: Board, rect: _Rectangle) -> str:
    x, y = digits_of(rect.pair)
    geo = board.geometry
    corners = "/".join(geo.cell_name(c) for c in sorted(rect.corners))
    return f"{corners} would be a deadly pattern on {geo.digit_char(x)} and {geo.digit_char(y)}"


def _shared_houses(board: Board, a: Cell, b: Cell) -> tuple[House, ...]:
    return tuple(h for h in board.geometry.houses_of[a] if h in board.geometry.houses_of[b])


def find_unique_rectangle_1(board: Board) -> Iterator[Step]:
    """Yield every Unique Rectangle type 1: three corners hold only {a, b}.

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2), 27: (1, 2), 28: (1, 2, 5)})
    >>> print(next(find_unique_rectangle_1(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Unique Rectangle type 1: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; r1c1,
    r1c2 and r4c1 hold only those, so r4c2 cannot be 1 or 2
    """
    for rect in _rectangles(board):
        if len(rect.floor) != 3:
            continue
        target = rect.roof[0]
        gone = board.cands[target] & rect.pair
        yield Step(
            Technique.UNIQUE_RECTANGLE_1,
            (),
            tuple(Elimination(target, d) for d in digits_of(gone)),
            rect.corners,
            (),
            digits_of(rect.pair),
            f"Unique Rectangle type 1: {_intro(board, rect)}; {_names(board, rect.floor)} hold "
            f"only those, so {board.geometry.cell_name(target)} cannot be "
            f"{_digits(board, gone, 'or')}",
        )


def find_unique_rectangle_2(board: Board) -> Iterator[Step]:
    """Yield every Unique Rectangle type 2: both roof cells hold {a, b, z}.

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2), 27: (1, 2, 5), 28: (1, 2, 5)})
    >>> s = next(find_unique_rectangle_2(b))
    >>> print(s.explanation)  # doctest: +NORMALIZE_WHITESPACE
    Unique Rectangle type 2: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; r4c1 and
    r4c2 hold one more candidate, 5, so one of them is 5 and r4c3, r4c4, r4c5, r4c6, r4c7, r4c8,
    r4c9, r5c1, r5c2, r5c3, r6c1, r6c2 and r6c3 cannot be 5
    """
    cands = board.cands
    peer_sets = board.geometry.peer_sets
    for rect in _rectangles(board):
        if len(rect.floor) != 2:
            continue
        p, q = rect.roof
        z_mask = cands[p] & ~rect.pair
        if z_mask != cands[q] & ~rect.pair or z_mask.bit_count() != 1:
            continue
        z = z_mask.bit_length()
        bit = 1 << (z - 1)
        targets = sorted(c for c in peer_sets[p] & peer_sets[q] if cands[c] & bit)
        if not targets:
            continue
        ch = board.geometry.digit_char(z)
        yield Step(
            Technique.UNIQUE_RECTANGLE_2,
            (),
            tuple(Elimination(c, z) for c in targets),
            rect.corners,
            _shared_houses(board, p, q),
            (*digits_of(rect.pair), z),
            f"Unique Rectangle type 2: {_intro(board, rect)}; {_names(board, rect.roof)} hold "
            f"one more candidate, {ch}, so one of them is {ch} and "
            f"{_names(board, tuple(targets))} cannot be {ch}",
        )


# Sudoku Explainer's rating of a type 3 by the cells of its naked subset besides the roof: the
# rectangle's 4.5 and 0.1 for each (a pair 4.6, a triple 4.7, a quad 4.8).
TYPE_3_BASE = 4.5
TYPE_3_PER_CELL = 0.1


def find_unique_rectangle_3(board: Board, max_size: int = 4) -> Iterator[Step]:
    """Yield every Unique Rectangle type 3: the roof's extra digits join a naked subset.

    *max_size* bounds the subset (the roof counts as one cell).  Each step carries Sudoku
    Explainer's rating, which grows with the subset.

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2), 27: (1, 2, 5), 28: (1, 2, 6), 31: (5, 6)})
    >>> print(next(find_unique_rectangle_3(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Unique Rectangle type 3: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; one of
    r4c1 and r4c2 is 5 or 6, so with r4c5 they hold 5 and 6 in row 4, and r4c3, r4c4, r4c6,
    r4c7, r4c8 and r4c9 cannot be 5 or 6
    """
    geo = board.geometry
    cands = board.cands
    values = board.values
    for rect in _rectangles(board):
        if len(rect.floor) != 2:
            continue
        p, q = rect.roof
        extra = (cands[p] | cands[q]) & ~rect.pair
        shared = _shared_houses(board, p, q)
        for house in shared:
            others = [
                c
                for c in geo.houses[house]
                if not values[c] and c not in (p, q) and cands[c].bit_count() <= max_size
            ]
            for k in range(1, max_size):
                for subset in combinations(others, k):
                    union = extra
                    for c in subset:
                        union |= cands[c]
                    if union.bit_count() != k + 1:
                        continue
                    # The subset also locks its digits in a second shared house (a line and a
                    # box) when all its cells lie there too; that house's turn found it first.
                    also = [h for h in shared if h != house and set(subset) <= set(geo.houses[h])]
                    if any(h < house for h in also):
                        continue
                    houses = (house, *also)
                    elims = tuple(
                        Elimination(c, d)
                        for c in sorted({c for h in houses for c in geo.houses[h]})
                        if c not in (p, q) and c not in subset and not values[c]
                        for d in digits_of(cands[c] & union)
                    )
                    if not elims:
                        continue
                    targets = tuple(dict.fromkeys(e.cell for e in elims))
                    where = " and ".join(geo.house_name(h) for h in houses)
                    yield Step(
                        Technique.UNIQUE_RECTANGLE_3,
                        (),
                        elims,
                        rect.corners + subset,
                        houses,
                        digits_of(rect.pair | union),
                        f"Unique Rectangle type 3: {_intro(board, rect)}; one of "
                        f"{_names(board, rect.roof)} is {_digits(board, extra, 'or')}, so with "
                        f"{_names(board, subset)} they hold {_digits(board, union)} in {where}, "
                        f"and {_names(board, targets)} cannot be {_digits(board, union, 'or')}",
                        round(TYPE_3_BASE + TYPE_3_PER_CELL * k, 1),
                    )


def find_unique_rectangle_4(board: Board) -> Iterator[Step]:
    """Yield every Unique Rectangle type 4: a, b's only places in a house are the roof cells.

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2), 27: (1, 2, 5), 28: (1, 2, 6)}, {1: [3, 4]})
    >>> print(next(find_unique_rectangle_4(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Unique Rectangle type 4: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; row 4
    holds 1 only in r4c1 and r4c2, so 2 cannot be in either
    """
    geo = board.geometry
    cands = board.cands
    for rect in _rectangles(board):
        if len(rect.floor) != 2:
            continue
        p, q = rect.roof
        for house in _shared_houses(board, p, q):
            for lock in digits_of(rect.pair):
                bit = 1 << (lock - 1)
                if not cands[p] & cands[q] & bit:
                    continue  # the lock digit must be a candidate of both roof cells
                if any(cands[c] & bit for c in geo.houses[house] if c not in (p, q)):
                    continue
                other = (rect.pair & ~bit).bit_length()
                elims = tuple(Elimination(c, other) for c in (p, q) if cands[c] & rect.pair & ~bit)
                if not elims:
                    continue
                yield Step(
                    Technique.UNIQUE_RECTANGLE_4,
                    (),
                    elims,
                    rect.corners,
                    (house,),
                    digits_of(rect.pair),
                    f"Unique Rectangle type 4: {_intro(board, rect)}; {geo.house_name(house)} "
                    f"holds {geo.digit_char(lock)} only in {_names(board, rect.roof)}, so "
                    f"{geo.digit_char(other)} cannot be in either",
                )


def _opposite(board: Board, corners: tuple[Cell, ...], cell: Cell) -> Cell:
    """Return the corner of *corners* diagonally opposite *cell* (no row or column shared)."""
    geo = board.geometry
    return next(
        k
        for k in corners
        if geo.row_of(k) != geo.row_of(cell) and geo.col_of(k) != geo.col_of(cell)
    )


def find_unique_rectangle_5(board: Board) -> Iterator[Step]:
    """Yield every Unique Rectangle type 5: diagonal or three corners add the same one digit.

    The corners holding more than {a, b} all add only z, and they are two diagonal corners or
    three corners (two in a line are type 2).  One of them is z, so a cell that sees all of
    them cannot be z.

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2, 5), 27: (1, 2, 5), 28: (1, 2, 5)})
    >>> print(next(find_unique_rectangle_5(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Unique Rectangle type 5: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; r1c2,
    r4c1 and r4c2 hold one more candidate, 5, so one of them is 5 and r5c2 and r6c2 cannot be 5
    """
    geo = board.geometry
    cands = board.cands
    for rect in _rectangles(board, min_floor=1, max_extra=1):
        escape = tuple(k for k in rect.corners if cands[k] & ~rect.pair)
        extra = 0
        for k in escape:
            extra |= cands[k] & ~rect.pair
        if extra.bit_count() != 1 or len(escape) not in (2, 3):
            continue
        if len(escape) == 2 and _shared_houses(board, *escape):
            continue  # type 2
        z = extra.bit_length()
        targets = board.common_peers(escape, z)
        if not targets:
            continue
        ch = geo.digit_char(z)
        yield Step(
            Technique.UNIQUE_RECTANGLE_5,
            (),
            tuple(Elimination(c, z) for c in targets),
            rect.corners,
            (),
            (*digits_of(rect.pair), z),
            f"Unique Rectangle type 5: {_intro(board, rect)}; {_names(board, escape)} hold one "
            f"more candidate, {ch}, so one of them is {ch} and {_names(board, targets)} cannot "
            f"be {ch}",
        )


def _only_in(board: Board, house: House, digit: Digit, cells: tuple[Cell, ...]) -> bool:
    """True when every place of *digit* in *house* is one of *cells*."""
    bit = 1 << (digit - 1)
    return all(c in cells or not board.cands[c] & bit for c in board.geometry.houses[house])


def find_unique_rectangle_6(board: Board) -> Iterator[Step]:
    """Yield every Unique Rectangle type 6: an X-Wing on a or b inside the rectangle.

    The two corners holding only {a, b} are diagonal.  When a has no other place in the two
    rows (or the two columns) of the rectangle, a goes in one diagonal; in the other corners
    it would leave {b, b} on the floor, a deadly pattern, so a goes from the other corners.

    >>> b = _board_from_masks({0: (1, 2), 28: (1, 2), 1: (1, 2, 5), 27: (1, 2, 6)},
    ...                       {1: [0, 1, 27, 28, 9, 45]})
    >>> print(next(find_unique_rectangle_6(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Unique Rectangle type 6: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; rows 1
    and 4 hold 1 only in the rectangle, so 1 lies on one of its diagonals, and not on r1c2 and
    r4c1 (it would leave a deadly pattern): r1c2 and r4c1 cannot be 1
    """
    geo = board.geometry
    n = geo.size
    cands = board.cands
    for rect in _rectangles(board):
        if len(rect.floor) != 2 or _shared_houses(board, *rect.floor):
            continue
        roof = rect.roof
        for x in digits_of(rect.pair):
            bit = 1 << (x - 1)
            hit = tuple(k for k in roof if cands[k] & bit)
            if not hit:
                continue
            rows = sorted({geo.row_of(k) for k in rect.corners})
            cols = sorted({geo.col_of(k) for k in rect.corners})
            for word, lines in (("rows", rows), ("columns", [n + c for c in cols])):
                if all(_only_in(board, h, x, rect.corners) for h in lines):
                    ch = geo.digit_char(x)
                    names = " and ".join(str(h % n + 1) for h in lines)
                    yield Step(
                        Technique.UNIQUE_RECTANGLE_6,
                        (),
                        tuple(Elimination(k, x) for k in hit),
                        rect.corners,
                        tuple(lines),
                        digits_of(rect.pair),
                        f"Unique Rectangle type 6: {_intro(board, rect)}; {word} {names} hold "
                        f"{ch} only in the rectangle, so {ch} lies on one of its diagonals, and "
                        f"not on {_names(board, roof)} (it would leave a deadly pattern): "
                        f"{_names(board, hit)} cannot be {ch}",
                    )
                    break


def find_hidden_rectangle(board: Board) -> Iterator[Step]:
    """Yield every Hidden Rectangle: strong links on a at the corner opposite a {a, b} cell.

    Corner A holds only {a, b}; in the row and in the column of the opposite corner D, a has
    no place outside the rectangle.  If D were b, a would fill the two other corners, A would
    be b: a deadly pattern.  So D is not b.

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2, 5), 27: (1, 2, 6), 28: (1, 2, 7)},
    ...                       {1: [0, 1, 27, 28, 9]})
    >>> print(next(find_hidden_rectangle(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Hidden Rectangle: r1c1/r1c2/r4c1/r4c2 would be a deadly pattern on 1 and 2; r1c1 holds
    only those, and row 4 and column 2 hold 1 only in the rectangle, so if r4c2 were 2, 1 would
    fill r1c2 and r4c1 and r1c1 would be 2: r4c2 cannot be 2
    """
    geo = board.geometry
    if not geo.standard:
        return
    n = geo.size
    cands = board.cands
    values = board.values
    # the places of each digit in each row and column (strong links are what this needs)
    lines: dict[tuple[Digit, House], list[Cell]] = {}
    for h in range(2 * n):
        for c in geo.houses[h]:
            for d in digits_of(cands[c]):
                lines.setdefault((d, h), []).append(c)
    seen: set[tuple[Cell, Digit]] = set()
    for anchor in range(geo.cell_count):
        pair = cands[anchor]
        if values[anchor] or pair.bit_count() != 2:
            continue
        ra, ca = divmod(anchor, n)
        for x in digits_of(pair):
            y = (pair & ~(1 << (x - 1))).bit_length()
            for r2 in range(n):
                row_places = lines.get((x, r2), [])
                side_r = r2 * n + ca
                if r2 == ra or len(row_places) != 2 or side_r not in row_places:
                    continue
                d = row_places[0] + row_places[1] - side_r
                c2 = d % n
                side_c = ra * n + c2
                col_places = lines.get((x, n + c2), [])
                if len(col_places) != 2 or side_c not in col_places:
                    continue
                if (ra // geo.box_rows == r2 // geo.box_rows) == (
                    ca // geo.box_cols == c2 // geo.box_cols
                ):
                    continue  # one box or four boxes
                corners = tuple(sorted((anchor, side_r, side_c, d)))
                if any(values[k] or not cands[k] & pair for k in corners):
                    continue
                if not cands[d] >> (y - 1) & 1 or (d, y) in seen:
                    continue
                a, b, c, e = corners
                rect = _Rectangle(
                    (a, b, c, e),
                    pair,
                    tuple(k for k in corners if cands[k] == pair),
                    tuple(k for k in corners if cands[k] != pair),
                )
                sides = (side_c, side_r) if side_c < side_r else (side_r, side_c)
                row, col = r2, n + c2
                seen.add((d, y))
                cx, cy = geo.digit_char(x), geo.digit_char(y)
                yield Step(
                    Technique.HIDDEN_RECTANGLE,
                    (),
                    (Elimination(d, y),),
                    rect.corners,
                    (row, col),
                    digits_of(rect.pair),
                    f"Hidden Rectangle: {_intro(board, rect)}; {geo.cell_name(anchor)} holds only "
                    f"those, and {geo.house_name(row)} and {geo.house_name(col)} hold {cx} only "
                    f"in the rectangle, so if {geo.cell_name(d)} were {cy}, {cx} would fill "
                    f"{_names(board, sides)} and {geo.cell_name(anchor)} would be {cy}: "
                    f"{geo.cell_name(d)} cannot be {cy}",
                )


def _solved_rectangles(board: Board, solved: int) -> Iterator[tuple[tuple[Cell, ...], list[Cell]]]:
    """Yield ``(corners, open corners)`` of two-box rectangles with *solved* placed corners.

    The solved corners were filled by solving (not givens), so they could be swapped.  Two of
    them always share a row or a column: the search starts from such pairs.
    """
    geo = board.geometry
    placed = board.placed
    if not geo.standard or placed.bit_count() < 2:
        return
    n = geo.size
    values = board.values
    seen: set[tuple[Cell, ...]] = set()
    for by_rows in (True, False):
        for line in range(n):
            cells = [line * n + i if by_rows else i * n + line for i in range(n)]
            done = [i for i, c in enumerate(cells) if placed >> c & 1]
            for j, a in enumerate(done):
                for b in done[j + 1 :]:
                    for other in range(n):
                        if other == line:
                            continue
                        # the corners on *line* are solved; a rectangle whose other two make
                        # another count is never yielded, wherever it is met first
                        k1, k2 = (
                            (other * n + a, other * n + b)
                            if by_rows
                            else (a * n + other, b * n + other)
                        )
                        if 2 + (placed >> k1 & 1) + (placed >> k2 & 1) != solved:
                            continue
                        rows, cols = ((line, other), (a, b)) if by_rows else ((a, b), (line, other))
                        same_band = rows[0] // geo.box_rows == rows[1] // geo.box_rows
                        if same_band == (cols[0] // geo.box_cols == cols[1] // geo.box_cols):
                            continue
                        corners = tuple(sorted(r * n + c for r in rows for c in cols))
                        if corners in seen:
                            continue
                        seen.add(corners)
                        if sum(placed >> k & 1 for k in corners) != solved:
                            continue
                        rest = [k for k in corners if not values[k]]
                        if len(rest) == 4 - solved:
                            yield corners, rest


def find_avoidable_rectangle_1(board: Board) -> Iterator[Step]:
    """Yield every Avoidable Rectangle type 1: three solved corners, not givens.

    Corners B and C (diagonal) were solved as y, D as x; if the fourth corner A were x, the
    four cells could swap x and y (none is a given): two solutions.  So A is not x.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> values = (0, 2, 0, 0, 0, 0, 0, 0, 0) + (0,) * 18 + (2, 1) + (0,) * 52
    >>> cands = (0b11,) + (511,) * 80
    >>> b = Board.from_candidates(values, cands, CLASSIC, placed=1 << 1 | 1 << 27 | 1 << 28)
    >>> print(next(find_avoidable_rectangle_1(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Avoidable Rectangle type 1: r1c2 and r4c1 were solved as 2 and r4c2 as 1, none of them a
    given; if r1c1 were 1 the four cells could swap 1 and 2, so r1c1 cannot be 1
    """
    geo = board.geometry
    values = board.values
    for corners, rest in _solved_rectangles(board, 3):
        a = rest[0]
        d = _opposite(board, corners, a)
        sides = tuple(k for k in corners if k not in (a, d))
        y, x = values[sides[0]], values[d]
        if values[sides[1]] != y or x == y or not board.cands[a] >> (x - 1) & 1:
            continue
        cx, cy = geo.digit_char(x), geo.digit_char(y)
        yield Step(
            Technique.AVOIDABLE_RECTANGLE_1,
            (),
            (Elimination(a, x),),
            corners,
            (),
            (x, y),
            f"Avoidable Rectangle type 1: {_names(board, sides)} were solved as {cy} and "
            f"{geo.cell_name(d)} as {cx}, none of them a given; if {geo.cell_name(a)} were {cx} "
            f"the four cells could swap {cx} and {cy}, so {geo.cell_name(a)} cannot be {cx}",
        )


def find_avoidable_rectangle_2(board: Board) -> Iterator[Step]:
    """Yield every Avoidable Rectangle type 2: two solved corners and one extra digit.

    Two corners in a line were solved as x and y (not givens); the two open corners hold the
    digit that would complete the swap and one more candidate z, the same in both.  One of
    them is z, so a cell that sees both cannot be z.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> values = (1, 2) + (0,) * 79
    >>> cands = (0, 0) + (511,) * 25 + (0b10010, 0b10001) + (511,) * 52
    >>> b = Board.from_candidates(values, cands, CLASSIC, placed=0b11)
    >>> print(next(find_avoidable_rectangle_2(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Avoidable Rectangle type 2: r1c1 and r1c2 were solved as 1 and 2, not givens; r4c1 and
    r4c2 would complete the swap with 2 and 1 and hold only one more candidate, 5, so one of
    them is 5 and r4c3, r4c4, r4c5, r4c6, r4c7, r4c8, r4c9, r5c1, r5c2, r5c3, r6c1, r6c2 and
    r6c3 cannot be 5
    """
    geo = board.geometry
    values = board.values
    cands = board.cands
    for corners, rest in _solved_rectangles(board, 2):
        u1, u2 = rest
        p1, p2 = _opposite(board, corners, u2), _opposite(board, corners, u1)
        if not _shared_houses(board, p1, p2) or values[p1] == values[p2]:
            continue  # the solved corners share a line, so the open ones need their digits
        need1, need2 = values[p2], values[p1]
        extra1 = cands[u1] & ~(1 << (need1 - 1))
        extra2 = cands[u2] & ~(1 << (need2 - 1))
        if extra1 != extra2 or extra1.bit_count() != 1:
            continue
        if not (cands[u1] >> (need1 - 1) & 1 and cands[u2] >> (need2 - 1) & 1):
            continue
        z = extra1.bit_length()
        targets = board.common_peers((u1, u2), z)
        if not targets:
            continue
        ch = geo.digit_char(z)
        yield Step(
            Technique.AVOIDABLE_RECTANGLE_2,
            (),
            tuple(Elimination(c, z) for c in targets),
            corners,
            _shared_houses(board, u1, u2),
            (values[p1], values[p2], z),
            f"Avoidable Rectangle type 2: {geo.cell_name(p1)} and {geo.cell_name(p2)} were "
            f"solved as {geo.digit_char(values[p1])} and {geo.digit_char(values[p2])}, not "
            f"givens; {geo.cell_name(u1)} and {geo.cell_name(u2)} would complete the swap with "
            f"{geo.digit_char(need1)} and {geo.digit_char(need2)} and hold only one more "
            f"candidate, {ch}, so one of them is {ch} and {_names(board, targets)} cannot be {ch}",
        )


def find_bug_plus_1(board: Board) -> Iterator[Step]:
    """Yield the BUG+1 step: the one cell with three candidates must hold its odd digit.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "32...648..684.1235.4582369.854267913.3.185742217..456847...2859.82..9374593748126"))
    >>> step = next(find_bug_plus_1(b))
    >>> print(step.explanation)  # doctest: +NORMALIZE_WHITESPACE
    BUG+1: every unsolved cell but r1c5 has two candidates, and each candidate appears twice in
    every house except 9, which appears three times in the houses of r1c5. If r1c5 were not 9,
    that pattern would have zero or two solutions, so r1c5 is 9 and cannot be 5 or 7
    """
    geo = board.geometry
    if not geo.standard:
        return
    cands = board.cands
    values = board.values
    odd = -1
    for c in range(geo.cell_count):
        if values[c]:
            continue
        k = cands[c].bit_count()
        if k == 3 and odd < 0:
            odd = c
        elif k != 2:
            return
    if odd < 0:
        return
    odd_houses = set(geo.houses_of[odd])
    extra = 0
    for h, cells in enumerate(geo.houses):
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            k = sum(1 for c in cells if cands[c] & bit)
            if k in (0, 2):
                continue
            if k == 3 and h in odd_houses and cands[odd] & bit:
                if extra and extra != bit:
                    return
                extra = bit
                continue
            return
    if not extra:
        return
    digit = extra.bit_length()
    others = digits_of(cands[odd] & ~extra)
    ch = geo.digit_char(digit)
    yield Step(
        Technique.BUG_PLUS_1,
        (),
        tuple(Elimination(odd, d) for d in others),
        (odd,),
        tuple(sorted(odd_houses)),
        (digit,),
        f"BUG+1: every unsolved cell but {geo.cell_name(odd)} has two candidates, and each "
        f"candidate appears twice in every house except {ch}, which appears three times in the "
        f"houses of {geo.cell_name(odd)}. If {geo.cell_name(odd)} were not {ch}, that pattern "
        f"would have zero or two solutions, so {geo.cell_name(odd)} is {ch} and cannot be "
        f"{_digits(board, cands[odd] & ~extra, 'or')}",
    )


# Sudoku Explainer's ratings of its BUG types (a type 3 adds 0.1 per naked digit beyond the
# first).
BUG_RATINGS = {1: 5.6, 2: 5.7, 3: 5.7, 4: 5.7}
BUG_SUBSET_STEP = 0.1
# Where a cell's box, row and column stand in ``geometry.houses_of``, in SE's order of kinds.
_SE_KINDS = (2, 0, 1)


def find_bug(board: Board) -> Iterator[Step]:
    """Yield Sudoku Explainer's bivalue universal grave steps, types 1 to 4, in its order.

    Take each digit that has neither zero nor two places in a house (boxes, then rows, then
    columns): exactly one of its places must be a cell with three candidates or more, a *BUG
    cell*, which holds that digit as an extra.  Without their extras every unsolved cell has two
    candidates and every digit two places in each house: a deadly pattern, so some BUG cell
    holds an extra digit.  Type 1: one BUG cell, which keeps its extras only.  Type 2: one extra
    digit for all, which cells seeing every BUG cell lose.  Type 3: the BUG cells' extras, as
    one cell, make a naked subset with other cells of a house they all share.  Type 4: two BUG
    cells in a house sharing a digit besides their extras (its only places there): each keeps
    that digit and its extras.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "32...648..684.1235.4582369.854267913.3.185742217..456847...2859.82..9374593748126"))
    >>> step = next(find_bug(b))
    >>> step.technique.value, step.rating, step.eliminations
    ('BUG+1', 5.6, (Elimination(cell=4, digit=5), Elimination(cell=4, digit=7)))
    """
    geo = board.geometry
    if not geo.standard:
        return
    cands = board.cands
    values = board.values
    n = geo.size
    bug_cells: list[Cell] = []
    extras: dict[Cell, int] = {}
    every_extra = 0
    common: set[Cell] | None = None
    left = list(cands)
    order = [h for k in _SE_KINDS for h in range(k * n, (k + 1) * n)]
    for house in order:
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            places = [c for c in geo.houses[house] if cands[c] & bit]
            if len(places) in (0, 2):
                continue
            wide = [c for c in places if cands[c].bit_count() >= 3]
            if not wide:
                return
            if len(wide) > 1:
                continue  # another house tells which of them holds it
            cell = wide[0]
            if cell not in bug_cells:
                bug_cells.append(cell)
            extras[cell] = extras.get(cell, 0) | bit
            every_extra |= bit
            left[cell] &= ~bit
            seen = set(geo.peer_sets[cell])
            common = seen if common is None else common & seen
            common -= set(bug_cells)
            if len(bug_cells) > 1 and every_extra.bit_count() > 1 and not common:
                return
    if any(not values[c] and left[c].bit_count() != 2 for c in range(geo.cell_count)):
        return
    for cells in geo.houses:
        for d in range(1, n + 1):
            if sum(1 for c in cells if left[c] >> (d - 1) & 1) not in (0, 2):
                return
    if not bug_cells:
        return
    if len(bug_cells) == 1:
        yield _bug_1(board, bug_cells[0], every_extra)
        return
    shared = [
        h
        for h in (geo.houses_of[bug_cells[0]][k] for k in _SE_KINDS)
        if all(h in geo.houses_of[c] for c in bug_cells)
    ]
    if every_extra.bit_count() == 1:
        step = _bug_2(board, bug_cells, every_extra, common or set())
        if step is not None:
            yield step
        if len(bug_cells) == 2:
            yield from _bug_4(board, bug_cells, extras, every_extra, shared)
    elif common:
        if len(bug_cells) == 2:
            yield from _bug_4(board, bug_cells, extras, every_extra, shared)
        yield from _bug_3(board, bug_cells, every_extra, common, shared)


def _bug_intro(board: Board, bug_cells: list[Cell], every_extra: int) -> str:
    names = _names(board, tuple(bug_cells))
    return (
        f"without {_digits(board, every_extra, 'and')} in {names}, every unsolved cell would "
        f"have two candidates and every digit two places in each house, a deadly pattern"
    )


def _bug_1(board: Board, cell: Cell, every_extra: int) -> Step:
    geo = board.geometry
    others = board.cands[cell] & ~every_extra
    return Step(
        Technique.BUG_PLUS_1,
        (),
        tuple(Elimination(cell, d) for d in digits_of(others)),
        (cell,),
        geo.houses_of[cell][:3],
        digits_of(every_extra),
        f"BUG+1: {_bug_intro(board, [cell], every_extra)}, so {geo.cell_name(cell)} is "
        f"{_digits(board, every_extra, 'or')} and cannot be {_digits(board, others, 'or')}",
        BUG_RATINGS[1],
    )


def _bug_2(board: Board, bug_cells: list[Cell], every_extra: int, common: set[Cell]) -> Step | None:
    z = every_extra.bit_length()
    targets = tuple(sorted(c for c in common if board.cands[c] & every_extra))
    if not targets:
        return None
    ch = board.geometry.digit_char(z)
    return Step(
        Technique.BUG_TYPE_2,
        (),
        tuple(Elimination(c, z) for c in targets),
        tuple(bug_cells),
        (),
        (z,),
        f"BUG type 2: {_bug_intro(board, bug_cells, every_extra)}, so one of "
        f"{_names(board, tuple(bug_cells), 'or')} is {ch}, and {_names(board, targets)} "
        f"cannot be {ch}",
        BUG_RATINGS[2],
    )


def _bug_3(
    board: Board, bug_cells: list[Cell], every_extra: int, common: set[Cell], shared: list[House]
) -> Iterator[Step]:
    geo = board.geometry
    cands = board.cands
    for house in shared:
        in_house = [c for c in geo.houses[house] if c in common]
        for degree in range(2, 7):
            if len(in_house) < degree:
                continue
            chosen = sorted(
                combinations(range(len(in_house)), degree - 1),
                key=lambda combo: sum(1 << i for i in combo),
            )
            for combo in chosen:
                naked_cells = tuple(in_house[i] for i in combo)
                union = 0
                for c in naked_cells:
                    union |= cands[c]
                if union.bit_count() != degree:
                    continue
                if any(cands[c].bit_count() <= 1 for c in naked_cells):
                    continue
                if (union | every_extra).bit_count() != degree:
                    continue
                targets = [c for c in in_house if c not in naked_cells and c not in bug_cells]
                elims = tuple(
                    Elimination(c, d) for c in targets for d in digits_of(cands[c] & union)
                )
                if not elims:
                    continue
                rating = round(BUG_RATINGS[3] + BUG_SUBSET_STEP * (degree - 1), 1)
                yield Step(
                    Technique.BUG_TYPE_3,
                    (),
                    elims,
                    tuple(bug_cells) + naked_cells,
                    (house,),
                    digits_of(union),
                    f"BUG type 3: {_bug_intro(board, bug_cells, every_extra)}, so "
                    f"{_names(board, tuple(bug_cells), 'or')} holds "
                    f"{_digits(board, every_extra, 'or')}: with {_names(board, naked_cells)} "
                    f"that makes a naked subset on {_digits(board, union)} in "
                    f"{geo.house_name(house)}, whose other cells lose those digits",
                    rating,
                )


def _bug_4(
    board: Board,
    bug_cells: list[Cell],
    extras: dict[Cell, int],
    every_extra: int,
    shared: list[House],
) -> Iterator[Step]:
    geo = board.geometry
    cands = board.cands
    c1, c2 = bug_cells
    both = cands[c1] & cands[c2] & ~every_extra
    if both.bit_count() != 1:
        return
    x = both.bit_length()
    for house in shared:
        elims = tuple(
            Elimination(c, d) for c in (c1, c2) for d in digits_of(cands[c] & ~extras[c] & ~both)
        )
        yield Step(
            Technique.BUG_TYPE_4,
            (),
            elims,
            (c1, c2),
            (house,),
            (x,),
            f"BUG type 4: {_bug_intro(board, bug_cells, every_extra)}; {geo.digit_char(x)} "
            f"only goes in {_names(board, (c1, c2))} in {geo.house_name(house)}, so each keeps "
            f"{geo.digit_char(x)} and its extra digits",
            BUG_RATINGS[4],
        )


def _board_from_masks(
    masks: dict[Cell, tuple[Digit, ...]], places: dict[Digit, list[Cell]] | None = None
) -> Board:
    """Return an empty-valued 9x9 board for examples: *masks* fixes some cells' candidates.

    Every other cell holds all digits, except that a digit in *places* is a candidate only in
    those cells and in the cells of *masks* that list it.
    """
    from xlsudoku.engine.grid import CLASSIC
    from xlsudoku.engine.masks import mask_of

    cands = [CLASSIC.all_digits] * 81
    for digit, cells in (places or {}).items():
        cands = [m if i in cells else m & ~(1 << (digit - 1)) for i, m in enumerate(cands)]
    for cell, digits in masks.items():
        cands[cell] = mask_of(digits)
    return Board.from_candidates((0,) * 81, tuple(cands))
