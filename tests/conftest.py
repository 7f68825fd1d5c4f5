"""Shared fixtures: the external data folder and sample sizes.

``../shared/data`` holds the external test data (see its SOURCES.md).  A user's fresh clone
does not have it: tests that read it skip with a reason, and tests/data keeps small samples.
Set ``XLSUDOKU_SAMPLE`` to change how many lines the data-driven tests read from each file
(``all`` for every line).
"""

from __future__ import annotations

import os
import random
import sys
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


# Tests of facilities Linux has and Windows (or macOS) lacks: FIFOs, Unix sockets, /dev/full
# and /proc, SIGKILL and process groups, symbolic links and read-only bits as tested here.
# The Windows and macOS jobs of the release workflow skip them; .ci/run and the Linux jobs run
# them.  Each entry is a test file, or a file and one of its tests.
LINUX_ONLY = (
    "test_actions_collection.py::test_import_reads_no_file_outside_the_workbook_s_folder",
    "test_generator.py::test_a_killed_worker_is_reported_and_the_search_goes_on",
    "test_outputs.py::test_special_files_are_refused_before_anything_is_written",
    "test_outputs.py::test_workbook_output_through_a_link_changes_the_file_it_names",
    "test_outputs.py::test_booklet_never_writes_over_its_input_or_a_workbook",
    "test_outputs.py::test_booklet_through_a_link_to_a_device_is_refused",
    "test_outputs.py::test_batch_output_to_a_fifo_is_refused_at_once",
    "test_production_batch.py::test_kill_9_then_resume_loses_nothing_and_repeats_nothing",
    "test_production_batch.py::test_a_worker_killed_stops_the_batch_cleanly_and_resume_finishes_it",
    "test_production_dask.py",
    "test_reliability.py",
)


def linux_only(nodeid: str) -> bool:
    """Return True when the test *nodeid* is one of :data:`LINUX_ONLY`."""
    path, _, rest = nodeid.partition("::")
    name = rest.split("[", 1)[0]
    file = path.rsplit("/", 1)[-1]
    return file in LINUX_ONLY or f"{file}::{name}" in LINUX_ONLY


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests of :data:`LINUX_ONLY` on other systems."""
    if sys.platform.startswith("linux"):
        return
    for item in items:
        if linux_only(item.nodeid):
            item.add_marker(pytest.mark.skip(reason="Linux only (tests/conftest.py LINUX_ONLY)"))


@pytest.fixture(scope="module")
def render_tools() -> None:
    """Skip a render test where LibreOffice or poppler is missing (fail where CI requires them)."""
    # imported here, not above: xlwings' environment must be set before the package loads
    from xlsudoku.bench import snapshot

    missing = snapshot.missing_tools()
    if missing:
        reason = f"LibreOffice/poppler tools missing: {', '.join(missing)}"
        if os.environ.get("XLSUDOKU_REQUIRE_RENDER") == "1":
            pytest.fail(f"{reason} (XLSUDOKU_REQUIRE_RENDER=1)")
        pytest.skip(f"{reason} (apt install libreoffice-calc poppler-utils)")
