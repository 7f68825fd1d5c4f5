"""Install what tests/test_pyodide.py needs: Pyodide (npm) and the wheels it installs (PyPI).

Run from anywhere: ``python tests/pyodide/install.py`` (``.ci/run`` does).  ``npm ci`` installs
the Pyodide pinned in ``package-lock.json`` under ``tests/pyodide/node_modules``.  Then, from
PyPI, into ``tests/pyodide/wheels``:

- ``pyodide/``: the packages xlwings Lite takes from Pyodide's own package set (micropip and
  its packaging; tqdm, a dependency of xlsudoku): the test puts them in place as installed,
  since Pyodide's package CDN is not reached from here;
- ``index/``: what the package index serves to micropip for ``lite/requirements.txt``: the
  xlwings it pins and the dependencies of xlsudoku's core install (pure Python wheels for
  Pyodide's Python), each at the newest version the requirements allow.  The test serves this
  folder, with the xlsudoku wheel ``python -m build`` makes, as a package index on 127.0.0.1.
"""

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PYODIDE = HERE / "node_modules" / "pyodide"
WHEELS = HERE / "wheels"


def _download(wanted: list[str], python: str, dest: Path, deps: bool) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:"]
        + ([] if deps else ["--no-deps"])
        + ["--python-version", python, "--implementation", "py", "--abi", "none"]
        + ["--platform", "any", "--dest", str(dest), *wanted],
        check=True,
    )


def lite_requirements() -> list[str]:
    """Return the requirement lines of lite/requirements.txt (comments left out)."""
    text = (ROOT / "lite" / "requirements.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def main() -> int:
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)
    lock = json.loads((PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    python = ".".join(lock["info"]["python"].split(".")[:2])
    own = {name: lock["packages"][name]["version"] for name in ("micropip", "packaging", "tqdm")}
    shutil.rmtree(WHEELS, ignore_errors=True)
    _download([f"{n}=={v}" for n, v in own.items()], python, WHEELS / "pyodide", deps=False)
    core = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = [line for line in lite_requirements() if not line.startswith("xlsudoku")]
    others = [dep for dep in core["dependencies"] if not dep.startswith(("xlwings", *own))]
    _download(named + others, python, WHEELS / "index", deps=True)
    for wheel in (WHEELS / "index").glob("*.whl"):  # Pyodide's own copy is used, not PyPI's
        if wheel.name.split("-")[0].lower() in own:
            wheel.unlink()
    got = sorted(path.name for path in WHEELS.rglob("*.whl"))
    print(f"Pyodide {lock['info']['version']} (Python {python}); wheels: {', '.join(got)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
