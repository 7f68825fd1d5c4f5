"""Board: values plus candidate masks, the state of the human-style solver."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xlsudoku.engine.grid import CLASSIC, Cell, Digit, Geometry, Grid
from xlsudoku.engine.masks import Mask
from xlsudoku.engine.steps import Placement, Step


@dataclass(frozen=True, slots=True)
class Board:
    """Values (0 = empty) and candidate masks (0 for filled cells) on a geometry.

    *placed* is a bit mask of the cells the solver filled (bit ``cell``); the other values are
    givens.  Only avoidable rectangles need the difference: a given cannot be swapped.

    >>> b = Board.from_grid(Grid.parse("12" + "." * 79))
    >>> b.values[0], b.cands[0], b.cands[2] & 0b11, b.placed
    (1, 0, 0, 0)
    """

    values: tuple[Digit, ...]
    cands: tuple[Mask, ...]
    geometry: Geometry = CLASSIC
    placed: int = 0

    @classmethod
    def from_grid(cls, grid: Grid) -> Board:
        """Return the board of *grid* with every candidate its peers allow."""
        geo = grid.geometry
        values = grid.cells
        peers = geo.peers
        full = geo.all_digits
        cands = []
        for cell, d in enumerate(values):
            if d:
                cands.append(0)
                continue
            used = 0
            for p in peers[cell]:
                v = values[p]
                if v:
                    used |= 1 << (v - 1)
            cands.append(full & ~used)
        return cls(values, tuple(cands), geo)

    @classmethod
    def from_candidates(
        cls,
        values: tuple[Digit, ...],
        cands: tuple[Mask, ...],
        geometry: Geometry = CLASSIC,
        placed: int = 0,
    ) -> Board:
        """Return a board with explicit candidates (for technique tests and pencil marks).

        *placed* marks the filled cells that are not givens (bit ``cell``).
        """
        return cls(
            tuple(values),
            tuple(0 if v else c for v, c in zip(values, cands, strict=True)),
            geometry,
            placed,
        )

    @property
    def grid(self) -> Grid:
        """Return the filled values as a Grid."""
        return Grid(self.values, self.geometry)

    @property
    def is_solved(self) -> bool:
        """True when every cell has a value."""
        return all(self.values)

    def has_candidate(self, cell: Cell, digit: Digit) -> bool:
        """Return True when *digit* is a candidate of *cell*."""
        return bool(self.cands[cell] >> (digit - 1) & 1)

    def common_peers(self, cells: tuple[Cell, ...], digit: Digit) -> tuple[Cell, ...]:
        """Return the cells outside *cells* with candidate *digit* that see all of *cells*.

        >>> Board.from_grid(Grid.empty()).common_peers((0, 10), 1)
        (1, 2, 9, 11, 18, 19, 20)
        """
        peer_sets = self.geometry.peer_sets
        common = set(peer_sets[cells[0]])
        for c in cells[1:]:
            common &= peer_sets[c]
        bit = 1 << (digit - 1)
        return tuple(sorted(c for c in common if self.cands[c] & bit and c not in cells))

    def apply(self, step: Step) -> Board:
        """Return the board after *step*: placements fill cells and clear their peers.

        >>> from xlsudoku.engine.steps import Placement, Technique
        >>> b = Board.from_grid(Grid.empty())
        >>> s = Step(Technique.NAKED_SINGLE, (Placement(0, 3),), (), (0,), (), (3,), "")
        >>> b2 = b.apply(s)
        >>> b2.values[0], b2.has_candidate(1, 3), b2.has_candidate(1, 4), b2.placed
        (3, False, True, 1)
        """
        cands = list(self.cands)
        for e in step.eliminations:
            cands[e.cell] &= ~(1 << (e.digit - 1))
        if not step.placements:
            return Board(self.values, tuple(cands), self.geometry, self.placed)
        return self._placed(step.placements, cands)

    def place(self, placements: Iterable[Placement]) -> Board:
        """Return the board with *placements* filled; their peers lose the digit.

        >>> from xlsudoku.engine.steps import Placement
        >>> b = Board.from_grid(Grid.empty()).place([Placement(0, 3), Placement(80, 4)])
        >>> b.values[0], b.values[80], b.has_candidate(8, 3), b.has_candidate(8, 4)
        (3, 4, False, False)
        """
        return self._placed(placements, list(self.cands))

    def _placed(self, placements: Iterable[Placement], cands: list[Mask]) -> Board:
        """Return the board with *placements* filled over the candidates *cands* (changed)."""
        values = list(self.values)
        peers = self.geometry.peers
        placed = self.placed
        for p in placements:
            cell = p.cell
            values[cell] = p.digit
            cands[cell] = 0
            placed |= 1 << cell
            clear = ~(1 << (p.digit - 1))
            for q in peers[cell]:
                cands[q] &= clear
        return Board(tuple(values), tuple(cands), self.geometry, placed)
