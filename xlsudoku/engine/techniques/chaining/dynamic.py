"""SE's dynamic forcing chains (8.5 + length) and, with patterns, dynamic chains (+) (9.0).

Dynamic chains remove every potential found off from the candidates as they go, so cells and
houses run out of places; beside the cell and region chains they draw contradictions and
double chains (a potential that follows from a candidate and from its negation).

*Dynamic forcing chains (+)*: when the plain rules run dry, patterns on the candidates left
(SE: pointing and claiming, hidden pairs, naked pairs, X-Wings) add off potentials.  The
pattern finders are given by the technique registry (this package imports no other technique
family): :class:`PatternRule` turns one into an extra rule of the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.steps import Step, Technique
from xlsudoku.engine.techniques.chaining.implication import (
    DYNAMIC_CHAINS,
    ChainKind,
    Derived,
    ExtraRule,
    Implications,
)
from xlsudoku.engine.techniques.chaining.potential import Potential
from xlsudoku.engine.techniques.chaining.rating import nested_base
from xlsudoku.engine.techniques.chaining.search import chain_finder

Finder = Callable[[Board], Iterator[Step]]

_find = chain_finder(DYNAMIC_CHAINS)


def find_dynamic_forcing_chains(board: Board, ceiling: float | None = None) -> Iterator[Step]:
    """Yield SE's easiest dynamic forcing chain (8.5 + length).

    With a *ceiling*, the first chain found rated at most that (see
    :func:`~xlsudoku.engine.techniques.chaining.forcing.find_se_forcing_chains`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> next(find_dynamic_forcing_chains(b)).rating
    8.5
    """
    return _find(board, ceiling)


@dataclass(frozen=True, slots=True)
class PatternRule:
    """Pattern finders as an extra rule: their eliminations on the candidates left.

    Every step of the *finders* (taken together, in order) gives its eliminations, each resting
    on the candidates the assumption removed from the pattern's base: the first *base_houses*
    of the step's houses (the places of its digits there), or with 0 its cells (a naked
    subset's other digits).  A step whose base lost nothing is a pattern of the puzzle itself,
    left out.
    """

    finders: tuple[Finder, ...]
    base_houses: int

    def __call__(self, engine: Implications, left: Board) -> list[Derived]:
        """Return the eliminations of the patterns on *left*, with the potentials they rest on.

        >>> from xlsudoku.engine.grid import Grid
        >>> from xlsudoku.engine.techniques.chaining.potential import statement
        >>> from xlsudoku.engine.techniques.intersections import find_pointing
        >>> board = Board.from_grid(Grid.empty())
        >>> cands = list(board.cands)
        >>> for cell in (9, 10, 11, 18, 19, 20):  # 4 leaves rows 2 and 3 of box 1
        ...     cands[cell] &= ~(1 << 3)
        >>> left = Board(board.values, tuple(cands), board.geometry)
        >>> from xlsudoku.engine.techniques.chaining.links import Links
        >>> engine = Implications(Links.of(board), DYNAMIC_CHAINS)
        >>> off, parents, _ = PatternRule((find_pointing,), 1)(engine, left)[0]
        >>> statement(off, board.geometry), len(parents)  # resting on r2c1..r3c3 not 4
        ('r1c4 cannot be 4', 6)
        """
        links = engine.links
        n = links.size
        source = links.cands
        cands = left.cands
        out: list[Derived] = []
        for find in self.finders:
            for step in find(left):
                parents = self._parents(engine, source, cands, step)
                if parents:
                    out += [
                        ((e.cell * n + e.digit - 1) * 2, parents, None) for e in step.eliminations
                    ]
        return out

    def _parents(
        self, engine: Implications, source: tuple[int, ...], cands: tuple[int, ...], step: Step
    ) -> tuple[Potential, ...]:
        """Return the off potentials (the candidates removed) that a pattern rests on."""
        n = engine.links.size
        found: list[Potential] = []
        if not self.base_houses:
            for c in step.cells:
                gone = source[c] & ~cands[c]
                found += [(c * n + e) * 2 for e in range(n) if gone >> e & 1]
            return tuple(found)
        for h in (step.houses or ())[: self.base_houses]:
            for c in engine.links.houses[h]:
                gone = source[c] & ~cands[c]
                for d in step.digits:
                    if gone >> (d - 1) & 1:
                        found.append((c * n + d - 1) * 2)
        return tuple(dict.fromkeys(found))


def dynamic_plus(patterns: tuple[ExtraRule, ...]) -> ChainKind:
    """Return SE's dynamic forcing chains (+): the dynamic chains with *patterns* as extra rules.

    >>> dynamic_plus(()).base_score
    90
    """
    return ChainKind(
        "Dynamic Forcing Chains (+)",
        Technique.DYNAMIC_FORCING_CHAINS_PLUS,
        nested_base(1),
        dynamic=True,
        extra_rules=patterns,
    )
