"""Simple colouring: colour trap and colour wrap on the strong links of one digit.

A strong link joins the two places of a digit in a house where it has exactly two.  The cells
joined by strong links form clusters; colouring each cluster with two colours, alternately
along the links, one colour holds the digit in all its cells and the other in none.

- Colour wrap: two cells of the same colour see each other, so that colour cannot hold the
  digit: it goes from every cell of that colour.
- Colour trap: a cell outside the cluster sees cells of both colours, so it cannot hold the
  digit (one of the two it sees does).

Each cluster gives at most one wrap step (per colour) and one trap step with all its traps.
"""

from __future__ import annotations

from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit
from xlsudoku.engine.steps import Elimination, Step, Technique


def _clusters(board: Board, digit: Digit) -> list[dict[Cell, int]]:
    """Return the clusters of *digit*'s strong links, each as ``cell -> colour (0 or 1)``."""
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
    return clusters


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
