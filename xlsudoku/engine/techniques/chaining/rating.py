"""How Sudoku Explainer rates a chain, and a chain's conclusion as a step.

SE 1.2.1 rates a chain by its kind's *base* plus the *length increment* of its *complexity*,
the number of potentials its conclusion rests on.  Ratings here are in tenths (ints), so that
keys compare exactly; a step carries its rating in units.  A search keeps the easiest
conclusion: the lowest key ``(rating, complexity, SE's sort key, discovery order)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell
from xlsudoku.engine.steps import Elimination, Placement, Step, Technique

# Base ratings of SE 1.2.1's chain kinds (tenths).
CYCLE_XY_OR_Y = 65
FORCING_X_CHAIN = 66
XY_CHAIN = 70
NISHIO = 75
MULTIPLE = 80
DYNAMIC = 85


def length_increment(complexity: int) -> int:
    """Return SE's rating added (in tenths) for a chain resting on *complexity* potentials.

    The length is the complexity less two; +0.1 each time it passes a ceiling that grows by
    x3/2 and x4/3 in turn (4, 6, 8, 12, 16, 24, 32, ...).

    >>> [length_increment(c) for c in (6, 7, 9, 11, 15, 19, 27)]
    [0, 1, 2, 3, 4, 5, 6]
    """
    added = 0
    ceiling = 4
    length = complexity - 2
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


def nested_base(level: int) -> int:
    """Return the base rating (tenths) of dynamic chains nested to *level* (0 = plain dynamic).

    >>> [nested_base(n) for n in range(4)]
    [85, 90, 95, 100]
    """
    return DYNAMIC + 5 * level


def tenths(ceiling: float | None) -> int:
    """Return a rating ceiling in tenths (0, which no chain is within, for None).

    >>> tenths(9.5), tenths(None)
    (95, 0)
    """
    return 0 if ceiling is None else round(ceiling * 10)


Key = tuple[int, int, int, int]  # rating (tenths), complexity, SE's sort key, discovery order


@dataclass(frozen=True, slots=True)
class Conclusion:
    """A chain's conclusion: its key for SE's order and what it does."""

    key: Key
    technique: Technique
    placements: tuple[Placement, ...]
    eliminations: tuple[Elimination, ...]
    cells: tuple[Cell, ...]
    digits: tuple[int, ...]
    explanation: str

    def step(self) -> Step:
        """Return the step of this conclusion, rated by its key.

        >>> Conclusion((72, 8, 1, 1), Technique.FORCING_CHAIN, (), (Elimination(0, 5),), (0,),
        ...     (5,), "so r1c1 cannot be 5").step().rating
        7.2
        """
        return Step(
            self.technique,
            self.placements,
            self.eliminations,
            self.cells,
            (),
            self.digits,
            self.explanation,
            self.key[0] / 10,
        )


def max_complexity(base: int, sort_key: int, best: Key | None) -> int:
    """Return the largest complexity whose key could still beat *best* (a huge number if none).

    >>> max_complexity(70, 4, (71, 9, 4, 1)), max_complexity(70, 4, None) > 1000
    (8, True)
    """
    if best is None:
        return 1 << 30
    c = 2
    while (base + length_increment(c + 1), c + 1, sort_key) < best[:3]:
        c += 1
    return c if (base + length_increment(c), c, sort_key) < best[:3] else 1


class ChainFinder(Protocol):
    """A finder of SE's chains: the easiest, or with a *ceiling* any rated at most that."""

    def __call__(self, board: Board, ceiling: float | None = None) -> Iterator[Step]:
        """Yield the chain step found on *board*, if any."""
        ...
