"""The engine inside real Pyodide (xlwings Lite's Python), from the wheel micropip installs.

``tests/pyodide/run.mjs`` starts Pyodide under Node, installs the wheel built by
``python -m build`` with ``micropip.install(..., deps=False)`` (Pyodide's numpy cannot be
downloaded here, and the engine's core does not need it), and runs :data:`PROGRAM`: generate
puzzles, count, solve and grade them.  The same program run by CPython must print the same
results, seed for seed.

Needs Node and ``python tests/pyodide/install.py`` (Pyodide from npm, micropip's wheels from
PyPI); skips with that reason where they are missing, and fails instead when
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
PYODIDE = HERE / "node_modules" / "pyodide"
WHEELS = HERE / "wheels"

PROGRAM = """
import json, sys
import xlsudoku
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grading import grade
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
    graded = grade(r.puzzle)
    sparse = Grid.parse(str(r.puzzle)[:40] + "." * 41)
    results.append({
        "puzzle": str(r.puzzle),
        "opens": r.opens,
        "minimal": r.minimal,
        "ranks": r.ranks.text(),
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


def _require_or_skip(reason: str) -> None:
    if os.environ.get("XLSUDOKU_REQUIRE_PYODIDE") == "1":
        pytest.fail(f"{reason} (XLSUDOKU_REQUIRE_PYODIDE=1: this test must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        _require_or_skip("Node.js is not installed (node not on PATH)")
    if not (PYODIDE / "pyodide.mjs").exists() or not list(WHEELS.glob("micropip-*.whl")):
        _require_or_skip("Pyodide is not installed: run python tests/pyodide/install.py")
    return str(found)


def run_in_pyodide(node: str, wheel: Path, program: str, tmp_path: Path) -> dict:
    source = tmp_path / "program.py"
    source.write_text(program, encoding="utf-8")
    done = subprocess.run(
        [node, str(HERE / "run.mjs"), str(PYODIDE), str(WHEELS), str(wheel), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_in_cpython(program: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_engine_in_pyodide_matches_cpython(node, built_dist, tmp_path):
    pyodide = run_in_pyodide(node, built_dist["wheel"], PROGRAM, tmp_path)
    assert pyodide["platform"] == "emscripten"
    assert pyodide["file"].startswith("/lib/python3") and "site-packages" in pyodide["file"]
    assert pyodide["numpy"] is False
    cpython = run_in_cpython(PROGRAM)
    assert pyodide["results"] == cpython["results"]
    for result in pyodide["results"]:
        assert result["count"] == 1 and result["sparse_count"] > 1
        assert len(result["solution"]) == 81 and "." not in result["solution"]


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
