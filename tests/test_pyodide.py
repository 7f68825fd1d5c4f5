"""The Lite copy's requirements and code inside real Pyodide (xlwings Lite's Python).

``tests/pyodide/run.mjs`` starts Pyodide under Node and installs, with
``micropip.install(lines, deps=True)``, exactly the requirement lines the Lite workbook stores
(``workbooks/xlsudoku-lite.xlsx``), from a package index this test serves on 127.0.0.1: the
xlsudoku wheel ``python -m build`` makes stands in for the package index's, beside the wheels
``tests/pyodide/install.py`` downloaded (the xlwings the requirements pin and the core
install's dependencies).  Then it runs the workbook's stored ``main.py`` and three programs: the
engine generates, counts, solves and grades (:data:`PROGRAM`); the add-in's workflows run START,
ANALYZE and HINT on the bundled workbook through openpyxl (:data:`WORKBOOK_PROGRAM`); the stored
scripts run START and ANALYZE through xlwings' remote engine, as xlwings Lite calls them
(:data:`LITE_PROGRAM`).  CPython running the same programs must print the same results.

Needs Node and ``python tests/pyodide/install.py``; skips with that reason where they are
missing, and fails instead when ``XLSUDOKU_REQUIRE_PYODIDE=1`` (``.ci/run`` sets it).
"""

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import openpyxl
import pytest
import remote_book
from packaging.utils import canonicalize_name

from xlsudoku.addin import layout
from xlsudoku.xlsm import webextension

HERE = Path(__file__).resolve().parent / "pyodide"
ROOT = HERE.parent.parent
PYODIDE = HERE / "node_modules" / "pyodide"
WHEELS = HERE / "wheels"
LITE = ROOT / "workbooks" / "xlsudoku-lite.xlsx"

PROGRAM = """
import json, sys
import xlsudoku
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.analysis import analyze
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.symmetry import Symmetry

requests = [
    GenerateRequest(target_givens=26, pattern=1, seed=7),
    GenerateRequest(target_givens=28, pattern=2, symmetry=Symmetry.ROTATE_90, seed=11),
    GenerateRequest(target_givens=27, pattern=7, symmetry=Symmetry.DIAGONAL, seed=2024),
]
results = []
for request in requests:
    r = generate(request)
    found = analyze(r.puzzle, solution=r.solution, ranks=True)
    graded = found.graded()
    sparse = Grid.parse(str(r.puzzle)[:40] + "." * 41)
    results.append({
        "puzzle": str(r.puzzle),
        "opens": r.givens,
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


# CPython runs the program as Pyodide's runPythonAsync does: top-level await allowed.
CPYTHON_RUNNER = """
import ast, asyncio, sys
path = sys.argv[1]
code = compile(open(path).read(), path, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
result = eval(code, {"__name__": "__main__"})
if asyncio.iscoroutine(result):
    asyncio.run(result)
"""


def _require_or_skip(reason: str) -> None:
    if os.environ.get("XLSUDOKU_REQUIRE_PYODIDE") == "1":
        pytest.fail(f"{reason} (XLSUDOKU_REQUIRE_PYODIDE=1: this test must run)")
    pytest.skip(reason)


# The stored main.py, run as xlwings Lite runs it (and timed: the import is part of a start).
MAIN_PROGRAM = """
import json, os, time, types
# xlwings Lite starts its remote engine before main.py runs; here the free key does
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
os.environ.setdefault("XLWINGS_ON_SERVER", "true")
started, started_cpu = time.perf_counter(), time.process_time()
main = types.ModuleType("main")
exec(compile(CODE["main.py"], "main.py", "exec"), main.__dict__)
imported = time.perf_counter() - started
imported_cpu = time.process_time() - started_cpu
"""

# The stored scripts through xlwings' remote engine, on the Lite copy's payload (START, then
# ANALYZE of the puzzle in its Puzzle string), and one custom function.
LITE_PROGRAM = """
import re
import xlwings as xw
import xlwings.server
payload = json.loads(open(PAYLOAD, encoding="utf-8").read())
book = xw.Book(json=payload)
for script in ("start", "analyze"):  # awaited at the top level, as Pyodide runs a program
    await xlwings.server.custom_scripts_call(main, script, typehint_to_value={xw.Book: book})
writes = [
    [a["sheet_position"], a["start_row"], a["start_column"], a["values"]]
    for a in book.json()["actions"] if a["func"] == "setValues"
]
shown = json.dumps(writes)  # the seconds a run took differ from run to run
shown = re.sub(r'"Seconds", [0-9.e-]+', '"Seconds", 0', shown)
call = {"func_name": "sudoku_count", "args": [[[1, 2, 3, 4]] + [[""] * 4] * 3],
        "version": xw.__version__, "client": "Office.js", "runtime": "1.4",
        "culture_info_name": "en-US", "date_format": "M/d/yyyy"}
count = await xlwings.server.custom_functions_call(call, main)
from importlib.metadata import distributions
print(json.dumps({
    "writes": re.sub(r"\\(\\d+\\.\\d+ s\\)", "(seconds)", shown),
    "count": count,
    "xlwings": xw.__version__,
    "scripts": sorted(e["function_name"] for e in xlwings.server.custom_scripts_meta(main)),
    "installed": sorted({d.metadata["Name"].lower().replace("_", "-") for d in distributions()}),
    "modules": sorted(m for m in ("numpy", "fpdf", "PIL", "fontTools") if m in sys.modules),
    "imported_s": imported,
    "imported_cpu_s": imported_cpu,
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
    needed = [PYODIDE / "pyodide.mjs", WHEELS / "pyodide" / "micropip-*.whl"]
    needed.append(WHEELS / "index" / "xlwings-*.whl")
    if not all(list(path.parent.glob(path.name)) for path in needed):
        _require_or_skip("Pyodide is not installed: run python tests/pyodide/install.py")
    return str(found)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def index(built_dist, tmp_path_factory):
    """Serve a package index on 127.0.0.1: the built xlsudoku wheel and the downloaded ones."""
    root = tmp_path_factory.mktemp("index")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root))
    )
    base = f"http://127.0.0.1:{server.server_address[1]}"
    for wheel in [built_dist["wheel"], *(WHEELS / "index").glob("*.whl")]:
        project = root / "simple" / canonicalize_name(wheel.name.split("-")[0])
        project.mkdir(parents=True, exist_ok=True)
        (root / "files").mkdir(exist_ok=True)
        shutil.copy(wheel, root / "files" / wheel.name)
        link = f'<a href="{base}/files/{wheel.name}">{wheel.name}</a>'
        (project / "index.html").write_text(f"<html><body>{link}</body></html>")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base + "/simple/{package_name}/"
    server.shutdown()
    server.server_close()


def _lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def runs(node, index, tmp_path_factory) -> dict[str, list[dict]]:
    """Run the programs in one Pyodide (after installing the Lite requirements) and in CPython."""
    workbook = ROOT / "workbooks" / "xlsudoku.xlsm"
    folder = tmp_path_factory.mktemp("pyodide")
    _, code = webextension.read_settings(LITE)
    requirements = folder / "requirements.txt"
    requirements.write_text(code["requirements.txt"], encoding="utf-8")
    wb = openpyxl.load_workbook(LITE)
    wb["Generator"][layout.NAMES[layout.SEED].address] = 7
    wb["Analyze"][layout.NAMES[layout.ANALYZE_STRING].address] = ANALYZED
    payload = folder / "payload.json"
    payload.write_text(json.dumps(remote_book.payload(wb)), encoding="utf-8")
    program = (
        f"PUZZLE = {ANALYZED!r}\nCODE = {code!r}\n"
        + MAIN_PROGRAM
        + PROGRAM
        + WORKBOOK_PROGRAM
        + LITE_PROGRAM
    )
    source = folder / "program.py"
    data = "PATH = '/data/xlsudoku.xlsm'\nPAYLOAD = '/data/payload.json'\n"
    source.write_text(data + program, encoding="utf-8")
    in_pyodide = subprocess.run(
        [node, str(HERE / "run.mjs"), str(PYODIDE), str(WHEELS / "pyodide"), index]
        + [str(requirements), str(source), str(workbook), str(payload)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert in_pyodide.returncode == 0, in_pyodide.stderr[-4000:]
    here = folder / "cpython.py"
    here.write_text(f"PATH = {str(workbook)!r}\nPAYLOAD = {str(payload)!r}\n" + program)
    in_cpython = subprocess.run(
        [sys.executable, "-c", CPYTHON_RUNNER, str(here)],
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


def test_lite_requirements_install_and_the_stored_scripts_run(runs):
    pyodide, cpython = runs["pyodide"][2], runs["cpython"][2]
    assert pyodide["writes"] == cpython["writes"] and pyodide["count"] == [[">=2"]]
    assert pyodide["scripts"] == sorted(button.action for button in layout.BUTTONS)
    _, code = webextension.read_settings(LITE)
    pinned = [line.split("==") for line in code["requirements.txt"].splitlines() if "==" in line]
    assert pyodide["xlwings"] == dict(pinned)["xlwings"]
    # what micropip installed: the two requirement lines and the core install's dependencies,
    # nothing heavy (Pyodide's own micropip, packaging and tqdm were in place)
    assert set(pyodide["installed"]) == {
        "xlsudoku", "xlwings", "openpyxl", "et-xmlfile", "filelock", "defusedxml",
        "micropip", "packaging", "tqdm",
    }  # fmt: skip
    assert pyodide["modules"] == []
    timing = runs["pyodide"][-1]["timing"]
    load, install = timing["load_ms"] / 1000, timing["install_ms"] / 1000
    wall = load + install + pyodide["imported_s"]
    cpu = timing["start_cpu_s"] + pyodide["imported_cpu_s"]
    print(
        f"Pyodide cold start under Node: {wall:.1f} s wall, {cpu:.1f} s CPU (load Pyodide "
        f"{load:.1f} s, micropip install {install:.1f} s, import main.py "
        f"{pyodide['imported_s']:.1f} s wall)"
    )


def test_engine_core_imports_without_numpy():
    code = (
        "import sys, importlib, pkgutil\n"
        "sys.modules['numpy'] = None  # any 'import numpy' now raises ImportError\n"
        "import xlsudoku.engine\n"
        "for m in pkgutil.walk_packages(xlsudoku.engine.__path__, 'xlsudoku.engine.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "from xlsudoku.engine.generate import GenerateRequest, generate\n"
        "print(generate(GenerateRequest(target_givens=26, pattern=1, seed=7)).puzzle)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) == 81
