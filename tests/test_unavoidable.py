"""Unavoidable sets: every set found is unavoidable and minimal, checked by an independent counter.

The counter below (plain backtracking over row/column/box digit masks) shares no code with
``xlsudoku.engine.solver``, which ``xlsudoku.engine.generate.unavoidable`` uses.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate.unavoidable import (
    UnavoidableError,
    blanked,
    cells_of,
    check_solution,
    difference,
    digit_sets,
    is_unavoidable,
    kept,
    mask_of,
    minimal_sets,
    other_solution,
    sets_within,
)
from xlsudoku.engine.grid import CLASSIC, Grid, geometry

DATA = Path(__file__).resolve().parent / "data"


def independent_count(grid: Grid, limit: int = 2) -> int:
    """Count solutions of *grid* up to *limit* by plain backtracking (no engine solver)."""
    geo = grid.geometry
    n = geo.size
    full = (1 << n) - 1
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    empty = []
    for cell, d in enumerate(grid.cells):
        r, c, b = cell // n, cell % n, geo.box_of(cell)
        if d:
            bit = 1 << (d - 1)
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return 0
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
        else:
            empty.append((r, c, b))
    diagonals = geo.diagonals

    def free(r: int, c: int, b: int) -> int:
        return full & ~(rows[r] | cols[c] | boxes[b])

    if diagonals:  # pragma: no cover - the tests use plain geometries
        raise NotImplementedError("the independent counter has no diagonals")

    def search(left: list[tuple[int, int, int]]) -> int:
        if not left:
            return 1
        best_i, best_m = 0, -1
        for i, (r, c, b) in enumerate(left):
            m = free(r, c, b)
            if best_m < 0 or m.bit_count() < best_m.bit_count():
                best_i, best_m = i, m
                if m.bit_count() <= 1:
                    break
        r, c, b = left[best_i]
        rest = left[:best_i] + left[best_i + 1 :]
        total = 0
        m = best_m
        while m:
            bit = m & -m
            m ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            total += search(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            if total >= limit:
                break
        return total

    return min(search(empty), limit)


def deadly_rectangles(solution: Grid) -> list[int]:
    """Return every 2x2 swap set: two rows, two columns, two boxes, a swapped digit pair."""
    geo = solution.geometry
    n = geo.size
    s = solution.cells
    found = []
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    a, b = r1 * n + c1, r1 * n + c2
                    c, d = r2 * n + c1, r2 * n + c2
                    if s[a] == s[d] and s[b] == s[c]:
                        if len({geo.box_of(x) for x in (a, b, c, d)}) == 2:
                            found.append(mask_of([a, b, c, d]))
    return found


GRIDS = [
    pytest.param(random_grid(random.Random(seed), geo), id=f"{geo.name}-seed{seed}")
    for geo, seeds in ((geometry(2, 2), (1, 2)), (geometry(2, 3), (1, 2)), (CLASSIC, (1, 2, 3)))
    for seed in seeds
]


@pytest.mark.parametrize("solution", GRIDS)
def test_digit_sets_are_unavoidable_and_minimal(solution: Grid) -> None:
    found = digit_sets(solution, 2 if solution.geometry.size == 9 else 3)
    assert found
    for u in found:
        # blanking the set leaves two solutions ...
        assert independent_count(blanked(solution, u)) == 2, cells_of(u)
        # ... and blanking all of it but any one cell leaves one: no smaller set inside
        for cell in cells_of(u):
            assert independent_count(blanked(solution, u & ~(1 << cell))) == 1, cells_of(u)


@pytest.mark.parametrize("solution", GRIDS)
def test_three_digit_sets_are_unavoidable(solution: Grid) -> None:
    found = digit_sets(solution, 3)
    sample = random.Random(5).sample(found, min(25, len(found)))
    for u in sample:
        assert independent_count(blanked(solution, u)) == 2
        assert is_unavoidable(solution, cells_of(u))


@pytest.mark.parametrize("solution", GRIDS)
def test_every_deadly_rectangle_is_found(solution: Grid) -> None:
    found = set(digit_sets(solution, 2))
    rectangles = deadly_rectangles(solution)
    for u in rectangles:
        assert u in found, [solution.geometry.cell_name(c) for c in cells_of(u)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_sets_within_a_random_blank_lie_inside_it(seed: int) -> None:
    rng = random.Random(seed)
    solution = random_grid(rng)
    blank = mask_of(rng.sample(range(81), 30 + 8 * seed))
    found = sets_within(solution, blank, limit=32)
    assert bool(found) == (independent_count(blanked(solution, blank)) == 2)
    for u in found:
        assert u & ~blank == 0
        assert independent_count(blanked(solution, u)) == 2
    assert minimal_sets(found) == found


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_other_solution_agrees_with_the_independent_counter(seed: int) -> None:
    rng = random.Random(seed)
    solution = random_grid(rng)
    for size in (20, 24, 28, 32, 40):
        clues = mask_of(rng.sample(range(81), size))
        other = other_solution(solution, clues)
        count = independent_count(kept(solution, clues))
        assert (other is None) == (count == 1)
        if other is not None:
            assert other.is_complete and not other.conflicts()
            assert difference(other, solution) & clues == 0
            assert independent_count(blanked(solution, difference(other, solution))) == 2


def _low_clue_rows() -> list[tuple[Grid, int]]:
    rows = []
    for line in (DATA / "lowclue_symmetric_sample.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, clues, _ = line.split("\t")
            rows.append((Grid.parse(puzzle), int(clues)))
    return rows


@pytest.mark.parametrize("puzzle", [p for p, _ in _low_clue_rows()[:6]], ids=str)
def test_a_unique_puzzle_hits_every_set(puzzle: Grid) -> None:
    assert independent_count(puzzle) == 1
    from xlsudoku.engine.solver import solve

    solution = solve(puzzle)
    assert solution is not None
    clues = mask_of(puzzle.givens())
    assert other_solution(solution, clues) is None
    for u in digit_sets(solution, 3):
        assert u & clues, cells_of(u)


def test_minimal_sets_drop_supersets_and_repeats() -> None:
    masks = [0b1100, 0b0110, 0b1110, 0b0110, 0b1, 0b1111, 0]
    assert minimal_sets(masks) == [0b1, 0b0110, 0b1100]


def test_masks_and_cells_round_trip() -> None:
    cells = (0, 5, 40, 80)
    assert cells_of(mask_of(cells)) == cells
    assert cells_of(0) == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12.4341221434321", "not complete: r1c3 is empty"),
        ("1234341221434312", "repeats digit 1 in column 3: r2c3 and r4c3"),
    ],
)
def test_check_solution_names_the_cell(text: str, message: str) -> None:
    with pytest.raises(UnavoidableError, match=message):
        check_solution(Grid.parse(text))
    with pytest.raises(UnavoidableError):
        digit_sets(Grid.parse(text))


def test_blanked_and_kept_are_complements() -> None:
    solution = random_grid(random.Random(8))
    m = mask_of(range(0, 81, 3))
    a, b = blanked(solution, m), kept(solution, m)
    assert all((x == 0) != (y == 0) for x, y in zip(a.cells, b.cells, strict=True))
    assert a.geometry is b.geometry is CLASSIC
