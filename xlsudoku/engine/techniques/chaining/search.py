"""The search of SE's multiple chains: every assumption, and what its outcomes have in common.

For one :class:`ChainKind` the search assumes, cell by cell and digit by digit, each candidate
on and (dynamic kinds) off, follows each assumption with the implication engine, and considers
four forms of conclusion, each rated by the potentials it rests on:

- *contradiction*: an assumption leads to a potential both on and off, so it is false;
- *double*: a potential follows from a candidate and from its negation (cells of three or more
  candidates, dynamic kinds);
- *cell*: whatever digit a cell takes, the same potential follows;
- *region*: wherever a digit goes in a house, the same potential follows.

Nishio (no Y rules) draws contradictions only.  The search keeps the easiest conclusion (lowest
rating, then complexity, then SE's order of the forms); with a ceiling it stops at the first
rated within it, the cells of fewest candidates first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Geometry
from xlsudoku.engine.steps import Elimination, Placement, Step
from xlsudoku.engine.techniques.chaining.implication import (
    NISHIO_CHAINS,
    Budget,
    ChainKind,
    Implications,
    Outcome,
    OutOfWork,
    chains_complexity,
)
from xlsudoku.engine.techniques.chaining.links import Links, links_of
from xlsudoku.engine.techniques.chaining.potential import (
    Candidate,
    Potential,
    candidate_name,
    statement,
)
from xlsudoku.engine.techniques.chaining.rating import (
    ChainFinder,
    Conclusion,
    Key,
    length_increment,
    tenths,
)

# SE's order of the forms among conclusions of equal rating and complexity
DOUBLE, CELL, REGION, CONTRADICTION = 1, 5, 6, 7

# The end of one chain of a conclusion: the outcome, the potential it reaches, its parents.
Branch = tuple[Outcome, Potential, tuple[Potential, ...]]


@dataclass(frozen=True, slots=True)
class Found:
    """A conclusion a collecting search found: key, target, form, chains and assumptions.

    *origin* is the assumptions' cell (cell chains), house and digit index (region chains),
    or empty (a contradiction or double chain: the first potential of each chain).
    """

    key: Key
    target: Potential
    form: int
    branches: list[Branch]
    origin: tuple[int, ...]


def _if_words(geo: Geometry, s: Candidate, assumed: bool) -> str:
    """Return how a contradiction chain reaches its conclusion: ``if r1c2=5, ...``."""
    return f"if {'' if assumed else 'not '}{candidate_name(s, geo)}, a contradiction follows"


def _double_words(geo: Geometry, s: Candidate, f: Potential) -> str:
    """Return how a double chain reaches *f*: from the candidate *s* and from its negation."""
    return f"{candidate_name(s, geo)} or not, {statement(f, geo)}"


def _cell_words(geo: Geometry, cell: Cell, f: Potential) -> str:
    """Return how a cell chain reaches *f*: from every digit of *cell*."""
    return f"whatever {geo.cell_name(cell)} is, {statement(f, geo)}"


def _region_words(geo: Geometry, d: int, h: int, f: Potential) -> str:
    """Return how a region chain reaches *f*: from every place of digit index *d* in *h*."""
    return f"wherever {geo.digit_char(d + 1)} goes in {geo.house_name(h)}, {statement(f, geo)}"


def _contradiction(outcome: Outcome) -> list[Branch]:
    """Return the two chains of *outcome*'s contradiction: to its potential on and off."""
    assert outcome.contradiction is not None
    a, pa, b, pb = outcome.contradiction
    return [(outcome, a, pa), (outcome, b, pb)]


def chain_finder(kind: ChainKind, work: int | None = None) -> ChainFinder:
    """Return the finder of SE's easiest chain of *kind*, each call bounded to *work* units.

    With *work* None the search is not bounded.  The finder yields the easiest chain, or with
    a *ceiling* (a rating) the first chain found rated at most that.

    >>> from xlsudoku.engine.grid import Grid
    >>> from xlsudoku.engine.techniques.chaining.implication import DYNAMIC_CHAINS
    >>> b = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> next(chain_finder(DYNAMIC_CHAINS)(b)).rating
    8.5
    """

    def find(board: Board, ceiling: float | None = None) -> Iterator[Step]:
        found = ChainSearch(board, kind, Budget(work), tenths(ceiling)).run()
        if found is not None:
            yield found.step()

    find.__doc__ = f"Yield SE's easiest {kind.name} (base {kind.base_score / 10})."
    return find


class _Enough(Exception):
    """A chain within the rating ceiling is in hand: the search for an easier one can stop."""


class ChainSearch:
    """The search for the easiest chain of one kind on one board (see the module docstring)."""

    def __init__(
        self,
        board: Board,
        kind: ChainKind,
        budget: Budget,
        within: int = 0,
        collect: bool = False,
        engine: Implications | None = None,
    ) -> None:
        self.board = board
        self.kind = kind
        if engine is None:
            engine = Implications(links_of(board), kind, budget)
        self.links = engine.links
        self.engine = engine
        self.within = within
        self.best: Conclusion | None = None
        # with *collect*, every conclusion that does something, not only the easiest
        self.collect = collect
        self.collected: list[Found] = []
        self._order = 0

    def run(self) -> Conclusion | None:
        """Return the easiest conclusion (or, with *within*, the first within it), or None."""
        try:
            if not self.kind.y_rules and all(m.bit_count() != 1 for m in self.links.cands):
                self._nishio_contradictions()
            else:
                self._scan()
        except OutOfWork:
            pass  # out of work: the easiest chain found so far
        except _Enough:
            pass  # within the ceiling: an easier chain would not change the rating
        return self.best

    def consider(
        self,
        branches: list[Branch],
        form: int,
        target: Potential,
        label: Callable[[], str],
        cells: tuple[Cell, ...],
        origin: tuple[int, ...] = (),
    ) -> None:
        """Keep the conclusion *target* if it is the easiest so far and does something.

        *branches* are the chains' ends (see ``implication.chains_complexity``); *form* is
        SE's sort key of the form (DOUBLE, CELL, REGION, CONTRADICTION); *label* makes the words
        saying how the chains reach *target* (only a conclusion kept needs them); *origin* is
        the assumptions' cell, or house and digit.
        """
        if self.collect and not self._does_something(target):
            self._order += 1  # as kept and dropped (see _keep)
            return
        self._keep(chains_complexity(*branches), form, target, label, cells, branches, origin)

    def _keep(
        self,
        complexity: int,
        form: int,
        target: Potential,
        label: Callable[[], str],
        cells: tuple[Cell, ...],
        branches: list[Branch],
        origin: tuple[int, ...],
    ) -> None:
        """Keep a conclusion resting on *complexity* potentials (see :meth:`consider`)."""
        self._order += 1
        key = (self.kind.base_score + length_increment(complexity), complexity, form, self._order)
        if self.collect:
            if self._does_something(target):
                self.collected.append(Found(key, target, form, branches, origin))
            return
        if self.best is not None and key >= self.best.key:
            return
        n = self.links.size
        cands = self.links.cands
        geo = self.board.geometry
        cell, d = divmod(target >> 1, n)
        if target & 1:
            elims = tuple(
                Elimination(cell, e + 1) for e in range(n) if e != d and cands[cell] >> e & 1
            )
            if not elims:
                return
            placements: tuple[Placement, ...] = (Placement(cell, d + 1),)
        else:
            if not cands[cell] >> d & 1:
                return
            elims = (Elimination(cell, d + 1),)
            placements = ()
        self.engine.budget.found = True
        self.best = Conclusion(
            key,
            self.kind.technique,
            placements,
            elims,
            cells,
            (d + 1,),
            f"{self._title(form)}: {label()}, so {statement(target, geo)} "
            f"(the chains rest on {complexity} potentials)",
        )
        if key[0] <= self.within:
            raise _Enough

    def _does_something(self, target: Potential) -> bool:
        """True when *target* removes a candidate: another of its cell's, or itself."""
        cell, d = divmod(target >> 1, self.links.size)
        m = self.links.cands[cell]
        return bool(m & ~(1 << d)) if target & 1 else bool(m >> d & 1)

    def _title(self, form: int) -> str:
        """Return the kind's name with the form before its first "Forcing" (none for Nishio)."""
        if not self.kind.y_rules:
            return self.kind.name
        word = {DOUBLE: "Double", CELL: "Cell", REGION: "Region", CONTRADICTION: "Contradiction"}
        return self.kind.name.replace("Forcing", f"{word[form]} Forcing", 1)

    def _scan(self) -> None:
        """Consider every assumption's conclusions, in SE's order of cells and digits."""
        links = self.links
        n = links.size
        cands = links.cands
        geo = self.board.geometry
        engine = self.engine
        dynamic = self.kind.dynamic
        forms = self.kind.y_rules  # double, cell and region chains; Nishio has none
        scan: Iterable[Cell] = range(len(cands))
        if self.within:  # any chain will do: cells of fewer candidates need fewer outcomes
            scan = sorted(scan, key=lambda c: (cands[c].bit_count(), c))
        for cell in scan:
            m = cands[cell]
            card = m.bit_count()
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            if self.best is not None and engine.budget.spent:
                break  # out of work: the easiest chain found so far
            value_on: dict[int, Outcome] = {}
            # the potentials every digit's outcome found so far, in the first one's order
            common: list[Potential] | None = None
            for d in range(n):
                if not m >> d & 1:
                    continue
                s = cell * n + d
                on = engine.outcome(s * 2 + 1)
                if dynamic:
                    off = engine.outcome(s * 2)
                    if on.contradiction is not None:
                        self.consider(
                            _contradiction(on),
                            CONTRADICTION,
                            s * 2,
                            partial(_if_words, geo, s, True),
                            (cell,),
                        )
                    if off.contradiction is not None:
                        self.consider(
                            _contradiction(off),
                            CONTRADICTION,
                            s * 2 + 1,
                            partial(_if_words, geo, s, False),
                            (cell,),
                        )
                    if card >= 3 and forms:
                        for f, pf in on.facts.items():
                            if f in off.facts and f >> 1 != s:
                                self.consider(
                                    [(on, f, pf), (off, f, off.facts[f])],
                                    DOUBLE,
                                    f,
                                    partial(_double_words, geo, s, f),
                                    (cell,),
                                )
                if not forms:
                    continue
                self._regions(cell, d, on)
                value_on[d] = on
                if common is None:
                    common = list(on.facts)
                elif common:
                    facts = on.facts
                    common = [f for f in common if f in facts]
            if not common:
                continue
            # what every digit of the cell leads to: on potentials first, each in the order
            # the first digit's outcome found it
            for f in [f for f in common if f & 1] + [f for f in common if not f & 1]:
                self.consider(
                    [(o, f, o.facts[f]) for o in value_on.values()],
                    CELL,
                    f,
                    partial(_cell_words, geo, cell, f),
                    (cell,),
                    (cell,),
                )

    def _regions(self, cell: Cell, d: int, on: Outcome) -> None:
        """Consider the region chains of digit *d* in houses where *cell* is its first place."""
        links = self.links
        n = links.size
        geo = self.board.geometry
        bit = 1 << d
        for h in links.se_houses[cell]:
            here = links.places[h * n + d]
            cells = links.houses[h]
            if here.bit_count() < 2 or cells[(here & -here).bit_length() - 1] != cell:
                continue
            places = [c for c in cells if links.cands[c] & bit]
            # the other places' outcomes one by one, while some potential is common to all
            # (in the order *on* found them)
            outcomes = [on]
            common: Iterable[Potential] = on.facts
            for c in places[1:]:
                o = self.engine.outcome((c * n + d) * 2 + 1)
                outcomes.append(o)
                facts = o.facts
                common = [f for f in common if f in facts]
                if not common:
                    break
            if not common:
                continue
            for f in common:
                if f >> 1 == cell * n + d:
                    continue
                self.consider(
                    [(o, f, o.facts[f]) for o in outcomes],
                    REGION,
                    f,
                    partial(_region_words, geo, d, h, f),
                    tuple(places),
                    (h, d),
                )

    def _nishio_contradictions(self) -> None:
        """Consider the Nishio contradictions of every digit in the scan's order (cell, digit).

        Nishio's rules never look at another digit: a digit's contradictions come from its
        candidates alone, cached (a step leaves most digits' candidates as they were).
        """
        n = self.links.size
        cands = self.links.cands
        geo = self.board.geometry
        blank = (0,) * geo.cell_count
        found: list[tuple[Cell, int, int, int]] = []
        for d in range(n):
            bit = 1 << d
            pattern = tuple(m & bit for m in cands)
            if any(pattern):
                for cell, off, c in _digit_contradictions(Board(blank, pattern, geo), d):
                    found.append((cell, d, off, c))
        found.sort()
        for cell, d, off, c in found:
            s = cell * n + d
            if off:
                self._keep(
                    c,
                    CONTRADICTION,
                    s * 2 + 1,
                    partial(_if_words, geo, s, False),
                    (cell,),
                    [],
                    (),
                )
            else:
                self._keep(
                    c,
                    CONTRADICTION,
                    s * 2,
                    partial(_if_words, geo, s, True),
                    (cell,),
                    [],
                    (),
                )


@functools.lru_cache(maxsize=1024)
def _digit_contradictions(board: Board, d: int) -> tuple[tuple[Cell, int, int], ...]:
    """Return the Nishio contradictions on *board*, which holds candidates of digit *d* only.

    Each is ``(cell, off, complexity)``: assuming the digit in the cell (*off* 0) or not (1)
    leads to a contradiction resting on *complexity* potentials, in the order of the cells.
    """
    engine = Implications(Links.of(board), NISHIO_CHAINS)
    n = board.geometry.size
    out = []
    for cell, m in enumerate(board.cands):
        if not m:
            continue
        s = cell * n + d
        for off, o in enumerate((engine.outcome(s * 2 + 1), engine.outcome(s * 2))):
            if o.contradiction is not None:
                out.append((cell, off, o.contradiction_complexity()))
    return tuple(out)
