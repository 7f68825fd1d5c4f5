"""The power-of-two path: the 9x9 bit layout made general (4x4, 16x16, ...).

Every shape whose side and box sides are powers of two, without diagonals.  Candidate bit
``plane * digit_index + lane * row + column``, lanes of ``size + 1`` bits (the top bit a guard),
so one integer operation works on every candidate.  Counting per cell, row, column or box is a
fold: halve the group, shift it onto the other half, combine "at least once" and "at least
twice" (and "three times" for branching), which is exact when the groups are powers of two.
Naked and hidden singles only; branching on a cell with two candidates.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass

from xlsudoku.engine.grid import Geometry, InvalidPuzzle
from xlsudoku.engine.solver.stats import SearchStats, Work


def _bits(positions: Sequence[int] | range) -> int:
    """Return the int with the bits at *positions* set."""
    return functools.reduce(operator.or_, (1 << p for p in positions), 0)


@dataclass(frozen=True, slots=True)
class Layout:
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
def layout(geometry: Geometry) -> Layout | None:
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
    return Layout(
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


def _place_bits(lay: Layout, cands: int, new: int) -> int:
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


def _givens_bits(lay: Layout, cells: Sequence[int]) -> int:
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


def _cells_bits(lay: Layout, cands: int) -> tuple[int, ...]:
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
    lay: Layout,
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


def run(
    lay: Layout,
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


def other_solution(
    lay: Layout,
    cells: Sequence[int],
    solution: Sequence[int],
    check: Sequence[int],
    work: Work | None,
) -> tuple[int, ...] | None:
    """Return a solution of *cells* differing from *solution* in a *check* cell, or None."""
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


def count(lay: Layout, cells: Sequence[int], limit: int, work: Work | None) -> int:
    """Return how many solutions (at most *limit*) *cells* has, keeping none of them.

    A count of a million solutions of an empty 16x16 grid then needs no more memory than one.
    """
    givens = _givens_bits(lay, cells)
    start = _place_bits(lay, lay.all_, givens)
    if start < 0:
        return 0
    return _search_bits(lay, start, limit, None, None, work, givens).solutions
