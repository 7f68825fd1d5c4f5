"""Workbooks as puzzle files: format/grade/count/solve/booklet read the Collection by its header."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from conftest import ROOT
from openpyxl.workbook.defined_name import DefinedName

from xlsudoku.addin import layout
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import geometry_for_size
from xlsudoku.production.workbook_input import WorkbookInputError, read_workbook

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]
TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*XLSUDOKU, *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def saved_book(tmp_path_factory) -> tuple[Path, list[str], str]:
    """The committed workbook after START, SAVE, START, SAVE, START (two rows and a new puzzle)."""
    where = tmp_path_factory.mktemp("book")
    book = where / "book.xlsm"
    shutil.copy(TEMPLATE, book)
    puzzles = []
    for step in ("start", "save", "start", "save", "start"):
        done = _run(where, "workbook", step, str(book), "--quiet")
        assert done.returncode == 0, done.stdout + done.stderr
        if step == "start":
            puzzles.append(done.stdout.split("puzzle: ")[1].split()[0])
    return book, puzzles[:2], puzzles[2]


def test_format_reads_the_collection_then_the_generator_puzzle(saved_book):
    book, saved, current = saved_book
    done = _run(book.parent, "format", str(book), "--format", "line")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [*saved, current]
    only = _run(book.parent, "format", str(book), "--format", "line", "--sheet", "collection")
    assert only.stdout.split() == saved


def test_grade_count_and_solve_name_the_cells(saved_book):
    book, saved, current = saved_book
    graded = _run(book.parent, "grade", str(book), "--sheet", "collection")
    lines = graded.stdout.splitlines()[1:]
    header = layout.NAMES[layout.COLLECTION_HEADER]
    column = layout.column_letters(header.bounds[1] + layout.COLLECTION_COLUMNS.index("puzzle"))
    first = header.bounds[0] + 1
    expected = [f"Collection!{column}{first}", f"Collection!{column}{first + 1}"]
    assert [line.split("\t")[0] for line in lines] == expected
    from xlsudoku.engine.grid import Grid

    assert [line.split("\t")[2] for line in lines] == [grade(Grid.parse(p)).label for p in saved]
    assert _run(book.parent, "count", str(book)).stdout.split() == ["1", "1", "1"]
    solved = _run(book.parent, "solve", str(book), "--sheet", "generator")
    assert solved.returncode == 0 and len(solved.stdout.strip()) == 81
    for digit_given, digit_solved in zip(current, solved.stdout.strip(), strict=True):
        assert digit_given in (".", digit_solved)


def test_booklet_of_the_collection(saved_book, tmp_path):
    from pdf_pages import need_poppler, page_text, seen

    need_poppler()
    book, saved, _ = saved_book
    done = _run(tmp_path, "booklet", str(book), "--sheet", "collection", "-o", "c.pdf")
    assert done.returncode == 0, done.stderr
    assert [g.text for g in seen(tmp_path / "c.pdf", 1, tmp_path)] == saved
    text = page_text(tmp_path / "c.pdf", 1)
    assert "· id 1" in text and "· id 2" in text


def _book(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    """A workbook with only a Collection (header at the layout's place) and the Generator grid."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = layout.COLLECTION
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    generator = book.create_sheet(layout.GENERATOR)
    ref = layout.NAMES[layout.PUZZLE_GRID]
    book.defined_names[layout.PUZZLE_GRID] = DefinedName(layout.PUZZLE_GRID, attr_text=ref.formula)
    del generator  # the Generator grid stays empty: no Generator puzzle
    book.save(path)
    return path


def test_columns_are_found_by_name_and_extra_columns_do_no_harm(tmp_path):
    six = generate(
        GenerateRequest(geometry=geometry_for_size(6), pattern=None, target_givens=12, seed=4)
    )
    cross = generate(GenerateRequest(geometry=geometry_for_size(9, diagonals=True), seed=4))
    header = ["notes", "ID", "geometry", "level", "puzzle", "solution", "added later"]
    rows = [
        ["first", 7, "6x6", "Easy", str(six.puzzle), str(six.solution), "x"],
        [None, 8, "9x9-X", None, str(cross.puzzle), None, None],
        [None, None, None, None, None, None, None],
    ]
    path = _book(tmp_path / "extra.xlsx", header, rows)
    found = read_workbook(str(path))
    assert [(p.label, p.ident, p.level) for p in found] == [
        ("Collection!E2", "id 7", "Easy"),
        ("Collection!E3", "id 8", None),
    ]
    assert found[0].puzzle == six.puzzle and found[1].puzzle == cross.puzzle
    assert found[1].puzzle.geometry.diagonals and found[0].solution == str(six.solution)


def test_bad_cells_are_named_and_the_rest_is_read(tmp_path):
    good = generate(GenerateRequest(seed=9)).puzzle
    rows = [["1", "55" + "." * 79], ["2", 400030000], ["3", str(good)], ["4", "12345"]]
    path = _book(tmp_path / "bad.xlsx", ["id", "puzzle"], rows)
    done = _run(tmp_path, "format", str(path), "--format", "line", "--validate")
    assert done.returncode == 1 and done.stdout.split() == [str(good)]
    errors = done.stderr.splitlines()
    assert errors[0].startswith("Collection!B2: digit 5 repeated")
    assert errors[1].startswith("Collection!B3: the puzzle is a number")
    assert errors[2].startswith("Collection!B5: a grid row of 5 cells")


def test_a_workbook_that_cannot_be_read_is_one_clear_line(tmp_path):
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip")
    done = _run(tmp_path, "format", "broken.xlsx")
    assert done.returncode == 3 and "not a workbook" in done.stderr
    assert "Traceback" not in done.stderr
    nothing = _book(tmp_path / "nohead.xlsx", ["id", "text"], [])
    with pytest.raises(WorkbookInputError, match="no 'puzzle' column"):
        read_workbook(str(nothing))
    # a zip package under another name is named as such, not read as puzzles
    (tmp_path / "book.txt").write_bytes(TEMPLATE.read_bytes())
    zipped = _run(tmp_path, "format", "book.txt")
    assert zipped.returncode == 1 and "not a text puzzle file" in zipped.stderr


def test_solve_a_workbook_reads_its_puzzles_and_the_button_is_a_workbook_command(
    saved_book, tmp_path
):
    book = tmp_path / "b.xlsm"
    shutil.copy(saved_book[0], book)
    before = book.read_bytes()
    puzzles = _run(tmp_path, "solve", str(book))
    assert puzzles.returncode == 0 and len(puzzles.stdout.split()) == 3  # two rows, the Generator
    assert book.read_bytes() == before  # solving the puzzles of a file never writes it
    done = _run(tmp_path, "workbook", "solve", str(book), "--quiet")
    assert "saved" in done.stdout  # the Analyze sheet's button ran (it writes the workbook back)


def test_booklet_ids_choose_collection_ids(tmp_path):
    puzzles = [generate(GenerateRequest(seed=s)) for s in (1, 2, 3)]
    header = ["ID", "geometry", "level", "puzzle", "solution"]
    rows = [
        [i, "9x9", None, str(p.puzzle), str(p.solution)]
        for i, p in zip((4, 9, 12), puzzles, strict=True)
    ]
    path = _book(tmp_path / "ids.xlsx", header, rows)
    done = _run(tmp_path, "booklet", str(path), "--ids", "9-12", "-o", "ids.pdf", "--no-grade")
    assert done.returncode == 0, done.stderr
    assert "ids.pdf: 2 puzzles" in done.stdout
    from pdf_pages import need_poppler, page_text

    need_poppler()
    text = page_text(tmp_path / "ids.pdf", 1)
    assert "id 9" in text and "id 12" in text and "id 4" not in text
