"""SE's Nishio forcing chains (7.5 + length): one digit at a time, dynamic.

Nishio follows the X rules only (a digit's places in houses, never a cell's other digits), but
dynamically: every potential found off is removed from the candidates on the way, so houses run
out of places.  An assumption that leads to a potential both on and off is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.steps import Step
from xlsudoku.engine.techniques.chaining.implication import NISHIO_CHAINS
from xlsudoku.engine.techniques.chaining.search import chain_finder

_find = chain_finder(NISHIO_CHAINS)


def find_nishio(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest Nishio forcing chain (one digit, dynamic; 7.5 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`~xlsudoku.engine.techniques.chaining.forcing.find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> step = next(find_nishio(b))
    >>> step.rating, step.eliminations
    (7.5, (Elimination(cell=2, digit=7),))
    """
    return _find(board, ceiling)
