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

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry
from xlsudoku.engine.steps import Elimination, Step, Technique

_BASIC = {2: Technique.X_WING, 3: Technique.SWORDFISH, 4: Technique.JELLYFISH}
_FINNED = {2: Technique.FINNED_X_WING, 3: Technique.FINNED_SWORDFISH, 4: Technique.FINNED_JELLYFISH}


def _plural(word: str, items: list[int]) -> str:
    """Return ``rows 2 and 7`` or ``columns 1, 4 and 8`` (1-based)."""
    names = [str(i + 1) for i in items]
    return f"{word}s {', '.join(names[:-1])} and {names[-1]}"


def _base_sets(
    lines: list[int], positions: list[int], size: int, outside: int
) -> list[tuple[tuple[int, ...], int]]:
    """Return ``(base lines, union of their positions)`` for sets of *size* lines.

    The union may hold at most ``size - 1`` cross lines outside the mask *inside* (0: at most
    *size* in all, a basic fish); partial sets that already break the rule are pruned.
    Lexicographic order.
    """
    found: list[tuple[tuple[int, ...], int]] = []
    limit = size if not outside else size - 1
    keep = outside if outside else -1
    masks = [positions[line] for line in lines]
    count = len(lines)

    def extend(start: int, union: int, chosen: tuple[int, ...]) -> None:
        last = len(chosen) + 1 == size
        for i in range(start, count - (size - len(chosen)) + 1):
            wider = union | masks[i]
            if (wider & keep).bit_count() <= limit:
                if last:
                    found.append((chosen + (lines[i],), wider))
                else:
                    extend(i + 1, wider, chosen + (lines[i],))

    extend(0, 0, ())
    return found


@dataclass(frozen=True, slots=True)
class _Orientation:
    """One digit's places seen from base lines (rows, or columns when not *by_rows*).

    *positions[line]* is a mask over cross lines, *crossing[cross]* the transposed mask over
    base lines; *cross_group* cross lines share a box side (a stack's width when by rows) and
    *line_group* base lines share a band.
    """

    by_rows: bool
    positions: list[int]
    crossing: list[int]
    cross_group: int
    line_group: int


@functools.lru_cache(maxsize=2)
def _places(board: Board) -> tuple[tuple[int, ...], ...]:
    """Return, per digit, the mask of its columns in each row (cached for the fish of a board)."""
    n = board.geometry.size
    in_rows = [[0] * n for _ in range(n + 1)]
    for cell, mask in enumerate(board.cands):
        row, col = divmod(cell, n)
        while mask:
            low = mask & -mask
            mask ^= low
            in_rows[low.bit_length()][row] |= 1 << col
    return tuple(map(tuple, in_rows))


def _bits(mask: int) -> list[int]:
    """Return the indices of the set bits of *mask*, ascending."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def find_fish(board: Board, size: int, finned: bool) -> Iterator[Step]:
    """Yield every basic (or finned) fish of *size* base lines, digit by digit, rows first.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "1.......2" + "." * 9 + ".1......." + "." * 45 + ".....1..."))
    >>> [s.technique.value for s in find_fish(b, 2, False)]
    []
    """
    geo = board.geometry
    if finned and geo.regions:
        return  # a fin's block is a box side, which an irregular box does not have
    in_rows = _places(board)
    for digit in range(1, geo.size + 1):
        yield from digit_fish(geo, size, finned, digit, in_rows[digit])


@functools.lru_cache(maxsize=8192)
def digit_fish(
    geo: Geometry, size: int, finned: bool, digit: int, in_rows: tuple[int, ...]
) -> tuple[Step, ...]:
    """Return the fish of *digit* (see :func:`find_fish`), whose columns in each row are *in_rows*.

    A fish rests on its digit's places alone, so a path's boards share them (cached) while the
    digit's places are unchanged.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> digit_fish(CLASSIC, 2, False, 1, (0b11, 0b11) + (0b111111111,) * 7)[0].eliminations[:2]
    (Elimination(cell=18, digit=1), Elimination(cell=19, digit=1))
    """
    n = geo.size
    technique = (_FINNED if finned else _BASIC)[size]
    in_cols = [0] * n
    for row, columns in enumerate(in_rows):
        for col in _bits(columns):
            in_cols[col] |= 1 << row
    rows = list(in_rows)
    found: list[Step] = []
    for by_rows in (True, False):
        if by_rows:
            o = _Orientation(True, rows, in_cols, geo.box_cols, geo.box_rows)
        else:
            o = _Orientation(False, in_cols, rows, geo.box_rows, geo.box_cols)
        if not finned:
            lines = [i for i in range(n) if 2 <= o.positions[i].bit_count() <= size]
            for base, union in _base_sets(lines, o.positions, size, 0):
                if union.bit_count() != size:
                    continue
                base_mask = sum(1 << line for line in base)
                hit = [
                    (line, cross)
                    for cross in _bits(union)
                    for line in _bits(o.crossing[cross] & ~base_mask)
                ]
                if hit:
                    found.append(_step(geo, technique, digit, o, base, union, (), hit))
            continue
        # a finned fish: the fins and at least one cover line lie in one block of cross
        # lines (a box side), so at most size - 1 cover lines lie outside it
        g = o.cross_group
        for start in range(0, n, g):
            block = ((1 << g) - 1) << start
            outside = ((1 << n) - 1) & ~block
            lines = [
                i
                for i in range(n)
                if o.positions[i].bit_count() >= 2 and (o.positions[i] & outside).bit_count() < size
            ]
            for base, union in _base_sets(lines, o.positions, size, outside):
                if union.bit_count() > size:
                    base_mask = sum(1 << line for line in base)
                    found += _finned_steps(geo, technique, digit, o, base, base_mask, union, block)
    return tuple(found)


def _finned_steps(
    geo: Geometry,
    technique: Technique,
    digit: int,
    o: _Orientation,
    base: tuple[int, ...],
    base_mask: int,
    union: int,
    block: int,
) -> Iterator[Step]:
    """Yield the steps of finned fish on these base lines with fins in *block*."""
    extra = union.bit_count() - len(base)
    in_block = union & block
    # the fins' cross lines lie in this block, and a cover line must too (for eliminations)
    if in_block.bit_count() <= extra:
        return
    n = geo.size
    lg = o.line_group
    for band_start in range(0, n, lg):
        band_lines = range(band_start, band_start + lg)
        # eliminations lie on this band's other lines, in the block's cover lines
        rest = 0
        for line in band_lines:
            if not base_mask >> line & 1:
                rest |= o.positions[line]
        if not rest & in_block:
            continue
        # fins lie on base lines of this band: the other base lines use only cover lines
        used_elsewhere = 0
        for line in base:
            if not band_start <= line < band_start + lg:
                used_elsewhere |= o.positions[line]
        allowed = in_block & ~used_elsewhere
        if allowed.bit_count() < extra:
            continue
        band_mask = ((1 << lg) - 1) << band_start
        for fin_crosses in itertools.combinations(_bits(allowed), extra):
            fin_mask = sum(1 << c for c in fin_crosses)
            cover = union & ~fin_mask
            hit = [
                (line, cross)
                for cross in _bits(cover & block)
                for line in _bits(o.crossing[cross] & band_mask & ~base_mask)
            ]
            if not hit:
                continue
            fins = [(line, c) for line in base for c in fin_crosses if o.positions[line] >> c & 1]
            yield _step(geo, technique, digit, o, base, cover, fins, hit)


def _step(
    geo: Geometry,
    technique: Technique,
    digit: int,
    o: _Orientation,
    base: tuple[int, ...],
    cover_mask: int,
    fins: list[tuple[int, int]] | tuple[()],
    hit: list[tuple[int, int]],
) -> Step:
    """Build the step of a fish: *fins* and *hit* are ``(base line, cross line)`` pairs."""
    n = geo.size

    def cell(line: int, cross: int) -> Cell:
        return line * n + cross if o.by_rows else cross * n + line

    cover = _bits(cover_mask)
    hit_cells = sorted(cell(line, cross) for line, cross in hit)
    fin_cells = sorted(cell(line, cross) for line, cross in fins)
    pattern = sorted(
        [cell(line, c) for line in base for c in cover if o.positions[line] >> c & 1] + fin_cells
    )
    base_word, cover_word = ("row", "column") if o.by_rows else ("column", "row")
    base_houses = tuple(line if o.by_rows else n + line for line in base)
    cover_houses = tuple(n + c if o.by_rows else c for c in cover)
    ch = geo.digit_char(digit)
    targets = ", ".join(geo.cell_name(c) for c in hit_cells)
    if fin_cells:
        fin_names = ", ".join(geo.cell_name(c) for c in fin_cells)
        box = geo.house_name(2 * n + geo.box_of(fin_cells[0]))
        text = (
            f"{technique.value} on {ch}: in {_plural(base_word, list(base))}, {ch} can only "
            f"go in {_plural(cover_word, cover)} or the fin{'s' if len(fin_cells) > 1 else ''} "
            f"{fin_names}; either way {targets} (in {box}, with the fins) cannot be {ch}"
        )
    else:
        text = (
            f"{technique.value} on {ch}: in {_plural(base_word, list(base))}, {ch} can only go "
            f"in {_plural(cover_word, cover)}, so {ch} is removed from the rest of those "
            f"{cover_word}s: {targets}"
        )
    return Step(
        technique,
        (),
        tuple(Elimination(c, digit) for c in hit_cells),
        tuple(pattern),
        base_houses + cover_houses,
        (digit,),
        text,
    )


def find_x_wing(board: Board) -> Iterator[Step]:
    """Yield every X-Wing (see :func:`find_fish`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "852....1.1.7.........182....49...132.1.329.8.328...95....645.........4.6.......71"))
    >>> print(next(find_x_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    X-Wing on 1: in columns 5 and 6, 1 can only go in rows 6 and 8, so 1 is removed from the rest of
    those rows: r8c3
    """
    return find_fish(board, 2, finned=False)


def find_swordfish(board: Board) -> Iterator[Step]:
    """Yield every Swordfish (see :func:`find_fish`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4..5..37.32......4.6.......8....2.3.21.84...........9..7..9.1..94.651.......7...."))
    >>> print(next(find_swordfish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Swordfish on 4: in columns 4, 6 and 8, 4 can only go in rows 3, 7 and 9, so 4 is removed from
    the rest of those rows: r9c7
    """
    return find_fish(board, 3, finned=False)


def find_jellyfish(board: Board) -> Iterator[Step]:
    """Yield every Jellyfish (see :func:`find_fish`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "....421362....1...63...7.......1.3....9..4..8.4..3...7.......2.712......4...7.6.."))
    >>> print(next(find_jellyfish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Jellyfish on 1: in columns 1, 4, 8 and 9, 1 can only go in rows 5, 6, 7 and 9, so 1 is removed
    from the rest of those rows: r6c3
    """
    return find_fish(board, 4, finned=False)


def find_finned_x_wing(board: Board) -> Iterator[Step]:
    """Yield every finned (or sashimi) X-Wing (see :func:`find_fish`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4..5..37.32......4.6.......8....2.3.21.84...........9..7..9.1..94.651.......7...."))
    >>> print(next(find_finned_x_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Finned X-Wing on 1: in columns 1 and 8, 1 can only go in rows 3 and 9 or the fin r2c8; either
    way r3c9 (in box 3, with the fins) cannot be 1
    """
    return find_fish(board, 2, finned=True)


def find_finned_swordfish(board: Board) -> Iterator[Step]:
    """Yield every finned (or sashimi) Swordfish (see :func:`find_fish`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4..5..37.32......4.6.......8....2.3.21.84...........9..7..9.1..94.651.......7...."))
    >>> print(next(find_finned_swordfish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Finned Swordfish on 3: in rows 5, 7 and 8, 3 can only go in columns 3, 6 and 9 or the fin r7c4;
    either way r9c6 (in box 8, with the fins) cannot be 3
    """
    return find_fish(board, 3, finned=True)


def find_finned_jellyfish(board: Board) -> Iterator[Step]:
    """Yield every finned (or sashimi) Jellyfish (see :func:`find_fish`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4..5..37.32......4.6.......8....2.3.21.84...........9..7..9.1..94.651.......7...."))
    >>> print(next(find_finned_jellyfish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Finned Jellyfish on 1: in rows 1, 2, 4 and 6, 1 can only go in columns 3, 4, 5 and 9 or the fin
    r2c8; either way r3c9 (in box 3, with the fins) cannot be 1
    """
    return find_fish(board, 4, finned=True)
