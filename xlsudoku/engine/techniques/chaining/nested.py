"""SE's nested forcing chains (9.5, 10.0, ...): dynamic chains with chains as extra rules.

SE's nested levels add, to the dynamic chains (+), its own chain searches as rules run on the
candidates each assumption leaves: forcing chains (level 2, 9.5), multiple forcing chains
(level 3, 10.0), dynamic forcing chains (level 4, 10.5) and dynamic chains (+) (level 5,
11.0).  A potential such an inner chain finds off rests on the candidates the outer assumption
removed where the inner chain used them, and adds the inner chain's complexity to the outer.

Approximated, to keep the nesting affordable:

- :class:`NestedForcing` (levels 2 and up): each candidate left is assumed on and off and the
  plain static rules followed to its opposite (:func:`~.forcing.shortest_forcing_chain`),
  bounded to ``INNER_LIMIT`` potentials (two more a level above 2).  A chain without a link
  that exists only on the candidates left is a chain of the puzzle itself, left out.
- :class:`NestedDynamic` (levels 4 and 5, when those find nothing): each candidate left is
  assumed on and off and followed by the dynamic rules (with the patterns at level 5) on the
  candidates left; a contradiction removes the assumption.

A budget of work (:data:`NESTED_WORK`, counted in searches, not seconds, so a rating is the
same on every machine) bounds a nested search, whose cost grows fast: past it, the search
yields the easiest chain found so far, or looks on until it finds one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.techniques.chaining.dynamic import dynamic_plus
from xlsudoku.engine.techniques.chaining.forcing import shortest_forcing_chain
from xlsudoku.engine.techniques.chaining.implication import (
    DYNAMIC_CHAINS,
    ChainKind,
    Derived,
    ExtraRule,
    Implications,
    Outcome,
)
from xlsudoku.engine.techniques.chaining.links import Links
from xlsudoku.engine.techniques.chaining.potential import Candidate, Potential
from xlsudoku.engine.techniques.chaining.rating import nested_base

# Inner forcing chains of nested levels rest on at most this many potentials (see above).
INNER_LIMIT = 10
# The work a nested search spends (from its start) before it settles for the easiest chain
# found so far.  Units: about one inner forcing chain search; each candidate an inner search
# starts from costs 1, an inner dynamic contradiction search INNER_DYNAMIC_COST, a round of the
# extra rules on the candidates an outer assumption leaves implication.EXTRA_RULES_COST.
NESTED_WORK = 430_000
INNER_DYNAMIC_COST = 5

_SUFFIX = {2: " (+ Forcing Chains)", 3: " (+ Multiple Forcing Chains)"}


def nested_kind(level: int, patterns: tuple[ExtraRule, ...]) -> ChainKind:
    """Return SE's dynamic chains nested to *level* (2-5), *patterns* their first extra rules.

    >>> kind = nested_kind(4, ())
    >>> kind.base_score, [type(rule).__name__ for rule in kind.extra_rules]
    (105, ['NestedForcing', 'NestedDynamic'])
    """
    rules: tuple[ExtraRule, ...] = (NestedForcing(INNER_LIMIT + 2 * (level - 2)),)
    if level >= 4:
        inner = DYNAMIC_CHAINS if level == 4 else dynamic_plus(patterns)
        rules += (NestedDynamic(inner),)
    return ChainKind(
        f"Dynamic Forcing Chains{_SUFFIX.get(level, '')}",
        Technique.NESTED_FORCING_CHAINS,
        nested_base(level),
        dynamic=True,
        extra_rules=patterns + rules,
    )


def _open(
    engine: Implications, cands: tuple[int, ...], cost: int
) -> Iterator[tuple[Cell, int, int]]:
    """Yield ``(cell, candidates, digit index)`` for each candidate of a cell not yet decided.

    Each candidate spends *cost* units of the engine's budget, a cell's at once after it:
    between cells, a search with a conclusion in hand stops when the work runs out.
    """
    n = engine.links.size
    for cell, m in enumerate(cands):
        if m.bit_count() < 2:
            continue
        for d in range(n):
            if m >> d & 1:
                yield cell, m, d
        engine.budget.spend(cost * m.bit_count())


@dataclass(frozen=True, slots=True)
class NestedForcing:
    """Forcing chains on the candidates left, of at most *limit* potentials (see above)."""

    limit: int

    def __call__(self, engine: Implications, left: Board) -> list[Derived]:
        """Return the eliminations of the inner forcing chains that use a new link."""
        links = engine.links
        n = links.size
        limit = self.limit
        source = links.cands
        cands = left.cands
        x_off, y_off = links.x_off, links.y_off
        houses = links.houses
        se_houses = links.se_houses
        counts: dict[int, int] = {}
        for h, cells in enumerate(houses):
            for c in cells:
                m = cands[c]
                while m:
                    low = m & -m
                    key = h * n + low.bit_length() - 1
                    counts[key] = counts.get(key, 0) + 1
                    m ^= low
        # links that exist only on the candidates left: a chain without one is a chain of the
        # puzzle itself, which SE leaves out (its pattern rests on nothing the assumption did)
        new_links: dict[tuple[Candidate, Candidate], tuple[Potential, ...]] = {}
        src_counts = links.counts
        for h, cells in enumerate(houses):
            for d in range(n):
                if counts.get(h * n + d) == 2 and src_counts[h * n + d] > 2:
                    bit = 1 << d
                    two = [c for c in cells if cands[c] & bit]
                    gone = tuple(
                        (c * n + d) * 2 for c in cells if source[c] & bit and not cands[c] & bit
                    )
                    a, b = two[0] * n + d, two[1] * n + d
                    new_links[(a, b)] = new_links[(b, a)] = gone
        for cell, m in enumerate(cands):
            if m.bit_count() == 2 and source[cell].bit_count() > 2:
                low = m & -m
                a, b = cell * n + low.bit_length() - 1, cell * n + (m ^ low).bit_length() - 1
                gone = tuple(
                    (cell * n + e) * 2 for e in range(n) if source[cell] >> e & 1 and not m >> e & 1
                )
                new_links[(a, b)] = new_links[(b, a)] = gone
        if not new_links:
            return []

        # what each candidate left makes off when on, and on when off (SE's orders), built
        # when a search first needs it and looked up through dict methods (cheaper than calls)
        def makes_off(p: Candidate) -> tuple[Candidate, ...]:
            return tuple(q for q in y_off[p] + x_off[p] if cands[q // n] >> (q % n) & 1)

        def makes_on(p: Candidate) -> tuple[Candidate, ...]:
            cell, d = divmod(p, n)
            m = cands[cell]
            low = 1 << d
            made = [cell * n + (m ^ low).bit_length() - 1] if m.bit_count() == 2 else []
            for h in se_houses[cell]:
                if counts.get(h * n + d) == 2:
                    for c in houses[h]:
                        if c != cell and cands[c] & low:
                            if c * n + d not in made:
                                made.append(c * n + d)
                            break
            return tuple(made)

        on_off = _Memo(makes_off).__getitem__
        off_on = _Memo(makes_on).__getitem__

        # a chain without a new link is left out: a start whose opposite is no nearer the new
        # links than that allows has none (nor has a potential an earlier search exhausted)
        near = _near_links(new_links, on_off, off_on, (limit - 2) // 2)
        out: list[Derived] = []
        dead: set[Potential] = set()  # no chain leads from these to their opposite
        for cell, m, d in _open(engine, cands, 1):
            for start_on in (True, False):
                first = (cell * n + d) * 2 + start_on
                if first in dead or first ^ 1 not in near:
                    continue
                chain = shortest_forcing_chain(cell * n + d, start_on, on_off, off_on, limit, dead)
                if chain is None:
                    continue
                end = chain[-1]
                ecell, ed = divmod(end >> 1, n)
                targets = (
                    [(ecell * n + e) * 2 for e in range(n) if e != ed and m >> e & 1]
                    if end & 1
                    else [end]
                )
                parents: dict[Potential, None] = {}
                for f, g in zip(chain, chain[1:], strict=False):
                    if not f & 1 and g & 1:
                        parents.update(dict.fromkeys(new_links.get((f >> 1, g >> 1), ())))
                if parents:
                    out += [(g, tuple(parents), len(chain)) for g in targets]
        return out


@dataclass(frozen=True, slots=True)
class NestedDynamic:
    """Dynamic contradictions by the rules of *inner* on the candidates left (see above)."""

    inner: ChainKind

    def __call__(self, engine: Implications, left: Board) -> list[Derived]:
        """Return the eliminations of the inner contradictions that rest on the assumption.

        A contradiction rests on the candidates the outer assumption removed wherever a
        potential of its chains came on as the last digit of a cell or the last place of a
        digit in a house; one that rests on none is a chain of the puzzle itself, which the
        plain dynamic chains rated lower would have found.
        """
        links = engine.links
        n = links.size
        source = links.cands
        cands = left.cands
        inner = Implications(Links.of(left), self.inner)
        out: list[Derived] = []
        # plain inner rules: an assumption whose chains see no changed candidate can be skipped
        exact = not self.inner.extra_rules
        if exact:
            changed_cells = changed_keys = 0
            for cell, m in enumerate(cands):
                gone = source[cell] & ~m
                if gone:
                    changed_cells |= 1 << cell
                    for h in links.se_houses[cell]:
                        changed_keys |= gone << (h * n)
        for cell, m, d in _open(engine, cands, INNER_DYNAMIC_COST):
            s = cell * n + d
            # in a cell of two digits, one off is the other on: its contradiction removes
            # the same candidate, resting on one potential more
            for first in (s * 2 + 1,) if m.bit_count() == 2 else (s * 2 + 1, s * 2):
                if exact:
                    cells_hit, keys_hit = _touched(engine, first)
                    if not (cells_hit & changed_cells or keys_hit & changed_keys):
                        continue  # the same chains as on the puzzle's candidates
                o = inner.outcome(first)
                if o.contradiction is None:
                    continue
                a, pa, b, pb = o.contradiction
                parents = _inner_parents(links, o, (a, b, *pa, *pb), cands)
                if not parents:
                    continue
                c = o.contradiction_complexity()
                if first & 1:
                    out.append((s * 2, parents, c))
                else:
                    out += [
                        ((cell * n + e) * 2, parents, c) for e in range(n) if e != d and m >> e & 1
                    ]
        return out


def _touched(engine: Implications, first: Potential) -> tuple[int, int]:
    """Return the cells and the (house, digit) keys the plain dynamic chains of *first* see.

    The chains look only at the candidates of the cells of their potentials and at the places
    of their digits in those cells' houses: on candidates that differ from the puzzle's nowhere
    there, they are the same as on the puzzle's candidates.  A bit per cell, and per
    ``house * size + digit - 1``.
    """
    outcome = engine.plain().outcome(first)
    got = outcome.footprint
    if got is None:
        n = engine.links.size
        se_houses = engine.links.se_houses
        cells_hit = keys_hit = 0
        for f in outcome.facts:
            cell, d = divmod(f >> 1, n)
            cells_hit |= 1 << cell
            for h in se_houses[cell]:
                keys_hit |= 1 << (h * n + d)
        got = outcome.footprint = (cells_hit, keys_hit)
    return got


def _inner_parents(
    links: Links, o: Outcome, start: tuple[Potential, ...], cands: tuple[int, ...]
) -> tuple[Potential, ...]:
    """Return the outer off potentials an inner outcome's potentials *start* rest on.

    Each on potential among their ancestors that came on as a cell's last digit rests on the
    digits the outer assumption removed from the cell; one that came on as the last place of
    its digit in a house, on the places it removed from that house.
    """
    n = links.size
    source = links.cands
    facts = o.facts
    seen: set[Potential] = set()
    todo = list(start)
    found: dict[Potential, None] = {}
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        parents = facts.get(f, ())
        todo.extend(parents)
        if not f & 1 or not parents:
            continue
        cell, d = divmod(f >> 1, n)
        cause = parents[0] >> 1
        if cause // n == cell:  # the cell's last digit
            gone = source[cell] & ~cands[cell]
            for e in range(n):
                if gone >> e & 1:
                    found[(cell * n + e) * 2] = None
            continue
        bit = 1 << d
        for h in links.se_houses[cell]:  # the house where it is the digit's last place
            cells = links.houses[h]
            if (cause // n) not in cells:
                continue
            if all(c == cell or not cands[c] & bit or (c * n + d) * 2 in facts for c in cells):
                for c in cells:
                    if source[c] & bit and not cands[c] & bit:
                        found[(c * n + d) * 2] = None
                break
    return tuple(found)


class _Memo(dict[int, tuple[int, ...]]):
    """A dict that computes a missing key's value once, by *make* (lookups stay dict lookups)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], tuple[int, ...]]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> tuple[int, ...]:
        got = self[key] = self.make(key)
        return got


def _near_links(
    links: dict[tuple[Candidate, Candidate], tuple[Potential, ...]],
    on_off: Callable[[Candidate], tuple[Candidate, ...]],
    off_on: Callable[[Candidate], tuple[Candidate, ...]],
    steps: int,
) -> set[Potential]:
    """Return the potentials at most *steps* links from a candidate of *links* being on.

    The links go both ways (``f -> g`` exactly when ``not g -> not f``), so a chain from a
    potential ``f`` to its opposite through the link ``a off -> b on`` runs ``f`` to ``a off``
    (as many links as ``a on`` to ``not f``), then ``b on`` to ``not f``: with at most
    ``2 * steps + 2`` potentials, ``not f`` is among those returned.
    """
    reached = {a * 2 + 1 for a, _ in links}
    frontier = list(reached)
    for _ in range(steps):
        step: list[Potential] = []
        for f in frontier:
            if f & 1:
                for q in on_off(f >> 1):
                    g = q * 2
                    if g not in reached:
                        reached.add(g)
                        step.append(g)
            else:
                for q in off_on(f >> 1):
                    g = q * 2 + 1
                    if g not in reached:
                        reached.add(g)
                        step.append(g)
        frontier = step
    return reached
