"""SE's nested forcing chains (9.5, 10.0, ...): dynamic chains with chains as extra rules.

SE's nested levels add, to the dynamic chains (+) and after their patterns, its own chain
searches as rules run on the candidates each assumption leaves, the first that finds
something giving all it finds, easiest first:

- level 2 (9.5): forcing chains (static, X and Y links);
- level 3 (10.0): forcing chains, then multiple forcing chains (static cell and region chains);
- level 4 (10.5): dynamic forcing chains (contradiction, double, cell and region chains);
- level 5 (11.0): dynamic forcing chains, then a nested search of its own.

A potential such an inner chain finds off rests on the candidates the outer assumption removed
where the inner chain used them (a chain that uses none is a chain of the puzzle itself, left
out), and a conclusion adds each inner chain's complexity once to its own.

Approximated, to keep the nesting affordable: :class:`NestedForcing` follows the static rules
from each candidate left to its opposite, bounded to ``INNER_LIMIT`` potentials (two more a
level above 2), without SE's bidirectional cycles; :class:`NestedChains` is the search of
``search`` on the candidates left, all its conclusions kept; level 5's own nested search is the
dynamic chains (+) (patterns, no inner chains).

A budget of work (:data:`NESTED_WORK`, counted in searches, not seconds, so a rating is the
same on every machine) bounds a nested search, whose cost grows fast: past it, the search
yields the easiest chain found so far, or looks on until it finds one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.techniques.chaining.dynamic import dynamic_plus
from xlsudoku.engine.techniques.chaining.forcing import shortest_forcing_chain
from xlsudoku.engine.techniques.chaining.implication import (
    DYNAMIC_CHAINS,
    MULTIPLE_CHAINS,
    Budget,
    ChainKind,
    Derived,
    ExtraRule,
    Implications,
    NestedChain,
    Outcome,
)
from xlsudoku.engine.techniques.chaining.links import Links
from xlsudoku.engine.techniques.chaining.potential import Candidate, Potential
from xlsudoku.engine.techniques.chaining.rating import (
    FORCING_X_CHAIN,
    XY_CHAIN,
    length_increment,
    nested_base,
)
from xlsudoku.engine.techniques.chaining.search import ChainSearch, Found

# Inner forcing chains of nested levels rest on at most this many potentials (see above).
INNER_LIMIT = 10
# The work a nested search spends (from its start) before it settles for the easiest chain
# found so far.  Units: about one inner forcing chain search; each candidate left costs 1 to
# the inner forcing chains, INNER_MULTIPLE_COST to the inner multiple forcing chains and
# INNER_DYNAMIC_COST to the inner dynamic ones, a round of the extra rules on the candidates
# an outer assumption leaves implication.EXTRA_RULES_COST.
NESTED_WORK = 430_000
INNER_DYNAMIC_COST = 5
INNER_MULTIPLE_COST = 2

_SUFFIX = {2: " (+ Forcing Chains)", 3: " (+ Multiple Forcing Chains)"}


def nested_kind(level: int, patterns: tuple[ExtraRule, ...]) -> ChainKind:
    """Return SE's dynamic chains nested to *level* (2-5), *patterns* their first extra rules.

    >>> kind = nested_kind(4, ())
    >>> kind.base_score, [type(rule).__name__ for rule in kind.extra_rules]
    (105, ['NestedChains'])
    """
    rules: tuple[ExtraRule, ...]
    if level < 4:
        rules = (NestedForcing(INNER_LIMIT + 2 * (level - 2)),)
        if level == 3:
            rules += (NestedChains(MULTIPLE_CHAINS, INNER_MULTIPLE_COST),)
    else:
        rules = (NestedChains(DYNAMIC_CHAINS, INNER_DYNAMIC_COST),)
        if level >= 5:
            rules += (NestedChains(dynamic_plus(patterns), INNER_DYNAMIC_COST),)
    return ChainKind(
        f"Dynamic Forcing Chains{_SUFFIX.get(level, '')}",
        Technique.NESTED_FORCING_CHAINS,
        nested_base(level),
        dynamic=True,
        extra_rules=patterns + rules,
    )


def _undecided(
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


# The key of the inner forcing chains' searches on some candidates left (see NestedForcing).
_STARTS = "nested forcing starts"


@dataclass(frozen=True, slots=True)
class _Starts:
    """The searches of the inner forcing chains on some candidates left, up to *limit*.

    Per start (a potential): the chain found (the same under any limit it fits), or cut by
    *limit*; *dead* holds the potentials from which no chain leads to their opposite at all.
    """

    limit: int
    chains: dict[Potential, list[Potential]]
    cut: set[Potential]
    dead: set[Potential]


@dataclass(frozen=True, slots=True)
class NestedForcing:
    """Forcing chains on the candidates left, of at most *limit* potentials (see above)."""

    limit: int

    def __call__(self, engine: Implications, left: Board) -> list[Derived]:
        """Return the eliminations of the inner forcing chains that use a new link."""
        links_left = engine.left_links(left)
        links = engine.links
        n = links.size
        limit = self.limit
        source = links.cands
        cands = left.cands
        houses = links.houses
        counts = links_left.counts
        # links that exist only on the candidates left: a chain without one is a chain of the
        # puzzle itself, which SE leaves out (its pattern rests on nothing the assumption did)
        new_links: dict[tuple[Candidate, Candidate], tuple[Potential, ...]] = {}
        src_counts = links.counts
        for h, cells in enumerate(houses):
            for d in range(n):
                if counts[h * n + d] == 2 and src_counts[h * n + d] > 2:
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
        # what each candidate left makes off when on, and on when off (SE's orders)
        on_off = links_left.xy_off
        off_on = links_left.off_on(True, True)

        # a chain without a new link is left out: a start whose opposite is no nearer the new
        # links than that allows has none (nor has a potential an earlier search exhausted)
        near = _near_links(new_links, on_off, off_on, (limit - 2) // 2)
        off_of, on_of = links_left.off_potentials(True), links_left.on_potentials(True, True)
        # the searches of another limit on the same candidates left (the level below or
        # above): what they found, and where they ran out, holds for this limit too
        key = (_STARTS, cands)
        known = cast("_Starts | None", links.memo.get(key))
        if known is None:
            known = _Starts(0, {}, set(), set())
        chains: dict[Potential, list[Potential]] = {}
        cut: set[Potential] = set()
        dead = set(known.dead)  # no chain leads from these to their opposite
        out: list[Derived] = []
        for cell, m, d in _undecided(engine, cands, 1):
            for start_on in (True, False):
                first = (cell * n + d) * 2 + start_on
                if first in dead or first ^ 1 not in near:
                    continue
                chain = known.chains.get(first)
                if chain is not None:
                    chains[first] = chain
                    if len(chain) > limit:
                        continue
                elif first in known.cut and limit <= known.limit:
                    continue
                else:
                    chain = shortest_forcing_chain(
                        cell * n + d, start_on, off_of, on_of, limit, dead
                    )
                    if chain is None:
                        if first not in dead:  # the limit cut it, not the potentials
                            cut.add(first)
                        continue
                    chains[first] = chain
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
                    nested_chain = ((0, *chain), len(chain))
                    out += [(g, tuple(parents), nested_chain) for g in targets]
        if limit > known.limit:
            links.memo[key] = _Starts(limit, chains, cut, dead)
        # SE applies the inner chains easiest first (a forcing X-chain before an XY one, then
        # the shorter): a potential several remove rests on the easiest
        out.sort(key=lambda found: _forcing_key(found[2], n))
        return out


@dataclass(frozen=True, slots=True)
class NestedChains:
    """Every chain of *inner* on the candidates left, easiest first (SE's nested rules).

    The search of ``search`` for *inner* (cell, region, contradiction and double chains), all
    its conclusions kept; each removes what it proves, resting on the candidates the outer
    assumption removed where its chains used them (the cells whose last digit, the houses
    whose last place came on, and the cell or house of its assumptions).  *cost* is the work
    spent per candidate left.
    """

    inner: ChainKind
    cost: int

    def __call__(self, engine: Implications, left: Board) -> list[Derived]:
        """Return the eliminations of the inner chains that rest on the outer assumption."""
        links_left = engine.left_links(left)
        links = engine.links
        n = links.size
        cands = left.cands
        engine.budget.spend(self.cost * sum(m.bit_count() for m in cands if m.bit_count() > 1))
        # the inner outcomes that see no candidate the outer assumption removed are those of
        # the puzzle's candidates, computed once for every outer assumption (rules of its own
        # would see the whole board)
        if self.inner.extra_rules:
            inner = Implications(links_left, self.inner, Budget(None))
        else:
            inner = engine.inner(self.inner, links_left)
        search = ChainSearch(left, self.inner, Budget(None), collect=True, engine=inner)
        search.run()
        out: list[Derived] = []
        for found in sorted(search.collected, key=lambda found: found.key[:3]):
            bits = 0  # the outer off potentials the chains rest on (bit p for potential p)
            for o, p, ps in found.branches:
                removed_by = _removed_ancestry(links, o, cands)
                if p in o.facts:
                    bits |= removed_by[p]
                for q in ps:
                    bits |= removed_by[q]
            for q in _origin_parents(links, found, cands):
                bits |= 1 << q
            if not bits:
                continue  # a chain of the puzzle itself
            parents = []
            while bits:
                low = bits & -bits
                parents.append(low.bit_length() - 1)
                bits ^= low
            cell, d = divmod(found.target >> 1, n)
            chain = ((2, found.form, *found.origin, found.target), found.key[1])
            if found.target & 1:
                removed = [(cell * n + e) * 2 for e in range(n) if e != d and cands[cell] >> e & 1]
            else:
                removed = [found.target]
            out += [(g, tuple(parents), chain) for g in removed]
        return out


def _origin_parents(links: Links, found: Found, cands: tuple[int, ...]) -> list[Potential]:
    """Return the candidates the outer assumption removed from a cell or region chain's origin.

    SE counts the assumptions of a cell chain as its cell's last digits, those of a region
    chain as the last places of its digit in the house.
    """
    n = links.size
    source = links.cands
    if len(found.origin) == 1:
        (cell,) = found.origin
        gone = source[cell] & ~cands[cell]
        return [(cell * n + e) * 2 for e in range(n) if gone >> e & 1]
    if len(found.origin) == 2:
        house, d = found.origin
        bit = 1 << d
        cells = links.houses[house]
        return [(c * n + d) * 2 for c in cells if source[c] & bit and not cands[c] & bit]
    return []


def _forcing_key(inner: NestedChain | None, n: int) -> tuple[int, int]:
    """Return SE's order of an inner forcing chain: its rating (X-chain or not), its length."""
    if inner is None:
        return (0, 0)
    identity, complexity = inner
    digits = {(f >> 1) % n for f in identity[1:]}
    base = FORCING_X_CHAIN if len(digits) == 1 else XY_CHAIN
    return (base + length_increment(complexity), complexity)


def _removed_ancestry(links: Links, o: Outcome, cands: tuple[int, ...]) -> dict[Potential, int]:
    """Return, per potential of an inner outcome, the outer off potentials it rests on (bits).

    Each on potential among a potential's ancestors (itself included) that came on as a cell's
    last digit rests on the digits the outer assumption removed from the cell; one that came
    on as the last place of its digit in a house, on the places it removed from that house.
    Made once per outcome: an outcome reused on other candidates left saw none that differ,
    so its potentials rest on the same ones.
    """
    got = o.removed
    if got is not None:
        return got
    n = links.size
    source = links.cands
    facts = o.facts
    got = o.removed = {}
    for f, parents in facts.items():
        bits = 0
        for q in parents:
            bits |= got[q]
        if f & 1 and parents:
            cell, d = divmod(f >> 1, n)
            cause = parents[0] >> 1
            if cause // n == cell:  # the cell's last digit
                gone = source[cell] & ~cands[cell]
                for e in range(n):
                    if gone >> e & 1:
                        bits |= 1 << (cell * n + e) * 2
            else:
                bit = 1 << d
                for h in links.se_houses[cell]:  # the house where it is the digit's last place
                    cells = links.houses[h]
                    if (cause // n) not in cells:
                        continue
                    if all(
                        c == cell or not cands[c] & bit or (c * n + d) * 2 in facts for c in cells
                    ):
                        for c in cells:
                            if source[c] & bit and not cands[c] & bit:
                                bits |= 1 << (c * n + d) * 2
                        break
        got[f] = bits
    return got


def _near_links(
    links: dict[tuple[Candidate, Candidate], tuple[Potential, ...]],
    on_off: Sequence[tuple[Candidate, ...]],
    off_on: Sequence[tuple[Candidate, ...]],
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
                for q in on_off[f >> 1]:
                    g = q * 2
                    if g not in reached:
                        reached.add(g)
                        step.append(g)
            else:
                for q in off_on[f >> 1]:
                    g = q * 2 + 1
                    if g not in reached:
                        reached.add(g)
                        step.append(g)
        frontier = step
    return reached
