"""xlsudoku batch: the same records on any executor, deduplicated, resumable after kill -9."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import Grid, geometry_for_size
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric
from xlsudoku.production.batch import run_batch
from xlsudoku.production.executors import InProcess, Processes
from xlsudoku.production.records import csv_header, from_csv_line, to_csv_line
from xlsudoku.production.spec import BatchSpec, make_variants, parse_target_givens

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]


class Listed:
    def __init__(self) -> None:
        self.records: list[dict] = []
        self.groups: list[int] = []

    def append(self, records: list[dict], next_index: int) -> None:
        self.records.extend(records)
        self.groups.append(next_index)


def _batch(
    *args: str, cwd: Path, check: bool = True, quiet: bool = True
) -> subprocess.CompletedProcess[str]:
    command = [*XLSUDOKU, "batch", *(["--quiet"] if quiet else []), *args]
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_records_are_the_seeded_puzzles_graded_and_checked_independently():
    spec = BatchSpec((GenerateRequest(),), 40, 6, 20)
    out = Listed()
    summary = run_batch(spec, InProcess(), out)
    assert summary.have == 6 and [r["index"] for r in out.records] == list(range(6))
    for record in out.records:
        expected = generate(GenerateRequest(seed=40 + record["index"]))
        puzzle, solution = Grid.parse(record["puzzle"]), Grid.parse(record["solution"])
        assert puzzle == expected.puzzle and record["seed"] == 40 + record["index"]
        assert count_solutions(puzzle, 2) == 1  # the exact solver, not the generator's oracle
        assert all(p in (0, s) for p, s in zip(puzzle.cells, solution.cells, strict=True))
        assert solution.is_complete and not solution.conflicts()
        assert is_symmetric(puzzle, Symmetry.ROTATE_180) and puzzle.given_count == 26
        graded = grade(puzzle)
        assert (record["level"], record["score"]) == (graded.label, graded.score)
        assert record["hardest"] == graded.hardest.value
        assert (record["target"], record["pattern"], record["geometry"]) == (26, 1, "9x9")


def test_processes_give_the_same_records_in_the_same_order():
    variants = make_variants(GenerateRequest(), parse_target_givens("24-28"))
    spec = BatchSpec(variants, 900, 12, 40)
    alone, pooled = Listed(), Listed()
    run_batch(spec, InProcess(), alone, chunk_size=5)
    run_batch(spec, Processes(2), pooled, chunk_size=2)
    assert pooled.records == alone.records
    assert [r["opens"] for r in alone.records] == [24, 26, 28] * 4


def test_duplicates_are_skipped_the_same_way_everywhere():
    # 4x4 puzzles with 8 dihedral clues repeat: deduplication decides which seeds are kept.
    base = GenerateRequest(
        target_givens=8, pattern=None, symmetry=Symmetry.DIHEDRAL, geometry=geometry_for_size(4)
    )
    spec = BatchSpec((base,), 1, 40, 400)
    alone, pooled = Listed(), Listed()
    first = run_batch(spec, InProcess(), alone)
    second = run_batch(spec, Processes(2), pooled)
    puzzles = [r["puzzle"] for r in alone.records]
    assert len(puzzles) == len(set(puzzles)) == 40
    assert first.duplicates > 0 and first.duplicates == second.duplicates
    assert pooled.records == alone.records


def test_csv_records_round_trip():
    out = Listed()
    run_batch(BatchSpec((GenerateRequest(),), 3, 2, 2), InProcess(), out)
    header = csv_header().split(",")
    assert [from_csv_line(to_csv_line(r), header) for r in out.records] == out.records


def test_cli_writes_csv_and_puzzle_file_the_other_commands_read(tmp_path):
    _batch("-n", "5", "--seed", "11", "-j", "1", "-o", "b.csv", "--puzzles", "b.sdk", cwd=tmp_path)
    rows = (tmp_path / "b.csv").read_text().splitlines()
    assert rows[0] == csv_header() and len(rows) == 6
    expected = [generate(GenerateRequest(seed=11 + k)).puzzle for k in range(5)]
    for command in (
        ["format", "b.csv", "--format", "line"],
        ["format", "b.sdk", "--format", "line"],
    ):
        done = subprocess.run([*XLSUDOKU, *command], cwd=tmp_path, capture_output=True, text=True)
        assert done.stdout.split() == [str(g) for g in expected], done.stderr
    assert (tmp_path / "b.sdk").read_text().count("#Cseed ") == 5


def test_jobs_and_single_process_files_are_byte_equal(tmp_path):
    _batch("-n", "16", "--seed", "3", "-j", "1", "-o", "one.jsonl", cwd=tmp_path)
    _batch("-n", "16", "--seed", "3", "-j", "2", "-o", "two.jsonl", cwd=tmp_path)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def _wait_for_lines(path: Path, count: int, proc: subprocess.Popen, limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)


KILL_ARGS = ["-n", "120", "--seed", "77", "-o"]


@pytest.fixture(scope="module")
def full_run(tmp_path_factory) -> bytes:
    """The uninterrupted single-process output the interrupted runs must end up equal to."""
    where = tmp_path_factory.mktemp("full")
    _batch(*KILL_ARGS, "full.jsonl", "-j", "1", cwd=where)
    return (where / "full.jsonl").read_bytes()


def test_kill_9_then_resume_loses_nothing_and_repeats_nothing(tmp_path, full_run):
    args, full = KILL_ARGS, full_run
    target = tmp_path / "cut.jsonl"
    rng = random.Random()
    kills = 0
    for _ in range(2):
        proc = subprocess.Popen(
            [*XLSUDOKU, "batch", "--quiet", *args, str(target), "-j", "2", "--resume"],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            have = target.read_bytes().count(b"\n") if target.exists() else 0
            _wait_for_lines(target, have + rng.randint(1, 30), proc, 120)
            time.sleep(rng.uniform(0, 0.3))  # a random moment, maybe inside a write
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
            proc.wait(30)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the orphaned workers, if any
            except ProcessLookupError:
                pass
        kept = target.read_bytes()
        whole = kept[: kept.rfind(b"\n") + 1]
        assert full.startswith(whole), "a finished record was changed"
    assert kills >= 1
    with target.open("ab") as handle:  # a torn record, as a kill inside write() leaves
        handle.write(full[len(whole) : len(whole) + 40])
    resumed = _batch(*args, str(target), "-j", "2", "--resume", cwd=tmp_path)
    assert target.read_bytes() == full, resumed.stderr
    records = _lines(target)
    assert [r["index"] for r in records] == sorted({r["index"] for r in records})
    assert len({r["puzzle"] for r in records}) == 120


def test_a_worker_killed_stops_the_batch_cleanly_and_resume_finishes_it(tmp_path, full_run):
    psutil = pytest.importorskip("psutil")
    target = tmp_path / "w.jsonl"
    proc = subprocess.Popen(
        [*XLSUDOKU, "batch", "--quiet", *KILL_ARGS, str(target), "-j", "2"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _wait_for_lines(target, 10, proc, 120)
        workers = [
            child
            for child in psutil.Process(proc.pid).children()
            if "spawn_main" in " ".join(child.cmdline())
        ]
        assert workers and proc.poll() is None
        workers[0].kill()  # as the out-of-memory killer would
        err = proc.communicate(timeout=120)[1]
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert proc.returncode == 4 and "a worker process died" in err, err
    assert full_run.startswith(target.read_bytes())
    _batch(*KILL_ARGS, str(target), "-j", "2", "--resume", cwd=tmp_path)
    assert target.read_bytes() == full_run


def test_resume_refuses_other_options_and_a_second_writer(tmp_path):
    _batch("-n", "3", "--seed", "5", "-j", "1", "-o", "b.jsonl", cwd=tmp_path)
    again = _batch("-n", "3", "--seed", "5", "-j", "1", "-o", "b.jsonl", cwd=tmp_path, check=False)
    assert again.returncode == 3 and "--resume" in again.stderr
    other = _batch(
        "-n", "6", "--opens", "24", "-o", "b.jsonl", "--resume", cwd=tmp_path, check=False
    )
    assert other.returncode == 3 and "target" in other.stderr
    from filelock import FileLock

    with FileLock(str(tmp_path / "b.jsonl.lock")):
        locked = _batch("-n", "6", "-o", "b.jsonl", "--resume", cwd=tmp_path, check=False)
    assert locked.returncode == 3 and "another batch" in locked.stderr
    more = _batch("-n", "6", "-j", "1", "-o", "b.jsonl", "--resume", cwd=tmp_path)
    assert [r["seed"] for r in _lines(tmp_path / "b.jsonl")] == [5, 6, 7, 8, 9, 10], more.stderr


def test_misses_are_not_tried_again_on_resume(tmp_path):
    # 6x6 with 8 clues in 60 trials: most seeds miss (seed 20 is the one find among 2..31),
    # so the first run ends on misses that only the state file remembers.
    args = ["--geometry", "6x6", "--pattern", "none", "--opens", "8", "--trials", "60", "-n", "50"]
    first = _batch(
        *args,
        "--attempts",
        "30",
        "--seed",
        "2",
        "-j",
        "1",
        "-o",
        "m.jsonl",
        cwd=tmp_path,
        check=False,
    )
    assert first.returncode == 5 and "--attempts 30 ran out first" in first.stderr
    kept = _lines(tmp_path / "m.jsonl")
    state = json.loads((tmp_path / "m.jsonl.state").read_text())
    assert state["next_index"] == 30 and all(r["index"] < 29 for r in kept)
    second = _batch(
        *args,
        "--attempts",
        "40",
        "-j",
        "1",
        "-o",
        "m.jsonl",
        "--resume",
        cwd=tmp_path,
        check=False,
        quiet=False,
    )
    assert second.returncode == 5 and "10 seeds tried" in second.stderr
    records = _lines(tmp_path / "m.jsonl")
    assert records[: len(kept)] == kept
    assert all(32 <= r["seed"] < 42 for r in records[len(kept) :])


def test_low_clue_hunt_writes_each_find(tmp_path):
    done = _batch(
        "--opens",
        "23",
        "--pattern",
        "7",
        "-n",
        "2",
        "--attempts",
        "6",
        "--item-time-limit",
        "20",
        "--seed",
        "3",
        "-o",
        "h.jsonl",
        cwd=tmp_path,
        check=False,
    )
    records = _lines(tmp_path / "h.jsonl")
    assert records, done.stderr
    for record in records:
        puzzle = Grid.parse(record["puzzle"])
        assert puzzle.given_count == 23 and count_solutions(puzzle, 2) == 1
        assert is_symmetric(puzzle, Symmetry.ROTATE_180)


@pytest.mark.parametrize("bad", [["--opens", "25"], ["--opens", "30-29"], ["-o", "x.txt"]])
def test_bad_options_touch_no_file(tmp_path, bad):
    done = _batch(*bad, cwd=tmp_path, check=False)
    assert done.returncode == 2 and done.stderr.strip()
    assert not list(tmp_path.iterdir())


def test_bench_batch_smoke(tmp_path):
    # the benchmark command itself, on tiny counts (the figures are not judged here)
    done = subprocess.run(
        [
            *XLSUDOKU,
            "bench",
            "batch",
            "--count",
            "16",
            "--big",
            "24",
            "--booklet",
            "8",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "outputs byte-equal (1 process, 2 processes, Dask): yes" in out
    assert "peak RSS of the process tree up to 24:" in out and "levels: Easy" in out
    assert "booklet: 8 puzzles, 4 per page with answers" in out
    assert len(_lines(tmp_path / "big.jsonl")) == 24 and (tmp_path / "book.pdf").exists()
