"""Rank statistics: how many rounds of "fill every single at once" a puzzle takes.

Rank 1 is the set of cells that a naked or hidden single fills straight from the givens, all
at once; rank 2 the cells that singles fill after rank 1 is in place; and so on.  When no single
is left, the round is *beyond singles*: with a ``next_step`` callable (the human-technique
solver, ``engine.logic.next_step``) its steps are applied until something can be placed and the
round records their techniques; without one (or when it finds nothing) the most constrained
cell is filled from the exact solution, so the count always goes on to the full grid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Grid, InvalidPuzzle
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Placement, Step

NextStep = Callable[[Board], Step | None]


@dataclass(frozen=True, slots=True)
class RankRound:
    """One round: the cells it filled, whether it went beyond singles, and how.

    Attributes:
        rank: 1-based round number.
        cells: Cells filled in this round, ascending.
        beyond_singles: True when no single was available at the start of the round.
        techniques: Names of the non-single techniques used (empty for a singles round, and
            for a round filled from the solution).
    """

    rank: int
    cells: tuple[Cell, ...]
    beyond_singles: bool = False
    techniques: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ranks:
    """The rounds of a puzzle, from the givens to the full grid.

    >>> r = Ranks((RankRound(1, (0, 1)), RankRound(2, (5,), True)), givens=78)
    >>> r.count, r.cells_per_rank, r.singles_only
    (2, (2, 1), False)
    >>> r.text()
    'rank 1: 2 cells; rank 2: 1 cell (beyond singles)'
    """

    rounds: tuple[RankRound, ...]
    givens: int

    @property
    def count(self) -> int:
        """Number of ranks (rounds)."""
        return len(self.rounds)

    @property
    def cells_per_rank(self) -> tuple[int, ...]:
        """Cells filled in each round, in order."""
        return tuple(len(r.cells) for r in self.rounds)

    @property
    def singles_only(self) -> bool:
        """True when singles alone fill the grid."""
        return not any(r.beyond_singles for r in self.rounds)

    def rank_of(self, cell_count: int) -> tuple[int, ...]:
        """Return each cell's rank (0 for a given), for colouring a grid by round.

        >>> Ranks((RankRound(1, (2,)),), givens=3).rank_of(4)
        (0, 0, 1, 0)
        """
        table = [0] * cell_count
        for r in self.rounds:
            for c in r.cells:
                table[c] = r.rank
        return tuple(table)

    def text(self) -> str:
        """Return ``rank 1: 12 cells; rank 2: 9 cells; ...`` (beyond-singles rounds marked).

        >>> Ranks((), givens=81).text()
        'no empty cells'
        """
        if not self.rounds:
            return "no empty cells"
        parts = []
        for r in self.rounds:
            part = f"rank {r.rank}: {len(r.cells)} cell{'s' if len(r.cells) != 1 else ''}"
            if r.beyond_singles:
                part += f" ({', '.join(r.techniques)})" if r.techniques else " (beyond singles)"
            parts.append(part)
        return "; ".join(parts)

    def to_dict(self) -> dict[str, object]:
        """Return the statistics as JSON-ready data.

        >>> Ranks((RankRound(1, (4,)),), givens=80).to_dict()["cells_per_rank"]
        [1]
        """
        return {
            "count": self.count,
            "cells_per_rank": list(self.cells_per_rank),
            "singles_only": self.singles_only,
            "givens": self.givens,
            "rounds": [
                {
                    "rank": r.rank,
                    "cells": list(r.cells),
                    "beyond_singles": r.beyond_singles,
                    "techniques": list(r.techniques),
                }
                for r in self.rounds
            ],
            "text": self.text(),
        }


def rank_statistics(
    grid: Grid, solution: Grid | None = None, next_step: NextStep | None = None
) -> Ranks:
    """Return the rank statistics of puzzle *grid*.

    Args:
        grid: The puzzle.
        solution: Its solution (solved with the exact solver when None).  A puzzle with several
            solutions is counted against this one.
        next_step: Optional ``next_step(board) -> Step | None`` giving a non-single step when
            singles run out (pass ``xlsudoku.engine.logic.next_step``).

    Raises:
        InvalidPuzzle: The puzzle has no solution, or *solution* disagrees with a given.

    >>> p = Grid.parse(
    ...     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    ... )
    >>> r = rank_statistics(p)
    >>> sum(r.cells_per_rank) == 81 - p.given_count, r.rounds[0].beyond_singles
    (True, False)
    >>> rank_statistics(Grid.parse("1" * 2 + "." * 79))
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.InvalidPuzzle: the puzzle has no solution
    """
    geo = grid.geometry
    if solution is None:
        solved = solve(grid)
        if solved is None:
            raise InvalidPuzzle("the puzzle has no solution")
        solution = solved
    if solution.geometry != geo or not solution.is_complete:
        raise InvalidPuzzle("the solution must be a complete grid of the puzzle's geometry")
    for cell, d in enumerate(grid.cells):
        if d and solution.cells[cell] != d:
            raise InvalidPuzzle(
                f"the solution has {geo.digit_char(solution.cells[cell])} at "
                f"{geo.cell_name(cell)} where the puzzle gives {geo.digit_char(d)}"
            )
    board = Board.from_grid(grid)
    rounds: list[RankRound] = []
    while not board.is_solved:
        rank = len(rounds) + 1
        found = _singles(board)
        beyond = not found
        techniques: tuple[str, ...] = ()
        if beyond:
            board, found, techniques = _beyond(board, next_step)
        if not found:
            empty = (c for c in range(geo.cell_count) if not board.values[c])
            found = [min(empty, key=_fewest(board))]
        # singles are forced, so they agree with every solution; the solution's digit keeps
        # the count going even if a caller passes a puzzle with several solutions
        cells = tuple(sorted(set(found)))
        board = board.place(Placement(c, solution.cells[c]) for c in cells if not board.values[c])
        rounds.append(RankRound(rank, cells, beyond, techniques))
    return Ranks(tuple(rounds), grid.given_count)


def _fewest(board: Board) -> Callable[[Cell], tuple[int, Cell]]:
    return lambda c: (board.cands[c].bit_count(), c)


def _beyond(board: Board, next_step: NextStep | None) -> tuple[Board, list[Cell], tuple[str, ...]]:
    """Apply non-single steps until a cell is placed or a single appears.

    Returns the board after the steps, the cells to place this round (the steps' placements,
    else the singles that appeared) and the techniques used.
    """
    if next_step is None:
        return board, [], ()
    used: list[str] = []
    for _ in range(board.geometry.cell_count * board.geometry.size):
        step = next_step(board)
        if step is None:
            break
        used.append(step.technique.value)
        board = board.apply(step)
        placed = [p.cell for p in step.placements] or _singles(board)
        if placed:
            return board, placed, tuple(dict.fromkeys(used))
    return board, [], tuple(dict.fromkeys(used))


def _singles(board: Board) -> list[Cell]:
    """Return the cells a naked or hidden single fills on *board*."""
    cands = board.cands
    found = {c for c, m in enumerate(cands) if m and not m & (m - 1)}
    for house in board.geometry.houses:
        once = twice = 0
        for c in house:
            m = cands[c]
            twice |= once & m
            once |= m
        hidden = once & ~twice
        if hidden:
            found.update(c for c in house if cands[c] & hidden)
    return sorted(found)
