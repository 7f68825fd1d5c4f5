"""Shared fixtures: the external data folder and sample sizes.

``../shared/data`` holds the external test data (see its SOURCES.md).  A user's fresh clone
does not have it: tests that read it skip with a reason, and tests/data keeps small samples.
Set ``XLSUDOKU_SAMPLE`` to change how many lines the data-driven tests read from each file
(``all`` for every line).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import settings

# xlwings' remote engine (the one xlwings Lite and Server use) in tests: the free noncommercial
# key and server mode must be set before xlwings is first imported (tests/test_xl.py).
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
os.environ.setdefault("XLWINGS_ON_SERVER", "true")

# Property tests draw fresh examples on every run; CI sets XLSUDOKU_HYPOTHESIS=ci to draw the
# same ones each time, so that a run which lands is the run that was checked.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("XLSUDOKU_HYPOTHESIS", "default"))

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = Path(__file__).resolve().parent / "data"
SHARED_DATA = Path(os.environ.get("XLSUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))


def sample_size(default: int) -> int | None:
    """Return how many lines to sample (None = all), from ``XLSUDOKU_SAMPLE`` or *default*."""
    raw = os.environ.get("XLSUDOKU_SAMPLE", "")
    if raw.lower() == "all":
        return None
    return int(raw) if raw else default


def sample_lines(lines: list[str], default: int, seed: int = 2024) -> list[str]:
    """Return a reproducible random sample of *lines* (all of them when the size allows)."""
    size = sample_size(default)
    if size is None or size >= len(lines):
        return lines
    return random.Random(seed).sample(lines, size)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Return the shared data folder, or skip when this checkout has none beside it."""
    if not (SHARED_DATA / "SOURCES.md").exists():
        pytest.skip(f"external data not found at {SHARED_DATA} (only in the project workspace)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def built_dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build the sdist and the wheel with ``python -m build`` (once per session).

    Returns ``{"wheel": path, "sdist": path}``.  Built without isolation, so the build backend
    is the one the test extra installs (no download), the same ``setuptools.build_meta``.
    """
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture
def wb():
    """Return the committed workbook, loaded with its VBA project (a fresh copy per test)."""
    import openpyxl

    return openpyxl.load_workbook(ROOT / "workbooks" / "xlsudoku.xlsm", keep_vba=True)


@pytest.fixture
def io(wb):
    """Return the CellIO the headless runner uses, over :func:`wb`."""
    from xlsudoku.addin.cellio import OpenpyxlIO

    return OpenpyxlIO(wb)


def rating_path_boards(puzzles: list[str]) -> list:
    """Return every board along the SE rating paths of *puzzles* (one before each step)."""
    from xlsudoku.engine.board import Board
    from xlsudoku.engine.grading import rating_path
    from xlsudoku.engine.grid import Grid
    from xlsudoku.engine.ratings import profile_table

    boards = []
    for puzzle in puzzles:
        grid = Grid.parse(puzzle)
        board = Board.from_grid(grid)
        for step in rating_path(grid, profile_table("se")).steps:
            boards.append(board)
            board = board.apply(step)
    return boards


def bench_args(*argv: str):
    """Return the arguments of ``xlsudoku bench ARGV`` as the one parser reads them."""
    from xlsudoku.cli import build_parser

    return build_parser().parse_args(["bench", *argv])
