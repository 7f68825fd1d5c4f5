"""The custom functions for every shape, through xlwings' remote engine (custom_functions_call).

One table row per shape: SUDOKU_GENERATE makes a puzzle of it (blank opens and pattern take the
shape's defaults), SUDOKU_SOLVE solves it, SUDOKU_COUNT counts one solution and marks a count
that reached its limit (``>=N``), SUDOKU_GRADE shows the one analysis, and the range messages
give the shape's own bounds.  The engine is the oracle.
"""

import pytest
import remote_book

from xlsudoku.addin import layout, params
from xlsudoku.engine import analysis
from xlsudoku.engine.generate import KNOWN_FLOOR, GenerateRequest, generate
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

call = remote_book.call_function


# shape, opens asked (blank: the shape's default), the fewest opens the function takes
CASES = [
    ("9x9", "", 24),
    ("9x9-X", 30, KNOWN_FLOOR.get("9x9-X", 8)),
    ("4x4", "", 4),
    ("6x6", 16, 8),
    ("12x12", "", KNOWN_FLOOR.get("12x12", 11)),
    ("16x16", 150, KNOWN_FLOOR.get("16x16", 15)),
]


def grid_of(rows, geo):
    return Grid(tuple(int(value or 0) for row in rows for value in row), geo)


@pytest.mark.parametrize(("shape", "opens", "fewest"), CASES)
def test_every_function_on_every_shape(shape, opens, fewest):
    geo = params.geometry_of(shape)
    rows = call("sudoku_generate", [[opens]], [[""]], [[11]], [[shape]])
    assert len(rows) == geo.size and all(len(row) == geo.size for row in rows), rows
    puzzle = grid_of(rows, geo)
    default_givens, default_pattern = layout.FUNCTION_DEFAULTS[shape]
    pattern = None if default_pattern == layout.NO_PATTERN else default_pattern
    expected = generate(
        GenerateRequest(
            target_givens=opens or default_givens, pattern=pattern, seed=11, geometry=geo
        )
    )
    assert puzzle == expected.puzzle and puzzle.given_count == (opens or default_givens)
    assert count_solutions(puzzle, 2) == 1 and is_symmetric(puzzle, Symmetry.ROTATE_180)
    # the same arguments, the same puzzle; blank and omitted seed alike
    assert call("sudoku_generate", [[opens]], [[""]], [[11]], [[shape]]) == rows
    named = [[shape]] if geo.diagonals else [[""]]  # 9x9-X must be named, the rest is read
    assert call("sudoku_solve", rows, named) == [list(r) for r in solve(puzzle).rows()]
    assert call("sudoku_count", rows, [[""]], named) == [[1]]
    graded = analysis.analyze(puzzle).graded()
    assert call("sudoku_grade", rows, named) == [[graded.label, graded.score, "se"]]
    rated = analysis.analyze(puzzle, "sukaku").graded()
    assert call("sudoku_grade", rows, named, [["sukaku"]]) == [[rated.label, rated.score, "sukaku"]]
    sparse = [row[:] for row in rows]
    for r in range(geo.size // 2, geo.size):
        sparse[r] = [""] * geo.size
    assert call("sudoku_count", sparse, [[3]], named) == [[">=3"]]  # the cap is marked
    low = call("sudoku_generate", [[fewest - 1]], [[""]], [[1]], [[shape]])[0][0]
    assert low.startswith(f"ERROR: opens for {shape} must be a whole number from {fewest} to ")
    assert low.endswith(f"{geo.cell_count - 1} (or blank), got {fewest - 1}")


def test_blank_and_omitted_arguments_mean_the_same():
    omitted = call("sudoku_generate")
    assert omitted == call("sudoku_generate", [[""]], [[""]], [[""]], [[""]])
    assert omitted == call("sudoku_generate", [[26]], [[1]], [[0]], [["9x9"]])


def test_pattern_none_and_masks_on_9x9():
    rows = call("sudoku_generate", [[27]], [["none"]], [[4]])
    assert grid_of(rows, params.geometry_of("9x9")).given_count == 27
    mask = call("sudoku_generate", [[27]], [["x.x.x.x.x"]], [[4]])
    assert len(mask) == 9 and not str(mask[0][0]).startswith("ERROR")
    wrong = call("sudoku_generate", [[""]], [[3]], [[1]], [["6x6"]])[0][0]
    assert wrong.startswith("ERROR: pattern: the 6x6 grid has no center box")


def test_a_9x9_range_is_classic_unless_x_is_named():
    rows = call("sudoku_generate", [[30]], [[""]], [[2]], [["9x9-X"]])
    x_solution = call("sudoku_solve", rows, [["9x9-X"]])
    assert call("sudoku_count", rows, [[""]], [["9x9-X"]]) == [[1]]
    plain = call("sudoku_count", rows, [[50]])[0][0]  # read as classic: more solutions
    assert plain == ">=50" or plain > 1
    assert x_solution != [["ERROR"]] and len(x_solution) == 9


@pytest.mark.parametrize("shape", ["9x9-windoku", "9x9-jigsaw:steps", "9x9-Jigsaw:Comb"])
def test_windoku_and_jigsaw_through_every_function(shape):
    from xlsudoku.engine.formats import geometry_named

    geo = geometry_named(shape)
    rows = call("sudoku_generate", [[""]], [[""]], [[5]], [[shape]])
    puzzle = grid_of(rows, geo)
    expected = generate(GenerateRequest(target_givens=26, pattern=1, seed=5, geometry=geo))
    assert puzzle == expected.puzzle
    assert call("sudoku_solve", rows, [[shape]]) == [list(r) for r in solve(puzzle).rows()]
    assert call("sudoku_count", rows, [[""]], [[shape]]) == [[1]]
    graded = analysis.analyze(puzzle).graded()
    assert call("sudoku_grade", rows, [[shape]]) == [[graded.label, graded.score, "se"]]
    # read as classic 9x9, the same givens no longer make one puzzle
    assert call("sudoku_count", rows, [[""]], [[""]]) != [[1]]


def test_a_bad_jigsaw_layout_is_one_message_naming_the_argument():
    rows = [[""] * 9 for _ in range(9)]
    found = call("sudoku_solve", rows, [["9x9-jigsaw:" + "1" * 81]])
    assert found == [
        ["ERROR: geometry '9x9-jigsaw:111...': jigsaw layout: needs 9 regions, found 1"]
    ]
