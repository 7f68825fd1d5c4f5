"""Strong-link chains of one digit: SukakuExplainer's Skyscrapers, Kites and "k strong links".

A *strong link* is a house where a digit has exactly two places: one of them holds it.  Chain
k such links, each one's second place seeing the next one's first place (so at most one of
those two holds the digit): then the chain's first or last place holds it, and any other cell
that sees both loses the digit.  Two links are a Skyscraper (two parallel lines) or a 2-String
Kite / turbot fish (a row and a column, or a box and a line).

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
            parts.append(((places[0],), (places[1],)))
        elif len(places) > 2 and house < 2 * n:
            boxes: dict[int, list[Cell]] = {}
            for c in places:
                boxes.setdefault(geo.box_of(c), []).append(c)
            if len(boxes) == 2:
                first, second = boxes.values()
                parts.append((tuple(first), tuple(second)))
        elif len(places) > 2 and house < 3 * n:
            rows = {geo.row_of(c) for c in places}
            cols = {geo.col_of(c) for c in places}
            for r in rows:
                for col in cols:
                    in_row = tuple(c for c in places if geo.row_of(c) == r)
                    in_col = tuple(c for c in places if geo.col_of(c) == col)
                    if (
                        len(in_row) + len(in_col) == len(places)
                        and not set(in_row) & set(in_col)
                        and len(in_row) + len(in_col) > 2
                    ):
                        parts.append((in_row, in_col))
        for a, b in parts:
            found.append((house, a, b))
            found.append((house, b, a))
    return found


def find_strong_links(board: Board, count: int) -> Iterator[Step]:
    """Yield chains of *count* strong links of one digit that remove candidates, easiest first.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     ".7..5...98...1.5....3..981....2..6..58.....72..2..7....958..7....7.4...84...9..3."))
    >>> print(next(find_strong_links(b, 2)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Skyscraper on 9: column 1 (r4c1=r6c1), column 4 (r6c4=r5c4) are strong links of 9 joined
    end to start, so r4c1 or r5c4 holds 9, and r5c3 cannot be 9
    """
    geo = board.geometry
    cands = board.cands
    found: list[tuple[float, int, Step]] = []
    seen: set[frozenset[tuple[int, int]]] = set()
    for digit in range(1, geo.size + 1):
        bit = 1 << (digit - 1)
        links = _links(board, digit)
        holders = [c for c, m in enumerate(cands) if m & bit]
        for link in links:
            _grow(board, [link], links, holders, digit, count, found, seen)
    found.sort(key=lambda item: (item[0], item[1]))
    for _, _, step in found:
        yield step


def _sees_all(board: Board, cell: Cell, group: _Group) -> bool:
    peer_sets = board.geometry.peer_sets
    return all(cell in peer_sets[c] for c in group)


def _grow(
    board: Board,
    chain: list[_Link],
    links: list[_Link],
    holders: list[Cell],
    digit: int,
    count: int,
    found: list[tuple[float, int, Step]],
    seen: set[frozenset[tuple[int, int]]],
) -> None:
    """Extend *chain* by links whose first part sees its last part; record full chains."""
    if len(chain) == count:
        start, end = chain[0][1], chain[-1][2]
        if all(_sees_all(board, c, start) for c in end):
            return  # a loop (SukakuExplainer's X-Loop) is not this pattern
        used = {c for _, a, b in chain for c in a + b}
        targets = [
            c
            for c in holders
            if c not in used and _sees_all(board, c, start) and _sees_all(board, c, end)
        ]
        if not targets:
            return
        key = frozenset((c, digit) for c in targets)
        if key in seen:
            return
        seen.add(key)
        grouped = any(len(a) > 1 or len(b) > 1 for _, a, b in chain)
        rating = links_rating(board, tuple(h for h, _, _ in chain), grouped)
        found.append((rating, len(found), _step(board, chain, digit, targets, rating)))
        return
    last = chain[-1][2]
    used_cells = {c for _, a, b in chain for c in a + b}
    used_houses = {h for h, _, _ in chain}
    for link in links:
        house, a, b = link
        if house in used_houses or used_cells.intersection(a) or used_cells.intersection(b):
            continue
        if all(_sees_all(board, c, last) for c in a):
            chain.append(link)
            _grow(board, chain, links, holders, digit, count, found, seen)
            chain.pop()


def _step(board: Board, chain: list[_Link], digit: int, targets: list[Cell], rating: float) -> Step:
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
    return Step(
        technique,
        (),
        tuple(Elimination(c, digit) for c in targets),
        tuple(c for _, a, b in chain for c in a + b),
        tuple(h for h, _, _ in chain),
        (digit,),
        f"{name} on {ch}: " + ", ".join(parts) + f" are strong links of {ch} joined end to "
        f"start, so {name_of(start)} or {name_of(end)} holds {ch}, and "
        + ", ".join(geo.cell_name(c) for c in targets)
        + f" cannot be {ch}",
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
