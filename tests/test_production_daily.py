"""xlsudoku daily: dated sets, reproducible from a seed, no puzzle repeated, one day a page."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_pages import need_poppler, page_text, seen
from sheets import TEMPLATE

from xlsudoku.addin import layout
from xlsudoku.cli import main
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]
SET = ["--from", "2026-12-01", "--per-day", "3", "--mix", "easy,medium", "--quiet"]


def daily(cwd: Path, *args: str, status: int = 0) -> list[dict]:
    done = subprocess.run([*XLSUDOKU, "daily", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == status, done.stderr
    output = Path(cwd, args[args.index("-o") + 1])
    return [json.loads(line) for line in output.read_text().splitlines()] if status == 0 else []


def test_a_set_is_dated_mixed_unique_and_reproducible(tmp_path):
    rows = daily(tmp_path, *SET, "--days", "4", "--seed", "11", "-o", "a.jsonl", "-j", "1")
    assert [r["date"] for r in rows] == [f"2026-12-0{d}" for d in (1, 2, 3, 4) for _ in range(3)]
    assert [r["number"] for r in rows] == [1, 2, 3] * 4
    assert [r["level"] for r in rows] == ["Easy", "Medium"] * 6  # the mix in turn
    assert len({r["puzzle"] for r in rows}) == 12  # no puzzle repeated
    for row in rows:
        assert {"date", "level", "score", "puzzle", "solution", "seed", "hardest"} <= set(row)
        assert count_solutions(Grid.parse(row["puzzle"]), 2) == 1
    again = daily(tmp_path, *SET, "--days", "4", "--seed", "11", "-o", "b.jsonl", "-j", "2")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    other = daily(tmp_path, *SET, "--days", "4", "--seed", "12", "-o", "c.jsonl", "-j", "1")
    assert {r["puzzle"] for r in other} != {r["puzzle"] for r in again}


def test_extending_a_set_repeats_no_puzzle_and_keeps_the_first_days(tmp_path):
    first = daily(tmp_path, *SET, "--days", "2", "--seed", "3", "-o", "d.jsonl", "-j", "1")
    longer = daily(
        tmp_path, *SET, "--days", "5", "-o", "d.jsonl", "-j", "1", "--resume"
    )  # the seed comes from the file
    assert longer[:6] == first and len(longer) == 15
    assert len({r["puzzle"] for r in longer}) == 15
    assert longer[-1]["date"] == "2026-12-05"
    whole = daily(tmp_path, *SET, "--days", "5", "--seed", "3", "-o", "e.jsonl", "-j", "1")
    assert whole == longer  # extending gives what one run of five days gives
    # another first day than the file's is refused, the file kept
    moved = ["--from", "2026-12-02", *SET[2:]]
    daily(tmp_path, *moved, "--days", "6", "-o", "d.jsonl", "--resume", status=3)
    assert len((tmp_path / "d.jsonl").read_text().splitlines()) == 15


@pytest.mark.slow
def test_a_set_on_a_local_dask_cluster_is_the_same(tmp_path):
    pytest.importorskip("distributed")
    one = daily(tmp_path, *SET, "--days", "2", "--seed", "8", "-o", "a.jsonl", "-j", "1")
    dask = daily(
        tmp_path, *SET, "--days", "2", "--seed", "8", "-o", "b.jsonl", "--scheduler", "local"
    )
    assert one == dask


def test_booklet_lays_out_one_day_a_page_with_its_date_and_answers_at_the_back(tmp_path):
    need_poppler()
    rows = daily(tmp_path, *SET, "--days", "3", "--seed", "5", "-o", "s.jsonl", "-j", "1")
    assert main(["booklet", str(tmp_path / "s.jsonl"), "-o", str(tmp_path / "s.pdf")]) == 0
    pdf = tmp_path / "s.pdf"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert "Pages:           4" in info  # three days, then one page of nine answers
    for page, (day, date) in enumerate(
        [("Tuesday 1 December 2026", "2026-12-01"), ("Wednesday 2 December 2026", "2026-12-02"),
         ("Thursday 3 December 2026", "2026-12-03")], start=1,
    ):  # fmt: skip
        assert f"Sudoku · {day}" in page_text(pdf, page)
        grids = seen(pdf, page, tmp_path)
        assert [g.text for g in grids] == [r["puzzle"] for r in rows if r["date"] == date]
    assert "Sudoku: answers" in page_text(pdf, 4)
    assert [g.text for g in seen(pdf, 4, tmp_path)] == [r["solution"] for r in rows]
    # each answer names its date and its number that day, which restarts at 1 each day
    answers = " ".join(page_text(pdf, 4).split())
    for number, row in enumerate(rows, start=1):
        day = int(row["date"][-2:])
        assert f"Sudoku {number} · {day} December no. {row['number']}" in answers
    assert "Sudoku 4 · 2 December no. 1 · " in " ".join(page_text(pdf, 2).split())


def test_the_workbook_imports_one_day(tmp_path, capsys):
    rows = daily(tmp_path, *SET, "--days", "2", "--seed", "5", "-o", "s.jsonl", "-j", "1")
    book = Path(shutil.copy(TEMPLATE, tmp_path / "book.xlsm"))
    assert main(["workbook", "import", str(book), f"{tmp_path / 's.jsonl'} 2026-12-02"]) == 0
    assert "Imported 3 puzzles as ids 1-3 from s.jsonl, 2026-12-02." in capsys.readouterr().out
    import openpyxl

    sheet = openpyxl.load_workbook(book)[layout.COLLECTION]
    puzzles = [sheet.cell(row, 4).value for row in range(2, 5)]
    assert puzzles == [r["puzzle"] for r in rows if r["date"] == "2026-12-02"]
    assert main(["workbook", "import", str(book), f"{tmp_path / 's.jsonl'} 2027-01-01"]) == 1


def _turned_and_relabelled(puzzle: str) -> str:
    """Return *puzzle* turned a quarter and its digits renamed d -> 10 - d."""
    turned = [puzzle[(8 - c % 9) * 9 + c // 9] for c in range(81)]
    return "".join("." if ch == "." else str(10 - int(ch)) for ch in turned)


def test_a_turned_and_relabelled_copy_of_a_daily_puzzle_is_refused_as_a_repeat(tmp_path):
    two_days = daily(tmp_path, *SET, "--days", "2", "--seed", "11", "-o", "a.jsonl", "-j", "1")
    fourth = two_days[3]["puzzle"]
    # a one-day file whose third puzzle is the fourth puzzle turned and relabelled
    one_day = daily(tmp_path, *SET, "--days", "1", "--seed", "11", "-o", "b.jsonl", "-j", "1")
    copy = _turned_and_relabelled(fourth)
    assert copy != fourth and one_day[:3] == two_days[:3]
    one_day[2] = {**one_day[2], "puzzle": copy}
    lines = (tmp_path / "b.jsonl").read_text().splitlines()
    lines[-1] = json.dumps(one_day[2])
    (tmp_path / "b.jsonl").write_text("\n".join(lines) + "\n")
    longer = daily(tmp_path, *SET, "--days", "2", "-o", "b.jsonl", "-j", "1", "--resume")
    puzzles = [r["puzzle"] for r in longer]
    assert len(puzzles) == 6 and copy in puzzles
    assert fourth not in puzzles  # the same puzzle to a solver: refused, another made instead
