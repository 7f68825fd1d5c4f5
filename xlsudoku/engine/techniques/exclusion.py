"""Aligned pair and triplet exclusion: digits of two or three cells ruled out by cells they see.

Take two cells and every cell with two candidates that sees both (its *excluders*).  A pair of
digits for the two cells is impossible when the cells see each other and the digits are equal,
or when an excluder holds exactly those two digits (it would be left empty).  A digit of one
cell that belongs to no possible pair is removed.  Sudoku Explainer rates it 6.2 and tries it
just before its chains; it looks at cells with two excluders or more, and not while a naked
single is left beside them.  The triplet (SE 7.5) is the same rule for three cells, with
excluders of two or three candidates; SE tries it after its cycles and forcing chains, before
its Nishio chains.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Geometry
from xlsudoku.engine.steps import Elimination, Step, Technique


@functools.cache
def _peer_masks(geo: Geometry) -> tuple[int, ...]:
    """Return per cell its peers as a mask (a bit per cell)."""
    return tuple(sum(1 << p for p in geo.peers[cell]) for cell in range(geo.cell_count))


def find_aligned_pair_exclusion(board: Board) -> Iterator[Step]:
    """Yield each aligned pair exclusion (SE 6.2), base cells in row-major order.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "684379215319825.6.527416983.3598462.2.85613.9.96237.58961748532..3652.9..52193..6"))
    >>> print(next(find_aligned_pair_exclusion(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Aligned pair exclusion: r2c7 and r4c9 both see the two-candidate cells r2c9, r6c7; no pair of
    digits for them may empty one of those cells (or repeat a digit they share a house for), which
    rules out r2c7=4
    """
    geo = board.geometry
    cands = board.cands
    peer_sets = geo.peer_sets
    bases: list[int] = []
    excluders: dict[int, int] = {}  # cell -> its excluders, a bit per cell
    singles = pairs = 0  # cells with one candidate, with two (a bit per cell)
    for cell, m in enumerate(cands):
        count = m.bit_count()
        if count == 1:
            singles |= 1 << cell
        elif count == 2:
            pairs |= 1 << cell
    peer_masks = _peer_masks(geo)
    for cell, m in enumerate(cands):
        if m.bit_count() < 2 or peer_masks[cell] & singles:
            continue
        near = peer_masks[cell] & pairs
        if near:
            bases.append(cell)
            excluders[cell] = near
    for a, b in itertools.combinations(bases, 2):
        shared = excluders[a] & excluders[b]
        if shared.bit_count() < 2:
            continue
        common = []
        while shared:
            low = shared & -shared
            common.append(low.bit_length() - 1)
            shared ^= low
        masks = {cands[c] for c in common}
        sees = b in peer_sets[a]
        allowed_a = allowed_b = 0
        ma, mb = cands[a], cands[b]
        rest = ma
        while rest:
            bit_a = rest & -rest
            rest ^= bit_a
            # digits of b that a's digit rules out: the same digit when the cells see each
            # other, and the other digit of each excluder holding a's digit
            ruled_out = bit_a if sees else 0
            for pair in masks:
                if pair & bit_a:
                    ruled_out |= pair ^ bit_a
            possible = mb & ~ruled_out
            if possible:
                allowed_a |= bit_a
                allowed_b |= possible
        gone_a, gone_b = ma & ~allowed_a, mb & ~allowed_b
        if not gone_a and not gone_b:
            continue
        elims = tuple(
            Elimination(cell, d + 1)
            for cell, gone in ((a, gone_a), (b, gone_b))
            for d in range(geo.size)
            if gone >> d & 1
        )
        cells_text = ", ".join(geo.cell_name(c) for c in sorted(common))
        yield Step(
            Technique.ALIGNED_PAIR_EXCLUSION,
            (),
            elims,
            (a, b) + tuple(sorted(common)),
            (),
            tuple(sorted({e.digit for e in elims})),
            f"Aligned pair exclusion: {geo.cell_name(a)} and {geo.cell_name(b)} both see the "
            f"two-candidate cells {cells_text}; no pair of digits for them may empty one of "
            "those cells (or repeat a digit they share a house for), which rules out "
            + ", ".join(f"{geo.cell_name(e.cell)}={geo.digit_char(e.digit)}" for e in elims),
        )


def _bits(mask: int) -> list[int]:
    """Return the set bits of *mask*, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@functools.lru_cache(maxsize=1 << 16)
def _digits(mask: int) -> tuple[int, ...]:
    """Return the digits (from 0) of a candidate mask, lowest first."""
    return tuple(_bits(mask))


def find_aligned_triplet_exclusion(board: Board) -> Iterator[Step]:
    """Yield each aligned triplet exclusion (SE 7.5) in Sudoku Explainer's search order.

    The rule of the pair, for three cells: a base cell has two candidates or more, no peer with
    one candidate, and its *excluders* are its peers with two or three candidates.  SE takes
    the first two base cells as pairs in order of the second cell, then of the first; the third
    is a base cell among the excluders of the first (then of the second, in cell order).  The
    three need two common excluders or more; a combination of digits is impossible when two
    cells that see each other take the same digit, or when it covers every candidate of an
    excluder.  A digit of a base cell in no possible combination is removed.

    On this puzzle SukakuExplainer's path reaches its one aligned triplet exclusion after
    its cycles and forcing chains:

    >>> from xlsudoku.engine.grid import Grid
    >>> from xlsudoku.engine.logic import solve_path
    >>> from xlsudoku.engine.ratings.sukaku import SUKAKU_TABLE
    >>> path = solve_path(Grid.parse(
    ...     "49.........8........34867..6..5.9...51.....63...1.4..7..69734........2.........96"),
    ...     SUKAKU_TABLE)
    >>> print(next(step.explanation for step in path.steps
    ...            if step.technique is Technique.ALIGNED_TRIPLET_EXCLUSION))
    ... # doctest: +NORMALIZE_WHITESPACE
    Aligned triplet exclusion: r1c6, r2c1, r1c5 all see the cells r1c3, r2c4, r2c6 (two or three
    candidates each); no digits for the three may empty one of those cells (or repeat a digit
    where two of them share a house), which rules out r1c6=1, r1c6=5
    """
    geo = board.geometry
    cands = board.cands
    peer_sets = geo.peer_sets
    peer_masks = _peer_masks(geo)
    singles = small = 0  # cells with one candidate, with two or three (a bit per cell)
    for cell, m in enumerate(cands):
        count = m.bit_count()
        if count == 1:
            singles |= 1 << cell
        elif 2 <= count <= 3:
            small |= 1 << cell
    bases: list[int] = []
    excluders: dict[int, int] = {}  # cell -> its excluders, a bit per cell
    for cell, m in enumerate(cands):
        if m.bit_count() < 2 or peer_masks[cell] & singles:
            continue
        near = peer_masks[cell] & small
        if near:
            bases.append(cell)
            excluders[cell] = near
    if len(bases) < 3:
        return
    base_mask = sum(1 << cell for cell in bases)
    tried: set[frozenset[int]] = set()
    for j in range(1, len(bases)):
        c1 = bases[j]
        ex1 = excluders[c1]
        for i in range(j):
            c0 = bases[i]
            ex0 = excluders[c0]
            if (ex0 & ex1).bit_count() < 2:
                continue  # no third cell can give them two common excluders
            # SE's third cells: base cells among the excluders of c0, then of c1
            first = ex0 & base_mask & ~(1 << c1)
            tails = _bits(first) + _bits(ex1 & base_mask & ~first & ~(1 << c0))
            for c2 in tails:
                common = ex0 & ex1 & excluders[c2]
                if common.bit_count() < 2:
                    continue
                trio = frozenset((c0, c1, c2))
                if trio in tried:
                    continue
                tried.add(trio)
                step = _triplet_step(board, (c0, c1, c2), _bits(common), peer_sets)
                if step is not None:
                    yield step


def _triplet_step(
    board: Board,
    cells: tuple[int, int, int],
    common: list[int],
    peer_sets: tuple[frozenset[int], ...],
) -> Step | None:
    """Return the exclusion of three base cells with their common excluders, else None."""
    geo = board.geometry
    cands = board.cands
    a, b, c = cells
    masks = {cands[e] for e in common}
    sees_ab, sees_ac, sees_bc = b in peer_sets[a], c in peer_sets[a], c in peer_sets[b]
    mc = cands[c]
    allowed = [0, 0, 0]
    for da in _digits(cands[a]):
        bit_a = 1 << da
        for db in _digits(cands[b]):
            bit_b = 1 << db
            if sees_ab and bit_a == bit_b:
                continue
            # the digits of c this pair rules out: an excluder left with one candidate outside
            # the pair takes it (none left: the pair itself is impossible)
            ruled_out = (bit_a if sees_ac else 0) | (bit_b if sees_bc else 0)
            ab = bit_a | bit_b
            for m in masks:
                rest = m & ~ab
                if not rest:
                    ruled_out = -1
                    break
                if not rest & (rest - 1):
                    ruled_out |= rest
            possible = mc & ~ruled_out
            if possible:
                allowed[0] |= bit_a
                allowed[1] |= bit_b
                allowed[2] |= possible
    gone = [cands[cell] & ~allowed[k] for k, cell in enumerate(cells)]
    if not any(gone):
        return None
    elims = tuple(
        Elimination(cell, d + 1) for cell, g in zip(cells, gone, strict=True) for d in _bits(g)
    )
    names = ", ".join(geo.cell_name(cell) for cell in cells)
    cells_text = ", ".join(geo.cell_name(e) for e in common)
    return Step(
        Technique.ALIGNED_TRIPLET_EXCLUSION,
        (),
        elims,
        cells + tuple(common),
        (),
        tuple(sorted({e.digit for e in elims})),
        f"Aligned triplet exclusion: {names} all see the cells {cells_text} (two or three "
        "candidates each); no digits for the three may empty one of those cells (or repeat a "
        "digit where two of them share a house), which rules out "
        + ", ".join(f"{geo.cell_name(e.cell)}={geo.digit_char(e.digit)}" for e in elims),
    )
