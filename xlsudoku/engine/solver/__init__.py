"""Exact solver: constraint propagation with fewest-candidates branching; never wrong.

One search signature for every shape, :func:`search` (puzzle, limit, options -> solutions and
statistics), and thin calls on it: :func:`count_solutions`, :func:`solutions`, :func:`solve`.
A puzzle is a :class:`~xlsudoku.engine.grid.Grid` or its plain digits (0 = empty, the shape in
the options); the answer comes back in the same form.  Three paths search, chosen by shape:

- :mod:`.nine`: the classic 9x9 grid, all candidates in one int, bit-parallel;
- :mod:`.pow2`: the same layout made general for shapes whose side and box sides are powers of
  two (4x4, 16x16), with rows, columns and boxes only;
- :mod:`.generic`: per-cell candidate masks for every shape (6x6, 12x12, X-Sudoku, Windoku,
  Jigsaw), and the reference the other two are tested against.

Besides, :func:`other_solution` is the uniqueness test of a generator that knows the
solution, :func:`singles_candidates` the propagation alone, and :data:`KERNEL` the 9x9 path's
named entry points for the low-clue search.  Givens that clash give zero solutions (use
``Grid.validate`` for a message naming the cells).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

from xlsudoku.engine.grid import CLASSIC, Geometry, Grid, geometry_for_size
from xlsudoku.engine.solver import generic, nine, pow2
from xlsudoku.engine.solver.nine import KERNEL, Kernel
from xlsudoku.engine.solver.stats import SearchStats, Work

# A puzzle as the solver takes it: a Grid, or the plain digits of a grid of the options' shape.
Puzzle = Grid | Sequence[int]


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How one search runs.

    Attributes:
        geometry: the shape of a puzzle given as plain digits (a Grid carries its own).
        rng: when given, branches are tried in random order (a random solution).
        work: told the steps the search takes (see :data:`Work`); may raise to stop it.
        keep: keep the solutions found; False counts them only (a count of a million
            solutions then needs no more memory than one).
    """

    geometry: Geometry = CLASSIC
    rng: random.Random | None = None
    work: Work | None = None
    keep: bool = True


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What :func:`search` found: the solutions (digit tuples, when kept) and its statistics.

    Attributes:
        solutions: up to *limit* solutions, each the digits of its cells; empty when the
            options asked for a count only.
        stats: the number of solutions found (at most *limit*) and the guesses made.
    """

    solutions: tuple[tuple[int, ...], ...]
    stats: SearchStats


DEFAULT = SearchOptions()


def _digits(puzzle: Puzzle, geometry: Geometry) -> tuple[Sequence[int], Geometry]:
    if isinstance(puzzle, Grid):
        return puzzle.cells, puzzle.geometry
    return puzzle, geometry


def search(puzzle: Puzzle, limit: int = 2, options: SearchOptions = DEFAULT) -> SearchResult:
    """Search *puzzle* for up to *limit* solutions; the one entry every path is reached by.

    >>> result = search(Grid.empty(), 3)
    >>> result.stats.solutions, len(result.solutions), result.solutions[0][:3]
    (3, 3, (1, 2, 3))
    >>> search([1, 1] + [0] * 14, 2, SearchOptions(geometry=geometry_for_size(4))).stats
    SearchStats(solutions=0, guesses=0)
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    cells, geo = _digits(puzzle, options.geometry)
    rng, work = options.rng, options.work
    if nine.fits(geo):
        keep: list[int] | None = [] if options.keep else None
        # Counting without work to report observes only the count: the search may settle fully
        # (fewer guesses).  With work it stays the search that work budgets count.
        stats = nine.run(cells, limit, rng, keep, settle=keep is None and work is None)
        if work is not None:
            work(1 + stats.guesses)
        return SearchResult(tuple(nine.digits(c) for c in keep or ()), stats)
    lay = pow2.layout(geo)
    if lay is not None and options.keep:
        found, guesses = pow2.run(lay, cells, limit, rng, work)
        return SearchResult(tuple(found), SearchStats(len(found), guesses))
    if lay is not None:
        return SearchResult((), SearchStats(pow2.count(lay, cells, limit, work), 0))
    grid = Grid(tuple(cells), geo)
    if options.keep:
        found, guesses = generic.listed(grid, limit, rng, work)
        return SearchResult(tuple(found), SearchStats(len(found), guesses))
    return SearchResult((), SearchStats(generic.count(grid, limit, work), 0))


def count_solutions(
    puzzle: Puzzle, limit: int = 2, *, geometry: Geometry = CLASSIC, work: Work | None = None
) -> int:
    """Count solutions, stopping at *limit* (2 proves uniqueness).

    >>> count_solutions(Grid.parse("11" + "." * 79))
    0
    >>> count_solutions(Grid.empty(), limit=5)
    5
    >>> count_solutions([0] * 16, 3, geometry=geometry_for_size(4))
    3
    """
    options = SearchOptions(geometry=geometry, work=work, keep=False)
    return search(puzzle, limit, options).stats.solutions


@overload
def solutions(
    puzzle: Grid,
    limit: int = 2,
    *,
    rng: random.Random | None = None,
    work: Work | None = None,
    geometry: Geometry = CLASSIC,
) -> list[Grid]: ...


@overload
def solutions(
    puzzle: Sequence[int],
    limit: int = 2,
    *,
    rng: random.Random | None = None,
    work: Work | None = None,
    geometry: Geometry = CLASSIC,
) -> list[tuple[int, ...]]: ...


def solutions(
    puzzle: Puzzle,
    limit: int = 2,
    *,
    rng: random.Random | None = None,
    work: Work | None = None,
    geometry: Geometry = CLASSIC,
) -> list[Grid] | list[tuple[int, ...]]:
    """Return up to *limit* solutions (in random branch order when *rng* is given).

    A Grid gives Grids; plain digits (of *geometry*) give digit tuples.

    >>> len(solutions(Grid.empty(), limit=3))
    3
    >>> solutions(Grid.parse("11" + "." * 79))
    []
    >>> found = solutions([0, 0, 3, 4, 3, 4, 0, 0, 0, 0, 4, 3, 4, 3, 0, 0], 3,
    ...                   geometry=geometry_for_size(4))
    >>> len(found), found[0][:8]
    (3, (1, 2, 3, 4, 3, 4, 1, 2))
    """
    options = SearchOptions(geometry=geometry, rng=rng, work=work)
    found = search(puzzle, limit, options).solutions
    if isinstance(puzzle, Grid):
        return [Grid(cells, puzzle.geometry) for cells in found]
    return list(found)


def solve(grid: Grid) -> Grid | None:
    """Return a solution of *grid*, or None when it has none.

    >>> s = solve(Grid.empty())
    >>> s is not None and s.is_complete
    True
    """
    found = solutions(grid, 1)
    return found[0] if found else None


def is_unique(grid: Grid) -> bool:
    """Return True when *grid* has exactly one solution.

    >>> is_unique(Grid.empty())
    False
    """
    return count_solutions(grid, 2) == 1


def unique_reading(grid: Grid) -> Grid:
    """Return *grid* read as X-Sudoku when only its diagonals make a 9x9 solution unique.

    Any other grid is returned as it is.

    >>> puzzle = Grid.parse(
    ...     "....97.....4.1.6.......4.7.....2.....4......22.6.......1...9.....3..8.9....3...8."
    ... )
    >>> len(solutions(puzzle)), unique_reading(puzzle).geometry.name
    (2, '9x9-X')
    >>> unique_reading(Grid.empty()).geometry.name
    '9x9'
    """
    if grid.geometry.size != 9 or len(solutions(grid, 2)) < 2:
        return grid
    x_grid = Grid(grid.cells, geometry_for_size(9, diagonals=True))
    if x_grid.conflicts() or len(solutions(x_grid, 2)) != 1:
        return grid
    return x_grid


# Guesses the light search may make before the full search takes over (a random fill of an
# almost empty grid needs a handful; thousands mean a puzzle the light search cannot settle).
LIGHT_GUESSES = 2000


@overload
def random_solution(
    puzzle: Grid, rng: random.Random, geometry: Geometry = CLASSIC
) -> Grid | None: ...


@overload
def random_solution(
    puzzle: Sequence[int], rng: random.Random, geometry: Geometry = CLASSIC
) -> tuple[int, ...] | None: ...


def random_solution(
    puzzle: Puzzle, rng: random.Random, geometry: Geometry = CLASSIC
) -> Grid | tuple[int, ...] | None:
    """Return one solution of *puzzle* found in random branch order, or None when it has none.

    Meant for grids with few givens (random complete grids): on 9x9 it first propagates naked
    singles only, which is all that pays off there; on a hard puzzle it is correct but slow.

    >>> s = random_solution(Grid.parse("1" + "." * 80), random.Random(4))
    >>> s is not None and s.is_complete and s[0] == 1
    True
    >>> random_solution([0] * 16, random.Random(1), geometry_for_size(4)) is not None
    True
    """
    cells, geo = _digits(puzzle, geometry)
    found: tuple[int, ...] | None
    if nine.fits(geo):
        keep: list[int] = []
        light = nine.run(cells, 1, rng, keep, full=False, budget=LIGHT_GUESSES)
        if not keep and light.guesses == LIGHT_GUESSES:
            # Naked singles alone can wander for minutes in a puzzle without a solution whose
            # contradiction only a hidden single shows: the full search settles it.
            nine.run(cells, 1, rng, keep, full=True)
        found = nine.digits(keep[0]) if keep else None
    else:
        some = search(cells, 1, SearchOptions(geometry=geo, rng=rng)).solutions
        found = some[0] if some else None
    if found is None or not isinstance(puzzle, Grid):
        return found
    return Grid(found, geo)


def reference_solutions(
    grid: Grid, limit: int = 2, rng: random.Random | None = None, work: Work | None = None
) -> list[Grid]:
    """Return up to *limit* solutions with the generic solver, whatever the geometry.

    The generic solver is the reference the 9x9 and power-of-two paths are tested against.
    *work*, when given, is told the steps of the search (see :data:`Work`); a caller bounds the
    search by raising from it.

    >>> [str(s)[:9] for s in reference_solutions(Grid.parse("123456789" + "." * 72), 1)]
    ['123456789']
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    found, _ = generic.listed(grid, limit, rng, work)
    return [Grid(cells, grid.geometry) for cells in found]


def singles_candidates(cells: Sequence[int], geometry: Geometry = CLASSIC) -> list[int] | None:
    """Return each cell's candidate mask after naked and hidden singles, or None on a clash.

    The propagation of the generic path, for callers that want candidates rather than
    solutions (the low-clue search filters the digits worth trying with it).

    >>> masks = singles_candidates([1, 2, 3, 0] + [0] * 12, geometry_for_size(4))
    >>> masks[3], masks[4] & 0b0011
    (8, 0)
    """
    return generic.candidates(cells, geometry)


def other_solution(
    cells: Sequence[int],
    solution: Sequence[int],
    check: Sequence[int],
    geometry: Geometry = CLASSIC,
    work: Work | None = None,
) -> tuple[int, ...] | None:
    """Return a solution of *cells* that differs from *solution* in a *check* cell, or None.

    *solution* must solve *cells*, and *cells* with the *check* cells given must have no other
    solution; then None proves *cells* unique.  This is the uniqueness test of a generator
    that knows the solution: for each *check* cell in turn it asks for a solution where that
    cell does not hold its digit (a naked or hidden single from the givens needs no search),
    and when there is none, fixes the digit there and goes on.  *work*, when given, is told
    the steps of each search (see :data:`Work`).

    >>> s = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    >>> geo = geometry_for_size(4)
    >>> other_solution([0, 0] + s[2:], s, [0, 1], geo)  # one of 1 2 forced by the column
    >>> other = other_solution([0, 0] + s[2:8] + [0, 0] + s[10:], s, [0, 1, 8, 9], geo)
    >>> other[:2], other[8:10]
    ((2, 1), (1, 2))
    """
    if nine.fits(geometry):
        return nine.other_solution(cells, solution, check, work)
    lay = pow2.layout(geometry)
    if lay is not None:
        return pow2.other_solution(lay, cells, solution, check, work)
    return generic.other_solution(cells, solution, check, geometry, work)


__all__ = [
    "DEFAULT",
    "KERNEL",
    "LIGHT_GUESSES",
    "Kernel",
    "Puzzle",
    "SearchOptions",
    "SearchResult",
    "SearchStats",
    "Work",
    "count_solutions",
    "is_unique",
    "other_solution",
    "random_solution",
    "reference_solutions",
    "search",
    "singles_candidates",
    "solutions",
    "solve",
    "unique_reading",
]
