"""The generic path (every shape, X-Sudoku included; the one for 6x6 and 12x12).

Per-cell candidate masks with naked and hidden singles.  It is also the reference the other
paths are checked against in the tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from xlsudoku.engine.grid import Geometry, Grid
from xlsudoku.engine.solver.stats import Work


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


def listed(
    grid: Grid, limit: int, rng: random.Random | None, work: Work | None = None
) -> tuple[list[tuple[int, ...]], int]:
    """Return up to *limit* solutions (as cell tuples) and the guess count.

    >>> found, guesses = listed(Grid.parse("123456789" + "." * 72), 1, None)
    >>> found[0][:9], guesses >= 0
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), True)
    """
    cands = _initial(grid)
    if cands is None:
        return [], 0
    found: list[list[int]] = []
    counter = [0, 0]
    _search(cands, grid.geometry, limit, found, rng, counter, work)
    return [tuple(m.bit_length() for m in c) for c in found], counter[0]


def count(grid: Grid, limit: int, work: Work | None) -> int:
    """Return how many solutions (at most *limit*) *grid* has, keeping none of them.

    >>> count(Grid.parse("11" + "." * 79), 2, None)
    0
    """
    cands = _initial(grid)
    if cands is None:
        return 0
    counter = [0, 0]
    _search(cands, grid.geometry, limit, None, None, counter, work)
    return counter[1]


def candidates(cells: Sequence[int], geometry: Geometry) -> list[int] | None:
    """Return each cell's candidate mask after naked and hidden singles, or None on a clash.

    >>> from xlsudoku.engine.grid import geometry
    >>> masks = candidates([1, 2, 3, 0] + [0] * 12, geometry(2, 2))
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


def other_solution(
    cells: Sequence[int],
    solution: Sequence[int],
    check: Sequence[int],
    geometry: Geometry,
    work: Work | None,
) -> tuple[int, ...] | None:
    """Return a solution of *cells* differing from *solution* in a *check* cell, or None.

    See :func:`xlsudoku.engine.solver.other_solution`.
    """
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
