"""addin.xl through xlwings' real remote engine, as xlwings Lite and xlwings Server call it.

A payload is built from the committed workbook (tests/remote_book.py), ``xw.Book(json=payload)``
is handed to each script through ``xlwings.server.custom_scripts_call``, and the tests assert on
the actions the book returns (which cells get which values).  Custom functions are called
through ``xlwings.server.custom_functions_call`` with the data Excel sends.
"""

import asyncio
import itertools
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import openpyxl
import pytest
import remote_book
import xlwings as xw
import xlwings.server
from packaging.specifiers import SpecifierSet
from sheets import PUZZLES, grid_of

from xlsudoku.addin import actions as actions_module
from xlsudoku.addin import desktop, layout, render, xl
from xlsudoku.addin.cellio import XlwingsIO
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import Grid, geometry_for_size
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric
from xlsudoku.template import xlwings_vba
from xlsudoku.xlsm import vbaproject

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
(XLWINGS_RANGE,) = (d[len("xlwings") :] for d in PROJECT["dependencies"] if d.startswith("xlwings"))


def at(name):
    """Return the address of the one-cell defined name *name*."""
    return layout.NAMES[name].address


def cells_of(name):
    """Return the (sheet, address) of every cell of defined *name*."""
    ref = layout.NAMES[name]
    rows, columns = ref.shape
    return [(ref.sheet, ref.cell(r, c)) for r in range(rows) for c in range(columns)]


def grid_from(cells, name, side=9):
    """Return the Grid written to the top-left *side* x *side* corner of block *name*."""
    ref = layout.NAMES[name]
    rows, columns = ref.shape
    block = [[cells[(ref.sheet, ref.cell(r, c))] for c in range(columns)] for r in range(rows)]
    return grid_of(block, geometry_for_size(side))


def run_desktop(book, action, installed=None):
    desktop.run(action, book, installed=installed or desktop.VBA_XLWINGS)
    return book.json()["actions"]


def run_script(book, name):
    returned = asyncio.run(
        xlwings.server.custom_scripts_call(xl, name, typehint_to_value={xw.Book: book})
    )
    assert returned is book
    return book.json()["actions"]


call = remote_book.call_function


@pytest.fixture
def wb():
    return openpyxl.load_workbook(TEMPLATE, keep_vba=True)


def rows_of(text):
    return [[int(ch) if ch != "." else "" for ch in text[r * 9 : r * 9 + 9]] for r in range(9)]


def test_every_button_has_a_script():
    names = {entry["function_name"] for entry in xlwings.server.custom_scripts_meta(xl)}
    assert names == {button.action for button in layout.BUTTONS}


def test_custom_functions_are_registered():
    meta = xlwings.server.custom_functions_meta(xl)
    assert {f["name"] for f in meta["functions"]} == {
        "SUDOKU_SOLVE",
        "SUDOKU_COUNT",
        "SUDOKU_GRADE",
        "SUDOKU_GENERATE",
    }


def put(wb, name, value):
    ref = layout.NAMES[name]
    wb[ref.sheet][ref.address] = value


def status_of(cells, name=layout.STATUS):
    ref = layout.NAMES[name]
    return cells[(ref.sheet, ref.address)]


def test_start_writes_the_puzzle_and_statistics(wb):
    put(wb, layout.SEED, 7)
    actions = run_script(remote_book.book(wb), "start")
    cells = remote_book.writes(actions)
    written = set(cells)
    allowed = {
        key
        for name in (
            layout.PUZZLE_GRID,
            layout.SOLUTION_GRID,
            layout.STATS,
            layout.RANK_TABLE,
            layout.STATUS,
            layout.GENERATOR_FACTS,  # hidden: what SAVE keeps without analysing again
        )
        for key in cells_of(name)
    }
    assert written == allowed
    # Lite and Server keep the Print sheet's template sizes (every shape fits them)
    assert {a["func"] for a in actions} == {"setValues"}
    puzzle = grid_from(cells, layout.PUZZLE_GRID)
    # the engine is the oracle: the add-in must write exactly what it generates for these cells
    expected = generate(GenerateRequest(target_givens=26, pattern=1, trials=299, seed=7))
    assert puzzle == expected.puzzle
    assert puzzle.given_count == 26 and count_solutions(puzzle, 2) == 1
    assert is_symmetric(puzzle, Symmetry.ROTATE_180)
    assert all(cells[key] == "" for key in cells_of(layout.SOLUTION_GRID))  # Show solution: No
    stats = dict(
        zip(
            [cells[key] for key in cells_of(layout.STATS)[0::2]],
            [cells[key] for key in cells_of(layout.STATS)[1::2]],
            strict=True,
        )
    )
    assert stats["Opens"] == 26 and stats["Target reached"] == "Yes: 26 opens"
    assert stats["Seed"] == 7
    assert stats["Level"] == grade(puzzle).label
    rank_cells = [cells[key] for key in cells_of(layout.RANK_TABLE)[1::2] if cells[key] != ""]
    assert sum(rank_cells) == 81 - 26
    assert status_of(cells).startswith("Reached 26 opens")
    assert status_of(cells).endswith("Seed 7.")


def test_start_shows_the_solution_when_asked(wb):
    put(wb, layout.SHOW_SOLUTION, "Yes")
    put(wb, layout.SEED, 11)
    put(wb, layout.SYMMETRY, "rotate90")
    put(wb, layout.OPENS, 28)
    cells = remote_book.writes(run_script(remote_book.book(wb), "start"))
    puzzle = grid_from(cells, layout.PUZZLE_GRID)
    solution = grid_from(cells, layout.SOLUTION_GRID)
    assert solution.is_complete and not solution.conflicts()
    assert all(puzzle[c] in (0, solution[c]) for c in range(81))
    assert is_symmetric(puzzle, Symmetry.ROTATE_90)


@pytest.mark.parametrize(
    ("address", "value", "message"),
    [
        ("C6", "abc", "Opens (C6) must be a whole number from 4 to 256, got 'abc'"),
        ("C6", 25, "Opens (C6), Pattern (C5) and Symmetry (C9): opens 25 is odd"),
        ("C5", "#N/A", "Pattern (C5) holds the Excel error #N/A"),
        ("C7", 2.5, "Trials (C7) must be a whole number from 1 to 99999, got 2.5"),
        ("C8", "perhaps", "Show solution (C8) must be one of No, Yes, got 'perhaps'"),
        ("C9", "spiral", "Symmetry (C9) must be one of none, rotate180"),
        ("C10", "trivial", "Difficulty (C10) must be one of any, easy"),
        ("C11", "x-ray", "Needs technique (C11) must be one of the dropdown's entries"),
        ("C12", -3, "Seed (C12) must be a whole number from 0 to 999999999999999"),
        ("C13", "#REF!", "Time limit (s) (C13) holds the Excel error #REF!"),
        ("C4", "8x8", "Geometry (C4) must be one of 9x9, 9x9-X"),
    ],
)
def test_bad_parameter_writes_only_the_status(wb, address, value, message):
    wb["Generator"][address] = value
    actions = run_script(remote_book.book(wb), "start")
    assert len(actions) == 1
    cells = remote_book.writes(actions)
    assert list(cells) == [("Generator", layout.NAMES[layout.STATUS].address)]
    assert status_of(cells).startswith(message)


def test_save_appends_one_row(wb):
    puzzle, solution = PUZZLES[0]
    for r, row in enumerate(rows_of(puzzle)):
        for c, value in enumerate(row):
            wb["Generator"].cell(4 + r, 6 + c, value or None)
    wb["Collection"].append([1, "2024-01-01 00:00:00", "9x9", "x" * 81])
    actions = run_script(remote_book.book(wb), "save_to_collection")
    cells = remote_book.writes(actions)
    row = [cells[("Collection", f"{letter}3")] for letter in "ABCDEFGHIJKLMN"]
    record = dict(zip(layout.COLLECTION_COLUMNS, row, strict=True))
    assert record["profile"] == "se"  # the Rating cell's profile, beside what it rated
    # digits-and-dots text goes with Excel's leading apostrophe, so it stays text (not a number)
    assert record["id"] == 2 and record["geometry"] == "9x9"
    assert record["puzzle"] == "'" + puzzle and record["solution"] == "'" + solution
    assert record["opens"] == Grid.parse(puzzle).given_count
    assert not any(key[0] == "Collection" and key[1].endswith("2") for key in cells)
    # a typed puzzle: START kept no grade for it, so SAVE analysed it
    assert status_of(cells) == (
        f"Saved to the Collection as id 2 ({Grid.parse(puzzle).given_count} opens; "
        f"{record['level']}, score {record['score']:g} under se)."
    )
    assert cells[("Generator", layout.NAMES[layout.HIGHEST_ID].address)] == 2


def test_save_reports_a_missing_collection_sheet(wb):
    wb.remove(wb["Collection"])
    actions = run_script(remote_book.book(wb), "save_to_collection")
    cells = remote_book.writes(actions, sheets=("Generator", "Print", "Analyze", "Removed"))
    assert cells == {
        ("Generator", layout.NAMES[layout.STATUS].address): "The workbook has no sheet "
        "'Collection' (its sheets: Generator, Print, Analyze, Removed, Play, Stats); restore it "
        "from workbooks/xlsudoku.xlsm."
    }


def test_analyze_hint_solve(wb):
    puzzle, solution = PUZZLES[2]
    wb["Analyze"]["C3"] = puzzle
    cells = remote_book.writes(run_script(remote_book.book(wb), "analyze"))
    assert grid_from(cells, layout.ANALYZE_GRID) == Grid.parse(puzzle)  # string copied in
    assert cells[("Analyze", "C3")] == ""  # and the string cell cleared
    report = [cells[key] for key in cells_of(layout.ANALYZE_REPORT)]
    assert report[0] == f"Puzzle (9x9): {puzzle}" and report[3] == "Solutions: exactly one"
    assert status_of(cells, layout.ANALYZE_STATUS).startswith("Unique solution")

    for r, row in enumerate(rows_of(puzzle)):
        for c, value in enumerate(row):
            wb["Analyze"].cell(6 + r, 3 + c, value or None)
    wb["Analyze"]["C3"] = None
    book = remote_book.book(wb)
    actions = run_script(book, "hint")
    cells = remote_book.writes(actions)
    assert status_of(cells, layout.HINT_TEXT).startswith("Hint 1 of 3: Look for")
    assert any(
        a["func"] == "setRangeColor" and a["args"] == [render.HINT_REGION_COLOUR] for a in actions
    )

    cells = remote_book.writes(run_script(remote_book.book(wb), "solve"))
    assert grid_from(cells, layout.ANALYZE_SOLUTION) == Grid.parse(solution)
    assert status_of(cells, layout.ANALYZE_STATUS) == "Solved: the solution is unique."


def test_analyze_clash_writes_only_the_status(wb):
    wb["Analyze"]["C6"] = 7
    wb["Analyze"]["K6"] = 7
    actions = run_script(remote_book.book(wb), "analyze")
    assert remote_book.writes(actions) == {
        ("Analyze", layout.NAMES[layout.ANALYZE_STATUS].address): (
            "digit 7 repeated in row 1: r1c1 (C6) and r1c9 (K6)"
        )
    }
    assert [a["func"] for a in actions] == ["setValues"]


@pytest.mark.parametrize(("puzzle", "solution"), PUZZLES)
def test_sudoku_solve(puzzle, solution):
    assert call("sudoku_solve", rows_of(puzzle)) == rows_of(solution)


def test_sudoku_solve_errors_are_text():
    rows = rows_of(PUZZLES[0][0])
    rows[0][0] = "z"
    assert call("sudoku_solve", rows) == [
        ["ERROR: grid: cell r1c1 holds 'z'; type a digit 1-9 or leave it empty"]
    ]
    assert call("sudoku_solve", [[1, 2]]) == [
        [
            "ERROR: grid: the puzzle must be a square block of 4, 6, 9, 12 or 16 cells a side "
            '(a 9x9-X puzzle: geometry "9x9-X"), got 1x2'
        ]
    ]
    assert call("sudoku_solve", rows_of(PUZZLES[0][0]), [["16x16"]]) == [
        ["ERROR: grid: the puzzle must be a 16x16 block of cells, got 9x9"]
    ]


def test_sudoku_count():
    puzzle = PUZZLES[0][0]
    assert call("sudoku_count", rows_of(puzzle), [[""]]) == [[1]]
    assert call("sudoku_count", rows_of(puzzle)) == [[1]]  # omitted = blank
    sparse = rows_of(puzzle[:40] + "." * 41)
    # a count that reached the limit is marked: at least that many solutions
    assert call("sudoku_count", sparse, [[""]]) == [[">=2"]]
    assert call("sudoku_count", sparse, [[5]]) == [[">=5"]]
    assert call("sudoku_count", sparse, [[0]]) == [
        ["ERROR: limit must be a whole number from 1 to 1000 (or blank), got 0"]
    ]


@pytest.mark.parametrize(("puzzle", "solution"), PUZZLES[::2])
def test_sudoku_grade(puzzle, solution):
    graded = grade(Grid.parse(puzzle))
    assert call("sudoku_grade", rows_of(puzzle)) == [[graded.label, graded.score, "se"]]


def test_sudoku_generate_is_deterministic_and_valid():
    first = call("sudoku_generate", [[28]], [[1]], [[5]])
    assert first == call("sudoku_generate", [[28]], [[1]], [[5]])
    puzzle = Grid(tuple(int(v or 0) for row in first for v in row))
    assert puzzle.given_count == 28 and count_solutions(puzzle, 2) == 1
    assert is_symmetric(puzzle, Symmetry.ROTATE_180)
    assert call("sudoku_generate", [[25]], [[1]], [[5]])[0][0].startswith("ERROR: opens 25 is odd")
    assert call("sudoku_generate", [["x"]], [[1]], [[5]]) == [
        ["ERROR: opens for 9x9 must be a whole number from 24 to 80 (or blank), got 'x'"]
    ]


@pytest.mark.parametrize(
    ("opens", "shape", "best"),
    [(80, "16x16", 256), (30, "12x12", 144), (12, "9x9-X", 81)],
)
def test_sudoku_generate_answers_with_the_time_limit_rather_than_run_on(opens, shape, best):
    """Targets out of reach answer an ERROR naming the time limit (work: the same everywhere)."""
    answer = call("sudoku_generate", [[opens]], [[""]], [[1]], [[shape]], [["work:0.1"]])
    text = answer[0][0]
    assert text.startswith(f"ERROR: time limit: no puzzle with {opens} opens was found within ")
    assert "0.1 work units (the best had " in text and "time_limit argument (blank = 10 s)" in text
    assert opens < int(text.split("the best had ")[1].split(")")[0]) < best


def test_a_time_limit_changes_no_puzzle_it_lets_finish():
    """The same arguments give the same puzzle whatever time_limit allowed it."""
    plain = call("sudoku_generate", [[28]], [[1]], [[5]])
    for limit in ("", 30, "cpu:20", "work:20"):
        assert call("sudoku_generate", [[28]], [[1]], [[5]], [[""]], [[limit]]) == plain
    puzzle, solution = PUZZLES[0]
    for limit in ("", 5, "work:5"):
        assert call("sudoku_solve", rows_of(puzzle), [[""]], [[limit]]) == rows_of(solution)
        assert call("sudoku_count", rows_of(puzzle), [[5]], [[""]], [[limit]]) == [[1]]
        graded = grade(Grid.parse(puzzle))
        assert call("sudoku_grade", rows_of(puzzle), [[""]], [[""]], [[limit]]) == [
            [graded.label, graded.score, "se"]
        ]


@pytest.mark.parametrize("function", ["sudoku_solve", "sudoku_grade"])
@pytest.mark.parametrize(
    ("limit", "shown"), [(0, "0"), ("soon", "'soon'"), (601, "601"), ("#N/A", None)]
)
def test_a_bad_time_limit_is_named(function, limit, shown):
    between = [[[""]]] * (2 if function == "sudoku_grade" else 1)  # geometry (and profile)
    answer = call(function, rows_of(PUZZLES[0][0]), *between, [[limit]])[0][0]
    if shown is None:
        assert answer.startswith("ERROR: time_limit holds the Excel error #N/A")
    else:
        assert answer == (
            "ERROR: time_limit must be seconds from 0.1 to 600, or cpu:SECONDS or work:UNITS "
            f"in that range (or blank), got {shown}"
        )


def test_custom_functions_say_their_time_limit_in_excel():
    """Excel shows each argument's description: every function names time_limit's default."""
    meta = {f["name"]: f for f in xlwings.server.custom_functions_meta(xl)["functions"]}
    for name in ("SUDOKU_SOLVE", "SUDOKU_COUNT", "SUDOKU_GRADE", "SUDOKU_GENERATE"):
        (argument,) = [p for p in meta[name]["parameters"] if p["name"] == "time_limit"]
        assert "blank = 10" in argument["description"] and argument["optional"]


def test_xl_imports_without_xlwings_server_mode():
    env = {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")}
    code = "import xlsudoku.addin.xl as m; print(callable(m.start), m.sudoku_solve.__name__)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "sudoku_solve"]


def test_desktop_entry_points_match_the_buttons(monkeypatch):
    import inspect

    pressed: list[str] = []
    monkeypatch.setattr(desktop, "press", pressed.append)
    for button in layout.BUTTONS:
        function = getattr(desktop, button.action)
        assert inspect.signature(function).parameters == {}
        assert (
            button.python_call
            == f"import xlsudoku.addin.desktop; xlsudoku.addin.desktop.{button.action}()"
        )
        function()
        assert pressed[-1] == button.action  # each macro runs its own button's action
    assert sorted(pressed) == sorted(actions_module.ACTIONS)


def test_desktop_pins_the_xlwings_of_the_workbook_vba():
    with zipfile.ZipFile(TEMPLATE) as archive:
        in_workbook = vbaproject.parse_project(archive.read("xl/vbaProject.bin"))
    assert xlwings_vba.xlwings_version(in_workbook) == desktop.VBA_XLWINGS
    assert xlwings_vba.xlwings_version(xlwings_vba.xlwings_project()) == desktop.VBA_XLWINGS
    extras = PROJECT["optional-dependencies"]["desktop"]
    assert extras == [f"xlwings=={desktop.VBA_XLWINGS}"]
    assert SpecifierSet(XLWINGS_RANGE).contains(desktop.VBA_XLWINGS)


def test_ci_runs_the_remote_engine_tests_on_the_oldest_supported_xlwings():
    (lower,) = (s.version for s in SpecifierSet(XLWINGS_RANGE) if s.operator == ">=")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"'xlwings=={lower}'" in ci and "pytest -q -p no:cacheprovider tests/test_xl.py" in ci


@pytest.mark.parametrize("action", ["start", "analyze"])
def test_desktop_click_with_another_xlwings_writes_the_fix(wb, action):
    actions = run_desktop(remote_book.book(wb), action, installed="0.36.17")
    status = desktop.status_name(action)
    cells = remote_book.writes(actions)
    assert list(cells) == [(layout.NAMES[status].sheet, layout.NAMES[status].top_left)]
    text = cells[(layout.NAMES[status].sheet, layout.NAMES[status].top_left)]
    assert "xlwings VBA is 0.37.8" in text and "has xlwings 0.36.17" in text
    assert f'-m pip install "xlwings=={desktop.VBA_XLWINGS}"' in text


def test_desktop_start_with_the_right_xlwings_runs(wb):
    wb["Generator"][at(layout.SEED)] = 7
    wb["Generator"][at(layout.STATUS)] = (
        desktop.RUNNING
    )  # as Excel reads it back after LongRun wrote it
    cells = remote_book.writes(run_desktop(remote_book.book(wb), "start"))
    assert grid_from(cells, layout.PUZZLE_GRID) == generate(GenerateRequest(seed=7)).puzzle


@pytest.mark.parametrize(("typed", "stopped"), [(desktop.RUNNING, False), ("stop", True)])
def test_long_run_stops_when_the_status_cell_is_typed_into(wb, typed, stopped):
    # Excel's status cell as RunPython's Python reads it back: still the running text, or
    # whatever the user typed over it (macOS, where Excel stays usable during a run).
    settings = ((layout.PATTERN, 1), (layout.OPENS, 20), (layout.TRIALS, 99999), (layout.SEED, 3))
    for name, value in (*settings, (layout.STATUS, typed)):
        wb["Generator"][at(name)] = value
    book = remote_book.book(wb)
    shown: list[object] = []
    watch = desktop.LongRun(XlwingsIO(book), shown.append, escape=lambda: False, interval=0)
    assert watch.cancel() is stopped
    if not stopped:
        return
    outcome = actions_module.start(XlwingsIO(book), progress=watch.progress, cancel=watch.cancel)
    watch.close()
    assert outcome.ok and outcome.status.startswith("Interrupted:")
    cells = remote_book.writes(book.json()["actions"])
    assert cells[("Generator", at(layout.STATUS))] == outcome.status
    assert grid_from(cells, layout.PUZZLE_GRID) == outcome.detail.puzzle
    assert shown[-1] is False and all(isinstance(text, str) for text in shown[:-1])


def test_star_import_gives_every_script_and_function():
    namespace = {}
    exec("from xlsudoku.addin.xl import *", namespace)
    exported = {name for name in namespace if not name.startswith("__")}
    scripts = {name for name in exported if hasattr(namespace[name], "__xlscript__")}
    functions = {name for name in exported if hasattr(namespace[name], "__xlfunc__")}
    assert scripts == {button.action for button in layout.BUTTONS}
    assert functions == {"sudoku_solve", "sudoku_count", "sudoku_grade", "sudoku_generate"}
    assert exported == scripts | functions


def excel_error(text, kind):
    """Return an error value as Excel hands it to a custom function (an Error data type)."""
    return {"type": "Error", "basicValue": text, "errorType": kind}


def test_custom_functions_report_excel_errors_with_argument_and_cell():
    rows = rows_of(PUZZLES[0][0])
    rows[2][3] = excel_error("#N/A", "NotAvailable")
    expected = (
        "ERROR: grid: cell r3c4 holds the Excel error #N/A; type a digit 1-9 or leave it empty"
    )
    for name in ("sudoku_solve", "sudoku_count", "sudoku_grade"):
        assert call(name, rows) == [[expected]]
    puzzle = rows_of(PUZZLES[0][0])
    div0 = excel_error("#DIV/0!", "Div0")
    assert call("sudoku_count", puzzle, [[div0]]) == [
        [
            "ERROR: limit holds the Excel error #DIV/0!; it must be a whole number from 1 to "
            "1000 (or blank)"
        ]
    ]
    assert call("sudoku_generate", [[28]], [[1]], [[excel_error("#N/A", "NotAvailable")]]) == [
        [
            "ERROR: seed holds the Excel error #N/A; it must be a whole number from 0 to "
            f"{layout.MAX_SEED} (or blank)"
        ]
    ]
    assert call("sudoku_generate", [[div0]], [[1]], [[5]])[0][0].startswith(
        "ERROR: opens for 9x9 holds the Excel error #DIV/0!"
    )


def test_sudoku_solve_of_a_puzzle_with_several_solutions_says_so():
    sparse = rows_of(PUZZLES[0][0][:40] + "." * 41)
    assert call("sudoku_solve", sparse) == [
        [
            "ERROR: the puzzle has more than one solution; SUDOKU_COUNT counts them, "
            "and ANALYZE shows a clue that makes it unique"
        ]
    ]
    clash = rows_of("11" + "." * 79)
    assert call("sudoku_solve", clash)[0][0].startswith("ERROR: grid: digit 1 repeated in row 1")


def test_text_cells_are_formatted_as_text(wb):
    # Excel converts what is typed into a General cell: an 81-digit puzzle becomes a 15-digit
    # number, "2024-05-01 09:30:05" a date. These cells keep text as typed.
    assert wb["Analyze"][layout.NAMES[layout.ANALYZE_STRING].top_left].number_format == "@"
    header = layout.NAMES[layout.COLLECTION_HEADER]
    for name in layout.COLLECTION_COLUMNS:
        letter = layout.column_letters(header.bounds[1] + layout.COLLECTION_COLUMNS.index(name))
        expected = "@" if name in layout.TEXT_COLUMNS else None
        if name in ("puzzle", "solution", "ranks", "notes"):
            assert name in layout.TEXT_COLUMNS
        if name == "saved at":  # a real date-time, not text
            expected = layout.DATE_FORMAT
        if expected is not None:
            assert wb["Collection"].column_dimensions[letter].number_format == expected, name


def test_analyze_reads_back_a_puzzle_excel_turned_into_a_number(wb):
    # 0 for blanks and every given in the last 15 cells: a number Excel keeps exactly
    puzzle = "0" * 66 + "123456" + "456789123"
    wb["Analyze"]["C3"] = float(int(puzzle))
    cells = remote_book.writes(run_script(remote_book.book(wb), "analyze"))
    assert grid_from(cells, layout.ANALYZE_GRID) == Grid.parse(puzzle)
    status = cells[("Analyze", at(layout.ANALYZE_STATUS))]
    assert "AnalyzeString (C3) held a number: Excel had dropped its 66 leading" in status
    assert "clash" not in status and "repeated" not in status


def test_analyze_refuses_a_number_that_lost_digits(wb):
    wb["Analyze"]["C3"] = float(PUZZLES[0][0].replace(".", "0"))  # what Excel keeps of it
    actions = run_script(remote_book.book(wb), "analyze")
    cells = remote_book.writes(actions)
    assert list(cells) == [("Analyze", at(layout.ANALYZE_STATUS))]
    status = cells[("Analyze", at(layout.ANALYZE_STATUS))]
    assert (
        status.startswith("AnalyzeString (C3) holds the number ") and "Format C3 as Text" in status
    )


def test_start_says_when_the_time_limit_stopped_it(wb):
    settings = ((layout.PATTERN, 1), (layout.OPENS, 18), (layout.TRIALS, 99999), (layout.SEED, 3))
    for name, value in (*settings, (layout.TIME_LIMIT, 0.5)):
        wb["Generator"][at(name)] = value
    cells = remote_book.writes(run_script(remote_book.book(wb), "start"))
    status = cells[("Generator", at(layout.STATUS))]
    where = at(layout.TIME_LIMIT)
    assert f" Stopped by the time limit (0.5 s, Time limit (s) in {where})." in status, status
    assert grid_from(cells, layout.PUZZLE_GRID).given_count > 18  # the best puzzle is kept


def test_time_limit_cell_states_its_default(wb):
    cell = wb["Generator"][at(layout.TIME_LIMIT)]
    default = f"{layout.DEFAULT_TIME_LIMIT:g}"
    assert cell.value is None and f"Blank: {default} s." in cell.comment.text
    row, column = layout.parse_cell(at(layout.TIME_LIMIT))
    assert wb["Generator"].cell(row, column + 1).value == (
        f"seconds (or cpu:60, work:30), blank = {default}"
    )
    values = {param.name: wb["Generator"][param.ref.top_left].value for param in layout.PARAMS}
    from xlsudoku.addin import params

    assert params.read_start(values).time_limit == layout.DEFAULT_TIME_LIMIT


def test_desktop_start_without_a_status_cell_names_what_is_missing(wb):
    from xlsudoku.addin.cellio import MissingPart

    book = remote_book.book(wb, drop_names=(layout.STATUS,))
    with pytest.raises(MissingPart, match="no defined name 'Status'"):
        desktop.run("start", book, installed=desktop.VBA_XLWINGS)
    with pytest.raises(MissingPart, match="has xlwings 0.36.17"):
        desktop.run("start", book, installed="0.36.17")


def test_a_long_start_says_first_it_may_take_up_to_the_time_limit(wb):
    put(wb, layout.OPENS, 22)
    put(wb, layout.PATTERN, "none")
    put(wb, layout.TIME_LIMIT, 1)
    put(wb, layout.SEED, 1)
    actions = run_script(remote_book.book(wb), "start")
    status = layout.NAMES[layout.STATUS]
    texts = [
        a["values"][0][0]
        for a in actions
        if a["func"] == "setValues"
        and (a["start_row"] + 1, a["start_column"] + 1) == layout.parse_cell(status.address)
    ]
    assert texts[0].startswith("Running START: a long search, which may take up to 1 s")
    assert " It took " in texts[-1] and "of the 1 s allowed." in texts[-1]
    # a quick START says nothing before, nor how long it took
    put(wb, layout.OPENS, 26)
    put(wb, layout.PATTERN, 1)
    actions = run_script(remote_book.book(wb), "start")
    texts = [a["values"][0][0] for a in actions if a["func"] == "setValues" and a["row_count"] == 1]
    assert not any(str(t).startswith("Running START") for t in texts)


# The actions the xlwings Server client registers (xlwings/xlwings-server,
# xlwings_server/static/js/custom-scripts/index.js, its ``funcs`` map): it calls
# ``callbacks[action.func]`` unchecked, so any other action fails in Excel.  Later clients
# register more (setColumnWidth, setRowHeight, ...); the scripts keep to this common list.
SERVER_CLIENT_ACTIONS = frozenset(
    """setValues addSheet setSheetName setAutofit setRangeColor activateSheet addHyperlink
    setNumberFormat setPictureName setPictureWidth setPictureHeight deletePicture addPicture
    updatePicture alert setRangeName namesAdd nameDelete runMacro rangeDelete rangeInsert
    rangeSelect rangeClearContents rangeClearFormats rangeGroup rangeUngroup rangeClear
    rangeAdjustIndent addTable setTableName resizeTable showAutofilterTable showHeadersTable
    showTotalsTable setTableStyle copyRange copyFromRange sheetDelete sheetClear
    sheetClearFormats sheetClearContents freezePaneAtRange freezePaneUnfreeze
    setFontProperty""".split()
)
# The actions xlwings Lite's client handles: xlwings Lite runs xlwings-server's Office.js client
# in its Pyodide mode (xlwings/xlwings-server, app/static/js/core/xlwingsjs/lite.js loads
# Pyodide, xlwingsjs/xlwings.js ``runActions`` calls ``callbacks[action.func]`` from its
# ``funcs`` map, unchecked): this is that map.  setAutofit (SAVE, IMPORT, DELETE, SORT) is in it.
LITE_CLIENT_ACTIONS = frozenset(
    """setValues addSheet setSheetName setAutofit setRangeColor activateSheet addHyperlink
    setNumberFormat setPictureName setPictureWidth setPictureHeight deletePicture addPicture
    updatePicture alert setRangeName namesAdd nameDelete runMacro rangeDelete rangeInsert
    rangeSelect rangeClearContents rangeClearFormats rangeGroup rangeUngroup rangeClear
    rangeAdjustIndent addTable setTableName resizeTable showAutofilterTable showHeadersTable
    showTotalsTable setTableStyle copyRange sheetDelete sheetClear sheetClearFormats
    sheetClearContents freezePaneAtRange freezePaneUnfreeze""".split()
)
# What these scripts send, each with the arguments the clients take: a colour as "#RRGGBB"
# text (the client calls toString() on it), autofit by "rows" or "columns".
SCRIPT_ACTIONS = {"setValues", "setRangeColor", "setAutofit"}


def _scenario(wb, script):
    """Fill *wb* the way a user would before pressing *script*'s button."""
    puzzle = PUZZLES[0][0]
    wb["Generator"][at(layout.SEED)] = 7
    collection = [[1, "2024-01-01 00:00:00", "9x9", PUZZLES[1][0]]]
    collection.append([2, "2024-01-02 00:00:00", "9x9", PUZZLES[2][0]])
    for row in collection:
        wb["Collection"].append(row)
    if script == "start_16x16":
        wb["Generator"][at(layout.GEOMETRY)] = "16x16"
        wb["Generator"][at(layout.PATTERN)] = "none"
        wb["Generator"][at(layout.OPENS)] = 160
        wb["Generator"][at(layout.SHOW_SOLUTION)] = "Yes"
        return "start"
    if script == "save_to_collection":
        for r, row in enumerate(rows_of(puzzle)):
            for c, value in enumerate(row):
                wb["Generator"].cell(4 + r, 6 + c, value or None)
    wb["Generator"][at(layout.IMPORT_SOURCE)] = "\n".join(line for line, _ in PUZZLES[3:6])
    wb["Generator"][at(layout.DELETE_IDS)] = "1"
    wb["Generator"][at(layout.SORT_BY)] = "id (descending)"
    wb["Analyze"]["C3"] = PUZZLES[0][0][:40] + "." * 41 if script == "analyze" else puzzle
    return script


@pytest.mark.parametrize(
    "script", [*(button.action for button in layout.BUTTONS), "start_16x16", "hint_3"]
)
def test_every_action_a_script_sends_is_one_every_client_handles(wb, script):
    presses = 3 if script == "hint_3" else 1
    name = _scenario(wb, script.removesuffix("_3"))
    book = remote_book.book(wb)
    for _ in range(presses):
        actions = run_script(book, name)
    funcs = {action["func"] for action in actions}
    assert funcs <= SCRIPT_ACTIONS <= SERVER_CLIENT_ACTIONS & LITE_CLIENT_ACTIONS, funcs
    for action in actions:
        if action["func"] == "setRangeColor":
            (colour,) = action["args"]
            assert isinstance(colour, str) and len(colour) == 7 and colour.startswith("#")
        if action["func"] == "setAutofit":
            assert action["args"] in ("rows", "columns", ["rows"], ["columns"])
    # the status is the first write: a client stopping at a later action shows this run's
    status = layout.NAMES[desktop.status_name(name)]
    first = actions[0]
    assert first["func"] == "setValues"
    assert layout.SHEETS[first["sheet_position"]] == status.sheet
    row, column = layout.parse_cell(status.top_left)
    assert (first["start_row"] + 1, first["start_column"] + 1) == (row, column)
    text = first["values"][0][0]
    assert isinstance(text, str) and text and not text.startswith("Traceback"), text


@pytest.mark.parametrize("path", ["/etc/passwd", "C:\\Users\\me\\puzzles.sdm", "puzzles.txt"])
def test_import_on_lite_and_server_refuses_a_path_naming_the_cell(wb, tmp_path, monkeypatch, path):
    (tmp_path / "puzzles.txt").write_text(PUZZLES[3][0] + "\n", encoding="utf-8")
    wb["Generator"][at(layout.IMPORT_SOURCE)] = path
    monkeypatch.chdir(tmp_path)  # a relative path names a file that exists: refused all the same
    actions = run_script(remote_book.book(wb), "import_puzzles")
    cells = remote_book.writes(actions)
    status = status_of(cells)
    assert list(cells) == [("Generator", at(layout.STATUS))]
    assert status.startswith(f"Import from ({at(layout.IMPORT_SOURCE)}) holds a file path")
    assert "xlwings Lite and Server read no files" in status


@pytest.mark.parametrize("source", ["Paste", "paste!A2:A4", "pasted"])
def test_import_on_lite_and_server_reads_pasted_puzzles(wb, source):
    sheet = wb.create_sheet("Paste")
    sheet["A1"] = "puzzle"
    for row, (puzzle, _) in enumerate(PUZZLES[3:6], start=2):
        sheet.cell(row, 1, puzzle)
    pasted = "\n".join(puzzle for puzzle, _ in PUZZLES[3:6])
    wb["Generator"][at(layout.IMPORT_SOURCE)] = pasted if source == "pasted" else source
    sheets = (*layout.SHEETS, "Paste")
    cells = remote_book.writes(run_script(remote_book.book(wb), "import_puzzles"), sheets)
    where = {"Paste": "sheet Paste", "paste!A2:A4": "range paste!A2:A4"}
    status = status_of(cells)
    assert (
        status == f"Imported 3 puzzles as ids 1-3 from {where.get(source, 'the Import from cell')}."
    )
    assert [cells[("Collection", f"D{row}")] for row in (2, 3, 4)] == [
        "'" + puzzle for puzzle, _ in PUZZLES[3:6]
    ]


# -- each request starts from a clean remote engine --------------------------------------------


def _start_payloads(wb, values):
    """Yield the payload of the template with each of *values* in the Seed cell, cheaply."""
    base = remote_book.payload(wb)
    seed_row, seed_column = layout.parse_cell(at(layout.SEED))
    index = next(i for i, sheet in enumerate(base["sheets"]) if sheet["name"] == "Generator")
    for value in values:
        sheet = dict(base["sheets"][index])
        sheet["values"] = [list(row) for row in sheet["values"]]
        sheet["values"][seed_row - 1][seed_column - 1] = value
        sheets = list(base["sheets"])
        sheets[index] = sheet
        yield base | {"sheets": sheets}


def test_no_answer_carries_an_earlier_requests_values(wb):
    """Request A with a bad Pattern, then B with a good one: B reads its own cells."""
    put(wb, layout.PATTERN, True)
    first = remote_book.writes(run_script(remote_book.book(wb), "start"))
    assert status_of(first).startswith("Pattern (C5) holds the logical value TRUE")
    put(wb, layout.PATTERN, 1)  # equal to TRUE as a Python value, and so as a cache key
    second = remote_book.writes(run_script(remote_book.book(wb), "start"))
    assert status_of(second).startswith("Reached 26 opens"), status_of(second)
    assert grid_from(second, layout.PUZZLE_GRID).given_count == 26


@pytest.mark.slow
def test_memory_stays_flat_over_200_starts():
    """200 STARTs, each a new request with its own values: what the engine keeps stays flat.

    A 4x4 puzzle keeps each run short; the payload is the template's all the same.  Before
    each script cleared the remote engine, every request stayed in memory (its book and the
    cached reads of its sheets).
    """
    import tracemalloc

    wb = openpyxl.load_workbook(TEMPLATE, keep_vba=True)
    for name, value in ((layout.GEOMETRY, "4x4"), (layout.PATTERN, "none"), (layout.OPENS, 6)):
        put(wb, name, value)
    payloads = _start_payloads(wb, range(1, 201))
    statuses = []

    def run(count):
        for payload in itertools.islice(payloads, count):
            actions = run_script(xw.Book(json=payload), "start")
            statuses.append(status_of(remote_book.writes(actions)))

    tracemalloc.start()
    try:
        run(20)  # warm up: the engine's tables for the shape, xlwings' converters
        settled = tracemalloc.get_traced_memory()[0]
        run(180)
        grown = tracemalloc.get_traced_memory()[0] - settled
    finally:
        tracemalloc.stop()
    assert len(statuses) == 200 and all(s.startswith("Reached 6 opens") for s in statuses)
    assert grown < 2**20, f"{grown / 2**20:.1f} MiB kept over 180 requests"
