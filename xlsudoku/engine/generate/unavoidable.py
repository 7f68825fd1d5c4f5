"""Unavoidable sets of a solution grid: sets of cells of which every unique puzzle keeps a clue.

If the digits of a set of cells of a complete grid *S* can be rearranged into another valid grid
(the other cells unchanged), a puzzle that gives none of those cells cannot tell the two grids
apart: it has two solutions.  Such a set is *unavoidable*.  The smallest are the "deadly
rectangles": two rows by two columns in two boxes holding a swapped pair of digits.

Every difference between *S* and another solution of a puzzle taken from *S* is an unavoidable
set, and so the sets are found by blanking cells and collecting differences between solutions:

- :func:`digit_sets` blanks all the cells of two (or three) digits and enumerates the ways to
  put those digits back;
- :func:`sets_within` enumerates the solutions inside one blanked set and keeps the minimal
  differences (a set none of whose proper subsets is unavoidable is *minimal*).

A puzzle taken from *S* is unique exactly when it hits (keeps a clue in) every unavoidable set,
so a list of them rejects most non-unique clue sets with a few integer operations before the
exact solver (:mod:`engine.solver`) is asked.  Cell sets are Python ints, bit ``c`` for cell
``c`` (:func:`mask_of`, :func:`cells_of`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from xlsudoku.engine.grid import Cell, Grid, SudokuError
from xlsudoku.engine.solver import Work, count_solutions, solutions


class UnavoidableError(SudokuError):
    """A grid that is not a complete valid solution, or a bad cell set."""


def mask_of(cells: Iterable[Cell]) -> int:
    """Return the cell set of *cells* as an int (bit ``c`` for cell ``c``).

    >>> mask_of([0, 2, 80]) == (1 | 4 | 1 << 80)
    True
    """
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def cells_of(mask: int) -> tuple[Cell, ...]:
    """Return the cells of the cell set *mask*, ascending.

    >>> cells_of(0b10101)
    (0, 2, 4)
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def check_solution(solution: Grid) -> Grid:
    """Return *solution* when it is a complete grid without a repeated digit, else raise.

    >>> check_solution(Grid.parse("1" + "." * 80))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.engine.generate.unavoidable.UnavoidableError: the solution grid is not complete: ...
    """
    if not solution.is_complete:
        first = solution.cells.index(0)
        raise UnavoidableError(
            f"the solution grid is not complete: {solution.geometry.cell_name(first)} is empty"
        )
    conflicts = solution.conflicts()
    if conflicts:
        house, digit, a, b = conflicts[0]
        geo = solution.geometry
        raise UnavoidableError(
            f"the solution grid repeats digit {geo.digit_char(digit)} in {geo.house_name(house)}:"
            f" {geo.cell_name(a)} and {geo.cell_name(b)}"
        )
    return solution


def blanked(solution: Grid, blank: int) -> Grid:
    """Return *solution* with the cells of the set *blank* emptied.

    >>> str(blanked(Grid.parse("1234" "3412" "2143" "4321"), 0b11))[:4]
    '..34'
    """
    cells = tuple(0 if blank >> c & 1 else d for c, d in enumerate(solution.cells))
    return Grid(cells, solution.geometry)


def kept(solution: Grid, givens: int) -> Grid:
    """Return the puzzle that keeps only the cells of the set *givens* of *solution*.

    >>> str(kept(Grid.parse("1234" "3412" "2143" "4321"), 0b11))[:5]
    '12...'
    """
    cells = tuple(d if givens >> c & 1 else 0 for c, d in enumerate(solution.cells))
    return Grid(cells, solution.geometry)


def difference(a: Grid, b: Grid) -> int:
    """Return the set of cells where grids *a* and *b* differ.

    >>> cells_of(difference(Grid.parse("1234" "3412" "2143" "4321"),
    ...                     Grid.parse("2134" "3412" "1243" "4321")))
    (0, 1, 8, 9)
    """
    m = 0
    for c, (x, y) in enumerate(zip(a.cells, b.cells, strict=True)):
        if x != y:
            m |= 1 << c
    return m


def other_solution(solution: Grid, givens: int, work: Work | None = None) -> Grid | None:
    """Return a solution other than *solution* of the puzzle keeping the cells *givens*, or None.

    None means the puzzle is unique.  The exact solver (:func:`engine.solver.solutions`) decides
    (and tells *work* its steps).

    >>> s = Grid.parse("1234" "3412" "2143" "4321")
    >>> other_solution(s, (1 << 16) - 1) is None
    True
    >>> other = other_solution(s, mask_of(c for c in range(16) if c not in (0, 1, 8, 9)))
    >>> cells_of(difference(s, other))
    (0, 1, 8, 9)
    """
    for found in solutions(kept(solution, givens), 2, work=work):
        if found != solution:
            return found
    return None


def is_unavoidable(solution: Grid, cells: Iterable[Cell]) -> bool:
    """Return True when blanking *cells* of the complete grid *solution* leaves two solutions.

    >>> s = Grid.parse("1234" "3412" "2143" "4321")
    >>> is_unavoidable(s, [0, 1, 8, 9]), is_unavoidable(s, [0, 1, 4])
    (True, False)
    """
    return count_solutions(blanked(solution, mask_of(cells)), 2) >= 2


def minimal_sets(masks: Iterable[int]) -> list[int]:
    """Return the sets of *masks* that contain no other one, smallest first, without repeats.

    >>> minimal_sets([0b111, 0b011, 0b011, 0b100, 0b110])
    [4, 3]
    """
    out: list[int] = []
    for m in sorted(set(masks), key=lambda x: (x.bit_count(), x)):
        if m and not any(o & m == o for o in out):
            out.append(m)
    return out


def sets_within(solution: Grid, blank: int, limit: int = 64, work: Work | None = None) -> list[int]:
    """Return the minimal unavoidable sets inside *blank* found among *limit* solutions.

    The solutions of *solution* with the cells of *blank* emptied differ from it inside
    *blank* only; with every such solution enumerated the minimal differences are exactly the
    minimal unavoidable sets inside *blank* (fewer when *limit* cuts the enumeration short).

    >>> s = Grid.parse("1234" "3412" "2143" "4321")
    >>> [cells_of(u) for u in sets_within(s, mask_of([0, 1, 8, 9, 4, 5]))]
    [(0, 1, 8, 9)]
    """
    found = solutions(blanked(solution, blank), limit, work=work)
    diffs = [difference(other, solution) for other in found]
    return minimal_sets(d for d in diffs if d)


def digit_sets(solution: Grid, max_digits: int = 3, limit: int = 64) -> list[int]:
    """Return minimal unavoidable sets made of two to *max_digits* digits of *solution*.

    For each choice of digits, every cell holding one of them is blanked and the solutions
    (at most *limit* for each choice) give the sets; the deadly rectangles come out with the
    pairs of digits.

    Raises:
        UnavoidableError: *solution* is not a complete valid grid.

    >>> s = Grid.parse("1234" "3412" "2143" "4321")
    >>> sorted(cells_of(u) for u in digit_sets(s, 2))[:2]
    [(0, 1, 8, 9), (0, 2, 4, 6)]
    """
    check_solution(solution)
    n = solution.geometry.size
    by_digit = [0] * (n + 1)
    for c, d in enumerate(solution.cells):
        by_digit[d] |= 1 << c
    found: list[int] = []
    for k in range(2, max_digits + 1):
        for digits in itertools.combinations(range(1, n + 1), k):
            blank = 0
            for d in digits:
                blank |= by_digit[d]
            found.extend(sets_within(solution, blank, limit))
    return minimal_sets(found)


def quick_sets(solution: Grid) -> list[int]:
    """Return small unavoidable sets of *solution* found without searching (cell sets).

    Each is a set of cells whose digits can be permuted into another valid grid, so a unique
    puzzle keeps a clue in each.  For rows, columns and boxes only: the cycles of the
    permutation taking one row of a band to another (or one column of a stack to another),
    and for each pair of digits the cycles of their row and column links whose boxes each hold
    two of their cells (the 4-cell "deadly rectangle" is the smallest).  Other geometries
    (diagonals, Windoku, Jigsaw) use the connected parts of each digit pair's cells, linked
    through every house they share.  Far fewer than :func:`digit_sets` finds, but in well
    under a millisecond: the generator's uniqueness oracle starts from these and learns the
    rest.

    >>> s = Grid.parse("1234" "3412" "2143" "4321")
    >>> (1 << 0 | 1 << 1 | 1 << 8 | 1 << 9) in quick_sets(s)
    True
    >>> all(is_unavoidable(s, cells_of(u)) for u in quick_sets(s))
    True
    """
    geo = solution.geometry
    n = geo.size
    sol = solution.cells
    found: list[int] = []
    if not geo.standard:
        by_digit = [0] * (n + 1)
        for c, d in enumerate(sol):
            by_digit[d] |= 1 << c
        peers = [mask_of(geo.peers[c]) for c in range(geo.cell_count)]
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                rest = by_digit[a] | by_digit[b]
                while rest:
                    part = frontier = rest & -rest
                    while frontier:
                        low = frontier & -frontier
                        frontier ^= low
                        new = peers[low.bit_length() - 1] & rest & ~part
                        part |= new
                        frontier |= new
                    rest &= ~part
                    if part.bit_count() < 2 * n:
                        found.append(part)
        return found
    col_of = [[0] * n for _ in range(n + 1)]  # digit -> row -> column
    row_of = [[0] * n for _ in range(n + 1)]  # digit -> column -> row
    for c, d in enumerate(sol):
        r, k = divmod(c, n)
        col_of[d][r] = k
        row_of[d][k] = r
    bands = [range(b, b + geo.box_rows) for b in range(0, n, geo.box_rows)]
    stacks = [range(s, s + geo.box_cols) for s in range(0, n, geo.box_cols)]
    # two rows of a band: column k of row r1 moves to the column of its digit in row r2
    for groups, along_rows in ((bands, True), (stacks, False)):
        where = col_of if along_rows else row_of
        for group in groups:
            for i, r1 in enumerate(group):
                for r2 in group[i + 1 :]:
                    done = 0
                    for k0 in range(n):
                        k, u, size = k0, 0, 0
                        while not done >> k & 1:
                            done |= 1 << k
                            c1, c2 = (
                                (r1 * n + k, r2 * n + k) if along_rows else (k * n + r1, k * n + r2)
                            )
                            u |= 1 << c1 | 1 << c2
                            size += 2
                            k = where[sol[c1]][r2]
                        if 0 < size < 2 * n:
                            found.append(u)
    # two digits: from the a-cell of row r to the b-cell of row r, then down its column to the
    # a-cell there; a cycle is a swap set on its own when each box it meets holds two of its cells
    for a in range(1, n + 1):
        col_a, row_a = col_of[a], row_of[a]
        for b in range(a + 1, n + 1):
            col_b = col_of[b]
            done = 0
            for r0 in range(n):
                r, cells = r0, []
                while not done >> r & 1:
                    done |= 1 << r
                    cells.append(r * n + col_a[r])
                    cells.append(r * n + col_b[r])
                    r = row_a[col_b[r]]
                if not cells or len(cells) == 2 * n:
                    continue
                boxes = twice = 0
                for c in cells:
                    bb = 1 << geo.box_of(c)
                    twice |= boxes & bb
                    boxes |= bb
                if boxes == twice:
                    found.append(mask_of(cells))
    return found
