"""The distribution as a user gets it: ``python -m build``, ``twine check``, a real install.

The wheel must be pure Python (``py3-none-any``: micropip installs it in xlwings Lite), claim
only the ``xlsudoku`` import name, carry the workbook's VBA sources and both workbooks, and
declare the xlwings range the CI tests.  Installed into a fresh virtual environment without its
dependencies, the engine still generates, solves and grades: its core needs neither numpy nor
Excel.  Installed with them, outside the checkout, it gives a user the workbooks:
``workbook new``, ``workbook start`` and ``workbook new --lite`` work from the wheel alone.

The tests that build the distribution are marked ``slow`` (a build and two installs): README's
test command leaves them out and ``.ci/run`` runs them with the other slow tests.
"""

import os
import subprocess
import sys
import tomllib
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from conftest import ROOT
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from xlsudoku import __version__
from xlsudoku.addin.desktop import VBA_XLWINGS
from xlsudoku.xlsm import webextension

ENGINE_RUN = """
import json, sys
import xlsudoku
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.solver import count_solutions, solve
r = generate(GenerateRequest(target_givens=26, pattern=1, seed=7))
print(json.dumps({
    "file": xlsudoku.__file__,
    "puzzle": str(r.puzzle),
    "count": count_solutions(r.puzzle, 2),
    "solution": str(solve(r.puzzle)),
    "grade": grade(r.puzzle).label,
    "numpy": "numpy" in sys.modules,
}))
"""


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _fresh_venv(env_dir: Path) -> Path:
    """Create a virtual environment without pip; return its folder of programs."""
    venv.create(env_dir, with_pip=False)
    return env_dir / ("Scripts" if os.name == "nt" else "bin")


def _program(folder: Path, name: str) -> str:
    return str(folder / (f"{name}.exe" if os.name == "nt" else name))


@pytest.mark.slow
def test_twine_check_is_clean(built_dist):
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, built_dist.values())],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


@pytest.mark.slow
def test_wheel_is_pure_and_claims_one_import_name(built_dist):
    wheel = built_dist["wheel"]
    assert wheel.name == f"xlsudoku-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"xlsudoku-{__version__}.dist-info"
        assert {name.split("/")[0] for name in names} == {"xlsudoku", info}
        assert archive.read(f"{info}/top_level.txt").decode().split() == ["xlsudoku"]
        tags = Parser().parsestr(archive.read(f"{info}/WHEEL").decode())
        assert tags["Root-Is-Purelib"] == "true" and tags.get_all("Tag") == ["py3-none-any"]
        metadata = Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert not any(name.endswith((".so", ".pyd", ".dll")) for name in names)
    for data in ("vba/xlwings_project.bin", "vba/Buttons.bas"):
        assert f"xlsudoku/template/{data}" in names
    with zipfile.ZipFile(wheel) as archive:
        for name in ("xlsudoku.xlsm", "xlsudoku-lite.xlsx"):
            carried = archive.read(f"xlsudoku/workbooks/{name}")
            assert carried == (ROOT / "workbooks" / name).read_bytes(), name
    runtime = {Requirement(d) for d in metadata.get_all("Requires-Dist") if ";" not in d}
    assert {str(r) for r in runtime} == {str(Requirement(d)) for d in _project()["dependencies"]}
    (xlwings,) = (r for r in runtime if r.name == "xlwings")
    # the range ends at the newest xlwings the tests run (the desktop workbook's, README's test
    # command installs it); .ci/run runs the oldest (tests/test_xl.py)
    assert xlwings.specifier == SpecifierSet(f">=0.33.14,<={VBA_XLWINGS}")


def test_core_install_is_light():
    # what xlwings Lite (micropip) and xlwings Server load: no PDF, imaging or array library
    core = {Requirement(d).name.lower() for d in _project()["dependencies"]}
    heavy = {"fpdf2", "pillow", "fonttools", "numpy", "matplotlib", "dask", "distributed"}
    assert not core & heavy
    extras = _project()["optional-dependencies"]
    assert [Requirement(d).name for d in extras["print"]] == ["fpdf2"]
    assert [Requirement(d).name for d in extras["array"]] == ["numpy"]
    assert {"fpdf2", "numpy"} <= {Requirement(d).name for d in extras["test"]}


@pytest.mark.slow
def test_wheel_installs_and_runs_without_numpy(built_dist, tmp_path):
    env_dir = tmp_path / "fresh"
    programs = _fresh_venv(env_dir)
    python = _program(programs, "python")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps"]
        + ["--no-index", str(built_dist["wheel"])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    # Run outside the checkout, so the import can only come from the installed wheel.
    done = subprocess.run(
        [str(python), "-c", ENGINE_RUN], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == 0, done.stderr
    import json

    from xlsudoku.engine.generate import GenerateRequest, generate
    from xlsudoku.engine.grading import grade
    from xlsudoku.engine.solver import solve

    got = json.loads(done.stdout)
    assert got["file"].startswith(str(env_dir)) and "site-packages" in got["file"]
    expected = generate(GenerateRequest(target_givens=26, pattern=1, seed=7)).puzzle
    assert got["puzzle"] == str(expected) and got["count"] == 1
    assert got["solution"] == str(solve(expected)) and got["grade"] == grade(expected).label
    assert got["numpy"] is False
    console = subprocess.run(
        [_program(programs, "xlsudoku"), "count", got["puzzle"]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert console.returncode == 0, console.stderr
    assert console.stdout.split()[-1] == "1"


@pytest.mark.slow
def test_a_user_gets_the_workbooks_from_the_wheel(built_dist, tmp_path):
    # As README's install-from-wheel path: a fresh venv, the wheel and its dependencies, run
    # in a folder far from the checkout, so the workbooks can only come from the wheel.
    programs = _fresh_venv(tmp_path / "fresh")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", _program(programs, "python"), "install", "-q"]
        + [str(built_dist["wheel"])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    user = tmp_path / "user"
    user.mkdir()

    def xlsudoku(*argv):
        return subprocess.run(
            [_program(programs, "xlsudoku"), *argv],
            capture_output=True,
            text=True,
            cwd=user,
            check=False,
        )

    version = xlsudoku("--version")
    assert (version.returncode, version.stdout.strip()) == (0, f"xlsudoku {__version__}")
    new = xlsudoku("workbook", "new", "my.xlsm")
    assert new.returncode == 0, new.stderr
    assert (user / "my.xlsm").read_bytes() == (ROOT / "workbooks" / "xlsudoku.xlsm").read_bytes()
    start = xlsudoku("workbook", "start", "my.xlsm", "--quiet")
    assert start.returncode == 0, start.stderr
    assert start.stdout.startswith("Reached 26 opens"), start.stdout
    lite = xlsudoku("workbook", "new", "l.xlsx", "--lite")
    assert lite.returncode == 0, lite.stderr
    _, settings = webextension.read_settings(user / "l.xlsx")
    pinned = [line for line in str(settings["requirements.txt"]).splitlines() if "==" in line]
    assert f"xlsudoku=={__version__}" in pinned and f"xlwings=={VBA_XLWINGS}" in pinned
    again = xlsudoku("workbook", "new", "my.xlsm")
    assert again.returncode == 3 and "nothing was written" in again.stderr
    assert (user / "my.xlsm.bak").exists()  # START kept the fresh copy; new replaced nothing
