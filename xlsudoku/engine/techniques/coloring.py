"""Colouring on the strong links of one digit: simple colouring and multi-colouring.

A strong link joins the two places of a digit in a house where it has exactly two.  The cells
joined by strong links form clusters; colouring each cluster with two colours, alternately
along the links, one colour holds the digit in all its cells and the other in none.

- Colour wrap: two cells of the same colour see each other, so that colour cannot hold the
  digit: it goes from every cell of that colour.
- Colour trap: a cell outside the cluster sees cells of both colours, so it cannot hold the
  digit (one of the two it sees does).

Each cluster gives at most one wrap step (per colour) and one trap step with all its traps.

Multi-colouring looks at two clusters of the same digit, A (colours a and a') and B (b, b'):

- type 1: cells of colour a see cells of both b and b'.  One of b, b' holds the digit, so a
  cannot: the digit goes from every cell of colour a.
- type 2: a cell of colour a sees a cell of colour b, so a and b are not both true: a' or b'
  holds the digit, and a cell that sees a cell of a' and a cell of b' cannot hold it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit
from xlsudoku.engine.steps import Elimination, Step, Technique


@functools.lru_cache(maxsize=32)
def _clusters(board: Board, digit: Digit) -> tuple[dict[Cell, int], ...]:
    """Return the clusters of *digit*'s strong links, each as ``cell -> colour (0 or 1)``.

    Simple and multi-colouring ask for the same board in turn, so the last results are kept
    (pure results of a frozen board; callers only read them).
    """
    bit = 1 << (digit - 1)
    cands = board.cands
    links: dict[Cell, list[Cell]] = {}
    for cells in board.geometry.houses:
        places = [c for c in cells if cands[c] & bit]
        if len(places) == 2:
            a, b = places
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    clusters = []
    done: set[Cell] = set()
    for start in sorted(links):
        if start in done:
            continue
        colour = {start: 0}
        todo = [start]
        while todo:
            cell = todo.pop()
            for other in links[cell]:
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    todo.append(other)
        done.update(colour)
        clusters.append(colour)
    return tuple(clusters)


def _names(board: Board, cells: list[Cell]) -> str:
    names = [board.geometry.cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def find_simple_coloring(board: Board) -> Iterator[Step]:
    """Yield colour wraps and colour traps, digit by digit and cluster by cluster.

    >>> from xlsudoku.engine.techniques.wings import _board_from_masks
    >>> places = [(0, 0), (0, 4), (2, 5), (7, 5), (7, 0), (7, 8), (4, 0), (4, 7), (2, 7)]
    >>> step = next(find_simple_coloring(_board_from_masks({}, {1: places})))
    >>> print(step.explanation)  # doctest: +NORMALIZE_WHITESPACE
    Simple Coloring on 1: the strong links of 1 join r1c1, r1c5, r3c6, r3c8, r5c1, r5c8 and r8c6;
    colouring them alternately gives r1c1, r3c6 and r5c8 against r1c5, r3c8, r5c1 and r8c6, and
    one of the two sides holds 1. r8c1 sees cells of both sides, so cannot be 1
    """
    geo = board.geometry
    for digit in range(1, geo.size + 1):
        bit = 1 << (digit - 1)
        ch = geo.digit_char(digit)
        for colour in _clusters(board, digit):
            if len(colour) < 3:
                continue  # a single strong link: its traps are locked candidates
            cells = sorted(colour)
            sides = ([c for c in cells if colour[c] == 0], [c for c in cells if colour[c] == 1])
            intro = (
                f"Simple Coloring on {ch}: the strong links of {ch} join {_names(board, cells)}; "
                f"colouring them alternately gives {_names(board, sides[0])} against "
                f"{_names(board, sides[1])}, and one of the two sides holds {ch}"
            )
            for side in (0, 1):
                clash = _clash(board, sides[side])
                if clash is None:
                    continue
                a, b = clash
                yield Step(
                    Technique.SIMPLE_COLORING,
                    (),
                    tuple(Elimination(c, digit) for c in sides[side]),
                    tuple(cells),
                    (),
                    (digit,),
                    f"{intro}. {geo.cell_name(a)} and {geo.cell_name(b)} are on the same side "
                    f"and see each other, so that side cannot hold {ch}: "
                    f"{_names(board, sides[side])} cannot be {ch}",
                )
            peer_sets = geo.peer_sets
            traps = [
                c
                for c in range(geo.cell_count)
                if board.cands[c] & bit
                and c not in colour
                and any(o in peer_sets[c] for o in sides[0])
                and any(o in peer_sets[c] for o in sides[1])
            ]
            if traps:
                yield Step(
                    Technique.SIMPLE_COLORING,
                    (),
                    tuple(Elimination(c, digit) for c in traps),
                    tuple(cells),
                    (),
                    (digit,),
                    f"{intro}. {_names(board, traps)} "
                    f"{'sees' if len(traps) == 1 else 'each see'} cells of both sides, so "
                    f"cannot be {ch}",
                )


def _clash(board: Board, side: list[Cell]) -> tuple[Cell, Cell] | None:
    """Return two cells of *side* that see each other, if any."""
    peer_sets = board.geometry.peer_sets
    for i, a in enumerate(side):
        for b in side[i + 1 :]:
            if b in peer_sets[a]:
                return a, b
    return None


def _sides(colour: dict[Cell, int]) -> tuple[list[Cell], list[Cell]]:
    cells = sorted(colour)
    return [c for c in cells if colour[c] == 0], [c for c in cells if colour[c] == 1]


def _holds(board: Board, cells: list[Cell], ch: str) -> str:
    """Return ``r1c2 holds 5`` or ``r1c2 and r3c4 hold 5``."""
    return f"{_names(board, cells)} {'holds' if len(cells) == 1 else 'hold'} {ch}"


def _sees_any(board: Board, cell: Cell, side: list[Cell]) -> bool:
    peers = board.geometry.peer_sets[cell]
    return any(o in peers for o in side)


def find_multi_coloring(board: Board) -> Iterator[Step]:
    """Yield multi-colouring steps (types 1 and 2), digit by digit, cluster pair by pair.

    Type 1 gathers, for one pair of clusters, the cells that see both free colours of some
    link between them (HoDoKu's Multi-Colors 1); type 2 removes a colour that sees both colours
    of the other cluster (HoDoKu's Multi-Colors 2).

    >>> from xlsudoku.engine.techniques.wings import _board_from_masks
    >>> places = [(0, 5), (0, 6), (1, 2), (2, 8), (3, 5), (5, 4), (6, 0), (6, 1), (6, 4), (7, 8)]
    >>> step = next(find_multi_coloring(_board_from_masks({}, {1: places})))
    >>> print(step.explanation)  # doctest: +NORMALIZE_WHITESPACE
    Multi-Coloring on 1 (type 1): one cluster of strong links colours r1c6, r3c9 and r6c5
    against r1c7, r4c6, r7c5 and r8c9, another r7c1 against r7c2; r7c5 sees r7c1, so r1c6, r3c9
    and r6c5 hold 1 or r7c2 holds 1; r7c5 sees r7c2, so r1c6, r3c9 and r6c5 hold 1 or r7c1
    holds 1. r7c5 sees both, so cannot be 1
    """
    geo = board.geometry
    for digit in range(1, geo.size + 1):
        clusters = [_sides(colour) for colour in _clusters(board, digit)]
        for i, first in enumerate(clusters):
            for second in clusters[i + 1 :]:
                yield from _multi_steps(board, digit, first, second)


def _multi_steps(
    board: Board,
    digit: Digit,
    first: tuple[list[Cell], list[Cell]],
    second: tuple[list[Cell], list[Cell]],
) -> Iterator[Step]:
    """Yield the multi-colouring steps of one pair of clusters of *digit*."""
    geo = board.geometry
    bit = 1 << (digit - 1)
    ch = geo.digit_char(digit)
    intro = (
        f"Multi-Coloring on {ch} ({{}}): one cluster of strong links colours "
        f"{_names(board, first[0])} against {_names(board, first[1])}, another "
        f"{_names(board, second[0])} against {_names(board, second[1])}"
    )
    cells = tuple(sorted(first[0] + first[1] + second[0] + second[1]))
    traps: dict[Cell, None] = {}
    reasons = []
    for sa in (0, 1):
        for sb in (0, 1):
            link = next(
                ((a, b) for a in first[sa] for b in second[sb] if b in geo.peer_sets[a]), None
            )
            if link is None:
                continue
            free_a, free_b = first[1 - sa], second[1 - sb]
            found = [
                c
                for c in range(geo.cell_count)
                if board.cands[c] & bit
                and c not in free_a
                and c not in free_b
                and _sees_any(board, c, free_a)
                and _sees_any(board, c, free_b)
            ]
            if found:
                traps.update(dict.fromkeys(found))
                a, b = link
                reasons.append(
                    f"{geo.cell_name(a)} sees {geo.cell_name(b)}, so {_holds(board, free_a, ch)} "
                    f"or {_holds(board, free_b, ch)}"
                )
    if traps:
        targets = sorted(traps)
        yield Step(
            Technique.MULTI_COLORING,
            (),
            tuple(Elimination(c, digit) for c in targets),
            cells,
            (),
            (digit,),
            f"{intro.format('type 1')}; {'; '.join(reasons)}. {_names(board, targets)} "
            f"{'sees' if len(targets) == 1 else 'each see'} both, so cannot be {ch}",
        )
    for one, other in ((first, second), (second, first)):
        for colour in one:
            if not (
                any(_sees_any(board, c, other[0]) for c in colour)
                and any(_sees_any(board, c, other[1]) for c in colour)
            ):
                continue
            yield Step(
                Technique.MULTI_COLORING,
                (),
                tuple(Elimination(c, digit) for c in colour),
                cells,
                (),
                (digit,),
                f"{intro.format('type 2')}; {_names(board, colour)} see cells of both colours "
                f"of the other cluster, one of which holds {ch}, so {_names(board, colour)} "
                f"cannot be {ch}",
            )
