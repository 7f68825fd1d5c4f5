"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS chains, Death Blossom and the big wings.

An *almost locked set* (ALS) is n unsolved cells of one house holding n + 1 digits between
them (a cell with two candidates is the smallest).  If one of its digits is taken away, the
other n fill its n cells.  Two ALSs A and B are linked by a *restricted common* digit x when
their places of x are distinct cells that all see each other: x is then in A or in B or in
neither, never in both.  (The ALSs may share other cells.)

- ALS-XZ: A and B with a restricted common x and another common digit z.  If x is not in A,
  A's other digits fill A, so z is in A; otherwise x is not in B and z is in B.  Either way z
  is in A or B: a cell that sees every z of both cannot be z.  With two restricted commons
  (doubly linked) each ALS keeps all its other digits: a cell that sees all of one of them in
  an ALS cannot hold it, and the two linking digits go from cells that see them in A and B.
- ALS-XY-Wing: A and B both linked to a third ALS C, by x and y (x != y), share z: if z is
  in neither, A holds x and B holds y, so C holds neither: impossible.  A cell seeing every z
  of A and B cannot be z.
- ALS chain: A1 - A2 - ... - An linked by restricted commons, no two neighbouring links on the
  same digit; z common to A1 and An (not their links) goes from cells seeing all of it.
- ALS AIC: grouped alternating inference chains whose nodes may also be ALSs (the chain search
  is the chaining package's).
- Death Blossom: a stem cell whose every candidate d is linked to an ALS (petal) whose
  places of d all see the stem; the stem holds one of them, which empties that petal of d and
  locks it: a digit z in every petal (not a stem digit) goes from cells seeing all its places.
- WXYZ- to TUVWXYZ-Wing (SukakuExplainer): an ALS-XZ whose smaller ALS is a cell with two
  candidates and whose larger ALS has 3 to 6 cells.  Each wing carries SukakuExplainer's
  rating (:func:`wing_rating`).

Searches are bounded by the size of the ALSs (*max_size* cells) and, for chains, the number of
links; each set of eliminations is yielded once per finder.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit, Geometry, House
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.steps import Elimination, Step, Technique
from xlsudoku.engine.techniques.chaining.aic import find_locked_set_aic


@functools.cache
def _peer_bits(geo: Geometry) -> tuple[int, ...]:
    """Return, for every cell, its peers as a bit mask over cells."""
    return tuple(sum(1 << p for p in geo.peers[cell]) for cell in range(geo.cell_count))


def _cells_of(mask: int) -> Iterator[Cell]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True, slots=True)
class Als:
    """An almost locked set: *cells* (bit mask) of *house* holding *digits* (one more).

    *places[d - 1]* is the mask of its cells holding digit d, *sees[d - 1]* the mask of the
    cells outside it that see every one of those places.
    """

    cells: int
    digits: int
    house: House
    places: tuple[int, ...]
    sees: tuple[int, ...]

    @property
    def size(self) -> int:
        """Return the number of cells."""
        return self.cells.bit_count()


@functools.lru_cache(maxsize=4)
def almost_locked_sets(board: Board, max_size: int = 6) -> tuple[Als, ...]:
    """Return every ALS of at most *max_size* cells, smallest first (each cell set once).

    The ALS finders of one board (and the big wings, at different places in the table) share
    this, so it is kept for the last few boards (pure results of a frozen board).

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 36: (1, 3), 40: (2, 3)})
    >>> [(a.size, digits_of(a.digits)) for a in almost_locked_sets(b, 6)]
    [(1, (1, 2)), (1, (1, 3)), (1, (2, 3)), (2, (1, 2, 3)), (2, (1, 2, 3))]
    """
    geo = board.geometry
    values = board.values
    peer_bits = _peer_bits(geo)
    found: dict[int, Als] = {}
    for house, members in enumerate(geo.houses):
        empty_cells = [c for c in members if not values[c]]
        limit = min(max_size, len(empty_cells) - 1)
        # depth first over growing cell sets: (next index, cells, digits, size)
        stack = [(0, 0, 0, 0)]
        while stack:
            start, cells, digits, size = stack.pop()
            for i in range(start, len(empty_cells)):
                c = empty_cells[i]
                wider = digits | board.cands[c]
                if wider.bit_count() > limit + 1:
                    continue
                mask = cells | 1 << c
                if wider.bit_count() == size + 2 and mask not in found:
                    found[mask] = _als(board, mask, wider, house, peer_bits)
                if size + 1 < limit:
                    stack.append((i + 1, mask, wider, size + 1))
    return tuple(sorted(found.values(), key=lambda a: (a.size, a.cells)))


def _als(board: Board, cells: int, digits: int, house: House, peer_bits: tuple[int, ...]) -> Als:
    cands = board.cands
    n = board.geometry.size
    places = [0] * n
    for c in _cells_of(cells):
        m = cands[c]
        while m:
            low = m & -m
            places[low.bit_length() - 1] |= 1 << c
            m ^= low
    sees = []
    for d in range(n):
        seen = -1 if places[d] else 0
        for c in _cells_of(places[d]):
            seen &= peer_bits[c]
        sees.append(seen & ~cells if places[d] else 0)
    return Als(cells, digits, house, tuple(places), tuple(sees))


def _restricted(a: Als, b: Als) -> int:
    """Return the mask of the restricted common digits of two ALSs (places disjoint, all seen)."""
    common = a.digits & b.digits
    found = 0
    while common:
        low = common & -common
        common ^= low
        d = low.bit_length() - 1
        if not b.places[d] & ~a.sees[d]:
            found |= low
    return found


def _names(board: Board, cells: list[Cell]) -> str:
    names = [board.geometry.cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _describe(board: Board, als: Als) -> str:
    """Return ``r1c2 and r1c5 {1,4,7}`` for an ALS."""
    geo = board.geometry
    digits = ",".join(geo.digit_char(d) for d in digits_of(als.digits))
    return f"{_names(board, list(_cells_of(als.cells)))} {{{digits}}}"


def _elims_text(board: Board, elims: list[Elimination]) -> str:
    by_digit: dict[Digit, list[Cell]] = {}
    for e in elims:
        by_digit.setdefault(e.digit, []).append(e.cell)
    geo = board.geometry
    return "; ".join(
        f"{_names(board, cells)} cannot be {geo.digit_char(d)}"
        for d, cells in sorted(by_digit.items())
    )


def _targets(board: Board, digit_cells: list[int], mask: int, digit: Digit) -> list[Elimination]:
    return [Elimination(c, digit) for c in _cells_of(mask & digit_cells[digit - 1])]


def _digit_cells(board: Board) -> list[int]:
    """Return, for every digit (index digit - 1), the bit mask of cells holding it."""
    found = [0] * board.geometry.size
    for cell, m in enumerate(board.cands):
        while m:
            low = m & -m
            found[low.bit_length() - 1] |= 1 << cell
            m ^= low
    return found


def _xz_eliminations(
    board: Board, a: Als, b: Als, rcc: int, digit_cells: list[int]
) -> list[Elimination]:
    """Return what ALS-XZ on *a* and *b* with the restricted commons *rcc* eliminates."""
    n = board.geometry.size
    found: dict[tuple[Cell, Digit], None] = {}
    both = a.cells | b.cells
    if rcc.bit_count() == 1:
        for d in range(n):
            bit = 1 << d
            if a.digits & b.digits & bit and not rcc & bit:
                for e in _targets(board, digit_cells, a.sees[d] & b.sees[d] & ~both, d + 1):
                    found[(e.cell, e.digit)] = None
    else:
        for als in (a, b):
            for d in range(n):
                bit = 1 << d
                if als.digits & bit and not rcc & bit:
                    for e in _targets(board, digit_cells, als.sees[d] & ~both, d + 1):
                        found[(e.cell, e.digit)] = None
        for d in range(n):
            if rcc >> d & 1:
                for e in _targets(board, digit_cells, a.sees[d] & b.sees[d] & ~both, d + 1):
                    found[(e.cell, e.digit)] = None
    return [Elimination(c, d) for c, d in sorted(found, key=lambda k: (k[1], k[0]))]


def find_als_xz(board: Board, max_size: int = 6) -> Iterator[Step]:
    """Yield every ALS-XZ (singly or doubly linked) on ALSs of at most *max_size* cells.

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 36: (1, 3), 40: (2, 3)})
    >>> print(next(find_als_xz(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    ALS-XZ: r1c1 {1,2} and r5c1 and r5c5 {1,2,3} are almost locked sets; 1 is a restricted
    common (its places in the two see each other, so at most one holds it), so the other is
    left with just enough digits for its cells and 2 is in one of them: r1c5 cannot be 2
    """
    sets, links = als_graph(board, max_size)
    digit_cells = _digit_cells(board)
    seen: set[frozenset[Elimination]] = set()
    for i, a in enumerate(sets):
        for j, rcc in links[i]:
            b = sets[j]
            if j < i or a.cells & b.cells or (a.digits & b.digits).bit_count() < 2:
                continue
            if rcc.bit_count() > 2:
                continue  # impossible in a valid grid: three restricted digits need 3 cells
            elims = _xz_eliminations(board, a, b, rcc, digit_cells)
            if not elims:
                continue
            key = frozenset(elims)
            if key in seen:
                continue
            seen.add(key)
            yield _xz_step(board, Technique.ALS_XZ, a, b, rcc, elims)


def _xz_step(
    board: Board,
    technique: Technique,
    a: Als,
    b: Als,
    rcc: int,
    elims: list[Elimination],
    rating: float = 0.0,
) -> Step:
    geo = board.geometry
    x = ", ".join(geo.digit_char(d) for d in digits_of(rcc))
    doubly = rcc.bit_count() == 2
    if doubly:
        why = (
            f"both {x} are restricted commons (each in one ALS at most, and both needed), "
            "so each ALS keeps all its other digits"
        )
    else:
        z = ", ".join(geo.digit_char(d) for d in digits_of(a.digits & b.digits & ~rcc))
        why = (
            f"{x} is a restricted common (its places in the two see each other, so at most one "
            f"holds it), so the other is left with just enough digits for its cells and {z} is "
            "in one of them"
        )
    name = "ALS-XZ" if technique is Technique.ALS_XZ else technique.value
    return Step(
        technique,
        (),
        tuple(elims),
        tuple(sorted(_cells_of(a.cells | b.cells))),
        (a.house, b.house),
        digits_of(a.digits | b.digits),
        f"{name}{' (doubly linked)' if doubly else ''}: {_describe(board, a)} and "
        f"{_describe(board, b)} are almost locked sets; {why}: {_elims_text(board, elims)}",
        rating,
    )


Links = tuple[tuple[tuple[int, int], ...], ...]


@functools.lru_cache(maxsize=4)
def als_graph(board: Board, max_size: int) -> tuple[tuple[Als, ...], Links]:
    """Return the ALSs of at most *max_size* cells and, for each, the ALSs linked to it.

    A link is ``(other index, restricted common mask)``; linked ALSs may share cells (never a
    restricted common's places: those would not see each other).  The ALS finders of one board
    share this, the costliest part of their search (hence the small cache of pure results).

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 36: (1, 3), 40: (2, 3)})
    >>> sets, links = als_graph(b, 6)
    >>> [(_describe(b, sets[j]), digits_of(rcc)) for j, rcc in links[0]]  # r1c1's links
    [('r5c1 {1,3}', (1,)), ('r5c1 and r5c5 {1,2,3}', (1,))]
    """
    sets = almost_locked_sets(board, max_size)
    n = board.geometry.size
    # per digit: the ALSs holding it, and per cell the ALSs with a place of it there (bit sets
    # over ALS indices), so that each ALS finds its partners without a loop over all pairs
    holding = [0] * n
    placed_at: list[dict[Cell, int]] = [{} for _ in range(n)]
    for index, als in enumerate(sets):
        bit = 1 << index
        for x in range(n):
            if als.places[x]:
                holding[x] |= bit
                where = placed_at[x]
                for c in _cells_of(als.places[x]):
                    where[c] = where.get(c, 0) | bit
    links = []
    for als in sets:
        found: dict[int, int] = {}
        for x in range(n):
            if not als.places[x]:
                continue
            inside = als.sees[x]
            outside = 0  # ALSs with a place of x that does not see all of this one's
            for c, mask in placed_at[x].items():
                if not inside >> c & 1:
                    outside |= mask
            partners = holding[x] & ~outside
            while partners:
                low = partners & -partners
                partners ^= low
                j = low.bit_length() - 1
                found[j] = found.get(j, 0) | 1 << x
        links.append(tuple(sorted(found.items())))
    return sets, tuple(links)


def find_als_xy_wing(board: Board, max_size: int = 6) -> Iterator[Step]:
    """Yield every ALS-XY-Wing: A and B linked to a pivot ALS C by different digits.

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 36: (1, 3), 40: (2, 3)})
    >>> print(next(find_als_xy_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    ALS-XY-Wing: pivot r5c1 {1,3} is linked to r1c1 {1,2} by 1 and to r5c5 {2,3} by 3
    (restricted commons); if neither wing held 2, the wings would hold 1 and 3 and leave the
    pivot one digit short: r1c5 cannot be 2
    """
    geo = board.geometry
    sets, links = als_graph(board, max_size)
    digit_cells = _digit_cells(board)
    seen: set[frozenset[Elimination]] = set()
    for ci, c in enumerate(sets):
        around = links[ci]
        for p, (ai, rcc_a) in enumerate(around):
            a = sets[ai]
            for bi, rcc_b in around[p + 1 :]:
                b = sets[bi]
                common = a.digits & b.digits
                if not common:
                    continue
                for x in digits_of(rcc_a):
                    for y in digits_of(rcc_b):
                        if x == y:
                            continue
                        zs = common & ~(1 << (x - 1)) & ~(1 << (y - 1))
                        elims = []
                        for z in digits_of(zs):
                            mask = a.sees[z - 1] & b.sees[z - 1] & ~(a.cells | b.cells)
                            elims += _targets(board, digit_cells, mask, z)
                        if not elims:
                            continue
                        key = frozenset(elims)
                        if key in seen:
                            continue
                        seen.add(key)
                        cx, cy = geo.digit_char(x), geo.digit_char(y)
                        z_text = ", ".join(geo.digit_char(d) for d in digits_of(zs))
                        yield Step(
                            Technique.ALS_XY_WING,
                            (),
                            tuple(elims),
                            tuple(sorted(_cells_of(a.cells | b.cells | c.cells))),
                            (a.house, c.house, b.house),
                            digits_of(a.digits | b.digits | c.digits),
                            f"ALS-XY-Wing: pivot {_describe(board, c)} is linked to "
                            f"{_describe(board, a)} by {cx} and to {_describe(board, b)} by {cy} "
                            f"(restricted commons); if neither wing held {z_text}, the wings "
                            f"would hold {cx} and {cy} and leave the pivot one digit short: "
                            f"{_elims_text(board, elims)}",
                        )


def _states(sets: tuple[Als, ...]) -> tuple[dict[tuple[int, Digit], int], list[tuple[int, Digit]]]:
    """Return the chain states ``(ALS index, digit)`` ("the ALS holds no such digit"), numbered.

    From state (j, x), ALS j is locked on its other digits; each restricted common y != x of a
    link j-k puts y in j, so not in k: a move to state (k, y).
    """
    number: dict[tuple[int, Digit], int] = {}
    states: list[tuple[int, Digit]] = []
    for j, als in enumerate(sets):
        for d in digits_of(als.digits):
            number[(j, d)] = len(states)
            states.append((j, d))
    return number, states


def _moves(
    links: Links, number: dict[tuple[int, Digit], int], state: tuple[int, Digit]
) -> Iterator[int]:
    """Yield the states one link away from *state* (see :func:`_states`)."""
    j, x = state
    for k, rcc in links[j]:
        for y in digits_of(rcc):
            if y != x:
                yield number[(k, y)]


def find_als_chain(board: Board, max_size: int = 6, max_links: int = 6) -> Iterator[Step]:
    """Yield ALS chains of 3 to *max_links* links (4 or more ALSs), fewest links first.

    Which states a chain can reach in t links is computed for every state at once (bit sets,
    t = 1, 2, ...); a chain is only traced (breadth first) when it eliminates something.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "81972356463.85....25.69.8...2.487..9..12364..4..519....45.6..7.....75.4.76.14...5"))
    >>> print(next(find_als_chain(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    ALS Chain: r2c3 {4,7} -4- r2c6 {1,4} -1- r3c6 {1,4} -4- r3c3 {4,7} -7- back to the first (almost
    locked sets joined by restricted common digits, no two neighbouring links alike); the chain
    closes into a ring, so each ALS keeps all its digits but one of its two links and each link
    digit is in one of its two ALSs: r6c3 cannot be 7
    """
    sets, links = als_graph(board, max_size)
    digit_cells = _digit_cells(board)
    number, states = _states(sets)
    # the end states that let a chain from (a, z) eliminate z from cell t: goal[(z, t)]
    goal: dict[tuple[Digit, Cell], int] = {}
    for s, (j, y) in enumerate(states):
        als = sets[j]
        for z in digits_of(als.digits & ~(1 << (y - 1))):
            for t in _cells_of(als.sees[z - 1] & digit_cells[z - 1]):
                goal[(z, t)] = goal.get((z, t), 0) | 1 << s
    sources = []
    for s, (i, z) in enumerate(states):
        targets = sets[i].sees[z - 1] & digit_cells[z - 1]
        hits = [(t, goal[(z, t)]) for t in _cells_of(targets) if (z, t) in goal]
        if hits:
            sources.append((s, hits))
    # per ALS, its links as (digit, state reached): the state of the linked ALS lacking it
    outgoing = [
        [(y, number[(k, y)]) for k, rcc in links[j] for y in digits_of(rcc)]
        for j in range(len(sets))
    ]
    reach = [1 << s for s in range(len(states))]  # states reached in exactly t links
    seen: set[frozenset[Elimination]] = set()
    for length in range(1, max_links + 1):
        wider = [0] * len(states)
        for j, als in enumerate(sets):
            by_digit: dict[Digit, int] = {}
            for y, m in outgoing[j]:
                by_digit[y] = by_digit.get(y, 0) | reach[m]
            for x in digits_of(als.digits):
                r = 0
                for y, mask in by_digit.items():
                    if y != x:
                        r |= mask
                wider[number[(j, x)]] = r
        reach = wider
        if length < 3:
            continue
        for s, hits in sources:
            i, z = states[s]
            ends = reach[s]
            found: dict[int, list[Cell]] = {}
            for t, mask in hits:
                hit = ends & mask
                while hit:
                    low = hit & -hit
                    hit ^= low
                    e = low.bit_length() - 1
                    if states[e][0] != i and t not in found.setdefault(e, []):
                        found[e].append(t)
                        break
            for e in found:
                path = _trace(links, number, states, s, e, length)
                if path is None:
                    continue
                elims, ring = _chain_eliminations(sets, states, path, links, digit_cells)
                key = frozenset(elims)
                if not elims or key in seen:
                    continue
                seen.add(key)
                yield _chain_step(board, sets, states, path, elims, ring)


def find_als_aic(board: Board, max_links: int = 21, als_size: int = 4) -> Iterator[Step]:
    """Yield grouped AICs and nice loops whose nodes may also be almost locked sets.

    In an ALS of 2 to *als_size* cells, the places of any digit form a node, and any two digits
    are strongly linked: if one of them is not in the ALS, the others fill it.

    >>> from xlsudoku.engine.grid import Grid
    >>> list(find_als_aic(Board.from_grid(Grid.empty())))
    []
    """
    yield from find_locked_set_aic(board, almost_locked_sets(board, als_size), max_links)


def _chain_eliminations(
    sets: tuple[Als, ...],
    states: list[tuple[int, Digit]],
    path: list[int],
    links: Links,
    digit_cells: list[int],
) -> tuple[list[Elimination], int]:
    """Return what the chain *path* eliminates, and the digit closing it into a ring (or 0).

    Every digit z of both ends but the first and last link goes from cells seeing all its
    places in the two ends.  When the ends are linked by a restricted common r other than
    those two links, the chain is a ring: each ALS keeps all its digits but one of its two
    links, each link digit is in one of its two ALSs, and the eliminations grow accordingly.
    """
    chain = [states[s][0] for s in path]
    digits = [states[s][1] for s in path[1:]]
    first, end = sets[chain[0]], sets[chain[-1]]
    found: dict[tuple[Cell, Digit], None] = {}

    def drop(mask: int, z: int) -> None:
        for t in _cells_of(mask & digit_cells[z - 1]):
            found[(t, z)] = None

    ring = 0
    if len(set(chain)) == len(chain):
        closing = next((rcc for k, rcc in links[chain[-1]] if k == chain[0]), 0)
        closing &= ~(1 << (digits[0] - 1)) & ~(1 << (digits[-1] - 1))
        ring = closing & -closing
    if ring:
        loop = digits + [ring.bit_length()]
        for i, j in enumerate(chain):
            als = sets[j]
            keep = als.digits & ~(1 << (loop[i - 1] - 1)) & ~(1 << (loop[i] - 1))
            for z in digits_of(keep):
                drop(als.sees[z - 1], z)
            nxt = sets[chain[(i + 1) % len(chain)]]
            z = loop[i]
            drop(als.sees[z - 1] & nxt.sees[z - 1] & ~nxt.cells, z)
    else:
        zs = first.digits & end.digits & ~(1 << (digits[0] - 1)) & ~(1 << (digits[-1] - 1))
        for z in digits_of(zs):
            drop(first.sees[z - 1] & end.sees[z - 1] & ~end.cells, z)
    elims = [Elimination(c, d) for c, d in sorted(found, key=lambda k: (k[1], k[0]))]
    return elims, ring.bit_length()


def _trace(
    links: Links,
    number: dict[tuple[int, Digit], int],
    states: list[tuple[int, Digit]],
    start: int,
    end: int,
    length: int,
) -> list[int] | None:
    """Return a walk of exactly *length* moves from state *start* to *end* (breadth first)."""
    layers = [{start: -1}]
    for _ in range(length):
        nxt: dict[int, int] = {}
        for s in layers[-1]:
            for m in _moves(links, number, states[s]):
                if m not in nxt:
                    nxt[m] = s
        layers.append(nxt)
    if end not in layers[-1]:
        return None
    path = [end]
    for layer in reversed(layers[1:]):
        path.append(layer[path[-1]])
    path.reverse()
    return path


def _chain_step(
    board: Board,
    sets: tuple[Als, ...],
    states: list[tuple[int, Digit]],
    path: list[int],
    elims: list[Elimination],
    ring: Digit,
) -> Step:
    geo = board.geometry
    chain = [states[s][0] for s in path]
    parts = [_describe(board, sets[chain[0]])]
    for s in path[1:]:
        j, y = states[s]
        parts.append(f"-{geo.digit_char(y)}- {_describe(board, sets[j])}")
    cells = 0
    for j in chain:
        cells |= sets[j].cells
    if ring:
        parts.append(f"-{geo.digit_char(ring)}- back to the first")
        why = (
            "the chain closes into a ring, so each ALS keeps all its digits but one of its two "
            "links and each link digit is in one of its two ALSs"
        )
    else:
        why = (
            "if the first ALS lacked a digit it shares with the last (other than the end links), "
            "each link would pass on to the next ALS and lock the last one with that digit"
        )
    return Step(
        Technique.ALS_CHAIN,
        (),
        tuple(elims),
        tuple(sorted(_cells_of(cells))),
        tuple(dict.fromkeys(sets[j].house for j in chain)),
        tuple(sorted({d for j in chain for d in digits_of(sets[j].digits)})),
        f"ALS Chain: {' '.join(parts)} (almost locked sets joined by restricted common digits, "
        f"no two neighbouring links alike); {why}: {_elims_text(board, elims)}",
    )


def find_death_blossom(board: Board, max_size: int = 6, max_stem: int = 4) -> Iterator[Step]:
    """Yield every Death Blossom whose stem cell has at most *max_stem* candidates.

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "..23.96.5936......4...76.3.1..8...626............671.3..47.13863..624..1.61.3842."))
    >>> print(next(find_death_blossom(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Death Blossom: stem r1c1 {7,8}, with a petal (an almost locked set whose places of that digit
    all see the stem) for each candidate: 7: r9c1 {5,7}; 8: r3c3 {5,8}. Whichever the stem holds,
    that petal loses the digit and is locked, so it holds 5: r8c3 cannot be 5
    """
    geo = board.geometry
    cands = board.cands
    peer_bits = _peer_bits(geo)
    sets, _ = als_graph(board, max_size)
    digit_cells = _digit_cells(board)
    seen: set[frozenset[Elimination]] = set()
    for stem in range(geo.cell_count):
        stem_digits = digits_of(cands[stem])
        if not 2 <= len(stem_digits) <= max_stem:
            continue
        stem_bit = 1 << stem
        petals: list[list[Als]] = []
        for d in stem_digits:
            petals.append(
                [
                    a
                    for a in sets
                    if not a.cells & stem_bit
                    and a.places[d - 1]
                    and not a.places[d - 1] & ~peer_bits[stem]
                ]
            )
        if not all(petals):
            continue
        for z in range(1, geo.size + 1):
            if cands[stem] >> (z - 1) & 1:
                continue
            options = [[a for a in p if a.digits >> (z - 1) & 1] for p in petals]
            if not all(options):
                continue
            targets = digit_cells[z - 1] & ~stem_bit
            for chosen in _blossoms(options, z, targets):
                cells = stem_bit
                common = ~cands[stem]
                for a in chosen:
                    cells |= a.cells
                    common &= a.digits
                elims = []
                for y in digits_of(common):  # every digit of all petals, not only z
                    mask = digit_cells[y - 1] & ~cells
                    for a in chosen:
                        mask &= a.sees[y - 1]
                    elims += [Elimination(c, y) for c in _cells_of(mask)]
                key = frozenset(elims)
                if key in seen:
                    continue
                seen.add(key)
                ch = ", ".join(geo.digit_char(y) for y in digits_of(common))
                petal_text = "; ".join(
                    f"{geo.digit_char(d)}: {_describe(board, a)}"
                    for d, a in zip(stem_digits, chosen, strict=True)
                )
                yield Step(
                    Technique.DEATH_BLOSSOM,
                    (),
                    tuple(elims),
                    tuple(sorted(_cells_of(cells))),
                    tuple(a.house for a in chosen),
                    tuple(sorted({*digits_of(common), *stem_digits})),
                    f"Death Blossom: stem {geo.cell_name(stem)} {{"
                    f"{','.join(geo.digit_char(d) for d in stem_digits)}}}, with a petal (an "
                    f"almost locked set whose places of that digit all see the stem) for each "
                    f"candidate: {petal_text}. Whichever the stem holds, that petal loses the "
                    f"digit and is locked, so it holds {ch}: {_elims_text(board, elims)}",
                )


def _blossoms(options: list[list[Als]], z: Digit, targets: int) -> Iterator[list[Als]]:
    """Yield one petal per stem digit that leave cells to eliminate z from, depth first.

    Petals may share cells (even be the same ALS): each is locked in its own case.
    """
    chosen: list[Als] = []

    def extend(i: int, mask: int, used: int) -> Iterator[list[Als]]:
        if i == len(options):
            yield list(chosen)
            return
        for a in options[i]:
            narrower = mask & a.sees[z - 1]
            if not narrower & ~(used | a.cells):
                continue
            chosen.append(a)
            yield from extend(i + 1, narrower, used | a.cells)
            chosen.pop()

    yield from extend(0, targets, 0)


_WINGS = {
    3: Technique.WXYZ_WING,
    4: Technique.VWXYZ_WING,
    5: Technique.UVWXYZ_WING,
    6: Technique.TUVWXYZ_WING,
}

# SukakuExplainer's ratings of the wings by the cells of their ALS: a base, and for the WXYZ-
# and VWXYZ-Wings 0.1 more for each step the ALS's fullest cell (2 to cells + 1 candidates)
# stands nearer the middle of that range (it rates the extremes easier to see).
WING_BASE = {3: 5.5, 4: 6.2, 5: 6.6, 6: 7.5}
WING_SPREAD = frozenset({3, 4})


def wing_rating(size: int, fullest: int) -> float:
    """Return SukakuExplainer's rating of a wing whose ALS has *size* cells.

    *fullest* is the number of candidates of the ALS cell that has the most.

    >>> [wing_rating(3, k) for k in (2, 3, 4)], [wing_rating(4, k) for k in (2, 3, 4, 5)]
    ([5.5, 5.6, 5.5], [6.3, 6.4, 6.3, 6.2])
    >>> wing_rating(5, 3), wing_rating(6, 4)
    (6.6, 7.5)
    """
    base = WING_BASE[size]
    if size not in WING_SPREAD:
        return base
    middle = (size + 3) // 2
    return round(base + (size + 1 - middle - abs(middle - fullest)) / 10, 1)


def find_bent_wing(board: Board, size: int) -> Iterator[Step]:
    """Yield the WXYZ-Wings (*size* 3) to TUVWXYZ-Wings (*size* 6) of SukakuExplainer.

    An ALS-XZ between a cell with two candidates and an ALS of *size* cells; each set of
    eliminations once.  Only those pairs are tried (not every pair of ALSs), so it stays cheap.

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> b = _board_from_masks({0: (1, 2), 36: (1, 3), 40: (2, 4), 44: (3, 4)})
    >>> print(next(find_bent_wing(b, 3)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    WXYZ-Wing: r1c1 {1,2} and r5c1, r5c5 and r5c9 {1,2,3,4} are almost locked sets; 1 is a
    restricted common (its places in the two see each other, so at most one holds it), so the
    other is left with just enough digits for its cells and 2 is in one of them: r1c5 cannot
    be 2
    """
    technique = _WINGS[size]
    sets = almost_locked_sets(board, max(size, 6))
    cells = [a for a in sets if a.size == 1]
    wings = [b for b in sets if b.size == size]
    if not cells or not wings:
        return
    digit_cells = _digit_cells(board)
    seen: set[frozenset[Elimination]] = set()
    for a in cells:
        for b in wings:
            if a.cells & b.cells or a.digits & ~b.digits:
                continue
            rcc = _restricted(a, b)
            if not rcc:
                continue
            elims = _xz_eliminations(board, a, b, rcc, digit_cells)
            key = frozenset(elims)
            if not elims or key in seen:
                continue
            seen.add(key)
            fullest = max(board.cands[c].bit_count() for c in _cells_of(b.cells))
            rating = wing_rating(size, fullest)
            yield _xz_step(board, technique, a, b, rcc, elims, rating)


def find_wxyz_wing(board: Board) -> Iterator[Step]:
    """Yield every WXYZ-Wing (see :func:`find_bent_wing`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "5.7394.81.9386157..182759..35978.1..74291..5818645..978751.946...15478.99.46.8715"))
    >>> print(next(find_wxyz_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    WXYZ-Wing: r3c1 {4,6} and r2c9, r3c9 and r7c9 {2,3,4,6} are almost locked sets; 6 is a
    restricted common (its places in the two see each other, so at most one holds it), so the other
    is left with just enough digits for its cells and 4 is in one of them: r3c8 cannot be 4
    """
    return find_bent_wing(board, 3)


def find_vwxyz_wing(board: Board) -> Iterator[Step]:
    """Yield every VWXYZ-Wing (see :func:`find_bent_wing`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "523978146618324...479561382951632.7.8624975..73418526938721....29584....14675..2."))
    >>> print(next(find_vwxyz_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    VWXYZ-Wing: r2c7 {7,9} and r7c7, r7c8, r7c9 and r8c7 {4,5,6,7,9} are almost locked sets; 7 is a
    restricted common (its places in the two see each other, so at most one holds it), so the other
    is left with just enough digits for its cells and 9 is in one of them: r9c7 cannot be 9
    """
    return find_bent_wing(board, 4)


def find_uvwxyz_wing(board: Board) -> Iterator[Step]:
    """Yield every UVWXYZ-Wing (see :func:`find_bent_wing`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "3.548..12.81....464.7..1.38572143689138569427649278153714...895853794261..6815374"))
    >>> print(next(find_uvwxyz_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    UVWXYZ-Wing: r1c2 {6,9} and r1c6, r2c4, r2c5, r2c6 and r3c5 {2,3,5,6,7,9} are almost locked
    sets; 6 is a restricted common (its places in the two see each other, so at most one holds it),
    so the other is left with just enough digits for its cells and 9 is in one of them: r2c1 cannot
    be 9
    """
    return find_bent_wing(board, 5)


def find_tuvwxyz_wing(board: Board) -> Iterator[Step]:
    """Yield every TUVWXYZ-Wing (see :func:`find_bent_wing`).

    >>> from xlsudoku.engine.grid import Grid
    >>> b = Board.from_grid(Grid.parse(
    ...     "861354729534297681972816.5.758132946319468275426975....4.72.....9.68.....8.54...."))
    >>> print(next(find_tuvwxyz_wing(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    TUVWXYZ-Wing: r3c7 {3,4} and r7c7, r7c8, r7c9, r8c7, r8c8 and r9c8 {1,3,4,5,6,8,9} are almost
    locked sets; 4 is a restricted common (its places in the two see each other, so at most one
    holds it), so the other is left with just enough digits for its cells and 3 is in one of them:
    r9c7 cannot be 3
    """
    return find_bent_wing(board, 6)
