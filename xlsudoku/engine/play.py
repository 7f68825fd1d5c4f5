"""A game in progress: a puzzle, its one solution, and the digits and pencil marks a player put.

The workbook's Play sheet reads the grid into a :class:`Game`; CHECK asks it for the wrong
entries and the cells left, HINT for the board of the player's own position
(:func:`player_board`), where a next step is looked for as on any board.
"""

from __future__ import annotations

from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry, Grid


@dataclass(frozen=True, slots=True)
class Game:
    """The puzzle, its solution and every cell as the player's grid holds it.

    Attributes:
        puzzle: The givens.
        solution: The puzzle's one solution.
        digits: Every cell's digit (0 = empty), the givens in place.
        restored: Given cells the player had changed, put back.

    >>> puzzle = Grid.parse("12.." "34.." "...." "....")
    >>> solution = Grid.parse("1243" "3421" "2134" "4312")
    >>> game = Game(puzzle, solution, (1, 2, 4, 0, 3, 4, 1, 0) + (0,) * 8, ())
    >>> game.entries, game.wrong, game.left
    ([2, 6], [6], 10)
    """

    puzzle: Grid
    solution: Grid
    digits: tuple[int, ...]
    restored: tuple[Cell, ...]

    @property
    def geometry(self) -> Geometry:
        """Return the puzzle's shape."""
        return self.puzzle.geometry

    @property
    def entries(self) -> list[Cell]:
        """Return the cells holding a digit of the player's (not a given)."""
        return [cell for cell, digit in enumerate(self.digits) if digit and not self.puzzle[cell]]

    @property
    def wrong(self) -> list[Cell]:
        """Return the entries that differ from the solution."""
        return [cell for cell in self.entries if self.digits[cell] != self.solution[cell]]

    @property
    def left(self) -> int:
        """Return how many cells are still empty."""
        return self.digits.count(0)


def player_board(game: Game, marks: list[int | None]) -> tuple[Board, list[Cell]]:
    """Return the board of the player's digits and pencil marks, and the marks that mislead.

    *marks* holds each cell's pencil marks as a bit set (digit d is bit d - 1), or None for a
    cell without marks.  An empty cell without marks has every candidate its peers allow; a
    cell with marks has those of them its peers allow.  The second value lists the cells whose
    marks leave out the digit of the solution.

    >>> puzzle = Grid.parse("12.." "34.." "...." "....")
    >>> solution = Grid.parse("1243" "3421" "2134" "4312")
    >>> game = Game(puzzle, solution, puzzle.cells, ())
    >>> marks = [None] * 16
    >>> marks[2] = 0b1000  # r1c3 marked 4 only (its digit)
    >>> marks[3] = 0b0100  # r1c4 marked 3 only (right too)
    >>> marks[6] = 0b0001  # r2c3 marked 1: its digit is 2
    >>> board, misleading = player_board(game, marks)
    >>> misleading, board.cands[2] == 0b1000
    ([6], True)
    """
    fresh = Board.from_grid(Grid(game.digits, game.geometry))
    cands = []
    missing = []
    for cell, (digit, basic, mark) in enumerate(zip(game.digits, fresh.cands, marks, strict=True)):
        if digit or mark is None:
            cands.append(basic)
            continue
        if not mark >> (game.solution[cell] - 1) & 1:
            missing.append(cell)
        cands.append(basic & mark)
    return Board.from_candidates(game.digits, tuple(cands), game.geometry), missing
