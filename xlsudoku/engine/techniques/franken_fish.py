"""Franken and mutant fish: fish whose base and cover sets may be boxes.

A fish of size n on a digit has n *base* houses and n *cover* houses.  When the base houses
share no place of the digit, each holds it once: n placements, each inside some cover house,
and a cover house holds the digit at most once.  So the n placements fill the n covers: the
digit goes from every other cell of the covers.  Two refinements:

- *fins*: places of the base houses outside every cover (exo fins), and places shared by two
  base houses (endo fins).  If a fin holds the digit the fish may fail, so only cells that also
  see every fin lose it.
- *cannibalism*: a base place in two cover houses would fill two covers at once, leaving n - 1
  placements for n - 2 covers: it goes too (if it sees every fin).

Franken fish use rows and boxes as base and columns and boxes as cover (or columns/rows
swapped), with at least one box; mutant fish mix rows, columns and boxes freely.  Plain rows
against columns are the basic fish of ``fish.py``.  Searches are bounded by the size, the number
of fins (*max_fins*) and of endo fins (*max_endo*).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, House
from xlsudoku.engine.steps import Elimination, Step, Technique

_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale", 7: "Leviathan"}


@functools.cache
def _tables(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return each house as a bit mask over cells, and each cell's peers as a bit mask."""
    houses = tuple(sum(1 << c for c in cells) for cells in geo.houses[: 3 * geo.size])
    peers = tuple(sum(1 << p for p in geo.peers[c]) for c in range(geo.cell_count))
    return houses, peers


def _cells_of(mask: int) -> Iterator[Cell]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _sides(n: int, houses: tuple[House, ...]) -> set[int]:
    """Return the kinds of *houses*: 0 rows, 1 columns, 2 boxes."""
    return {h // n for h in houses}


def _is_mutant(n: int, base: tuple[House, ...], cover: tuple[House, ...]) -> bool:
    """Tell whether base and cover mix their houses beyond a basic or franken fish.

    A franken fish has rows (or columns) and boxes on one side, the other line and boxes on
    the other; anything else is mutant.
    """
    b, c = _sides(n, base), _sides(n, cover)
    return not (b <= {0, 2} and c <= {1, 2} or b <= {1, 2} and c <= {0, 2})


def find_general_fish(
    board: Board,
    size: int,
    mutant: bool,
    finned: bool,
    max_fins: int = 5,
    max_endo: int = 2,
) -> Iterator[Step]:
    """Yield franken (or, with *mutant*, mutant) fish of *size*, with fins when *finned*.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "..8...2..4.72.86.1..........5384792..........8...9...5.8.9.4.3..7..1..6.91.....57"))
    >>> next(find_general_fish(b, 2, False, True)).eliminations
    (Elimination(cell=18, digit=1),)
    """
    geo = board.geometry
    if not geo.standard:
        return
    n = geo.size
    house_bits, peer_bits = _tables(geo)
    houses_of = geo.houses_of
    if mutant:
        technique = Technique.FINNED_MUTANT_FISH if finned else Technique.MUTANT_FISH
        orientations = [(tuple(range(3 * n)), tuple(range(3 * n)))]
    else:
        technique = Technique.FINNED_FRANKEN_FISH if finned else Technique.FRANKEN_FISH
        rows, cols, boxes = range(n), range(n, 2 * n), range(2 * n, 3 * n)
        orientations = [(tuple(rows) + tuple(boxes), tuple(cols) + tuple(boxes))]
        orientations.append((tuple(cols) + tuple(boxes), tuple(rows) + tuple(boxes)))
    fins_allowed = max_fins if finned else 0
    endo_allowed = max_endo if finned else 0
    seen: set[frozenset[Elimination]] = set()
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        where = 0
        for c, m in enumerate(board.cands):
            if m & bit:
                where |= 1 << c
        if not where:
            continue
        places = [house_bits[h] & where for h in range(3 * n)]
        for base_types, cover_types in orientations:
            bases = [h for h in base_types if places[h]]
            cover_ok = set(cover_types)
            for base, base_mask, endo in _base_sets(bases, places, size, endo_allowed):
                seen_by_endo = where
                for f in _cells_of(endo):
                    seen_by_endo &= peer_bits[f]
                if not seen_by_endo:
                    continue
                for cover, fins in _cover_sets(
                    base,
                    base_mask,
                    places,
                    houses_of,
                    cover_ok,
                    size,
                    fins_allowed,
                    (peer_bits, seen_by_endo),
                ):
                    if _is_mutant(n, base, cover) != mutant:
                        continue
                    if not mutant and all(h < 2 * n for h in base + cover):
                        continue  # a basic fish
                    fins |= endo
                    if bool(fins) != finned:
                        continue
                    step = _step(
                        board,
                        technique,
                        digit,
                        size,
                        base,
                        cover,
                        base_mask,
                        fins,
                        places,
                        peer_bits,
                    )
                    if step is not None:
                        key = frozenset(step.eliminations)
                        if key not in seen:
                            seen.add(key)
                            yield step


def _base_sets(
    bases: list[House], places: list[int], size: int, max_endo: int
) -> Iterator[tuple[tuple[House, ...], int, int]]:
    """Yield ``(base houses, their places, endo fins)`` with at most *max_endo* endo fins."""

    def extend(
        start: int, chosen: tuple[House, ...], mask: int, endo: int
    ) -> Iterator[tuple[tuple[House, ...], int, int]]:
        if len(chosen) == size:
            yield chosen, mask, endo
            return
        for i in range(start, len(bases) - (size - len(chosen)) + 1):
            h = bases[i]
            shared = mask & places[h]
            wider_endo = endo | shared
            if wider_endo.bit_count() > max_endo:
                continue
            yield from extend(i + 1, chosen + (h,), mask | places[h], wider_endo)

    yield from extend(0, (), 0, 0)


def _cover_sets(
    base: tuple[House, ...],
    base_mask: int,
    places: list[int],
    houses_of: tuple[tuple[House, ...], ...],
    allowed: set[House],
    size: int,
    max_fins: int,
    sight: tuple[tuple[int, ...], int],
) -> Iterator[tuple[tuple[House, ...], int]]:
    """Yield ``(cover houses, exo fins)`` covering all base places but at most *max_fins*.

    Depth first: the lowest uncovered base place is covered by one of its houses, or left
    over as a fin, as long as some place of the digit still sees every fin (*sight*: the peer
    masks and the places that see the endo fins).
    """
    found: set[tuple[House, ...]] = set()
    peer_bits, seen = sight
    caps = sorted(
        ((places[h] & base_mask).bit_count() for h in allowed if h not in base), reverse=True
    )
    if base_mask.bit_count() - sum(caps[:size]) > max_fins:
        return  # even the widest covers leave too many fins
    widest = caps[0] if caps else 0

    usable = 0
    for h in allowed:
        if h not in base:
            usable |= 1 << h

    def extend(
        left: int, chosen: tuple[House, ...], skipped: int, seen: int, free: int
    ) -> Iterator[tuple[House, ...]]:
        # *free*: houses still allowed; a branch that passes over a house for a place bans it
        # below, so each set of covers (and fins) is reached once
        if not left or len(chosen) == size:
            if len(chosen) == size and left.bit_count() <= max_fins - skipped:
                for c in _cells_of(left):
                    seen &= peer_bits[c]
                if seen:
                    yield chosen
            return
        if left.bit_count() - (size - len(chosen)) * widest > max_fins - skipped:
            return
        low = left & -left
        cell = low.bit_length() - 1
        options = [h for h in houses_of[cell][:3] if free >> h & 1]
        for h in options:
            free &= ~(1 << h)
            yield from extend(left & ~places[h], chosen + (h,), skipped, seen, free)
        narrower = seen & peer_bits[cell]
        if skipped < max_fins and narrower:
            yield from extend(left ^ low, chosen, skipped + 1, narrower, free)

    for chosen in extend(base_mask, (), 0, seen, usable):
        cover = tuple(sorted(chosen))
        if cover in found:
            continue
        found.add(cover)
        covered = 0
        for h in cover:
            covered |= places[h]
        fins = base_mask & ~covered
        if fins.bit_count() <= max_fins:
            yield cover, fins


def _step(
    board: Board,
    technique: Technique,
    digit: int,
    size: int,
    base: tuple[House, ...],
    cover: tuple[House, ...],
    base_mask: int,
    fins: int,
    places: list[int],
    peer_bits: tuple[int, ...],
) -> Step | None:
    geo = board.geometry
    cover_mask = 0
    twice = 0
    for h in cover:
        twice |= cover_mask & places[h]
        cover_mask |= places[h]
    targets = (cover_mask & ~base_mask) | (twice & base_mask)
    targets &= ~fins
    for f in _cells_of(fins):
        targets &= peer_bits[f]
    if not targets:
        return None
    ch = geo.digit_char(digit)
    cells = sorted(_cells_of(targets))
    name = f"{technique.value.replace('Fish', _NAMES.get(size, 'Fish'))}"
    base_text = ", ".join(geo.house_name(h) for h in base)
    cover_text = ", ".join(geo.house_name(h) for h in cover)
    fin_text = ""
    if fins:
        fin_names = ", ".join(geo.cell_name(c) for c in _cells_of(fins))
        fin_text = f" or the fin{'s' if fins.bit_count() > 1 else ''} {fin_names}"
    targets_text = ", ".join(geo.cell_name(c) for c in cells)
    return Step(
        technique,
        (),
        tuple(Elimination(c, digit) for c in cells),
        tuple(sorted(_cells_of(base_mask | (cover_mask & targets)))),
        base + cover,
        (digit,),
        f"{name} on {ch}: {base_text} each hold {ch} once, and all their places lie in "
        f"{cover_text}{fin_text}; so the {len(cover)} cover houses hold {ch} only there"
        f"{' (unless a fin does)' if fins else ''}: {targets_text} cannot be {ch}",
    )


def _sizes(
    board: Board, max_size: int, mutant: bool, finned: bool, max_fins: int
) -> Iterator[Step]:
    for size in range(2, max_size + 1):
        yield from find_general_fish(board, size, mutant, finned, max_fins)


def find_franken_fish(board: Board, max_size: int = 3) -> Iterator[Step]:
    """Yield franken fish without fins, from X-Wing up to *max_size* base houses.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "9......35.6..7..89325.9.........1..3......894.5.8...1.....2.......5.....2.74.31.."))
    >>> print(next(find_franken_fish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Franken X-Wing on 1: row 1, row 2 each hold 1 once, and all their places lie in box 1, box 2; so
    the 2 cover houses hold 1 only there: r3c4 cannot be 1
    """
    return _sizes(board, max_size, False, False, 0)


def find_finned_franken_fish(board: Board, max_size: int = 3, max_fins: int = 3) -> Iterator[Step]:
    """Yield finned franken fish up to *max_size* base houses and *max_fins* fins.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "..8...2..4.72.86.1..........5384792..........8...9...5.8.9.4.3..7..1..6.91.....57"))
    >>> print(next(find_finned_franken_fish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Finned Franken X-Wing on 1: row 1, row 4 each hold 1 once, and all their places lie in box 1,
    box 2 or the fin r4c1; so the 2 cover houses hold 1 only there (unless a fin does): r3c1 cannot
    be 1
    """
    return _sizes(board, max_size, False, True, max_fins)


def find_mutant_fish(board: Board, max_size: int = 3) -> Iterator[Step]:
    """Yield mutant fish without fins, from X-Wing up to *max_size* base houses.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     ".916..2..7.6..4....248.1....45..2......5184.....4..325.....683....1..5.2..7..569."))
    >>> print(next(find_mutant_fish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Mutant X-Wing on 1: row 2, box 6 each hold 1 once, and all their places lie in row 4, box 3; so
    the 2 cover houses hold 1 only there: r4c1 cannot be 1
    """
    return _sizes(board, max_size, True, False, 0)


def find_finned_mutant_fish(board: Board, max_size: int = 3, max_fins: int = 3) -> Iterator[Step]:
    """Yield finned mutant fish up to *max_size* base houses and *max_fins* fins.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     ".....952.91..3......2.....8.4.3...6......1.393.9.6...4....462.5.9...5..6........."))
    >>> print(next(find_finned_mutant_fish(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Finned Mutant X-Wing on 1: row 1, box 4 each hold 1 once, and all their places lie in row 4, box
    2 or the fin r1c9; so the 2 cover houses hold 1 only there (unless a fin does): r4c9 cannot be 1
    """
    return _sizes(board, max_size, True, True, max_fins)
