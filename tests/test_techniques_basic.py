"""Basic technique finders: hand-made cases, soundness on real puzzles, other geometries.

The HoDoKu regression library (tests/test_reglib.py) holds the bulk of the exact cases; here
tests/data/techniques_basic.txt adds small hand-made ones (with must-not-fire cases), and every
step the basic finders yield along real solve paths is checked against the known solution.
Full data: ``XLSUDOKU_SAMPLE=all python -m pytest tests/test_techniques_basic.py``.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import TEST_DATA, rating_path_boards, sample_lines

from xlsudoku.engine.board import Board
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate import minimal_puzzle
from xlsudoku.engine.grid import CLASSIC, Grid, geometry
from xlsudoku.engine.logic import solve_path
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry
from xlsudoku.engine.techniques import TECHNIQUES

BASIC = tuple(
    spec
    for spec in TECHNIQUES
    if spec.technique.name
    in {
        "FULL_HOUSE",
        "HIDDEN_SINGLE",
        "NAKED_SINGLE",
        "POINTING",
        "CLAIMING",
        "NAKED_PAIR",
        "NAKED_TRIPLE",
        "NAKED_QUAD",
        "HIDDEN_PAIR",
        "HIDDEN_TRIPLE",
        "HIDDEN_QUAD",
        "X_WING",
        "SWORDFISH",
        "JELLYFISH",
        "FINNED_X_WING",
        "FINNED_SWORDFISH",
        "FINNED_JELLYFISH",
    }
)


def _cell(name: str) -> int:
    m = re.fullmatch(r"r(\d)c(\d)", name)
    assert m, name
    return (int(m[1]) - 1) * 9 + int(m[2]) - 1


def _parse_case(line: str):
    technique, cells, elims, places, expect = (part.strip() for part in line.split(";"))
    values = [0] * 81
    cands = [0] * 81
    for item in cells.split():
        if ":" in item:
            name, digit = item.split(":")
            values[_cell(name)] = int(digit)
        else:
            name, digits = item.split("=")
            cands[_cell(name)] = sum(1 << (int(d) - 1) for d in digits)
    eliminations = {
        (_cell(item.split("-")[0]), int(d)) for item in elims.split() for d in item.split("-")[1]
    }
    placements = {(_cell(item.split("=")[0]), int(item.split("=")[1])) for item in places.split()}
    board = Board.from_candidates(tuple(values), tuple(cands))
    return Technique.parse(technique), board, eliminations, placements, expect


CASES = [
    ln
    for ln in (TEST_DATA / "techniques_basic.txt").read_text(encoding="utf-8").splitlines()
    if ln.strip() and not ln.startswith("#")
]


@pytest.mark.parametrize(
    "line", CASES, ids=[f"{i + 1}-{ln.split(';')[0].strip()}" for i, ln in enumerate(CASES)]
)
def test_hand_made_case(line):
    technique, board, eliminations, placements, expect = _parse_case(line)
    spec = next(s for s in TECHNIQUES if s.technique is technique)
    steps = list(spec.find(board))
    got = [
        ({(e.cell, e.digit) for e in s.eliminations}, {(p.cell, p.digit) for p in s.placements})
        for s in steps
    ]
    if expect == "find":
        assert (eliminations, placements) in got, f"{technique.value}: got {got}"
    else:
        assert expect == "none"
        for elims, places in got:
            assert not elims & eliminations and not places & placements, (elims, places)


def _check_sound(board: Board, solution: Grid, table, cap: int = 50) -> int:
    """Check every step (up to *cap* per finder) of *table* on *board*; return how many."""
    checked = 0
    for spec in table:
        for i, step in enumerate(spec.find(board)):
            if i >= cap:
                break
            checked += 1
            for p in step.placements:
                assert solution[p.cell] == p.digit, f"{spec.technique.value}: {step.explanation}"
            for e in step.eliminations:
                assert solution[e.cell] != e.digit, f"{spec.technique.value}: {step.explanation}"
                assert board.has_candidate(e.cell, e.digit), f"not a candidate: {step.explanation}"
            assert step.cells and step.digits and step.explanation
    return checked


def _puzzles_with_solutions(shared_data, default):
    lines = (shared_data / "sudoku_exchange_with_solutions.tsv").read_text().splitlines()[1:]
    return [ln.split("\t")[:2] for ln in sample_lines(lines, default)]


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_basic_steps_are_sound_along_solve_paths(shared_data):
    checked = 0
    for puzzle, solution in _puzzles_with_solutions(shared_data, 15):
        grid, sol = Grid.parse(puzzle), Grid.parse(solution)
        path = solve_path(grid, BASIC)
        board = Board.from_grid(grid)
        for step in path.steps[:60]:
            checked += _check_sound(board, sol, BASIC)
            board = board.apply(step)
        assert path.board.grid == sol
    assert checked > 300


def test_basic_steps_are_sound_on_hard_puzzles(shared_data):
    lines = (shared_data / "magictour_top1465_hodoku.tsv").read_text().splitlines()[1:]
    for line in sample_lines(lines, 6):
        grid = Grid.parse(line.split("\t")[0])
        sol = solve(grid)
        path = solve_path(grid, BASIC)
        board = Board.from_grid(grid)
        for step in path.steps:
            _check_sound(board, sol, BASIC, cap=20)
            board = board.apply(step)
        assert path.board.grid == sol


@pytest.mark.parametrize("size", [4, 6])
def test_basic_finders_on_small_geometries(size):
    geo = geometry(*{4: (2, 2), 6: (2, 3)}[size])
    for seed in range(5):
        solution = random_grid(random.Random(seed), geo)
        puzzle = minimal_puzzle(solution, random.Random(seed + 100), Symmetry.NONE)
        path = solve_path(puzzle, BASIC)
        assert path.solved and path.board.grid == solution
        board = Board.from_grid(puzzle)
        for step in path.steps:
            _check_sound(board, solution, BASIC)
            board = board.apply(step)


def test_explanations_use_one_based_names():
    board = Board.from_grid(Grid.parse("12345678." + "." * 72))
    step = next(next(s.find(board)) for s in TECHNIQUES if s.technique is Technique.FULL_HOUSE)
    assert "r1c9" in step.explanation and "row 1" in step.explanation
    assert step.houses == (0,) and step.cells == (8,)


def test_basic_levels_follow_the_issue():
    levels = {spec.technique: spec.level for spec in BASIC}
    assert {levels[t] for t in (Technique.FULL_HOUSE, Technique.HIDDEN_SINGLE)} == {Level.EASY}
    assert levels[Technique.POINTING] == levels[Technique.CLAIMING] == Level.MEDIUM
    assert levels[Technique.NAKED_PAIR] == levels[Technique.X_WING] == Level.HARD
    assert levels[Technique.SWORDFISH] == levels[Technique.FINNED_X_WING] == Level.VERY_HARD
    assert CLASSIC.size == 9


def _se_path_boards():
    """Return every board along the SE rating paths of the SE-rated sample (tests/data)."""
    lines = (TEST_DATA / "se_rated_sample.tsv").read_text(encoding="utf-8").splitlines()
    puzzles = [ln.split("\t")[0] for ln in lines if not ln.startswith("#")][1:]
    return rating_path_boards(puzzles[::3])


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_house_and_digit_caches_match_fresh_searches():
    """Finders cached per house (subsets) or per digit (fish) give what a fresh search gives.

    The caches are warm from every earlier board of the paths, so a key missing an input the
    steps depend on would hand back a stale step here.
    """
    from xlsudoku.engine.techniques.direct import direct_hidden_in, find_direct_hidden_subsets
    from xlsudoku.engine.techniques.fish import _places, digit_fish, find_fish
    from xlsudoku.engine.techniques.subsets import (
        find_hidden_subsets,
        hidden_subsets_in,
        house_candidates,
        naked_sets_in,
    )

    boards = _se_path_boards()
    assert len(boards) > 300
    hits_before = hidden_subsets_in.cache_info().hits + digit_fish.cache_info().hits
    found = 0
    for board in boards:
        geo = board.geometry
        houses = house_candidates(board)
        assert houses == tuple(tuple(board.cands[c] for c in cells) for cells in geo.houses)
        for size in (2, 3, 4):
            fresh = [
                s for h in range(27) for s in hidden_subsets_in.__wrapped__(geo, size, h, houses[h])
            ]
            assert list(find_hidden_subsets(board, size)) == fresh
            found += len(fresh)
            fresh = [
                x for h in range(27) for x in naked_sets_in.__wrapped__(geo, size, h, houses[h])
            ]
            assert [x for h in range(27) for x in naked_sets_in(geo, size, h, houses[h])] == fresh
            found += len(fresh)
            in_rows = _places(board)
            for finned in (False, True):
                fresh = [
                    s
                    for d in range(1, 10)
                    for s in digit_fish.__wrapped__(geo, size, finned, d, in_rows[d])
                ]
                assert list(find_fish(board, size, finned)) == fresh
                found += len(fresh)
        for size in (2, 3):
            order = [*range(18, 27), *range(9, 18), *range(9)]
            fresh = [
                s for h in order for s in direct_hidden_in.__wrapped__(geo, size, h, houses[h])
            ]
            assert list(find_direct_hidden_subsets(board, size)) == fresh
            found += len(fresh)
    assert found > 100
    assert hidden_subsets_in.cache_info().hits + digit_fish.cache_info().hits > hits_before
