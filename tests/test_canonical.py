"""The canonical form up to the Sudoku symmetries, checked against transformations made here."""

from __future__ import annotations

import random

import pytest

from xlsudoku.engine.canonical import canonical_form, relabelled
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import Grid, geometry


def _orders(rng: random.Random) -> list[int]:
    """Return a random order of 0-8 that keeps the three groups of three together."""
    groups = [0, 1, 2]
    rng.shuffle(groups)
    order = []
    for g in groups:
        inner = [0, 1, 2]
        rng.shuffle(inner)
        order += [3 * g + i for i in inner]
    return order


def _transform(cells: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """Return *cells* moved by a random Sudoku symmetry and relabelled at random."""
    rows, cols = _orders(rng), _orders(rng)
    moved = [cells[rows[r] * 9 + cols[c]] for r in range(9) for c in range(9)]
    if rng.random() < 0.5:
        moved = [moved[(c % 9) * 9 + c // 9] for c in range(81)]
    names = list(range(1, 10))
    rng.shuffle(names)
    return tuple(0 if d == 0 else names[d - 1] for d in moved)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_symmetric_copy_has_the_same_form_and_none_reads_less(seed):
    rng = random.Random(seed)
    puzzle = generate(GenerateRequest(seed=seed)).puzzle
    form = canonical_form(puzzle)
    assert len(form) == 81 and Grid.parse(form).given_count == puzzle.given_count
    for _ in range(30):
        copy = _transform(puzzle.cells, rng)
        assert canonical_form(Grid(copy)) == form
        # the form is the least reading: no copy reads below it
        assert relabelled(copy) >= form


def test_different_puzzles_have_different_forms():
    forms = {canonical_form(generate(GenerateRequest(seed=s)).puzzle) for s in range(1, 6)}
    assert len(forms) == 5


def test_a_mirror_image_is_the_same_puzzle_and_other_shapes_are_relabelled_only():
    puzzle = generate(GenerateRequest(seed=9)).puzzle
    mirrored = Grid(tuple(puzzle[r * 9 + 8 - c] for r in range(9) for c in range(9)))
    assert canonical_form(mirrored) == canonical_form(puzzle)
    windoku = Grid(puzzle.cells, geometry(3, 3, windoku=True))
    assert canonical_form(windoku) == relabelled(puzzle.cells)
