"""Naked and hidden subsets (pairs, triples, quads).

A *naked subset* is k cells of a house whose candidates together are only k digits: those digits
must fill those cells, so every other cell of the house (and of a second house the cells share,
as when a pair lies in both a row and a box) loses them.  A *hidden subset* is k digits of a house
that fit only in the same k cells: those cells can hold nothing else.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, House
from xlsudoku.engine.masks import digits_of, places_by_digit
from xlsudoku.engine.steps import Elimination, Step, Technique

_NAKED = {2: Technique.NAKED_PAIR, 3: Technique.NAKED_TRIPLE, 4: Technique.NAKED_QUAD}
_HIDDEN = {2: Technique.HIDDEN_PAIR, 3: Technique.HIDDEN_TRIPLE, 4: Technique.HIDDEN_QUAD}
_WORD = {2: "pair", 3: "triple", 4: "quad"}


def _names(board: Board, cells: tuple[Cell, ...]) -> str:
    return ", ".join(board.geometry.cell_name(c) for c in cells)


def _digits_text(board: Board, mask: int) -> str:
    return "/".join(board.geometry.digit_char(d) for d in digits_of(mask))


def _common_houses(board: Board, cells: tuple[Cell, ...]) -> tuple[House, ...]:
    """Return the houses that hold every one of *cells*."""
    houses_of = board.geometry.houses_of
    common = set(houses_of[cells[0]])
    for c in cells[1:]:
        common &= set(houses_of[c])
    return tuple(sorted(common))


def find_naked_subsets(board: Board, size: int) -> Iterator[Step]:
    """Yield every naked subset of *size* cells (houses in order: rows, columns, boxes).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse("..3456789" + "." * 72))
    >>> list(find_naked_subsets(b, 2))[0].explanation.split(":")[0]
    'Naked pair 1/2 in r1c1, r1c2'
    """
    geo = board.geometry
    cands = board.cands
    seen: set[tuple[Cell, ...]] = set()
    for house, house_cands in enumerate(house_candidates(board)):
        for combo, union in naked_sets_in(geo, size, house, house_cands):
            if combo in seen:
                continue
            houses = _common_houses(board, combo)
            targets = sorted(
                {c for h in houses for c in geo.houses[h] if c not in combo and cands[c] & union}
            )
            if not targets:
                continue
            seen.add(combo)
            eliminations = tuple(
                Elimination(c, d) for c in targets for d in digits_of(cands[c] & union)
            )
            text = _digits_text(board, union)
            where = " and ".join(geo.house_name(h) for h in houses)
            yield Step(
                _NAKED[size],
                (),
                eliminations,
                combo,
                houses if house in houses else (house,),
                digits_of(union),
                f"Naked {_WORD[size]} {text} in {_names(board, combo)}: these {size} cells of "
                f"{where} can only hold {text}, so those digits are removed from "
                f"{_names(board, tuple(targets))}",
            )


@functools.lru_cache(maxsize=8192)
def naked_sets_in(
    geo: Geometry, size: int, house: House, house_cands: tuple[int, ...]
) -> tuple[tuple[tuple[Cell, ...], int], ...]:
    """Return the sets of *size* cells of *house* holding *size* digits in all, with the digits.

    The house's cells hold *house_cands*; cached like :func:`hidden_subsets_in`.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> naked_sets_in(CLASSIC, 2, 0, (0b11, 0b11) + (0b111111100,) * 7)
    (((0, 1), 3),)
    """
    cells = geo.houses[house]
    if sum(1 for m in house_cands if m) <= size:
        return ()
    small = [(c, m) for c, m in zip(cells, house_cands, strict=True) if 2 <= m.bit_count() <= size]
    found = []
    for combo in itertools.combinations(small, size):
        union = 0
        for _, m in combo:
            union |= m
        if union.bit_count() == size:
            found.append((tuple(c for c, _ in combo), union))
    return tuple(found)


def find_hidden_subsets(board: Board, size: int) -> Iterator[Step]:
    """Yield every hidden subset of *size* digits (houses in order: rows, columns, boxes).

    >>> b = Board.from_candidates((0,) * 81, (511,) * 2 + (0b111111100,) * 79)
    >>> s = next(find_hidden_subsets(b, 2))
    >>> s.explanation.split(",")[0], len(s.eliminations)
    ('Hidden pair 1/2 in row 1: 1 and 2 fit only in r1c1', 14)
    """
    geo = board.geometry
    for house, house_cands in enumerate(house_candidates(board)):
        yield from hidden_subsets_in(geo, size, house, house_cands)


@functools.lru_cache(maxsize=2)
def house_candidates(board: Board) -> tuple[tuple[int, ...], ...]:
    """Return, per house, the candidate masks of its cells in order.

    Cached: the subset finders of one board share them.

    >>> from xlsudoku.engine.grid import Grid
    >>> house_candidates(Board.from_grid(Grid.parse("12" + "." * 79)))[0][:3]
    (0, 0, 508)
    """
    cands = board.cands
    return tuple([take(cands) for take in _house_getters(board.geometry)])


@functools.cache
def _house_getters(geo: Geometry) -> tuple[Callable[[tuple[int, ...]], tuple[int, ...]], ...]:
    """Return, per house, a function taking its cells' items from an 81-long tuple."""
    return tuple(operator.itemgetter(*cells) for cells in geo.houses)


def house_places(
    geo: Geometry, house: House, house_cands: tuple[int, ...], size: int
) -> tuple[list[Cell], dict[Cell, int], list[int]] | None:
    """Return a house's empty cells, their candidates and each digit's places among them.

    The places of digit *d* are a mask of positions in the empty cells (index ``d - 1``).
    None when no more than *size* cells are empty (no subset of *size* can remove anything).

    >>> b = Board.from_candidates((0,) * 81, (511,) * 2 + (0b111111100,) * 79)
    >>> empty, cands, places = house_places(b.geometry, 0, house_candidates(b)[0], 2)
    >>> len(empty), places[0], places[2]
    (9, 3, 511)
    """
    cells = geo.houses[house]
    empty = [c for c, m in zip(cells, house_cands, strict=True) if m]
    if len(empty) <= size:
        return None
    cands = dict(zip(cells, house_cands, strict=True))
    return empty, cands, places_by_digit([cands[c] for c in empty], geo.size)


@functools.lru_cache(maxsize=8192)
def hidden_subsets_in(
    geo: Geometry, size: int, house: House, house_cands: tuple[int, ...]
) -> tuple[Step, ...]:
    """Return the hidden subsets of *size* digits in *house*, whose cells hold *house_cands*.

    The steps rest on the house's candidates alone, so a path's boards share them (cached)
    while the house is unchanged.

    >>> b = Board.from_candidates((0,) * 81, (511,) * 2 + (0b111111100,) * 79)
    >>> [s.digits for s in hidden_subsets_in(b.geometry, 2, 0, house_candidates(b)[0])]
    [(1, 2)]
    """
    found = []
    spread = house_places(geo, house, house_cands, size)
    if spread is None:
        return ()
    empty, cands, places = spread
    positions = {
        d: places[d - 1] for d in range(1, geo.size + 1) if 2 <= places[d - 1].bit_count() <= size
    }
    for digits in itertools.combinations(sorted(positions), size):
        where = 0
        for d in digits:
            where |= positions[d]
        if where.bit_count() != size:
            continue
        keep = 0
        for d in digits:
            keep |= 1 << (d - 1)
        combo = tuple(c for i, c in enumerate(empty) if where >> i & 1)
        eliminations = tuple(Elimination(c, d) for c in combo for d in digits_of(cands[c] & ~keep))
        if not eliminations:
            continue
        text = "/".join(geo.digit_char(d) for d in digits_of(keep))
        found.append(
            Step(
                _HIDDEN[size],
                (),
                eliminations,
                combo,
                (house,),
                digits,
                f"Hidden {_WORD[size]} {text} in {geo.house_name(house)}: "
                f"{' and '.join(geo.digit_char(d) for d in digits)} fit only in "
                f"{', '.join(geo.cell_name(c) for c in combo)}, so those cells can hold "
                "nothing else",
            )
        )
    return tuple(found)


def find_naked_pair(board: Board) -> Iterator[Step]:
    """Yield every naked pair (see :func:`find_naked_subsets`).

    >>> from xlsudoku.engine.grid import Grid
    >>> next(find_naked_pair(Board.from_grid(Grid.parse("..3456789" + "." * 72)))).cells
    (0, 1)
    """
    return find_naked_subsets(board, 2)


def find_naked_triple(board: Board) -> Iterator[Step]:
    """Yield every naked triple (see :func:`find_naked_subsets`).

    >>> from xlsudoku.engine.grid import Grid
    >>> next(find_naked_triple(Board.from_grid(Grid.parse("...456789" + "." * 72)))).cells
    (0, 1, 2)
    """
    return find_naked_subsets(board, 3)


def find_naked_quad(board: Board) -> Iterator[Step]:
    """Yield every naked quad (see :func:`find_naked_subsets`).

    >>> b = Board.from_candidates((0,) * 81, (0b1111,) * 4 + (511,) * 77)
    >>> [s.cells for s in find_naked_quad(b)][:1]
    [(0, 1, 2, 3)]
    """
    return find_naked_subsets(board, 4)


def find_hidden_pair(board: Board) -> Iterator[Step]:
    """Yield every hidden pair (see :func:`find_hidden_subsets`).

    >>> b = Board.from_candidates((0,) * 81, (511,) * 2 + (0b111111100,) * 79)
    >>> next(find_hidden_pair(b)).digits
    (1, 2)
    """
    return find_hidden_subsets(board, 2)


def find_hidden_triple(board: Board) -> Iterator[Step]:
    """Yield every hidden triple (see :func:`find_hidden_subsets`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "9..4.682..689724..2..5.8...39168...268..2....4.2.9.6.87..8.92..829167354..62.3987"))
    >>> step = next(find_hidden_triple(b))
    >>> print(step.explanation)  # doctest: +NORMALIZE_WHITESPACE
    Hidden triple 3/4/5 in row 7: 3 and 4 and 5 fit only in r7c2, r7c3, r7c5, so those cells can
    hold nothing else
    >>> [(b.geometry.cell_name(e.cell), e.digit) for e in step.eliminations]
    [('r7c2', 1)]
    """
    return find_hidden_subsets(board, 3)


def find_hidden_quad(board: Board) -> Iterator[Step]:
    """Yield every hidden quad (see :func:`find_hidden_subsets`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "67.1....5..8.....6...4...9....3.25.4....9....7.26.8....2...3...5.....1..9....4.38"))
    >>> step = next(find_hidden_quad(b))
    >>> print(step.explanation)  # doctest: +NORMALIZE_WHITESPACE
    Hidden quad 2/3/4/8 in row 1: 2 and 3 and 4 and 8 fit only in r1c3, r1c5, r1c7, r1c8, so those
    cells can hold nothing else
    >>> [(b.geometry.cell_name(e.cell), e.digit) for e in step.eliminations]
    [('r1c3', 9)]
    """
    return find_hidden_subsets(board, 4)
