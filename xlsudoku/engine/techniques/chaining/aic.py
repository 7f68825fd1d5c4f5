"""Alternating inference chains (AIC), X-Chains and XY-Chains: the human-style table's chains.

A *candidate* here is a digit in a cell, written ``(5)r1c2``.  Two kinds of link join them:

- a *strong* link (``=``): at least one of the two is true.  The two places of a digit in a
  house where it has exactly two, or the two candidates of a cell that has exactly two.
- a *weak* link (``-``): at most one of the two is true.  The same digit in two cells that see
  each other, or two digits in one cell.

An alternating chain starts and ends with a strong link: ``A = B - C = D``.  If A is false then
B is true, so C is false, so D is true: one of A and D is true, and any candidate weakly linked
to both (a cell seeing both ends, on the same digit) is false.  When the two ends are weakly
linked to each other the chain closes into a loop, and every weak link of the loop then holds
exactly one true candidate, so candidates weakly linked to both of its ends go too.  A chain
from A back to A itself proves A.

- X-Chain: one digit; strong links are houses with two places.
- XY-Chain: cells with two candidates; strong links inside cells, weak links between cells on
  the same digit; both ends on the same digit.
- AIC: any mix of the links above.

The searches are breadth-first from every start at once, so the shortest chains come first;
each set of eliminations is yielded once, and *max_links* bounds the length.  A node is a
candidate (see ``potential``) or, in grouped chains, a group of a digit's places numbered
past the candidates; almost locked sets, given by the ALS family, may join as nodes too.

"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.steps import Elimination, Step, Technique
from xlsudoku.engine.techniques.chaining.links import cells_by_digit, cells_of, peer_masks

Node = int  # a candidate (cell * size + digit - 1), or a group node numbered past them


def find_x_chain(board: Board, max_links: int = 13) -> Iterator[Step]:
    """Yield X-Chains (and X-loops) on each digit, shortest first, up to *max_links* links.

    >>> from xlsudoku.engine.techniques.wings import _board_from_masks
    >>> places = [(0, 0), (0, 4), (3, 4), (3, 8), (6, 8), (6, 1), (2, 1), (8, 0), (7, 3)]
    >>> print(next(find_x_chain(_board_from_masks({}, {1: places}))).explanation)
    ... # doctest: +NORMALIZE_WHITESPACE
    X-Chain on 1: r1c1=r1c5-r4c5=r4c9-r7c9=r7c2 (= at least one is true, - at most one); either
    r1c1 is 1 or r7c2 is 1, so r3c2 and r9c1 cannot be 1
    """
    n = board.geometry.size
    digit_cells = cells_by_digit(board)
    for digit in range(1, n + 1):
        graph = _graph(board, "x", digit, digit_cells)
        starts = sorted(graph.strong)
        ch = board.geometry.digit_char(digit)
        yield from _chain_steps(
            graph, starts, "x", Technique.X_CHAIN, max_links, f"X-Chain on {ch}"
        )


def find_xy_chain(board: Board, max_links: int = 21) -> Iterator[Step]:
    """Yield XY-Chains through two-candidate cells, shortest first (at most *max_links* links).

    >>> from xlsudoku.engine.techniques.wings import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 4: (2, 3), 40: (3, 4), 37: (4, 1)})
    >>> print(next(find_xy_chain(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    XY-Chain: (1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c2 (= at least one is true, - at most one);
    either r1c1 is 1 or r5c2 is 1, so r1c2, r2c2, r3c2, r4c1, r5c1 and r6c1 cannot be 1
    """
    graph = _graph(board, "xy")
    starts = sorted(graph.strong)
    yield from _chain_steps(graph, starts, "xy", Technique.XY_CHAIN, max_links, "XY-Chain")


def find_aic(board: Board, max_links: int = 21, grouped: bool = False) -> Iterator[Step]:
    """Yield alternating inference chains and nice loops, shortest first.

    With *grouped*, a digit's places where a box meets a line (two or three cells) also act as
    one node, e.g. ``(5)r1c23`` (HoDoKu's grouped nice loops and AICs).  The registry leaves it
    off: Sudoku Explainer has no grouped nodes, and with them puzzles it rates 8.x (forcing
    chains) come out as 7.x chains, which lowers the agreement with its ratings.

    >>> from xlsudoku.engine.techniques.wings import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 37: (1, 2)}, {2: [(0, 4), (4, 4), (7, 7)]})
    >>> print(next(find_aic(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Alternating Inference Chain: (1)r1c1=(2)r1c1-(2)r1c5=(2)r5c5-(2)r5c2=(1)r5c2 (= at least one
    is true, - at most one); either r1c1 is 1 or r5c2 is 1, so r1c2, r2c2, r3c2, r4c1, r5c1 and
    r6c1 cannot be 1
    """
    graph = _graph(board, "aic", grouped=grouped)
    starts = sorted(graph.strong)
    yield from _chain_steps(
        graph, starts, "aic", Technique.AIC, max_links, "Alternating Inference Chain"
    )


def find_grouped_aic(board: Board, max_links: int = 21) -> Iterator[Step]:
    """Yield alternating inference chains and nice loops with group nodes, shortest first.

    A digit's places where a box meets a line (two or three cells) act as one node, e.g.
    ``(5)r1c23`` (HoDoKu's grouped nice loops and AICs; see :func:`find_aic`).

    >>> from xlsudoku.engine.techniques.wings import _board_from_masks
    >>> places = [(6, 7), (2, 7), (2, 3), (2, 5), (0, 4), (6, 4), (0, 1), (4, 4)]
    >>> print(next(find_grouped_aic(_board_from_masks({}, {1: places}))).explanation)
    ... # doctest: +NORMALIZE_WHITESPACE
    Grouped AIC: (1)r1c5=(1)r3c46-(1)r3c8=(1)r7c8 (= at least one is true, - at most one); either
    r1c5 is 1 or r7c8 is 1, so r7c5 cannot be 1
    """
    graph = _graph(board, "aic", grouped=True)
    yield from _chain_steps(
        graph, sorted(graph.strong), "aic", Technique.GROUPED_AIC, max_links, "Grouped AIC"
    )


def find_locked_set_aic(
    board: Board, locked_sets: Sequence[LockedSet], max_links: int = 21
) -> Iterator[Step]:
    """Yield grouped AICs and nice loops whose nodes may also be the almost locked sets given.

    In an almost locked set, the places of any digit form a node, and any two digits are
    strongly linked: if one of them is not in the set, the others fill it (the ALS family's
    ``find_als_aic`` gives the sets).

    >>> from xlsudoku.engine.grid import Grid
    >>> list(find_locked_set_aic(Board.from_grid(Grid.empty()), ()))
    []
    """
    graph = _graph(board, "aic", grouped=True, locked_sets=locked_sets)
    yield from _chain_steps(
        graph, sorted(graph.strong), "aic", Technique.ALS_AIC, max_links, "AIC with ALS nodes"
    )


def _chain_steps(
    graph: _Graph, starts: list[Node], kind: str, technique: Technique, max_links: int, title: str
) -> Iterator[Step]:
    n = graph.size
    seen: set[frozenset[Elimination]] = set()

    cands = graph.board.cands

    def accept(a: Node, e: Node) -> bool:
        if kind == "xy":
            if cands[a // n] == cands[e // n]:
                return True  # perhaps a remote pair
            if a % n != e % n:
                return False
        return a == e or _weakly_linked(graph, a, e) or bool(_weak_both(graph, a, e))

    for path in _search(graph, starts, max_links, accept):
        for conclusion in _conclusions(graph, path, kind):
            key = frozenset(conclusion.eliminations)
            if key in seen:
                continue
            seen.add(key)
            yield _chain_step(graph, path, kind, technique, title, conclusion)


def _chain_step(
    graph: _Graph,
    path: list[Node],
    kind: str,
    technique: Technique,
    title: str,
    conclusion: _Conclusion,
) -> Step:
    board = graph.board
    notation = _notation(graph, path, kind)
    a, e = path[0], path[-1]
    if conclusion.kind == "true":
        why = f"if {_fact(graph, a, False)}, the chain makes it true, so {_fact(graph, a)}"
    elif conclusion.kind == "remote":
        why = (
            "all its cells hold the same two digits, so they alternate along the chain and a "
            "cell seeing two of them an odd number of steps apart holds neither"
        )
    elif conclusion.kind == "loop":
        why = (
            f"{_fact(graph, e)} rules out {_fact(graph, a)}, so the chain closes into a loop "
            "in which each weak link holds exactly one true candidate"
        )
    else:
        why = f"either {_fact(graph, a)} or {_fact(graph, e)}"
    cells = tuple(dict.fromkeys(c for node in path for c in cells_of(graph.unit(node)[1])))
    digits = tuple(sorted({graph.unit(node)[0] for node in path}))
    sets = []
    for i in range(0, len(path) - 1, 2):
        u, v = path[i], path[i + 1]
        als = graph.als_of.get((u, v))
        if als is not None and not _weakly_linked(graph, u, v):
            names = ", ".join(board.geometry.cell_name(c) for c in cells_of(als[0]))
            chars = ",".join(board.geometry.digit_char(d) for d in digits_of(als[1]))
            link = f"{_node_name(graph, u)}={_node_name(graph, v)}"
            sets.append(f"{link} in the ALS {names} {{{chars}}}")
            cells += tuple(c for c in cells_of(als[0]) if c not in cells)
    if sets:
        notation += " (almost locked sets: " + "; ".join(sets) + ")"
    return Step(
        technique,
        (),
        conclusion.eliminations,
        cells,
        (),
        digits,
        f"{title}: {notation} (= at least one is true, - at most one); {why}, so "
        f"{_elims_text(board, conclusion.eliminations)}",
    )


class LockedSet(Protocol):
    """An almost locked set as an AIC node: its *cells* (bit mask) and *digits* (mask).

    *places[d - 1]* is the mask of its cells holding digit d.
    """

    @property
    def cells(self) -> int:
        """Return the cells as a bit mask."""
        ...

    @property
    def digits(self) -> int:
        """Return the digits as a mask."""
        ...

    @property
    def places(self) -> tuple[int, ...]:
        """Return, per digit index, the cells holding it as a bit mask."""
        ...


@dataclass(slots=True)
class _Graph:
    """Candidates of one board and the links a kind of chain may use (only linked nodes)."""

    board: Board
    size: int
    strong: dict[Node, list[Node]]
    weak: dict[Node, list[Node]]
    digit_cells: list[int]  # bit mask of cells holding each digit as a candidate (index digit)
    groups: dict[Node, tuple[Digit, int]]  # group node -> (digit, bit mask of its cells)

    see_cache: dict[Node, int] = field(default_factory=dict)
    # strong links that hold only through an almost locked set: (u, v) -> (its cells, digits)
    als_of: dict[tuple[Node, Node], tuple[int, int]] = field(default_factory=dict)

    def unit(self, node: Node) -> tuple[Digit, int]:
        """Return the digit and the cells (bit mask) of a candidate or group node."""
        group = self.groups.get(node)
        if group is not None:
            return group
        cell = node // self.size
        return node - cell * self.size + 1, 1 << cell

    def sees_all(self, node: Node) -> int:
        """Return the cells (bit mask) that see every cell of *node*."""
        seen = self.see_cache.get(node)
        if seen is None:
            masks = peer_masks(self.board.geometry)
            if node in self.groups:
                seen = -1
                for c in cells_of(self.groups[node][1]):
                    seen &= masks[c]
            else:
                seen = masks[node // self.size]
            self.see_cache[node] = seen
        return seen


def _graph(
    board: Board,
    kind: str,
    only_digit: Digit = 0,
    digit_cells: list[int] | None = None,
    grouped: bool = False,
    locked_sets: Sequence[LockedSet] = (),
) -> _Graph:
    """Build the links for *kind* ``x`` (one digit), ``xy`` (two-candidate cells) or ``aic``.

    With *grouped*, the places of a digit where a box meets a row or column (two or three cells)
    also form one node, true when the digit is in one of them.  With *locked_sets*, so do the
    places of each digit in an almost locked set of 2 cells or more, and any two digits of such
    a set are strongly linked: without one of them it holds all the others.
    """
    geo = board.geometry
    n = geo.size
    cands = board.cands
    strong: dict[Node, list[Node]] = {}
    weak: dict[Node, list[Node]] = {}
    if digit_cells is None:
        digit_cells = cells_by_digit(board)
    digits = [only_digit] if only_digit else list(range(1, n + 1))
    if kind in ("x", "aic"):
        for d in digits:
            bit = 1 << (d - 1)
            for cells in geo.houses:
                places = [c for c in cells if cands[c] & bit]
                if len(places) == 2:
                    a, b = places[0] * n + d - 1, places[1] * n + d - 1
                    if b not in strong.setdefault(a, []):
                        strong[a].append(b)
                        strong.setdefault(b, []).append(a)
    if kind in ("xy", "aic"):
        for cell, m in enumerate(cands):
            if m.bit_count() == 2:
                low = m & -m
                a = cell * n + low.bit_length() - 1
                b = cell * n + (m ^ low).bit_length() - 1
                strong.setdefault(a, []).append(b)
                strong.setdefault(b, []).append(a)
    masks = peer_masks(geo)
    if kind == "xy":
        pair_cells = 0
        for cell, m in enumerate(cands):
            if m.bit_count() == 2:
                pair_cells |= 1 << cell
        for node in strong:
            cell, x = divmod(node, n)
            others = masks[cell] & digit_cells[x + 1] & pair_cells
            weak[node] = [p * n + x for p in cells_of(others)]
    elif kind == "x":
        d = only_digit
        for cell in cells_of(digit_cells[d]):
            others = masks[cell] & digit_cells[d]
            weak[cell * n + d - 1] = [p * n + d - 1 for p in cells_of(others)]
    else:
        for cell, m in enumerate(cands):
            for x in range(n):
                if m >> x & 1:
                    others = masks[cell] & digit_cells[x + 1]
                    links = [p * n + x for p in cells_of(others)]
                    links += [cell * n + e for e in range(n) if e != x and m >> e & 1]
                    weak[cell * n + x] = links
    graph = _Graph(board, n, strong, weak, digit_cells, {})
    if grouped or locked_sets:
        _add_groups(graph, locked_sets)
    return graph


def _add_groups(graph: _Graph, locked_sets: Sequence[LockedSet] = ()) -> None:
    """Add group nodes (and the nodes of *locked_sets*) with their links to a graph."""
    board = graph.board
    geo = board.geometry
    n = geo.size
    cands = board.cands
    base = geo.cell_count * n
    by_key: dict[tuple[Digit, int], Node] = {}
    boxes = range(2 * n, 3 * n)
    lines = range(2 * n)
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        for b in boxes:
            box_cells = set(geo.houses[b])
            for line in lines:
                cells = [c for c in geo.houses[line] if c in box_cells and cands[c] & bit]
                if len(cells) >= 2:
                    mask = sum(1 << c for c in cells)
                    node = base + len(by_key)
                    by_key[(d, mask)] = node
                    graph.groups[node] = (d, mask)

    def unit_node(d: Digit, cells: list[Cell]) -> Node | None:
        if len(cells) == 1:
            return cells[0] * n + d - 1
        return by_key.get((d, sum(1 << c for c in cells)))

    # strong links: a house whose places of a digit fall into two units
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        for h, house in enumerate(geo.houses[: 3 * n]):
            places = [c for c in house if cands[c] & bit]
            if len(places) < 3:
                continue  # two places: an ordinary strong link
            keys = [geo.box_of] if h < 2 * n else [geo.row_of, geo.col_of]
            for key in keys:
                parts: dict[int, list[Cell]] = {}
                for c in places:
                    parts.setdefault(key(c), []).append(c)
                if len(parts) != 2:
                    continue
                u, v = (unit_node(d, part) for part in parts.values())
                if u is None or v is None:
                    continue
                if v not in graph.strong.setdefault(u, []):
                    graph.strong[u].append(v)
                    graph.strong.setdefault(v, []).append(u)
    if locked_sets:
        _add_als_nodes(graph, by_key, locked_sets)
    # weak links: every cell of one unit sees every cell of the other
    groups_of_digit: dict[Digit, list[Node]] = {}
    for node, (d, _) in graph.groups.items():
        groups_of_digit.setdefault(d, []).append(node)
    for node, (d, mask) in graph.groups.items():
        seen = graph.sees_all(node)
        links = [c * n + d - 1 for c in cells_of(seen & graph.digit_cells[d])]
        for single in links:
            graph.weak.setdefault(single, []).append(node)
        for other in groups_of_digit[d]:
            omask = graph.groups[other][1]
            if other != node and not omask & mask and not omask & ~seen:
                links.append(other)
        graph.weak[node] = links


def _add_als_nodes(
    graph: _Graph, by_key: dict[tuple[Digit, int], Node], locked_sets: Sequence[LockedSet]
) -> None:
    """Add each ALS's digits as nodes (groups of their places), strongly linked in pairs."""
    n = graph.size
    base = graph.board.geometry.cell_count * n
    for als in locked_sets:
        if als.cells.bit_count() < 2:
            continue  # a cell with two candidates: already a strong link
        nodes = []
        for d in digits_of(als.digits):
            places = als.places[d - 1]
            if not places & (places - 1):
                node = (places.bit_length() - 1) * n + d - 1
            else:
                node = by_key.get((d, places), -1)
                if node < 0:
                    node = base + len(graph.groups)
                    while node in graph.groups:
                        node += 1
                    by_key[(d, places)] = node
                    graph.groups[node] = (d, places)
            nodes.append(node)
        for i, u in enumerate(nodes):
            for v in nodes[i + 1 :]:
                graph.als_of.setdefault((u, v), (als.cells, als.digits))
                graph.als_of.setdefault((v, u), (als.cells, als.digits))
                if v not in graph.strong.setdefault(u, []):
                    graph.strong[u].append(v)
                    graph.strong.setdefault(v, []).append(u)


def _weak_both(graph: _Graph, a: Node, e: Node) -> set[Node]:
    """Return the candidates of the board weakly linked to both *a* and *e* (not a or e)."""
    n = graph.size
    cands = graph.board.cands
    da, ma = graph.unit(a)
    de, me = graph.unit(e)
    found: set[Node] = set()
    if da == de:
        if ma != me:
            both = graph.sees_all(a) & graph.sees_all(e) & graph.digit_cells[da] & ~(ma | me)
            found.update(c * n + da - 1 for c in cells_of(both))
        return found
    if a in graph.groups or e in graph.groups:
        # a group and a candidate of another digit: the candidate's cell, if it sees the group
        if a in graph.groups and e in graph.groups:
            return found
        group, single = (a, e) if a in graph.groups else (e, a)
        dg, _ = graph.unit(group)
        cell = single // n
        if graph.sees_all(group) >> cell & 1 and cands[cell] >> (dg - 1) & 1:
            found.add(cell * n + dg - 1)
        return found
    ca, ce = a // n, e // n
    if ca == ce:
        m = cands[ca] & ~(1 << (da - 1)) & ~(1 << (de - 1))
        found.update(ca * n + d for d in range(n) if m >> d & 1)
        return found
    if ce in graph.board.geometry.peer_sets[ca]:
        if cands[ca] >> (de - 1) & 1:
            found.add(ca * n + de - 1)
        if cands[ce] >> (da - 1) & 1:
            found.add(ce * n + da - 1)
    return found


def _weakly_linked(graph: _Graph, a: Node, e: Node) -> bool:
    """True when *a* and *e* cannot both be true (same cell, or same digit seeing each other)."""
    da, ma = graph.unit(a)
    de, me = graph.unit(e)
    if da != de:
        return a not in graph.groups and e not in graph.groups and ma == me
    return not ma & me and not me & ~graph.sees_all(a)


def _search(
    graph: _Graph, starts: list[Node], max_links: int, accept: Callable[[Node, Node], bool]
) -> Iterator[list[Node]]:
    """Yield alternating chains ``start = . - . = ... = end``, fewest links first.

    A chain is the list of its candidates; links alternate strong (first) and weak, and the
    chain ends on a strong link, so it has an even number of candidates (at least four).
    """
    strong, weak = graph.strong, graph.weak
    # per start: parent maps of "on" and "off" candidates, and the current frontier
    on_parent: list[dict[Node, Node]] = [{} for _ in starts]
    off_parent: list[dict[Node, Node]] = [{a: -1} for a in starts]
    frontier: list[list[Node]] = [[a] for a in starts]
    links = 0
    while links < max_links and any(frontier):
        links += 1
        for i, start in enumerate(starts):
            ons = on_parent[i]
            new_on = []
            for u in frontier[i]:
                for v in strong.get(u, ()):
                    if v not in ons:
                        ons[v] = u
                        new_on.append(v)
            frontier[i] = new_on
            if links >= 3:
                for e in new_on:
                    if accept(start, e):
                        yield _path(start, e, ons, off_parent[i])
        links += 1
        if links >= max_links:
            break
        for i in range(len(starts)):
            offs = off_parent[i]
            new_off = []
            for u in frontier[i]:
                for v in weak.get(u, ()):
                    if v not in offs:
                        offs[v] = u
                        new_off.append(v)
            frontier[i] = new_off


def _path(start: Node, end: Node, ons: dict[Node, Node], offs: dict[Node, Node]) -> list[Node]:
    path = [end]
    node = end
    on = True
    while not (node == start and not on and offs[node] == -1):
        node = ons[node] if on else offs[node]
        on = not on
        path.append(node)
    path.reverse()
    return path


def _loop_targets(graph: _Graph, path: list[Node]) -> set[Node]:
    """Return the candidates weakly linked to both ends of some weak link of the closed loop.

    A strong link through an almost locked set then holds exactly one of its two digits, so
    the set keeps all its other digits: they go from the cells that see all their places in it.
    """
    found: set[Node] = set()
    closed = path + [path[0]]
    for i in range(1, len(closed) - 1, 2):
        found |= _weak_both(graph, closed[i], closed[i + 1])
    n = graph.size
    masks = peer_masks(graph.board.geometry)
    cands = graph.board.cands
    for i in range(0, len(path) - 1, 2):
        als = graph.als_of.get((path[i], path[i + 1]))
        if als is None:
            continue
        cells, digits = als
        linked = {graph.unit(path[i])[0], graph.unit(path[i + 1])[0]}
        for z in digits_of(digits):
            if z in linked:
                continue
            seen = -1
            for c in cells_of(cells):
                if cands[c] >> (z - 1) & 1:
                    seen &= masks[c]
            found.update(c * n + z - 1 for c in cells_of(seen & ~cells & graph.digit_cells[z]))
    return found - set(path)


@dataclass(frozen=True, slots=True)
class _Conclusion:
    eliminations: tuple[Elimination, ...]
    kind: str  # "pair", "loop" or "true"


def _conclusions(graph: _Graph, path: list[Node], kind: str) -> list[_Conclusion]:
    """Return what the chain proves: a loop's eliminations, then those of its two ends."""
    n = graph.size
    a, e = path[0], path[-1]
    found = []
    if a == e:
        if a in graph.groups:
            d, mask = graph.groups[a]
            cells = cells_of(graph.sees_all(a) & graph.digit_cells[d] & ~mask)
            elims = tuple(Elimination(c, d) for c in cells)
        else:
            cell, x = divmod(a, n)
            m = graph.board.cands[cell] & ~(1 << x)
            elims = tuple(Elimination(cell, y + 1) for y in range(n) if m >> y & 1)
        return [_Conclusion(elims, "true")] if elims else []
    if _weakly_linked(graph, a, e):
        targets = _loop_targets(graph, path)
        if targets:
            found.append(_Conclusion(_eliminations(n, targets), "loop"))
    targets = _weak_both(graph, a, e)
    if targets:
        found.append(_Conclusion(_eliminations(n, targets), "pair"))
    remote = _remote_pair_targets(graph, path) if kind == "xy" else set()
    if remote:
        found.append(_Conclusion(_eliminations(n, remote), "remote"))
    return found


def _remote_pair_targets(graph: _Graph, path: list[Node]) -> set[Node]:
    """Return what a remote pair proves: the chain's cells all hold the same two digits.

    Along such a chain the cells alternate between the two digits, so a cell that sees two chain
    cells an odd number of steps apart cannot hold either digit.
    """
    n = graph.size
    cands = graph.board.cands
    cells = [path[i] // n for i in range(0, len(path), 2)]
    if len(cells) < 4 or len(set(cells)) != len(cells):
        return set()
    pair = cands[cells[0]]
    if pair.bit_count() != 2 or any(cands[c] != pair for c in cells):
        return set()
    masks = peer_masks(graph.board.geometry)
    chain = sum(1 << c for c in cells)
    seen = 0
    for i, c in enumerate(cells):
        for other in cells[i + 3 :: 2]:
            seen |= masks[c] & masks[other]
    seen &= ~chain
    return {
        c * n + d for c in cells_of(seen) for d in range(n) if pair >> d & 1 and cands[c] >> d & 1
    }


def _eliminations(n: int, targets: set[Node]) -> tuple[Elimination, ...]:
    return tuple(Elimination(t // n, t % n + 1) for t in sorted(targets))


def _place_name(graph: _Graph, node: Node) -> str:
    """Return ``r1c2`` for a candidate, ``r1c23`` or ``r12c3`` for a group."""
    geo = graph.board.geometry
    cells = list(cells_of(graph.unit(node)[1]))
    if len(cells) == 1:
        return geo.cell_name(cells[0])
    rows = "".join(dict.fromkeys(str(geo.row_of(c) + 1) for c in cells))
    cols = "".join(dict.fromkeys(str(geo.col_of(c) + 1) for c in cells))
    return f"r{rows}c{cols}"


def _node_name(graph: _Graph, node: Node) -> str:
    d = graph.unit(node)[0]
    return f"({graph.board.geometry.digit_char(d)}){_place_name(graph, node)}"


def _fact(graph: _Graph, node: Node, true: bool = True) -> str:
    d = graph.unit(node)[0]
    ch = graph.board.geometry.digit_char(d)
    if node in graph.groups:
        return f"{ch} is {'' if true else 'not '}in {_place_name(graph, node)}"
    return f"{_place_name(graph, node)} is {'' if true else 'not '}{ch}"


def _elims_text(board: Board, elims: tuple[Elimination, ...]) -> str:
    """Return ``r1c2 and r3c4 cannot be 5; r6c6 cannot be 2``."""
    geo = board.geometry
    by_digit: dict[Digit, list[Cell]] = {}
    for e in elims:
        by_digit.setdefault(e.digit, []).append(e.cell)
    parts = []
    for d in sorted(by_digit):
        names = [geo.cell_name(c) for c in by_digit[d]]
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f"{joined} cannot be {geo.digit_char(d)}")
    return "; ".join(parts)


def _notation(graph: _Graph, path: list[Node], kind: str) -> str:
    """Return the chain in Eureka-like notation: ``(5)r1c2=(5)r1c8-(5)r4c8=(3)r4c8``."""
    geo = graph.board.geometry
    n = graph.size
    if kind == "x":
        text = geo.cell_name(path[0] // n)
        for i, node in enumerate(path[1:]):
            text += ("=" if i % 2 == 0 else "-") + geo.cell_name(node // n)
        return text
    if kind == "xy":
        parts = []
        for i in range(0, len(path), 2):
            cell = path[i] // n
            parts.append(
                f"({geo.digit_char(path[i] % n + 1)}={geo.digit_char(path[i + 1] % n + 1)})"
                f"{geo.cell_name(cell)}"
            )
        return "-".join(parts)
    text = _node_name(graph, path[0])
    for i, node in enumerate(path[1:]):
        text += ("=" if i % 2 == 0 else "-") + _node_name(graph, node)
    return text
