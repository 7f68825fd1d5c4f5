"""The human-style solve loop (engine.logic): paths end at the known solution, limits, errors.

Solutions come from the data files (external solvers), never from xlsudoku.engine.solver.
"""

from __future__ import annotations

import pytest
from conftest import TEST_DATA, sample_lines

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import ConflictError, Grid
from xlsudoku.engine.logic import (
    NoSolution,
    limit_table,
    next_found,
    next_step,
    solve_path,
    trial_step,
)
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import TECHNIQUES


def _tsv(path, default=None):
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    header = lines[0].split("\t")
    body = lines[1:] if default is None else sample_lines(lines[1:], default)
    return [dict(zip(header, ln.split("\t"), strict=False)) for ln in body]


SOLVED = _tsv(TEST_DATA / "solutions_sample.tsv")


@pytest.mark.parametrize("row", SOLVED[:12], ids=lambda r: r["puzzle"][:12])
def test_path_ends_at_the_known_solution(row):
    path = solve_path(Grid.parse(row["puzzle"]))
    assert path.solved and not path.stalled
    assert str(path.board.grid) == row["solution"]
    assert (
        len(path.steps)
        == len(path.specs)
        == 81
        - Grid.parse(row["puzzle"]).given_count
        + sum(1 for s in path.steps if not s.placements)
    )


def test_paths_on_shared_data_end_at_the_known_solution(shared_data):
    for row in _tsv(shared_data / "sudoku_exchange_with_solutions.tsv", 25):
        path = solve_path(Grid.parse(row["puzzle"]))
        assert str(path.board.grid) == row["solution"], row["puzzle"]


def test_every_step_is_found_by_its_row():
    path = solve_path(Grid.parse(SOLVED[0]["puzzle"]))
    for step, spec in zip(path.steps, path.specs, strict=True):
        assert spec is not None and spec.technique is step.technique


def test_without_techniques_every_step_is_trial_and_error():
    row = SOLVED[1]
    path = solve_path(Grid.parse(row["puzzle"]), table=())
    assert path.solved and str(path.board.grid) == row["solution"]
    assert {s.technique for s in path.steps} == {Technique.TRIAL_AND_ERROR}
    assert set(path.specs) == {None}
    # the most constrained cell goes first
    board = Board.from_grid(Grid.parse(row["puzzle"]))
    first = path.steps[0].placements[0].cell
    assert board.cands[first].bit_count() == min(m.bit_count() for m in board.cands if m)


def test_max_level_stalls_instead_of_guessing():
    hard = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    path = solve_path(Grid.parse(hard), max_level=Level.EASY)
    assert path.stalled and not path.solved
    assert {s.technique for s in path.steps} <= {
        Technique.FULL_HOUSE,
        Technique.HIDDEN_SINGLE,
        Technique.NAKED_SINGLE,
    }
    assert next_step(path.board, limit_table(TECHNIQUES, Level.EASY)) is None


def test_max_steps_bounds_the_loop():
    path = solve_path(Grid.parse(SOLVED[2]["puzzle"]), max_steps=3)
    assert len(path.steps) == 3 and not path.solved and not path.stalled


def test_a_board_with_pencil_marks_is_accepted():
    grid = Grid.parse(SOLVED[3]["puzzle"])
    path = solve_path(Board.from_grid(grid))
    assert str(path.board.grid) == SOLVED[3]["solution"]


def test_conflicting_givens_raise_naming_the_cells():
    with pytest.raises(ConflictError, match="r1c1 and r1c5"):
        solve_path(Grid.parse("7...7" + "." * 76))


NO_SOLUTION = [
    r["puzzle"] for r in _tsv(TEST_DATA / "uniqueness_sample.tsv") if r["category"] == "no_solution"
]


@pytest.mark.parametrize("puzzle", NO_SOLUTION, ids=lambda p: p[:12])
def test_puzzles_without_solution_raise(puzzle):
    with pytest.raises((NoSolution, ConflictError)):
        solve_path(Grid.parse(puzzle))


def test_next_step_on_a_full_grid_is_none():
    full = Grid.parse(SOLVED[0]["solution"])
    assert next_step(Board.from_grid(full)) is None
    assert next_found(Board.from_grid(full)) is None


def test_trial_step_uses_the_given_solution():
    row = SOLVED[4]
    board = Board.from_grid(Grid.parse(row["puzzle"]))
    step = trial_step(board, Grid.parse(row["solution"]))
    (placement,) = step.placements
    assert row["solution"][placement.cell] == str(placement.digit)
    assert step.technique is Technique.TRIAL_AND_ERROR
