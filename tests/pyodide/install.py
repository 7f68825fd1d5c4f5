"""Install what tests/test_pyodide.py needs: Pyodide (npm) and micropip's wheels (PyPI).

Run from anywhere: ``python tests/pyodide/install.py`` (``.ci/run`` does).  ``npm ci`` installs
the Pyodide pinned in ``package-lock.json`` under ``tests/pyodide/node_modules``; then the
micropip and packaging wheels that this Pyodide lists in its ``pyodide-lock.json`` are
downloaded from PyPI into ``tests/pyodide/wheels`` (Pyodide's own package CDN is not reached:
the test loads them from there, as micropip would from the CDN), with the openpyxl (and its
et_xmlfile) of the Python running this script, for the add-in's workflows on a workbook file.
"""

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYODIDE = HERE / "node_modules" / "pyodide"
WHEELS = HERE / "wheels"


def main() -> int:
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)
    lock = json.loads((PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    python = ".".join(lock["info"]["python"].split(".")[:2])
    wanted = [f"{name}=={lock['packages'][name]['version']}" for name in ("micropip", "packaging")]
    wanted += [f"{name}=={version(name)}" for name in ("openpyxl", "et_xmlfile")]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
        + ["--python-version", python, "--dest", str(WHEELS), *wanted],
        check=True,
    )
    print(f"Pyodide {lock['info']['version']} (Python {python}) and {', '.join(wanted)} ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
