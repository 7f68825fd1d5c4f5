"""SE's bidirectional cycles: a loop of links from a potential back to it, each held both ways.

Around such a cycle the potentials alternate on and off whichever way round it holds, so a
candidate that sees an on and an off potential of its digit on the cycle is off either way.
SE rates an X-cycle (one digit) or a Y-cycle (cells) 6.5 and an XY-cycle 7.0, plus the length
increment.  The search runs in :mod:`forcing`'s passes, beside the forcing chains.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xlsudoku.engine.steps import Elimination, Technique
from xlsudoku.engine.techniques.chaining.links import Links
from xlsudoku.engine.techniques.chaining.potential import Candidate, Potential, candidate_name
from xlsudoku.engine.techniques.chaining.rating import Conclusion, length_increment


def cycles(
    s: Candidate,
    on_off: Callable[[Candidate], tuple[Candidate, ...]],
    off_on: list[tuple[Candidate, ...]],
    limit: int,
) -> Iterator[list[Potential]]:
    """Yield SE's bidirectional cycles from *s* on, shortest first, up to *limit* potentials.

    On potentials are reached once; an off potential is reached once per on one, unless it
    lies on that on potential's own path (SE's breadth-first search).  A cycle is the list of
    its potentials, its start (on) first and last.

    >>> on_off = {0: (1,), 2: (3,)}.get  # 0 on -> 1 off -> 2 on -> 3 off -> 0 on
    >>> next(cycles(0, lambda c: on_off(c, ()), [(), (2,), (), (0,)], 10))
    [1, 2, 5, 6, 1]
    """
    root = s * 2 + 1
    # on potential -> (off potential, on parent)
    on_parent: dict[Potential, tuple[Potential, Potential]] = {root: (-1, -1)}
    path_offs: dict[Potential, tuple[Potential, ...]] = {root: ()}  # on -> the offs on its path
    pending_on = [root]
    length = 0
    while pending_on:
        length += 1
        pending_off: list[tuple[Potential, Potential]] = []
        for p in pending_on:
            mine = path_offs[p]
            for q in on_off(p >> 1):
                # an off potential no link makes anything on from leads nowhere
                if off_on[q] and q * 2 not in mine:
                    pending_off.append((q * 2, p))
        length += 1
        if length > limit:
            return
        pending_on = []
        for g, p in pending_off:
            for q in off_on[g >> 1]:
                h = q * 2 + 1
                if h == root and length >= 4:
                    path = [root, g, p]
                    f = p
                    while f != root:
                        off, f = on_parent[f]
                        path += [off, f]
                    path.reverse()
                    yield path
                if h not in on_parent:
                    on_parent[h] = (g, p)
                    path_offs[h] = path_offs[p] + (g,)
                    pending_on.append(h)


def cycle_conclusion(
    links: Links, path: list[Potential], base: int, sort_key: int, kind: str, order: int
) -> Conclusion | None:
    """Return the cycle's conclusion (candidates seeing an on and an off of one digit).

    *kind* is "X", "Y" or "XY" (the links used); None when the cycle removes nothing.
    """
    n = links.size
    geo = links.board.geometry
    nodes = path[1:]  # the start closes the cycle
    cells = {(f >> 1) // n for f in nodes}
    forward: set[Candidate] = set()
    back: set[Candidate] = set()
    cands = links.cands
    for f in nodes:
        cell, d = divmod(f >> 1, n)
        for c in geo.peers[cell]:
            if c not in cells and cands[c] >> d & 1:
                (forward if f & 1 else back).add(c * n + d)
    removable = sorted(forward & back)
    if not removable:
        return None
    complexity = len(nodes)
    rating = base + length_increment(complexity)
    name = "Bidirectional Cycle" if kind == "XY" else f"Bidirectional {kind}-Cycle"
    chain = " - ".join(candidate_name(f >> 1, geo) + ("" if f & 1 else " off") for f in path)
    elims = tuple(Elimination(p // n, p % n + 1) for p in removable)
    return Conclusion(
        (rating, complexity, sort_key, order),
        Technique.BIDIRECTIONAL_CYCLE,
        (),
        elims,
        tuple(dict.fromkeys((f >> 1) // n for f in nodes)),
        tuple(sorted({(f >> 1) % n + 1 for f in nodes})),
        f"{name}: {chain} (each link holds either way round), so "
        + ", ".join(f"{geo.cell_name(e.cell)} cannot be {geo.digit_char(e.digit)}" for e in elims),
    )
