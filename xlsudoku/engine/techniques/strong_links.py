"""Strong-link chains of one digit: SukakuExplainer's Skyscrapers, Kites and "k strong links".

A *strong link* is a house where a digit has exactly two places: one of them holds it.  Chain
k such links, each one's second place sharing a house with the next one's first place (so at
most one of those two holds the digit): then the chain's first or last place holds it, and any
other cell that sees both loses the digit.  Two links are a Skyscraper (two parallel lines) or a
2-String Kite / turbot fish (a row and a column, or a box and a line).  When the first and the
last place share a house too, the chain closes into a loop (an X-Loop): every weak link of it
then holds the digit once, and each one's other cells that see both its ends lose the digit.

As SukakuExplainer does, a chain removes nothing from the houses of its links and of its weak
links (a loop: of its links); a box whose two places lie in one line is no link of its own (the
line is); and a weak link's house is a column, else a row, else a box holding both its ends.

SukakuExplainer rates k links from a base (2: 4.0, 3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6) plus 0.1
when the links are not all parallel lines, and 0.2 when they use a box, a row and a column;
each finder yields its instances easiest first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, House
from xlsudoku.engine.steps import Elimination, Step, Technique

BASE = {2: 4.0, 3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}

_Group = tuple[Cell, ...]  # one place, or the places of a digit in one box-line segment
_Link = tuple[House, _Group, _Group]  # house, first part, second part (one of them holds it)
_Found = tuple[float, int, tuple[_Link, ...], bool]  # rating, order found, links, loop


def _kind(board: Board, house: House) -> int:
    """Return 0 for a box, 1 for a row, 2 for a column (other houses: 3)."""
    n = board.geometry.size
    if house < n:
        return 1
    if house < 2 * n:
        return 2
    return 0 if house < 3 * n else 3


def links_rating(board: Board, houses: tuple[House, ...], grouped: bool = False) -> float:
    """Return SukakuExplainer's rating of a chain of strong links in *houses*.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.empty())
    >>> links_rating(b, (0, 4)), links_rating(b, (0, 13)), links_rating(b, (18, 0, 9))
    (4.0, 4.1, 5.6)
    >>> links_rating(b, (18, 0), grouped=True)
    4.3
    """
    kinds = {_kind(board, h) for h in houses}
    if grouped or 3 in kinds:
        extra = 0.3
    elif kinds in ({1}, {2}):
        extra = 0.0
    elif {0, 1, 2} <= kinds:
        extra = 0.2
    else:
        extra = 0.1
    return round(BASE[len(houses)] + extra, 1)


def _links(board: Board, digit: int) -> list[_Link]:
    """Return the strong links of *digit*, both ways round, grouped ones included.

    A line whose places lie in two boxes links its two box segments; a box whose places lie in
    one row and one column (not where they cross) links its row part and its column part.
    """
    geo = board.geometry
    cands = board.cands
    bit = 1 << (digit - 1)
    n = geo.size
    found: list[_Link] = []
    for house, cells in enumerate(geo.houses):
        places = [c for c in cells if cands[c] & bit]
        parts: list[tuple[_Group, _Group]] = []
        if len(places) == 2:
            if house < 2 * n or _common_house(board, tuple(places)) == house:
                parts.append(((places[0],), (places[1],)))
        elif len(places) > 2 and house < 2 * n:
            boxes: dict[int, list[Cell]] = {}
            for c in places:
                boxes.setdefault(geo.box_of(c), []).append(c)
            if len(boxes) == 2:
                first, second = boxes.values()
                parts.append((tuple(first), tuple(second)))
        elif len(places) > 2 and house < 3 * n:
            box_parts = _box_parts(board, house, places)
            if box_parts is not None:
                parts.append(box_parts)
        for a, b in parts:
            found.append((house, a, b))
            found.append((house, b, a))
    return found


def _box_parts(board: Board, box: House, places: list[Cell]) -> tuple[_Group, _Group] | None:
    """Return the two parts of a grouped strong link in *box*, or None.

    As SukakuExplainer reads a box, the places lie on the cross of a row and a column through a
    *heart* cell (the first such heart in the box's order): the link joins the column part to
    the row part, the heart going with a part of two or more places when it holds the digit,
    and with the other line when one part is a single place (the single place or the whole
    line through the heart holds the digit); when both parts are single places the heart holds
    the digit too and goes with both.  Failing a cross, four places or more in two rows (else
    two columns) of the box link those two rows.
    """
    geo = board.geometry
    cells = geo.houses[box]
    for heart in cells:
        row, col = geo.row_of(heart), geo.col_of(heart)
        if any(geo.row_of(c) != row and geo.col_of(c) != col for c in places):
            continue
        in_col = tuple(c for c in places if geo.col_of(c) == col and c != heart)
        in_row = tuple(c for c in places if geo.row_of(c) == row and c != heart)
        if not in_col or not in_row:
            return None
        if len(in_col) == len(in_row) == 1:  # the heart holds the digit too: it goes with both
            return (in_col[0], heart), (in_row[0], heart)
        if len(in_col) == 1:
            return in_col, tuple(sorted(in_row + (heart,)))
        if len(in_row) == 1:
            return in_row, tuple(sorted(in_col + (heart,)))
        beating = (heart,) if heart in places else ()
        return tuple(sorted(in_col + beating)), tuple(sorted(in_row + beating))
    if len(places) < 4:
        return None
    for line_of in (geo.row_of, geo.col_of):
        lines = sorted({line_of(c) for c in cells})
        for i, first in enumerate(lines):
            for second in lines[i + 1 :]:
                if all(line_of(c) in (first, second) for c in places):
                    one = tuple(c for c in places if line_of(c) == first)
                    other = tuple(c for c in places if line_of(c) == second)
                    return (one, other) if one and other else None
    return None


def _common_house(board: Board, cells: _Group) -> House | None:
    """Return the column, else the row, else the box that holds all *cells* (None if none)."""
    row, col, box = board.geometry.houses_of[cells[0]][:3]
    for house in (col, row, box):
        if all(house in board.geometry.houses_of[c] for c in cells[1:]):
            return house
    return None


def find_strong_links(board: Board, count: int) -> Iterator[Step]:
    """Yield chains of *count* strong links of one digit that remove candidates, easiest first.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     ".7..5...98...1.5....3..981....2..6..58.....72..2..7....958..7....7.4...84...9..3."))
    >>> steps = list(find_strong_links(b, 2))
    >>> print(steps[0].explanation)  # doctest: +NORMALIZE_WHITESPACE
    X-Loop of skyscraper on 8: column 5 (r4c5=r6c5), column 8 (r6c8=r4c8) are strong links of
    8 closing a loop (r4c8 shares a house with r4c5), so each link between them holds 8 once,
    and r4c6 cannot be 8
    >>> print(steps[1].explanation)  # doctest: +NORMALIZE_WHITESPACE
    Skyscraper on 9: column 1 (r4c1=r6c1), column 4 (r6c4=r5c4) are strong links of 9 joined
    end to start, so r4c1 or r5c4 holds 9, and r5c3 cannot be 9
    """
    geo = board.geometry
    cands = board.cands
    groups = _Groups(board)
    # the easiest chain of each set of eliminations (the first found among equals)
    best: dict[tuple[int, tuple[Cell, ...]], _Found] = {}
    for digit in range(1, geo.size + 1):
        bit = 1 << (digit - 1)
        links = _links(board, digit)
        if not links:
            continue
        holders = [c for c, m in enumerate(cands) if m & bit]
        search = _Search(board, groups, links, holders, digit, count, best)
        for i in range(len(links)):
            search.grow([i], [])
    # easiest first, then the most eliminations (SukakuExplainer's order), then as found
    ranked = sorted(best.items(), key=lambda item: (item[1][0], -len(item[0][1]), item[1][1]))
    for (digit, targets), (rating, _, chain, loop) in ranked:
        yield _step(board, list(chain), digit, list(targets), rating, loop)


class _Groups:
    """What the search asks of a group of places, computed once per group and board.

    ``lines(g)``: the column, row and box of the group's first cell that hold all of it, in
    that order (:func:`_common_house` takes the first); ``houses(g)``: every house that holds all
    of it; ``seers(g)``: the cells that see every cell of it.
    """

    __slots__ = ("_houses", "_lines", "_seers", "houses_of", "peer_sets")

    def __init__(self, board: Board) -> None:
        self.houses_of = board.geometry.houses_of
        self.peer_sets = board.geometry.peer_sets
        self._lines: dict[_Group, tuple[House, ...]] = {}
        self._houses: dict[_Group, frozenset[House]] = {}
        self._seers: dict[_Group, frozenset[Cell]] = {}

    def lines(self, group: _Group) -> tuple[House, ...]:
        found = self._lines.get(group)
        if found is None:
            row, col, box = self.houses_of[group[0]][:3]
            held = self.houses(group)
            found = self._lines[group] = tuple(h for h in (col, row, box) if h in held)
        return found

    def houses(self, group: _Group) -> frozenset[House]:
        found = self._houses.get(group)
        if found is None:
            found = frozenset(self.houses_of[group[0]]).intersection(
                *(self.houses_of[c] for c in group[1:])
            )
            self._houses[group] = found
        return found

    def seers(self, group: _Group) -> frozenset[Cell]:
        found = self._seers.get(group)
        if found is None:
            found = self.peer_sets[group[0]].intersection(*(self.peer_sets[c] for c in group[1:]))
            self._seers[group] = found
        return found

    def shared(self, first: _Group, second: _Group) -> House | None:
        """Return ``_common_house(first + second)``: its first line holding *second* too."""
        held = self.houses(second)
        return next((h for h in self.lines(first) if h in held), None)


def _follow(
    groups: _Groups, links: list[_Link]
) -> tuple[list[frozenset[Cell]], list[list[tuple[int, House]]]]:
    """Return each link's cells, and the links that may follow it with their weak link's house.

    Link *j* may follow link *i* when a line of *i*'s second part (:meth:`_Groups.lines`, in
    its order) holds *j*'s first part: that first line is the weak link's house
    (``_common_house`` of the two parts).  The followers keep the order of *links*.
    """
    held_by: dict[House, list[int]] = {}
    for j, (_, first, _) in enumerate(links):
        for house in groups.houses(first):
            held_by.setdefault(house, []).append(j)
    follow: list[list[tuple[int, House]]] = []
    for _, _, last in links:
        shared: dict[int, House] = {}
        for house in groups.lines(last):
            for j in held_by.get(house, ()):
                shared.setdefault(j, house)
        follow.append(sorted(shared.items()))
    return [frozenset(a + b) for _, a, b in links], follow


class _Search:
    """The chains of *count* links of one digit, each link joined to the next by a weak link.

    A chain grows from each link in turn by the links whose first part shares a house with its
    last part (``follow``: for each link, the links that may come next in table order, with the
    house of the weak link), skipping links whose house or cells the chain already uses; *best*
    keeps, for each digit and set of target cells, the lowest-rated chain found first.
    """

    __slots__ = ("best", "board", "cells", "count", "digit", "follow", "groups", "holders", "links")

    def __init__(
        self,
        board: Board,
        groups: _Groups,
        links: list[_Link],
        holders: list[Cell],
        digit: int,
        count: int,
        best: dict[tuple[int, tuple[Cell, ...]], _Found],
    ) -> None:
        self.board = board
        self.groups = groups
        self.links = links
        self.holders = holders
        self.digit = digit
        self.count = count
        self.best = best
        self.cells, self.follow = _follow(groups, links)

    def grow(
        self,
        chain: list[int],
        weak: list[House],
        used_cells: frozenset[Cell] | None = None,
        used_houses: frozenset[House] | None = None,
    ) -> None:
        """Extend the chain of links *chain* (indices), *weak* the houses of its weak links.

        *used_cells* and *used_houses* are the cells and houses of the chain's links (worked
        out from *chain* when None).
        """
        links, cells = self.links, self.cells
        if used_cells is None or used_houses is None:
            used_cells = frozenset().union(*(cells[i] for i in chain))
            used_houses = frozenset(links[i][0] for i in chain)
        if len(chain) == self.count:
            self.record(chain, weak, used_cells)
            return
        for j, shared in self.follow[chain[-1]]:
            house = links[j][0]
            if house in used_houses or not used_cells.isdisjoint(cells[j]):
                continue
            chain.append(j)
            weak.append(shared)
            self.grow(chain, weak, used_cells | cells[j], used_houses | {house})
            weak.pop()
            chain.pop()

    def record(self, indices: list[int], weak: list[House], used: frozenset[Cell]) -> None:
        """Record the targets of a full chain (a loop when its ends share a house) in *best*.

        *used* holds the cells of the chain's links.
        """
        chain = [self.links[i] for i in indices]
        groups = self.groups
        houses_of = groups.houses_of
        start, end = chain[0][1], chain[-1][2]
        link_houses = {h for h, _, _ in chain}
        loop = groups.shared(start, end) is not None
        if loop:
            ends = [(chain[i][2], chain[i + 1][1]) for i in range(len(chain) - 1)] + [(end, start)]
            barred = link_houses
            seen = frozenset().union(*(groups.seers(x) & groups.seers(y) for x, y in ends))
        else:
            barred = link_houses | set(weak)
            seen = groups.seers(start) & groups.seers(end)
        targets = [
            c
            for c in self.holders
            if c in seen and c not in used and barred.isdisjoint(houses_of[c])
        ]
        if not targets:
            return
        grouped = any(len(a) > 1 or len(b) > 1 for _, a, b in chain)
        rating = links_rating(self.board, tuple(h for h, _, _ in chain), grouped)
        best = self.best
        key = (self.digit, tuple(targets))
        if key not in best or rating < best[key][0]:
            best[key] = (rating, len(best), tuple(chain), loop)


def _step(
    board: Board, chain: list[_Link], digit: int, targets: list[Cell], rating: float, loop: bool
) -> Step:
    geo = board.geometry
    ch = geo.digit_char(digit)

    def name_of(group: _Group) -> str:
        return "/".join(geo.cell_name(c) for c in group)

    parts = [f"{geo.house_name(h)} ({name_of(a)}={name_of(b)})" for h, a, b in chain]
    count = len(chain)
    kinds = {_kind(board, h) for h, _, _ in chain}
    if kinds in ({1}, {2}):
        name = "Skyscraper" if count == 2 else f"{count} Skyscrapers"
    elif 0 not in kinds and count < 4:
        name = f"{count}-String Kite"
    else:
        name = f"{count} Strong links"
    if any(len(a) > 1 or len(b) > 1 for _, a, b in chain):
        name = "Grouped " + name
    start, end = chain[0][1], chain[-1][2]
    if count > 2:
        technique = Technique.X_CHAIN
    elif name.endswith("Skyscraper"):
        technique = Technique.SKYSCRAPER
    else:
        technique = Technique.TWO_STRING_KITE
    removed = ", ".join(geo.cell_name(c) for c in targets) + f" cannot be {ch}"
    if loop:
        why = (
            f"X-Loop of {name.lower()} on {ch}: " + ", ".join(parts) + f" are strong links of "
            f"{ch} closing a loop ({name_of(end)} shares a house with {name_of(start)}), so "
            f"each link between them holds {ch} once, and {removed}"
        )
    else:
        why = (
            f"{name} on {ch}: " + ", ".join(parts) + f" are strong links of {ch} joined end "
            f"to start, so {name_of(start)} or {name_of(end)} holds {ch}, and {removed}"
        )
    return Step(
        technique,
        (),
        tuple(Elimination(c, digit) for c in targets),
        tuple(c for _, a, b in chain for c in a + b),
        tuple(h for h, _, _ in chain),
        (digit,),
        why,
        rating,
    )


def finder(count: int) -> Callable[[Board], Iterator[Step]]:
    """Return the finder of chains of *count* strong links (a registry row's ``find``).

    >>> finder(3).__name__
    'find_3_strong_links'
    """

    def find(board: Board) -> Iterator[Step]:
        return find_strong_links(board, count)

    find.__name__ = f"find_{count}_strong_links"
    find.__doc__ = f"Yield chains of {count} strong links of one digit, easiest first."
    return find
