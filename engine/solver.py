"""Exact solver: constraint propagation on candidate masks with fewest-candidates branching.

Works on every geometry.  Givens that clash give zero solutions (use ``Grid.validate`` for a
message naming the cells).
"""

from __future__ import annotations

import random

from engine.grid import Grid


class _Contradiction(Exception):
    """Raised inside the search when a cell or a house runs out of candidates."""


def _initial(grid: Grid) -> list[int] | None:
    """Return candidate masks after placing the givens, or None on a clash."""
    geo = grid.geometry
    full = geo.all_digits
    cands = [full] * geo.cell_count
    try:
        for cell, d in enumerate(grid.cells):
            if d:
                b = 1 << (d - 1)
                if not cands[cell] & b:
                    return None
                _assign(cands, cell, b, geo.peers)
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


def _propagate(cands: list[int], houses: tuple[tuple[int, ...], ...], peers: tuple[tuple[int, ...], ...], full: int) -> None:
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
    grid: Grid,
    limit: int,
    found: list[list[int]],
    rng: random.Random | None,
) -> None:
    """Depth-first search collecting up to *limit* solutions into *found*."""
    geo = grid.geometry
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
        found.append(cands)
        return
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
        _search(trial, grid, limit, found, rng)
        if len(found) >= limit:
            return


def _to_grid(cands: list[int], grid: Grid) -> Grid:
    return Grid(tuple(m.bit_length() for m in cands), grid.geometry)


def solutions(grid: Grid, limit: int = 2, rng: random.Random | None = None) -> list[Grid]:
    """Return up to *limit* solutions of *grid* (in random branch order when *rng* is given).

    >>> len(solutions(Grid.empty(), limit=3))
    3
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    cands = _initial(grid)
    if cands is None:
        return []
    found: list[list[int]] = []
    _search(cands, grid, limit, found, rng)
    return [_to_grid(c, grid) for c in found]


def count_solutions(grid: Grid, limit: int = 2) -> int:
    """Count solutions, stopping at *limit* (2 proves uniqueness).

    >>> count_solutions(Grid.parse("11" + "." * 79))
    0
    >>> count_solutions(Grid.empty(), limit=5)
    5
    """
    return len(solutions(grid, limit))


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
