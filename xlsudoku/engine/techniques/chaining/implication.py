"""The implication engine: what follows from assuming one potential, by one kind's rules.

From an assumed potential the engine follows the plain rules (see ``links``) breadth first, in
SE's order: every on potential found so far first, then the next off one.  It records each
potential it reaches with its *parents* (the potentials it rests on, the first its cause) and
stops at a *contradiction*, a potential reached both on and off.

A :class:`ChainKind` says which rules: *static* chains read the links of the puzzle's
candidates; *dynamic* ones remove every potential found off from the candidates as they go, so
cells and houses run out of places; the Y rules (cells) may be left out (Nishio); and *extra
rules*, tried in turn when the plain ones run dry, may add off potentials (the first rule that
finds something gives all it finds).  Those rules come from outside the engine: SE's patterns
(pointing, pairs, X-Wings) from the technique registry, its nested chains from ``nested``.

A :class:`Budget` of *work* bounds a search of the nested kinds (counted in searches, not
seconds, so a rating is the same on every machine).

The human-style table's forcing chains follow the same rules in another order, layer by layer
of inference depth (:class:`LayeredPropagation`): their search shows the shortest chains first
and resumes a propagation where a shallower one stopped.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol, cast

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Geometry
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.techniques.chaining.links import (
    Links,
    Removal,
    cells_by_digit,
    peer_masks,
    removals,
    se_geometry,
    single_index,
)
from xlsudoku.engine.techniques.chaining.potential import Candidate, Potential
from xlsudoku.engine.techniques.chaining.rating import DYNAMIC, MULTIPLE, NISHIO

# A nested chain an extra rule ran: an identity, equal for the same inner chain whichever
# outer assumption ran it, and its complexity (added once to a conclusion that rests on it).
NestedChain = tuple[tuple[int, ...], int]
# An off potential an extra rule finds: the potential, the potentials it rests on, and the
# nested chain that found it (None for a pattern).
Derived = tuple[Potential, tuple[Potential, ...], NestedChain | None]

# What the rules read (see Implications._rule_tables): per candidate the off potentials its
# being on makes, the on potentials its being off makes (static), what its going off changes
# (dynamic), and the index of the one bit of each mask.
_Tables = tuple[
    list[tuple[Potential, ...]], list[tuple[Potential, ...]], tuple[Removal, ...], tuple[int, ...]
]

# How many conclusions' ancestors an outcome finds by walking its parents before it makes
# every potential's ancestors at once (see chains_complexity).
_WALKS = 6

# Work units (see Budget): a round of the extra rules on the candidates an assumption leaves.
EXTRA_RULES_COST = 12


class ExtraRule(Protocol):
    """A rule the dynamic chains apply to the candidates an assumption leaves (see above)."""

    def __call__(self, engine: Implications, left: Board) -> list[Derived]:
        """Return what the rule makes off on the candidates *left*, resting on those removed.

        *engine* is the search it serves: its links are the puzzle's candidates, its budget
        the work left; ``engine.left_links(left)`` gives the links of the candidates left.
        """
        ...


@dataclass(frozen=True, slots=True)
class ChainKind:
    """Which rules a kind of chain follows, what it is called, and its base rating (tenths).

    *name* names its steps; a form ("Cell", "Region", "Contradiction", "Double") goes before
    its first "Forcing" where the kind has forms (every kind with the Y rules).
    """

    name: str
    technique: Technique
    base_score: int
    dynamic: bool
    y_rules: bool = True
    extra_rules: tuple[ExtraRule, ...] = ()


NISHIO_CHAINS = ChainKind(
    "Nishio Forcing Chain", Technique.NISHIO_FORCING_CHAIN, NISHIO, dynamic=True, y_rules=False
)
MULTIPLE_CHAINS = ChainKind(
    "Forcing Chains", Technique.MULTIPLE_FORCING_CHAINS, MULTIPLE, dynamic=False
)
DYNAMIC_CHAINS = ChainKind(
    "Dynamic Forcing Chains", Technique.DYNAMIC_FORCING_CHAINS, DYNAMIC, dynamic=True
)


class OutOfWork(Exception):
    """A bounded search spent its work with a conclusion in hand."""


@dataclass(slots=True)
class Budget:
    """The work a search may still spend (None: no bound), and whether it holds a conclusion.

    Past the budget, a search with a conclusion in hand stops (:meth:`spend` raises
    :class:`OutOfWork`); one without looks on until it finds one.  A unit is about one inner
    forcing chain search.

    >>> budget = Budget(10)
    >>> budget.spend(12)
    >>> budget.found = True
    >>> budget.spend(1)
    Traceback (most recent call last):
    ...
    xlsudoku.engine.techniques.chaining.implication.OutOfWork
    """

    left: int | None
    found: bool = False
    used: int = 0  # units counted so far, bounded or not

    def spend(self, units: int) -> None:
        """Count *units* of work; past the budget, with a conclusion in hand, stop."""
        self.used += units
        if self.left is not None:
            self.left -= units
            if self.found and self.left < 0:
                raise OutOfWork

    @property
    def spent(self) -> bool:
        """True when a bounded budget has run out."""
        return self.left is not None and self.left < 0


@dataclass(slots=True)
class Outcome:
    """What follows from an assumption: potentials with their parents, and a contradiction.

    *contradiction* is ``(on, its parents, off, its parents)`` for the potential reached both
    ways; *nested* maps a potential an extra rule found to the nested chain that found it.
    """

    facts: dict[Potential, tuple[Potential, ...]]  # potential -> parents (first = cause)
    contradiction: tuple[Potential, tuple[Potential, ...], Potential, tuple[Potential, ...]] | None
    nested: dict[Potential, NestedChain]
    footprint: tuple[int, int] | None = field(default=None)  # see footprint()
    # potential -> its ancestors as a bit set (bit p for potential p), made on first need
    ancestry: dict[Potential, int] | None = field(default=None)
    # potential -> the off potentials of an outer assumption it rests on, as a bit set (the
    # nested chains' inner outcomes, made on first need)
    removed: dict[Potential, int] | None = field(default=None)
    walks: int = field(default=0)  # ancestors found by walking the parents (see ancestor_set)

    def ancestors(self, p: Potential, parents: tuple[Potential, ...]) -> int:
        """Return *p* (with *parents*) and every potential it rests on, as a bit set.

        A potential's parents were all found before it, so one pass over the facts gives
        every one its ancestors, which the conclusions of one outcome share.

        >>> bin(Outcome({1: (), 2: (1,), 5: (2,)}, None, {}).ancestors(5, (2,)))
        '0b100110'
        """
        ancestry = self.ancestry
        if ancestry is None:
            ancestry = self.ancestry = {}
            for f, fs in self.facts.items():
                bits = 1 << f
                for q in fs:
                    bits |= ancestry[q]
                ancestry[f] = bits
        bits = 1 << p
        for q in parents:
            bits |= ancestry[q]
        return bits

    def ancestor_set(self, p: Potential, parents: tuple[Potential, ...]) -> set[Potential]:
        """Return :meth:`ancestors` as a set, walking back from *parents* alone.

        Most outcomes are asked for a few potentials' ancestors, fewer than they hold.

        >>> sorted(Outcome({1: (), 2: (1,), 5: (2,)}, None, {}).ancestor_set(5, (2,)))
        [1, 2, 5]
        """
        facts = self.facts
        got = {p}
        stack = list(parents)
        while stack:
            q = stack.pop()
            if q not in got:
                got.add(q)
                stack += facts[q]
        return got

    def complexity(self, p: Potential, parents: tuple[Potential, ...]) -> int:
        """Return how many potentials *p* (with *parents*) rests on, itself included.

        >>> Outcome({1: (), 2: (1,), 5: (2,)}, None, {}).complexity(5, (2,))
        3
        """
        return chains_complexity((self, p, parents))

    def contradiction_complexity(self) -> int:
        """Return how many potentials the contradiction rests on (both ways counted)."""
        assert self.contradiction is not None
        a, pa, b, pb = self.contradiction
        return chains_complexity((self, a, pa), (self, b, pb))


def footprint(links: Links, outcome: Outcome) -> tuple[int, int]:
    """Return the cells and the (house, digit) keys the potentials of *outcome* see.

    A bit per cell, and per ``house * size + digit - 1`` for each house (box, row, column) of
    a potential's cell: what the rules looked at (see :meth:`Implications.outcome`).

    >>> from xlsudoku.engine.grid import CLASSIC, Grid
    >>> links = Links.of(Board.from_grid(Grid.empty()))
    >>> cells, keys = footprint(links, Outcome({(1 * 9 + 4) * 2 + 1: ()}, None, {}))
    >>> cells, [h for h in range(27) if keys >> (h * 9 + 4) & 1]  # r1c2=5: box 1, row 1, col 2
    (2, [0, 10, 18])
    """
    got = outcome.footprint
    if got is None:
        cell_bits, key_bits = _candidate_bits(links.board.geometry)
        cells = keys = 0
        for f in outcome.facts:
            c = f >> 1
            cells |= cell_bits[c]
            keys |= key_bits[c]
        got = outcome.footprint = (cells, keys)
    return got


@functools.cache
def _candidate_bits(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return per candidate the bit of its cell and the bits of its (house, digit) keys.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> cells, keys = _candidate_bits(CLASSIC)
    >>> cells[1 * 9 + 4], [h for h in range(27) if keys[1 * 9 + 4] >> (h * 9 + 4) & 1]
    (2, [0, 10, 18])
    """
    n = geo.size
    se_houses = se_geometry(geo)[0]
    cell_bits = []
    key_bits = []
    for cell in range(geo.cell_count):
        for d in range(n):
            cell_bits.append(1 << cell)
            keys = 0
            for h in se_houses[cell]:
                keys |= 1 << (h * n + d)
            key_bits.append(keys)
    return tuple(cell_bits), tuple(key_bits)


def _changes(links: Links, cands: tuple[int, ...]) -> tuple[int, int]:
    """Return the cells and (house, digit) keys whose candidates differ from *links*' (bits)."""
    n = links.size
    cells = keys = 0
    for cell, (a, b) in enumerate(zip(links.cands, cands, strict=True)):
        if a != b:
            cells |= 1 << cell
            for h in links.se_houses[cell]:
                keys |= (a ^ b) << (h * n)
    return cells, keys


def chains_complexity(*branches: tuple[Outcome, Potential, tuple[Potential, ...]]) -> int:
    """Return SE's complexity of a conclusion reached by the chains to the *branches*' ends.

    Each branch is ``(outcome, potential, its parents)``: the potentials each chain rests on
    count once per branch, and each nested chain they rest on adds its complexity once,
    however many branches or potentials it served.

    >>> a = Outcome({1: (), 4: (1,)}, None, {4: ((0, 7), 5)})
    >>> b = Outcome({3: (), 4: (3,)}, None, {4: ((0, 7), 5)})
    >>> chains_complexity((a, 4, (1,)), (b, 4, (3,)))  # 2 + 2 potentials, the nested chain once
    9
    """
    total = 0
    nested: dict[tuple[int, ...], int] = {}
    for outcome, p, parents in branches:
        if outcome.ancestry is None and outcome.walks < _WALKS:
            # a few walks back cost less than every potential's ancestors at once
            outcome.walks += 1
            found = outcome.ancestor_set(p, parents)
            total += len(found)
            for f, (identity, complexity) in outcome.nested.items():
                if f in found:
                    nested[identity] = complexity
            continue
        bits = outcome.ancestors(p, parents)
        total += bits.bit_count()
        for f, (identity, complexity) in outcome.nested.items():
            if bits >> f & 1:
                nested[identity] = complexity
    return total + sum(nested.values())


class Implications:
    """The outcomes of assumptions on one board by the rules of one kind (each computed once).

    >>> from xlsudoku.engine.grid import Grid
    >>> from xlsudoku.engine.techniques.chaining.potential import on, statement
    >>> board = Board.from_grid(Grid.parse(
    ...     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
    >>> outcome = Implications(Links.of(board), DYNAMIC_CHAINS).outcome(on(2, 7, 9))  # r1c3=7
    >>> [statement(p, board.geometry) for p in outcome.contradiction[::2]]
    ['r3c1 is 7', 'r3c1 cannot be 7']
    >>> outcome.contradiction_complexity()
    5
    """

    def __init__(
        self,
        links: Links,
        kind: ChainKind,
        budget: Budget | None = None,
        source: Implications | None = None,
    ) -> None:
        """Make the engine of *kind* on *links*.

        *source*, an engine of the same kind without extra rules on candidates these only
        lack some of, gives the outcomes that see none of the missing candidates: they are
        the same (see :meth:`outcome`).
        """
        self.links = links
        self.kind = kind
        self.budget = Budget(None) if budget is None else budget
        self._cache: dict[Potential, Outcome] = {}
        self._siblings: dict[ChainKind, Implications] = {}
        self._left: Links | None = None  # the links of the candidates the rules last saw
        self._source = source
        self._changed = (0, 0)
        if source is not None:
            self._changed = _changes(source.links, links.cands)
        # an engine of the same kind on candidates these only lack some of, whose outcomes
        # already computed are reused like the source's (see inner())
        self._previous: Implications | None = None
        self._since = (0, 0)
        self._inner: dict[ChainKind, Implications] = {}
        self._tables: _Tables | None = None  # the rules' tables on these links, made on first need

    def outcome(self, first: Potential) -> Outcome:
        """Return the consequences of assuming *first* (cached).

        The rules look only at the candidates of the cells of the potentials they reach and
        at the places of those potentials' digits in the cells' houses: an outcome that saw
        no missing candidate there is the source engine's.
        """
        got = self._cache.get(first)
        if got is None and self._previous is not None:
            got = self._previous._cache.get(first)
            if got is not None:
                cells, keys = footprint(self._previous.links, got)
                if cells & self._since[0] or keys & self._since[1]:
                    got = None
        if got is None:
            if self._source is not None:
                got = self._source.outcome(first)
                cells, keys = footprint(self._source.links, got)
                if cells & self._changed[0] or keys & self._changed[1]:
                    got = None
            if got is None:
                got = (
                    self._follow_dynamic(first) if self.kind.dynamic else self._follow_static(first)
                )
            self._cache[first] = got
        return got

    def sibling(self, kind: ChainKind) -> Implications:
        """Return the engine of *kind* on the same candidates (made once)."""
        got = self._siblings.get(kind)
        if got is None:
            got = self._siblings[kind] = Implications(self.links, kind)
        return got

    def inner(self, kind: ChainKind, links: Links) -> Implications:
        """Return an engine of *kind* (no extra rules) on the candidates left *links* hold.

        Its source is the engine of *kind* on this engine's candidates; and when the last
        engine this made for *kind* was on candidates these only lack some of (the same
        assumption, its rules run again after a few more removals), the outcomes that one
        computed and that see none of the candidates removed since are reused as well.
        """
        made = Implications(links, kind, Budget(None), self.sibling(kind))
        last = self._inner.get(kind)
        if last is not None and all(
            not a & ~b for a, b in zip(links.cands, last.links.cands, strict=True)
        ):
            made._previous = last
            last._previous = None  # only its own outcomes are read: let older ones go
            made._since = _changes(last.links, links.cands)
        self._inner[kind] = made
        return made

    def left_links(self, left: Board) -> Links:
        """Return the links of the candidates *left* (kept for the next rule on them)."""
        got = self._left
        if got is None or got.board is not left:
            got = self._left = Links.of(left)
        return got

    def _rule_tables(self) -> _Tables:
        """Return the tables the rules of this engine's kind read, made once per engine."""
        got = self._tables
        if got is None:
            links = self.links
            y = self.kind.y_rules
            got = self._tables = (
                links.off_potentials(y),
                links.on_potentials(y, True),
                removals(links.board.geometry),
                single_index(links.size),
            )
        return got

    def _follow_static(self, first: Potential) -> Outcome:
        """Return the consequences of *first* by the plain rules on the puzzle's candidates.

        The candidates stay as they are, so what an off potential makes on is fixed, and an
        off potential that makes nothing on is recorded but not queued (it would do nothing).
        """
        off_of, on_of = self._rule_tables()[:2]
        facts: dict[Potential, tuple[Potential, ...]] = {first: ()}
        pending_on: deque[Potential] = deque()
        pending_off: deque[Potential] = deque()
        if first & 1:
            pending_on.append(first)
        elif on_of[first >> 1]:
            pending_off.append(first)
        while True:
            # the on potentials first, in the order found (SE's order)
            while pending_on:
                f = pending_on.popleft()
                parents: tuple[Potential, ...] = (f,)
                for g in off_of[f >> 1]:
                    if g not in facts:  # facts never hold a potential both on and off
                        if g + 1 in facts:
                            return Outcome(facts, (g + 1, facts[g + 1], g, parents), {})
                        facts[g] = parents
                        if on_of[g >> 1]:
                            pending_off.append(g)
            if not pending_off:
                break
            f = pending_off.popleft()
            parents = (f,)
            for g in on_of[f >> 1]:
                if g not in facts:
                    if g - 1 in facts:
                        return Outcome(facts, (g, parents, g - 1, facts[g - 1]), {})
                    facts[g] = parents
                    pending_on.append(g)
        return Outcome(facts, None, {})

    def _follow_dynamic(self, first: Potential) -> Outcome:
        """Return the consequences of *first*, each potential found off removed as it goes.

        What an off potential makes on is then the last digit of its cell or the last place of
        its digit in a house on the candidates left; each rests on the candidates the
        assumption removed there.
        """
        off_of, _, removal, single = self._rule_tables()
        links = self.links
        n = links.size
        y = self.kind.y_rules
        extra = bool(self.kind.extra_rules)
        source = links.cands
        cands = list(source)
        places = list(links.places)  # places of each digit in each house, kept up to date
        src_places = links.places
        facts: dict[Potential, tuple[Potential, ...]] = {first: ()}
        nested: dict[Potential, NestedChain] = {}
        pending_on: deque[Potential] = deque()
        pending_off: deque[Potential] = deque()
        (pending_on if first & 1 else pending_off).append(first)
        while True:
            # the on potentials first, in the order found (SE's order)
            while pending_on:
                f = pending_on.popleft()
                cause = (f,)
                for g in off_of[f >> 1]:
                    if g not in facts:  # facts never hold a potential both on and off
                        if g + 1 in facts:
                            return Outcome(facts, (g + 1, facts[g + 1], g, cause), nested)
                        facts[g] = cause
                        pending_off.append(g)
            if not pending_off:
                if extra:
                    for g, parents, inner in self._extra_rules(cands):
                        if g not in facts:
                            facts[g] = parents
                            if inner:
                                nested[g] = inner
                            pending_off.append(g)
                if not pending_off:
                    break
            f = pending_off.popleft()
            cell, clear, houses = removal[f >> 1]
            m = cands[cell]
            left = cands[cell] = m & clear
            # what the removal makes on, in SE's order, each recorded at once (a potential
            # both on and off ends the chain, whatever the rest would have done)
            if y and left != m and single[left] >= 0:
                # the cell's other digit, resting on the digits the assumption removed
                g = (cell * n + single[left]) * 2 + 1
                if g - 1 in facts or g not in facts:
                    gone = source[cell] & ~m
                    rest = [f]
                    while gone:
                        low = gone & -gone
                        rest.append((cell * n + low.bit_length() - 1) * 2)
                        gone ^= low
                    if g - 1 in facts:
                        return Outcome(facts, (g, tuple(rest), g - 1, facts[g - 1]), nested)
                    facts[g] = tuple(rest)
                    pending_on.append(g)
            for key, keep, ons in houses:
                here = places[key]
                other = places[key] = here & keep
                i = single[other]
                if i < 0:
                    continue
                g = ons[i]
                if g - 1 in facts or g not in facts:
                    # the last place rests on the places the assumption removed
                    gone = src_places[key] & ~here
                    rest = [f]
                    while gone:
                        low = gone & -gone
                        rest.append(ons[low.bit_length() - 1] - 1)
                        gone ^= low
                    if g - 1 in facts:
                        return Outcome(facts, (g, tuple(rest), g - 1, facts[g - 1]), nested)
                    facts[g] = tuple(rest)
                    pending_on.append(g)
        return Outcome(facts, None, nested)

    def _extra_rules(self, cands: list[int]) -> list[Derived]:
        """Return what the first extra rule that finds something finds on *cands*.

        A rule's result on the same candidates is the same whichever assumption or search
        reached them (the searches of one board share the links), so it is memoised on the
        links with the work it took, which a search that reuses it still spends: a bounded
        search stops where it would have stopped.
        """
        budget = self.budget
        budget.spend(EXTRA_RULES_COST)
        state = tuple(cands)
        memo = self.links.memo
        left: Board | None = None
        for rule in self.kind.extra_rules:
            key = (rule, state)
            got = cast("tuple[list[Derived], int] | None", memo.get(key))
            if got is None:
                if left is None:
                    board = self.links.board
                    left = Board(board.values, state, board.geometry)
                used = budget.used
                found = rule(self, left)
                memo[key] = (found, budget.used - used)
            else:
                found, units = got
                budget.spend(units)
            if found:
                return found
        return []


# -- layer by layer: the human-style table's forcing chains -------------------------------------
#
# The same rules followed breadth first by inference depth, each potential recorded with its
# reason ``(parent potential, why, house, depth)``, *why* one of:
ASSUMED, SAME_CELL, SEES, LAST_CANDIDATE, LAST_PLACE = range(5)


@dataclass(slots=True)
class LayerContext:
    """Per-board tables shared by every propagation: candidates and places per house/digit."""

    board: Board
    size: int
    counts: list[int]  # house * size + digit - 1 -> places left
    digit_cells: list[int]  # digit - 1 -> bit mask of the cells holding it
    peer_masks: tuple[int, ...]
    house_keys: tuple[tuple[int, ...], ...]  # cell -> house * size for each of its houses
    house_masks: tuple[int, ...]  # house -> bit mask of its cells


class LayeredPropagation:
    """What follows from assuming one candidate true: facts with their reasons.

    Breadth-first, so it can be resumed with a deeper limit (:meth:`run`).  *contradiction* is
    ``(fact, house)`` where it broke: a candidate both true and false (house -1), a cell with no
    candidate left (house -2) or a house with no place left for the fact's digit.
    """

    __slots__ = (
        "ctx",
        "cands",
        "counts",
        "digit_cells",
        "reason",
        "queue",
        "head",
        "contradiction",
    )

    def __init__(self, ctx: LayerContext, start: Candidate) -> None:
        self.ctx = ctx
        self.cands = list(ctx.board.cands)
        self.counts = ctx.counts[:]
        self.digit_cells = ctx.digit_cells[:]
        first = start * 2 + 1
        self.reason: dict[int, tuple[int, int, int, int]] = {first: (-1, ASSUMED, -1, 0)}
        self.queue = [first]
        self.head = 0
        self.contradiction: tuple[int, int] | None = None

    def run(self, max_depth: int) -> LayeredPropagation:
        """Draw every inference of depth up to *max_depth* (stop at a contradiction).

        The inferences of one fact are read from the candidates as they were before any of
        them is recorded (a true fact's from the bits it held, a false fact's are all true and
        change no candidate), and recorded in order, each as it is drawn.
        """
        if self.contradiction is not None:
            return self
        ctx = self.ctx
        n = ctx.size
        cands = self.cands
        counts = self.counts
        digit_cells = self.digit_cells
        peer_masks = ctx.peer_masks
        house_keys = ctx.house_keys
        house_masks = ctx.house_masks
        reason = self.reason
        queue = self.queue
        head = self.head
        while head < len(queue):
            fact = queue[head]
            level = reason[fact][3]
            if level >= max_depth:
                break
            head += 1
            cell, d = divmod(fact >> 1, n)
            level += 1
            if fact & 1:
                # true: the cell's other candidates and the digit in its peers are false
                others = cands[cell] & ~(1 << d)
                seen = peer_masks[cell] & digit_cells[d]
                base = cell * n
                while others:
                    low = others & -others
                    others ^= low
                    d2 = low.bit_length() - 1
                    f = (base + d2) * 2
                    if f in reason:
                        continue
                    reason[f] = (fact, SAME_CELL, -1, level)
                    if f + 1 in reason:
                        self.contradiction = (f, -1)
                        return self
                    queue.append(f)
                    left = cands[cell] = cands[cell] & ~low
                    digit_cells[d2] &= ~(1 << cell)
                    if not left:
                        self.contradiction = (f, -2)
                        return self
                    for key in house_keys[cell]:
                        k = counts[key + d2] - 1
                        counts[key + d2] = k
                        if not k:
                            self.contradiction = (f, key // n)
                            return self
                bit = 1 << d
                while seen:
                    low = seen & -seen
                    seen ^= low
                    c2 = low.bit_length() - 1
                    f = (c2 * n + d) * 2
                    if f in reason:
                        continue
                    reason[f] = (fact, SEES, -1, level)
                    if f + 1 in reason:
                        self.contradiction = (f, -1)
                        return self
                    queue.append(f)
                    left = cands[c2] = cands[c2] & ~bit
                    digit_cells[d] &= ~low
                    if not left:
                        self.contradiction = (f, -2)
                        return self
                    for key in house_keys[c2]:
                        k = counts[key + d] - 1
                        counts[key + d] = k
                        if not k:
                            self.contradiction = (f, key // n)
                            return self
            else:
                # false: a cell with one candidate left, a house with one place left
                left = cands[cell]
                if not left & (left - 1):
                    f = (cell * n + left.bit_length() - 1) * 2 + 1
                    if f not in reason:
                        reason[f] = (fact, LAST_CANDIDATE, -1, level)
                        if f - 1 in reason:
                            self.contradiction = (f, -1)
                            return self
                        queue.append(f)
                for key in house_keys[cell]:
                    if counts[key + d] == 1:
                        h = key // n
                        c2 = (house_masks[h] & digit_cells[d]).bit_length() - 1
                        f = (c2 * n + d) * 2 + 1
                        if f not in reason:
                            reason[f] = (fact, LAST_PLACE, h, level)
                            if f - 1 in reason:
                                self.contradiction = (f, -1)
                                return self
                            queue.append(f)
        self.head = head
        return self


def layer_context(board: Board) -> LayerContext:
    """Return the tables every layered propagation on *board* starts from."""
    geo = board.geometry
    n = geo.size
    cands = board.cands
    counts = [0] * (len(geo.houses) * n)
    for h, cells in enumerate(geo.houses):
        for c in cells:
            m = cands[c]
            while m:
                low = m & -m
                counts[h * n + low.bit_length() - 1] += 1
                m ^= low
    digit_cells = cells_by_digit(board)[1:]
    house_keys, house_masks = _house_tables(geo)
    return LayerContext(board, n, counts, digit_cells, _peer_masks(geo), house_keys, house_masks)


@functools.cache
def _peer_masks(geo: Geometry) -> tuple[int, ...]:
    """Return ``peer_masks(geo)``, made once per geometry."""
    return peer_masks(geo)


@functools.cache
def _house_tables(geo: Geometry) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Return per cell its houses times the size, and per house the bit mask of its cells.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> keys, masks = _house_tables(CLASSIC)
    >>> [k // 9 for k in keys[10]], bin(masks[0])  # r2c2: row 2, column 2, box 1
    ([1, 10, 18], '0b111111111')
    """
    keys = tuple(tuple(h * geo.size for h in houses) for houses in geo.houses_of)
    masks = []
    for cells in geo.houses:
        m = 0
        for c in cells:
            m |= 1 << c
        masks.append(m)
    return keys, tuple(masks)
