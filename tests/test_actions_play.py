"""The Play sheet: PLAY, CHECK, HINT from the player's entries and marks, SOLVE, every shape.

Driven through OpenpyxlIO on the committed workbook, through the headless runner (``xlsudoku
workbook play|check|play-hint|play-solve``) and through xlwings' remote engine (the scripts
Lite and Server run); the engine's solver is the oracle.
"""

import asyncio
import re
import shutil

import openpyxl
import pytest
import remote_book
import xlwings as xw
import xlwings.server
from sheets import PUZZLES, TEMPLATE, fills, grid_of

from xlsudoku.addin import actions, layout, params, render, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.cli import main
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import solve

PUZZLE = PUZZLES[0][0]
SEVERAL = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"
SHAPES = {"9x9": 26, "6x6": 14, "16x16": 140}


def start(io, shape="9x9", seed=5):
    io.write(layout.GEOMETRY, shape)
    io.write(layout.OPENS, SHAPES[shape])
    io.write(layout.PATTERN, 1 if shape == "9x9" else "none")
    io.write(layout.SEED, seed)
    assert actions.start(io).ok
    return actions.generator_puzzle(io)


def play_grid(io, geo):
    return params.read_entries(layout.PLAY_GRID, io.read(layout.PLAY_GRID), geo)


def enter(io, cells):
    """Type {cell: digit} into the play grid (0 clears a cell)."""
    block = io.read(layout.PLAY_GRID)
    size = int(io.read(layout.PLAY_GEOMETRY).split("x")[0])
    for cell, digit in cells.items():
        r, c = divmod(cell, size)
        block[r][c] = digit or None
    io.write(layout.PLAY_GRID, block)


def wrong_digit(solution, cell):
    return solution[cell] % solution.geometry.size + 1


# -- PLAY ----------------------------------------------------------------------------------------


def test_play_takes_the_generator_analyze_or_a_collection_row(io):
    puzzle = start(io)
    outcome = actions.play(io)
    assert outcome.ok, outcome.status
    assert outcome.status.startswith("Playing the Generator's puzzle (9x9, 26 givens): 55 cells")
    assert grid_of(io.read(layout.PLAY_GIVENS)) == puzzle
    assert grid_of(io.read(layout.PLAY_GRID)) == puzzle
    assert io.read(layout.PLAY_GEOMETRY) == "9x9"

    io.write(layout.ANALYZE_STRING, PUZZLE)
    io.write(layout.PLAY_SOURCE, "Analyze")
    assert actions.play(io).status.startswith("Playing the Analyze sheet's puzzle")
    assert str(grid_of(io.read(layout.PLAY_GIVENS))) == PUZZLE
    assert io.read(layout.ANALYZE_STRING) == PUZZLE  # PLAY reads the Analyze sheet, never writes

    assert actions.save_to_collection(io).ok
    io.write(layout.PLAY_SOURCE, "id 1")
    assert actions.play(io).status.startswith("Playing Collection id 1 (9x9")
    assert grid_of(io.read(layout.PLAY_GIVENS)) == puzzle
    io.write(layout.PLAY_SOURCE, 1.0)  # Excel's number
    assert actions.play(io).ok


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "the first",
            "Play from (C3) must be Generator, Analyze, Selected or a Collection id such as 7",
        ),
        ("Selected", "Play from (C3) is Selected, but no Collection row is selected: select"),
        ("7", "No Collection row has id 7"),
        ("Generator", "The Generator's puzzle is empty: press START first"),
        ("Analyze", "only a puzzle with one is played"),
        ("\u00b2", "Play from (C3) must be Generator, Analyze, Selected or a Collection id"),
        ("\u2460", "Play from (C3) must be Generator, Analyze, Selected or a Collection id"),
        ("7" * 5001, "Play from (C3): '77777...' is not an id: an id has at most 15 digits"),
        (10**400, "Play from (C3): '10000...' is not an id: an id has at most 15 digits"),
    ],
)
def test_play_refuses_what_cannot_be_played(io, source, message):
    io.write(layout.ANALYZE_STRING, SEVERAL)
    io.write(layout.PLAY_SOURCE, source)
    outcome = actions.play(io)
    assert not outcome.ok and message in outcome.status
    assert io.read(layout.PLAY_STATUS) == outcome.status
    assert params.is_blank(io.read(layout.PLAY_GEOMETRY))  # nothing else written


@pytest.mark.parametrize("action", [actions.check, actions.play_hint, actions.play_solve])
@pytest.mark.parametrize("value", [10**400, -(10**5000), float("inf")], ids=["400", "5000", "inf"])
def test_a_huge_number_in_the_play_grid_is_named(io, action, value):
    puzzle = start(io)
    io.write(layout.PLAY_SOURCE, "Generator")
    assert actions.play(io).ok
    empty = puzzle.cells.index(0)
    enter(io, {empty: value})
    outcome = action(io)
    label = render.cell_label(layout.PLAY_GRID, empty, puzzle.geometry)
    assert not outcome.ok and outcome.status.startswith(f"cell {label} holds ")
    assert outcome.status.endswith("; type a digit 1-9 or leave it empty")


def test_buttons_before_play_say_so(io):
    for action in (actions.check, actions.play_hint, actions.play_solve):
        outcome = action(io)
        assert not outcome.ok and "press PLAY" in outcome.status


# -- CHECK ---------------------------------------------------------------------------------------


def test_check_marks_only_the_wrong_entries_and_reveals_nothing(io, wb):
    puzzle = start(io)
    actions.play(io)
    solution = solve(puzzle)
    empty = [cell for cell in range(81) if not puzzle[cell]]
    right = {cell: solution[cell] for cell in empty[:3]}
    wrong = {cell: wrong_digit(solution, cell) for cell in empty[3:5]}
    enter(io, right | wrong)
    io.write(layout.PLAY_MARKS, [["13"] + [None] * 15] + [[None] * 16 for _ in range(15)])
    before = (io.read(layout.PLAY_GRID), io.read(layout.PLAY_MARKS))
    outcome = actions.check(io)
    assert outcome.ok
    assert outcome.detail == sorted(wrong)
    assert fills(wb, layout.PLAY_GRID, render.WRONG_COLOUR) == {divmod(c, 9) for c in wrong}
    assert (io.read(layout.PLAY_GRID), io.read(layout.PLAY_MARKS)) == before  # no digit shown
    assert outcome.status.startswith("2 of your 5 entries are wrong, marked red: r")
    assert outcome.status.endswith(f" {len(empty) - 5} cells left to fill. Time so far: 00:00.")

    enter(io, dict.fromkeys(wrong, 0))
    status = actions.check(io).status
    assert status.startswith(f"Your 3 entries are all right; {len(empty) - 3} cells left to fill.")
    assert fills(wb, layout.PLAY_GRID, render.WRONG_COLOUR) == set()  # the marks are cleared


def test_check_puts_back_a_changed_given(io):
    puzzle = start(io)
    actions.play(io)
    given = next(cell for cell in range(81) if puzzle[cell])
    enter(io, {given: 0})
    outcome = actions.check(io)
    assert outcome.status.startswith("Put back the given you had changed: r")
    assert grid_of(io.read(layout.PLAY_GRID)) == puzzle


def test_check_says_solved(io):
    puzzle = start(io)
    actions.play(io)
    solution = solve(puzzle)
    enter(io, {cell: solution[cell] for cell in range(81) if not puzzle[cell]})
    assert re.fullmatch(
        r"Solved in \d\d:\d\d: all 81 cells are right\. Press PLAY for another\.",
        actions.check(io).status,
    )


# -- HINT ----------------------------------------------------------------------------------------


def test_hint_names_a_wrong_entry_first_and_clears_a_stale_hint(io, wb):
    puzzle = start(io)
    actions.play(io)
    first = actions.play_hint(io)
    assert first.status.startswith("Hint 1 of 3")
    assert fills(wb, layout.PLAY_GRID, render.HINT_REGION_COLOUR)  # where to look, coloured
    solution = solve(puzzle)
    cell = next(cell for cell in range(81) if not puzzle[cell])
    enter(io, {cell: wrong_digit(solution, cell)})
    outcome = actions.play_hint(io)
    label = render.cell_label(layout.PLAY_GRID, cell)
    assert outcome.status == f"{label} is wrong."
    assert io.read(layout.PLAY_HINT) == f"{label} is wrong. Clear it or type another digit."
    assert fills(wb, layout.PLAY_GRID, render.HINT_REGION_COLOUR) == set()  # the stale hint
    assert fills(wb, layout.PLAY_GRID, render.WRONG_COLOUR) == {divmod(cell, 9)}


def test_hint_goes_on_from_the_players_position(io, wb):
    puzzle = start(io)
    actions.play(io)
    solution = solve(puzzle)
    # the player has filled half of the empty cells: the hint is about the rest
    empty = [cell for cell in range(81) if not puzzle[cell]]
    enter(io, {cell: solution[cell] for cell in empty[: len(empty) // 2]})
    filled = set(empty[: len(empty) // 2])
    levels = [actions.play_hint(io) for _ in range(3)]
    assert [o.status[:10] for o in levels] == ["Hint 1 of ", "Hint 2 of ", "Hint 3 of "]
    step = levels[2].detail.step
    assert not {p.cell for p in step.placements} & filled
    assert not {e.cell for e in step.eliminations} & filled
    after = play_grid(io, puzzle.geometry)
    for placement in step.placements:  # applied as the player's entry (not a given)
        assert after[placement.cell] == placement.digit == solution[placement.cell]
    assert grid_of(io.read(layout.PLAY_GIVENS)) == puzzle
    assert actions.play_hint(io).status.startswith("Hint 1 of 3")  # the next step


def test_hint_uses_the_players_marks_and_never_names_the_missing_digit(io, wb):
    puzzle = start(io)
    actions.play(io)
    solution = solve(puzzle)
    cell = next(cell for cell in range(81) if not puzzle[cell])
    others = "".join(str(d) for d in range(1, 10) if d != solution[cell])
    marks = [[None] * 16 for _ in range(16)]
    marks[cell // 9][cell % 9] = others
    io.write(layout.PLAY_MARKS, marks)
    outcome = actions.play_hint(io)
    label = render.cell_label(layout.PLAY_GRID, cell)
    assert outcome.status.startswith(f"Your pencil marks in {label} leave out the digit")
    assert str(solution[cell]) not in outcome.status.replace(label, "")
    assert fills(wb, layout.PLAY_MARKS, render.WRONG_COLOUR) == {divmod(cell, 9)}

    # marks that keep the digit are the player's: a hint leaves the marks of other cells be
    marks[cell // 9][cell % 9] = str(solution[cell])
    io.write(layout.PLAY_MARKS, marks)
    assert actions.play_hint(io).status.startswith("Hint 1 of 3")
    assert io.read(layout.PLAY_MARKS)[cell // 9][cell % 9] == str(solution[cell])


# -- SOLVE ---------------------------------------------------------------------------------------


def test_solve_fills_the_rest_and_corrects_wrong_entries(io):
    puzzle = start(io)
    actions.play(io)
    solution = solve(puzzle)
    cell = next(cell for cell in range(81) if not puzzle[cell])
    enter(io, {cell: wrong_digit(solution, cell)})
    outcome = actions.play_solve(io)
    assert outcome.status == (
        f"Solved: 54 cells filled in; 1 wrong entry corrected: "
        f"{render.cell_label(layout.PLAY_GRID, cell)}."
    )
    assert grid_of(io.read(layout.PLAY_GRID)) == solution
    assert grid_of(io.read(layout.PLAY_GIVENS)) == puzzle


# -- every shape, the remote engine and the headless runner --------------------------------------


def run_script(book, name):
    asyncio.run(xlwings.server.custom_scripts_call(xl, name, typehint_to_value={xw.Book: book}))
    return book.json()["actions"]


def test_scripts_are_one_line_each():
    for name in ("play", "check", "play_hint", "play_solve"):
        source = getattr(xl, name).__doc__
        assert source and name in {b.action for b in layout.BUTTONS}


@pytest.mark.parametrize("shape", ["6x6", "16x16"])
def test_play_check_hint_through_the_remote_engine(wb, shape):
    io = OpenpyxlIO(wb)
    puzzle = start(io, shape)
    geo = puzzle.geometry
    cells = remote_book.writes(run_script(remote_book.book(wb), "play"))
    given_ref = layout.NAMES[layout.PLAY_GIVENS]
    block = [[cells[(layout.PLAY, given_ref.cell(r, c))] for c in range(16)] for r in range(16)]
    assert grid_of(block, geo) == puzzle
    assert cells[(layout.PLAY, layout.NAMES[layout.PLAY_GEOMETRY].address)] == shape
    assert actions.play(io).ok  # the same on the file, to go on from there
    solution = solve(puzzle)
    cell = next(cell for cell in range(geo.cell_count) if not puzzle[cell])
    enter(io, {cell: wrong_digit(solution, cell)})
    json_actions = run_script(remote_book.book(wb), "check")
    status = remote_book.writes(json_actions)[(layout.PLAY, "C23")]
    left = geo.cell_count - puzzle.given_count - 1
    assert status.startswith("Your entry is wrong, marked red: r1c")
    assert f"{left} cells left to fill. Time so far: " in status
    colours = [a for a in json_actions if a["func"] == "setRangeColor"]
    assert any(a["args"] == [render.WRONG_COLOUR] for a in colours)
    assert not any(a["func"] in ("setColumnWidth", "setRowHeight") for a in json_actions)
    hint = remote_book.writes(run_script(remote_book.book(wb), "play_hint"))
    assert (
        hint[(layout.PLAY, "C23")] == f"{render.cell_label(layout.PLAY_GRID, cell, geo)} is wrong."
    )
    enter(io, {cell: 0})
    hint = remote_book.writes(run_script(remote_book.book(wb), "play_hint"))
    assert hint[(layout.PLAY, "C23")].startswith("Hint 1 of 3")
    solved = remote_book.writes(run_script(remote_book.book(wb), "play_solve"))
    ref = layout.NAMES[layout.PLAY_GRID]
    block = [[solved[(layout.PLAY, ref.cell(r, c))] for c in range(16)] for r in range(16)]
    assert grid_of(block, geo) == solution


def test_play_headless_on_x_sudoku_from_the_collection(tmp_path, capsys):
    book = tmp_path / "xlsudoku.xlsm"
    shutil.copy2(TEMPLATE, book)
    wb = openpyxl.load_workbook(book, keep_vba=True)
    for name, value in {"Geometry": "9x9-X", "Opens": 28, "Seed": 3, "PlaySource": "1"}.items():
        ref = layout.NAMES[name]
        wb[ref.sheet][ref.address] = value
    wb.save(book)
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    assert main(["workbook", "save", str(book)]) == 0
    assert main(["workbook", "play", str(book)]) == 0
    assert "Playing Collection id 1 (9x9-X, 28 givens)" in capsys.readouterr().out
    wb = openpyxl.load_workbook(book)
    geo = params.geometry_of("9x9-X")
    puzzle = grid_of([[c.value for c in row] for row in wb[layout.PLAY]["BN6:CC21"]], geo)
    assert puzzle.given_count == 28
    assert main(["workbook", "check", str(book)]) == 0
    assert "No entries yet; 53 cells left to fill." in capsys.readouterr().out
    assert main(["workbook", "play-hint", str(book)]) == 0
    assert main(["workbook", "play-solve", str(book)]) == 0
    wb = openpyxl.load_workbook(book)
    solved = grid_of([[c.value for c in row] for row in wb[layout.PLAY]["C6:R21"]], geo)
    assert solved == solve(puzzle) and isinstance(solved, Grid)


def select(wb, sheet, cell):
    """Make *cell* of *sheet* the selection, as Excel keeps it in the file and sends it."""
    wb.active = wb[sheet]
    wb[sheet].views.sheetView[0].selection[0].activeCell = cell
    wb[sheet].views.sheetView[0].selection[0].sqref = cell


def test_play_selected_takes_the_selected_collection_row_headless_and_remote(io, wb):
    puzzles = []
    for seed in (5, 6):
        puzzles.append(start(io, seed=seed))
        assert actions.save_to_collection(io).ok
    io.write(layout.PLAY_SOURCE, "Selected")
    select(wb, layout.COLLECTION, "C3")  # the second row: id 2
    outcome = actions.play(io)
    assert outcome.status.startswith("Playing Collection id 2 (the selected row) (9x9"), outcome
    assert grid_of(io.read(layout.PLAY_GIVENS)) == puzzles[1]
    select(wb, layout.COLLECTION, "A2")
    cells = remote_book.writes(run_script(remote_book.book(wb), "play"))
    assert cells[(layout.PLAY, "C23")].startswith("Playing Collection id 1 (the selected row)")
    select(wb, layout.COLLECTION, "A1")  # the header: no row
    assert "no Collection row is selected" in actions.play(io).status
    select(wb, layout.PLAY, "C3")  # another sheet active: no selection on the Collection
    assert "no Collection row is selected" in actions.play(io).status


# -- comforts: the clock, UNDO, FILL CANDIDATES ----------------------------------------------------


def test_check_gives_the_time_since_play_and_solved_in_mm_ss(io):
    puzzle = start(io)
    assert actions.play(io).ok
    started = io.read(layout.PLAY_CLOCK)[0][0]
    assert isinstance(started, float)
    status = actions.check(io, now=started + 95).status
    assert status.endswith("53 cells left to fill. Time so far: 01:35.") or status.endswith(
        "cells left to fill. Time so far: 01:35."
    )
    solution = solve(puzzle)
    enter(io, {cell: solution[cell] for cell in range(81) if not puzzle[cell]})
    solved = actions.check(io, now=started + 754.9)
    assert solved.status == "Solved in 12:34: all 81 cells are right. Press PLAY for another."
    # the clock stopped: a later CHECK says the same time
    later = actions.check(io, now=started + 4000)
    assert later.status == solved.status
    assert actions.minutes(3725) == "1:02:05"


def test_undo_steps_back_through_buttons_and_typed_entries(io):
    puzzle = start(io)
    assert actions.play(io).ok
    assert actions.undo(io).status == "Nothing to undo: no move since PLAY"
    solution = solve(puzzle)
    empty = [cell for cell in range(81) if not puzzle[cell]]
    first = {empty[0]: solution[empty[0]], empty[1]: wrong_digit(solution, empty[1])}
    enter(io, first)
    after_typing = io.read(layout.PLAY_GRID)
    assert actions.fill_candidates(io).ok
    marks = io.read(layout.PLAY_MARKS)
    assert any(value for row in marks for value in row)
    enter(io, {empty[2]: solution[empty[2]]})  # typed after the button, before UNDO
    # UNDO 1: the entry typed since FILL CANDIDATES
    outcome = actions.undo(io)
    assert outcome.status == "Undid your entries since the last button; 2 more moves can be undone."
    assert io.read(layout.PLAY_GRID) == after_typing and io.read(layout.PLAY_MARKS) == marks
    # UNDO 2: FILL CANDIDATES (the marks go), UNDO 3: the first entries (typed before it)
    assert actions.undo(io).status == "Undid FILL CANDIDATES; 1 more move can be undone."
    assert io.read(layout.PLAY_GRID) == after_typing
    assert not any(value for row in io.read(layout.PLAY_MARKS) for value in row)
    assert actions.undo(io).status == "Undid your entries; nothing more to undo."
    assert grid_of(io.read(layout.PLAY_GRID)) == puzzle
    assert not actions.undo(io).ok


def test_undo_keeps_the_last_moves_and_steps_back_a_hint(io):
    puzzle = start(io)
    assert actions.play(io).ok
    solution = solve(puzzle)
    empty = [cell for cell in range(81) if not puzzle[cell]]
    for index in range(layout.HISTORY_ROWS + 5):  # type and clear a digit, pressing CHECK
        enter(io, {empty[0]: solution[empty[0]] if index % 2 == 0 else 0})
        assert actions.check(io).ok  # each typed entry becomes a move at the next press
    kept = [row for row in io.read(layout.PLAY_HISTORY) if row[0]]
    assert len(kept) == layout.HISTORY_ROWS >= 50
    before = io.read(layout.PLAY_GRID)
    for _ in range(3):
        assert actions.play_hint(io).ok  # the third press applies the step
    assert io.read(layout.PLAY_GRID) != before or io.read(layout.PLAY_MARKS)
    assert actions.undo(io).status.startswith("Undid HINT;")
    assert io.read(layout.PLAY_GRID) == before
    for _ in range(layout.HISTORY_ROWS - 1):
        assert actions.undo(io).ok
    assert actions.undo(io).status == "Nothing to undo: no move since PLAY"


def test_fill_candidates_writes_the_marks_of_every_empty_cell(io):
    puzzle = start(io)
    assert actions.play(io).ok
    outcome = actions.fill_candidates(io)
    empty = 81 - puzzle.given_count
    assert outcome.status == (
        f"Filled in the candidates of {empty} empty cells. UNDO puts your own marks back."
    )
    masks = params.read_candidates(io.read(layout.PLAY_MARKS), puzzle.geometry)
    from xlsudoku.engine.board import Board

    board = Board.from_grid(puzzle)
    for cell in range(81):
        assert masks[cell] == (board.cands[cell] if not puzzle[cell] else None)
    # after an entry, that cell's marks are cleared and its peers lose the digit
    cell = next(c for c in range(81) if not puzzle[c])
    enter(io, {cell: solve(puzzle)[cell]})
    assert actions.fill_candidates(io).ok
    masks = params.read_candidates(io.read(layout.PLAY_MARKS), puzzle.geometry)
    assert masks[cell] is None
    bit = 1 << (solve(puzzle)[cell] - 1)
    assert all(not (masks[p] or 0) & bit for p in puzzle.geometry.peers[cell])


def test_level_two_of_a_single_colours_the_cells_it_names(io, wb):
    start(io)
    actions.play(io)
    first, second = actions.play_hint(io), actions.play_hint(io)
    assert second.status.startswith("Hint 2 of 3")
    step = second.detail.step
    assert step.technique.value in ("Full House", "Hidden Single", "Naked Single")
    named = {divmod(cell, 9) for cell in second.detail.cells}
    assert named and fills(wb, layout.PLAY_GRID, render.HINT_CAUSE_COLOUR) == named
    assert first.detail.cells != second.detail.cells
