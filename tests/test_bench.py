"""Smoke test of the solver and fill benchmarks: the report's shape, never its speed."""

from __future__ import annotations

import re

from conftest import TEST_DATA, bench_args

from xlsudoku.bench.common import load_puzzles, time_items
from xlsudoku.bench.solver import bench_fill, bench_solve, run_fill, run_solve
from xlsudoku.engine.grid import Grid

NUMBER = r"[\d,]+(\.\d+)?"


def test_bench_solve_report_on_20_puzzles():
    puzzles = load_puzzles(TEST_DATA / "solver_17clue_sample.txt", 20, None)
    assert len(puzzles) == 20
    lines = bench_solve(puzzles, cap=2, runs=2)
    assert lines[0] == "solutions (capped at 2): 1 x20"
    assert re.fullmatch(
        rf"count to 2: {NUMBER} puzzles/s wall, {NUMBER} puzzles/s CPU \(median of 2 runs\); "
        rf"ms per item: mean {NUMBER}, median {NUMBER}, max {NUMBER}",
        lines[1],
    ), lines[1]
    assert re.fullmatch(rf"guesses/puzzle {NUMBER}, no-guess {NUMBER}%", lines[2]), lines[2]


def test_run_solve_names_data_set_and_sample(capsys):
    path = TEST_DATA / "solver_hardest_sample.txt"
    assert (
        run_solve(bench_args("solve", str(path), "--limit", "5", "--seed", "3", "--runs", "1")) == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"data set {path}: 5 puzzles (random sample, seed 3)"
    assert out[1].startswith("load average")
    assert out[2] == "solutions (capped at 2): 1 x5"


def test_sample_is_reproducible():
    path = TEST_DATA / "solver_17clue_sample.txt"
    assert load_puzzles(path, 10, 4) == load_puzzles(path, 10, 4)
    assert load_puzzles(path, 10, 4) != load_puzzles(path, 10, None)


def test_bench_fill_and_its_command(capsys):
    assert bench_fill(5, 1, runs=2)[0].startswith("fill 9x9: ")
    assert run_fill(bench_args("fill", "--count", "3", "--runs", "1", "--size", "6")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "random grids: 3 per run, seed 1"
    assert out[2].startswith("fill 6x6: ")


def test_time_items_medians():
    timing = time_items([Grid.empty()] * 4, lambda g: g, 3)
    assert timing.count == 4 and len(timing.wall) == 3 and len(timing.per_item) == 4
    assert timing.rate > 0 and timing.cpu_rate > 0


def test_qqwing_side_by_side():
    import shutil

    import pytest

    if shutil.which("qqwing") is None:
        pytest.skip("qqwing is not installed (apt-get install qqwing)")
    puzzles = load_puzzles(TEST_DATA / "solver_17clue_sample.txt", 20, None)
    last = bench_solve(puzzles, runs=1, qqwing=True)[-1]
    assert re.fullmatch(
        rf"QQWing: {NUMBER} puzzles/s by its timer, {NUMBER} puzzles/s CPU \(incl. start-up\)", last
    ), last


def test_bench_start_saves_as_the_workbook_command_does(monkeypatch):
    """The timed save is the command's: only the changed cell values patched into the file."""
    from xlsudoku.bench import start as bench_start
    from xlsudoku.xlsm import workbook

    calls = []

    def recording_save(book, where, data, **options):
        calls.append(options)
        workbook.save(book, where, data, **options)

    monkeypatch.setattr(bench_start, "save", recording_save)
    result = bench_start.run_once(bench_start.TEMPLATE, seed=3)
    kept, plain = calls
    assert kept["only_values"] is True and kept["changed"]["Generator"]
    assert plain == {}
    assert result["opens"] == 26 and result["save"] > 0


def test_bench_score_progress_tells_each_closer_puzzle():
    from xlsudoku.bench import score
    from xlsudoku.engine.grading import grade

    lines: list[str] = []
    args = bench_args("score", "--target", "7.0-8.0:1:60", "--first-seed", "3", "--progress")
    assert score.run(args, lines.append) == 0
    news = [line for line in lines if "closest so far" in line]
    assert news and all(line.startswith("    seed 3 at CPU ") for line in news)
    ratings = [float(re.search(r"rating (?:>= )?(\d+\.\d)", line)[1]) for line in news]
    assert ratings[-1] >= 7.0 and all(b != a for a, b in zip(ratings, ratings[1:], strict=False))
    run = next(line for line in lines if line.startswith("  seed 3: hit"))
    found = re.search(r"rating (\d+\.\d), \d+ opens, (\S{81});", run)
    assert float(found[1]) == grade(Grid.parse(found[2])).score
    quiet: list[str] = []
    score.run(bench_args("score", "--target", "7.0-8.0:1:60", "--first-seed", "3"), quiet.append)
    assert not any("closest so far" in line or "start 1" in line for line in quiet)
    starts = [line for line in lines if ": start 1: climbing from rating " in line]
    assert len(starts) == 1 and starts[0].startswith("    seed 3 at CPU ")
