"""The headless runner on temp copies of the committed workbook: buttons, safe saving, Ctrl+C."""

import os
import shutil
from pathlib import Path

import openpyxl
import pytest
from oletools.olevba import VBA_Parser
from sheets import grid_of

from xlsudoku.addin import actions, headless, layout
from xlsudoku.addin.actions import generator as generator_sheet
from xlsudoku.cli import main
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions
from xlsudoku.interrupts import Interrupts
from xlsudoku.xlsm import files as workbook_file
from xlsudoku.xlsm import package
from xlsudoku.xlsm import workbook as workbook_save

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "xlsudoku.xlsm"
    shutil.copy2(TEMPLATE, path)
    return path


def values(path):
    wb = openpyxl.load_workbook(path)
    return {
        (ws.title, cell.coordinate): cell.value
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for cell in row
        if cell.value is not None
    }


def read(path, name):
    ref = layout.NAMES[name]
    ws = openpyxl.load_workbook(path)[ref.sheet]
    cells = ws[ref.address]
    if not isinstance(cells, tuple):
        return cells.value
    return [[cell.value for cell in row] for row in cells]


def set_cells(path, **cells):
    wb = openpyxl.load_workbook(path, keep_vba=True)
    for name, value in cells.items():
        ref = layout.NAMES[name]
        wb[ref.sheet][ref.address] = value
    wb.save(path)


def assert_macros_and_buttons(path):
    parser = VBA_Parser(str(path))
    assert parser.detect_vba_macros()
    modules = {stream for _, stream, _, _ in parser.extract_macros()}
    assert {"VBA/Buttons", "VBA/xlwings"} <= modules
    contents = package.package_contents(path)
    assert contents.vba_project == package.package_contents(TEMPLATE).vba_project
    assert [b.caption for b in contents.buttons] == [b.caption for b in layout.BUTTONS]
    assert [b.macro for b in contents.buttons] == [b.macro for b in layout.BUTTONS]


def no_temp_files(folder):
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


def test_start_to_output_leaves_the_workbook_alone(book, tmp_path, capsys):
    original = book.read_bytes()
    out = tmp_path / "out" / "result.xlsm"
    out.parent.mkdir()
    assert main(["workbook", "start", str(book), "--output", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("Reached 26 opens") and printed[-1] == f"saved {out}"
    assert book.read_bytes() == original
    puzzle = grid_of(read(out, layout.PUZZLE_GRID))
    assert printed[1] == f"puzzle: {puzzle}"
    assert puzzle.given_count == 26 and count_solutions(puzzle, 2) == 1
    assert read(out, layout.STATUS) == printed[0]
    assert_macros_and_buttons(out)
    assert no_temp_files(out.parent) and not (out.parent / "result.xlsm.bak").exists()


def test_start_in_place_keeps_a_backup(book):
    original = book.read_bytes()
    set_cells(book, Seed=77)
    changed_input = book.read_bytes()
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    backup = book.with_name(book.name + ".bak")
    assert backup.read_bytes() == changed_input != original
    assert read(book, layout.STATS)[layout.STATS_LABELS.index("Seed")] == ["Seed", 77]
    assert_macros_and_buttons(book)
    # a second run repeats the puzzle of seed 77
    first = read(book, layout.PUZZLE_GRID)
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    assert read(book, layout.PUZZLE_GRID) == first
    assert no_temp_files(book.parent)


def test_every_button_headless(book, capsys):
    set_cells(book, Seed=5, ShowSolution="Yes")
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    puzzle = grid_of(read(book, layout.PUZZLE_GRID))
    assert main(["workbook", "save", str(book)]) == 0
    rows = read(book, layout.COLLECTION_HEADER)
    wb = openpyxl.load_workbook(book)
    assert wb["Collection"]["D2"].value == str(puzzle) and wb["Collection"]["A2"].value == 1
    assert main(["workbook", "save", str(book)]) == 1  # the same puzzle again: refused
    assert openpyxl.load_workbook(book)["Collection"].max_row == 2
    assert main(["workbook", "clear", str(book)]) == 0
    assert read(book, layout.PUZZLE_GRID) == [[None] * 16 for _ in range(16)]
    assert read(book, layout.COLLECTION_HEADER) == rows

    set_cells(book, AnalyzeString=PUZZLE)
    assert main(["workbook", "analyze", str(book)]) == 0
    assert str(grid_of(read(book, layout.ANALYZE_GRID))) == PUZZLE
    assert main(["workbook", "hint", str(book)]) == 0
    assert read(book, layout.HINT_TEXT).startswith("Hint 1 of 3")
    assert main(["workbook", "solve", str(book)]) == 0
    solution = grid_of(read(book, layout.ANALYZE_SOLUTION))
    assert solution.is_complete and all(
        solution[c] == d for c, d in enumerate(Grid.parse(PUZZLE)) if d
    )
    out = capsys.readouterr().out
    assert "This puzzle is already in the Collection (id 1); nothing added" in out
    assert_macros_and_buttons(book)


def test_engine_commands_still_work(capsys):
    assert main(["analyze", PUZZLE]) == 0
    assert "unique" in capsys.readouterr().out.lower()


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("Opens", "lots", "Opens (C6) must be a whole number from 4 to 256, got 'lots'"),
        (
            "Pattern",
            7,
            "Opens (C6), Pattern (C5) and Symmetry (C9): opens 26 is even but pattern 7",
        ),
        ("TimeLimit", "=1/0", "Time limit (s) (C13) holds the formula '=1/0'"),
    ],
)
def test_bad_input_exit_1_and_only_the_status_changes(book, capsys, name, value, message):
    set_cells(book, **{name: value})
    before = values(book)
    assert main(["workbook", "start", str(book), "--quiet"]) == 1
    assert capsys.readouterr().out.startswith(message)
    after = values(book)
    diff = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    status = ("Generator", layout.NAMES[layout.STATUS].address)
    assert diff == {status}
    assert after[status].startswith(message)


def test_unusable_files_exit_3(tmp_path, book, capsys):
    assert main(["workbook", "start", str(tmp_path / "missing.xlsm")]) == 3
    broken = tmp_path / "broken.xlsm"
    broken.write_bytes(b"not a zip")
    assert main(["workbook", "start", str(broken)]) == 3
    assert main(["workbook", "start", str(book), "--output", str(tmp_path / "out.txt")]) == 3
    err = capsys.readouterr().err
    assert "missing.xlsm: no such file" in err and "broken.xlsm: not a workbook" in err
    assert broken.read_bytes() == b"not a zip"


def test_workbook_without_generator_sheet_exit_3(book, capsys):
    wb = openpyxl.load_workbook(book, keep_vba=True)
    wb["Generator"].title = "Puzzles"
    wb.save(book)
    before = book.read_bytes()
    assert main(["workbook", "start", str(book), "--quiet"]) == 3
    assert (
        "no sheet 'Generator' (its sheets: Puzzles, Print, Analyze, Collection, Removed, Play, "
        "Stats)" in (capsys.readouterr().err)
    )
    assert book.read_bytes() == before


def test_xlsx_without_macros(tmp_path):
    wb = openpyxl.load_workbook(TEMPLATE)
    path = tmp_path / "plain.xlsx"
    wb.save(path)
    result = headless.run("start", path)
    assert result.outcome.ok and grid_of(read(path, layout.PUZZLE_GRID)).given_count == 26


def test_ctrl_c_keeps_the_best_puzzle(book):
    set_cells(book, Opens=18, Pattern=4, Trials=99999, TimeLimit=120, Seed=3)
    interrupts = Interrupts(presses=1)  # Ctrl+C pressed once: stop and keep the best puzzle
    result = headless.run("start", book, interrupts=interrupts)
    assert result.outcome.ok and result.outcome.status.startswith("Interrupted:")
    puzzle = grid_of(read(book, layout.PUZZLE_GRID))
    assert puzzle == result.outcome.detail.puzzle and count_solutions(puzzle, 2) == 1
    assert read(book, layout.STATUS).startswith("Interrupted:")
    assert interrupts.state == (
        f"the best puzzle found before Ctrl+C was saved to {book} (the previous version is "
        "xlsudoku.xlsm.bak)"
    )
    assert_macros_and_buttons(book)


def test_second_ctrl_c_abandons_without_writing(book, monkeypatch):
    set_cells(book, Opens=18, Pattern=4, Trials=99999, TimeLimit=120, Seed=3)
    before = book.read_bytes()
    interrupts = Interrupts(presses=1)
    real_generate = generator_sheet.generate

    def generate_then_press(*args, **kwargs):
        interrupts.press()  # the second press: raises where the run is
        return real_generate(*args, **kwargs)

    monkeypatch.setattr(generator_sheet, "generate", generate_then_press)
    with pytest.raises(KeyboardInterrupt):
        headless.run("start", book, interrupts=interrupts)
    assert interrupts.state == f"{book} was not changed"
    assert book.read_bytes() == before
    assert no_temp_files(book.parent) and not book.with_name(book.name + ".bak").exists()


@pytest.mark.parametrize("save", ["whole", "patched"])
def test_interrupt_while_writing_the_copy_leaves_the_file_intact(book, monkeypatch, save):
    before = book.read_bytes()
    interrupts = Interrupts()
    real_save, real_patch = package.save_preserving, workbook_save.patch_cells

    def save_then_interrupt(workbook, path, template):
        real_save(workbook, path, template)
        interrupts.press()

    def patch_then_interrupt(*args):
        patched = real_patch(*args)
        interrupts.press()
        return patched

    monkeypatch.setattr(package, "save_preserving", save_then_interrupt)
    monkeypatch.setattr(workbook_save, "patch_cells", patch_then_interrupt)
    if save == "whole":
        monkeypatch.setattr(workbook_save, "_patched", lambda *args: None)
    with pytest.raises(KeyboardInterrupt):
        headless.run("save", book, interrupts=interrupts)
    assert book.read_bytes() == before and interrupts.state == f"{book} was not changed"
    assert no_temp_files(book.parent)


def test_interrupt_while_replacing_waits_and_says_saved(book, monkeypatch):
    before = book.read_bytes()
    interrupts = Interrupts()
    real_replace = os.replace

    def replace_then_interrupt(source, target):
        real_replace(source, target)
        interrupts.press()  # shielded: raised once the new file is in place

    monkeypatch.setattr(workbook_file.os, "replace", replace_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        headless.run("clear", book, interrupts=interrupts)
    monkeypatch.undo()
    assert book.read_bytes() != before
    assert book.with_name(book.name + ".bak").read_bytes() == before
    assert interrupts.state.startswith(f"the result was saved to {book}")
    assert no_temp_files(book.parent)


def test_start_exits_5_on_a_missed_target_like_generate(book, capsys):
    set_cells(book, Seed=3, Difficulty="beyond technique", Trials=1)
    assert main(["workbook", "start", str(book), "--quiet"]) == 5
    captured = capsys.readouterr()
    assert "the target was missed" in captured.err
    stats = dict(map(tuple, read(book, layout.STATS)))
    reached = stats["Target reached"]
    assert reached.startswith("No: asked 26 opens, Beyond technique; missed the level")
    assert main(["generate", "--seed", "3", "--difficulty", "beyond", "--trials", "1"]) == 5


def test_start_progress_is_accepted_and_never_drawn_into_a_pipe(book, capsys):
    assert main(["workbook", "start", str(book), "--progress"]) == 0
    with pytest.raises(SystemExit):
        main(["workbook", "start", str(book), "--progress", "--quiet"])
    capsys.readouterr()
    assert main(["workbook", "start", str(book)]) == 0  # stderr is no terminal here: no bar
    assert "trial" not in capsys.readouterr().err


def test_a_negative_seed_is_refused(capsys):
    for argv in (["generate", "--seed", "-1"], ["batch", "-n", "1", "--seed", "-1"]):
        with pytest.raises(SystemExit) as caught:
            main(argv)
        assert caught.value.code == 2
        assert "seed -1 is negative" in capsys.readouterr().err


def test_start_in_place_reads_the_file_again_only_when_another_run_changed_it(book, monkeypatch):
    loads = []
    real_read = headless.read_workbook
    monkeypatch.setattr(
        headless, "read_workbook", lambda *args: loads.append(args) or real_read(*args)
    )
    set_cells(book, Opens=26, Pattern=1, Seed=5)
    headless.run("start", book)
    assert len(loads) == 1  # the file did not change while START searched: loaded once
    puzzle = grid_of(read(book, layout.PUZZLE_GRID))

    real_start = actions.start

    def start_while_another_run_saves(*args, **kwargs):
        outcome = real_start(*args, **kwargs)
        set_cells(book, ImportSource="typed by another run")
        return outcome

    monkeypatch.setattr(actions, "start", start_while_another_run_saves)
    loads.clear()
    set_cells(book, Seed=6)
    headless.run("start", book)
    assert len(loads) == 2  # changed meanwhile: read again and the run replayed on it
    assert read(book, layout.IMPORT_SOURCE) == "typed by another run"
    again = grid_of(read(book, layout.PUZZLE_GRID))
    assert again != puzzle and count_solutions(again, 2) == 1
