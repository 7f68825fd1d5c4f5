"""What a search reports, and how a caller counts and bounds its work."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search did: solutions found (capped at the limit) and branch points.

    Attributes:
        solutions: number of solutions found, at most the search limit.
        guesses: number of search nodes where propagation stalled and the solver branched.

    >>> SearchStats(solutions=1, guesses=0)
    SearchStats(solutions=1, guesses=0)
    """

    solutions: int
    guesses: int


# Told the steps a search takes (on 9x9 one per call and one per guess, after the call; on the
# other paths one per node, as it goes), so a caller can count its work; it may raise to
# abandon the search (a limit reached), and the exception passes through.
Work = Callable[[int], None]
