"""Neighbour moves: new unique symmetric puzzles one or two orbits away from a known one.

Few grids have a 180°-symmetric puzzle of 20 clues or fewer (none of some 260 random grids
searched exhaustively), but such puzzles lie close to others: blank one or two clue orbits of a
puzzle and give one orbit (another, or one just blanked) any digits its candidates allow, and
ask the exact solver whether the result is unique.  Its solution is usually a *new* grid, one
that a random fill would almost never draw.  Blanking a pair and the centre of a 21 and giving
another pair found a 20 around half of the 21s tried.

:func:`neighbours` yields the moves of one *stage* of a puzzle.  There are three kinds of
moves, cheapest and most promising first:

0. blank one clue orbit and give a lighter one, or blank two (one of them light) and give one
   (fewer clues);
1. blank one orbit and give one as heavy (as many clues: puzzles to explore further);
2. blank two heavy orbits and give one (fewer clues).

When every orbit free to change has one weight (a pattern fixes the center cell, so only pairs
are left under 180°), no orbit is lighter: kind 0 then blanks any two and gives one, the only
move that lowers such a puzzle, and kind 2 is empty.  (Put after kind 1, as before, it came
only once the equal puzzles of the whole pool had been explored: patterns 8 and 9 never got
from 23 to 21 through neighbours in 60 s; now in 2-3 s.)

On 9x9 the choices of a kind (blanking, orbit given, its digits) are ranked by the candidates
left once the choice is placed on the propagated blanked puzzle and propagated (only the
``SETTLE_SHARE`` with fewest candidates once placed are propagated: propagating them all would
cost more than the checks): most unique neighbours are among the most constrained, so stages 0
to 2 check the *head* of each kind (``HEAD_SHARE`` of its choices, most constrained first) and
stages 3 to 5 the rest (the pool of :mod:`.lowsearch` decides the order of the stages).  On
other shapes stages 0 to 2 check every choice in turn and stages 3 to 5 are empty.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator
from typing import cast

from xlsudoku.engine.generate.clock import Clock
from xlsudoku.engine.generate.low_givens import OrbitSpace
from xlsudoku.engine.grid import CLASSIC, Geometry
from xlsudoku.engine.masks import digits_of
from xlsudoku.engine.solver import KERNEL, Work, singles_candidates, solutions

# Kinds of moves (see the module notes), and stages: on 9x9 each kind's most constrained
# choices (the head, ``HEAD_SHARE`` of them) come first, the rest once every puzzle of the pool
# had its heads.
KINDS = 3
STAGES = 2 * KINDS

# Share of a kind's choices, most constrained first, in its head, per kind.  The unique equal
# neighbours (kind 1) come almost all among the first few choices: their head checks as many
# choices as the lowering head (kind 0), and never fewer than this share nor more than the
# lowering share, so that where the lowering moves are few (a 20 with 180° symmetry: a pair
# blanked, the centre given) the pool walks over many more puzzles as good as the best.
HEAD_SHARE = (0.25, 0.02, 0.25)

# Share of a kind's choices propagated to rank them (those with fewest candidates once placed),
# per kind: a few times the head (ranking the choices costs more than checking a small head).
SETTLE_SHARE = (0.4, 0.08, 0.4)

# Digit choices tried for one added orbit at most (larger orbits are skipped).
VALUE_LIMIT = 729

Move = tuple[tuple[int, ...], int, bool]  # orbits blanked, their clues, give one as heavy

# A blanked puzzle, the clues it keeps, and the orbits to give with the digits not to give
# them (the puzzle's own, for an orbit just blanked).
Blanking = tuple[list[int], int, list[tuple[int, tuple[int, ...] | None]]]


def _plan(space: OrbitSpace, cells: tuple[int, ...], stage: int) -> list[Move]:
    """Return the blankings of *stage* for the puzzle *cells*, lightest first."""
    weight = space.weight
    given_orbits = [
        i for i, orbit in enumerate(space.orbits) if cells[orbit[0]] and not space.forced >> i & 1
    ]
    heavy = max(weight)
    fixed = space.forced | space.forbidden
    # with one weight among the orbits free to change (a pattern fixing the center), no
    # orbit is lighter: blanking two and giving one is then the cheapest lowering move
    one_weight = len({w for i, w in enumerate(weight) if not fixed >> i & 1}) == 1
    if stage == 1:
        return [((r,), weight[r], True) for r in given_orbits]
    doubles: list[Move] = [
        ((a, b), weight[a] + weight[b], False)
        for k, a in enumerate(given_orbits)
        for b in given_orbits[k + 1 :]
    ]
    doubles.sort(key=lambda item: item[1])
    if stage == 0:
        singles: list[Move] = [((r,), weight[r], False) for r in given_orbits]
        return singles + [m for m in doubles if one_weight or m[1] < 2 * heavy]
    return [m for m in doubles if not one_weight and m[1] >= 2 * heavy]


def neighbours(
    space: OrbitSpace,
    cells: tuple[int, ...],
    stage: int,
    clock: Clock,
    geometry: Geometry = CLASSIC,
) -> Iterator[tuple[int, tuple[int, ...] | None]]:
    """Yield ``(clues, cells)`` for each unique neighbour, ``(0, None)`` for each other check.

    *stage* 0 to ``STAGES - 1`` (see the module notes): stage *k* and stage ``k + KINDS`` hold
    the moves of kind *k* between them.  Digit choices that solutions found by earlier checks
    of the same blanking already show to leave two solutions are not checked (nor yielded).
    Orbits fixed open (``space.forced``) are never blanked, orbits fixed blank
    (``space.forbidden``) never given.  Each check counts its work on *clock* (which raises
    :class:`~.clock.Stopped` to stop).

    >>> import random
    >>> from xlsudoku.engine.symmetry import Symmetry
    >>> from xlsudoku.engine.solver import count_solutions
    >>> from xlsudoku.engine.grid import Grid
    >>> known = Grid.parse(
    ...     "6......2.....8....3..1...6......367...........819......9...2..5....5.....1......8")
    >>> space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, (), (), random.Random(0))
    >>> from xlsudoku.engine.generate.clock import Clock
    >>> equal = (m for s in (1, 1 + KINDS) for m in neighbours(space, known.cells, s, Clock()))
    >>> givens, cells = next(m for m in equal if m[1])
    >>> givens, Grid(cells).given_count, count_solutions(Grid(cells)), Grid(cells) != known
    (18, 18, 1, True)
    """
    weight = space.weight
    work = clock.solver
    kind = stage % KINDS
    givens = sum(1 for d in cells if d)
    moves: list[Blanking] = []
    blankings = _gives(space, cells, kind)
    for removed, w_removed, adds in blankings:
        base = list(cells)
        for r in removed:
            for c in space.orbits[r]:
                base[c] = 0
        own = {x: tuple(cells[c] for c in space.orbits[x]) for x in removed}
        moves.append((base, givens - w_removed, [(x, own.get(x)) for x in adds]))
    if geometry == CLASSIC:
        head, settle = HEAD_SHARE[kind], SETTLE_SHARE[kind]
        if kind == 1:
            # the equal moves' head checks about as many choices as the lowering moves' head
            # (within the shares of both): a puzzle with few lowering choices is left soon
            # for its equal neighbours
            lowering = _choices(space, _gives(space, cells, 0))
            equal = max(1, _choices(space, blankings))
            head = min(HEAD_SHARE[0], max(head, HEAD_SHARE[0] * lowering / equal))
            settle = max(settle, head * SETTLE_SHARE[0] / HEAD_SHARE[0])
        yield from _ranked9(space, moves, work, stage >= KINDS, head, settle)
        return
    if stage >= KINDS:
        return  # unranked: the head held every move
    for base, kept, gives in moves:
        cands = singles_candidates(base, geometry)
        if cands is None:  # pragma: no cover - base is part of a solvable puzzle
            continue
        checks = _Checks(base, geometry, work)
        for x, again in gives:
            orbit = space.orbits[x]
            choices = [digits_of(cands[c]) for c in orbit]
            if math.prod(len(options) for options in choices) > VALUE_LIMIT:
                continue
            seen = checks.seen(orbit)
            for digits in itertools.product(*choices):
                if digits == again:
                    continue  # the puzzle itself
                if seen.get(digits, 0) > 1:
                    continue  # two solutions known
                if checks.unique(digits, orbit, seen):
                    yield kept + weight[x], _given(base, orbit, digits)
                else:
                    yield 0, None


def _gives(
    space: OrbitSpace, cells: tuple[int, ...], kind: int
) -> list[tuple[tuple[int, ...], int, list[int]]]:
    """Return the blankings of moves of *kind* with their clues and the orbits they may give."""
    weight = space.weight
    blank_orbits = [
        i
        for i, orbit in enumerate(space.orbits)
        if not cells[orbit[0]] and not space.forbidden >> i & 1
    ]
    found = []
    for removed, w_removed, same in _plan(space, cells, kind):
        # an orbit just blanked may come back with other digits
        adds = [
            x
            for x in blank_orbits + list(removed)
            if (weight[x] == w_removed if same else weight[x] < w_removed)
        ]
        found.append((removed, w_removed, adds))
    return found


def _choices(space: OrbitSpace, gives: list[tuple[tuple[int, ...], int, list[int]]]) -> int:
    """Return the 9x9 digit choices of *gives* at most (any digit in each cell given)."""
    return sum(CLASSIC.size ** space.weight[x] for _, _, adds in gives for x in adds)


def _given(base: list[int], orbit: tuple[int, ...], digits: tuple[int, ...]) -> tuple[int, ...]:
    """Return *base* with *orbit* given *digits*."""
    trial = base[:]
    for c, d in zip(orbit, digits, strict=True):
        trial[c] = d
    return tuple(trial)


def _ranked9(
    space: OrbitSpace,
    moves: list[Blanking],
    work: Work,
    tail: bool,
    share: float,
    settle_share: float,
) -> Iterator[tuple[int, tuple[int, ...] | None]]:
    """Check the 9x9 *moves* (base, clues kept, orbits to give) most constrained first.

    Each blanked puzzle is propagated once; each orbit's digits are placed on that state (one
    cell at a time: a digit propagation already rules out is never tried further), and the
    most promising choices propagated again.  The candidates left rank the choices: the fewer, the
    likelier the check finds one solution, and the cheaper it is, so unique neighbours come
    first instead of wherever their blanking falls.  Choices that propagation proves to have
    no solution are never checked.  Only the head (see the module notes) is checked, or with
    *tail* the rest.
    """
    given, place, settle = KERNEL.given, KERNEL.place, KERNEL.settle
    ranked: list[tuple[int, int, int, int, tuple[int, ...], int, int]] = []
    blankings: list[_Checks9] = []
    for base, _, gives in moves:
        checks = _Checks9(base, work)
        number = len(blankings)
        blankings.append(checks)
        if checks.state < 0:  # pragma: no cover - base is part of a solvable puzzle
            continue
        for x, again in gives:
            orbit = space.orbits[x]
            options: list[tuple[int, int, tuple[int, ...]]] = [(checks.state, checks.placed, ())]
            for cell in orbit:
                row = given[cell]
                options = [
                    (after, placed | row[d], digits + (d,))
                    for state, placed, digits in options
                    for d in range(1, 10)
                    if state & row[d] and (after := place(state, row[d])) >= 0
                ]
                if len(options) > VALUE_LIMIT:
                    break
            else:
                for state, placed, digits in options:
                    if digits != again:  # else the puzzle itself
                        ranked.append(
                            (state.bit_count(), len(ranked), number, x, digits, state, placed)
                        )
    # propagating every choice would cost more than checking the head: those with fewest
    # candidates once placed are propagated, and ranked by what is left
    ranked.sort()
    head = math.ceil(len(ranked) * share)
    cut = math.ceil(len(ranked) * settle_share)
    settled = []
    for _, order, number, x, digits, state, placed in ranked[:cut]:
        state, placed = settle(state, placed)
        work(1)
        if state >= 0:
            settled.append((state.bit_count(), order, number, x, digits, state, placed))
    settled.sort()
    # a stage paused for other puzzles of the pool keeps only what it will check: the head
    # with its states, or for the tail (most of the choices) what names each choice, its
    # digits placed (and propagated, if they were) again when it comes up: the same state,
    # without every choice's candidates held meanwhile
    chosen = [] if tail else [(n, x, d, s, p) for _, _, n, x, d, s, p in settled[:head]]
    later = (
        [(n, x, d, True) for _, _, n, x, d, _, _ in settled[head:]]
        + [(n, x, d, False) for _, _, n, x, d, _, _ in ranked[cut:]]
        if tail
        else []
    )
    del ranked, settled
    for number, x, digits, state, placed in chosen or _placed_again(space, blankings, later):
        checks = blankings[number]
        orbit = space.orbits[x]
        key = sum(given[c][d] for c, d in zip(orbit, digits, strict=True))
        if checks.seen(orbit).get(key, 0) > 1:
            continue  # two solutions known
        if checks.unique(state, placed):
            yield moves[number][1] + space.weight[x], _given(checks.base, orbit, digits)
        else:
            yield 0, None


def _placed_again(
    space: OrbitSpace,
    blankings: list[_Checks9],
    later: list[tuple[int, int, tuple[int, ...], bool]],
) -> Iterator[tuple[int, int, tuple[int, ...], int, int]]:
    """Yield each choice of *later* with its state again, as :func:`_ranked9` ranked it.

    Placing and propagating are pure, so the state is the one ranked; the work was counted
    then and is not counted again.
    """
    given, place, settle = KERNEL.given, KERNEL.place, KERNEL.settle
    for number, x, digits, settled in later:
        checks = blankings[number]
        state, placed = checks.state, checks.placed
        for cell, d in zip(space.orbits[x], digits, strict=True):
            bit = given[cell][d]
            state = place(state, bit)
            placed |= bit
        if settled:
            state, placed = settle(state, placed)
        yield number, x, digits, state, placed


class _Checks:
    """The uniqueness checks of one blanking and the solutions of it they find.

    Every check of a blanking finds solutions of the blanked puzzle; two of them that agree on
    an orbit show that giving the orbit those digits leaves two solutions: no check needed.
    A *key* names an orbit's digits, and a solution's digits on that orbit.
    """

    def __init__(self, base: list[int], geometry: Geometry, work: Work) -> None:
        self.base = base
        self.geometry = geometry
        self.work = work
        self.found: list[tuple[int, ...]] = []
        self.known: set[tuple[int, ...]] = set()

    def solution_key(self, orbit: tuple[int, ...], solution: tuple[int, ...]) -> Hashable:
        """Return the key of *solution*'s digits on *orbit*."""
        return tuple(solution[c] for c in orbit)

    def seen(self, orbit: tuple[int, ...]) -> dict[Hashable, int]:
        """Return how many known solutions have each key on *orbit*."""
        seen: dict[Hashable, int] = {}
        for solution in self.found:
            key = self.solution_key(orbit, solution)
            seen[key] = seen.get(key, 0) + 1
        return seen

    def unique(self, key: Hashable, orbit: tuple[int, ...], seen: dict[Hashable, int]) -> bool:
        """Return whether giving *orbit* the digits *key* leaves one solution; count the rest."""
        trial = self.base[:]
        for c, d in zip(orbit, cast(tuple[int, ...], key), strict=True):
            trial[c] = d
        solved = solutions(trial, 2, geometry=self.geometry, work=self.work)
        for solution in solved:
            if solution not in self.known:
                self.known.add(solution)
                self.found.append(solution)
                other = self.solution_key(orbit, solution)
                seen[other] = seen.get(other, 0) + 1
        return len(solved) == 1


class _Checks9:
    """The checks of one 9x9 blanking on the solver's candidate ints, and the solutions found.

    Two solutions of the blanked puzzle that agree on an orbit show that giving the orbit
    those digits leaves two solutions: no check needed.  Each orbit's count of the known
    solutions per digit choice (a *key*: the candidate bits of the digits) is kept up to date.
    """

    def __init__(self, base: list[int], work: Work) -> None:
        given = KERNEL.given
        self.base = base
        self.work = work
        givens = sum(given[c][d] for c, d in enumerate(base) if d)
        state = KERNEL.place(KERNEL.every, givens)
        self.state, self.placed = KERNEL.settle(state, givens) if state >= 0 else (-1, 0)
        work(1)
        self.ints: list[int] = []
        self.known: set[int] = set()
        self.keys: dict[tuple[int, ...], tuple[int, dict[int, int]]] = {}

    def seen(self, orbit: tuple[int, ...]) -> dict[int, int]:
        """Return how many known solutions have each key on *orbit*."""
        entry = self.keys.get(orbit)
        if entry is None:
            bits = KERNEL.spread(sum(1 << c for c in orbit))
            seen: dict[int, int] = {}
            for solution in self.ints:
                key = solution & bits
                seen[key] = seen.get(key, 0) + 1
            entry = self.keys[orbit] = (bits, seen)
        return entry[1]

    def unique(self, state: int, placed: int) -> bool:
        """Return whether the propagated *state* has one solution; keep the solutions found."""
        keep: list[int] = []
        stats = KERNEL.search_from(state, placed, 2, keep)
        self.work(1 + stats.guesses)
        for solution in keep:
            if solution not in self.known:
                self.known.add(solution)
                self.ints.append(solution)
                for bits, seen in self.keys.values():
                    key = solution & bits
                    seen[key] = seen.get(key, 0) + 1
        return len(keep) == 1
