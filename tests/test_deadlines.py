"""Every run has a deadline: generate, batch, daily and stats end by their --time-limit, the
first Ctrl+C ends them within a second or two, no worker outlives them, and the per-shape
default opens are reachable and the same everywhere.

Deadlines are behaviour, not speed: a run must end before ``limit * 1.1`` plus the time this
machine takes to start the command at all (measured here with ``xlsudoku --help``) plus a
small slack.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from xlsudoku.addin import layout, params
from xlsudoku.bench import soak
from xlsudoku.engine.generate import (
    DEFAULT_GIVENS,
    GenerateRequest,
    default_givens,
    default_pattern,
    generate,
    validate_request,
)
from xlsudoku.engine.grid import Grid, geometry_for_size
from xlsudoku.production.daily import DailySpec

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]
SLACK = 2.0  # seconds beyond limit * 1.1 and the start of the command
SHAPES = {"4x4": (4, False), "6x6": (6, False), "9x9": (9, False), "9x9-X": (9, True),
          "12x12": (12, False), "16x16": (16, False)}  # fmt: skip


@pytest.fixture(scope="module")
def startup() -> float:
    """Seconds this machine takes to start the command line and leave (its load included)."""
    began = time.monotonic()
    subprocess.run([*XLSUDOKU, "generate", "--help"], capture_output=True, check=True)
    return time.monotonic() - began


class Run:
    """A command run in its own session, marked so every process it starts can be found."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.mark = uuid.uuid4().hex
        env = {**os.environ, "XLSUDOKU_TEST_RUN": self.mark}
        self.began = time.monotonic()
        self.process = subprocess.Popen(
            [*XLSUDOKU, *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=soak.default_sigint,
        )

    def finish(self, timeout: float) -> tuple[int, str, str, float]:
        """Wait for the run (killing its group past *timeout*); return status, out, err, s."""
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            out, err = self.process.communicate()
            pytest.fail(f"still running after {timeout:.1f} s: {err[-400:]}")
        return self.process.returncode, out, err, time.monotonic() - self.began

    def interrupt(self, timeout: float = 30) -> tuple[int, str, str, float]:
        """Press Ctrl+C (the whole group, as a terminal does); return as finish, with the
        seconds from the press to the end."""
        pressed = time.monotonic()
        os.killpg(self.process.pid, signal.SIGINT)
        status, out, err, _ = self.finish(timeout)
        return status, out, err, time.monotonic() - pressed

    def left_behind(self) -> list[int]:
        """Return the processes still alive that this run started (found by its mark)."""
        time.sleep(0.3)  # a terminated worker is reaped by then
        marker = f"XLSUDOKU_TEST_RUN={self.mark}".encode()
        alive = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                environ = (entry / "environ").read_bytes()
                state = (entry / "stat").read_text().split(")")[-1].split()[0]
            except OSError:
                continue
            if marker in environ.split(b"\0") and state != "Z":
                alive.append(int(entry.name))
        return alive


needs_proc = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def _wait_for(path: Path, run: Run, seconds: float) -> None:
    """Wait until *path* exists or the run ends."""
    until = time.monotonic() + seconds
    while time.monotonic() < until and run.process.poll() is None and not path.exists():
        time.sleep(0.05)


# -- the per-shape default opens ---------------------------------------------------------------


def test_every_shape_has_a_default_that_can_be_made():
    for name, (size, diagonals) in SHAPES.items():
        geometry = geometry_for_size(size, diagonals)
        assert default_givens(geometry) == DEFAULT_GIVENS[name]
        validate_request(
            GenerateRequest(
                target_givens=default_givens(geometry),
                pattern=default_pattern(geometry),
                geometry=geometry,
            )
        )


@pytest.mark.parametrize("name", ["6x6", "9x9-X", "12x12", "16x16"])
def test_the_default_opens_are_reached(name):
    size, diagonals = SHAPES[name]
    geometry = geometry_for_size(size, diagonals)
    for seed in range(3):
        result = generate(
            GenerateRequest(
                target_givens=default_givens(geometry),
                pattern=default_pattern(geometry),
                geometry=geometry,
                seed=seed,
                time_limit=120,
            )
        )
        assert result.reached and result.givens == DEFAULT_GIVENS[name], result.message


def test_the_help_says_the_engines_defaults():
    from xlsudoku.cli.generate import DEFAULT_OPENS_HELP

    assert DEFAULT_OPENS_HELP == ", ".join(f"{k} {v}" for k, v in DEFAULT_GIVENS.items())


def test_sudoku_generate_takes_the_engines_defaults():
    for name, (size, diagonals) in SHAPES.items():
        assert layout.FUNCTION_DEFAULTS[name][0] == DEFAULT_GIVENS[name]
        request = params.function_request(None, None, 1, name)
        assert request.target_givens == default_givens(geometry_for_size(size, diagonals))


def test_the_command_lines_take_the_engines_defaults(tmp_path):
    done = subprocess.run(
        [*XLSUDOKU, "generate", "--geometry", "16x16", "--seed", "2", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["opens"] == DEFAULT_GIVENS["16x16"]
    daily = subprocess.run(
        [*XLSUDOKU, "daily", "--from", "2026-01-01", "--days", "1", "--per-day", "1",
         "--geometry", "12x12", "--seed", "4", "-j", "1", "-o", "d.jsonl", "--quiet"],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert daily.returncode == 0, daily.stderr
    record = json.loads((tmp_path / "d.jsonl").read_text())
    assert record["opens"] == DEFAULT_GIVENS["12x12"]
    assert Grid.parse(record["puzzle"]).given_count == DEFAULT_GIVENS["12x12"]
    helped = subprocess.run([*XLSUDOKU, "batch", "--help"], capture_output=True, text=True)
    assert "(default 3600)" in " ".join(helped.stdout.split())


# -- whole-run deadlines -----------------------------------------------------------------------


def test_generate_time_limit_is_for_the_whole_run(tmp_path, startup):
    run = Run("generate", "-n", "100000", "--seed", "1", "--time-limit", "3", cwd=tmp_path)
    status, out, err, seconds = run.finish(60)
    assert seconds < 3 * 1.1 + startup + SLACK
    assert status == 5
    printed = out.splitlines()
    assert 0 < len(printed) < 100000
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith(
            "xlsudoku generate: the time limit of the whole run ran out (--time-limit 3): "
            f"{len(printed)} of 100000 puzzles printed"
        )
    )


def test_generate_json_of_a_big_search_keeps_its_deadline(tmp_path, startup):
    run = Run(
        "generate", "--geometry", "16x16", "--opens", "92", "--time-limit", "4",
        "--format", "json", "--seed", "1", cwd=tmp_path,
    )  # fmt: skip
    status, out, err, seconds = run.finish(90)
    assert seconds < 4 * 1.1 + startup + SLACK
    assert status == 5
    assert Grid.parse(json.loads(out)["puzzle"]).given_count > 92


@needs_proc
@pytest.mark.parametrize("command", ["batch", "daily"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_and_daily_end_at_their_time_limit_and_leave_nothing(
    tmp_path, startup, command, jobs
):
    what = ["-n", "1"] if command == "batch" else ["--from", "2026-01-01", "--days", "1",
                                                    "--per-day", "1"]  # fmt: skip
    run = Run(
        command, *what, "--geometry", "16x16", "--opens", "92", "--time-limit", "4",
        "-j", jobs, "--seed", "1", "-o", "out.jsonl", cwd=tmp_path,
    )  # fmt: skip
    status, _, err, seconds = run.finish(120)
    assert seconds < 4 * 1.1 + startup + SLACK, err
    assert status == 5, err
    assert (
        f"xlsudoku {command}: the time limit of the whole run ran out (--time-limit 4): 0 of 1 "
        "puzzles in out.jsonl, the rest not made" in err
    )
    assert run.left_behind() == []
    assert not (tmp_path / "out.jsonl").exists()  # made by this run, nothing written to it


def test_stats_grades_within_its_time_limit(tmp_path, startup):
    puzzles = subprocess.run(
        [*XLSUDOKU, "generate", "-n", "400", "--seed", "3"], capture_output=True, text=True
    ).stdout
    (tmp_path / "p.txt").write_text(puzzles)
    run = Run("stats", "p.txt", "--no-chart", "--time-limit", "1", cwd=tmp_path)
    status, out, err, seconds = run.finish(120)
    assert seconds < 1 * 1.1 + startup + SLACK
    assert status == 5
    assert "not graded" in out and "stopped the grading" in err
    assert out.splitlines()[-1].split()[:2] == ["all", "400"]


# -- Ctrl+C ------------------------------------------------------------------------------------


@needs_proc
@pytest.mark.parametrize(
    "args",
    [
        ["batch", "-n", "1", "--geometry", "16x16", "--opens", "92", "-j", "2"],
        ["batch", "-n", "1", "--geometry", "16x16", "--opens", "92", "-j", "1"],
        ["daily", "--from", "2026-01-01", "--days", "2", "--per-day", "1", "--geometry",
         "16x16", "--opens", "92", "-j", "2"],
        ["daily", "--from", "2026-01-01", "--days", "2", "--per-day", "1", "--geometry",
         "16x16", "--opens", "92", "-j", "1"],
    ],
)  # fmt: skip
def test_the_first_ctrl_c_ends_batch_and_daily_at_once(tmp_path, args):
    run = Run(*args, "--seed", "5", "-o", "out.jsonl", cwd=tmp_path)
    _wait_for(tmp_path / "out.jsonl", run, 60)  # the output is open: the search is on
    time.sleep(1.0)
    status, _, err, answered = run.interrupt()
    assert answered < 2.5, err
    assert status == 130
    assert f"xlsudoku {args[0]}: interrupted; " in err and "Traceback" not in err
    assert run.left_behind() == []
    assert not (tmp_path / "out.jsonl").exists()  # made by this run, nothing written to it


def test_the_first_ctrl_c_ends_a_grading_generate_at_once(tmp_path):
    # many puzzles, so the press comes while one is searched or graded, whatever their speed
    run = Run("generate", "--geometry", "16x16", "--opens", "100", "--format", "grid", "-n", "500",
              "--seed", "1", "--time-limit", "300", "--progress", cwd=tmp_path)  # fmt: skip
    run.process.stderr.read(1)  # the progress bar: the search is on
    time.sleep(2.0)
    status, out, _, answered = run.interrupt()
    assert answered < 2.5
    assert status == 130


# -- -j and the other bounds -------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1000001", str(10**31)])
def test_daily_jobs_are_capped_at_the_cpus(tmp_path, jobs):
    done = subprocess.run(
        [*XLSUDOKU, "daily", "--from", "2026-01-01", "--days", "2", "--per-day", "1",
         "--geometry", "4x4", "-j", jobs, "-o", "d.jsonl", "--seed", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "xlsudoku daily: -j " in done.stderr and " capped at " in done.stderr
    assert "Traceback" not in done.stderr


def test_generate_workers_are_capped_at_the_cpus():
    done = subprocess.run(
        [*XLSUDOKU, "generate", "--workers", str(10**50), "--seed", "1"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "--workers a 51-digit number capped at" in done.stderr


def test_a_daily_set_past_the_calendar_is_refused_and_makes_no_file(tmp_path):
    done = subprocess.run(
        [*XLSUDOKU, "daily", "--from", "9999-12-31", "--days", "2", "--per-day", "1",
         "-o", "d.jsonl"],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "xlsudoku daily: --days 2 from 9999-12-31 runs past 9999-12-31, the last date there is\n"
    )
    assert not (tmp_path / "d.jsonl").exists()
    with pytest.raises(ValueError, match="runs past"):
        DailySpec(__import__("datetime").date(2026, 1, 1), 10**31, 1).check()


@pytest.mark.parametrize(
    ("score", "said"),
    [('"abc"', "score: 'abc' is not a number"),
     ("NaN", "score: nan is not a number from 0 to 1,000,000"),
     ("1e308", "score: 1e+308 is not a number from 0 to 1,000,000")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["stats", "booklet"])
def test_scores_that_are_not_numbers_are_named(tmp_path, score, said, command):
    puzzle = "." * 4 + "3.21.3....1"
    good = json.dumps({"puzzle": "2" + puzzle, "score": 1.5, "level": "Easy"})
    (tmp_path / "s.jsonl").write_text(f'{good}\n{{"puzzle": "2{puzzle}", "score": {score}}}\n')
    extra = ["--no-chart"] if command == "stats" else ["-o", "s.pdf"]
    done = subprocess.run(
        [*XLSUDOKU, command, "s.jsonl", *extra], cwd=tmp_path, capture_output=True, text=True
    )
    assert f"s.jsonl line 2: {said}\n" in done.stderr
    assert "Traceback" not in done.stderr


def test_stats_refuses_a_huge_level_by_name(tmp_path):
    record = {"puzzle": "2....3.21.3....1", "level": "x" * 1_000_000, "score": 2}
    (tmp_path / "big.jsonl").write_text(json.dumps(record) + "\n")
    done = subprocess.run(
        [*XLSUDOKU, "stats", "big.jsonl", "-o", "big.png"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "big.jsonl line 1: level: 1,000,000 characters, at most 40" in done.stderr
    assert not (tmp_path / "big.png").exists()


def test_stats_shows_a_bounded_number_of_levels():
    from xlsudoku.production.stats import MAX_CATEGORIES, OTHER, _grouped

    rows = [(f"label {i}", None, 20) for i in range(20_000)] + [("Easy", 1.0, 26)]
    stats = _grouped(rows, [""] * len(rows))
    assert len(stats.levels) == MAX_CATEGORIES and stats.count == 20_001
    assert list(stats.levels)[0] == "Easy" and OTHER in stats.levels


# -- booklets in any script --------------------------------------------------------------------


def _puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "p.txt"
    path.write_text("2....3.21.3....1\n")
    return path


def test_a_cyrillic_and_greek_title_is_printed_with_an_embedded_font(tmp_path):
    pytest.importorskip("matplotlib")  # its DejaVu Sans is the font that covers them
    if not (shutil.which("pdffonts") and shutil.which("pdftotext")):
        pytest.skip("needs poppler's pdffonts and pdftotext")
    _puzzles(tmp_path)
    done = subprocess.run(
        [*XLSUDOKU, "booklet", "p.txt", "--title", "Судоку Σudoku", "-o", "b.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    fonts = subprocess.run(["pdffonts", "b.pdf"], cwd=tmp_path, capture_output=True, text=True)
    embedded = [line for line in fonts.stdout.splitlines() if "DejaVuSans" in line]
    assert embedded and all(line.split()[-5] == "yes" for line in embedded)
    text = subprocess.run(
        ["pdftotext", "b.pdf", "-"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    assert "Судоку Σudoku" in text


def test_a_title_no_font_covers_is_refused_naming_the_character(tmp_path, monkeypatch):
    from xlsudoku.production import booklet

    monkeypatch.setattr(booklet, "_candidate_fonts", lambda: iter(()))
    fpdf = booklet.require_fpdf()
    with pytest.raises(booklet.NoFont, match=r"'数' \(U\+6570\) of the title"):
        booklet.text_font(fpdf(), [("the title", "数独")])
    assert booklet.text_font(fpdf(), [("the title", "Café")]) == booklet.CORE_FAMILY


def test_a_cjk_title_works_or_is_refused_by_name(tmp_path):
    _puzzles(tmp_path)
    done = subprocess.run(
        [*XLSUDOKU, "booklet", "p.txt", "--title", "数独", "-o", "c.pdf"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    if done.returncode == 0:
        assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF-")
    else:
        assert done.returncode == 4 and "(U+6570) of the title" in done.stderr
        assert not (tmp_path / "c.pdf").exists()


@needs_proc
def test_a_local_dask_cluster_ends_at_the_time_limit_and_leaves_nothing(tmp_path, startup):
    pytest.importorskip("distributed")
    run = Run(
        "batch", "-n", "1", "--geometry", "16x16", "--opens", "92", "--scheduler", "local",
        "-j", "2", "--time-limit", "10", "-o", "out.jsonl", cwd=tmp_path,
    )  # fmt: skip
    status, _, err, seconds = run.finish(120)
    assert seconds < 10 * 1.1 + startup + SLACK, err
    assert status == 5 and "the time limit of the whole run ran out" in err
    assert "Traceback" not in err
    assert run.left_behind() == []
