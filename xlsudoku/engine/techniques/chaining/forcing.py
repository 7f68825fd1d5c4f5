"""SE's forcing chains and cycles: the plain rules on the puzzle's candidates (6.5-7.0).

A *forcing chain* leads from a potential to its own opposite, so the potential is false: a
forcing X-chain (one digit, 6.6; a Turbot Fish when it rests on six potentials) or a forcing
chain (cells too, 7.0).  SE searches three passes, X links, Y links, then both, and in each,
from every potential in turn, its bidirectional cycles (:mod:`cycles`) and its forcing chains.
It keeps the easiest: the lowest rating, then the lowest complexity, then the pass.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.steps import Elimination, Placement, Step, Technique
from xlsudoku.engine.techniques.chaining.cycles import cycle_conclusion, cycles
from xlsudoku.engine.techniques.chaining.links import Links, links_of
from xlsudoku.engine.techniques.chaining.potential import Candidate, Potential, name
from xlsudoku.engine.techniques.chaining.rating import (
    CYCLE_XY_OR_Y,
    FORCING_X_CHAIN,
    XY_CHAIN,
    Conclusion,
    length_increment,
    max_complexity,
    tenths,
)


@dataclass(frozen=True, slots=True)
class StaticPass:
    """One of SE's passes over the static chains: its links, bases (tenths) and sort key."""

    kind: str  # "X", "Y" or "XY"
    x: bool
    y: bool
    cycle_base: int
    chain_base: int  # Y links alone make no forcing chain (see _static_pass)
    sort_key: int


PASSES = (
    StaticPass(
        "X", x=True, y=False, cycle_base=CYCLE_XY_OR_Y, chain_base=FORCING_X_CHAIN, sort_key=2
    ),
    StaticPass("Y", x=False, y=True, cycle_base=CYCLE_XY_OR_Y, chain_base=XY_CHAIN, sort_key=3),
    StaticPass("XY", x=True, y=True, cycle_base=XY_CHAIN, chain_base=XY_CHAIN, sort_key=4),
)


def find_se_forcing_chains(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest bidirectional cycle or forcing chain (X, Y and XY; 6.5-7.0 + length).

    With a *ceiling* (a rating), the first chain found rated at most *ceiling* is yielded
    instead of the easiest: for a rating that has already reached it, they are alike.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> print(next(find_se_forcing_chains(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Forcing X-Chain: assuming the opposite leads back to it (r1c3=5 on -> r5c3=5 off ->
    r6c3=5 on -> r1c3=5 off), so r1c3 cannot be 5
    """
    found = best_static_chain(board, within=tenths(ceiling))
    if found is not None:
        yield found.step()


def best_static_chain(board: Board, within: int = 0) -> Conclusion | None:
    """Return SE's easiest forcing chain or cycle on *board* (X links, Y links, then both).

    With *within* (a rating in tenths), the first chain found rated at most that is returned
    instead: a rating that has already reached *within* cannot tell it from the easiest.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> best_static_chain(b).key[:2]
    (66, 4)
    """
    links = links_of(board)
    order = itertools.count(1)
    best: Conclusion | None = None
    for kind in PASSES:
        best = _static_pass(links, kind, best, order, within)
        if best is not None and best.key[0] <= within:
            break
    return best


def _static_pass(
    links: Links,
    kind: StaticPass,
    best: Conclusion | None,
    order: Iterator[int],
    within: int = 0,
) -> Conclusion | None:
    """Search the forcing chains and cycles of one pass; return the best so far.

    The search stops at the first chain rated *within* (tenths) or less.
    """
    x, y = kind.x, kind.y
    cands = links.cands
    # off -> on links of this pass, on the puzzle's candidates (static)
    off_on = links.off_on(y, x)
    on_off_of = links.xy_off if y else links.x_off
    on_off = on_off_of.__getitem__
    off_of, on_of = links.off_potentials(y), links.on_potentials(y, x)
    # a cycle returns to its start through an off -> on link: potentials no link makes on
    # start none (and a chain from an off start needs a link out of it)
    made_on = {q for targets in off_on for q in targets}
    # potentials from which no chain leads to their opposite (the links do not change)
    dead: set[Potential] = set()
    # the longest cycle and chain that could still beat the best so far (kept up to date)
    limit_cycle = max_complexity(kind.cycle_base, kind.sort_key, best.key if best else None)
    limit_chain = max_complexity(kind.chain_base, kind.sort_key, best.key if best else None)
    n = links.size
    for cell in range(len(cands)):
        m = cands[cell]
        if m.bit_count() < 2 or (m.bit_count() > 2 and not x):
            continue
        for d in range(n):
            if not m >> d & 1:
                continue
            s = cell * n + d
            found: Conclusion | None
            if s in made_on:
                for path in cycles(s, on_off, off_on, limit_cycle):
                    found = cycle_conclusion(
                        links, path, kind.cycle_base, kind.sort_key, kind.kind, next(order)
                    )
                    if found is not None and (best is None or found.key < best.key):
                        best = found
                        if best.key[0] <= within:
                            return best
                        limit_cycle = max_complexity(kind.cycle_base, kind.sort_key, best.key)
                        limit_chain = max_complexity(kind.chain_base, kind.sort_key, best.key)
            if not x:
                continue
            for start_on in (True, False) if off_on[s] else (True,):
                if s * 2 + start_on in dead:
                    continue
                chain = shortest_forcing_chain(s, start_on, off_of, on_of, limit_chain, dead)
                if chain is not None:
                    found = _chain_conclusion(
                        links, chain, kind.chain_base, kind.sort_key, y, next(order)
                    )
                    if best is None or found.key < best.key:
                        best = found
                        if best.key[0] <= within:
                            return best
                        limit_cycle = max_complexity(kind.cycle_base, kind.sort_key, best.key)
                        limit_chain = max_complexity(kind.chain_base, kind.sort_key, best.key)
    return best


def shortest_forcing_chain(
    s: Candidate,
    start_on: bool,
    off_of: Sequence[tuple[Potential, ...]],
    on_of: Sequence[tuple[Potential, ...]],
    limit: int,
    dead: set[Potential] | None = None,
) -> list[Potential] | None:
    """Return the shortest path of potentials from *s* (on or off) to its opposite, or None.

    *off_of* and *on_of* give, per candidate, the potentials it makes off when on and on when
    off.  The path holds at most *limit* potentials.  When the search runs out of potentials (not
    out of *limit*), each one it reached whose opposite it did not reach is added to *dead*:
    all it leads to was reached too, so a search from it finds no path to its opposite either.

    Most searches find no path: the first one only marks the potentials it reaches, and a
    search that meets the opposite runs again recording each potential's parent for the path.

    >>> off_of, on_of = [(2,), (), (0,)], [(), (5,), ()]  # 0 on -> 1 off -> 2 on -> 0 off
    >>> shortest_forcing_chain(0, True, off_of, on_of, 9)
    [1, 2, 5, 0]
    >>> dead = set()
    >>> shortest_forcing_chain(1, True, off_of, on_of, 9, dead), sorted(dead)
    (None, [3])
    """
    first = s * 2 + start_on
    target = first ^ 1
    seen = bytearray(2 * len(off_of))
    seen[first] = 1
    reached = [first]
    ons = [first] if start_on else []
    offs: list[Potential] = [] if start_on else [first]
    depth = 1  # potentials on the path so far
    while ons or offs:
        if ons:
            depth += 1
            if depth > limit:
                return None
            for f in ons:
                gs = off_of[f >> 1]
                if target in gs:  # never reached before: the search ends in this layer
                    return _shortest_path(first, off_of, on_of)
                for g in gs:
                    if not seen[g]:
                        seen[g] = 1
                        offs.append(g)
            reached += offs
        if not offs:
            break
        depth += 1
        if depth > limit:
            return None
        ons = []
        for f in offs:
            gs = on_of[f >> 1]
            if target in gs:
                return _shortest_path(first, off_of, on_of)
            for g in gs:
                if not seen[g]:
                    seen[g] = 1
                    ons.append(g)
        reached += ons
        offs = []
    if dead is not None:
        dead.update([f for f in reached if not seen[f ^ 1]])
    return None


def _shortest_path(
    first: Potential,
    off_of: Sequence[tuple[Potential, ...]],
    on_of: Sequence[tuple[Potential, ...]],
) -> list[Potential]:
    """Return the path breadth-first search finds from *first* to its opposite (one exists).

    >>> _shortest_path(1, [(2,), (), (0,)], [(), (5,), ()])
    [1, 2, 5, 0]
    """
    target = first ^ 1
    parent: dict[Potential, Potential] = {first: -1}
    layer = [first]
    while True:
        step = []
        for f in layer:
            gs = (off_of if f & 1 else on_of)[f >> 1]
            if target in gs:
                return _path_to(parent, f) + [target]
            for g in gs:
                if g not in parent:
                    parent[g] = f
                    step.append(g)
        layer = step


def _path_to(parent: dict[Potential, Potential], f: Potential) -> list[Potential]:
    path = []
    while f >= 0:
        path.append(f)
        f = parent[f]
    path.reverse()
    return path


def _chain_conclusion(
    links: Links, path: list[Potential], base: int, sort_key: int, y: bool, order: int
) -> Conclusion:
    """Return a forcing chain's conclusion: the start is the opposite of what was assumed."""
    n = links.size
    geo = links.board.geometry
    end = path[-1]
    cell, d = divmod(end >> 1, n)
    complexity = len(path)
    rating = base + length_increment(complexity)
    placements: tuple[Placement, ...] = ()
    if end & 1:
        placements = (Placement(cell, d + 1),)
        elims = tuple(
            Elimination(cell, e + 1) for e in range(n) if e != d and links.cands[cell] >> e & 1
        )
        verdict = f"{geo.cell_name(cell)} is {geo.digit_char(d + 1)}"
    else:
        elims = (Elimination(cell, d + 1),)
        verdict = f"{geo.cell_name(cell)} cannot be {geo.digit_char(d + 1)}"
    title = "Forcing Chain" if y else ("Turbot Fish" if complexity == 6 else "Forcing X-Chain")
    chain = " -> ".join(name(f, geo) for f in path)
    return Conclusion(
        (rating, complexity, sort_key, order),
        Technique.FORCING_CHAIN if y else Technique.FORCING_X_CHAIN,
        placements,
        elims,
        tuple(dict.fromkeys((f >> 1) // n for f in path)),
        (d + 1,) if not y else tuple(sorted({(f >> 1) % n + 1 for f in path})),
        f"{title}: assuming the opposite leads back to it ({chain}), so {verdict}",
    )
