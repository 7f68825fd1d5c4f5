"""Aligned pair exclusion: two cells whose digit pairs are ruled out by cells they both see.

Take two cells and every cell with two candidates that sees both (its *excluders*).  A pair of
digits for the two cells is impossible when the cells see each other and the digits are equal,
or when an excluder holds exactly those two digits (it would be left empty).  A digit of one
cell that belongs to no possible pair is removed.  Sudoku Explainer rates it 6.2 and tries it
just before its chains; it looks at cells with two excluders or more, and not while a naked
single is left beside them.
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
