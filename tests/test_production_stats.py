"""xlsudoku stats: the table and the chart of a batch, a daily set or a workbook."""

from __future__ import annotations

import json
import shutil
import sys

import pytest
from sheets import TEMPLATE

from xlsudoku.cli import main
from xlsudoku.engine.steps import Level


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    where = tmp_path_factory.mktemp("stats")
    path = where / "b.jsonl"
    assert main(["batch", "-n", "24", "--opens", "24-28", "--seed", "4", "-j", "1",
                 "-o", str(path), "--quiet"]) == 0  # fmt: skip
    return path, [json.loads(line) for line in path.read_text().splitlines()]


def test_table_counts_levels_and_opens(batch, capsys):
    path, records = batch
    assert main(["stats", str(path), "--no-chart"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line[:18].strip(): line[18:].split() for line in lines[1:]}
    labels = [level.label for level in Level]
    for label, row in rows.items():
        if label == "all":
            assert int(row[0]) == len(records)
            continue
        assert label in labels
        mine = [r for r in records if r["level"] == label]
        assert int(row[0]) == len(mine)
        opens = sorted(r["opens"] for r in mine)
        assert row[2] == f"{opens[0]}-{opens[len(opens) // 2]}-{opens[-1]}"
        scores = [r["score"] for r in mine]
        assert row[3] == f"{min(scores):.1f}-{max(scores):.1f}"  # the level's score range
    scores = sorted(r["score"] for r in records)
    assert f"scores {scores[0]:.1f}-{scores[-1]:.1f}" in lines[-1]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_chart_is_written_and_never_over_another_file(batch, tmp_path, suffix, capsys):
    pytest.importorskip("matplotlib")
    path, _ = batch
    chart = tmp_path / f"chart{suffix}"
    assert main(["stats", str(path), "-o", str(chart)]) == 0
    data = chart.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:400]
    if suffix == ".svg":
        text = data.decode()
        assert "puzzles per level" in text and "opens per level" in text
    assert main(["stats", str(path), "-o", str(chart)]) == 3  # it exists now: refused
    assert "exists" in capsys.readouterr().err and chart.read_bytes() == data


def test_a_missing_matplotlib_names_the_extra(batch, tmp_path, monkeypatch, capsys):
    path, _ = batch
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["stats", str(path), "-o", str(tmp_path / "c.png")]) == 4
    err = capsys.readouterr().err
    assert "pip install 'xlsudoku[charts]'" in err


def test_a_workbook_collection(tmp_path, capsys):
    book = shutil.copy(TEMPLATE, tmp_path / "book.xlsm")
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    assert main(["workbook", "save", str(book)]) == 0
    capsys.readouterr()
    assert main(["stats", str(book), "--sheet", "collection", "--no-chart"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[:2] == ["all", "1"]


def test_a_daily_set_gets_a_table_per_day(tmp_path, capsys):
    path = tmp_path / "d.jsonl"
    made = ["daily", "--from", "2026-12-01", "--days", "3", "--per-day", "2", "--mix"]
    assert main([*made, "easy,medium", "--seed", "6", "-j", "1", "-o", str(path), "--quiet"]) == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    capsys.readouterr()
    assert main(["stats", str(path), "--no-chart"]) == 0
    out = capsys.readouterr().out
    days = out.split("\n\n")[1].splitlines()
    assert days[0].split()[:4] == ["day", "puzzles", "scores", "min-max"]
    for line, date in zip(days[1:], ("2026-12-01", "2026-12-02", "2026-12-03"), strict=True):
        mine = [r for r in records if r["date"] == date]
        scores = [r["score"] for r in mine]
        fields = line.split()
        assert fields[:3] == [date, "2", f"{min(scores):.1f}-{max(scores):.1f}"]
        assert " ".join(fields[3:]) == "Easy 1, Medium 1"
