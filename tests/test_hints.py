"""Progressive hints (engine.hints): three levels of disclosure of the solver's next step."""

from __future__ import annotations

import pytest
from conftest import TEST_DATA

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import ConflictError, Grid, SudokuError
from xlsudoku.engine.hints import hint, hint_for_step, path_step
from xlsudoku.engine.logic import NoSolution, next_step
from xlsudoku.engine.steps import Technique


def _puzzles():
    lines = [ln for ln in (TEST_DATA / "se_rated_sample.tsv").read_text().splitlines()]
    return [ln.split("\t")[0] for ln in lines if ln and not ln.startswith(("#", "puzzle"))]


PUZZLES = _puzzles()[::5]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p[:10])
def test_levels_disclose_more_and_more(puzzle):
    grid = Grid.parse(puzzle)
    step = next_step(Board.from_grid(grid))
    h1, h2, h3 = (hint(grid, level) for level in (1, 2, 3))
    assert h1.step == h2.step == h3.step == step
    geo = grid.geometry
    # level 1: technique and region, no cell names
    assert step.technique.value in h1.text
    assert not any(geo.cell_name(c) in h1.text for c in step.cells if len(step.cells) < 81)
    assert set(step.cells) <= set(h1.cells)
    # level 2: the cells of the pattern
    assert h2.cells == step.cells
    assert all(geo.cell_name(c) in h2.text for c in step.cells)
    # level 3: the explanation and its result
    assert step.explanation in h3.text
    for p in step.placements:
        assert f"place {p.digit} in {geo.cell_name(p.cell)}" in h3.text
    for e in step.eliminations:
        assert geo.cell_name(e.cell) in h3.text and e.cell in h3.cells


def test_hint_on_a_board_with_pencil_marks():
    grid = Grid.parse(PUZZLES[-1])
    board = Board.from_grid(grid)
    assert hint(board, 3).step == next_step(board)


def test_trial_and_error_hint_when_no_technique_applies():
    # a board off the path (no path here) gets the table's step, else trial and error
    board = Board.from_grid(Grid.parse(PUZZLES[-1]))
    step = path_step(board, (), table=())
    assert step.technique is Technique.TRIAL_AND_ERROR
    assert "place" in hint_for_step(step, board, 3).text


def test_full_grid_has_no_hint():
    lines = (TEST_DATA / "solutions_sample.tsv").read_text().splitlines()
    solution = next(ln.split("\t")[1] for ln in lines if ln and not ln.startswith(("#", "puzzle")))
    h = hint(Grid.parse(solution), 2)
    assert h.step is None and h.cells == ()


def test_bad_level_and_bad_grids_raise():
    with pytest.raises(SudokuError, match="hint level 4"):
        hint(Grid.parse(PUZZLES[0]), 4)
    with pytest.raises(ConflictError, match="r1c1 and r1c2"):
        hint(Grid.parse("55" + "." * 79), 1)
    # a wrong digit that leaves no solution and stops every technique
    with pytest.raises(NoSolution):
        hint(Grid.parse("12345678.........9" + "." * 63), 1)


def test_cli_hint(capsys):
    from xlsudoku.cli import main

    assert main(["hint", PUZZLES[0], "--level", "3"]) == 0
    assert capsys.readouterr().out.strip() == hint(Grid.parse(PUZZLES[0]), 3).text
    assert main(["hint", "55" + "." * 79]) == 1  # bad input (common.Exit.BAD_INPUT)
    assert "r1c1 and r1c2" in capsys.readouterr().err
