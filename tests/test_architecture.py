"""Dependency rules of STYLE.md, checked in a fresh interpreter."""

import subprocess
import sys


def test_engine_import_loads_no_excel_modules():
    code = (
        "import sys, importlib, pkgutil\n"
        "import xlsudoku.engine\n"
        "for m in pkgutil.walk_packages(xlsudoku.engine.__path__, 'xlsudoku.engine.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = [m for m in ('xlwings', 'openpyxl', 'xlsudoku.addin', 'xlsudoku.production',"
        " 'fpdf', 'distributed', 'filelock') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine loaded {out.stdout.strip()}"
