"""Symmetric puzzle generator: blank clue orbits of a random grid while the puzzle stays unique.

The method (issue 3):

1. Fill a random complete grid (:func:`xlsudoku.engine.fill.random_grid`).
2. Blank the cells the pattern keeps blank, then blank the other orbits of the symmetry in a
   random order; after each blanking check uniqueness and put the orbit back when the puzzle
   has more than one solution (*feedback*).
3. Stop as soon as the puzzle has exactly the target number of opens.  An *attempt* (a
   *trial*) that ends above the target is repeated on the same grid with a new order when it
   ended *close* to the target (*solution reuse*), and on a new grid when it ended far above.
4. Out of trials or time, return the best puzzle with a message naming the fewest opens reached.
5. For deep 9x9 targets (``opens <= LOW_CLUE_TARGET``) each attempt hands its puzzle to the low-clue
   search (``xlsudoku.engine.lowclue.descend``) when that module is present.

Uniqueness is checked against the known solution *S*: blanking an orbit of a unique puzzle
leaves it unique exactly when no solution differs from *S* in that orbit.  The checker first
tries the unavoidable sets of *S* (sets of cells of which at least one must be a clue; every
difference between two solutions is one), then whether the blanked cells are singles, and only
then searches, cell by cell, for a solution that gives a blanked cell another digit: on 9x9
with the exact solver's bit-parallel search (one cleared candidate bit says "not this digit"),
on other shapes after filling singles knowing *S*, on bitboards of this module: one Python int
per digit and *layout* (rows, columns, boxes, and each diagonal of X-Sudoku), with a guard bit
per house so a few integer operations find the houses where a digit has one place left.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xlsudoku.engine import solver as _solver
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.grid import CLASSIC, Cell, Geometry, Grid, SudokuError
from xlsudoku.engine.logic import next_step as human_next_step
from xlsudoku.engine.patterns import Pattern, PatternError, parse_pattern
from xlsudoku.engine.ranks import Ranks, rank_statistics
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry, orbits

# --------------------------------------------------------------------------- limits and terms

# Fewest clues with a unique solution, known for the standard shapes (9x9: McGuire et al. 2012).
# Other shapes use the trivial bound size - 1 (a puzzle missing two digits has two solutions).
KNOWN_FLOOR: dict[str, int] = {"4x4": 4, "6x6": 8, "9x9": 17}

# Targets at or below this many opens go to the low-clue search when xlsudoku.engine.lowclue exists.
LOW_CLUE_TARGET = 23

# An attempt is *close* when it ended at most this many orbits above the target: the next
# attempt then reuses the same solution grid (with a new order); farther above, a new grid.
CLOSE_ORBITS = 2

# Attempts on one grid before a new grid is drawn however close they came.
MAX_REUSE = 30

# Without a time limit, a deep target (handed to the low-clue search) gets this many seconds
# in all, so an unreachable target ends with a message instead of running for hours.
DEEP_DEFAULT_SECONDS = 60.0

# The low-clue search works on one solution grid per trial, for at most this many seconds.
DEEP_TRIAL_SECONDS = 10.0


class GenerateError(SudokuError):
    """A generate request that cannot be met; the message names the field."""


# --------------------------------------------------------------------------- request / result


@dataclass(frozen=True, slots=True)
class GenerateRequest:
    """What to generate.

    Attributes:
        opens: Target number of clues ("opens").
        pattern: Preset 1-12, a mask of the center box (``x``/``1`` open, ``.``/``0`` blank,
            row-major), or None for no pattern.  See :mod:`xlsudoku.engine.patterns`.
        trials: Attempt budget (an attempt is one descent from a full grid).
        symmetry: Symmetry of the clue pattern (orbits are blanked together).
        time_limit: Seconds, or None for no limit.
        seed: Seed of the random generator; None draws one (the result reports it).
        geometry: Shape of the grid (9x9 by default).
        difficulty: Wanted level (grading engineer: generate() delegates when set).
        needs: A technique the solve path must use (delegated like *difficulty*).

    >>> GenerateRequest().opens, GenerateRequest().symmetry.value
    (26, 'rotate180')
    """

    opens: int = 26
    pattern: int | str | None = 1
    trials: int = 299
    symmetry: Symmetry = Symmetry.ROTATE_180
    time_limit: float | None = None
    seed: int | None = None
    geometry: Geometry = CLASSIC
    difficulty: Level | None = None
    needs: Technique | None = None


@dataclass(frozen=True, slots=True)
class GenerateResult:
    """A generated puzzle and how it was reached.

    Attributes:
        puzzle: The puzzle (unique, symmetric, pattern applied).
        solution: Its solution.
        opens: Clues in *puzzle*.
        target: The requested number of opens.
        reached: True when ``opens == target``.
        minimal: True when no orbit of clues (pattern orbits included) can be blanked keeping
            the puzzle unique.
        trials_used: Attempts made.
        grids_tried: Solution grids filled.
        seconds: Wall time spent.
        seed: The seed used (drawn when the request had none).
        message: One sentence for the user, e.g. ``Reached 26 opens in 2 trials (0.02 s)``.
        ranks: Rank statistics of the puzzle (see :mod:`xlsudoku.engine.ranks`).
        request: The request, with the seed filled in.
    """

    puzzle: Grid
    solution: Grid
    opens: int
    target: int
    reached: bool
    minimal: bool
    trials_used: int
    grids_tried: int
    seconds: float
    seed: int
    message: str
    ranks: Ranks
    request: GenerateRequest

    def to_dict(self) -> dict[str, object]:
        """Return every field as JSON-ready data (grids as 81-character strings).

        >>> r = generate(GenerateRequest(seed=1))
        >>> d = r.to_dict()
        >>> d["opens"], d["reached"], len(d["puzzle"]), d["request"]["pattern"]
        (26, True, 81, 1)
        """
        req = self.request
        return {
            "puzzle": str(self.puzzle),
            "solution": str(self.solution),
            "opens": self.opens,
            "target": self.target,
            "reached": self.reached,
            "minimal": self.minimal,
            "trials_used": self.trials_used,
            "grids_tried": self.grids_tried,
            "seconds": round(self.seconds, 6),
            "seed": self.seed,
            "message": self.message,
            "ranks": self.ranks.to_dict(),
            "request": {
                "opens": req.opens,
                "pattern": req.pattern,
                "trials": req.trials,
                "symmetry": req.symmetry.value,
                "time_limit": req.time_limit,
                "seed": req.seed,
                "geometry": req.geometry.name,
                "difficulty": None if req.difficulty is None else req.difficulty.name,
                "needs": None if req.needs is None else req.needs.value,
            },
        }


# --------------------------------------------------------------------------- bitboard tables


@dataclass(frozen=True, slots=True)
class _Tables:
    """Bitboard tables of a geometry, one *layout* per family of disjoint houses.

    A layout packs its houses into fields of ``size + 1`` bits; the top bit of each field is a
    guard that keeps a subtraction from borrowing across fields.  Layout 0 (rows) holds every
    cell, so it also serves as the plain cell set.
    """

    size: int
    layouts: int
    # cell -> ((layout, bit, peer bits, layout * (size + 1)), ...) for the layouts holding it
    where: tuple[tuple[tuple[int, int, int, int], ...], ...]
    # cell -> ((layout, bit, bits of its house in that layout), ...)
    house_of: tuple[tuple[tuple[int, int, int], ...], ...]
    bit0: tuple[int, ...]  # cell -> its bit in layout 0
    peer0: tuple[int, ...]  # cell -> its peers' bits in layout 0
    cell_at: tuple[tuple[int, ...], ...]  # layout -> bit position -> cell (-1 for guard bits)
    low: tuple[int, ...]  # layout -> lowest bit of every field
    guard: tuple[int, ...]  # layout -> guard bit of every field
    add: tuple[int, ...]  # layout -> 2**size - 1 in every field
    box_of: tuple[int, ...]  # cell -> box
    bands: tuple[tuple[int, ...], ...]  # rows grouped by band (for row-pair unavoidable sets)
    stacks: tuple[tuple[int, ...], ...]  # columns grouped by stack
    plain: bool  # only rows, columns and boxes (no extra houses)


@functools.cache
def _tables(geo: Geometry) -> _Tables:
    n = geo.size
    width = n + 1
    families = [geo.houses[0:n], geo.houses[n : 2 * n], geo.houses[2 * n : 3 * n]]
    families += [(h,) for h in geo.houses[3 * n :]]
    position: list[dict[Cell, int]] = []
    for fam in families:
        pos = {}
        for f, house in enumerate(fam):
            for k, cell in enumerate(house):
                pos[cell] = f * width + k
        position.append(pos)
    where = []
    for cell in range(geo.cell_count):
        entries = []
        for lay, pos in enumerate(position):
            if cell in pos:
                peer_bits = 0
                for p in geo.peers[cell]:
                    if p in pos:
                        peer_bits |= 1 << pos[p]
                entries.append((lay, 1 << pos[cell], peer_bits, lay * width))
        where.append(tuple(entries))
    cell_at = []
    for fam, pos in zip(families, position, strict=True):
        table = [-1] * (len(fam) * width)
        for cell, p in pos.items():
            table[p] = cell
        cell_at.append(tuple(table))
    low = tuple(sum(1 << (f * width) for f in range(len(fam))) for fam in families)
    return _Tables(
        size=n,
        layouts=len(families),
        where=tuple(where),
        house_of=tuple(
            tuple(
                (lay, 1 << pos[cell], ((1 << n) - 1) << (pos[cell] // width * width))
                for lay, pos in enumerate(position)
                if cell in pos
            )
            for cell in range(geo.cell_count)
        ),
        bit0=tuple(1 << position[0][c] for c in range(geo.cell_count)),
        peer0=tuple(where[c][0][2] for c in range(geo.cell_count)),
        cell_at=tuple(cell_at),
        low=low,
        guard=tuple(x << n for x in low),
        add=tuple(x * ((1 << n) - 1) for x in low),
        box_of=tuple(geo.box_of(c) for c in range(geo.cell_count)),
        bands=tuple(tuple(range(b, b + geo.box_rows)) for b in range(0, n, geo.box_rows)),
        stacks=tuple(tuple(range(s, s + geo.box_cols)) for s in range(0, n, geo.box_cols)),
        plain=len(families) == 3,
    )


# --------------------------------------------------------------------------- uniqueness oracle

_SOLVED, _STUCK, _CONTRADICTION = 1, 0, -1


class _Oracle:
    """A puzzle that is a subset of a known solution, and cheap tests of blanking orbits.

    A *known* state (the puzzle, and the singles filled knowing the solution) is a flat list of
    ints: ``[0, L)`` blank cells per layout; ``seen + l*(n+1) + d`` the cells that see a placed
    *d* (peers of every cell holding *d*).  Every filled cell holds its solution digit, so the
    cells holding *d* are the solution's *d* cells that are not blank.  The search, which tries
    other digits, extends the state with ``placed + l*(n+1) + d``, the cells holding *d*.
    States are copied at each branch.
    """

    def __init__(self, solution: Grid, learn: bool = True) -> None:
        geo = solution.geometry
        t = _tables(geo)
        self.t = t
        self.geo = geo
        self.sol = solution.cells
        n = t.size
        self.m = n + 1
        self.seen_at = t.layouts
        self.placed_at = t.layouts + t.layouts * self.m
        # the solution's d cells per layout, at the index of the placed board they fill
        solpos = [0] * (t.layouts * self.m)
        for c, d in enumerate(self.sol):
            for _, b, _, off in t.where[c]:
                solpos[off + d] |= b
        self.solpos = solpos
        self.solpos0 = solpos[: self.m]
        self.layout_of = [i // self.m for i in range(t.layouts * self.m)]
        # unavoidable sets (layout-0 bits) by cell; learned ones are added as they are found
        self.sets_by_cell: list[list[int]] = [[] for _ in range(geo.cell_count)]
        self.known_sets: set[int] = set()
        for u, cells in _unavoidable_sets(solution, t):
            self.add_set(u, cells)
        self.state: list[int] = []
        # remember the difference of every second solution found (worth it when the same
        # grid is descended again; a single pass never meets the same set twice)
        self.learn = learn
        self.fast = _solver.FAST9 if geo == CLASSIC else None
        self.reset(frozenset())

    # ---- state -----------------------------------------------------------------------------

    def reset(self, blank: frozenset[Cell]) -> None:
        """Make the puzzle the full solution with *blank* cells blanked."""
        st = [0] * self.placed_at
        sa0 = self.seen_at
        for c in range(self.geo.cell_count):
            if c in blank:
                for lay, b, _, _ in self.t.where[c]:
                    st[lay] |= b
            else:
                sa = sa0 + self.sol[c]
                for _, _, pm, off in self.t.where[c]:
                    st[sa + off] |= pm
        self.state = st

    def puzzle(self) -> Grid:
        """Return the current puzzle."""
        b0 = self.state[0]
        bit0 = self.t.bit0
        cells = tuple(0 if b0 & bit0[c] else d for c, d in enumerate(self.sol))
        return Grid(cells, self.geo)

    @property
    def opens(self) -> int:
        """Number of clues of the current puzzle."""
        return self.geo.cell_count - self.state[0].bit_count()

    def is_given(self, cell: Cell) -> bool:
        """Return True when *cell* is a clue of the current puzzle."""
        return not self.state[0] & self.t.bit0[cell]

    def add_set(self, u: int, cells: Sequence[Cell] | None = None) -> None:
        """Remember unavoidable set *u* (layout-0 bits; its *cells* when known) for rejections."""
        if u in self.known_sets:
            return
        self.known_sets.add(u)
        if cells is None:
            cells = _cells_of(u, self.t)
        sets_by_cell = self.sets_by_cell
        for c in cells:
            sets_by_cell[c].append(u)

    def _extend(self, st: list[int]) -> list[int]:
        """Return known state *st* with the placed boards the search needs."""
        return st + [pos & ~st[lay] for pos, lay in zip(self.solpos, self.layout_of, strict=True)]

    def _place(self, st: list[int], cell: Cell, d: int) -> None:
        """Put *d* in *cell* of an extended state (any digit)."""
        sa = self.seen_at + d
        pa = self.placed_at + d
        for lay, b, pm, off in self.t.where[cell]:
            st[lay] &= ~b
            st[sa + off] |= pm
            st[pa + off] |= b

    def _blanked(self, orbit: Sequence[Cell]) -> list[int]:
        """Return a copy of the state with the given cells of *orbit* blanked."""
        st = self.state[:]
        m = self.m
        where = self.t.where
        sol = self.sol
        digits = set()
        for c in orbit:
            digits.add(sol[c])
            for lay, b, _, _ in where[c]:
                st[lay] |= b
        cell_at0 = self.t.cell_at[0]
        nl = self.t.layouts
        b0 = st[0]
        for d in digits:
            sa = self.seen_at + d
            for lay in range(nl):
                st[sa + lay * m] = 0
            x = self.solpos0[d] & ~b0
            while x:
                low = x & -x
                x ^= low
                for _lay, _, pm, off in where[cell_at0[low.bit_length() - 1]]:
                    st[sa + off] |= pm
        return st

    # ---- tests -----------------------------------------------------------------------------

    def try_remove(self, orbit: Sequence[Cell]) -> bool:
        """Blank *orbit* if the puzzle stays unique; return whether it did."""
        st = self.test(orbit)
        if st is None:
            return False
        self.state = st
        return True

    def can_remove(self, orbit: Sequence[Cell]) -> bool:
        """Return True when blanking *orbit* would keep the puzzle unique (state unchanged)."""
        return self.test(orbit) is not None

    def test(self, orbit: Sequence[Cell]) -> list[int] | None:
        """Return the state with *orbit* blanked when that puzzle is unique, else None."""
        t = self.t
        bit0 = t.bit0
        b0 = self.state[0]
        obits = 0
        for c in orbit:
            obits |= bit0[c]
        after = ~(b0 | obits)
        # 1. an unavoidable set left without clues: two solutions
        sets_by_cell = self.sets_by_cell
        for c in orbit:
            for u in sets_by_cell[c]:
                if not u & after:
                    return None
        st = self._blanked(orbit)
        # 2. every blanked cell a naked or hidden single from the clues: unique (the cheapest case)
        sa0 = self.seen_at
        sol = self.sol
        n = t.size
        m = self.m
        house_of = t.house_of
        for c in orbit:
            b = bit0[c]
            true_d = sol[c]
            for d in range(1, n + 1):
                if d != true_d and not st[sa0 + d] & b:
                    break
            else:
                continue  # naked single
            for lay, bl, house in house_of[c]:
                if st[lay] & ~st[sa0 + lay * m + true_d] & house == bl:
                    break
            else:
                break  # neither: try the closure
        else:
            return st
        if self.fast is not None:
            return st if self._fast_unique(st, orbit) else None
        # 3. singles from the clues, knowing the solution, bring the blanked cells back: unique
        work = st[:]
        if self._closure_known(work, obits):
            return st
        # 4. search for a solution giving a blanked cell another digit
        for c in orbit:
            b = bit0[c]
            if not work[0] & b:
                continue
            true_d = sol[c]
            for d in range(1, n + 1):
                if d == true_d or work[sa0 + d] & b:
                    continue
                branch = self._extend(work)
                self._place(branch, c, d)
                found = self._exists(branch)
                if found is not None:
                    if self.learn:
                        self.add_set(self._difference(found))
                    return None
            sa = sa0 + true_d
            for lay, bl, pm, off in t.where[c]:
                work[lay] &= ~bl
                work[sa + off] |= pm
            if self._closure_known(work, obits):
                return st
        return st

    def _fast_unique(self, st: list[int], orbit: Sequence[Cell]) -> bool:
        """Decide step 3-4 with the solver's bit-parallel 9x9 search (``engine.solver.FAST9``).

        For each blanked cell in turn: search for a solution where it does not hold its
        solution digit; none means every solution keeps that digit there, so fix it and go on.
        """
        fast = self.fast
        assert fast is not None
        b0 = st[0]
        bit0 = self.t.bit0
        sol = self.sol
        start = fast.start([0 if b0 & bit0[c] else d for c, d in enumerate(sol)])
        given = fast.given
        for c in orbit:
            keep: list[int] = []
            bit = given[c][sol[c]]
            if fast.search(start & ~bit, 1, None, keep).solutions:
                if self.learn:
                    diff = 0
                    for x, d in enumerate(fast.cells(keep[0])):
                        if d != sol[x]:
                            diff |= bit0[x]
                    self.add_set(diff)
                return False
            start = fast.place(start, bit)
        return True

    def _closure_known(self, st: list[int], need0: int) -> bool:
        """Fill singles (each cell gets its solution digit) until the *need0* cells are filled.

        Returns False when no single is left while some *need0* cell is still blank.
        """
        t = self.t
        n = t.size
        m = self.m
        sol = self.sol
        sa0 = self.seen_at
        cell_at = t.cell_at
        where = t.where
        digits = range(1, n + 1)
        fill = (1 << m) - 1
        while st[0] & need0:
            b0 = st[0]
            one = two = 0
            for d in digits:
                c = b0 & ~st[sa0 + d]
                two |= one & c
                one |= c
            singles = one & ~two
            if singles & need0:
                singles &= need0
            found: list[Cell] = []
            if singles:
                ca = cell_at[0]
                while singles:
                    low = singles & -singles
                    singles ^= low
                    found.append(ca[low.bit_length() - 1])
            else:
                for lay in range(t.layouts):
                    bl = st[lay]
                    lowl = t.low[lay]
                    guard = t.guard[lay]
                    add = t.add[lay]
                    ca = cell_at[lay]
                    base = sa0 + lay * m
                    for d in digits:
                        v = bl & ~st[base + d]
                        if not v:
                            continue
                        y = v & ((v | guard) - lowl)
                        s = v & ~((((y + add) & guard) >> n) * fill)
                        while s:
                            low = s & -s
                            s ^= low
                            found.append(ca[low.bit_length() - 1])
                if not found:
                    return False
            bit0 = t.bit0
            for c in found:
                if st[0] & bit0[c]:
                    sa = sa0 + sol[c]
                    for lay, b, pm, off in where[c]:
                        st[lay] &= ~b
                        st[sa + off] |= pm
        return True

    def _propagate(self, st: list[int]) -> int:
        """Fill naked and hidden singles; return ``_SOLVED``, ``_STUCK`` or ``_CONTRADICTION``."""
        t = self.t
        n = t.size
        m = self.m
        sa0 = self.seen_at
        pa0 = self.placed_at
        cell_at = t.cell_at
        bit0 = t.bit0
        where = t.where
        digits = range(1, n + 1)
        fill = (1 << m) - 1
        layouts = range(t.layouts)
        while True:
            b0 = st[0]
            if not b0:
                return _SOLVED
            one = two = 0
            for d in digits:
                c = b0 & ~st[sa0 + d]
                two |= one & c
                one |= c
            if b0 & ~one:
                return _CONTRADICTION
            singles = one & ~two
            if singles:
                ca = cell_at[0]
                while singles:
                    low = singles & -singles
                    singles ^= low
                    for d in digits:
                        if not st[sa0 + d] & low:
                            break
                    else:
                        return _CONTRADICTION
                    sa = sa0 + d
                    pa = pa0 + d
                    for lay, b, pm, off in where[ca[low.bit_length() - 1]]:
                        st[lay] &= ~b
                        st[sa + off] |= pm
                        st[pa + off] |= b
                continue
            placed_any = False
            for lay in layouts:
                lowl = t.low[lay]
                guard = t.guard[lay]
                add = t.add[lay]
                ca = cell_at[lay]
                sb = sa0 + lay * m
                pb = pa0 + lay * m
                for d in digits:
                    v = st[lay] & ~st[sb + d]
                    w = v | st[pb + d]
                    if ((w + add) & guard) != guard:
                        return _CONTRADICTION
                    y = w & ((w | guard) - lowl)
                    s = v & ~((((y + add) & guard) >> n) * fill)
                    while s:
                        low = s & -s
                        s ^= low
                        c = ca[low.bit_length() - 1]
                        b = bit0[c]
                        if not st[0] & b:
                            if st[pa0 + d] & b:
                                continue
                            return _CONTRADICTION
                        if st[sa0 + d] & b:
                            return _CONTRADICTION
                        sa = sa0 + d
                        pa = pa0 + d
                        for lay2, b2, pm, off in where[c]:
                            st[lay2] &= ~b2
                            st[sa + off] |= pm
                            st[pa + off] |= b2
                        placed_any = True
            if not placed_any:
                return _STUCK

    def _exists(self, st: list[int]) -> list[int] | None:
        """Return a solved state reachable from *st* (depth-first), or None."""
        r = self._propagate(st)
        if r == _SOLVED:
            return st
        if r == _CONTRADICTION:
            return None
        if self._swap_ok(st):
            return st
        b0 = st[0]
        sa0 = self.seen_at
        n = self.t.size
        one = two = three = 0
        for d in range(1, n + 1):
            c = b0 & ~st[sa0 + d]
            three |= two & c
            two |= one & c
            one |= c
        pick = two & ~three
        if not pick:
            pick = b0
        low = pick & -pick
        cell = self.t.cell_at[0][low.bit_length() - 1]
        for d in range(1, n + 1):
            if st[sa0 + d] & low:
                continue
            branch = st[:]
            self._place(branch, cell, d)
            found = self._exists(branch)
            if found is not None:
                return found
        return None

    def _swap_ok(self, st: list[int]) -> bool:
        """Return True when the solution, changed where *st* places other digits, is valid.

        Then that changed grid is a second solution, found without filling the rest of *st*.
        """
        pa0 = self.placed_at
        solpos0 = self.solpos0
        n = self.t.size
        diff = 0
        for d in range(1, n + 1):
            diff |= st[pa0 + d] & ~solpos0[d]
        ca = self.t.cell_at[0]
        peer0 = self.t.peer0
        for d in range(1, n + 1):
            x = st[pa0 + d] & ~solpos0[d]
            if not x:
                continue
            s = solpos0[d] & ~diff
            while x:
                low = x & -x
                x ^= low
                if s & peer0[ca[low.bit_length() - 1]]:
                    return False
        return True

    def _difference(self, st: list[int]) -> int:
        """Return the cells (layout-0 bits) where solved state *st* differs from the solution."""
        diff = 0
        pa0 = self.placed_at
        for d in range(1, self.t.size + 1):
            diff |= st[pa0 + d] & ~self.solpos0[d]
        return diff


def _cells_of(u: int, t: _Tables) -> list[Cell]:
    """Return the cells of layout-0 bitboard *u*."""
    ca = t.cell_at[0]
    cells = []
    while u:
        low = u & -u
        u ^= low
        cells.append(ca[low.bit_length() - 1])
    return cells


def _unavoidable_sets(solution: Grid, t: _Tables) -> list[tuple[int, list[Cell]]]:
    """Return small unavoidable sets of *solution*: (layout-0 bitboard, cells) pairs.

    Each is a set of cells whose digits can be permuted into another valid grid, so a unique
    puzzle keeps a clue in each.  For rows, columns and boxes only: the cycles of the
    permutation taking one row of a band to another (or one column of a stack to another), and
    for each pair of digits the cycles of their row and column links whose boxes each hold both
    digits (the 4-cell "deadly rectangle" is the smallest); other geometries use the connected
    parts of each digit pair's cells, linked through every house they share.
    """
    n = t.size
    sol = solution.cells
    bit0 = t.bit0
    found: list[tuple[int, list[Cell]]] = []
    if not t.plain:
        peer0 = t.peer0
        ca = t.cell_at[0]
        solpos = [0] * (n + 1)
        for c, d in enumerate(sol):
            solpos[d] |= bit0[c]
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                rest = solpos[a] | solpos[b]
                while rest:
                    comp = frontier = rest & -rest
                    while frontier:
                        low = frontier & -frontier
                        frontier ^= low
                        new = peer0[ca[low.bit_length() - 1]] & rest & ~comp
                        comp |= new
                        frontier |= new
                    rest &= ~comp
                    if comp.bit_count() < 2 * n:
                        found.append((comp, _cells_of(comp, t)))
        return found
    col_of = [[0] * n for _ in range(n + 1)]  # digit -> row -> column
    row_of = [[0] * n for _ in range(n + 1)]  # digit -> column -> row
    for c, d in enumerate(sol):
        r, k = divmod(c, n)
        col_of[d][r] = k
        row_of[d][k] = r
    # two rows of a band: column k of row r1 moves to the column of its digit in row r2
    for lines, along_rows in ((t.bands, True), (t.stacks, False)):
        where = col_of if along_rows else row_of
        for group in lines:
            for i, r1 in enumerate(group):
                for r2 in group[i + 1 :]:
                    done = 0
                    for k0 in range(n):
                        if done >> k0 & 1:
                            continue
                        k, u = k0, 0
                        cycle = []
                        while not done >> k & 1:
                            done |= 1 << k
                            c1, c2 = (
                                (r1 * n + k, r2 * n + k) if along_rows else (k * n + r1, k * n + r2)
                            )
                            u |= bit0[c1] | bit0[c2]
                            cycle.append(c1)
                            cycle.append(c2)
                            k = where[sol[c1]][r2]
                        if len(cycle) < 2 * n:
                            found.append((u, cycle))
    # two digits: from the a-cell of row r to the b-cell of row r, then down its column to the
    # a-cell there; a cycle is a swap set on its own when each box it meets holds two of its cells
    box_of = t.box_of
    for a in range(1, n + 1):
        col_a, row_a = col_of[a], row_of[a]
        for b in range(a + 1, n + 1):
            col_b = col_of[b]
            done = 0
            for r0 in range(n):
                if done >> r0 & 1:
                    continue
                r = r0
                cells = []
                while not done >> r & 1:
                    done |= 1 << r
                    cells.append(r * n + col_a[r])
                    cells.append(r * n + col_b[r])
                    r = row_a[col_b[r]]
                if len(cells) == 2 * n:
                    continue
                boxes = 0
                twice = 0
                for c in cells:
                    bb = 1 << box_of[c]
                    twice |= boxes & bb
                    boxes |= bb
                if boxes == twice:
                    u = 0
                    for c in cells:
                        u |= bit0[c]
                    found.append((u, cells))
    return found


# --------------------------------------------------------------------------- the request's form


@dataclass(frozen=True, slots=True)
class _Form:
    """What a validated request fixes: the pattern's cells and the orbits free to blank."""

    pattern: Pattern | None
    fixed_open: frozenset[Cell]
    fixed_blank: frozenset[Cell]
    free: tuple[tuple[Cell, ...], ...]
    fixed_orbits: tuple[tuple[Cell, ...], ...]  # orbits of pattern cells (always clues)
    floor: int


def _form(request: GenerateRequest) -> _Form:
    """Validate *request* and return its form; raise :class:`GenerateError` naming the field."""
    geo = request.geometry
    if not isinstance(geo, Geometry):
        raise GenerateError(f"geometry must be a Geometry, got {geo!r}")
    if not isinstance(request.symmetry, Symmetry):
        raise GenerateError(f"symmetry must be a Symmetry, got {request.symmetry!r}")
    for name in ("opens", "trials"):
        value = getattr(request, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise GenerateError(f"{name} must be a whole number, got {value!r}")
    if request.trials < 1:
        raise GenerateError(f"trials must be at least 1, got {request.trials}")
    if request.time_limit is not None and not request.time_limit > 0:
        raise GenerateError(f"time limit must be positive seconds, got {request.time_limit!r}")
    if request.seed is not None and (
        isinstance(request.seed, bool) or not isinstance(request.seed, int)
    ):
        raise GenerateError(f"seed must be a whole number, got {request.seed!r}")
    try:
        pattern = parse_pattern(request.pattern)
        if pattern is None:
            fixed_open: frozenset[Cell] = frozenset()
            fixed_blank: frozenset[Cell] = frozenset()
        else:
            fixed_open = frozenset(pattern.cells(geo))
            fixed_blank = frozenset(pattern.blank_cells(geo))
            pattern.check_symmetry(request.symmetry, geo)
    except PatternError as exc:
        raise GenerateError(f"pattern: {exc}") from None
    fixed = fixed_open | fixed_blank
    all_orbits = orbits(request.symmetry, geo)
    free = tuple(o for o in all_orbits if not fixed.intersection(o))
    fixed_orbits = tuple(o for o in all_orbits if fixed_open.issuperset(o))
    floor = KNOWN_FLOOR.get(geo.name, geo.size - 1)
    target = request.opens
    top = geo.cell_count - len(fixed_blank)
    what = "" if pattern is None else f" with {pattern.label}"
    if target > top:
        raise GenerateError(
            f"opens {target} is above {top}, the cells a {geo.name} puzzle{what} can open"
        )
    if target < max(floor, len(fixed_open)):
        if target < floor:
            raise GenerateError(
                f"opens {target} is below {floor}, the fewest clues a {geo.name} Sudoku with "
                "one solution can have"
            )
        raise GenerateError(f"opens {target} is below the {len(fixed_open)} cells{what}")
    # totals reachable: the pattern's cells plus any subset of free orbits (subset sums)
    sums = 1
    for o in free:
        sums |= sums << len(o)
    base = len(fixed_open)
    if not (sums >> (target - base)) & 1:
        below = next((v for v in range(target - 1, base - 1, -1) if (sums >> (v - base)) & 1), None)
        above = next((v for v in range(target + 1, top + 1) if (sums >> (v - base)) & 1), None)
        tries = " or ".join(str(v) for v in (below, above) if v is not None and v >= floor)
        sizes = sorted({len(o) for o in free})
        if sizes == [2]:
            kind, need = ("odd", "even") if target % 2 else ("even", "odd")
            opens_what = (
                f"{pattern.short_label} opens {base} center cell{'s' if base != 1 else ''}"
                if pattern is not None
                else f"{request.symmetry.value} clues come in pairs"
            )
            raise GenerateError(
                f"opens {target} is {kind} but {opens_what}, so opens must be {need}: try {tries}"
            )
        if not sizes:
            raise GenerateError(f"opens {target} cannot be made: no orbit is free to blank")
        orbit_sizes = ", ".join(map(str, sizes[:-1])) + (" and " if len(sizes) > 1 else "")
        orbit_sizes += str(sizes[-1])
        form_what = f"{what} and" if pattern is not None else " with"
        raise GenerateError(
            f"opens {target} cannot be made{form_what} {request.symmetry.value} symmetry: the "
            f"other clues come in orbits of {orbit_sizes}, so try {tries}"
        )
    return _Form(pattern, fixed_open, fixed_blank, free, fixed_orbits, floor)


def validate_request(request: GenerateRequest) -> None:
    """Raise :class:`GenerateError`, naming the field, when *request* cannot be generated.

    >>> validate_request(GenerateRequest())
    >>> def check(**fields):
    ...     try:
    ...         validate_request(GenerateRequest(**fields))
    ...     except GenerateError as exc:
    ...         print(exc)
    >>> check(opens=25)
    opens 25 is odd but pattern 1 opens 4 center cells, so opens must be even: try 24 or 26
    >>> check(opens=16, pattern=None)
    opens 16 is below 17, the fewest clues a 9x9 Sudoku with one solution can have
    """
    if request.difficulty is not None or request.needs is not None:
        _form(_plain(request))
    else:
        _form(request)


def _plain(request: GenerateRequest) -> GenerateRequest:
    return GenerateRequest(
        opens=request.opens,
        pattern=request.pattern,
        trials=request.trials,
        symmetry=request.symmetry,
        time_limit=request.time_limit,
        seed=request.seed,
        geometry=request.geometry,
    )


# --------------------------------------------------------------------------- descent


@dataclass(slots=True)
class _Best:
    """The best puzzle so far and the orbits never shown to be needed in it."""

    puzzle: Grid
    solution: Grid
    opens: int
    untested: list[tuple[Cell, ...]] = field(default_factory=list)
    oracle: _Oracle | None = None  # the solution's oracle (its unavoidable sets are reused)


def _descend(
    oracle: _Oracle,
    form: _Form,
    target: int,
    rng: random.Random,
    deadline: float | None,
) -> tuple[list[tuple[Cell, ...]], bool]:
    """Run one attempt: blank free orbits in random order while unique, stopping at *target*.

    Returns the orbits not tested (the rest were tested and are needed) and whether the
    deadline cut the attempt short.
    """
    oracle.reset(form.fixed_blank)
    order = list(form.free)
    rng.shuffle(order)
    opens = oracle.opens
    untested: list[tuple[Cell, ...]] = []
    clock = time.perf_counter
    for i, orbit in enumerate(order):
        if opens == target:
            untested.extend(order[i:])
            break
        if opens - len(orbit) < target:
            untested.append(orbit)
            continue
        if deadline is not None and clock() > deadline:
            untested.extend(order[i:])
            return untested, True
        if oracle.try_remove(orbit):
            opens -= len(orbit)
    return untested, False


def minimal_puzzle(
    solution: Grid,
    rng: random.Random,
    symmetry: Symmetry = Symmetry.ROTATE_180,
    pattern: int | str | Pattern | None = None,
) -> Grid:
    """Return a minimal symmetric puzzle of *solution*: one descent over every free orbit.

    Minimal means no free orbit (outside the pattern) can be blanked keeping the puzzle unique.

    >>> sol = random_grid(random.Random(3))
    >>> p = minimal_puzzle(sol, random.Random(4))
    >>> from xlsudoku.engine.solver import count_solutions
    >>> count_solutions(p), all(d in (0, s) for d, s in zip(p, sol))
    (1, True)
    """
    form = _form(
        GenerateRequest(
            opens=_lowest_total(solution.geometry, symmetry, pattern),
            pattern=pattern if not isinstance(pattern, Pattern) else pattern.mask,
            symmetry=symmetry,
            geometry=solution.geometry,
        )
    )
    oracle = _Oracle(solution, learn=False)
    _descend(oracle, form, -1, rng, None)
    return oracle.puzzle()


def _lowest_total(geo: Geometry, symmetry: Symmetry, pattern: int | str | Pattern | None) -> int:
    """Return the lowest valid target for a form (used to run a descent with no stop)."""
    p = parse_pattern(pattern)
    base = 0 if p is None else p.open_count
    fixed = set() if p is None else set(p.cells(geo)) | set(p.blank_cells(geo))
    sizes = [len(o) for o in orbits(symmetry, geo) if not fixed.intersection(o)]
    sums = 1
    for s in sizes:
        sums |= sums << s
    floor = KNOWN_FLOOR.get(geo.name, geo.size - 1)
    total = base
    while total < floor or not (sums >> (total - base)) & 1:
        total += 1
    return total


# --------------------------------------------------------------------------- generate


def generate(
    request: GenerateRequest,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> GenerateResult:
    """Generate a unique symmetric puzzle with the requested number of opens.

    Args:
        request: What to generate (validated first; see :func:`validate_request`).
        progress: Called after each trial with ``(trial number, best opens so far)``.
        cancel: Polled between trials (and by the low-clue search); when it returns True the
            best puzzle so far is returned.

    Returns:
        The result; when the target was not reached, the best puzzle and a message naming the
        fewest opens reached.  The same seed and request give the same puzzle (unless a time
        limit or cancel cut the run short).

    Raises:
        GenerateError: The request is invalid (the message names the field).

    >>> r = generate(GenerateRequest(opens=26, pattern=1, seed=7))
    >>> r.opens, r.reached, r.puzzle.given_count, r.seed
    (26, True, 26, 7)
    >>> [r.puzzle[c] != 0 for c in (30, 31, 32, 39, 40, 41, 48, 49, 50)]
    [True, False, True, False, False, False, True, False, True]
    """
    if request.difficulty is not None or request.needs is not None:
        return _generate_graded(request, progress, cancel)
    start = time.perf_counter()
    form = _form(request)
    seed = request.seed if request.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    geo = request.geometry
    target = request.opens
    deep = _low_clue_descend() if target <= LOW_CLUE_TARGET and geo == CLASSIC else None
    limit = request.time_limit
    if limit is None and deep is not None:
        limit = DEEP_DEFAULT_SECONDS
    deadline = None if limit is None else start + limit
    close = CLOSE_ORBITS * max((len(o) for o in form.free), default=1)

    best: _Best | None = None
    oracle: _Oracle | None = None
    solution = Grid.empty(geo)
    trials = grids = reuse = 0
    again = False
    stop = "trials"
    while trials < request.trials:
        if trials and cancel is not None and cancel():
            stop = "cancel"
            break
        if oracle is None or not again:
            solution = random_grid(rng, geo)
            oracle = _Oracle(solution)
            grids += 1
            reuse = 0
        trials += 1
        reuse += 1
        again_allowed = True
        untested, cut = _descend(oracle, form, target, rng, deadline)
        opens = oracle.opens
        if best is None or opens < best.opens:
            best = _Best(oracle.puzzle(), solution, opens, untested, oracle)
        if deep is not None and opens > target and not cut:
            now = time.perf_counter()
            trial_deadline = now + DEEP_TRIAL_SECONDS
            if deadline is not None:
                trial_deadline = min(trial_deadline, deadline)
            shown = best.opens

            def deep_progress(opens_now: int, trial: int = trials, shown: int = shown) -> None:
                if progress is not None and opens_now < shown:
                    progress(trial, opens_now)

            try:
                deep_best = deep(
                    solution,
                    oracle.puzzle(),
                    target,
                    request.symmetry,
                    form.fixed_open,
                    form.fixed_blank,
                    rng,
                    deadline=trial_deadline,
                    cancel=cancel,
                    progress=deep_progress,
                )
            except SudokuError:  # the other module refuses our inputs: go on without it
                deep, deep_best = None, best.puzzle
            # its search of a grid is exhaustive: another order on this grid cannot do better
            again_allowed = False
            if deep_best.given_count < best.opens and _valid_deep(deep_best, solution, form):
                # the low-clue search tells nothing about which orbits are needed: test all
                clue_orbits = [o for o in form.free if deep_best[o[0]]]
                best = _Best(deep_best, solution, deep_best.given_count, clue_orbits, oracle)
            cut = deadline is not None and time.perf_counter() > deadline
        if progress is not None:
            progress(trials, best.opens)
        if best.opens == target:
            stop = "reached"
            break
        if cut or (deadline is not None and time.perf_counter() > deadline):
            stop = "time"
            break
        again = again_allowed and opens - target <= close and reuse < MAX_REUSE
    assert best is not None
    minimal = _is_minimal(best, form)
    seconds = time.perf_counter() - start
    message = _message(stop, target, best.opens, trials, grids, seconds, limit)
    return GenerateResult(
        puzzle=best.puzzle,
        solution=best.solution,
        opens=best.opens,
        target=target,
        reached=best.opens == target,
        minimal=minimal,
        trials_used=trials,
        grids_tried=grids,
        seconds=seconds,
        seed=seed,
        message=message,
        # rounds beyond singles are filled by the human-style solver (its techniques named)
        ranks=rank_statistics(best.puzzle, best.solution, next_step=human_next_step),
        request=_with_seed(request, seed),
    )


def _valid_deep(puzzle: Grid, solution: Grid, form: _Form) -> bool:
    """Return True when a low-clue search result is usable.

    That is a unique, symmetric puzzle of *solution* keeping the pattern; the result comes from
    another module, so a failure is skipped rather than returned.
    """
    if puzzle.geometry != solution.geometry:
        return False
    cells = puzzle.cells
    if any(d and d != s for d, s in zip(cells, solution.cells, strict=True)):
        return False
    if any(not cells[c] for c in form.fixed_open) or any(cells[c] for c in form.fixed_blank):
        return False
    if any(bool(cells[o[0]]) != bool(cells[c]) for o in form.free for c in o):
        return False
    from xlsudoku.engine.solver import count_solutions

    return count_solutions(puzzle, 2) == 1


def _is_minimal(best: _Best, form: _Form) -> bool:
    """Return True when no clue orbit of the best puzzle (pattern orbits too) can be blanked."""
    oracle = best.oracle if best.oracle is not None else _Oracle(best.solution)
    oracle.reset(frozenset(c for c, d in enumerate(best.puzzle.cells) if not d))
    for orbit in list(best.untested) + list(form.fixed_orbits):
        if oracle.is_given(orbit[0]) and oracle.can_remove(orbit):
            return False
    return True


def _message(
    stop: str,
    target: int,
    best: int,
    trials: int,
    grids: int,
    seconds: float,
    limit: float | None,
) -> str:
    t = f"{trials} trial{'s' if trials != 1 else ''}"
    g = f"{grids} grid{'s' if grids != 1 else ''}"
    if stop == "reached":
        return f"Reached {target} opens in {t} on {g} ({seconds:.2f} s)"
    if stop == "cancel":
        return f"Cancelled after {t}; best is {best} opens (target {target})"
    if stop == "time":
        return f"Could not reach {target} opens in {limit:g} s ({t}); best is {best} opens"
    return f"Could not reach {target} opens in {t}; best is {best} opens"


def _with_seed(request: GenerateRequest, seed: int) -> GenerateRequest:
    return GenerateRequest(
        opens=request.opens,
        pattern=request.pattern,
        trials=request.trials,
        symmetry=request.symmetry,
        time_limit=request.time_limit,
        seed=seed,
        geometry=request.geometry,
        difficulty=request.difficulty,
        needs=request.needs,
    )


DeepDescend = Callable[..., Grid]


def _low_clue_descend() -> DeepDescend | None:
    """Return ``xlsudoku.engine.lowclue.descend`` when that module is present, else None."""
    import importlib

    try:
        module = importlib.import_module("xlsudoku.engine.lowclue")
    except ImportError:
        return None
    found = getattr(module, "descend", None)
    return found if callable(found) else None


def _generate_graded(
    request: GenerateRequest,
    progress: Callable[[int, int], None] | None,
    cancel: Callable[[], bool] | None,
) -> GenerateResult:
    """Delegate a request with a difficulty or a needed technique to ``engine.difficulty``."""
    import importlib

    validate_request(request)
    try:
        module = importlib.import_module("xlsudoku.engine.difficulty")
    except ImportError:
        raise GenerateError(
            "difficulty: graded generation (xlsudoku.engine.difficulty) is not available"
        ) from None
    result = module.generate_graded(request, progress=progress, cancel=cancel)
    if not isinstance(result, GenerateResult):  # pragma: no cover
        raise TypeError("xlsudoku.engine.difficulty.generate_graded must return a GenerateResult")
    return result
