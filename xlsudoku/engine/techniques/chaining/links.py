"""A board's links: what each potential makes on or off by the plain rules, in SE's orders.

Two rules make a potential off from an on one: the other digits of its cell (the *Y* rule) and
the same digit in the cell's peers (the *X* rule).  Two make one on from an off one: the last
digit of a cell (Y) and the last place of a digit in a house (X).  :class:`Links` holds them
for the board's candidates, in the order Sudoku Explainer (SE) visits them (a cell's box, row,
then column), which decides which chain of equal length a search meets first.

Tables here are indexed by candidate (``cell * size + digit - 1``, see ``potential``), and each
digit's share rests on that digit's candidates only: a step leaves most of them as they were,
so they are cached per digit.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, House
from xlsudoku.engine.techniques.chaining.potential import Candidate, Potential


def cells_of(mask: int) -> Iterator[Cell]:
    """Yield the cells of a bit mask over cells, lowest first.

    >>> list(cells_of(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@functools.cache
def peer_masks(geo: Geometry) -> tuple[int, ...]:
    """Return, for every cell, its peers as a bit mask over cells.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> peer_masks(CLASSIC)[0].bit_count()
    20
    """
    masks = []
    for cell in range(geo.cell_count):
        m = 0
        for p in geo.peers[cell]:
            m |= 1 << p
        masks.append(m)
    return tuple(masks)


def cells_by_digit(board: Board) -> list[int]:
    """Return, for every digit (index 1..size; 0 unused), the bit mask of cells holding it.

    >>> from xlsudoku.engine.grid import Grid
    >>> cells_by_digit(Board.from_grid(Grid.parse("123456789" + "." * 72)))[1] & 0b111111111
    0
    """
    found = [0] * (board.geometry.size + 1)
    for cell, m in enumerate(board.cands):
        while m:
            low = m & -m
            found[low.bit_length()] |= 1 << cell
            m ^= low
    return found


@functools.cache
def se_geometry(
    geo: Geometry,
) -> tuple[
    tuple[tuple[House, ...], ...],
    tuple[tuple[Cell, ...], ...],
    tuple[tuple[tuple[House, int], ...], ...],
]:
    """Return per cell: its houses in SE's order, its peers in that order, and its slots.

    The houses are box, row and column; the peers are theirs, each once; a slot is a house
    with the bit of the cell's position in it.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> houses, peers, slots = se_geometry(CLASSIC)
    >>> houses[10], peers[10][:3], slots[10][1]
    ((18, 1, 10), (0, 1, 2), (1, 2))
    """
    houses = geo.houses
    se_houses = tuple((hs[2], hs[0], hs[1]) for hs in geo.houses_of)
    se_peers = tuple(
        tuple(dict.fromkeys(c for h in se_houses[cell] for c in houses[h] if c != cell))
        for cell in range(geo.cell_count)
    )
    se_slots = tuple(
        tuple((h, 1 << houses[h].index(cell)) for h in se_houses[cell])
        for cell in range(geo.cell_count)
    )
    return se_houses, se_peers, se_slots


@functools.cache
def single_index(n: int) -> tuple[int, ...]:
    """Return, for every mask of *n* bits, the index of its bit if it has one bit, else -1.

    >>> single_index(3)
    (-1, 0, 1, -1, 2, -1, -1, -1)
    """
    out = [-1] * (1 << n)
    for i in range(n):
        out[1 << i] = i
    return tuple(out)


# What a candidate's going off changes: its cell, the mask that clears the digit from the cell,
# and per house (box, row, column) the digit's places key (``house * size + digit - 1``), the
# mask that clears the cell's position and the digit's on potential at each position.
Removal = tuple[Cell, int, tuple[tuple[int, int, tuple[Potential, ...]], ...]]


@functools.cache
def removals(geo: Geometry) -> tuple[Removal, ...]:
    """Return per candidate what the dynamic chains change when it goes off (see ``Removal``).

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> cell, clear, houses = removals(CLASSIC)[13]  # r1c2=5
    >>> cell, clear & 0b111111111, [key for key, _, _ in houses]
    (1, 495, [166, 4, 94])
    """
    n = geo.size
    _, _, se_slots = se_geometry(geo)
    return tuple(
        (
            cell,
            ~(1 << d),
            tuple(
                (h * n + d, ~position, tuple((c * n + d) * 2 + 1 for c in geo.houses[h]))
                for h, position in se_slots[cell]
            ),
        )
        for cell in range(geo.cell_count)
        for d in range(n)
    )


def _bivalue_pairs(cands: Sequence[int], n: int) -> Iterator[tuple[Candidate, Candidate]]:
    """Yield the two candidates (``cell * n + digit index``) of every cell holding exactly two.

    >>> list(_bivalue_pairs([0b11, 0b111, 0b1010], 4))
    [(0, 1), (9, 11)]
    """
    for cell, m in enumerate(cands):
        if m.bit_count() == 2:
            low = m & -m
            yield cell * n + low.bit_length() - 1, cell * n + (m ^ low).bit_length() - 1


@functools.lru_cache(maxsize=8192)
def _cell_y_off(n: int, cell: Cell, m: int) -> tuple[tuple[Candidate, ...], ...]:
    """Return, for each digit of a cell holding candidates *m*, the cell's other candidates."""
    own = [cell * n + e for e in range(n) if m >> e & 1]
    return tuple(
        tuple([q for q in own if q != cell * n + d]) if m >> d & 1 else () for d in range(n)
    )


DigitTables = tuple[
    tuple[tuple[Candidate, ...], ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]
]


@functools.lru_cache(maxsize=4096)
def digit_tables(geo: Geometry, d: int, pattern: int) -> DigitTables:
    """Return the tables of digit index *d* whose candidates are the cells of *pattern* (bits).

    Per cell, the candidates of the digit in its peers (SE's order: box, row, column); per
    house, how many places the digit has there and their positions as a mask; per cell, the
    other place of the digit in each of its houses (box, row, column) where it has two, each
    once (what the X rule makes on when the digit goes from the cell).

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> x_off, counts, places, x_on = digit_tables(CLASSIC, 0, 0b11)  # digit 1 in r1c1, r1c2
    >>> x_off[0], counts[0], places[0], x_on[1]
    ((9,), 2, 3, (0,))
    """
    n = geo.size
    _, se_peers, se_slots = se_geometry(geo)
    x_off = tuple(
        tuple([c * n + d for c in se_peers[cell] if pattern >> c & 1])
        if pattern >> cell & 1
        else ()
        for cell in range(geo.cell_count)
    )
    counts = []
    places = []
    for cells in geo.houses:
        here = 0
        for i, c in enumerate(cells):
            if pattern >> c & 1:
                here |= 1 << i
        counts.append(here.bit_count())
        places.append(here)
    x_on: list[tuple[int, ...]] = []
    for cell in range(geo.cell_count):
        targets: list[int] = []
        if pattern >> cell & 1:
            for h, position in se_slots[cell]:
                here = places[h]
                if here.bit_count() == 2:
                    q = geo.houses[h][(here & ~position).bit_length() - 1] * n + d
                    if q not in targets:
                        targets.append(q)
        x_on.append(tuple(targets))
    return x_off, tuple(counts), tuple(places), tuple(x_on)


@functools.lru_cache(maxsize=8192)
def _cell_off_potentials(n: int, cell: Cell, m: int) -> tuple[tuple[Potential, ...], ...]:
    """Return :func:`_cell_y_off` as off potentials.

    >>> _cell_off_potentials(9, 0, 0b11)[:2]
    ((2,), (0,))
    """
    return tuple(tuple([q * 2 for q in qs]) for qs in _cell_y_off(n, cell, m))


@functools.lru_cache(maxsize=4096)
def _digit_off_potentials(geo: Geometry, d: int, pattern: int) -> tuple[tuple[Potential, ...], ...]:
    """Return :func:`digit_tables`' ``x_off`` as off potentials.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> _digit_off_potentials(CLASSIC, 0, 0b11)[0]  # digit 1 in r1c1, r1c2
    (18,)
    """
    return tuple(tuple([q * 2 for q in qs]) for qs in digit_tables(geo, d, pattern)[0])


@functools.lru_cache(maxsize=4096)
def _digit_on_potentials(geo: Geometry, d: int, pattern: int) -> tuple[tuple[Potential, ...], ...]:
    """Return :func:`digit_tables`' ``x_on`` as on potentials.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> _digit_on_potentials(CLASSIC, 0, 0b11)[0]  # digit 1 in r1c1, r1c2
    (19,)
    """
    return tuple(tuple([q * 2 + 1 for q in qs]) for qs in digit_tables(geo, d, pattern)[3])


@dataclass(slots=True)
class Links:
    """A board's candidates and the plain rules' links, per candidate, in SE's orders.

    ``x_off[c]`` and ``y_off[c]`` are what candidate *c*'s being on makes off by the X and the
    Y rule (``xy_off`` both, Y first); :meth:`off_on` is what its being off makes on.
    """

    board: Board
    size: int
    cands: tuple[int, ...]
    houses: tuple[tuple[Cell, ...], ...]
    se_houses: tuple[tuple[House, ...], ...]  # per cell: its box, row and column
    x_off: list[tuple[Candidate, ...]]  # candidate -> same digit in the peers (box, row, col)
    y_off: list[tuple[Candidate, ...]]  # candidate -> other digits of the cell
    xy_off: list[tuple[Candidate, ...]]  # candidate -> y_off then x_off
    counts: list[int]  # house * size + digit - 1 -> places of the digit in the house
    # house * size + digit - 1 -> places of the digit as a mask of positions in the house
    places: list[int]
    x_on: list[tuple[Candidate, ...]]  # candidate -> what the X rule makes on when it goes off
    patterns: list[int]  # digit - 1 -> the cells holding it (bits)
    off_on_memo: dict[tuple[bool, bool], list[tuple[Candidate, ...]]]
    # what the chain finders of this board memoise on it (pure results of the frozen board,
    # keyed by the finder's own keys): the engine's extra rules on the candidates left
    memo: dict[Hashable, object] = field(default_factory=dict)
    off_memo: dict[bool, list[tuple[Potential, ...]]] = field(default_factory=dict)
    on_memo: dict[tuple[bool, bool], list[tuple[Potential, ...]]] = field(default_factory=dict)

    @classmethod
    def of(cls, board: Board) -> Links:
        """Return the links of *board* (see :func:`links_of` for the cached ones).

        >>> from xlsudoku.engine.grid import Grid
        >>> links = Links.of(Board.from_grid(Grid.parse("12345678." + "." * 72)))
        >>> links.y_off[8 * 9 + 8], links.x_on[8 * 9 + 8][:1]
        ((), ())
        """
        geo = board.geometry
        n = geo.size
        cands = board.cands
        se_houses = se_geometry(geo)[0]
        x_off: list[tuple[int, ...]] = [()] * (geo.cell_count * n)
        y_off: list[tuple[int, ...]] = [()] * (geo.cell_count * n)
        counts = [0] * (len(geo.houses) * n)
        places = [0] * (len(geo.houses) * n)
        pattern = [0] * n  # per digit: the cells holding it
        for cell, m in enumerate(cands):
            if m:
                y_off[cell * n : cell * n + n] = _cell_y_off(n, cell, m)
                while m:
                    low = m & -m
                    pattern[low.bit_length() - 1] |= 1 << cell
                    m ^= low
        x_on: list[tuple[int, ...]] = [()] * (geo.cell_count * n)
        for d in range(n):
            x_off[d::n], counts[d::n], places[d::n], x_on[d::n] = digit_tables(geo, d, pattern[d])
        # a candidate that is not there has nothing either way (() + ())
        xy_off = list(map(operator.add, y_off, x_off))
        return cls(
            board,
            n,
            cands,
            geo.houses,
            se_houses,
            x_off,
            y_off,
            xy_off,
            counts,
            places,
            x_on,
            pattern,
            {},
        )

    def off_potentials(self, y: bool) -> list[tuple[Potential, ...]]:
        """Return, per candidate, the off potentials its being on makes (``xy_off`` or ``x_off``).

        The links of ``xy_off`` (with *y*) or ``x_off`` as potentials, for the engines' inner
        loops.

        >>> from xlsudoku.engine.grid import Grid
        >>> links = Links.of(Board.from_grid(Grid.parse("1234567" + "." * 74)))
        >>> links.off_potentials(True)[7 * 9 + 7][:2]  # r1c8=8: r1c8 not 9, r1c9 not 8
        (142, 158)
        """
        got = self.off_memo.get(y)
        if got is None:
            n = self.size
            geo = self.board.geometry
            got = [()] * len(self.x_off)
            for d in range(n):
                got[d::n] = _digit_off_potentials(geo, d, self.patterns[d])
            if y:
                y_off: list[tuple[Potential, ...]] = [()] * len(got)
                for cell, m in enumerate(self.cands):
                    if m:
                        y_off[cell * n : cell * n + n] = _cell_off_potentials(n, cell, m)
                got = list(map(operator.add, y_off, got))
            self.off_memo[y] = got
        return got

    def on_potentials(self, y: bool, x: bool) -> list[tuple[Potential, ...]]:
        """Return :meth:`off_on` as on potentials (per candidate, what its being off makes on).

        >>> from xlsudoku.engine.grid import Grid
        >>> links = Links.of(Board.from_grid(Grid.parse("1234567" + "." * 74)))
        >>> links.on_potentials(True, False)[7 * 9 + 7]  # r1c8 not 8 makes r1c8 9 on
        (143,)
        """
        got = self.on_memo.get((y, x))
        if got is None:
            n = self.size
            got = [()] * len(self.x_off)
            if x:
                geo = self.board.geometry
                for d in range(n):
                    got[d::n] = _digit_on_potentials(geo, d, self.patterns[d])
            if y:
                for a, b in _bivalue_pairs(self.cands, n):
                    got[a], got[b] = (b * 2 + 1,) + got[a], (a * 2 + 1,) + got[b]
            self.on_memo[(y, x)] = got
        return got

    def off_on(self, y: bool, x: bool) -> list[tuple[Candidate, ...]]:
        """Return, per candidate, what its being off makes on (Y rule, X rule or both).

        Y: the other digit of a cell with two candidates; X: the other place of the digit in
        each house (box, row, column) where it has two.

        >>> from xlsudoku.engine.grid import Grid
        >>> links = Links.of(Board.from_grid(Grid.parse("1234567" + "." * 74)))
        >>> links.off_on(True, False)[7 * 9 + 7]  # r1c8 holds 8 and 9
        (71,)
        """
        got = self.off_on_memo.get((y, x))
        if got is None:
            n = self.size
            got = list(self.x_on) if x else [()] * len(self.x_off)
            if y:
                for a, b in _bivalue_pairs(self.cands, n):
                    got[a], got[b] = (b,) + got[a], (a,) + got[b]
            self.off_on_memo[(y, x)] = got
        return got


@functools.lru_cache(maxsize=2)
def links_of(board: Board) -> Links:
    """Return the links of *board*, shared by the chain finders tried in turn on it.

    The finders of one board (forcing chains, Nishio, multiple and dynamic chains) build the
    same tables; they only ever add memoised results to them (pure results of a frozen board).

    >>> from xlsudoku.engine.grid import Grid
    >>> board = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> links_of(board) is links_of(board)
    True
    """
    return Links.of(board)
