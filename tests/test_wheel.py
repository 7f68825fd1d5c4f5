"""The distribution as a user gets it: ``python -m build``, ``twine check``, a real install.

The wheel must be pure Python (``py3-none-any``: micropip installs it in xlwings Lite), claim
only the ``xlsudoku`` import name, carry the workbook's VBA sources, and declare the xlwings
range the CI tests.  Installed into a fresh virtual environment without its dependencies, the
engine still generates, solves and grades: its core needs neither numpy nor Excel.
"""

import subprocess
import sys
import tomllib
import venv
import zipfile
from email.parser import Parser

from conftest import ROOT
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ENGINE_RUN = """
import json, sys
import xlsudoku
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.solver import count_solutions, solve
r = generate(GenerateRequest(opens=26, pattern=1, seed=7))
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


def test_twine_check_is_clean(built_dist):
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, built_dist.values())],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_wheel_is_pure_and_claims_one_import_name(built_dist):
    wheel = built_dist["wheel"]
    assert wheel.name == f"xlsudoku-{_project()['version']}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"xlsudoku-{_project()['version']}.dist-info"
        assert {name.split("/")[0] for name in names} == {"xlsudoku", info}
        assert archive.read(f"{info}/top_level.txt").decode().split() == ["xlsudoku"]
        tags = Parser().parsestr(archive.read(f"{info}/WHEEL").decode())
        assert tags["Root-Is-Purelib"] == "true" and tags.get_all("Tag") == ["py3-none-any"]
        metadata = Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert not any(name.endswith((".so", ".pyd", ".dll")) for name in names)
    for data in ("vba/xlwings_project.bin", "vba/Buttons.bas"):
        assert f"xlsudoku/template/{data}" in names
    runtime = {Requirement(d) for d in metadata.get_all("Requires-Dist") if ";" not in d}
    assert {str(r) for r in runtime} == {str(Requirement(d)) for d in _project()["dependencies"]}
    (xlwings,) = (r for r in runtime if r.name == "xlwings")
    assert xlwings.specifier == SpecifierSet(">=0.33.14,<0.38")


def test_wheel_installs_and_runs_without_numpy(built_dist, tmp_path):
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
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
    expected = generate(GenerateRequest(opens=26, pattern=1, seed=7)).puzzle
    assert got["puzzle"] == str(expected) and got["count"] == 1
    assert got["solution"] == str(solve(expected)) and got["grade"] == grade(expected).label
    assert got["numpy"] is False
    console = subprocess.run(
        [str(env_dir / "bin" / "xlsudoku"), "count", got["puzzle"]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert console.returncode == 0, console.stderr
    assert console.stdout.split()[-1] == "1"
