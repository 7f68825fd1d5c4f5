"""addin.actions on the committed workbook through OpenpyxlIO: buttons, bad input, Collection."""

import datetime as dt
import random

import pytest
from sheets import PUZZLES, address, block_of, grid_of

from xlsudoku.addin import actions, layout, render
from xlsudoku.addin.cellio import MissingPart
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

NOW = dt.datetime(2024, 5, 1, 12, 0, 0)


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
    return grid_of(io.read(name))


def put_grid(io, name, text):
    io.write(name, block_of(text))


def set_params(io, **values):
    for name, value in values.items():
        io.write(name, value)


def status_cell(name=layout.STATUS):
    ref = layout.NAMES[name]
    return (ref.sheet, ref.address)


# -- START ----------------------------------------------------------------------------------


def test_start_defaults(io, wb):
    set_params(io, Seed=3)
    outcome = actions.start(io)
    assert outcome.ok
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    assert puzzle.given_count == 26 and count_solutions(puzzle, 2) == 1
    assert is_symmetric(puzzle, Symmetry.ROTATE_180)
    assert puzzle == generate(GenerateRequest(seed=3)).puzzle
    assert io.read(layout.SOLUTION_GRID) == [[None] * 16 for _ in range(16)]
    assert wb["Generator"][address(layout.STATUS)].value == outcome.status
    assert io.read(layout.COLLECTION_HEADER) == [list(layout.COLLECTION_COLUMNS)]
    assert dict(map(tuple, io.read(layout.STATS)))["Geometry"] == "9x9"


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


@pytest.mark.parametrize(
    ("pattern", "opens", "says"),
    [
        ("none", 18, "Could not reach 18 opens"),
        # below pattern 1's measured floor (20): a short search that says so
        (1, 18, "18 opens with pattern 1 (corners), rotate180 is very unlikely"),
    ],
)
def test_start_unreached_target_keeps_the_best(io, pattern, opens, says):
    set_params(io, Pattern=pattern, Opens=opens, Trials=1, Seed=1, TimeLimit=0.2)
    outcome = actions.start(io)
    stats = dict(map(tuple, io.read(layout.STATS)))
    assert outcome.ok and stats["Target reached"] == (
        f"No: asked {opens} opens; missed the opens (got {stats['Opens']})"
    )
    assert grid_at(io, layout.PUZZLE_GRID).given_count == stats["Opens"] > opens
    assert outcome.status.startswith(says)
    assert "Time limit (s) in C" in outcome.status


@pytest.mark.parametrize(
    ("pattern", "opens", "center"),
    [("none", 24, None), ("x.x.x.x.x", 25, "x.x.x.x.x"), ("..x.x.x..", 27, "..x.x.x..")],
)
def test_start_with_no_pattern_or_a_mask(io, pattern, opens, center):
    set_params(io, Pattern=pattern, Opens=opens, Seed=4)
    outcome = actions.start(io)
    assert outcome.ok, outcome.status
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    assert puzzle.given_count == opens
    box = [30, 31, 32, 39, 40, 41, 48, 49, 50]
    if center is not None:
        assert "".join("x" if puzzle[c] else "." for c in box) == center
    request = GenerateRequest(
        target_givens=opens, pattern=None if pattern == "none" else pattern, seed=4
    )
    assert puzzle == generate(request).puzzle


def test_start_needs_a_technique(io):
    set_params(io, Needs="Pointing", Seed=2, Opens=28)
    outcome = actions.start(io)
    assert outcome.ok, outcome.status
    from xlsudoku.engine.grading import grade
    from xlsudoku.engine.techniques import TECHNIQUES

    # "needs" is about the human-style table (the SE profile names Direct Pointing instead)
    counts = dict(grade(grid_at(io, layout.PUZZLE_GRID), TECHNIQUES).counts)
    assert any(t.value == "Pointing" for t in counts)


BAD_START = [
    ("Pattern", "abc", "Pattern (C5): bad character 'a'"),
    ("Opens", 3, "Opens (C6) must be a whole number from 4 to 256, got 3"),
    ("Opens", 27, "Opens (C6), Pattern (C5) and Symmetry (C9): opens 27 is odd but pattern 1"),
    ("Opens", "=C4+25", "Opens (C6) holds the formula '=C4+25', which was never calculated"),
    ("Trials", 0.5, "Trials (C7) must be a whole number from 1 to 99999, got 0.5"),
    ("ShowSolution", "#VALUE!", "Show solution (C8) holds the Excel error #VALUE!"),
    ("Symmetry", "", "Symmetry (C9) is empty"),
    ("Difficulty", None, "Difficulty (C10) is empty"),
    ("Needs", "magic", "Needs technique (C11) must be one of the dropdown's entries"),
    ("Seed", "abc", "Seed (C12) must be a whole number from 0 to 999999999999999 (or blank)"),
    (
        "TimeLimit",
        -1,
        "Time limit (s) (C13) must be seconds from 0.1 to 3600, or cpu:SECONDS or work:UNITS in "
        "that range (or blank), got -1",
    ),
    ("TimeLimit", "gpu:5", "Time limit (s) (C13) must be seconds from 0.1 to 3600, or cpu:"),
    ("TimeLimit", "work:5000", "Time limit (s) (C13) must be seconds from 0.1 to 3600, or cpu:"),
    ("Pattern", 11, "Pattern (C5) and Symmetry (C9): pattern 11"),
    ("Geometry", "6x6", "Pattern (C5) and Geometry (C4): the 6x6 grid has no center box"),
    ("Geometry", "7x7", "Geometry (C4) must be one of 9x9, 9x9-X, 9x9-windoku, 4x4"),
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
    assert changed(before, snapshot(wb)) == {status_cell()}
    assert wb["Generator"][address(layout.STATUS)].value == outcome.status


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


def test_start_grading_shares_the_time_limit_and_a_cut_grade_is_said(io):
    """A 16x16 search that uses its whole limit leaves the grade a sliver of it: not graded."""
    set_params(io, Geometry="16x16", Pattern="none", Opens=100, Seed=1, TimeLimit="work:0.1")
    outcome = actions.start(io)
    assert outcome.ok
    puzzle = actions.generator_puzzle(io)
    assert puzzle == outcome.detail.puzzle and count_solutions(puzzle, 2) == 1
    assert "Stopped by the time limit (0.1 work units" in outcome.status
    assert outcome.status.endswith(render.ungraded_text(outcome.detail.request.limit))
    stats = dict(map(tuple, io.read(layout.STATS)))
    assert stats["Opens"] == puzzle.given_count and stats["Level"] is None
    assert stats["Score"] is None and io.read(layout.RANK_TABLE)[0][1] is None


@pytest.mark.parametrize("calls", [1, 5, 40])
def test_a_poll_that_raises_abandons_the_analysis(calls):
    """The grading and the ranks ask the poll between searches; what it raises passes out."""
    from xlsudoku.engine.analysis import analyze

    puzzle = Grid.parse(PUZZLES[2][0])
    asked = []

    def poll():
        asked.append(1)
        if len(asked) == calls:
            raise TimeoutError

    with pytest.raises(TimeoutError):
        analyze(puzzle, ranks=True, poll=poll)
    assert analyze(puzzle, ranks=True, poll=lambda: None) == analyze(puzzle, ranks=True)


def test_grading_gets_the_rest_of_the_limit_and_at_least_its_grace():
    import time

    from xlsudoku.engine.generate import Budget, BudgetKind

    now, cpu = time.perf_counter(), time.process_time()
    assert 9 < actions.grading_clock(Budget(10.0), now, cpu).remaining() <= 10
    late = actions.grading_clock(Budget(10.0), now - 30, cpu)
    assert 0 < late.remaining() <= 10 * actions.GRADING_GRACE
    work = actions.grading_clock(Budget(4.0, BudgetKind.WORK), now, cpu - 100)
    assert work.read is time.process_time and 0 < work.remaining() <= 4 * actions.GRADING_GRACE
    assert actions.grading_clock(None, now, cpu).remaining() is None


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
    assert io.read(layout.PUZZLE_GRID) == [[None] * 16 for _ in range(16)]
    assert io.read(layout.SOLUTION_GRID) == [[None] * 16 for _ in range(16)]
    assert io.read(layout.STATS) == [
        [label, "9x9" if label == "Geometry" else None] for label in layout.STATS_LABELS
    ]
    assert io.read(layout.RANK_TABLE) == [[None, None]] * layout.RANK_ROWS
    assert {param.name: io.read(param.name) for param in layout.PARAMS} == params_before
    assert io.table_rows(layout.COLLECTION_HEADER) == rows_before


# -- SAVE TO COLLECTION ---------------------------------------------------------------------


def record_of(row):
    return dict(zip(layout.COLLECTION_COLUMNS, row, strict=True))


def test_save_row_contents(io, wb):
    set_params(io, Seed=21)
    start = actions.start(io).detail
    outcome = actions.save_to_collection(io, now=NOW)
    assert outcome.ok
    (row,) = io.table_rows(layout.COLLECTION_HEADER)
    record = record_of(row)
    assert record["id"] == 1 and record["saved at"] == NOW  # a real date-time
    assert wb["Collection"]["B2"].is_date
    assert record["geometry"] == "9x9" and record["notes"] is None
    assert record["puzzle"] == str(start.puzzle) and record["solution"] == str(start.solution)
    assert record["opens"] == 26 and record["pattern"] == 1 and record["symmetry"] == "rotate180"
    assert record["seed"] == 21
    assert sum(int(part.rstrip("*")) for part in record["ranks"].split(", ")) == 81 - 26
    assert io.read(layout.HIGHEST_ID) == 1
    # three lines of 27 characters: the row is tall enough to show them wrapped
    assert wb["Collection"].row_dimensions[2].height == render.collection_row_height(row)


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
    notes = layout.COLLECTION_COLUMNS.index("notes")  # an empty cell reads back as None

    def kept(row):
        return [value for i, value in enumerate(row) if i != notes]

    assert [kept(row) for row in rows] == [kept(row) for row in saved]
    assert [row[0] for row in rows] == [1, 2, 3]
    assert len({record_of(row)["puzzle"] for row in rows}) == 3


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
    record = record_of(outcome.detail)
    assert record["solution"] == solution and record["seed"] == ""
    # its center box (.9. / 715 / .2.) is exactly preset 9, "cross"
    assert record["pattern"] == 9 and record["symmetry"] == "rotate180"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("." * 81, "The puzzle grid (F4:U19) is empty: press START first"),
        ("12" + "." * 79, "The puzzle grid has more than one solution"),
        ("1" + "." * 80, "The puzzle grid has more than one solution"),
    ],
)
def test_save_rejects_unusable_grids(wb, io, text, message):
    put_grid(io, layout.PUZZLE_GRID, text)
    before = snapshot(wb)
    outcome = actions.save_to_collection(io, now=NOW)
    assert outcome.status.startswith(message)
    assert changed(before, snapshot(wb)) == {status_cell()}


def test_save_keeps_rows_added_by_hand(io, wb):
    wb["Collection"].append([7, "by hand", "9x9", "x"])
    set_params(io, Seed=2)
    actions.start(io)
    actions.save_to_collection(io, now=NOW)
    rows = io.table_rows(layout.COLLECTION_HEADER)
    assert rows[0][:4] == [7, "by hand", "9x9", "x"] and rows[1][0] == 8


# -- missing parts ---------------------------------------------------------------------------


def test_missing_collection_sheet_is_reported_in_the_status(wb, io):
    wb.remove(wb["Collection"])
    outcome = actions.save_to_collection(io)
    assert not outcome.ok
    assert wb["Generator"][address(layout.STATUS)].value == (
        "The workbook has no sheet 'Collection' (its sheets: Generator, Print, Analyze, "
        "Removed, Play, Stats); restore it from workbooks/xlsudoku.xlsm."
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


def test_analyze_string_is_moved_into_the_grid(io, wb):
    puzzle = PUZZLES[3][0]
    io.write(layout.ANALYZE_STRING, puzzle.replace(".", "0"))
    assert actions.analyze(io).ok
    assert str(grid_at(io, layout.ANALYZE_GRID)) == puzzle
    assert io.read(layout.ANALYZE_STRING) is None


@pytest.mark.parametrize(
    ("cells", "string", "message"),
    [
        ({}, None, "The grid (C6:K14) is empty: type a puzzle into it, or paste"),
        ({"C6": 5, "C7": 5}, None, "digit 5 repeated in column 1: r1c1 (C6) and r2c1 (C7)"),
        ({"E8": "a"}, None, "cell r3c3 (E8) holds 'a'"),
        ({"L6": 4}, None, "cell L6 holds 4 but is outside the 9x9 grid"),
        ({}, "1234", "AnalyzeString (C3): a 9x9 puzzle needs 81 cells, found 4"),
    ],
)
@pytest.mark.parametrize("action", ["analyze", "hint", "solve"])
def test_analyze_bad_input_changes_only_the_status(wb, io, cells, string, message, action):
    for cell_address, value in cells.items():
        wb["Analyze"][cell_address] = value
    io.write(layout.ANALYZE_STRING, string)
    before = snapshot(wb)
    outcome = getattr(actions, action)(io)
    assert not outcome.ok and outcome.status.startswith(message)
    assert changed(before, snapshot(wb)) == {status_cell(layout.ANALYZE_STATUS)}


def test_grid_fill_matches_the_template(wb):
    assert wb["Analyze"]["C6"].fill.fgColor.rgb[-6:] == render.GRID_FILL.lstrip("#")


def test_hint_on_a_full_grid(io):
    put_grid(io, layout.ANALYZE_GRID, PUZZLES[0][1])
    outcome = actions.hint(io)
    assert outcome.status == "The grid is full: nothing left to hint."


def test_pattern_and_needs_through_the_remote_engine(wb, io):
    import asyncio

    import remote_book
    import xlwings as xw
    import xlwings.server

    from xlsudoku.addin import xl
    from xlsudoku.engine.grading import grade

    set_params(io, Pattern="x.x.x.x.x", Opens=27, Needs="Pointing", Seed=2)
    book = remote_book.book(wb)
    asyncio.run(xlwings.server.custom_scripts_call(xl, "start", typehint_to_value={xw.Book: book}))
    cells = remote_book.writes(book.json()["actions"])
    ref = layout.NAMES[layout.PUZZLE_GRID]
    puzzle = grid_of([[cells[(ref.sheet, ref.cell(r, c))] for c in range(16)] for r in range(16)])
    assert "".join("x" if puzzle[c] else "." for c in (30, 31, 32, 39, 40, 41, 48, 49, 50)) == (
        "x.x.x.x.x"
    )
    # needs: the path of the Rating cell's profile (se) takes a Pointing step
    assert any(t.value == "Pointing" for t, _ in grade(puzzle).counts)


def test_pattern_none_and_needs_headless(tmp_path, capsys):
    import shutil

    import openpyxl
    from sheets import TEMPLATE

    from xlsudoku.cli import main

    book = tmp_path / "xlsudoku.xlsm"
    shutil.copy2(TEMPLATE, book)
    wb = openpyxl.load_workbook(book, keep_vba=True)
    for name, value in {"Pattern": "none", "Opens": 24, "Needs": "Claiming", "Seed": 4}.items():
        wb[layout.GENERATOR][layout.NAMES[name].address] = value
    wb.save(book)
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    puzzle = Grid.parse(capsys.readouterr().out.splitlines()[1].split()[-1])
    request = GenerateRequest(target_givens=24, pattern=None, needs=Technique.CLAIMING, seed=4)
    assert puzzle == generate(request).puzzle


def test_a_work_limit_in_the_time_limit_cell_gives_the_same_puzzle_and_names_the_limit(io, wb):
    # 18 opens without a pattern: not reached in 0.3 work units, so the limit stops the run
    set_params(io, Opens=18, Pattern="none", Trials=99999, Seed=11, TimeLimit="work:0.3")
    first = actions.start(io)
    puzzle = grid_at(io, layout.PUZZLE_GRID)
    assert first.ok and "Stopped by the time limit (0.3 work units, Time limit (s) in C13)" in (
        first.status
    )
    assert " It took " in first.status and "allowed" not in first.status
    set_params(io, Seed=11)
    again = actions.start(io)
    assert grid_at(io, layout.PUZZLE_GRID) == puzzle  # counted work: the same search again
    assert again.detail.limit.kind.value == "work" and again.detail.stop == "time"


def test_a_cpu_limit_in_the_time_limit_cell_reaches_the_request(io):
    from xlsudoku.addin import params

    set_params(io, TimeLimit=" CPU: 2.5 ")
    start = params.read_start({name: io.read(name) for name in actions.PARAM_NAMES})
    request = params.start_request(start)
    assert (start.time_limit, start.clock.value) == (2.5, "cpu")
    assert request.time_limit is None and str(request.budget) == "cpu:2.5"
