"""addin.actions on the committed workbook through OpenpyxlIO: buttons, bad input, Collection."""

import datetime as dt
import random
from pathlib import Path

import openpyxl
import pytest

from xlsudoku.addin import actions, layout
from xlsudoku.addin.cellio import MissingPart, OpenpyxlIO
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"
PUZZLES = [
    line.split("\t")[:2]
    for line in (Path(__file__).parent / "data" / "addin_puzzles.tsv").read_text().splitlines()
    if line and not line.startswith("#")
]
NOW = dt.datetime(2024, 5, 1, 12, 0, 0)


@pytest.fixture
def wb():
    return openpyxl.load_workbook(TEMPLATE, keep_vba=True)


@pytest.fixture
def io(wb):
    return OpenpyxlIO(wb)


def snapshot(wb):
    """Return every non-empty cell value of every sheet, keyed by (sheet, address)."""
    return {
        (ws.title, cell.coordinate): cell.value
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for cell in row
        if cell.value is not None
    }


def changed(before, after):
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def grid_at(io, name):
    return Grid.from_rows(io.read(name))


def put_grid(io, name, text):
    io.write(
        name, [[int(ch) if ch != "." else "" for ch in text[r * 9 : r * 9 + 9]] for r in range(9)]
    )


def set_params(io, **values):
    for name, value in values.items():
        io.write(name, value)


# -- START ----------------------------------------------------------------------------------


def test_start_defaults(io, wb):
    set_params(io, Seed=3)
    outcome = actions.start(io)
    assert outcome.ok
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    assert puzzle.given_count == 26 and count_solutions(puzzle, 2) == 1
    assert is_symmetric(puzzle, Symmetry.ROTATE_180)
    assert puzzle == generate(GenerateRequest(seed=3)).puzzle
    assert io.read(layout.SOLUTION_GRID) == [[None] * 9 for _ in range(9)]
    assert wb["Generator"]["C13"].value == outcome.status
    assert io.read(layout.COLLECTION_HEADER) == [list(layout.COLLECTION_COLUMNS)]


def test_start_blank_seed_is_recorded_and_repeats(io):
    first = actions.start(io, rng=random.Random(9))
    seed = dict(map(tuple, io.read(layout.STATS)))["Seed"]
    assert seed == first.detail.seed and 0 <= seed <= layout.MAX_SEED
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    set_params(io, Seed=seed)
    actions.start(io)
    assert grid_at(io, layout.PUZZLE_GRID) == puzzle


def test_start_writes_solution_when_asked(io):
    set_params(io, ShowSolution="Yes", Seed=12, Symmetry="dihedral", Opens=29, Pattern=9)
    outcome = actions.start(io)
    assert outcome.ok, outcome.status
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    assert is_symmetric(puzzle, Symmetry.DIHEDRAL)
    assert grid_at(io, layout.SOLUTION_GRID) == solve(puzzle)


def test_start_unreached_target_keeps_the_best(io):
    set_params(io, Opens=20, Trials=1, Seed=1, TimeLimit=0.2)
    outcome = actions.start(io)
    stats = dict(map(tuple, io.read(layout.STATS)))
    assert outcome.ok and stats["Target reached"] == "No (target 20)"
    assert grid_at(io, layout.PUZZLE_GRID).given_count == stats["Opens"] > 20
    assert outcome.status.startswith("Could not reach 20 opens")


BAD_START = [
    ("Pattern", "abc", "Pattern (C4) must be a whole number from 1 to 12, got 'abc'"),
    ("Opens", 12, "Opens (C5) must be a whole number from 17 to 80, got 12"),
    ("Opens", 27, "Opens (C5): opens 27 is odd but pattern 1"),
    ("Opens", "=C4+25", "Opens (C5) holds the formula '=C4+25', which was never calculated"),
    ("Trials", 0.5, "Trials (C6) must be a whole number from 1 to 99999, got 0.5"),
    ("ShowSolution", "#VALUE!", "Show solution (C7) holds the Excel error #VALUE!"),
    ("Symmetry", "", "Symmetry (C8) is empty"),
    ("Difficulty", None, "Difficulty (C9) is empty"),
    ("Seed", "abc", "Seed (C10) must be a whole number from 0 to 999999999999999 (or blank)"),
    ("TimeLimit", -1, "Time limit (s) (C11) must be a number from 0.1 to 3600 (or blank), got -1"),
    ("Pattern", 11, "Pattern (C4) and Symmetry (C8): pattern 11"),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD_START)
def test_bad_input_changes_only_the_status(wb, io, name, value, message):
    set_params(io, Seed=5)
    actions.start(io)  # a puzzle on the sheet that must survive the failed run
    if name == "Pattern" and value == 11:
        set_params(io, Symmetry="rotate90", Opens=29)
    io.write(name, value)
    before = snapshot(wb)
    outcome = actions.start(io)
    assert not outcome.ok
    assert outcome.status.startswith(message)
    assert changed(before, snapshot(wb)) == {("Generator", "C13")}
    assert wb["Generator"]["C13"].value == outcome.status


def test_interrupted_start_writes_the_best_so_far(io, wb):
    set_params(io, Opens=18, Trials=500, Seed=4, TimeLimit=60)
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 3

    before_collection = io.table_rows(layout.COLLECTION_HEADER)
    outcome = actions.start(io, cancel=cancel)
    assert outcome.ok and outcome.status.startswith("Interrupted:")
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    assert puzzle == outcome.detail.puzzle and count_solutions(puzzle, 2) == 1
    assert io.table_rows(layout.COLLECTION_HEADER) == before_collection


def test_keyboard_interrupt_in_generation_writes_nothing(io, wb):
    set_params(io, Opens=18, Trials=50, Seed=4)
    before = snapshot(wb)

    def progress(trial, best):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        actions.start(io, progress=progress)
    assert snapshot(wb) == before


# -- CLEAR ----------------------------------------------------------------------------------


def test_clear_keeps_parameters_and_collection(io, wb):
    set_params(io, Seed=8, ShowSolution="Yes")
    actions.start(io)
    actions.save_to_collection(io, now=NOW)
    params_before = {param.name: io.read(param.name) for param in layout.PARAMS}
    rows_before = io.table_rows(layout.COLLECTION_HEADER)
    outcome = actions.clear(io)
    assert outcome.ok
    assert io.read(layout.PUZZLE_GRID) == [[None] * 9 for _ in range(9)]
    assert io.read(layout.SOLUTION_GRID) == [[None] * 9 for _ in range(9)]
    assert io.read(layout.STATS) == [[label, None] for label in layout.STATS_LABELS]
    assert io.read(layout.RANK_TABLE) == [[None, None]] * layout.RANK_ROWS
    assert {param.name: io.read(param.name) for param in layout.PARAMS} == params_before
    assert io.table_rows(layout.COLLECTION_HEADER) == rows_before


# -- SAVE TO COLLECTION ---------------------------------------------------------------------


def test_save_row_contents(io):
    set_params(io, Seed=21)
    start = actions.start(io).detail
    outcome = actions.save_to_collection(io, now=NOW)
    assert outcome.ok
    (row,) = io.table_rows(layout.COLLECTION_HEADER)
    record = dict(zip(layout.COLLECTION_COLUMNS, row, strict=True))
    assert record["id"] == 1 and record["saved at"] == "2024-05-01 12:00:00"
    assert record["puzzle"] == str(start.puzzle) and record["solution"] == str(start.solution)
    assert record["opens"] == 26 and record["pattern"] == 1 and record["symmetry"] == "rotate180"
    assert record["seed"] == 21
    assert sum(int(part.rstrip("*")) for part in record["ranks"].split(", ")) == 81 - 26


def test_collection_only_grows(io, wb):
    saved = []
    for seed in (1, 2, 3):
        set_params(io, Seed=seed)
        actions.start(io)
        saved.append(actions.save_to_collection(io, now=NOW).detail)
        # a failed START and a refused duplicate SAVE leave the rows alone
        io.write("Opens", "x")
        assert not actions.start(io).ok
        assert not actions.save_to_collection(io, now=NOW).ok
        io.write("Opens", 26)
    rows = io.table_rows(layout.COLLECTION_HEADER)
    assert rows == saved
    assert [row[0] for row in rows] == [1, 2, 3]
    assert len({row[2] for row in rows}) == 3


def test_save_refuses_duplicates_anywhere_in_the_collection(io):
    set_params(io, Seed=31)
    actions.start(io)
    actions.save_to_collection(io, now=NOW)
    set_params(io, Seed=32)
    actions.start(io)
    actions.save_to_collection(io, now=NOW)
    set_params(io, Seed=31)
    actions.start(io)
    outcome = actions.save_to_collection(io, now=NOW)
    assert outcome.status == "This puzzle is already in the Collection (id 1); nothing added"
    assert len(io.table_rows(layout.COLLECTION_HEADER)) == 2


def test_save_a_typed_puzzle(io):
    puzzle, solution = PUZZLES[4]
    put_grid(io, layout.PUZZLE_GRID, puzzle)
    outcome = actions.save_to_collection(io, now=NOW)
    record = dict(zip(layout.COLLECTION_COLUMNS, outcome.detail, strict=True))
    assert record["solution"] == solution and record["seed"] == ""
    # its center box (.9. / 715 / .2.) is exactly preset 9, "cross"
    assert record["pattern"] == 9 and record["symmetry"] == "rotate180"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("." * 81, "The puzzle grid (F4:N12) is empty: press START first"),
        ("12" + "." * 79, "The puzzle grid has more than one solution"),
        ("1" + "." * 80, "The puzzle grid has more than one solution"),
    ],
)
def test_save_rejects_unusable_grids(wb, io, text, message):
    put_grid(io, layout.PUZZLE_GRID, text)
    before = snapshot(wb)
    outcome = actions.save_to_collection(io, now=NOW)
    assert outcome.status.startswith(message)
    assert changed(before, snapshot(wb)) == {("Generator", "C13")}


def test_save_keeps_rows_added_by_hand(io, wb):
    wb["Collection"].append([7, "by hand", "x"])
    set_params(io, Seed=2)
    actions.start(io)
    actions.save_to_collection(io, now=NOW)
    rows = io.table_rows(layout.COLLECTION_HEADER)
    assert rows[0][:3] == [7, "by hand", "x"] and rows[1][0] == 8


# -- missing parts ---------------------------------------------------------------------------


def test_missing_collection_sheet_is_reported_in_the_status(wb, io):
    wb.remove(wb["Collection"])
    outcome = actions.save_to_collection(io)
    assert not outcome.ok
    assert wb["Generator"]["C13"].value == (
        "The workbook has no sheet 'Collection' (its sheets: Generator, Analyze); restore it "
        "from workbooks/xlsudoku.xlsm."
    )


def test_missing_generator_sheet_raises(wb, io):
    wb["Generator"].title = "Gen"
    with pytest.raises(MissingPart, match="no sheet 'Generator' \\(its sheets: Gen, "):
        actions.start(io)


def test_missing_defined_name_is_reported(wb, io):
    del wb.defined_names["RankTable"]
    outcome = actions.start(io)
    assert outcome.status.startswith("The workbook has no defined name 'RankTable'")


# -- Analyze sheet ---------------------------------------------------------------------------


@pytest.mark.parametrize(("puzzle", "solution"), PUZZLES)
def test_analyze_and_solve_known_puzzles(io, puzzle, solution):
    put_grid(io, layout.ANALYZE_GRID, puzzle)
    analysis = actions.analyze(io)
    assert analysis.ok and analysis.status.startswith("Unique solution")
    assert io.read(layout.ANALYZE_REPORT)[3] == ["Solutions: exactly one"]
    actions.solve(io)
    assert str(grid_at(io, layout.ANALYZE_SOLUTION)) == solution


def test_analyze_several_solutions_names_cells_and_clue(io):
    puzzle = PUZZLES[1][0]
    put_grid(io, layout.ANALYZE_GRID, puzzle[:30] + "." * 51)
    outcome = actions.analyze(io)
    lines = [row[0] for row in io.read(layout.ANALYZE_REPORT)]
    assert outcome.status.startswith("Several solutions")
    assert lines[3] == "Solutions: two or more"
    assert lines[4].startswith("Two solutions differ in")
    assert lines[5].startswith("Clue to add: ")
    outcome = actions.solve(io)
    assert outcome.status.startswith("Several solutions: one of them is shown")
    assert grid_at(io, layout.ANALYZE_SOLUTION).is_complete


def test_analyze_string_is_moved_into_the_grid(io, wb):
    puzzle = PUZZLES[3][0]
    io.write(layout.ANALYZE_STRING, puzzle.replace(".", "0"))
    assert actions.analyze(io).ok
    assert str(grid_at(io, layout.ANALYZE_GRID)) == puzzle
    assert io.read(layout.ANALYZE_STRING) is None


@pytest.mark.parametrize(
    ("cells", "string", "message"),
    [
        ({}, None, "The grid (C5:K13) is empty: type a puzzle into it, or paste"),
        ({"C5": 5, "C6": 5}, None, "digit 5 repeated in column 1: r1c1 (C5) and r2c1 (C6)"),
        ({"E7": "a"}, None, "cell r3c3 (E7) holds 'a'"),
        ({}, "1234", "AnalyzeString (C3): a 9x9 puzzle needs 81 cells, found 4"),
    ],
)
@pytest.mark.parametrize("action", ["analyze", "hint", "solve"])
def test_analyze_bad_input_changes_only_the_status(wb, io, cells, string, message, action):
    for address, value in cells.items():
        wb["Analyze"][address] = value
    io.write(layout.ANALYZE_STRING, string)
    before = snapshot(wb)
    outcome = getattr(actions, action)(io)
    assert not outcome.ok and outcome.status.startswith(message)
    assert changed(before, snapshot(wb)) == {("Analyze", "C15")}


def test_hint_levels_and_colours(io, wb):
    put_grid(io, layout.ANALYZE_GRID, PUZZLES[0][0])
    ws = wb["Analyze"]
    texts = []
    for _ in range(4):
        actions.hint(io)
        texts.append(io.read(layout.HINT_TEXT))
    assert [text[:12] for text in texts] == ["Hint 1 of 3:", "Hint 2 of 3:", "Hint 3 of 3:"] + [
        "Hint 3 of 3:"
    ]
    coloured = {
        cell.coordinate
        for row in ws["C5:K13"]
        for cell in row
        if cell.fill.fgColor.rgb == "FFF8CBAD"
    }
    assert coloured  # level 3 colours the cells of the step
    actions.analyze(io)  # a new analysis puts the grid's own fill back
    assert {cell.fill.fgColor.rgb for row in ws["C5:K13"] for cell in row} == {"FFFFF7D6"}
    assert io.read(layout.HINT_TEXT) is None


def test_grid_fill_matches_the_template(wb):
    assert wb["Analyze"]["C5"].fill.fgColor.rgb[-6:] == "FFF7D6"


def test_hint_on_a_full_grid(io):
    put_grid(io, layout.ANALYZE_GRID, PUZZLES[0][1])
    outcome = actions.hint(io)
    assert outcome.status == "The grid is full: nothing left to hint."
