"""The engine and the workbook's buttons inside real Pyodide (xlwings Lite's Python).

``tests/pyodide/run.mjs`` starts Pyodide under Node, installs the wheel built by
``python -m build`` with ``micropip.install(..., deps=False)`` (Pyodide's numpy cannot be
downloaded here, and the engine's core does not need it), and runs two programs: the engine
generates puzzles, counts, solves and grades them (:data:`PROGRAM`); the add-in's workflows
(``addin.actions``, what the Lite scripts call) run START, ANALYZE and HINT on the bundled
workbook through openpyxl (:data:`WORKBOOK_PROGRAM`).  CPython running the same programs must
print the same results, seed for seed.

Needs Node and ``python tests/pyodide/install.py`` (Pyodide from npm, micropip's and openpyxl's
wheels from PyPI); skips with that reason where they are missing, and fails instead when
``XLSUDOKU_REQUIRE_PYODIDE=1`` (``.ci/run`` sets it).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "pyodide"
ROOT = HERE.parent.parent
PYODIDE = HERE / "node_modules" / "pyodide"
WHEELS = HERE / "wheels"

PROGRAM = """
import json, sys
import xlsudoku
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.analysis import analyze
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.symmetry import Symmetry

requests = [
    GenerateRequest(opens=26, pattern=1, seed=7),
    GenerateRequest(opens=28, pattern=2, symmetry=Symmetry.ROTATE_90, seed=11),
    GenerateRequest(opens=27, pattern=7, symmetry=Symmetry.DIAGONAL, seed=2024),
]
results = []
for request in requests:
    r = generate(request)
    found = analyze(r.puzzle, solution=r.solution, ranks=True)
    graded = found.graded()
    sparse = Grid.parse(str(r.puzzle)[:40] + "." * 41)
    results.append({
        "puzzle": str(r.puzzle),
        "opens": r.opens,
        "minimal": r.minimal,
        "ranks": found.ranks.text(),
        "count": count_solutions(r.puzzle, 2),
        "sparse_count": count_solutions(sparse, 50),
        "solution": str(solve(r.puzzle)),
        "grade": [graded.label, graded.score, [[t.name, n] for t, n in graded.counts]],
    })
print(json.dumps({
    "results": results,
    "file": xlsudoku.__file__,
    "platform": sys.platform,
    "numpy": "numpy" in sys.modules,
}))
"""


ANALYZED = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

# The workbook's buttons, the code xlwings Lite's scripts call (addin.actions), on the bundled
# workbook through openpyxl: Pyodide reads it from /data, CPython from workbooks/.
WORKBOOK_PROGRAM = """
import json, re, openpyxl
from xlsudoku.addin import actions, layout
from xlsudoku.addin.cellio import OpenpyxlIO

wb = openpyxl.load_workbook(PATH, keep_vba=True)
io = OpenpyxlIO(wb)
seed = layout.PARAMS_BY_NAME[layout.SEED].ref
wb[seed.sheet][seed.top_left] = 7
start = actions.start(io)
text = layout.NAMES[layout.ANALYZE_STRING]
wb[text.sheet][text.top_left] = PUZZLE
analyze = actions.analyze(io)
hint = actions.hint(io)
print(json.dumps({
    "start": re.sub(r"\\(\\d+\\.\\d+ s\\)", "(seconds)", start.status),
    "puzzle": io.read(layout.PUZZLE_GRID),
    "stats": [row for row in io.read(layout.STATS) if row[0] != "Seconds"],
    "analyze": analyze.status,
    "report": io.read(layout.ANALYZE_REPORT),
    "hint": [hint.status, io.read(layout.HINT_TEXT)],
}))
"""


def _require_or_skip(reason: str) -> None:
    if os.environ.get("XLSUDOKU_REQUIRE_PYODIDE") == "1":
        pytest.fail(f"{reason} (XLSUDOKU_REQUIRE_PYODIDE=1: this test must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        _require_or_skip("Node.js is not installed (node not on PATH)")
    needed = [PYODIDE / "pyodide.mjs"] + [WHEELS / f"{n}-*.whl" for n in ("micropip", "openpyxl")]
    if not all(list(path.parent.glob(path.name)) for path in needed):
        _require_or_skip("Pyodide is not installed: run python tests/pyodide/install.py")
    return str(found)


def _lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def runs(node, built_dist, tmp_path_factory) -> dict[str, list[dict]]:
    """Run :data:`PROGRAM` and :data:`WORKBOOK_PROGRAM` in one Pyodide and in CPython."""
    workbook = ROOT / "workbooks" / "xlsudoku.xlsm"
    program = f"PUZZLE = {ANALYZED!r}\n" + PROGRAM + WORKBOOK_PROGRAM
    source = tmp_path_factory.mktemp("pyodide") / "program.py"
    source.write_text("PATH = '/data/xlsudoku.xlsm'\n" + program, encoding="utf-8")
    in_pyodide = subprocess.run(
        [node, str(HERE / "run.mjs"), str(PYODIDE), str(WHEELS), str(built_dist["wheel"])]
        + [str(source), str(workbook)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert in_pyodide.returncode == 0, in_pyodide.stderr[-4000:]
    in_cpython = subprocess.run(
        [sys.executable, "-c", f"PATH = {str(workbook)!r}\n" + program],
        capture_output=True,
        text=True,
        check=False,
    )
    assert in_cpython.returncode == 0, in_cpython.stderr[-4000:]
    return {"pyodide": _lines(in_pyodide.stdout), "cpython": _lines(in_cpython.stdout)}


def test_engine_in_pyodide_matches_cpython(runs):
    pyodide, cpython = runs["pyodide"][0], runs["cpython"][0]
    assert pyodide["platform"] == "emscripten"
    assert pyodide["file"].startswith("/lib/python3") and "site-packages" in pyodide["file"]
    assert pyodide["numpy"] is False
    assert pyodide["results"] == cpython["results"]
    for result in pyodide["results"]:
        assert result["count"] == 1 and result["sparse_count"] > 1
        assert len(result["solution"]) == 81 and "." not in result["solution"]


def test_workbook_buttons_in_pyodide_match_cpython(runs):
    pyodide, cpython = runs["pyodide"][1], runs["cpython"][1]
    assert pyodide == cpython
    assert pyodide["start"].startswith("Reached 26 opens") and pyodide["start"].endswith("Seed 7.")
    assert pyodide["analyze"].startswith("Unique solution")


def test_engine_core_imports_without_numpy():
    code = (
        "import sys, importlib, pkgutil\n"
        "sys.modules['numpy'] = None  # any 'import numpy' now raises ImportError\n"
        "import xlsudoku.engine\n"
        "for m in pkgutil.walk_packages(xlsudoku.engine.__path__, 'xlsudoku.engine.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "from xlsudoku.engine.generate import GenerateRequest, generate\n"
        "print(generate(GenerateRequest(opens=26, pattern=1, seed=7)).puzzle)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) == 81
