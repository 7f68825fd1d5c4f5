"""SE's multiple forcing chains (8.0 + length): cell and region chains, static.

Whatever digit a cell of three or more candidates takes, or wherever a digit goes in a house,
the plain rules on the puzzle's candidates lead to the same potential: it holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.steps import Step
from xlsudoku.engine.techniques.chaining.implication import MULTIPLE_CHAINS
from xlsudoku.engine.techniques.chaining.search import chain_finder

_find = chain_finder(MULTIPLE_CHAINS)


def find_multiple_forcing_chains(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest cell or region forcing chain (static; 8.0 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`~xlsudoku.engine.techniques.chaining.forcing.find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> print(next(find_multiple_forcing_chains(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Region Forcing Chains: wherever 7 goes in column 1, r1c3 cannot be 7, so r1c3 cannot be 7
    (the chains rest on 4 potentials)
    """
    return _find(board, ceiling)
