"""The 9x9 path: all 729 candidates of a classic grid in one Python int, searched bit-parallel.

All 729 candidates live in one Python int of 810 bits, bit ``90 * (digit - 1) + 10 * row +
column``: nine *digit planes* of nine 10-bit *row lanes* (bit 9 of a lane is a guard that stays
0).  One integer operation then works on every candidate at once, so a propagation round costs a
few dozen operations whatever the number of cells involved.  A round looks for naked singles (a
fold over the nine planes counting candidates per cell "at least once / at least twice"); only
when there are none, for hidden singles in rows (a per-lane ``x & (x - 1)``, the guard bit
stopping borrows), then columns, then boxes (folds over rows and columns).  Each new single is
placed by ANDing a precomputed mask (many at once: a batch placement that also checks that no
two clash).  When singles stall, locked candidates (pointing and claiming) run on the same
representation.  Branching picks the cell with two candidates that has the most unsolved peers
(then the most peers with two candidates).  A search state is a single immutable int, so
backtracking copies nothing.

This is the one long module of the package, on purpose: the layout's constant masks, the
propagation round and the search loop read the same bit positions, and splitting them would
put one data structure's invariants in several files.  :data:`KERNEL` is the small named set of
entry points the low-clue search uses instead of the layout itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlsudoku.engine.grid import CLASSIC, Geometry, InvalidPuzzle
from xlsudoku.engine.solver.stats import SearchStats, Work

# The bit layout and its constant masks (tables are data, built once).

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


def run(
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


def digits(cands: int) -> tuple[int, ...]:
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


@dataclass(frozen=True, slots=True)
class Kernel:
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

    >>> state = KERNEL.start([0] * 81)
    >>> KERNEL.search(state & ~KERNEL.given[0][1], 1, None, None).solutions
    1
    >>> KERNEL.cell_set(KERNEL.given[80][3] | KERNEL.given[4][9]) == 1 << 80 | 1 << 4
    True
    >>> KERNEL.spread(1 << 80) == sum(KERNEL.given[80][d] for d in range(1, 10))
    True
    >>> givens = sum(KERNEL.given[c][c % 9 + 1] for c in range(8))  # row 1 reads 12345678.
    >>> state, placed = KERNEL.settle(KERNEL.place(KERNEL.every, givens), givens)
    >>> KERNEL.cells(state & KERNEL.spread(0x1FF))[:9], placed & KERNEL.given[8][9] > 0
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), True)
    >>> KERNEL.search_from(state, placed, 2, []).solutions
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
    """Search the puzzle whose givens are the candidate bits *givens* (as :func:`run` does)."""
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


KERNEL = Kernel(
    _start9,
    _search9,
    _place9,
    digits,
    _GIVEN,
    _ALL,
    _cell_set9,
    _spread9,
    _search_givens9,
    _settle9,
    _search_from9,
)


def other_solution(
    cells: Sequence[int], solution: Sequence[int], check: Sequence[int], work: Work | None
) -> tuple[int, ...] | None:
    """Return a solution of *cells* differing from *solution* in a *check* cell, or None.

    See :func:`xlsudoku.engine.solver.other_solution`.
    """
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
            return digits(keep[0])
        state = _place9(state, bit)
    return None


def fits(geometry: Geometry) -> bool:
    """Return True when *geometry* is the classic 9x9 shape this path searches.

    >>> from xlsudoku.engine.grid import geometry
    >>> fits(CLASSIC), fits(geometry(3, 3, True))
    (True, False)
    """
    # Compared by houses, not by name: a 9x9 shape with other or more houses is not classic.
    return geometry is CLASSIC or geometry.houses == CLASSIC.houses
