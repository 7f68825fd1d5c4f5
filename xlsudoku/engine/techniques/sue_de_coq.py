"""Sue de Coq: two almost locked sets that share the cells where a box meets a line.

Take open cells I where a box meets a row or column (two or three cells) holding at least
|I| + 2 digits between them, open cells L of the line outside the box and B of the box outside
the line, such that L and B share no digit and the |I| + |L| + |B| cells hold exactly as many
digits in all.  No digit can then be placed twice among them (L and B share none, and I sees
both), so each of those digits is placed exactly once:

- a digit of L is in I or L, in the line: it goes from the rest of the line;
- a digit of B is in I or B, in the box: it goes from the rest of the box;
- a digit of I in neither L nor B is in I: it goes from the rest of the line and of the box.

*max_cells* bounds the size of L and of B.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, House
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.steps import Elimination, Step, Technique


def _union(board: Board, cells: tuple[Cell, ...]) -> int:
    mask = 0
    for c in cells:
        mask |= board.cands[c]
    return mask


def _subsets(board: Board, cells: list[Cell], most: int) -> list[tuple[tuple[Cell, ...], int]]:
    """Return every non-empty subset of *cells* of at most *most* cells with its digits."""
    return [
        (subset, _union(board, subset))
        for k in range(1, min(most, len(cells)) + 1)
        for subset in combinations(cells, k)
    ]


def _names(board: Board, cells: tuple[Cell, ...] | list[Cell]) -> str:
    names = [board.geometry.cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _digits(board: Board, mask: int) -> str:
    return "{" + ",".join(board.geometry.digit_char(d) for d in digits_of(mask)) + "}"


def find_sue_de_coq(board: Board, max_cells: int = 3) -> Iterator[Step]:
    """Yield every Sue de Coq, box by box and line by line.

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2, 3, 4), 1: (1, 2, 3, 4), 5: (1, 2), 19: (3, 4)})
    >>> print(next(find_sue_de_coq(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Sue de Coq: r1c1 and r1c2 (where box 1 meets row 1) hold {1,2,3,4}; with r1c6 {1,2} in row 1
    and r3c2 {3,4} in box 1, these 4 cells hold 4 digits, each placed once among them: {1,2}
    within row 1, {3,4} within box 1, so r1c3, r1c4, r1c5, r1c7, r1c8 and r1c9 cannot be 1;
    r1c3, r1c4, r1c5, r1c7, r1c8 and r1c9 cannot be 2; r1c3, r2c1, r2c2, r2c3, r3c1 and r3c3
    cannot be 3; r1c3, r2c1, r2c2, r2c3, r3c1 and r3c3 cannot be 4
    """
    geo = board.geometry
    if not geo.standard:
        return
    n = geo.size
    values = board.values
    seen: set[frozenset[Elimination]] = set()
    for box in range(2 * n, 3 * n):
        box_cells = set(geo.houses[box])
        for line in range(2 * n):
            meet = [c for c in geo.houses[line] if c in box_cells and not values[c]]
            if len(meet) < 2:
                continue
            line_rest = [c for c in geo.houses[line] if c not in box_cells and not values[c]]
            box_rest = [c for c in geo.houses[box] if c not in meet and not values[c]]
            line_sets = _subsets(board, line_rest, max_cells)
            box_sets = _subsets(board, box_rest, max_cells)
            for k in range(2, len(meet) + 1):
                for inner in combinations(meet, k):
                    v = _union(board, inner)
                    if v.bit_count() < k + 2:
                        continue
                    for lcells, lmask in line_sets:
                        if not lmask & v:
                            continue
                        for bcells, bmask in box_sets:
                            if bmask & lmask or not bmask & v:
                                continue
                            total = v | lmask | bmask
                            if total.bit_count() != k + len(lcells) + len(bcells):
                                continue
                            step = _step(board, line, box, inner, lcells, bcells, v, lmask, bmask)
                            if step is None:
                                continue
                            key = frozenset(step.eliminations)
                            if key not in seen:
                                seen.add(key)
                                yield step


def _step(
    board: Board,
    line: House,
    box: House,
    inner: tuple[Cell, ...],
    lcells: tuple[Cell, ...],
    bcells: tuple[Cell, ...],
    v: int,
    lmask: int,
    bmask: int,
) -> Step | None:
    geo = board.geometry
    cands = board.cands
    used = set(inner) | set(lcells) | set(bcells)
    in_line = lmask | (v & ~bmask)
    in_box = bmask | (v & ~lmask)
    elims: list[Elimination] = []
    for house, mask in ((line, in_line), (box, in_box)):
        for c in geo.houses[house]:
            if c in used or board.values[c]:
                continue
            for d in digits_of(cands[c] & mask):
                elims.append(Elimination(c, d))
    if not elims:
        return None
    elims = sorted(set(elims), key=lambda e: (e.digit, e.cell))
    by_digit: dict[int, list[Cell]] = {}
    for e in elims:
        by_digit.setdefault(e.digit, []).append(e.cell)
    result = "; ".join(
        f"{_names(board, cells)} cannot be {geo.digit_char(d)}" for d, cells in by_digit.items()
    )
    return Step(
        Technique.SUE_DE_COQ,
        (),
        tuple(elims),
        tuple(sorted(used)),
        (line, box),
        digits_of(v | lmask | bmask),
        f"Sue de Coq: {_names(board, inner)} (where {geo.house_name(box)} meets "
        f"{geo.house_name(line)}) hold {_digits(board, v)}; with {_names(board, lcells)} "
        f"{_digits(board, lmask)} in {geo.house_name(line)} and {_names(board, bcells)} "
        f"{_digits(board, bmask)} in {geo.house_name(box)}, these {len(used)} cells hold "
        f"{len(used)} digits, each placed once among them: {_digits(board, in_line)} within "
        f"{geo.house_name(line)}, {_digits(board, in_box)} within {geo.house_name(box)}, so "
        f"{result}",
    )
