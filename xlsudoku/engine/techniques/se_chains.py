"""Sudoku Explainer's chains: cycles, forcing chains, Nishio, multiple, dynamic and nested chains.

A *potential* is a digit in a cell, assumed *on* (it is the cell's digit) or *off* (it is not).
Two rules make a potential off from an on one: the other digits of its cell (the *Y* rule) and
the same digit in the cell's peers (the *X* rule).  Two rules make one on from an off one: the
last digit of a cell (Y) and the last place of a digit in a house (X).  Sudoku Explainer (SE)
1.2.1 rates every deduction drawn that way by its kind and its *complexity*, the number of
potentials the conclusion rests on; its techniques, from the easiest:

- *Forcing chains and cycles* (base 6.5-7.0): from one potential, the plain rules on the
  puzzle's candidates.  A bidirectional cycle leads back to its start and removes the
  candidates that see an on and an off potential of the same digit (X-cycle 6.5, Y-cycle 6.5,
  XY-cycle 7.0); a forcing chain leads from a potential to its own opposite (forcing X-chain
  6.6, forcing chain 7.0).
- *Nishio* (7.5): the X rules only, but *dynamic*: every potential found off is removed from
  the candidates on the way, so cells and houses run out of places; an assumption that leads to
  a potential both on and off is wrong.
- *Multiple forcing chains* (8.0): whatever digit a cell takes (cells of three or more
  candidates), or wherever a digit goes in a house, the same potential follows.
- *Dynamic forcing chains* (8.5): the multiple chains, dynamic, plus contradictions and the
  double chains (a potential that follows from both a candidate and its negation).
- *Dynamic forcing chains (+)* (9.0): when the rules run dry, pointing, claiming, hidden and
  naked pairs and X-Wings on the candidates left add more off potentials.
- *Nested forcing chains* (9.5, 10.0, ...): the same, with forcing chains (level 2), multiple
  forcing chains (level 3) and dynamic forcing chains (level 4; with pairs, locks and X-Wings at
  level 5) as the extra rules (approximated: see :meth:`_Chainer._nested`).

The rating of a step is the kind's base plus SE's *length increment* of its complexity
(:func:`length_increment`).  Each finder yields the step SE would take: the easiest of its kind
(lowest rating, then lowest complexity), which is all a grader needs.  A budget of *work*
(:data:`NESTED_WORK`, counted in searches, not seconds, so a rating is the same on every
machine) bounds the nested levels, whose search grows fast: past it, a finder yields the easiest
chain found so far, or keeps looking until it finds one.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, House
from xlsudoku.engine.steps import Elimination, Placement, Step, Technique

Fact = int  # (cell * size + digit - 1) * 2 + (1 if on else 0)

# Inner forcing chains of nested levels rest on at most this many potentials (see _nested).
INNER_LIMIT = 10
# The work a nested search spends (from its start) before it settles for the easiest chain
# found so far; without one it looks on until it finds one (see _Chainer._spend).  Units: about
# one inner forcing chain search; each candidate an inner search starts from costs 1, an inner
# dynamic contradiction search INNER_DYNAMIC_COST, a round of the extra rules on the candidates
# an outer assumption leaves ADVANCED_COST.
NESTED_WORK = 430_000
INNER_DYNAMIC_COST = 5
ADVANCED_COST = 12

# Base ratings of SE 1.2.1's chain kinds (tenths).
CYCLE_XY_OR_Y = 65
FORCING_X_CHAIN = 66
XY_CHAIN = 70
NISHIO = 75
MULTIPLE = 80
DYNAMIC = 85


def length_increment(complexity: int) -> int:
    """Return SE's rating added (in tenths) for a chain resting on *complexity* potentials.

    The length is the complexity less two; +0.1 each time it passes a ceiling that grows by
    x3/2 and x4/3 in turn (4, 6, 8, 12, 16, 24, 32, ...).

    >>> [length_increment(c) for c in (6, 7, 9, 11, 15, 19, 27)]
    [0, 1, 2, 3, 4, 5, 6]
    """
    added = 0
    ceiling = 4
    length = complexity - 2
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


def nested_base(level: int) -> int:
    """Return the base rating (tenths) of dynamic chains nested to *level* (0 = plain dynamic).

    >>> [nested_base(n) for n in range(4)]
    [85, 90, 95, 100]
    """
    return DYNAMIC + 5 * level


@functools.cache
def _se_geometry(
    geo: Geometry,
) -> tuple[
    tuple[tuple[House, ...], ...],
    tuple[tuple[Cell, ...], ...],
    tuple[tuple[tuple[House, int], ...], ...],
]:
    """Return per cell: its houses in SE's order, its peers in that order, and its slots.

    The houses are box, row and column; the peers are theirs, each once; a slot is a house
    with the bit of the cell's position in it.
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
def _single(n: int) -> tuple[int, ...]:
    """Return, for every mask of *n* bits, the index of its bit if it has one bit, else -1."""
    out = [-1] * (1 << n)
    for i in range(n):
        out[1 << i] = i
    return tuple(out)


@functools.cache
def _removals(
    geo: Geometry,
) -> tuple[tuple[Cell, int, tuple[tuple[int, int, tuple[Fact, ...]], ...]], ...]:
    """Return per potential what the dynamic chains change when it goes off.

    Its cell, the mask that clears its digit from the cell, and per house (box, row, column)
    the digit's places key (``house * size + digit - 1``), the mask that clears the cell's
    position and the digit's on fact at each position of the house.
    """
    n = geo.size
    _, _, se_slots = _se_geometry(geo)
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


@functools.lru_cache(maxsize=8192)
def _cell_y_off(n: int, cell: Cell, m: int) -> tuple[tuple[int, ...], ...]:
    """Return, for each digit of a cell holding candidates *m*, the cell's other potentials."""
    own = [cell * n + e for e in range(n) if m >> e & 1]
    return tuple(
        tuple([q for q in own if q != cell * n + d]) if m >> d & 1 else () for d in range(n)
    )


@functools.lru_cache(maxsize=4096)
def _digit_tables(
    geo: Geometry, d: int, pattern: int
) -> tuple[
    tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]
]:
    """Return the tables of digit index *d* whose candidates are the cells of *pattern* (bits).

    Per cell, the potentials of the digit in its peers (SE's order: box, row, column); per
    house, how many places the digit has there and their positions as a mask; per cell, the
    other place of the digit in each of its houses (box, row, column) where it has two, each
    once (what the X rule makes on when the digit goes from the cell).
    """
    n = geo.size
    _, se_peers, _ = _se_geometry(geo)
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
    se_slots = _se_geometry(geo)[2]
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


@dataclass(slots=True)
class _Tables:
    """The board's candidates with SE's orders: houses box, row, column for every cell."""

    board: Board
    size: int
    cands: tuple[int, ...]
    houses: tuple[tuple[Cell, ...], ...]
    se_houses: tuple[tuple[House, ...], ...]  # per cell: its box, row and column
    x_off: list[tuple[int, ...]]  # potential -> same digit in the peers (box, row, column)
    y_off: list[tuple[int, ...]]  # potential -> other digits of the cell
    xy_off: list[tuple[int, ...]]  # potential -> y_off then x_off (what its being on makes off)
    counts: list[int]  # house * size + digit - 1 -> places of the digit in the house
    # house * size + digit - 1 -> places of the digit as a mask of positions in the house
    places: list[int]
    # per cell: (house, bit of the cell's position in the house) for its box, row and column
    se_slots: tuple[tuple[tuple[House, int], ...], ...]
    x_on: list[tuple[int, ...]]  # potential -> what the X rule makes on when it goes off
    off_on_memo: dict[tuple[bool, bool], list[tuple[int, ...]]]

    @classmethod
    def of(cls, board: Board) -> _Tables:
        geo = board.geometry
        n = geo.size
        cands = board.cands
        houses = geo.houses
        se_houses, _, se_slots = _se_geometry(geo)
        x_off: list[tuple[int, ...]] = [()] * (geo.cell_count * n)
        y_off: list[tuple[int, ...]] = [()] * (geo.cell_count * n)
        counts = [0] * (len(houses) * n)
        places = [0] * (len(houses) * n)
        # each digit's links and places rest on its own candidates: a step leaves most as
        # they were (cached per digit)
        pattern = [0] * n
        for cell, m in enumerate(cands):
            if m:
                y_off[cell * n : cell * n + n] = _cell_y_off(n, cell, m)
                while m:
                    low = m & -m
                    pattern[low.bit_length() - 1] |= 1 << cell
                    m ^= low
        x_on: list[tuple[int, ...]] = [()] * (geo.cell_count * n)
        for d in range(n):
            x_off[d::n], counts[d::n], places[d::n], x_on[d::n] = _digit_tables(geo, d, pattern[d])
        xy_off = [a + b for a, b in zip(y_off, x_off, strict=True)]
        return cls(
            board,
            n,
            cands,
            houses,
            se_houses,
            x_off,
            y_off,
            xy_off,
            counts,
            places,
            se_slots,
            x_on,
            {},
        )

    def off_on(self, y: bool, x: bool) -> list[tuple[int, ...]]:
        """Return, per potential, what its being off makes on (Y rule, X rule or both).

        Y: the other digit of a cell with two candidates; X: the other place of the digit in
        each house (box, row, column) where it has two.
        """
        got = self.off_on_memo.get((y, x))
        if got is None:
            n = self.size
            got = list(self.x_on) if x else [()] * len(self.x_off)
            if y:
                for cell, m in enumerate(self.cands):
                    if m.bit_count() == 2:
                        low = m & -m
                        a, b = (
                            cell * n + low.bit_length() - 1,
                            cell * n + (m ^ low).bit_length() - 1,
                        )
                        got[a], got[b] = (b,) + got[a], (a,) + got[b]
            self.off_on_memo[(y, x)] = got
        return got


@functools.lru_cache(maxsize=2)
def _tables(board: Board) -> _Tables:
    """Return the tables of *board*, shared by SE's chain finders tried in turn on it.

    The finders of one board (forcing chains, Nishio, multiple and dynamic chains) build the
    same tables; they only ever add memoised results to them (pure results of a frozen board).
    """
    return _Tables.of(board)


# -- forcing chains and cycles (static) --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Found:
    """A chain conclusion: its key for SE's order and what it does."""

    key: tuple[int, int, int, int]  # rating (tenths), complexity, SE sort key, discovery order
    technique: Technique
    placements: tuple[Placement, ...]
    eliminations: tuple[Elimination, ...]
    cells: tuple[Cell, ...]
    digits: tuple[int, ...]
    explanation: str


def _name(t: _Tables, p: int) -> str:
    geo = t.board.geometry
    cell, d = divmod(p, t.size)
    return f"{geo.cell_name(cell)}={geo.digit_char(d + 1)}"


def _max_complexity(base: int, sort_key: int, best: tuple[int, int, int, int] | None) -> int:
    """Return the largest complexity whose key could still beat *best* (a huge number if none)."""
    if best is None:
        return 1 << 30
    c = 2
    while (base + length_increment(c + 1), c + 1, sort_key) < best[:3]:
        c += 1
    return c if (base + length_increment(c), c, sort_key) < best[:3] else 1


def _static_pass(
    t: _Tables, y: bool, x: bool, best: _Found | None, order: list[int], within: int = 0
) -> _Found | None:
    """Search SE's forcing chains and cycles of one kind (X, Y or XY links); keep the best.

    The search stops at the first chain rated *within* (tenths) or less (see
    :func:`best_static_chain`).
    """
    n = t.size
    cands = t.cands
    kind_cycle = CYCLE_XY_OR_Y if not (x and y) else XY_CHAIN
    kind_chain = FORCING_X_CHAIN if not y else XY_CHAIN
    sort_key = 4 if x and y else (3 if y else 2)
    # off -> on links of this kind, on the puzzle's candidates (static)
    off_on = t.off_on(y, x)
    off_on_of = off_on.__getitem__
    on_off = (t.xy_off if y else t.x_off).__getitem__
    # a cycle returns to its start through an off -> on link: potentials no link makes on
    # start none (and a chain from an off start needs a link out of it)
    made_on = {q for targets in off_on for q in targets}
    # facts from which no chain leads to their opposite (the links do not change in a pass)
    dead: set[Fact] = set()
    # the longest cycle and chain that could still beat the best so far (kept up to date)
    limit_cycle = _max_complexity(kind_cycle, sort_key, best.key if best else None)
    limit_chain = _max_complexity(kind_chain, sort_key, best.key if best else None)

    for cell in range(len(cands)):
        m = cands[cell]
        if m.bit_count() < 2 or (m.bit_count() > 2 and not x):
            continue
        for d in range(n):
            if not m >> d & 1:
                continue
            s = cell * n + d
            if s in made_on:
                for path in _cycles(s, on_off, off_on, limit_cycle):
                    found = _cycle_found(t, path, kind_cycle, sort_key, x, y, order)
                    if found is not None and (best is None or found.key < best.key):
                        best = found
                        if best.key[0] <= within:
                            return best
                        limit_cycle = _max_complexity(kind_cycle, sort_key, best.key)
                        limit_chain = _max_complexity(kind_chain, sort_key, best.key)
            if not x:
                continue
            for start_on in (True, False) if off_on[s] else (True,):
                if s * 2 + start_on in dead:
                    continue
                chain = _forcing(s, start_on, on_off, off_on_of, limit_chain, dead)
                if chain is not None:
                    found = _chain_found(t, chain, kind_chain, sort_key, y, order)
                    if best is None or found.key < best.key:
                        best = found
                        if best.key[0] <= within:
                            return best
                        limit_cycle = _max_complexity(kind_cycle, sort_key, best.key)
                        limit_chain = _max_complexity(kind_chain, sort_key, best.key)
    return best


def _forcing(
    s: int,
    start_on: bool,
    on_off: Callable[[int], tuple[int, ...]],
    off_on: Callable[[int], tuple[int, ...]],
    limit: int,
    dead: set[Fact] | None = None,
) -> list[Fact] | None:
    """Return the shortest path of facts from *s* (on or off) to its opposite, or None.

    When the search runs out of facts (not out of *limit*), each fact it reached whose opposite
    it did not reach is added to *dead*: all it leads to was reached too, so a search from it
    finds no path to its opposite either.
    """
    first = s * 2 + start_on
    target = first ^ 1
    parent: dict[Fact, Fact] = {first: -1}
    ons = [first] if start_on else []
    offs = [] if start_on else [first]
    depth = 1  # facts on the path so far
    while ons or offs:
        if ons:
            depth += 1
            if depth > limit:
                return None
            for f in ons:
                for q in on_off(f >> 1):
                    g = q * 2
                    if g == target:
                        return _path_to(parent, f) + [g]
                    if g not in parent:
                        parent[g] = f
                        offs.append(g)
        if not offs:
            break
        depth += 1
        if depth > limit:
            return None
        ons = []
        for f in offs:
            for q in off_on(f >> 1):
                g = q * 2 + 1
                if g == target:
                    return _path_to(parent, f) + [g]
                if g not in parent:
                    parent[g] = f
                    ons.append(g)
        offs = []
    if dead is not None:
        dead.update([f for f in parent if f ^ 1 not in parent])
    return None


class _Memo(dict[int, tuple[int, ...]]):
    """A dict that computes a missing key's value once, by *make* (lookups stay dict lookups)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], tuple[int, ...]]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> tuple[int, ...]:
        got = self[key] = self.make(key)
        return got


def _near_links(
    links: dict[tuple[int, int], tuple[Fact, ...]],
    on_off: Callable[[int], tuple[int, ...]],
    off_on: Callable[[int], tuple[int, ...]],
    steps: int,
) -> set[Fact]:
    """Return the facts at most *steps* links from a potential of *links* being on.

    The links go both ways (``f -> g`` exactly when ``not g -> not f``), so a chain from a fact
    ``f`` to its opposite through the link ``a off -> b on`` runs ``f`` to ``a off`` (as many
    links as ``a on`` to ``not f``), then ``b on`` to ``not f``: with at most ``2 * steps + 2``
    potentials, ``not f`` is among the facts returned.
    """
    reached = {a * 2 + 1 for a, _ in links}
    frontier = list(reached)
    for _ in range(steps):
        step: list[Fact] = []
        for f in frontier:
            if f & 1:
                for q in on_off(f >> 1):
                    g = q * 2
                    if g not in reached:
                        reached.add(g)
                        step.append(g)
            else:
                for q in off_on(f >> 1):
                    g = q * 2 + 1
                    if g not in reached:
                        reached.add(g)
                        step.append(g)
        frontier = step
    return reached


def _path_to(parent: dict[Fact, Fact], f: Fact) -> list[Fact]:
    path = []
    while f >= 0:
        path.append(f)
        f = parent[f]
    path.reverse()
    return path


def _cycles(
    s: int,
    on_off: Callable[[int], tuple[int, ...]],
    off_on: list[tuple[int, ...]],
    limit: int,
) -> Iterator[list[Fact]]:
    """Yield SE's bidirectional cycles from *s* on, shortest first, up to *limit* potentials.

    On potentials are reached once; an off potential is reached once per on one, unless it
    lies on that on potential's own path (SE's breadth-first search).
    """
    root = s * 2 + 1
    # on fact -> (off fact, on parent)
    on_parent: dict[Fact, tuple[Fact, Fact]] = {root: (-1, -1)}
    path_offs: dict[Fact, tuple[Fact, ...]] = {root: ()}  # on fact -> the offs on its path
    pending_on = [root]
    length = 0
    while pending_on:
        length += 1
        pending_off: list[tuple[Fact, Fact]] = []
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


def _cycle_found(
    t: _Tables, path: list[Fact], base: int, sort_key: int, x: bool, y: bool, order: list[int]
) -> _Found | None:
    """Return the cycle's conclusion (candidates seeing an on and an off of one digit)."""
    n = t.size
    geo = t.board.geometry
    nodes = path[1:]  # the start closes the cycle
    cells = {f >> 1 for f in nodes}
    cells = {p // n for p in cells}
    forward: set[int] = set()
    back: set[int] = set()
    cands = t.cands
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
    order[0] += 1
    kind = "XY" if x and y else ("X" if x else "Y")
    name = "Bidirectional Cycle" if kind == "XY" else f"Bidirectional {kind}-Cycle"
    chain = " - ".join(_name(t, f >> 1) + ("" if f & 1 else " off") for f in path)
    elims = tuple(Elimination(p // n, p % n + 1) for p in removable)
    return _Found(
        (rating, complexity, sort_key, order[0]),
        Technique.BIDIRECTIONAL_CYCLE,
        (),
        elims,
        tuple(dict.fromkeys((f >> 1) // n for f in nodes)),
        tuple(sorted({(f >> 1) % n + 1 for f in nodes})),
        f"{name}: {chain} (each link holds either way round), so "
        + ", ".join(f"{geo.cell_name(e.cell)} cannot be {geo.digit_char(e.digit)}" for e in elims),
    )


def _chain_found(
    t: _Tables, path: list[Fact], base: int, sort_key: int, y: bool, order: list[int]
) -> _Found:
    """Return a forcing chain's conclusion: the start is the opposite of what was assumed."""
    n = t.size
    geo = t.board.geometry
    end = path[-1]
    cell, d = divmod(end >> 1, n)
    complexity = len(path)
    rating = base + length_increment(complexity)
    order[0] += 1
    placements: tuple[Placement, ...] = ()
    if end & 1:
        placements = (Placement(cell, d + 1),)
        elims = tuple(
            Elimination(cell, e + 1) for e in range(n) if e != d and t.cands[cell] >> e & 1
        )
        verdict = f"{geo.cell_name(cell)} is {geo.digit_char(d + 1)}"
    else:
        elims = (Elimination(cell, d + 1),)
        verdict = f"{geo.cell_name(cell)} cannot be {geo.digit_char(d + 1)}"
    name = "Forcing Chain" if y else ("Turbot Fish" if complexity == 6 else "Forcing X-Chain")
    chain = " -> ".join(_name(t, f >> 1) + (" on" if f & 1 else " off") for f in path)
    return _Found(
        (rating, complexity, sort_key, order[0]),
        Technique.FORCING_CHAIN if y else Technique.FORCING_X_CHAIN,
        placements,
        elims,
        tuple(dict.fromkeys((f >> 1) // n for f in path)),
        (d + 1,) if not y else tuple(sorted({(f >> 1) % n + 1 for f in path})),
        f"{name}: assuming the opposite leads back to it ({chain}), so {verdict}",
    )


def _step(found: _Found) -> Step:
    return Step(
        found.technique,
        found.placements,
        found.eliminations,
        found.cells,
        (),
        found.digits,
        found.explanation,
        found.key[0] / 10,
    )


def best_static_chain(board: Board, kinds: str = "xy", within: int = 0) -> _Found | None:
    """Return SE's easiest forcing chain or cycle on *board* (X links, Y links, then both).

    With *within* (a rating in tenths), the first chain found rated at most that is returned
    instead: a rating that has already reached *within* cannot tell it from the easiest.
    """
    t = _tables(board)
    order = [0]
    best: _Found | None = None
    passes = [(False, True), (True, False), (True, True)]
    if kinds == "x":
        passes = passes[:1]
    for y, x in passes:
        best = _static_pass(t, y, x, best, order, within)
        if best is not None and best.key[0] <= within:
            break
    return best


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
    found = best_static_chain(board, within=_tenths(ceiling))
    if found is not None:
        yield _step(found)


# -- dynamic chains ----------------------------------------------------------------------------


class _OutOfWork(Exception):
    """The nested search spent its work with a conclusion in hand."""


class _Enough(Exception):
    """A chain within the rating ceiling is in hand: the search for an easier one can stop."""


@dataclass(slots=True)
class _Outcome:
    """What follows from an assumption: facts with their parents, and a contradiction."""

    facts: dict[Fact, tuple[Fact, ...]]  # fact -> parents (first = cause), in order found
    contradiction: tuple[Fact, tuple[Fact, ...], Fact, tuple[Fact, ...]] | None
    nested: dict[Fact, int]  # fact -> complexity of the nested chain that produced it


class _Chainer:
    """SE's chaining engine for one board and one kind (Nishio, multiple, dynamic, nested)."""

    def __init__(
        self,
        board: Board,
        nishio: bool,
        dynamic: bool,
        level: int,
        work: int | None,
        tables: _Tables | None = None,
    ) -> None:
        self.t = _tables(board) if tables is None else tables
        self.board = board
        self.y = not nishio
        self.dynamic = dynamic
        self.level = level
        self.work = work  # units of search left (see _spend); None: no bound
        self.cache: dict[Fact, _Outcome] = {}
        self.found = False  # a conclusion is in hand: running out of work stops the search
        self.static_off_on: list[tuple[int, ...]] | None = None  # the static chains' links
        self.plain: _Chainer | None = None  # plain dynamic chains on the same candidates
        self.touch: dict[Fact, tuple[int, int]] = {}  # see _touched

    def outcome(self, first: Fact) -> _Outcome:
        """Return the consequences of *first* (cached: SE recomputes them identically)."""
        got = self.cache.get(first)
        if got is None:
            got = self.cache[first] = self._chain(first)
        return got

    def _static_chain(self, first: Fact) -> _Outcome:
        """Return the consequences of *first* by the plain rules on the puzzle's candidates.

        The candidates stay as they are, so what an off potential makes on is fixed, and an
        off potential that makes nothing on is recorded but not queued (it would do nothing).
        """
        t = self.t
        on_off = t.xy_off if self.y else t.x_off
        off_on = self.static_off_on
        if off_on is None:
            off_on = self.static_off_on = t.off_on(self.y, True)
        facts: dict[Fact, tuple[Fact, ...]] = {first: ()}
        pending_on: deque[Fact] = deque()
        pending_off: deque[Fact] = deque()
        if first & 1:
            pending_on.append(first)
        elif off_on[first >> 1]:
            pending_off.append(first)
        while True:
            # the on potentials first, in the order found (SE's order)
            while pending_on:
                f = pending_on.popleft()
                parents: tuple[Fact, ...] = (f,)
                for q in on_off[f >> 1]:
                    g = q * 2
                    if g not in facts:  # facts never hold a potential both on and off
                        if g + 1 in facts:
                            return _Outcome(facts, (g + 1, facts[g + 1], g, parents), {})
                        facts[g] = parents
                        if off_on[q]:
                            pending_off.append(g)
            if not pending_off:
                break
            f = pending_off.popleft()
            parents = (f,)
            for q in off_on[f >> 1]:
                g = q * 2 + 1
                if g not in facts:
                    if g - 1 in facts:
                        return _Outcome(facts, (g, parents, g - 1, facts[g - 1]), {})
                    facts[g] = parents
                    pending_on.append(g)
        return _Outcome(facts, None, {})

    def _chain(self, first: Fact) -> _Outcome:
        if not self.dynamic:  # multiple forcing chains (level 0)
            return self._static_chain(first)
        t = self.t
        n = t.size
        y = self.y
        advanced = self.level > 0  # SE's extra rules when the plain ones run dry
        source = t.cands
        on_off = t.xy_off if y else t.x_off
        cands = list(source)
        places = list(t.places)  # places of each digit in each house, kept up to date
        src_places = t.places
        removals = _removals(t.board.geometry)
        single = _single(n)
        facts: dict[Fact, tuple[Fact, ...]] = {first: ()}
        nested: dict[Fact, int] = {}
        pending_on: deque[Fact] = deque()
        pending_off: deque[Fact] = deque()
        (pending_on if first & 1 else pending_off).append(first)
        while True:
            # the on potentials first, in the order found (SE's order)
            while pending_on:
                f = pending_on.popleft()
                cause = (f,)
                for q in on_off[f >> 1]:
                    g = q * 2
                    if g not in facts:  # facts never hold a potential both on and off
                        if g + 1 in facts:
                            return _Outcome(facts, (g + 1, facts[g + 1], g, cause), nested)
                        facts[g] = cause
                        pending_off.append(g)
            if not pending_off:
                if advanced:
                    for g, parents, inner in self._advanced(cands, facts):
                        if g not in facts:
                            facts[g] = parents
                            if inner:
                                nested[g] = inner
                            pending_off.append(g)
                if not pending_off:
                    break
            f = pending_off.popleft()
            cell, clear, houses = removals[f >> 1]
            m = cands[cell]
            left = cands[cell] = m & clear
            # what the removal makes on, in SE's order, each recorded at once (a potential
            # both on and off ends the chain, whatever the rest would have done)
            if y and left != m and single[left] >= 0:
                # the cell's other digit, resting on the digits the assumption removed
                g = (cell * n + single[left]) * 2 + 1
                if g - 1 in facts or g not in facts:
                    gone = source[cell] & ~m
                    rest = [f]
                    while gone:
                        low = gone & -gone
                        rest.append((cell * n + low.bit_length() - 1) * 2)
                        gone ^= low
                    if g - 1 in facts:
                        return _Outcome(facts, (g, tuple(rest), g - 1, facts[g - 1]), nested)
                    facts[g] = tuple(rest)
                    pending_on.append(g)
            for key, keep, ons in houses:
                here = places[key]
                other = places[key] = here & keep
                i = single[other]
                if i < 0:
                    continue
                g = ons[i]
                if g - 1 in facts or g not in facts:
                    # the last place rests on the places the assumption removed
                    gone = src_places[key] & ~here
                    rest = [f]
                    while gone:
                        low = gone & -gone
                        rest.append(ons[low.bit_length() - 1] - 1)
                        gone ^= low
                    if g - 1 in facts:
                        return _Outcome(facts, (g, tuple(rest), g - 1, facts[g - 1]), nested)
                    facts[g] = tuple(rest)
                    pending_on.append(g)
        return _Outcome(facts, None, nested)

    def _advanced(
        self, cands: list[int], facts: dict[Fact, tuple[Fact, ...]]
    ) -> list[tuple[Fact, tuple[Fact, ...], int]]:
        """Return off potentials from SE's extra rules on the candidates left (level 1 and up).

        The rules are tried in SE's order (pointing and claiming, hidden pairs, naked pairs,
        X-Wings, then forcing chains at level 2 and multiple forcing chains at level 3); the
        first that finds something new gives all its eliminations, each resting on the
        candidates the assumption removed from the pattern.
        """
        from xlsudoku.engine.techniques.fish import find_x_wing
        from xlsudoku.engine.techniques.intersections import find_claiming, find_pointing
        from xlsudoku.engine.techniques.subsets import find_hidden_pair, find_naked_pair

        self._spend(ADVANCED_COST)
        t = self.t
        n = t.size
        source = t.cands
        board = Board(self.board.values, tuple(cands), self.board.geometry)
        rules: list[Callable[[Board], Iterator[Step]]] = [
            lambda b: _chain_iter(find_pointing(b), find_claiming(b)),
            find_hidden_pair,
            find_naked_pair,
            find_x_wing,
        ]
        for rule in rules:
            out = []
            for step in rule(board):
                parents = _rule_parents(t, source, cands, step)
                if not parents:
                    continue
                for e in step.eliminations:
                    out.append(((e.cell * n + e.digit - 1) * 2, parents, 0))
            if out:
                return out
        if self.level >= 2:
            return self._nested(board, source, cands)
        return []

    def _nested(
        self, board: Board, source: tuple[int, ...], cands: list[int]
    ) -> list[tuple[Fact, tuple[Fact, ...], int]]:
        """Return the eliminations of forcing chains on the candidates left (nested levels).

        SE runs its whole forcing chain search (level 2; multiple chains at level 3) on the
        candidates the assumption leaves.  Here each candidate is assumed on (and off) and the
        plain rules are followed to its opposite, bounded to ``INNER_LIMIT`` potentials (two
        more a level above 2), which keeps the nesting affordable.  Each elimination rests on
        the candidates the assumption removed from the inner chain's cells.  From level 4,
        when these find nothing, the dynamic contradictions of :meth:`_inner_dynamic`.
        """
        t = self.t
        n = t.size
        limit = INNER_LIMIT + 2 * (self.level - 2)
        x_off, y_off = t.x_off, t.y_off
        houses = t.houses
        se_houses = t.se_houses
        counts: dict[int, int] = {}
        for h, cells in enumerate(houses):
            for c in cells:
                m = cands[c]
                while m:
                    low = m & -m
                    key = h * n + low.bit_length() - 1
                    counts[key] = counts.get(key, 0) + 1
                    m ^= low
        # links that exist only on the candidates left: a chain without one is a chain of the
        # puzzle itself, which SE leaves out (its pattern rests on nothing the assumption did)
        new_links: dict[tuple[int, int], tuple[Fact, ...]] = {}
        src_counts = t.counts
        for h, cells in enumerate(houses):
            for d in range(n):
                if counts.get(h * n + d) == 2 and src_counts[h * n + d] > 2:
                    bit = 1 << d
                    two = [c for c in cells if cands[c] & bit]
                    gone = tuple(
                        (c * n + d) * 2 for c in cells if source[c] & bit and not cands[c] & bit
                    )
                    a, b = two[0] * n + d, two[1] * n + d
                    new_links[(a, b)] = new_links[(b, a)] = gone
        for cell, m in enumerate(cands):
            if m.bit_count() == 2 and source[cell].bit_count() > 2:
                low = m & -m
                a, b = cell * n + low.bit_length() - 1, cell * n + (m ^ low).bit_length() - 1
                gone = tuple(
                    (cell * n + e) * 2 for e in range(n) if source[cell] >> e & 1 and not m >> e & 1
                )
                new_links[(a, b)] = new_links[(b, a)] = gone
        if not new_links:
            return self._inner_dynamic(board, source, cands) if self.level >= 4 else []

        # what each candidate left makes off when on, and on when off (SE's orders), built
        # when a search first needs it and looked up through dict methods (cheaper than calls)
        def makes_off(p: int) -> tuple[int, ...]:
            return tuple(q for q in y_off[p] + x_off[p] if cands[q // n] >> (q % n) & 1)

        def makes_on(p: int) -> tuple[int, ...]:
            cell, d = divmod(p, n)
            m = cands[cell]
            low = 1 << d
            made = [cell * n + (m ^ low).bit_length() - 1] if m.bit_count() == 2 else []
            for h in se_houses[cell]:
                if counts.get(h * n + d) == 2:
                    for c in houses[h]:
                        if c != cell and cands[c] & low:
                            if c * n + d not in made:
                                made.append(c * n + d)
                            break
            return tuple(made)

        on_off_of = _Memo(makes_off)
        off_on_of = _Memo(makes_on)
        on_off = on_off_of.__getitem__
        off_on = off_on_of.__getitem__

        # a chain without a new link is left out: a start whose opposite is no nearer the new
        # links than that allows has none (nor has a fact an earlier search exhausted)
        near = _near_links(new_links, on_off, off_on, (limit - 2) // 2)
        out: list[tuple[Fact, tuple[Fact, ...], int]] = []
        dead: set[Fact] = set()  # facts no chain leads from to their opposite (see _forcing)
        for cell, m, d in self._open(cands, 1):
            for start_on in (True, False):
                first = (cell * n + d) * 2 + start_on
                if first in dead or first ^ 1 not in near:
                    continue
                chain = _forcing(cell * n + d, start_on, on_off, off_on, limit, dead)
                if chain is None:
                    continue
                end = chain[-1]
                ecell, ed = divmod(end >> 1, n)
                targets = (
                    [(ecell * n + e) * 2 for e in range(n) if e != ed and m >> e & 1]
                    if end & 1
                    else [end]
                )
                parents: dict[Fact, None] = {}
                for f, g in zip(chain, chain[1:], strict=False):
                    if not f & 1 and g & 1:
                        parents.update(dict.fromkeys(new_links.get((f >> 1, g >> 1), ())))
                if parents:
                    out += [(g, tuple(parents), len(chain)) for g in targets]
        if out or self.level < 4:
            return out
        return self._inner_dynamic(board, source, cands)

    def _inner_dynamic(
        self, board: Board, source: tuple[int, ...], cands: list[int]
    ) -> list[tuple[Fact, tuple[Fact, ...], int]]:
        """Return the eliminations of dynamic contradictions on the candidates left (level 4+).

        SE's level 4 adds its dynamic forcing chains to the rules (level 5 its dynamic chains
        with pairs, locks and X-Wings).  Here each candidate left is assumed on and off and
        followed dynamically on the candidates left; an assumption that leads to a potential
        both on and off is wrong.  A contradiction rests on the candidates the outer
        assumption removed wherever a potential of its chains came on as the last digit of a
        cell or the last place of a digit in a house; one that rests on none is a chain of the
        puzzle itself, which the plain dynamic chains rated lower would have found.
        """
        t = self.t
        n = t.size
        inner = _Chainer(board, False, True, self.level - 4, None, _Tables.of(board))
        out: list[tuple[Fact, tuple[Fact, ...], int]] = []
        exact = self.level == 4  # plain inner rules: an untouched assumption can be skipped
        if exact:
            changed_cells = changed_keys = 0
            for cell, m in enumerate(cands):
                gone = source[cell] & ~m
                if gone:
                    changed_cells |= 1 << cell
                    for h in t.se_houses[cell]:
                        changed_keys |= gone << (h * n)
        for cell, m, d in self._open(cands, INNER_DYNAMIC_COST):
            s = cell * n + d
            # in a cell of two digits, one off is the other on: its contradiction removes
            # the same candidate, resting on one potential more
            for first in (s * 2 + 1,) if m.bit_count() == 2 else (s * 2 + 1, s * 2):
                if exact:
                    cells_hit, keys_hit = self._touched(first)
                    if not (cells_hit & changed_cells or keys_hit & changed_keys):
                        continue  # the same chains as on the puzzle's candidates
                o = inner.outcome(first)
                if o.contradiction is None:
                    continue
                a, pa, b, pb = o.contradiction
                parents = self._inner_parents(o, (a, b, *pa, *pb), source, cands)
                if not parents:
                    continue
                c = inner.ancestors(o, a, pa) + inner.ancestors(o, b, pb)
                if first & 1:
                    out.append((s * 2, parents, c))
                else:
                    out += [
                        ((cell * n + e) * 2, parents, c) for e in range(n) if e != d and m >> e & 1
                    ]
        return out

    def _open(self, cands: list[int], cost: int) -> Iterator[tuple[Cell, int, int]]:
        """Yield ``(cell, candidates, digit)`` for each candidate of a cell not yet decided.

        Each candidate spends *cost* units of work (see :meth:`_spend`), a cell's at once after
        it: between cells, a search with a conclusion in hand stops when the work runs out.
        """
        n = self.t.size
        for cell, m in enumerate(cands):
            if m.bit_count() < 2:
                continue
            for d in range(n):
                if m >> d & 1:
                    yield cell, m, d
            self._spend(cost * m.bit_count())

    def _spend(self, units: int) -> None:
        """Count *units* of nested search; past the budget, with a conclusion in hand, stop.

        The bound is counted in work, not time, so a rating is the same on every machine (and
        in the browser): a unit is about one inner forcing chain search.
        """
        if self.work is not None:
            self.work -= units
            if self.found and self.work < 0:
                raise _OutOfWork

    def _touched(self, first: Fact) -> tuple[int, int]:
        """Return the cells and the (house, digit) keys the plain dynamic chains of *first* see.

        The chains look only at the candidates of the cells of their potentials and at the
        places of their digits in those cells' houses: on candidates that differ from the
        puzzle's nowhere there, they are the same as on the puzzle's candidates.  A bit per
        cell, and per house * size + digit.
        """
        got = self.touch.get(first)
        if got is None:
            if self.plain is None:
                self.plain = _Chainer(self.board, False, True, 0, None, self.t)
            n = self.t.size
            se_houses = self.t.se_houses
            cells_hit = keys_hit = 0
            for f in self.plain.outcome(first).facts:
                cell, d = divmod(f >> 1, n)
                cells_hit |= 1 << cell
                for h in se_houses[cell]:
                    keys_hit |= 1 << (h * n + d)
            got = self.touch[first] = (cells_hit, keys_hit)
        return got

    def _inner_parents(
        self,
        o: _Outcome,
        start: tuple[Fact, ...],
        source: tuple[int, ...],
        cands: list[int],
    ) -> tuple[Fact, ...]:
        """Return the outer off potentials an inner outcome's facts *start* rest on.

        Each on potential among their ancestors that came on as a cell's last digit rests on
        the digits the outer assumption removed from the cell; one that came on as the last
        place of its digit in a house, on the places it removed from that house.
        """
        t = self.t
        n = t.size
        facts = o.facts
        seen: set[Fact] = set()
        todo = list(start)
        found: dict[Fact, None] = {}
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            parents = facts.get(f, ())
            todo.extend(parents)
            if not f & 1 or not parents:
                continue
            cell, d = divmod(f >> 1, n)
            cause = parents[0] >> 1
            if cause // n == cell:  # the cell's last digit
                gone = source[cell] & ~cands[cell]
                for e in range(n):
                    if gone >> e & 1:
                        found[(cell * n + e) * 2] = None
                continue
            bit = 1 << d
            for h in t.se_houses[cell]:  # the house where it is the digit's last place
                cells = t.houses[h]
                if (cause // n) not in cells:
                    continue
                if all(c == cell or not cands[c] & bit or (c * n + d) * 2 in facts for c in cells):
                    for c in cells:
                        if source[c] & bit and not cands[c] & bit:
                            found[(c * n + d) * 2] = None
                    break
        return tuple(found)

    def ancestors(self, outcome: _Outcome, fact: Fact, parents: tuple[Fact, ...]) -> int:
        """Return how many potentials *fact* (with *parents*) rests on, itself included.

        Nested chains add their own complexity once each.
        """
        facts = outcome.facts
        seen = {fact}
        todo = list(parents)
        nested = outcome.nested
        if not nested:
            while todo:
                f = todo.pop()
                if f not in seen:
                    seen.add(f)
                    todo.extend(facts.get(f, ()))
            return len(seen)
        extra = 0
        done_nested: set[int] = set()
        if fact in nested:
            extra += nested[fact]
            done_nested.add(fact)
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            if nested and f in nested and f not in done_nested:
                extra += nested[f]
                done_nested.add(f)
            todo.extend(facts.get(f, ()))
        return len(seen) + extra

    def best_multiple(self, base: int, within: int = 0) -> _Found | None:
        """Return SE's easiest Nishio, multiple or dynamic chain of this engine's kind.

        With *within* (a rating in tenths), the first chain found rated at most that is
        returned instead (see :func:`best_static_chain`), the cells of fewest candidates
        scanned first (SE's order otherwise).
        """
        t = self.t
        n = t.size
        cands = t.cands
        geo = self.board.geometry
        multiple = not (self.dynamic and not self.y)  # Nishio has no cell/region chains
        nishio = not self.y
        best: _Found | None = None
        order = 0

        def consider(
            rating_c: int,
            sort_key: int,
            target: Fact,
            label: str,
            cells: tuple[Cell, ...],
        ) -> None:
            nonlocal best, order
            order += 1
            key = (base + length_increment(rating_c), rating_c, sort_key, order)
            if best is not None and key >= best.key:
                return
            cell, d = divmod(target >> 1, n)
            if target & 1:
                elims = tuple(
                    Elimination(cell, e + 1) for e in range(n) if e != d and cands[cell] >> e & 1
                )
                if not elims:
                    return
                placements: tuple[Placement, ...] = (Placement(cell, d + 1),)
                verdict = f"{geo.cell_name(cell)} is {geo.digit_char(d + 1)}"
            else:
                if not cands[cell] >> d & 1:
                    return
                elims = (Elimination(cell, d + 1),)
                placements = ()
                verdict = f"{geo.cell_name(cell)} cannot be {geo.digit_char(d + 1)}"
            self.found = True
            best = _Found(
                key,
                _TECHNIQUE[(nishio, self.dynamic, self.level)],
                placements,
                elims,
                cells,
                (d + 1,),
                f"{_kind_name(nishio, self.dynamic, self.level, label)}: {label}, so {verdict} "
                f"(the chains rest on {rating_c} potentials)",
            )
            if key[0] <= within:
                raise _Enough

        if nishio and all(m.bit_count() != 1 for m in cands):
            # each digit's chains rest on its own candidates only: reuse them while they last
            try:
                self._nishio(consider)
            except _Enough:
                pass
            return best
        try:
            scan: Iterable[Cell] = range(len(cands))
            if within:  # any chain will do: cells of fewer candidates need fewer outcomes
                scan = sorted(scan, key=lambda c: (cands[c].bit_count(), c))
            for cell in scan:
                m = cands[cell]
                card = m.bit_count()
                if not (card > 2 or (card > 1 and self.dynamic)):
                    continue
                if best is not None and self.work is not None and self.work < 0:
                    break  # out of work: the easiest chain found so far
                value_on: dict[int, _Outcome] = {}
                cell_on: dict[Fact, None] | None = None
                cell_off: dict[Fact, None] | None = None
                for d in range(n):
                    if not m >> d & 1:
                        continue
                    s = cell * n + d
                    on = self.outcome(s * 2 + 1)
                    if self.dynamic or nishio:
                        off = self.outcome(s * 2)
                        if on.contradiction is not None:
                            a, pa, b, pb = on.contradiction
                            c = self.ancestors(on, a, pa) + self.ancestors(on, b, pb)
                            consider(
                                c, 7, s * 2, f"if {_name(t, s)}, a contradiction follows", (cell,)
                            )
                        if off.contradiction is not None:
                            a, pa, b, pb = off.contradiction
                            c = self.ancestors(off, a, pa) + self.ancestors(off, b, pb)
                            consider(
                                c,
                                7,
                                s * 2 + 1,
                                f"if not {_name(t, s)}, a contradiction follows",
                                (cell,),
                            )
                        if card >= 3 and not nishio:
                            for f, pf in on.facts.items():
                                if f in off.facts and f >> 1 != s:
                                    c = self.ancestors(on, f, pf) + self.ancestors(
                                        off, f, off.facts[f]
                                    )
                                    consider(
                                        c,
                                        1,
                                        f,
                                        f"{_name(t, s)} or not, {_fact_text(t, f)}",
                                        (cell,),
                                    )
                    if nishio:
                        continue
                    self._regions(cell, d, on, consider)
                    value_on[d] = on
                    if cell_on is None:
                        cell_on = {f: None for f in on.facts if f & 1}
                        cell_off = {f: None for f in on.facts if not f & 1}
                    else:
                        assert cell_off is not None
                        cell_on = {f: None for f in cell_on if f in on.facts}
                        cell_off = {f: None for f in cell_off if f in on.facts}
                if nishio or not (card == 2 or (multiple and card > 2)) or cell_on is None:
                    continue
                assert cell_off is not None
                for f in list(cell_on) + list(cell_off):
                    c = sum(self.ancestors(o, f, o.facts[f]) for o in value_on.values())
                    consider(
                        c, 5, f, f"whatever {geo.cell_name(cell)} is, {_fact_text(t, f)}", (cell,)
                    )
        except _OutOfWork:
            pass  # out of time: the easiest chain found so far
        except _Enough:
            pass  # within the ceiling: an easier chain would not change the rating
        return best

    def _nishio(self, consider: Callable[[int, int, Fact, str, tuple[Cell, ...]], None]) -> None:
        """Consider the Nishio contradictions of every digit in the scan's order (cell, digit).

        A digit's contradictions come from :func:`_nishio_contradictions` on its candidates
        alone, cached: a step leaves most digits' candidates as they were.
        """
        t = self.t
        n = t.size
        cands = t.cands
        geo = self.board.geometry
        blank = (0,) * geo.cell_count
        found: list[tuple[Cell, int, int, int]] = []
        for d in range(n):
            bit = 1 << d
            pattern = tuple(m & bit for m in cands)
            if any(pattern):
                for cell, off, c in _nishio_contradictions(Board(blank, pattern, geo), d):
                    found.append((cell, d, off, c))
        found.sort()
        for cell, d, off, c in found:
            s = cell * n + d
            if off:
                consider(c, 7, s * 2 + 1, f"if not {_name(t, s)}, a contradiction follows", (cell,))
            else:
                consider(c, 7, s * 2, f"if {_name(t, s)}, a contradiction follows", (cell,))

    def _regions(
        self,
        cell: Cell,
        d: int,
        on: _Outcome,
        consider: Callable[[int, int, Fact, str, tuple[Cell, ...]], None],
    ) -> None:
        """Consider SE's region chains of digit *d* in houses where *cell* is its first place."""
        t = self.t
        n = t.size
        geo = self.board.geometry
        bit = 1 << d
        for h in t.se_houses[cell]:
            here = t.places[h * n + d]
            cells = t.houses[h]
            if here.bit_count() < 2 or cells[(here & -here).bit_length() - 1] != cell:
                continue
            places = [c for c in cells if t.cands[c] & bit]
            # the other places' outcomes one by one, while some fact is common to all
            outcomes = [on]
            shared: set[Fact] | None = None
            for c in places[1:]:
                o = self.outcome((c * n + d) * 2 + 1)
                outcomes.append(o)
                shared = (on.facts.keys() if shared is None else shared) & o.facts.keys()
                if not shared:
                    break
            if not shared:
                continue
            common = [f for f in on.facts if f in shared]
            for f in common:
                if f >> 1 == cell * n + d:
                    continue
                c = sum(self.ancestors(o, f, o.facts[f]) for o in outcomes)
                consider(
                    c,
                    6,
                    f,
                    f"wherever {geo.digit_char(d + 1)} goes in {geo.house_name(h)}, "
                    f"{_fact_text(t, f)}",
                    tuple(places),
                )


@functools.lru_cache(maxsize=1024)
def _nishio_contradictions(board: Board, d: int) -> tuple[tuple[Cell, int, int], ...]:
    """Return the Nishio contradictions on *board*, which holds candidates of digit *d* only.

    Each is ``(cell, off, complexity)``: assuming the digit in the cell (*off* 0) or not (1)
    leads to a contradiction resting on *complexity* potentials, in the order of the cells.
    Nishio's rules (X links, dynamic) never look at another digit.
    """
    chainer = _Chainer(board, True, True, 0, None, _Tables.of(board))
    n = board.geometry.size
    out = []
    for cell, m in enumerate(board.cands):
        if not m:
            continue
        s = cell * n + d
        outcomes = (chainer.outcome(s * 2 + 1), chainer.outcome(s * 2))
        for off, o in enumerate(outcomes):
            if o.contradiction is not None:
                a, pa, b, pb = o.contradiction
                out.append((cell, off, chainer.ancestors(o, a, pa) + chainer.ancestors(o, b, pb)))
    return tuple(out)


def _chain_iter(*its: Iterator[Step]) -> Iterator[Step]:
    for it in its:
        yield from it


def _rule_parents(
    t: _Tables, source: tuple[int, ...], cands: list[int], step: Step
) -> tuple[Fact, ...]:
    """Return the off potentials (removed by the assumption) that a pattern rests on."""
    n = t.size
    found: list[Fact] = []
    houses = step.houses or ()
    digits = step.digits
    if step.technique in (Technique.NAKED_PAIR,):
        for c in step.cells:
            gone = source[c] & ~cands[c]
            found += [(c * n + e) * 2 for e in range(n) if gone >> e & 1]
        return tuple(found)
    base = houses[:1] if step.technique in (Technique.POINTING, Technique.CLAIMING) else houses
    if step.technique is Technique.X_WING:
        base = houses[:2]
    for h in base:
        for c in t.houses[h]:
            gone = source[c] & ~cands[c]
            for dg in digits:
                if gone >> (dg - 1) & 1:
                    found.append((c * n + dg - 1) * 2)
    return tuple(dict.fromkeys(found))


def _fact_text(t: _Tables, f: Fact) -> str:
    geo = t.board.geometry
    cell, d = divmod(f >> 1, t.size)
    verb = "is" if f & 1 else "cannot be"
    return f"{geo.cell_name(cell)} {verb} {geo.digit_char(d + 1)}"


_TECHNIQUE = {
    (True, True, 0): Technique.NISHIO_FORCING_CHAIN,
    (False, False, 0): Technique.MULTIPLE_FORCING_CHAINS,
    (False, True, 0): Technique.DYNAMIC_FORCING_CHAINS,
    (False, True, 1): Technique.DYNAMIC_FORCING_CHAINS_PLUS,
}


def _kind_name(nishio: bool, dynamic: bool, level: int, label: str) -> str:
    if nishio:
        return "Nishio Forcing Chain"
    kind = "Cell" if label.startswith("whatever") else "Region"
    if label.startswith("if") or " or not" in label:
        kind = "Contradiction" if label.startswith("if") else "Double"
    name = f"{'Dynamic ' if dynamic else ''}{kind} Forcing Chains"
    suffix = {1: " (+)", 2: " (+ Forcing Chains)", 3: " (+ Multiple Forcing Chains)"}
    return name + suffix.get(level, "")


for _level in range(2, 6):
    _TECHNIQUE[(False, True, _level)] = Technique.NESTED_FORCING_CHAINS


def _tenths(ceiling: float | None) -> int:
    """Return a rating ceiling in tenths (0, which no chain is within, for None)."""
    return 0 if ceiling is None else round(ceiling * 10)


def _multiple_steps(
    board: Board,
    nishio: bool,
    dynamic: bool,
    level: int,
    work: int | None,
    ceiling: float | None = None,
) -> Iterator[Step]:
    base = NISHIO if nishio else (nested_base(level) if dynamic else MULTIPLE)
    try:
        chainer = _Chainer(board, nishio, dynamic, level, work)
        found = chainer.best_multiple(base, _tenths(ceiling))
    except _OutOfWork:
        return
    if found is not None:
        yield _step(found)


def find_nishio(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest Nishio forcing chain (one digit, dynamic; 7.5 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> step = next(find_nishio(b))
    >>> step.rating, step.eliminations
    (7.5, (Elimination(cell=2, digit=7),))
    """
    return _multiple_steps(board, True, True, 0, None, ceiling)


def find_multiple_forcing_chains(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest cell or region forcing chain (static; 8.0 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> print(next(find_multiple_forcing_chains(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Region Forcing Chains: wherever 7 goes in column 1, r1c3 cannot be 7, so r1c3 cannot be 7
    (the chains rest on 4 potentials)
    """
    return _multiple_steps(board, False, False, 0, None, ceiling)


def find_dynamic_forcing_chains(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest dynamic forcing chain (8.5 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> next(find_dynamic_forcing_chains(b)).rating
    8.5
    """
    return _multiple_steps(board, False, True, 0, None, ceiling)


def find_dynamic_forcing_chains_plus(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest dynamic forcing chain with pairs, locks and X-Wings (9.0 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"))
    >>> next(find_dynamic_forcing_chains_plus(b)).rating
    9.0
    """
    return _multiple_steps(board, False, True, 1, None, ceiling)


class ChainFinder(Protocol):
    """A finder of SE's chains: the easiest, or with a *ceiling* any rated at most that."""

    def __call__(self, board: Board, ceiling: float | None = None) -> Iterator[Step]:
        """Yield the chain step found on *board*, if any."""
        ...


def nested_finder(level: int, work: int | None) -> ChainFinder:
    """Return a finder of SE's nested forcing chains of *level*, bounded to *work* units a call.

    With *work* None the search is not bounded (tests; SE's own search takes minutes).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"))
    >>> next(nested_finder(2, NESTED_WORK)(b)).rating
    9.5
    """

    def find_nested_forcing_chains(board: Board, ceiling: float | None = None) -> Iterator[Step]:
        return _multiple_steps(board, False, True, level, work, ceiling)

    find_nested_forcing_chains.__doc__ = f"Yield SE's nested forcing chains of level {level}."
    return find_nested_forcing_chains
