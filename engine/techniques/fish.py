"""Basic and finned fish: X-Wing, Swordfish, Jellyfish.

A *fish* of size k on a digit: k *base* rows in which the digit can only go in the same k
*cover* columns.  Each base row takes the digit once, in a different cover column, so the cover
columns are used up: the digit is removed from their other cells.  (The same with rows and
columns swapped.)

A *finned* fish has extra candidates, the *fins*, in the base rows outside the cover columns,
all in one box.  Either a fin holds the digit, or the fish does; cells of the cover columns that
see every fin (they lie in the fin's box) lose the digit in both cases.  Sashimi fish, where a
base row has only a fin besides one cover cell, are covered by the same rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine.board import Board
from engine.grid import Cell
from engine.steps import Elimination, Step, Technique

_BASIC = {2: Technique.X_WING, 3: Technique.SWORDFISH, 4: Technique.JELLYFISH}
_FINNED = {2: Technique.FINNED_X_WING, 3: Technique.FINNED_SWORDFISH, 4: Technique.FINNED_JELLYFISH}


def _plural(word: str, items: list[int]) -> str:
    """Return ``rows 2 and 7`` or ``columns 1, 4 and 8`` (1-based)."""
    names = [str(i + 1) for i in items]
    return f"{word}s {', '.join(names[:-1])} and {names[-1]}"


def find_fish(board: Board, size: int, finned: bool) -> Iterator[Step]:
    """Yield every basic (or finned) fish of *size* base lines, digit by digit, rows first.

    >>> from engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "1.......2" + "." * 9 + ".1......." + "." * 45 + ".....1..."))
    >>> [s.technique.value for s in find_fish(b, 2, False)]
    []
    """
    geo = board.geometry
    n = geo.size
    cands = board.cands
    technique = (_FINNED if finned else _BASIC)[size]
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for by_rows in (True, False):
            # line_cells[line][cross]: rows crossed by columns, or columns crossed by rows;
            # group: how many cross positions share a box (the width of a stack or band)
            line_cells = geo.houses[:n] if by_rows else geo.houses[n : 2 * n]
            group = geo.box_cols if by_rows else geo.box_rows
            positions = []
            for line in range(n):
                where = 0
                for cross in range(n):
                    if cands[line_cells[line][cross]] & bit:
                        where |= 1 << cross
                positions.append(where)
            upper = size + (group if finned else 0)
            lines = [i for i in range(n) if 2 <= positions[i].bit_count() <= upper]
            for base in itertools.combinations(lines, size):
                union = 0
                for line in base:
                    union |= positions[line]
                width = union.bit_count()
                if not finned:
                    if width == size:
                        yield from _basic_step(board, technique, digit, by_rows, base, union)
                    continue
                if width <= size or width > size + group:
                    continue
                yield from _finned_steps(
                    board, technique, digit, by_rows, base, union, positions, group
                )


def _cell_of(n: int, by_rows: bool, line: int, cross: int) -> Cell:
    """Return the cell where base *line* meets *cross* (a column, or a row when not by rows)."""
    return line * n + cross if by_rows else cross * n + line


def _basic_step(
    board: Board,
    technique: Technique,
    digit: int,
    by_rows: bool,
    base: tuple[int, ...],
    union: int,
) -> Iterator[Step]:
    """Yield the step of a basic fish, if it eliminates anything."""
    geo = board.geometry
    n = geo.size

    def cell_of(line: int, cross: int) -> Cell:
        return _cell_of(n, by_rows, line, cross)

    bit = 1 << (digit - 1)
    cover = [i for i in range(n) if union >> i & 1]
    hit = tuple(
        sorted(
            cell_of(line, cross)
            for cross in cover
            for line in range(n)
            if line not in base and board.cands[cell_of(line, cross)] & bit
        )
    )
    if not hit:
        return
    pattern = tuple(
        sorted(
            cell_of(line, cross)
            for line in base
            for cross in cover
            if board.cands[cell_of(line, cross)] & bit
        )
    )
    base_word, cover_word = ("row", "column") if by_rows else ("column", "row")
    base_houses = tuple(line if by_rows else n + line for line in base)
    cover_houses = tuple(n + c if by_rows else c for c in cover)
    ch = geo.digit_char(digit)
    yield Step(
        technique,
        (),
        tuple(Elimination(c, digit) for c in hit),
        pattern,
        base_houses + cover_houses,
        (digit,),
        f"{technique.value} on {ch}: in {_plural(base_word, list(base))}, {ch} can only go in "
        f"{_plural(cover_word, cover)}, so {ch} is removed from the rest of those "
        f"{cover_word}s: {', '.join(geo.cell_name(c) for c in hit)}",
    )


def _finned_steps(
    board: Board,
    technique: Technique,
    digit: int,
    by_rows: bool,
    base: tuple[int, ...],
    union: int,
    positions: list[int],
    group: int,
) -> Iterator[Step]:
    """Yield the steps of finned fish on these base lines (one per choice of fin box)."""
    geo = board.geometry
    n = geo.size

    def cell_of(line: int, cross: int) -> Cell:
        return _cell_of(n, by_rows, line, cross)

    bit = 1 << (digit - 1)
    size = len(base)
    for start in range(0, n, group):
        block = ((1 << group) - 1) << start
        in_block = union & block
        extra = union.bit_count() - size
        if in_block.bit_count() < extra:
            continue
        block_crosses = [i for i in range(start, start + group) if in_block >> i & 1]
        for fin_crosses in itertools.combinations(block_crosses, extra):
            fin_mask = 0
            for i in fin_crosses:
                fin_mask |= 1 << i
            cover_mask = union & ~fin_mask
            fins = [
                cell_of(line, cross)
                for line in base
                for cross in fin_crosses
                if positions[line] >> cross & 1
            ]
            boxes = {geo.box_of(c) for c in fins}
            if len(boxes) != 1:
                continue
            box_cells = geo.houses[2 * n + boxes.pop()]
            cover = [i for i in range(n) if cover_mask >> i & 1]
            hit = tuple(
                sorted(
                    c
                    for c in box_cells
                    if board.cands[c] & bit
                    and (geo.col_of(c) if by_rows else geo.row_of(c)) in cover
                    and (geo.row_of(c) if by_rows else geo.col_of(c)) not in base
                )
            )
            if not hit:
                continue
            pattern = tuple(
                sorted(
                    cell_of(line, cross)
                    for line in base
                    for cross in cover
                    if positions[line] >> cross & 1
                )
            )
            base_word, cover_word = ("row", "column") if by_rows else ("column", "row")
            base_houses = tuple(line if by_rows else n + line for line in base)
            cover_houses = tuple(n + c if by_rows else c for c in cover)
            ch = geo.digit_char(digit)
            fin_names = ", ".join(geo.cell_name(c) for c in sorted(fins))
            yield Step(
                technique,
                (),
                tuple(Elimination(c, digit) for c in hit),
                tuple(sorted(pattern + tuple(fins))),
                base_houses + cover_houses,
                (digit,),
                f"{technique.value} on {ch}: in {_plural(base_word, list(base))}, {ch} can only "
                f"go in {_plural(cover_word, cover)} or the fin{'s' if len(fins) > 1 else ''} "
                f"{fin_names}; either way {', '.join(geo.cell_name(c) for c in hit)} "
                f"(in {geo.house_name(2 * n + geo.box_of(fins[0]))}, with the fins) cannot be {ch}",
            )


def find_x_wing(board: Board) -> Iterator[Step]:
    """Yield every X-Wing (see :func:`find_fish`).

    >>> from engine.grid import Grid
    >>> list(find_x_wing(Board.from_grid(Grid.empty())))
    []
    """
    return find_fish(board, 2, finned=False)


def find_swordfish(board: Board) -> Iterator[Step]:
    """Yield every Swordfish (see :func:`find_fish`).

    >>> from engine.grid import Grid
    >>> list(find_swordfish(Board.from_grid(Grid.empty())))
    []
    """
    return find_fish(board, 3, finned=False)


def find_jellyfish(board: Board) -> Iterator[Step]:
    """Yield every Jellyfish (see :func:`find_fish`).

    >>> from engine.grid import Grid
    >>> list(find_jellyfish(Board.from_grid(Grid.empty())))
    []
    """
    return find_fish(board, 4, finned=False)


def find_finned_x_wing(board: Board) -> Iterator[Step]:
    """Yield every finned (or sashimi) X-Wing (see :func:`find_fish`).

    >>> from engine.grid import Grid
    >>> list(find_finned_x_wing(Board.from_grid(Grid.empty())))
    []
    """
    return find_fish(board, 2, finned=True)


def find_finned_swordfish(board: Board) -> Iterator[Step]:
    """Yield every finned (or sashimi) Swordfish (see :func:`find_fish`).

    >>> from engine.grid import Grid
    >>> list(find_finned_swordfish(Board.from_grid(Grid.empty())))
    []
    """
    return find_fish(board, 3, finned=True)


def find_finned_jellyfish(board: Board) -> Iterator[Step]:
    """Yield every finned (or sashimi) Jellyfish (see :func:`find_fish`).

    >>> from engine.grid import Grid
    >>> list(find_finned_jellyfish(Board.from_grid(Grid.empty())))
    []
    """
    return find_fish(board, 4, finned=True)
