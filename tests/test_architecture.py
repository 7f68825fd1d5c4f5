"""Dependency rules of STYLE.md, checked in a fresh interpreter."""

import subprocess
import sys


def test_engine_import_loads_no_excel_modules():
    code = (
        "import sys, engine, engine.cli\n"
        "import pkgutil, importlib\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name != 'engine.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "bad = [m for m in ('xlwings', 'openpyxl', 'addin') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine loaded {out.stdout.strip()}"
