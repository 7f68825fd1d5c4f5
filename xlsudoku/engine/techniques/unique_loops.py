"""Unique loops as Sudoku Explainer finds them: rectangles and longer loops on two digits.

A *unique loop* is a closed path of unsolved cells that all hold two digits {a, b}, each cell
sharing a house with the next, such that every house it visits holds exactly two of its cells,
one at an even and one at an odd place along the path.  Were every cell limited to {a, b}, the
two digits could be swapped along it: two solutions.  So some cell of the loop holds another
digit, and types 1 to 4 (as for rectangles, ``techniques.uniqueness``) use that.

Sudoku Explainer 1.2.1 searches them its own way, which sets its ratings and is kept here:

- a loop starts at a cell with exactly {a, b}, steps to a cell of a house of another kind than
  the last step's (box, row, column in that order), and every cell holds both a and b, at most
  two of them more (or any number of them one and the same third digit);
- with one cell holding more, type 1; with two, type 2 when they add the same single digit,
  else type 3 (a naked subset with the loop's extra digits as one cell, or a hidden subset
  without one of the two cells), and type 4 either way; with more, type 2;
- a naked subset of k cells is sought only in a house with 2k unsolved cells or more, a hidden
  one of k digits only in one with more than 2k;
- the rating is 4.5, plus 0.1 for a loop of 6 cells, 0.2 of 8, 0.5 of 10 or more, plus for a
  type 3 0.1 per naked digit beyond the first, or per hidden cell beyond the first; the easiest
  comes first (then the lower type, then the order found).
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

# SE's ratings: a loop's base by its length (the last entry whose length it reaches), and what
# a cell of a type 3 subset beyond the first adds.
LOOP_BASE = ((4, 4.5), (6, 4.6), (8, 4.7), (10, 5.0))
SUBSET_STEP = 0.1
# Where a cell's box, row and column stand in ``geometry.houses_of``, in SE's order of kinds.
_SE_KINDS = (2, 0, 1)
_RECTANGLE_TYPES = {
    1: Technique.UNIQUE_RECTANGLE_1,
    2: Technique.UNIQUE_RECTANGLE_2,
    3: Technique.UNIQUE_RECTANGLE_3,
    4: Technique.UNIQUE_RECTANGLE_4,
}


@dataclass(frozen=True, slots=True)
class _Found:
    """One loop hint before it becomes a step: its type, rating, removals and wording."""

    kind: int
    rating: float
    loop: tuple[Cell, ...]
    removals: tuple[Elimination, ...]
    key: tuple[object, ...]
    why: str


def loop_base(length: int) -> float:
    """Return SE's rating of a unique loop of *length* cells before any type 3 subset.

    >>> [loop_base(n) for n in (4, 6, 8, 10, 12)]
    [4.5, 4.6, 4.7, 5.0, 5.0]
    """
    return max(score for cells, score in LOOP_BASE if length >= cells)


def find_unique_loops(board: Board) -> Iterator[Step]:
    """Yield Sudoku Explainer's unique rectangles and loops, types 1 to 4, easiest first.

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 1: (1, 2), 27: (1, 2), 28: (1, 2, 5)})
    >>> step = next(find_unique_loops(b))
    >>> step.technique.value, step.rating, step.eliminations
    ('Unique Rectangle Type 1', 4.5, (Elimination(cell=28, digit=1), Elimination(cell=28, digit=2)))
    """
    geo = board.geometry
    if not geo.standard:
        return
    cands = board.cands
    values = board.values
    found: list[_Found] = []
    keys: set[tuple[object, ...]] = set()
    holders: dict[int, tuple[tuple[Cell, ...], ...]] = {}  # pair -> each house's cells with it
    cores: dict[int, frozenset[Cell]] = {}  # pair -> the cells a loop on it may use
    loops_seen: set[tuple[frozenset[Cell], tuple[Cell, ...]]] = set()
    for start in range(geo.cell_count):
        pair = cands[start]
        if values[start] or pair.bit_count() != 2:
            continue
        if pair not in holders:
            in_house: list[list[Cell]] = [[] for _ in geo.houses]
            for c in range(geo.cell_count):
                if not values[c] and cands[c] & pair == pair:
                    for h in geo.houses_of[c]:
                        in_house[h].append(c)
            holders[pair] = tuple(tuple(cells) for cells in in_house)
            cores[pair] = _core(board, holders[pair])
        if start not in cores[pair]:
            continue
        for loop in _loops(board, start, holders[pair], cores[pair]):
            # the same loop again (other way round, or closed through another house) only
            # repeats hints, unless its cells with more digits come in another order
            seen = (frozenset(loop), tuple(c for c in loop if cands[c] != pair))
            if seen in loops_seen or not _valid(board, loop):
                continue
            loops_seen.add(seen)
            for hint in _hints(board, loop, pair):
                if hint.key not in keys and hint.removals:
                    keys.add(hint.key)
                    found.append(hint)
    found.sort(key=lambda hint: (hint.rating, hint.kind))  # stable: the order found on ties
    for hint in found:
        if len(hint.loop) == 4:
            technique = _RECTANGLE_TYPES[hint.kind]
            name = f"Unique Rectangle type {hint.kind}"
        else:
            technique = Technique.UNIQUE_LOOP
            name = f"Unique Loop type {hint.kind} ({len(hint.loop)} cells)"
        yield Step(
            technique,
            (),
            hint.removals,
            hint.loop,
            (),
            tuple(sorted({e.digit for e in hint.removals})),
            f"{name}: {hint.why}",
            hint.rating,
        )


def _core(board: Board, holders: tuple[tuple[Cell, ...], ...]) -> frozenset[Cell]:
    """Return the cells of *holders* that have another one in each of their houses, repeatedly.

    A cell of a valid loop shares each of its houses with another cell of the loop.
    """
    houses_of = board.geometry.houses_of
    cells = {c for house in holders for c in house}
    count = [len(house) for house in holders]
    alone = [c for c in cells if any(count[h] < 2 for h in houses_of[c][:3])]
    while alone:
        cell = alone.pop()
        if cell not in cells:
            continue
        cells.discard(cell)
        for h in houses_of[cell][:3]:
            count[h] -= 1
            if count[h] == 1:
                alone.extend(c for c in holders[h] if c in cells)
    return frozenset(cells)


def _loops(
    board: Board, start: Cell, holders: tuple[tuple[Cell, ...], ...], core: frozenset[Cell]
) -> Iterator[tuple[Cell, ...]]:
    """Yield SE's candidate loops through *start*, as it finds them.

    *holders* gives each house's unsolved cells that hold both digits of the start's pair, and
    *core* those a valid loop may use (:func:`_core`).  SE looks at every holder; a path only
    grows through the core, and stops where a house would hold a third cell of it or two at
    places of the same parity (no such path closes a valid loop).
    """
    geo = board.geometry
    cands = board.cands
    pair = cands[start]
    path = [start]
    on_path = {start}
    count = [0] * len(geo.houses)  # cells of the path in each house
    parity = [0] * len(geo.houses)  # the parity of the first of them
    for h in geo.houses_of[start][:3]:
        count[h] = 1

    def grow(cell: Cell, allowed: int, extra: int, last: int) -> Iterator[tuple[Cell, ...]]:
        extra_here = extra
        side = len(path) % 2
        for kind in range(3):
            if kind == last:
                continue
            for nxt in holders[geo.houses_of[cell][_SE_KINDS[kind]]]:
                if nxt == start and len(path) >= 4:
                    yield tuple(path)
                    continue
                if nxt in on_path:
                    continue
                m = cands[nxt]
                if m == pair and nxt < start:
                    continue  # a loop through it was found from it, both ways round
                # SE gathers the extra digits of every cell it looks at from here on
                extra_here |= m & ~pair
                more = m != pair
                if more and allowed <= 0 and extra_here.bit_count() != 1:
                    continue
                if nxt not in core:
                    continue
                own = geo.houses_of[nxt][:3]
                if any(count[h] == 2 or (count[h] and parity[h] == side) for h in own):
                    continue
                path.append(nxt)
                on_path.add(nxt)
                for h in own:
                    count[h] += 1
                    parity[h] = side if count[h] == 1 else parity[h]
                yield from grow(nxt, allowed - more, extra_here, kind)
                for h in own:
                    count[h] -= 1
                on_path.discard(nxt)
                path.pop()

    yield from grow(start, 2, 0, -1)


def _valid(board: Board, loop: tuple[Cell, ...]) -> bool:
    """Return True when every house of *loop* holds two of its cells, of opposite parity."""
    houses_of = board.geometry.houses_of
    even: set[House] = set()
    odd: set[House] = set()
    for i, cell in enumerate(loop):
        side = odd if i % 2 else even
        for house in houses_of[cell][:3]:
            if house in side:
                return False
            side.add(house)
    return even == odd


def _hints(board: Board, loop: tuple[Cell, ...], pair: int) -> Iterator[_Found]:
    """Yield the type 1 to 4 hints of a valid *loop* on *pair*, in SE's order."""
    cands = board.cands
    base = loop_base(len(loop))
    key = frozenset(loop)
    a, b = digits_of(pair)
    geo = board.geometry
    intro = (
        f"{'/'.join(geo.cell_name(c) for c in loop)} would be a deadly pattern on "
        f"{geo.digit_char(a)} and {geo.digit_char(b)}"
    )
    extra_cells = [c for c in loop if cands[c].bit_count() > 2]
    if len(extra_cells) == 1:
        (cell,) = extra_cells
        removals = tuple(Elimination(cell, d) for d in (a, b))
        yield _Found(
            1,
            base,
            loop,
            removals,
            (1, key),
            f"{intro}, so {geo.cell_name(cell)}, the only cell with another digit, is neither",
        )
        return
    if len(extra_cells) > 2:
        yield from _type_2(board, loop, pair, extra_cells, base, intro, key)
        return
    if len(extra_cells) != 2:
        return
    c1, c2 = extra_cells
    extra = (cands[c1] | cands[c2]) & ~pair
    if extra.bit_count() == 1:
        yield from _type_2(board, loop, pair, extra_cells, base, intro, key)
    elif extra.bit_count() >= 2:
        yield from _type_3(board, loop, pair, c1, c2, extra, base, intro, key)
    yield from _type_4(board, loop, pair, c1, c2, base, intro, key)


def _type_2(
    board: Board,
    loop: tuple[Cell, ...],
    pair: int,
    extra_cells: list[Cell],
    base: float,
    intro: str,
    key: frozenset[Cell],
) -> Iterator[_Found]:
    geo = board.geometry
    extra = board.cands[extra_cells[0]] & ~pair
    if extra.bit_count() != 1:
        return
    z = extra.bit_length()
    targets = board.common_peers(tuple(extra_cells), z)
    ch = geo.digit_char(z)
    names = ", ".join(geo.cell_name(c) for c in extra_cells)
    yield _Found(
        2,
        base,
        loop,
        tuple(Elimination(c, z) for c in targets),
        (2, key),
        f"{intro}, so one of {names} is {ch}, and "
        f"{', '.join(geo.cell_name(c) for c in targets)} cannot be {ch}",
    )


def _shared(board: Board, c1: Cell, c2: Cell) -> list[House]:
    """Return the houses *c1* and *c2* share, box first, then row, then column (SE's order)."""
    houses_of = board.geometry.houses_of
    return [houses_of[c1][k] for k in _SE_KINDS if houses_of[c1][k] == houses_of[c2][k]]


@functools.cache
def _colex(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Return the k-subsets of range(n) in SE's order (their bit masks ascending).

    >>> _colex(3, 2)
    ((0, 1), (0, 2), (1, 2))
    """
    return tuple(sorted(combinations(range(n), k), key=lambda combo: sum(1 << i for i in combo)))


def _within(masks: list[int], start: int, k: int, most: int) -> list[tuple[int, ...]]:
    """Return the k-subsets of *masks*' indices whose union with *start* has <= *most* bits.

    They come in ``_colex`` order, and are the only ones that can make a subset of degree
    *most*; the search drops a partial subset as soon as its union is too large.

    >>> _within([0b1, 0b10, 0b1100], 0, 2, 2)
    [(0, 1)]
    >>> _within([0b1, 0b10, 0b100], 0, 2, 2) == list(_colex(3, 2))
    True
    """
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def grow(first: int, union: int) -> None:
        if len(chosen) == k:
            found.append(tuple(chosen))
            return
        for i in range(first, len(masks) - (k - len(chosen)) + 1):
            more = union | masks[i]
            if more.bit_count() <= most:
                chosen.append(i)
                grow(i + 1, more)
                chosen.pop()

    if start.bit_count() <= most:
        grow(0, start)
    found.sort(key=lambda combo: sum(1 << i for i in combo))
    return found


def _places(board: Board, cells: tuple[Cell, ...], skip: int, d: Digit) -> int:
    """Return the positions in *cells* (but *skip*) of the empty cells with candidate *d*."""
    values = board.values
    cands = board.cands
    places = 0
    for i, c in enumerate(cells):
        if i != skip and not values[c] and cands[c] >> (d - 1) & 1:
            places |= 1 << i
    return places


def _type_3(
    board: Board,
    loop: tuple[Cell, ...],
    pair: int,
    c1: Cell,
    c2: Cell,
    extra: int,
    base: float,
    intro: str,
    key: frozenset[Cell],
) -> Iterator[_Found]:
    geo = board.geometry
    cands = board.cands
    values = board.values
    n = geo.size
    shared = _shared(board, c1, c2)
    for degree in range(extra.bit_count(), n - 1):
        for house in shared:
            cells = geo.houses[house]
            empty = sum(1 for c in cells if not values[c])
            i2 = cells.index(c2)
            # the subset's other cells: unsolved, two candidates or more (SE's order of sets)
            usable = [c for c in cells if c not in (c1, c2) and cands[c].bit_count() >= 2]
            if 2 * degree <= empty and len(usable) >= degree - 1:
                masks = [cands[c] for c in usable]
                for combo in _within(masks, extra, degree - 1, degree):
                    others = tuple(usable[i] for i in combo)
                    naked = extra & cands[c1] & cands[c2]
                    for c in others:
                        naked |= cands[c]
                    if naked.bit_count() != degree:
                        continue
                    union = extra
                    for c in others:
                        union |= cands[c]
                    if union.bit_count() != degree:
                        continue
                    removals = tuple(
                        Elimination(c, d)
                        for c in cells
                        if c not in others and c not in (c1, c2)
                        for d in digits_of(cands[c] & union)
                    )
                    text = ", ".join(geo.cell_name(c) for c in others)
                    digits = ", ".join(geo.digit_char(d) for d in digits_of(union))
                    yield _Found(
                        3,
                        round(base + SUBSET_STEP * (degree - 1), 1),
                        loop,
                        removals,
                        (3, key, house, union, others),
                        f"{intro}, so {geo.cell_name(c1)} or {geo.cell_name(c2)} holds "
                        f"{_or(board, extra)}: with {text} they make a naked subset on {digits} "
                        f"in {geo.house_name(house)}, whose other cells lose those digits",
                    )
            if 2 * degree < empty:
                rest = [d for d in range(1, n + 1) if not (pair | extra) >> (d - 1) & 1]
                if degree - 2 > len(rest):
                    continue
                spots = [_places(board, cells, i2, d) for d in rest]
                paired = 0
                for d in digits_of(pair):
                    paired |= _places(board, cells, i2, d)
                for combo in _within(spots, paired, degree - 2, degree):
                    chosen = [rest[i] for i in combo] + list(digits_of(pair))
                    where = 0
                    ok = True
                    for d in chosen:
                        places = 0
                        for i, c in enumerate(cells):
                            if i != i2 and not values[c] and cands[c] >> (d - 1) & 1:
                                places |= 1 << i
                        if not places:
                            ok = False
                        where |= places
                    if not ok or where.bit_count() != degree:
                        continue
                    hidden = sum(1 << (d - 1) for d in chosen)
                    inside = [cells[i] for i in range(len(cells)) if where >> i & 1]
                    kept = [c for c in inside if c not in (c1, c2)]
                    removals = tuple(
                        Elimination(c, d) for c in kept for d in digits_of(cands[c] & ~hidden)
                    )
                    yield _Found(
                        3,
                        round(base + SUBSET_STEP * (len(kept) - 1), 1),
                        loop,
                        removals,
                        (4, key, house, hidden, tuple(kept)),
                        f"{intro}, so {geo.cell_name(c2)} cannot be the only cell of it with "
                        f"another digit: without it, {_and(board, hidden)} only go in "
                        f"{', '.join(geo.cell_name(c) for c in inside)} in "
                        f"{geo.house_name(house)}, a hidden subset whose cells lose their other "
                        "digits",
                    )


def _type_4(
    board: Board,
    loop: tuple[Cell, ...],
    pair: int,
    c1: Cell,
    c2: Cell,
    base: float,
    intro: str,
    key: frozenset[Cell],
) -> Iterator[_Found]:
    geo = board.geometry
    cands = board.cands
    a, b = digits_of(pair)
    locked: dict[Digit, House] = {}
    for house in _shared(board, c1, c2):
        for d in (a, b):
            bit = 1 << (d - 1)
            if not any(cands[c] & bit for c in geo.houses[house] if c not in (c1, c2)):
                locked[d] = house  # the last shared house wins, as in SE
    if a in locked:
        lock, other = a, b
    elif b in locked:
        lock, other = b, a
    else:
        return
    removals = (Elimination(c1, other), Elimination(c2, other))
    yield _Found(
        4,
        base,
        loop,
        removals,
        (5, key),
        f"{intro}; {geo.digit_char(lock)} only goes in {geo.cell_name(c1)} and "
        f"{geo.cell_name(c2)} in {geo.house_name(locked[lock])}, so one of them is "
        f"{geo.digit_char(lock)} and neither can be {geo.digit_char(other)}",
    )


def _or(board: Board, mask: int) -> str:
    return " or ".join(board.geometry.digit_char(d) for d in digits_of(mask))


def _and(board: Board, mask: int) -> str:
    return ", ".join(board.geometry.digit_char(d) for d in digits_of(mask))
