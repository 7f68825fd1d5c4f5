"""Wings: XY-Wing, XYZ-Wing and W-Wing.

- XY-Wing: a pivot cell with candidates {x, y} sees two pincers {x, z} and {y, z}.  Whatever
  the pivot holds, one pincer is z, so a cell that sees both pincers cannot be z.
- XYZ-Wing: the pivot holds {x, y, z} and sees pincers {x, z} and {y, z}; one of the three
  cells is z, so a cell that sees all three cannot be z.
- W-Wing: two cells with the same two candidates {x, y} that do not see each other, and a
  strong link on x (a house where x has exactly two places) whose ends see one cell each.  One
  of the two cells is then y, so a cell that sees both cannot be y.
"""

from __future__ import annotations

from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.steps import Elimination, Step, Technique


def _names(board: Board, cells: tuple[Cell, ...]) -> str:
    """Return ``r1c2, r3c4 and r5c6``."""
    names = [board.geometry.cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _set(board: Board, mask: int) -> str:
    """Return the candidates of *mask* as ``{1,5}``."""
    return "{" + ",".join(board.geometry.digit_char(d) for d in digits_of(mask)) + "}"


def _targets(board: Board, digit: Digit, cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """Return the cells outside *cells* with candidate *digit* that see every cell of *cells*."""
    return board.common_peers(cells, digit)


def find_xy_wing(board: Board) -> Iterator[Step]:
    """Yield every XY-Wing (pivot {x,y}, pincers {x,z} and {y,z}).

    >>> b = _board_from_masks({0: (1, 2), 1: (1, 3), 9: (2, 3)})
    >>> s = next(find_xy_wing(b))
    >>> print(s.explanation)  # doctest: +NORMALIZE_WHITESPACE
    XY-Wing: pivot r1c1 {1,2} sees r1c2 {1,3} and r2c1 {2,3}; whichever digit r1c1 holds, r1c2
    or r2c1 is 3, so r1c3, r2c2, r2c3, r3c1, r3c2 and r3c3 cannot be 3
    """
    geo = board.geometry
    cands = board.cands
    pairs = [c for c in range(geo.cell_count) if cands[c].bit_count() == 2]
    for pivot in pairs:
        pm = cands[pivot]
        wings = [
            c
            for c in geo.peers[pivot]
            if cands[c].bit_count() == 2 and (cands[c] & pm).bit_count() == 1
        ]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cands[a], cands[b]
                z = ma & mb & ~pm
                if not z or ma == mb or (ma | mb) & pm != pm:
                    continue
                digit = z.bit_length()
                targets = _targets(board, digit, (a, b))
                if not targets:
                    continue
                ch = geo.digit_char(digit)
                yield Step(
                    Technique.XY_WING,
                    (),
                    tuple(Elimination(c, digit) for c in targets),
                    (pivot, a, b),
                    (),
                    (*digits_of(pm), digit),
                    f"XY-Wing: pivot {geo.cell_name(pivot)} {_set(board, pm)} sees "
                    f"{geo.cell_name(a)} {_set(board, ma)} and "
                    f"{geo.cell_name(b)} {_set(board, mb)}; whichever digit "
                    f"{geo.cell_name(pivot)} holds, {geo.cell_name(a)} or "
                    f"{geo.cell_name(b)} is {ch}, so {_names(board, targets)} cannot be {ch}",
                )


def find_xyz_wing(board: Board) -> Iterator[Step]:
    """Yield every XYZ-Wing (pivot {x,y,z}, pincers {x,z} and {y,z}).

    >>> b = _board_from_masks({0: (1, 2, 3), 1: (1, 3), 9: (2, 3)})
    >>> print(next(find_xyz_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    XYZ-Wing: pivot r1c1 {1,2,3} sees r1c2 {1,3} and r2c1 {2,3}; one of the three is 3, so r1c3,
    r2c2, r2c3, r3c1, r3c2 and r3c3 cannot be 3
    """
    geo = board.geometry
    cands = board.cands
    for pivot in range(geo.cell_count):
        pm = cands[pivot]
        if pm.bit_count() != 3:
            continue
        wings = [
            c for c in geo.peers[pivot] if cands[c].bit_count() == 2 and cands[c] & pm == cands[c]
        ]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cands[a], cands[b]
                if ma == mb:
                    continue
                digit = (ma & mb).bit_length()
                targets = _targets(board, digit, (pivot, a, b))
                if not targets:
                    continue
                ch = geo.digit_char(digit)
                yield Step(
                    Technique.XYZ_WING,
                    (),
                    tuple(Elimination(c, digit) for c in targets),
                    (pivot, a, b),
                    (),
                    digits_of(pm),
                    f"XYZ-Wing: pivot {geo.cell_name(pivot)} {_set(board, pm)} sees "
                    f"{geo.cell_name(a)} {_set(board, ma)} and "
                    f"{geo.cell_name(b)} {_set(board, mb)}; one of the three is {ch}, so "
                    f"{_names(board, targets)} cannot be {ch}",
                )


def find_w_wing(board: Board) -> Iterator[Step]:
    """Yield every W-Wing: two equal bivalue cells bridged by a strong link.

    >>> b = _board_from_masks({0: (1, 2), 40: (1, 2)}, {1: [(1, 1), (1, 4), (6, 6)]})
    >>> print(next(find_w_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    W-Wing: r1c1 and r5c5 both hold {1,2}; row 2 holds 1 only in r2c2 and r2c5, which see r1c1
    and r5c5, so one of r1c1 and r5c5 is 2 and r1c5 and r5c1 cannot be 2
    """
    geo = board.geometry
    cands = board.cands
    n = geo.size
    peer_sets = geo.peer_sets
    pairs = [c for c in range(geo.cell_count) if cands[c].bit_count() == 2]
    positions: dict[Digit, list[tuple[int, Cell, Cell]]] = {}
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        links = []
        for h, cells in enumerate(geo.houses):
            places = [c for c in cells if cands[c] & bit]
            if len(places) == 2:
                links.append((h, places[0], places[1]))
        positions[digit] = links
    for i, a in enumerate(pairs):
        m = cands[a]
        for b in pairs[i + 1 :]:
            if cands[b] != m or b in peer_sets[a]:
                continue
            for x in digits_of(m):
                y = (m & ~(1 << (x - 1))).bit_length()
                targets = _targets(board, y, (a, b))
                if not targets:
                    continue
                for h, p, q in positions[x]:
                    if {p, q} & {a, b}:
                        continue
                    if p in peer_sets[a] and q in peer_sets[b]:
                        near_a, near_b = p, q
                    elif q in peer_sets[a] and p in peer_sets[b]:
                        near_a, near_b = q, p
                    else:
                        continue
                    ch_x, ch_y = geo.digit_char(x), geo.digit_char(y)
                    yield Step(
                        Technique.W_WING,
                        (),
                        tuple(Elimination(c, y) for c in targets),
                        (a, b, near_a, near_b),
                        (h,),
                        (x, y),
                        f"W-Wing: {geo.cell_name(a)} and {geo.cell_name(b)} both hold "
                        f"{_set(board, m)}; {geo.house_name(h)} holds {ch_x} only in "
                        f"{geo.cell_name(min(p, q))} and {geo.cell_name(max(p, q))}, which see "
                        f"{geo.cell_name(a)} and {geo.cell_name(b)}, so one of {geo.cell_name(a)} "
                        f"and {geo.cell_name(b)} is {ch_y} and {_names(board, targets)} "
                        f"cannot be {ch_y}",
                    )
                    break


def _board_from_masks(
    masks: dict[Cell, tuple[Digit, ...]], places: dict[Digit, list[tuple[int, int]]] | None = None
) -> Board:
    """Return an empty-valued 9x9 board for examples: *masks* fixes some cells' candidates.

    Every other cell holds all digits, except that a digit in *places* is a candidate only at
    those (row, column) places (0-based) and in the cells of *masks* that list it.
    """
    from xlsudoku.engine.grid import CLASSIC
    from xlsudoku.engine.masks import mask_of

    cands = [CLASSIC.all_digits] * 81
    for digit, cells in (places or {}).items():
        keep = {CLASSIC.cell_at(r, c) for r, c in cells}
        cands = [m if i in keep else m & ~(1 << (digit - 1)) for i, m in enumerate(cands)]
    for cell, digits in masks.items():
        cands[cell] = mask_of(digits)
    return Board.from_candidates((0,) * 81, tuple(cands))
