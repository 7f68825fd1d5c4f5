"""Every shape on the sheets: START, SAVE, CLEAR, ANALYZE, HINT and SOLVE for 4x4 to 16x16.

Driven through OpenpyxlIO on the committed workbook, through the headless runner and through
xlwings' remote engine; the engine is the oracle (same seed, same puzzle).
"""

import asyncio
import shutil

import openpyxl
import pytest
import remote_book
import xlwings as xw
import xlwings.server
from sheets import TEMPLATE, block_of, grid_of

from xlsudoku.addin import actions, layout, params, render, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.cli import main
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import DIGIT_CHARS, Grid
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.symmetry import Symmetry, is_symmetric
from xlsudoku.xlsm.cells import character_width

SHAPES = {
    "4x4": 6,
    "6x6": 14,
    "9x9": 26,
    "9x9-X": 28,
    "9x9-windoku": 26,
    "12x12": 70,
    "16x16": 140,
}


def shaped(io, shape, seed=5):
    io.write(layout.GEOMETRY, shape)
    io.write(layout.OPENS, SHAPES[shape])
    io.write(layout.PATTERN, 1 if shape.startswith("9x9") else "none")
    io.write(layout.SEED, seed)
    return params.geometry_of(shape)


def request(shape, seed=5):
    geo = params.geometry_of(shape)
    pattern = 1 if shape.startswith("9x9") else None
    return GenerateRequest(target_givens=SHAPES[shape], pattern=pattern, geometry=geo, seed=seed)


@pytest.mark.parametrize("shape", SHAPES)
def test_start_save_clear_for_every_shape(io, wb, shape):
    geo = shaped(io, shape)
    io.write(layout.SHOW_SOLUTION, "Yes")
    outcome = actions.start(io)
    assert outcome.ok, outcome.status
    puzzle = grid_of(io.read(layout.PUZZLE_GRID), geo)  # nothing outside its corner
    assert puzzle == generate(request(shape)).puzzle
    assert puzzle.given_count == SHAPES[shape] and count_solutions(puzzle, 2) == 1
    assert is_symmetric(puzzle, Symmetry.ROTATE_180)
    assert grid_of(io.read(layout.SOLUTION_GRID), geo) == solve(puzzle)
    assert dict(map(tuple, io.read(layout.STATS)))["Geometry"] == shape
    # the Print sheet's cells share the page's square; the answer key is shown
    ws = wb[layout.PRINT]
    cell = layout.PRINT_SQUARE / geo.size
    first_row, first_col, _, _ = layout.NAMES[layout.PRINT_GRID].bounds
    for offset in range(layout.MAX_SIDE):
        column = ws.column_dimensions[layout.column_letters(first_col + offset)]
        row = ws.row_dimensions[first_row + offset]
        assert column.hidden == (offset >= geo.size) == row.hidden
        if offset < geo.size:
            assert column.width == character_width(round(cell, 2)) and row.height == round(cell, 2)
    key_row = layout.NAMES[layout.PRINT_KEY].bounds[0]
    assert not ws.row_dimensions[key_row].hidden

    saved = actions.save_to_collection(io)
    assert saved.ok, saved.status
    record = dict(zip(layout.COLLECTION_COLUMNS, saved.detail, strict=True))
    assert record["geometry"] == shape and record["puzzle"] == str(puzzle)
    assert record["pattern"] == (1 if shape.startswith("9x9") else "")
    assert record["seed"] == 5

    io.write(layout.GEOMETRY, "6x6")
    cleared = actions.clear(io)
    assert cleared.status.startswith("Cleared the puzzle, solution and statistics; the grid is 6x6")
    assert dict(map(tuple, io.read(layout.STATS)))["Geometry"] == "6x6"
    assert ws.column_dimensions[layout.column_letters(first_col + 5)].hidden is False
    assert ws.column_dimensions[layout.column_letters(first_col + 6)].hidden is True
    assert ws.row_dimensions[key_row].hidden  # no answer key after CLEAR


@pytest.mark.parametrize("shape", SHAPES)
def test_analyze_hint_solve_for_every_shape(io, shape):
    geo = params.geometry_of(shape)
    result = generate(request(shape, seed=9))
    io.write(layout.ANALYZE_GEOMETRY, shape)
    io.write(layout.ANALYZE_GRID, block_of(str(result.puzzle)))
    analysis = actions.analyze(io)
    assert analysis.ok and analysis.status.startswith("Unique solution"), analysis.status
    report = "".join("".join(row[0].split()) for row in io.read(layout.ANALYZE_REPORT) if row[0])
    assert report.startswith(f"Puzzle({shape}):{result.puzzle}Givens:{result.givens}")
    marks = params.read_candidates(io.read(layout.CANDIDATES), geo)
    assert sum(mask is not None for mask in marks) == geo.cell_count - result.givens
    for _ in range(3):
        hinted = actions.hint(io)
        assert hinted.ok, hinted.status
    assert hinted.status.startswith("Hint 3 of 3. Applied:")
    after = grid_of(io.read(layout.ANALYZE_GRID), geo)
    assert after.given_count > result.givens and all(
        after[c] == result.solution[c] for c in range(geo.cell_count) if after[c]
    )
    solved = actions.solve(io)
    assert solved.status == "Solved: the solution is unique."
    assert grid_of(io.read(layout.ANALYZE_SOLUTION), geo) == result.solution


def test_x_sudoku_keeps_its_diagonals(io):
    shaped(io, "9x9-X")
    assert actions.start(io).ok
    geo = params.geometry_of("9x9-X")
    puzzle = grid_of(io.read(layout.PUZZLE_GRID), geo)
    # read as a classic 9x9 the same digits may allow more solutions; as X they have one
    assert count_solutions(puzzle, 2) == 1 and puzzle.geometry.diagonals
    io.write(layout.ANALYZE_GEOMETRY, "9x9-X")
    io.write(layout.ANALYZE_GRID, block_of(str(puzzle)))
    assert actions.analyze(io).status.startswith("Unique solution")


def test_a_long_string_sets_the_analyze_geometry(io):
    result = generate(request("16x16", seed=2))
    io.write(layout.ANALYZE_STRING, str(result.puzzle))
    outcome = actions.analyze(io)
    assert outcome.ok
    assert outcome.status.endswith(" Geometry set to 16x16 for the 256-cell string.")
    assert io.read(layout.ANALYZE_GEOMETRY) == "16x16"
    assert grid_of(io.read(layout.ANALYZE_GRID), params.geometry_of("16x16")) == result.puzzle


def test_sixteen_accepts_letters_and_numbers(io):
    result = generate(request("16x16", seed=3))
    block = block_of(str(result.puzzle))
    for r in range(16):
        for c in range(16):
            if isinstance(block[r][c], int) and block[r][c] > 9 and (r + c) % 2:
                block[r][c] = DIGIT_CHARS[block[r][c] - 1]  # 10-16 typed as A-G
    io.write(layout.ANALYZE_GEOMETRY, "16x16")
    io.write(layout.ANALYZE_GRID, block)
    assert actions.solve(io).status == "Solved: the solution is unique."


def test_save_reads_the_grid_in_its_shape_not_the_parameter(io):
    geo = shaped(io, "6x6")
    assert actions.start(io).ok
    io.write(layout.GEOMETRY, "16x16")  # changed after START: the grid is still 6x6
    saved = actions.save_to_collection(io)
    assert saved.ok and saved.detail[2] == "6x6"
    assert Grid.parse(saved.detail[3], geo).given_count == SHAPES["6x6"]


def test_digits_outside_the_shape_are_refused(io, wb):
    shaped(io, "9x9")
    assert actions.start(io).ok
    ref = layout.NAMES[layout.PUZZLE_GRID]
    wb[ref.sheet][ref.cell(12, 12)] = 4
    outcome = actions.save_to_collection(io)
    assert outcome.status == (
        f"cell {ref.cell(12, 12)} holds 4 but is outside the 9x9 grid: set Geometry to the "
        "puzzle's shape, or clear the cell"
    )


def test_windoku_keeps_its_extra_boxes_and_shades_them(io, wb):
    shaped(io, "9x9-windoku")
    assert actions.start(io).ok
    geo = params.geometry_of("9x9-windoku")
    puzzle = grid_of(io.read(layout.PUZZLE_GRID), geo)
    assert count_solutions(puzzle, 2) == 1 and puzzle.geometry.windoku
    assert dict(map(tuple, io.read(layout.STATS)))["Geometry"] == "9x9-windoku"
    io.write(layout.ANALYZE_GEOMETRY, "9x9-windoku")
    io.write(layout.ANALYZE_GRID, block_of(str(puzzle)))
    assert actions.analyze(io).status.startswith("Unique solution")
    # the Analyze grid's four extra boxes are shaded, the rest of the grid is not
    ws = wb[layout.ANALYZE]
    first_row, first_col, _, _ = layout.NAMES[layout.ANALYZE_GRID].bounds
    shade = render.DIAGONAL_COLOUR.lstrip("#").upper()
    extra = {cell for house in geo.houses[27:] for cell in house}
    for cell in range(81):
        r, c = divmod(cell, 9)
        colour = ws.cell(first_row + r, first_col + c).fill.fgColor.rgb or ""
        assert colour.upper().endswith(shade) == (cell in extra), geo.cell_name(cell)


def test_every_shape_headless(tmp_path):
    book = tmp_path / "xlsudoku.xlsm"
    shutil.copy2(TEMPLATE, book)
    wb = openpyxl.load_workbook(book, keep_vba=True)
    for name, value in {"Geometry": "12x12", "Pattern": "none", "Opens": 70, "Seed": 4}.items():
        wb[layout.GENERATOR][layout.NAMES[name].address] = value
    wb.save(book)
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    assert main(["workbook", "save", str(book), "--quiet"]) == 0
    wb = openpyxl.load_workbook(book)
    geo = params.geometry_of("12x12")
    grid = grid_of([[c.value for c in row] for row in wb[layout.GENERATOR]["F4:U19"]], geo)
    assert grid == generate(request("12x12", seed=4)).puzzle
    assert wb[layout.COLLECTION]["C2"].value == "12x12"


def run_script(book, name):
    asyncio.run(xlwings.server.custom_scripts_call(xl, name, typehint_to_value={xw.Book: book}))
    return book.json()["actions"]


def test_sixteen_through_the_remote_engine(wb):
    io = OpenpyxlIO(wb)
    geo = shaped(io, "16x16")
    json_actions = run_script(remote_book.book(wb), "start")
    cells = remote_book.writes(json_actions)
    ref = layout.NAMES[layout.PUZZLE_GRID]
    block = [[cells[(ref.sheet, ref.cell(r, c))] for c in range(16)] for r in range(16)]
    assert grid_of(block, geo) == generate(request("16x16")).puzzle
    stats = layout.NAMES[layout.STATS]
    assert cells[(stats.sheet, stats.cell(0, 1))] == "16x16"
    # the remote engine leaves the Print sheet at the template's sizes, which fit 16x16
    assert not [a for a in json_actions if a["func"] in ("setColumnWidth", "setRowHeight")]

    io.write(layout.ANALYZE_GEOMETRY, "16x16")
    io.write(layout.ANALYZE_GRID, block)
    cells = remote_book.writes(run_script(remote_book.book(wb), "solve"))
    ref = layout.NAMES[layout.ANALYZE_SOLUTION]
    solved = [[cells[(ref.sheet, ref.cell(r, c))] for c in range(16)] for r in range(16)]
    assert grid_of(solved, geo) == generate(request("16x16")).solution
    assert render.block_rows(None) == [[""] * 16 for _ in range(16)]
