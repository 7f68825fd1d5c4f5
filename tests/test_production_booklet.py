"""xlsudoku booklet: rendered with poppler, each slot shows one grid with the puzzle's digits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_pages import need_poppler, page_text, seen

from xlsudoku.engine.generate import GenerateRequest
from xlsudoku.engine.grid import Grid, geometry_for_size
from xlsudoku.engine.symmetry import Symmetry
from xlsudoku.production.batch import run_batch
from xlsudoku.production.executors import InProcess
from xlsudoku.production.spec import BatchSpec

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]


class Listed:
    def __init__(self) -> None:
        self.records: list[dict] = []

    def append(self, records: list[dict], next_index: int) -> None:
        self.records.extend(records)


def _records(count: int, seed: int, **fields) -> list[dict]:
    out = Listed()
    run_batch(BatchSpec((GenerateRequest(**fields),), seed, count, 10 * count), InProcess(), out)
    return out.records


def _write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _booklet(cwd: Path, *args: str, status: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*XLSUDOKU, "booklet", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == status, done.stderr
    return done


def _pdfinfo(pdf: Path) -> str:
    return subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout


def _shown(grid: Grid) -> str:
    geo = grid.geometry
    return "".join(geo.digit_char(d) if d else "." for d in grid.cells)


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory) -> tuple[Path, list[dict]]:
    need_poppler()
    where = tmp_path_factory.mktemp("booklet")
    records = _records(10, 500)
    return _write_jsonl(where / "batch.jsonl", records), records


@pytest.mark.parametrize(("per_page", "paper", "size"), [(4, "a4", "A4"), (6, "letter", "letter")])
def test_each_slot_shows_one_grid_with_the_puzzle_digits(
    batch_file, tmp_path, per_page, paper, size
):
    source, records = batch_file
    pdf = tmp_path / "book.pdf"
    _booklet(
        tmp_path,
        str(source),
        "-o",
        str(pdf),
        "--per-page",
        str(per_page),
        "--paper",
        paper,
        "--title",
        "Daily",
    )
    puzzle_pages = -(-len(records) // per_page)
    answer_pages = -(-len(records) // 9)
    info = _pdfinfo(pdf)
    assert f"Pages:           {puzzle_pages + answer_pages}" in info and f"({size})" in info
    for page in range(1, puzzle_pages + 1):
        on_page = records[(page - 1) * per_page : page * per_page]
        grids = seen(pdf, page, tmp_path)
        assert len(grids) == len(on_page), f"page {page}: {len(grids)} grids"
        for grid, record in zip(grids, on_page, strict=True):
            assert (grid.rows, grid.columns) == (9, 9)
            assert grid.thick_rows == grid.thick_columns == [0, 3, 6, 9]
            assert grid.text == record["puzzle"]
        text = page_text(pdf, page)
        for number, record in enumerate(on_page, start=(page - 1) * per_page + 1):
            assert f"Daily {number} · {record['level']} · seed {record['seed']}" in text
        assert f"Page {page} of {puzzle_pages + answer_pages}" in text
    first_answers = seen(pdf, puzzle_pages + 1, tmp_path)
    assert [g.text for g in first_answers] == [r["solution"] for r in records[:9]]
    assert "Daily: answers" in page_text(pdf, puzzle_pages + 1)


def test_other_shapes_are_drawn_with_their_own_boxes(tmp_path):
    need_poppler()
    records = (
        _records(1, 1, geometry=geometry_for_size(4), pattern=None, target_givens=6)
        + _records(1, 1, geometry=geometry_for_size(6), pattern=None, target_givens=12)
        + _records(1, 1, geometry=geometry_for_size(9, diagonals=True), target_givens=26)
        + _records(1, 1, geometry=geometry_for_size(12), pattern=None, target_givens=60)
        + _records(
            1,
            1,
            geometry=geometry_for_size(16),
            pattern=None,
            target_givens=120,
            symmetry=Symmetry.NONE,
        )
    )
    source = _write_jsonl(tmp_path / "shapes.jsonl", records)
    _booklet(tmp_path, str(source), "-o", "shapes.pdf", "--per-page", "6", "--no-answers")
    grids = seen(tmp_path / "shapes.pdf", 1, tmp_path)
    assert [(g.rows, g.columns) for g in grids] == [(4, 4), (6, 6), (9, 9), (12, 12), (16, 16)]
    for grid, record in zip(grids, records, strict=True):
        size = int(record["geometry"].split("x")[0])
        geo = geometry_for_size(size, record["geometry"].endswith("-X"))
        assert grid.text == _shown(Grid.parse(record["puzzle"], geo))
        # boxes: thick lines every box_rows rows and every box_cols columns
        assert grid.thick_rows == list(range(0, size + 1, geo.box_rows)), record["geometry"]
        assert grid.thick_columns == list(range(0, size + 1, geo.box_cols)), record["geometry"]


def test_puzzle_file_bad_lines_are_reported_and_the_rest_printed(tmp_path):
    need_poppler()
    good = _records(2, 70)
    lines = [good[0]["puzzle"], "x" * 81, "." * 81, good[1]["puzzle"] + "  # a comment"]
    (tmp_path / "mixed.txt").write_text("\n".join(lines) + "\n")
    done = _booklet(tmp_path, "mixed.txt", "--per-page", "2", status=1)
    assert "line 2: bad character 'x'" in done.stderr
    assert "line 3: more than one solution" in done.stderr
    grids = seen(tmp_path / "mixed.pdf", 1, tmp_path)
    assert [g.text for g in grids] == [good[0]["puzzle"], good[1]["puzzle"]]
    text = page_text(tmp_path / "mixed.pdf", 1)
    assert f"Sudoku 1 · {good[0]['level']} · line 1" in text  # graded on the way
    assert f"Sudoku 2 · {good[1]['level']} · line 4" in text


def test_nothing_to_print_is_an_error_and_no_file(tmp_path):
    (tmp_path / "empty.txt").write_text("# nothing\n")
    done = _booklet(tmp_path, "empty.txt", status=1)
    assert "no puzzle to print" in done.stderr and not (tmp_path / "empty.pdf").exists()


def test_without_the_print_extra_booklet_says_which_extra_to_install(tmp_path):
    # fpdf2 (with Pillow and fonttools) is the "print" extra: the core install leaves it out
    (tmp_path / "one.txt").write_text(_records(1, 70)[0]["puzzle"] + "\n")
    code = (
        "import sys; sys.modules['fpdf'] = None\n"  # what a core install without fpdf2 finds
        "from xlsudoku.cli import main; sys.exit(main(['booklet', 'one.txt']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == 4, done.stderr
    assert done.stderr.strip().splitlines() == [
        "xlsudoku booklet: printing needs fpdf2, which the core install leaves out: "
        "pip install 'xlsudoku[print]'"
    ]
    assert not (tmp_path / "one.pdf").exists()


def test_bytes_that_are_not_utf8_are_bad_input_and_a_missing_file_unusable(tmp_path, capsys):
    from xlsudoku.cli import main

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"." * 81 + b"\n\x86\x87\n")
    assert main(["booklet", str(bad), "-o", str(tmp_path / "b.pdf")]) == 1  # as for grade
    assert "line 2, column 1: byte 0x86 is not UTF-8 text" in capsys.readouterr().err
    assert main(["booklet", str(tmp_path / "gone.txt"), "-o", str(tmp_path / "g.pdf")]) == 3
    assert not (tmp_path / "b.pdf").exists() and not (tmp_path / "g.pdf").exists()


def test_ids_print_only_the_chosen_records(batch_file, tmp_path):
    source, records = batch_file
    done = _booklet(tmp_path, str(source), "-o", "some.pdf", "--ids", "2,4-5", "--per-page", "4")
    assert "some.pdf: 3 puzzles" in done.stdout
    grids = seen(tmp_path / "some.pdf", 1, tmp_path)
    assert [g.text for g in grids] == [records[i]["puzzle"] for i in (1, 3, 4)]


@pytest.mark.parametrize("ids", ["3,9-7", "0", "2,x", "4-"])
def test_a_bad_ids_list_is_one_message_naming_ids_and_no_file(batch_file, tmp_path, ids):
    source, _ = batch_file
    done = _booklet(tmp_path, str(source), "-o", "bad.pdf", "--ids", ids, status=2)
    assert "--ids" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "bad.pdf").exists()


def test_ids_that_name_no_record_are_bad_input(batch_file, tmp_path):
    source, _ = batch_file
    done = _booklet(tmp_path, str(source), "-o", "none.pdf", "--ids", "50-60", status=1)
    assert "--ids: none of those ids" in done.stderr
    assert not (tmp_path / "none.pdf").exists()


def test_windoku_and_jigsaw_print_with_their_grids(tmp_path):
    from xlsudoku.engine.formats import geometry_named

    need_poppler()
    names = ["9x9-windoku", "9x9-jigsaw:steps"]
    records = [r for name in names for r in _records(1, 3, geometry=geometry_named(name))]
    assert [r["geometry"] for r in records] == names
    source = _write_jsonl(tmp_path / "variants.jsonl", records)
    _booklet(tmp_path, str(source), "-o", "variants.pdf", "--per-page", "2")
    grids = seen(tmp_path / "variants.pdf", 1, tmp_path)
    assert [g.text for g in grids] == [r["puzzle"] for r in records]
    answers = seen(tmp_path / "variants.pdf", 2, tmp_path)
    assert [g.text for g in answers] == [r["solution"] for r in records]
