"""Exact solver: constraint propagation with fewest-candidates branching; never wrong.

Three implementations share one public API:

- **9x9 fast path** (classic 9x9 without diagonals).  All 729 candidates live in one Python
  int of 810 bits, bit ``90 * (digit - 1) + 10 * row + column``: nine *digit planes* of nine
  10-bit *row lanes* (bit 9 of a lane is a guard that stays 0).  One integer operation then
  works on every candidate at once, so a propagation round costs a few dozen operations
  whatever the number of cells involved.  A round looks for naked singles (a fold over the
  nine planes counting candidates per cell "at least once / at least twice"); only when there
  are none, for hidden singles in rows (a per-lane ``x & (x - 1)``, the guard bit stopping
  borrows), then columns, then boxes (folds over rows and columns).  Each new single is
  placed by ANDing a precomputed mask (many at once: a batch placement that also checks that
  no two clash).  When singles stall, locked candidates (pointing and claiming) run on the
  same representation.  Branching picks the cell with two candidates that has the most
  unsolved peers (then the most peers with two candidates).  A search state is a single
  immutable int, so backtracking copies nothing.
- **power-of-two path** (4x4, 16x16: every shape whose side and box sides are powers of two,
  without diagonals): the same layout made general, lanes of ``size + 1`` bits, the counts per
  cell, row, column and box taken by halving folds; naked and hidden singles, branching on a
  cell with two candidates.
- **generic path** (every shape, X-Sudoku, Windoku and Jigsaw included; the one for 6x6 and
  12x12): per-cell candidate masks with naked and hidden singles.  It is also the reference
  the other paths are checked against in the tests.

Givens that clash give zero solutions (use ``Grid.validate`` for a message naming the cells).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlsudoku.engine.grid import CLASSIC, Geometry, Grid, InvalidPuzzle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing on the count path

if TYPE_CHECKING:  # the solver only calls a caller's rng: counting needs no random module
    import random


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search did: solutions found (capped at the limit) and branch points.

    Attributes:
        solutions: number of solutions found, at most the search limit.
        guesses: number of search nodes where propagation stalled and the solver branched.
    """

    solutions: int
    guesses: int


# Told the steps a search takes (on 9x9 one per call and one per guess, after the call; on the
# generic path one per node, as it goes), so a caller can count its work; it may raise to
# abandon the search (a limit reached), and the exception passes through.
Work = Callable[[int], None]


# --------------------------------------------------------------------------------------------
# 9x9 fast path: the bit layout and its constant masks (tables are data, built once).
# --------------------------------------------------------------------------------------------

_PLANE = 90  # bits per digit plane: 9 row lanes of 10 bits


def _bits(positions: Sequence[int] | range) -> int:
    value = 0
    for p in positions:
        value |= 1 << p
    return value


_D9, _R9 = range(9), range(9)
_LANE_LOW = _bits([d * _PLANE + r * 10 for d in _D9 for r in _R9])  # bit 0 of every lane
_GUARD = _LANE_LOW << 9  # bit 9 of every lane
_ALL = _LANE_LOW * 511  # every candidate
_ROW0 = _bits([d * _PLANE + c for d in _D9 for c in range(9)])  # row 0 of every plane
_CELLS0 = _bits([r * 10 + c for r in _R9 for c in range(9)])  # every cell of plane 0
_BOXTOP = _bits([d * _PLANE + 30 * i + 3 * j for d in _D9 for i in range(3) for j in range(3)])
_PLANE_REP = _bits([d * _PLANE for d in _D9])  # multiplier copying plane 0 to every plane
_COL_REP = _bits([r * 10 for r in _R9])  # copies row 0 to every row
_BOX_REP = _bits([10 * i + j for i in range(3) for j in range(3)])  # copies a box corner
_MINI_COL = 1 | 1 << 10 | 1 << 20  # copies a band-top bit to the three rows of its band
# Segment starts (columns 0, 3, 6) of row lanes, split by the row's offset within its band.
_SEG = [
    _bits([d * _PLANE + r * 10 + 3 * k for d in _D9 for r in range(off, 9, 3) for k in range(3)])
    for off in range(3)
]
_SEG_ALL = _SEG[0] | _SEG[1] | _SEG[2]
# Band-top bits (rows 0, 3, 6) split by the column's offset within its stack, and by band.
_STACK = [
    _bits([d * _PLANE + 30 * i + c for d in _D9 for i in range(3) for c in range(off, 9, 3)])
    for off in range(3)
]
_BAND_TOP = _STACK[0] | _STACK[1] | _STACK[2]
_BAND = [_bits([d * _PLANE + 30 * i + c for d in _D9 for c in range(9)]) for i in range(3)]


def _pos(cell: int) -> int:
    """Return the plane-0 bit of *cell* (row lane of 10 bits)."""
    return (cell // 9) * 10 + cell % 9


# Tables indexed by ``bit.bit_length()`` (bit position + 1), the cheapest index of one bit:
# _PEERS0: plane-0 mask of the peers of a plane-0 cell bit.
_PEERS0 = [0] * (_PLANE + 1)
for _cell in range(81):
    _PEERS0[_pos(_cell) + 1] = _bits([_pos(p) for p in CLASSIC.peers[_cell]])
# _KEEP: what is left of the candidates after placing one candidate bit: its digit leaves the
# cell's peers, the other digits leave its cell.
_KEEP = [0] * (9 * _PLANE + 1)
for _cell in range(81):
    _p = _pos(_cell)
    for _d in _D9:
        _b = _d * _PLANE + _p
        _KEEP[_b + 1] = (
            _ALL ^ (_PEERS0[_p + 1] << (_d * _PLANE)) ^ ((1 << _p) * _PLANE_REP) ^ (1 << _b)
        )
# _HOUSES0[cell]: plane-0 masks of its row, column and box (a digit's candidates in a house:
# the mask shifted to its plane).
_HOUSES0 = [
    tuple(_bits([_pos(x) for x in house]) for house in CLASSIC.houses if cell in house)
    for cell in range(81)
]
# _GIVEN[cell][digit] = the candidate bit of digit in cell.
_GIVEN = [[0] + [1 << (d * _PLANE + _pos(cell)) for d in _D9] for cell in range(81)]


def _place9(cands: int, new: int) -> int:
    """Place every candidate bit of *new* (a subset of *cands*); return -1 on a clash.

    Clears each placed digit from the rest of its row, column and box and every other digit
    from its cell.  Two placements in one cell, or one digit twice in a house, is a clash.
    """
    n = new.bit_count()
    lanes = (new + _ALL) & _GUARD
    if lanes.bit_count() != n:
        return -1
    a = new | new >> 10
    a |= a >> 20
    a |= a >> 40
    a = (a | new >> 80) & _ROW0
    if a.bit_count() != n:
        return -1
    clear = (lanes >> 9) * 511 | a * _COL_REP
    a = new | new >> 10 | new >> 20
    a = (a | a >> 1 | a >> 2) & _BOXTOP
    if a.bit_count() != n:
        return -1
    clear |= a * _BOX_REP
    a = new | new >> 90
    a |= a >> 180
    a |= a >> 360
    a = (a | new >> 720) & _CELLS0
    if a.bit_count() != n:
        return -1
    clear |= a * _PLANE_REP
    return (cands | clear) ^ clear ^ new


def _givens9(cells: Sequence[int]) -> int:
    """Return the candidate bits of the givens in the 81 digits *cells*."""
    if len(cells) != 81:
        raise InvalidPuzzle(f"a 9x9 grid has 81 cells, got {len(cells)}")
    new = 0
    for cell, d in enumerate(cells):
        if d:
            if not 0 < d <= 9:
                raise InvalidPuzzle(f"value {d} at {CLASSIC.cell_name(cell)} is outside 1-9")
            new |= _GIVEN[cell][d]
    return new


def _start9(cells: Sequence[int]) -> int:
    """Return the candidate int after placing the givens in *cells*, or -1 on a clash."""
    return _place9(_ALL, _givens9(cells))


def _run9(
    cells: Sequence[int],
    limit: int,
    rng: random.Random | None,
    keep: list[int] | None,
    full: bool = True,
    budget: int = 0,
    settle: bool = False,
) -> SearchStats:
    """Search the 9x9 puzzle *cells* (see :func:`_search9`); no solution when givens clash."""
    givens = _givens9(cells)
    start = _place9(_ALL, givens)
    if start < 0:
        return SearchStats(0, 0)
    return _search9(start, limit, rng, keep, full, givens, budget, None, settle)


# Bytes 1..9 stay themselves: turns the hex digits of a solution back into cell values.
_HEX_DIGITS = bytes.maketrans(b"123456789", bytes(range(1, 10)))


def _cells9(cands: int) -> tuple[int, ...]:
    """Return the digits of a solved candidate int, cell by cell.

    Builds the four binary digits of every cell's value as plane-0 masks, then lets
    ``int(binary_text, 16)`` spread each bit into its own hex digit, so the hex text of the sum
    lists the cell values (guard positions read ``0`` and are dropped).
    """
    m = _CELLS0
    p1, p2, p3, p4 = cands >> 90, cands >> 180, cands >> 270, cands >> 360
    p5, p6, p7, p8 = cands >> 450, cands >> 540, cands >> 630, cands >> 720
    v0 = (cands | p2 | p4 | p6 | p8) & m  # digits 1, 3, 5, 7, 9
    v1 = (p1 | p2 | p5 | p6) & m  # digits 2, 3, 6, 7
    v2 = (p3 | p4 | p5 | p6) & m  # digits 4 to 7
    v3 = (p7 | p8) & m  # digits 8, 9
    value = (
        int(f"{v0:b}", 16)
        | int(f"{v1:b}", 16) << 1
        | int(f"{v2:b}", 16) << 2
        | int(f"{v3:b}", 16) << 3
    )
    return tuple(f"{value:x}"[::-1].replace("0", "").encode().translate(_HEX_DIGITS))


def _search9(
    start: int,
    limit: int,
    rng: random.Random | None,
    keep: list[int] | None,
    full: bool = True,
    placed: int = 0,
    budget: int = 0,
    stalled: list[int] | None = None,
    settle: bool = False,
) -> SearchStats:
    """Depth-first search from candidate int *start*, stopping after *limit* solutions.

    Solved candidate ints are appended to *keep* when it is a list.  *full* propagation
    (naked and hidden singles, locked candidates, branching on the cell with two candidates
    that has most unsolved peers) cuts the guesses on hard puzzles; a light search (naked
    singles only, the first cell with two candidates) is cheaper when filling an almost empty
    grid, where nearly every guess is right.  A *budget* above 0 stops the search at that many
    guesses (``guesses == budget`` in the result says it gave up).  *placed* holds candidate
    bits already placed in
    *start* (their digits gone from their peers), which the search need not place again.  With
    a *stalled* list the search stops where it would branch first, and appends the state there
    and its placed bits (a caller then starts other searches from that propagated state).
    Singles whose placing clears nothing go on to locked candidates, and from there to a
    branch, without a look for hidden singles; with *settle* the search rounds again instead,
    so it branches only where no rule applies: the same solutions with fewer guesses, but
    another search (other guesses, another order), so only callers that observe nothing but
    the solutions found ask for it.  The loop is written out in one function on purpose: it
    is the engine's hot path, and local names are fastest.
    """
    place = _place9
    cells0, all_, guard, low = _CELLS0, _ALL, _GUARD, _LANE_LOW
    row0, boxtop, plane_rep, col_rep, box_rep = _ROW0, _BOXTOP, _PLANE_REP, _COL_REP, _BOX_REP
    seg0, seg1, seg2, seg_all = _SEG[0], _SEG[1], _SEG[2], _SEG_ALL
    st0, st1, st2, band_top = _STACK[0], _STACK[1], _STACK[2], _BAND_TOP
    band0, band1, band2, mini_col = _BAND[0], _BAND[1], _BAND[2], _MINI_COL
    peers0 = _PEERS0
    probe = rng is not None and limit == 1 and not full
    found = guesses = 0
    keep_after = _KEEP
    stack = [(start, placed)]
    pop, push = stack.pop, stack.append
    while stack:
        c, done = pop()
        while True:
            # Naked singles: count candidates per cell over the nine planes (>= 1 and >= 2).
            a = c >> 90
            t = c & a
            o = c | a
            a = o >> 180
            t |= t >> 180 | o & a
            o |= a
            a = o >> 360
            t |= t >> 360 | o & a
            o |= a
            a = c >> 720
            t = (t | o & a) & cells0
            o = (o | a) & cells0
            if o != cells0:  # a cell without candidates
                c = -1
                break
            single = o ^ t
            if single == cells0:  # every cell decided: accept if no digit repeats
                if place(c, c) < 0:
                    c = -1
                break
            new = single * plane_rep & c
            new ^= new & done
            if not new and full:
                # Hidden singles in rows: lanes holding exactly one bit.
                if (c + all_) & guard != guard:  # a digit with no place in a row
                    c = -1
                    break
                a = c & ((c | guard) - low)  # x & (x - 1) in every lane
                new |= ((guard ^ ((a + all_) & guard)) >> 9) * 511 & c
                new ^= new & done
                if not new:
                    # Hidden singles in columns: fold the rows of each plane onto row 0.
                    a = c >> 10
                    t = c & a
                    o = c | a
                    a = o >> 20
                    t |= t >> 20 | o & a
                    o |= a
                    a = o >> 40
                    t |= t >> 40 | o & a
                    o |= a
                    a = c >> 80
                    t = (t | o & a) & row0
                    o = (o | a) & row0
                    if o != row0:
                        c = -1
                        break
                    new |= (o ^ t) * col_rep & c
                    new ^= new & done
                if not new:
                    # Hidden singles in boxes: fold each band's rows, then each stack's columns.
                    a = c >> 10
                    b = c >> 20
                    t = c & a | (c | a) & b
                    o = c | a | b
                    a = o >> 1
                    b = o >> 2
                    t = (t | t >> 1 | t >> 2 | o & a | (o | a) & b) & boxtop
                    o = (o | a | b) & boxtop
                    if o != boxtop:
                        c = -1
                        break
                    new |= (o ^ t) * box_rep & c
                    new ^= new & done
            if new:
                done |= new
                if not new & (new - 1):  # one single, the common case: it cannot clash
                    after = c & keep_after[new.bit_length()]
                elif new.bit_count() > 4:
                    after = place(c, new)
                    if after < 0:
                        c = -1
                        break
                else:
                    after = c
                    while new:
                        b = new & -new
                        if not after & b:  # cleared by an earlier single: a clash
                            break
                        after &= keep_after[b.bit_length()]
                        new ^= b
                    if new:
                        c = -1
                        break
                if after != c:
                    c = after
                    continue
                if settle:  # the singles are in *done* now: the next round looks further
                    continue
            if not full:
                break
            # Singles stalled: locked candidates.  Minirows (three cells of a row in a box):
            # a box's digit confined to one minirow leaves the rest of the row (pointing); a
            # row's digit confined to one minirow leaves the rest of the box (claiming).
            m = (c | c >> 1 | c >> 2) & seg_all
            r0, r1, r2 = m & seg0, m & seg1, m & seg2
            band_other = r0 << 10 | r0 << 20 | r1 >> 10 | r1 << 10 | r2 >> 10 | r2 >> 20
            seg_other = (m << 3 | m << 6 | m >> 3 | m >> 6) & seg_all
            a = m & ~band_other  # pointing
            b = m & ~seg_other  # claiming
            b0, b1, b2 = b & seg0, b & seg1, b & seg2
            clear = (
                (a << 3 | a << 6 | a >> 3 | a >> 6) & seg_all
                | b0 << 10
                | b0 << 20
                | b1 >> 10
                | b1 << 10
                | b2 >> 10
                | b2 >> 20
            ) * 7
            # Minicolumns, the same with stacks and bands swapped.
            m = (c | c >> 10 | c >> 20) & band_top
            s0, s1, s2 = m & st0, m & st1, m & st2
            stack_other = s0 << 1 | s0 << 2 | s1 >> 1 | s1 << 1 | s2 >> 1 | s2 >> 2
            r0, r1, r2 = m & band0, m & band1, m & band2
            vband_other = r0 << 30 | r0 << 60 | r1 >> 30 | r1 << 30 | r2 >> 30 | r2 >> 60
            a = m & ~stack_other  # pointing
            b = m & ~vband_other  # claiming
            s0, s1, s2 = b & st0, b & st1, b & st2
            r0, r1, r2 = a & band0, a & band1, a & band2
            clear |= (
                r0 << 30
                | r0 << 60
                | r1 >> 30
                | r1 << 30
                | r2 >> 30
                | r2 >> 60
                | s0 << 1
                | s0 << 2
                | s1 >> 1
                | s1 << 1
                | s2 >> 1
                | s2 >> 2
            ) * mini_col
            after = (c | clear) ^ clear
            if after == c:
                break
            c = after
        if c < 0:
            continue
        if single == cells0:
            found += 1
            if keep is not None:
                keep.append(c)
            if found >= limit:
                break
            continue
        if stalled is not None:
            stalled += (c, done)
            break
        # Branch.  Count candidates per cell again, this time up to "at least three".
        guesses += 1
        if guesses == budget:
            break
        a = c >> 90
        t = c & a
        o = c | a
        a = o >> 180
        h = t & a | o & (t >> 180)
        t |= t >> 180 | o & a
        o |= a
        a = o >> 360
        h |= h >> 360 | t & a | o & (t >> 360)
        t |= t >> 360 | o & a
        o |= a
        a = c >> 720
        h = (h | t & a) & cells0
        unsolved = (t | o & a) & cells0
        pick = unsolved ^ h  # cells with exactly two candidates
        if pick and not full:
            cell = pick & -pick  # light search: any cell with two candidates will do
        elif pick:
            # Most unsolved peers, then most peers with two candidates.
            two = pick
            best = -1
            cell = 0
            while pick:
                b = pick & -pick
                pick ^= b
                p = peers0[b.bit_length()]
                score = (unsolved & p).bit_count() * 16 + (two & p).bit_count()
                if score > best:
                    best, cell = score, b
        else:
            cell = _fewest9(c, unsolved, peers0, full)
        options = cell * plane_rep & c
        first = options & -options
        second = options ^ first
        if not second & (second - 1):  # two options: the common case
            if rng is not None and rng.getrandbits(1):
                first, second = second, first
            # A branch is pushed with its digit placed, as its first round would do (the state
            # was propagated: that single is its only new one).  When placing it clears nothing
            # more, that round goes on to locked candidates rather than round again, so the
            # branch is pushed unplaced and the search stays the same.
            a = c & keep_after[second.bit_length()]
            push((a, done | second) if a != c ^ first else (c ^ first, done))  # explored after
            a = c & keep_after[first.bit_length()]
            push((a, done | first) if a != c ^ second else (c ^ second, done))  # ... this branch
            if probe and rng is not None:
                # Looking for any one solution: first try *first* together with a random
                # digit in an unrelated two-candidate cell (one node for two guesses); when
                # that dead-ends, the two branches above still cover every solution.
                other = pick & ~peers0[cell.bit_length()] & ~cell
                if other:
                    b = other & -other
                    options = b * plane_rep & c
                    one = options & -options
                    push((c ^ second ^ (one if rng.getrandbits(1) else options ^ one), done))
            continue
        bits = []
        while options:
            b = options & -options
            options ^= b
            bits.append(b)
        if rng is not None:
            rng.shuffle(bits)
        whole = cell * plane_rep & c
        for b in reversed(bits):
            push((c ^ whole ^ b, done))
    return SearchStats(found, guesses)


def _fewest9(c: int, unsolved: int, peers0: list[int], full: bool = True) -> int:
    """Return the plane-0 bit of an unsolved cell with fewest candidates, then most peers.

    Called when no cell has two candidates: counts candidates up to "at least four" with the
    plane fold and looks at the cells with three first (without *full*, the first of them).
    """
    a = c >> 90
    o = c | a
    t = c & a
    h = q = 0
    for k in (180, 360):
        a = o >> k
        at = t >> k
        ah = h >> k
        q |= q >> k | h & a | t & at | o & ah
        h |= ah | t & a | o & at
        t |= at | o & a
        o |= a
    a = c >> 720
    q = (q | h & a) & unsolved
    h = (h | t & a) & unsolved
    pick = h ^ q  # cells with exactly three candidates
    if pick and not full:
        return pick & -pick
    best = (99, 0)
    cell = 0
    while pick:
        b = pick & -pick
        pick ^= b
        score = -(unsolved & peers0[b.bit_length()]).bit_count()
        if score < best[1]:
            best, cell = (3, score), b
    if cell:
        return cell
    pick = unsolved
    while pick:
        b = pick & -pick
        pick ^= b
        key = ((b * _PLANE_REP & c).bit_count(), -(unsolved & peers0[b.bit_length()]).bit_count())
        if key < best:
            best, cell = key, b
    return cell


# --------------------------------------------------------------------------------------------
# Generic path (every geometry): per-cell candidate masks.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fast9:
    """Low-level entry points of the 9x9 fast path, for searches a Grid cannot express.

    A caller that knows a solution asks "is there a solution where this cell does *not* hold
    its digit?" by clearing one candidate bit of the state and searching (the generator's
    uniqueness oracle does this).

    Attributes:
        start: cells (0 = blank) -> candidate int after placing the givens (0 on a clash).
        search: ``search(cands, limit, rng, keep)`` depth-first search -> SearchStats; solved
            candidate ints are appended to *keep* when it is a list.
        place: ``place(cands, bits)`` places the candidate bits *bits* and propagates.
        cells: solved candidate int -> the 81 digits.
        given: ``given[cell][digit]`` is the candidate bit of *digit* in *cell*.
        every: every candidate bit (an empty grid before propagation).
        cell_set: candidate int -> the cells (bit ``c`` for cell ``c``) where it has a bit,
            e.g. the cells where two solutions differ, from the XOR of their ints.
        spread: cell set -> every candidate bit of those cells.
        search_givens: ``search_givens(givens, limit, keep)`` searches the puzzle whose givens
            are the candidate bits *givens*, the solved ints appended to *keep*.
        settle: ``settle(cands, placed)`` propagates the candidate int *cands* (whose bits
            *placed* are already placed) as the search does before it branches -> ``(state,
            placed)``: the state -1 on a contradiction, solved when propagation solves it.
        search_from: ``search_from(cands, placed, limit, keep)`` searches on from a state
            and its placed bits (as :attr:`settle` returns them, perhaps with more bits
            placed by :attr:`place`).

    >>> state = FAST9.start([0] * 81)
    >>> FAST9.search(state & ~FAST9.given[0][1], 1, None, None).solutions
    1
    >>> FAST9.cell_set(FAST9.given[80][3] | FAST9.given[4][9]) == 1 << 80 | 1 << 4
    True
    >>> FAST9.spread(1 << 80) == sum(FAST9.given[80][d] for d in range(1, 10))
    True
    >>> givens = sum(FAST9.given[c][c % 9 + 1] for c in range(8))  # row 1 reads 12345678.
    >>> state, placed = FAST9.settle(FAST9.place(FAST9.every, givens), givens)
    >>> FAST9.cells(state & FAST9.spread(0x1FF))[:9], placed & FAST9.given[8][9] > 0
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), True)
    >>> FAST9.search_from(state, placed, 2, []).solutions
    2
    """

    start: Callable[[Sequence[int]], int]
    search: Callable[[int, int, random.Random | None, list[int] | None], SearchStats]
    place: Callable[[int, int], int]
    cells: Callable[[int], tuple[int, ...]]
    given: Sequence[Sequence[int]]
    every: int
    cell_set: Callable[[int], int]
    spread: Callable[[int], int]
    search_givens: Callable[[int, int, list[int]], SearchStats]
    settle: Callable[[int, int], tuple[int, int]]
    search_from: Callable[[int, int, int, list[int]], SearchStats]


def _search_givens9(givens: int, limit: int, keep: list[int]) -> SearchStats:
    """Search the puzzle whose givens are the candidate bits *givens* (as :func:`_run9` does)."""
    start = _place9(_ALL, givens)
    if start < 0:
        return SearchStats(0, 0)
    return _search9(start, limit, None, keep, True, givens)


def _settle9(cands: int, placed: int) -> tuple[int, int]:
    """Return *cands* propagated up to the first branch and its placed bits (-1: no solution)."""
    stalled: list[int] = []
    keep: list[int] = []
    _search9(cands, 1, None, keep, True, placed, 0, stalled)
    if stalled:
        return stalled[0], stalled[1]
    if keep:
        return keep[0], keep[0]
    return -1, placed


def _search_from9(cands: int, placed: int, limit: int, keep: list[int]) -> SearchStats:
    """Search on from the state *cands* whose bits *placed* are placed (full propagation)."""
    return _search9(cands, limit, None, keep, True, placed)


def _cell_set9(cands: int) -> int:
    """Return the cells (bit ``c`` for cell ``c``) holding any candidate bit of *cands*."""
    a = cands | cands >> 90 | cands >> 180 | cands >> 270
    a |= a >> 360
    a = (a | cands >> 720) & _CELLS0
    out = 0
    for r in _R9:
        out |= (a >> (10 * r) & 511) << (9 * r)
    return out


def _spread9(cells: int) -> int:
    """Return every candidate bit (all digits) of the cells *cells* (bit ``c`` for cell ``c``)."""
    a = 0
    for r in _R9:
        a |= (cells >> (9 * r) & 511) << (10 * r)
    return a * _PLANE_REP


FAST9 = Fast9(
    _start9,
    _search9,
    _place9,
    _cells9,
    _GIVEN,
    _ALL,
    _cell_set9,
    _spread9,
    _search_givens9,
    _settle9,
    _search_from9,
)


# --------------------------------------------------------------------------------------------
# Bit-parallel path for other shapes (4x4, 16x16, and any whose side and box sides are powers
# of two, without diagonals): the 9x9 layout made general.  Candidate bit
# ``plane * digit_index + lane * row + column``, lanes of ``size + 1`` bits (the top bit a
# guard), so one integer operation works on every candidate.  Counting per cell, row, column
# or box is a fold: halve the group, shift it onto the other half, combine "at least once"
# and "at least twice" (and "three times" for branching), which is exact when the groups are
# powers of two.  Naked and hidden singles only; branching on a cell with two candidates.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Layout:
    """The bit layout of one geometry and its constant masks (see the section notes)."""

    size: int
    lane: int  # bits per row lane: size + 1
    plane: int  # bits per digit plane
    full: int  # a lane's candidate bits: (1 << size) - 1
    cells0: int  # every cell of plane 0
    low: int  # bit 0 of every lane
    guard: int  # the guard bit of every lane
    all_: int  # every candidate
    row0: int  # row 0 of every plane
    boxtop: int  # the top-left cell of every box, every plane
    plane_rep: int  # copies plane 0 to every plane
    col_rep: int  # copies row 0 to every row
    box_rep: int  # copies a box's top-left cell to its cells
    plane_shifts: tuple[int, ...]  # fold every plane onto plane 0
    row_shifts: tuple[int, ...]  # fold every row onto row 0
    band_shifts: tuple[int, ...]  # fold the rows of a band onto its top row
    stack_shifts: tuple[int, ...]  # fold the columns of a stack onto its left column
    pos: tuple[int, ...]  # cell -> plane-0 bit
    cell_at: tuple[int, ...]  # plane-0 bit -> cell (-1 for guards)
    peers0: tuple[int, ...]  # plane-0 bit + 1 -> plane-0 mask of the cell's peers
    keep: tuple[int, ...]  # candidate bit + 1 -> candidates left after placing it
    houses0: tuple[tuple[int, ...], ...]  # cell -> plane-0 masks of its row, column, box


def _pow2(n: int) -> bool:
    return n > 0 and not n & (n - 1)


def _halves(groups: int, step: int) -> tuple[int, ...]:
    """Return the shifts folding *groups* groups of *step* bits onto the first, largest first."""
    shifts = []
    k = groups // 2
    while k:
        shifts.append(k * step)
        k //= 2
    return tuple(shifts)


@functools.cache
def _layout(geometry: Geometry) -> _Layout | None:
    """Return the bit layout of *geometry*, or None when it takes the list path."""
    n, rows, cols = geometry.size, geometry.box_rows, geometry.box_cols
    if not geometry.standard or not (_pow2(n) and _pow2(rows) and _pow2(cols)) or n < 4:
        return None
    lane = n + 1
    plane = n * lane
    full = (1 << n) - 1
    digits, lines = range(n), range(n)
    low = _bits([d * plane + r * lane for d in digits for r in lines])
    pos = tuple((c // n) * lane + c % n for c in range(n * n))
    cell_at = [-1] * plane
    for c, p in enumerate(pos):
        cell_at[p] = c
    peers0 = [0] * (plane + 1)
    for c in range(n * n):
        peers0[pos[c] + 1] = _bits([pos[p] for p in geometry.peers[c]])
    plane_rep = _bits([d * plane for d in digits])
    all_ = low * full
    keep = [0] * (n * plane + 1)
    for c in range(n * n):
        p = pos[c]
        for d in digits:
            b = d * plane + p
            keep[b + 1] = all_ ^ (peers0[p + 1] << (d * plane)) ^ ((1 << p) * plane_rep) ^ (1 << b)
    return _Layout(
        size=n,
        lane=lane,
        plane=plane,
        full=full,
        cells0=_bits(pos),
        low=low,
        guard=low << n,
        all_=all_,
        row0=_bits([d * plane + c for d in digits for c in lines]),
        boxtop=_bits(
            [d * plane + r * lane + c for d in digits for r in lines[::rows] for c in lines[::cols]]
        ),
        plane_rep=plane_rep,
        col_rep=_bits([r * lane for r in lines]),
        box_rep=_bits([r * lane + c for r in range(rows) for c in range(cols)]),
        plane_shifts=_halves(n, plane),
        row_shifts=_halves(n, lane),
        band_shifts=_halves(rows, lane),
        stack_shifts=_halves(cols, 1),
        pos=pos,
        cell_at=tuple(cell_at),
        peers0=tuple(peers0),
        keep=tuple(keep),
        houses0=tuple(
            tuple(_bits([pos[x] for x in geometry.houses[h]]) for h in geometry.houses_of[c])
            for c in range(n * n)
        ),
    )


def _fold(once: int, twice: int, shifts: tuple[int, ...]) -> tuple[int, int]:
    """Fold groups onto the first: (at least once, at least twice) at the first group's bits."""
    for k in shifts:
        a = once >> k
        twice |= twice >> k | once & a
        once |= a
    return once, twice


def _place_bits(lay: _Layout, cands: int, new: int) -> int:
    """Place every candidate bit of *new* (a subset of *cands*); return -1 on a clash."""
    n = new.bit_count()
    lanes = (new + lay.all_) & lay.guard
    if lanes.bit_count() != n:  # one digit twice in a row
        return -1
    column = _fold(new, 0, lay.row_shifts)[0] & lay.row0
    if column.bit_count() != n:
        return -1
    box = _fold(_fold(new, 0, lay.band_shifts)[0], 0, lay.stack_shifts)[0] & lay.boxtop
    if box.bit_count() != n:
        return -1
    cell = _fold(new, 0, lay.plane_shifts)[0] & lay.cells0
    if cell.bit_count() != n:
        return -1
    clear = (
        (lanes >> lay.size) * lay.full
        | column * lay.col_rep
        | box * lay.box_rep
        | cell * lay.plane_rep
    )
    return (cands | clear) ^ clear ^ new


def _givens_bits(lay: _Layout, cells: Sequence[int]) -> int:
    """Return the candidate bits of the givens in *cells*."""
    n = lay.size
    if len(cells) != n * n:
        raise InvalidPuzzle(f"a {n}x{n} grid has {n * n} cells, got {len(cells)}")
    new = 0
    for cell, d in enumerate(cells):
        if d:
            if not 0 < d <= n:
                raise InvalidPuzzle(f"value {d} at cell {cell} is outside 1-{n}")
            new |= 1 << ((d - 1) * lay.plane + lay.pos[cell])
    return new


def _cells_bits(lay: _Layout, cands: int) -> tuple[int, ...]:
    """Return the digits of a solved candidate int, cell by cell."""
    out = [0] * (lay.size * lay.size)
    cell_at, plane, cells0 = lay.cell_at, lay.plane, lay.cells0
    for d in range(lay.size):
        m = (cands >> (d * plane)) & cells0
        while m:
            b = m & -m
            m ^= b
            out[cell_at[b.bit_length() - 1]] = d + 1
    return tuple(out)


def _search_bits(
    lay: _Layout,
    start: int,
    limit: int,
    rng: random.Random | None,
    keep: list[int] | None,
    work: Work | None = None,
    placed: int = 0,
) -> SearchStats:
    """Depth-first search from candidate int *start*, stopping after *limit* solutions.

    Solved candidate ints are appended to *keep* when it is a list; *work* is told each node.
    *placed* holds candidate bits already placed in *start*.  Written out in one function, as
    the 9x9 search is, for its local names.
    """
    cells0, all_, guard, low, full = lay.cells0, lay.all_, lay.guard, lay.low, lay.full
    row0, boxtop, plane_rep = lay.row0, lay.boxtop, lay.plane_rep
    col_rep, box_rep, size = lay.col_rep, lay.box_rep, lay.size
    plane_shifts, row_shifts = lay.plane_shifts, lay.row_shifts
    band_shifts, stack_shifts = lay.band_shifts, lay.stack_shifts
    keep_after, peers0 = lay.keep, lay.peers0
    found = guesses = 0
    single = 0
    stack = [(start, placed)]
    while stack:
        c, done = stack.pop()
        if work is not None:
            work(1)
        while True:
            # Naked singles: candidates per cell over the planes (at least one, two).
            o, t = _fold(c, 0, plane_shifts)
            o &= cells0
            if o != cells0:  # a cell without candidates
                c = -1
                break
            single = o ^ (t & cells0)
            if single == cells0:  # every cell decided: accept if no digit repeats
                if _place_bits(lay, c, c) < 0:
                    c = -1
                break
            new = single * plane_rep & c
            new ^= new & done
            if not new:
                # Hidden singles in rows: lanes holding exactly one bit.
                if (c + all_) & guard != guard:  # a digit with no place in a row
                    c = -1
                    break
                a = c & ((c | guard) - low)  # x & (x - 1) in every lane
                new = ((guard ^ ((a + all_) & guard)) >> size) * full & c
                new ^= new & done
            if not new:
                # Hidden singles in columns: fold the rows of each plane onto row 0.
                o, t = _fold(c, 0, row_shifts)
                o &= row0
                if o != row0:
                    c = -1
                    break
                new = (o ^ (t & row0)) * col_rep & c
                new ^= new & done
            if not new:
                # Hidden singles in boxes: fold each band's rows, then each stack's columns.
                o, t = _fold(*_fold(c, 0, band_shifts), stack_shifts)
                o &= boxtop
                if o != boxtop:
                    c = -1
                    break
                new = (o ^ (t & boxtop)) * box_rep & c
                new ^= new & done
            if not new:
                break
            done |= new
            if new.bit_count() > 4:
                after = _place_bits(lay, c, new)
                if after < 0:
                    c = -1
                    break
            else:
                after = c
                while new:
                    b = new & -new
                    if not after & b:  # cleared by an earlier single: a clash
                        break
                    after &= keep_after[b.bit_length()]
                    new ^= b
                if new:
                    c = -1
                    break
            if after == c:
                break
            c = after
        if c < 0:
            continue
        if single == cells0:
            found += 1
            if keep is not None:
                keep.append(c)
            if found >= limit:
                break
            continue
        guesses += 1
        # Branch on a cell with two candidates (at least twice but not three times), the one
        # with most unsolved peers; else on a cell with fewest candidates.
        once, twice, thrice = c, 0, 0
        for k in plane_shifts:
            a = once >> k
            at = twice >> k
            thrice |= thrice >> k | twice & a | once & at
            twice |= at | once & a
            once |= a
        unsolved = twice & cells0
        pick = unsolved & ~thrice
        cell = 0
        if pick:
            two = pick
            best = -1
            while pick:
                b = pick & -pick
                pick ^= b
                p = peers0[b.bit_length()]
                score = (unsolved & p).bit_count() * 64 + (two & p).bit_count()
                if score > best:
                    best, cell = score, b
        else:
            fewest = 1 << 30
            rest = unsolved
            while rest:
                b = rest & -rest
                rest ^= b
                k = (b * plane_rep & c).bit_count()
                if k < fewest:
                    fewest, cell = k, b
        whole = cell * plane_rep & c
        options = whole
        bits = []
        while options:
            b = options & -options
            options ^= b
            bits.append(b)
        if rng is not None:
            rng.shuffle(bits)
        for b in reversed(bits):
            stack.append((c ^ whole ^ b, done))
    return SearchStats(found, guesses)


def _run_bits(
    lay: _Layout,
    cells: Sequence[int],
    limit: int,
    rng: random.Random | None,
    work: Work | None,
) -> tuple[list[tuple[int, ...]], int]:
    """Return up to *limit* solutions (as cell tuples) and the guess count, bit-parallel."""
    givens = _givens_bits(lay, cells)
    start = _place_bits(lay, lay.all_, givens)
    if start < 0:
        return [], 0
    keep: list[int] = []
    stats = _search_bits(lay, start, limit, rng, keep, work, givens)
    return [_cells_bits(lay, c) for c in keep], stats.guesses


def _other_bits(
    lay: _Layout,
    cells: Sequence[int],
    solution: Sequence[int],
    check: Sequence[int],
    work: Work | None,
) -> tuple[int, ...] | None:
    """Return :func:`other_solution_cells` on the bit-parallel path."""
    givens = _givens_bits(lay, cells)
    state = _place_bits(lay, lay.all_, givens)
    if state < 0:
        return None
    plane_rep = lay.plane_rep
    for c in check:
        p = lay.pos[c]
        shift = (solution[c] - 1) * lay.plane
        bit = 1 << (shift + p)
        if state & (1 << p) * plane_rep == bit or any(
            state & (house << shift) == bit for house in lay.houses0[c]
        ):
            state = _place_bits(lay, state, bit)  # a naked or hidden single: forced
            continue
        keep: list[int] = []
        if _search_bits(lay, state & ~bit, 1, None, keep, work, givens).solutions:
            return _cells_bits(lay, keep[0])
        state = _place_bits(lay, state, bit)
        givens |= bit
    return None


class _Contradiction(Exception):
    """Raised inside the search when a cell or a house runs out of candidates."""


def _initial(grid: Grid) -> list[int] | None:
    """Return candidate masks after placing the givens, or None on a clash.

    The digits used in each house are collected first (one pass over the houses), so each
    blank cell's mask is one AND per house; then the naked singles this leaves are placed.
    """
    geo = grid.geometry
    cells = grid.cells
    houses = geo.houses
    used = [0] * len(houses)
    for h, house in enumerate(houses):
        u = 0
        for c in house:
            d = cells[c]
            if d:
                b = 1 << (d - 1)
                if u & b:
                    return None
                u |= b
        used[h] = u
    full = geo.all_digits
    cands = []
    singles = []
    for c, hs in enumerate(geo.houses_of):
        d = cells[c]
        if d:
            cands.append(1 << (d - 1))
            continue
        m = full
        for h in hs:
            m &= ~used[h]
        if not m & (m - 1):
            if not m:
                return None
            singles.append(c)
        cands.append(m)
    try:
        for c in singles:
            m = cands[c]
            if not m:
                return None
            _assign(cands, c, m, geo.peers)
    except _Contradiction:
        return None
    return cands


def _assign(cands: list[int], cell: int, b: int, peers: tuple[tuple[int, ...], ...]) -> None:
    """Set *cell* to the single-bit mask *b* and propagate naked singles."""
    cands[cell] = b
    stack = [(cell, b)]
    while stack:
        c, bb = stack.pop()
        nb = ~bb
        for p in peers[c]:
            m = cands[p]
            if m & bb:
                m &= nb
                if not m:
                    raise _Contradiction
                cands[p] = m
                if not m & (m - 1):
                    stack.append((p, m))


def _propagate(
    cands: list[int],
    houses: tuple[tuple[int, ...], ...],
    peers: tuple[tuple[int, ...], ...],
    full: int,
) -> None:
    """Apply hidden singles (and the naked singles they cause) until nothing changes."""
    changed = True
    while changed:
        changed = False
        for house in houses:
            once = twice = 0
            for c in house:
                m = cands[c]
                twice |= once & m
                once |= m
            if once != full:
                raise _Contradiction
            hidden = once & ~twice
            if not hidden:
                continue
            for c in house:
                m = cands[c]
                h = m & hidden
                if h and m & (m - 1):
                    if h & (h - 1):
                        raise _Contradiction
                    _assign(cands, c, h, peers)
                    changed = True


def _search(
    cands: list[int],
    geo: Geometry,
    limit: int,
    found: list[list[int]] | None,
    rng: random.Random | None,
    counter: list[int],
    work: Work | None = None,
) -> None:
    """Depth-first search for up to *limit* solutions, kept in *found* unless it is None.

    *counter* holds the guesses and the solutions found so far (``[guesses, solutions]``).
    """
    if work is not None:
        work(1)
    try:
        _propagate(cands, geo.houses, geo.peers, geo.all_digits)
    except _Contradiction:
        return
    best = -1
    best_count = 99
    for c, m in enumerate(cands):
        if m & (m - 1):
            k = m.bit_count()
            if k < best_count:
                best, best_count = c, k
                if k == 2:
                    break
    if best < 0:
        counter[1] += 1
        if found is not None:
            found.append(cands)
        return
    counter[0] += 1
    m = cands[best]
    bits = []
    while m:
        b = m & -m
        bits.append(b)
        m ^= b
    if rng is not None:
        rng.shuffle(bits)
    for b in bits:
        trial = cands[:]
        try:
            _assign(trial, best, b, geo.peers)
        except _Contradiction:
            continue
        _search(trial, geo, limit, found, rng, counter, work)
        if counter[1] >= limit:
            return


def _generic(
    grid: Grid, limit: int, rng: random.Random | None, work: Work | None = None
) -> tuple[list[tuple[int, ...]], int]:
    """Return up to *limit* solutions (cell tuples) and the guesses, on a shape other than 9x9.

    Bit-parallel where the layout allows (:func:`_layout`), else per-cell masks.
    """
    lay = _layout(grid.geometry)
    if lay is not None:
        return _run_bits(lay, grid.cells, limit, rng, work)
    return _listed(grid, limit, rng, work)


def _listed(
    grid: Grid, limit: int, rng: random.Random | None, work: Work | None = None
) -> tuple[list[tuple[int, ...]], int]:
    """Return up to *limit* solutions (as cell tuples) and the guess count, per-cell masks."""
    cands = _initial(grid)
    if cands is None:
        return [], 0
    found: list[list[int]] = []
    counter = [0, 0]
    _search(cands, grid.geometry, limit, found, rng, counter, work)
    return [tuple(m.bit_length() for m in c) for c in found], counter[0]


def _count_generic(grid: Grid, limit: int, work: Work | None) -> int:
    """Return how many solutions (at most *limit*) *grid* has, keeping none of them.

    A count of a million solutions of an empty 16x16 grid then needs no more memory than one.
    """
    lay = _layout(grid.geometry)
    if lay is not None:
        givens = _givens_bits(lay, grid.cells)
        start = _place_bits(lay, lay.all_, givens)
        if start < 0:
            return 0
        return _search_bits(lay, start, limit, None, None, work, givens).solutions
    cands = _initial(grid)
    if cands is None:
        return 0
    counter = [0, 0]
    _search(cands, grid.geometry, limit, None, None, counter, work)
    return counter[1]


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def _check_limit(limit: int) -> None:
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")


def _fast(geo: Geometry) -> bool:
    return geo is CLASSIC or (geo.size == 9 and geo.box_rows == 3 and geo.standard)


def unique_reading(grid: Grid) -> Grid:
    """Return *grid* read as X-Sudoku when only its diagonals make a 9x9 solution unique.

    Any other grid is returned as it is.

    >>> puzzle = Grid.parse(
    ...     "....97.....4.1.6.......4.7.....2.....4......22.6.......1...9.....3..8.9....3...8."
    ... )
    >>> len(solutions(puzzle)), unique_reading(puzzle).geometry.name
    (2, '9x9-X')
    >>> unique_reading(Grid.empty()).geometry.name
    '9x9'
    """
    from xlsudoku.engine.grid import geometry

    if grid.geometry.size != 9 or len(solutions(grid, 2)) < 2:
        return grid
    x_grid = Grid(grid.cells, geometry(3, 3, True))
    if x_grid.conflicts() or len(solutions(x_grid, 2)) != 1:
        return grid
    return x_grid


def solutions(
    grid: Grid, limit: int = 2, rng: random.Random | None = None, work: Work | None = None
) -> list[Grid]:
    """Return up to *limit* solutions of *grid* (in random branch order when *rng* is given).

    *work*, when given, is told the steps of the search (see :data:`Work`).

    >>> len(solutions(Grid.empty(), limit=3))
    3
    >>> solutions(Grid.parse("11" + "." * 79))
    []
    """
    _check_limit(limit)
    geo = grid.geometry
    if _fast(geo):
        keep: list[int] = []
        stats = _run9(grid.cells, limit, rng, keep)
        if work is not None:
            work(1 + stats.guesses)
        return [Grid(_cells9(c), geo) for c in keep]
    found, _ = _generic(grid, limit, rng, work)
    return [Grid(cells, geo) for cells in found]


def random_solution(grid: Grid, rng: random.Random) -> Grid | None:
    """Return one solution of *grid* found in random branch order, or None when it has none.

    Meant for grids with few givens (random complete grids): it propagates naked singles
    only, which is all that pays off there; on a hard puzzle it is correct but slow.

    >>> import random
    >>> s = random_solution(Grid.parse("1" + "." * 80), random.Random(4))
    >>> s is not None and s.is_complete and s[0] == 1
    True
    """
    found = random_solution_cells(grid.cells, rng, grid.geometry)
    return None if found is None else Grid(found, grid.geometry)


# Guesses the light search may make before the full search takes over (a random fill of an
# almost empty grid needs a handful; thousands mean a puzzle the light search cannot settle).
LIGHT_GUESSES = 2000


def random_solution_cells(
    cells: Sequence[int], rng: random.Random, geometry: Geometry = CLASSIC
) -> tuple[int, ...] | None:
    """Return the digits of :func:`random_solution` for plain *cells*, or None.

    >>> from xlsudoku.engine.grid import geometry
    >>> import random
    >>> random_solution_cells([0] * 16, random.Random(1), geometry(2, 2)) is not None
    True
    """
    if _fast(geometry):
        keep: list[int] = []
        light = _run9(cells, 1, rng, keep, full=False, budget=LIGHT_GUESSES)
        if not keep and light.guesses == LIGHT_GUESSES:
            # Naked singles alone can wander for minutes in a puzzle without a solution whose
            # contradiction only a hidden single shows: the full search settles it.
            _run9(cells, 1, rng, keep, full=True)
        return _cells9(keep[0]) if keep else None
    found, _ = _generic(Grid(tuple(cells), geometry), 1, rng)
    return found[0] if found else None


def reference_solutions(
    grid: Grid, limit: int = 2, rng: random.Random | None = None, work: Work | None = None
) -> list[Grid]:
    """Return up to *limit* solutions with the generic solver, whatever the geometry.

    The generic solver is the reference the 9x9 fast path is tested against.  *work*, when
    given, is told the steps of the search (see :data:`Work`); a caller bounds the search by
    raising from it.

    >>> [str(s)[:9] for s in reference_solutions(Grid.parse("123456789" + "." * 72), 1)]
    ['123456789']
    """
    _check_limit(limit)
    found, _ = _listed(grid, limit, rng, work)
    return [Grid(cells, grid.geometry) for cells in found]


def count_solutions_cells(
    cells: Sequence[int], geometry: Geometry = CLASSIC, limit: int = 2, work: Work | None = None
) -> int:
    """Count solutions of the digits *cells* (0 = empty), stopping at *limit*.

    The cheap entry for callers that hold cells rather than a :class:`Grid` (the generator
    calls it thousands of times per puzzle).  *work*, when given, is told the steps of the
    search (see :data:`Work`).

    >>> count_solutions_cells([0] * 81, limit=3)
    3
    >>> from xlsudoku.engine.grid import geometry
    >>> count_solutions_cells([1, 1] + [0] * 14, geometry=geometry(2, 2))
    0
    """
    _check_limit(limit)
    if _fast(geometry):
        # Without work to report only the count is observed: the search may settle fully
        # (fewer guesses).  With work it stays the search that work budgets count.
        stats = _run9(cells, limit, None, None, settle=work is None)
        if work is not None:
            work(1 + stats.guesses)
        return stats.solutions
    return _count_generic(Grid(tuple(cells), geometry), limit, work)


def solutions_cells(
    cells: Sequence[int], geometry: Geometry = CLASSIC, limit: int = 2, work: Work | None = None
) -> list[tuple[int, ...]]:
    """Return up to *limit* solutions of the digits *cells* (0 = empty), as digit tuples.

    :func:`solutions` for callers that hold cells rather than a :class:`Grid` and want the
    solutions a uniqueness test finds on the way (the low-clue search keeps them).  *work*,
    when given, is told the steps of the search (see :data:`Work`).

    >>> from xlsudoku.engine.grid import geometry
    >>> found = solutions_cells([0, 0, 3, 4, 3, 4, 0, 0, 0, 0, 4, 3, 4, 3, 0, 0],
    ...                         geometry(2, 2), 3)
    >>> len(found), found[0][:8]
    (3, (1, 2, 3, 4, 3, 4, 1, 2))
    """
    _check_limit(limit)
    if _fast(geometry):
        keep: list[int] = []
        stats = _run9(cells, limit, None, keep)
        if work is not None:
            work(1 + stats.guesses)
        return [_cells9(c) for c in keep]
    found, _ = _generic(Grid(tuple(cells), geometry), limit, None, work)
    return found


def singles_candidates(cells: Sequence[int], geometry: Geometry = CLASSIC) -> list[int] | None:
    """Return each cell's candidate mask after naked and hidden singles, or None on a clash.

    The propagation of the generic path, for callers that want candidates rather than
    solutions (the low-clue search filters the digits worth trying with it).

    >>> from xlsudoku.engine.grid import geometry
    >>> geo = geometry(2, 2)
    >>> masks = singles_candidates([1, 2, 3, 0] + [0] * 12, geo)
    >>> masks[3], masks[4] & 0b0011
    (8, 0)
    """
    cands = _initial(Grid(tuple(cells), geometry))
    if cands is None:
        return None
    try:
        _propagate(cands, geometry.houses, geometry.peers, geometry.all_digits)
    except _Contradiction:
        return None
    return cands


def other_solution_cells(
    cells: Sequence[int],
    solution: Sequence[int],
    check: Sequence[int],
    geometry: Geometry = CLASSIC,
    work: Work | None = None,
) -> tuple[int, ...] | None:
    """Return a solution of *cells* that differs from *solution* in a *check* cell, or None.

    *solution* must solve *cells*, and *cells* with the *check* cells given must have no other
    solution; then None proves *cells* unique.  This is the uniqueness test of a generator
    that knows the solution: for each *check* cell in turn it asks for a solution where that
    cell does not hold its digit (a naked or hidden single from the givens needs no search),
    and when there is none, fixes the digit there and goes on.  *work*, when given, is told
    the steps of each search (see :data:`Work`).

    >>> s = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    >>> from xlsudoku.engine.grid import geometry
    >>> geo = geometry(2, 2)
    >>> other_solution_cells([0, 0] + s[2:], s, [0, 1], geo)  # one of 1 2 forced by the column
    >>> other = other_solution_cells([0, 0] + s[2:8] + [0, 0] + s[10:], s, [0, 1, 8, 9], geo)
    >>> other[:2], other[8:10]
    ((2, 1), (1, 2))
    """
    if _fast(geometry):
        return _other9(cells, solution, check, work)
    lay = _layout(geometry)
    if lay is not None:
        return _other_bits(lay, cells, solution, check, work)
    cands = _initial(Grid(tuple(cells), geometry))
    if cands is None:
        return None
    houses, houses_of = geometry.houses, geometry.houses_of
    for c in check:
        bit = 1 << (solution[c] - 1)
        if cands[c] == bit or any(
            not any(cands[x] & bit for x in houses[h] if x != c) for h in houses_of[c]
        ):
            continue  # a naked or hidden single: the digit is forced
        trial = cands[:]
        trial[c] &= ~bit
        if trial[c]:
            found: list[list[int]] = []
            _search(trial, geometry, 1, found, None, [0, 0], work)
            if found:
                return tuple(m.bit_length() for m in found[0])
        try:
            _assign(cands, c, bit, geometry.peers)
        except _Contradiction:  # pragma: no cover - *solution* solves *cells*
            return None
    return None


def _other9(
    cells: Sequence[int], solution: Sequence[int], check: Sequence[int], work: Work | None
) -> tuple[int, ...] | None:
    """Return :func:`other_solution_cells` on the 9x9 fast path."""
    state = _start9(cells)
    if state < 0:
        return None
    for c in check:
        bit = _GIVEN[c][solution[c]]
        plane = (bit.bit_length() - 1) // _PLANE * _PLANE
        if state & (1 << _pos(c)) * _PLANE_REP == bit or any(
            state & (house << plane) == bit for house in _HOUSES0[c]
        ):
            state = _place9(state, bit)  # a naked or hidden single: forced
            continue
        keep: list[int] = []
        stats = _search9(state & ~bit, 1, None, keep)
        if work is not None:
            work(1 + stats.guesses)
        if stats.solutions:
            return _cells9(keep[0])
        state = _place9(state, bit)
    return None


def search_stats(grid: Grid, limit: int = 2) -> SearchStats:
    """Count solutions up to *limit* and report how many times the solver had to guess.

    >>> search_stats(Grid.parse("11" + "." * 79))
    SearchStats(solutions=0, guesses=0)
    >>> search_stats(Grid.empty(), limit=1).solutions
    1
    """
    _check_limit(limit)
    if _fast(grid.geometry):
        return _run9(grid.cells, limit, None, None)
    found, guesses = _generic(grid, limit, None)
    return SearchStats(len(found), guesses)


def count_solutions(grid: Grid, limit: int = 2) -> int:
    """Count solutions, stopping at *limit* (2 proves uniqueness).

    >>> count_solutions(Grid.parse("11" + "." * 79))
    0
    >>> count_solutions(Grid.empty(), limit=5)
    5
    """
    return count_solutions_cells(grid.cells, grid.geometry, limit)


def solve(grid: Grid) -> Grid | None:
    """Return a solution of *grid*, or None when it has none.

    >>> s = solve(Grid.empty())
    >>> s is not None and s.is_complete
    True
    """
    found = solutions(grid, 1)
    return found[0] if found else None


def is_unique(grid: Grid) -> bool:
    """Return True when *grid* has exactly one solution.

    >>> is_unique(Grid.empty())
    False
    """
    return count_solutions(grid, 2) == 1
