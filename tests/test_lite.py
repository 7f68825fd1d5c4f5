"""The xlwings Lite copy: workbooks/xlsudoku-lite.xlsx with its code stored as Lite stores it.

xlwings Lite keeps a workbook's ``main.py`` and ``requirements.txt`` as settings of its add-in
in the workbook's web extension part.  These tests read the stored code back from the committed
file, run its scripts and custom functions through xlwings' remote engine (as Lite runs them),
and hold requirements.txt to the distribution: ``xlsudoku==`` the package's own version and
the xlwings the desktop extra pins (the newest the CI tests).
"""

import asyncio
import tomllib
import types
import zipfile

import openpyxl
import remote_book
import xlwings as xw
import xlwings.server
from conftest import ROOT
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from xlsudoku import __version__
from xlsudoku.addin import desktop, layout, xl
from xlsudoku.template.build import LITE_CODE, LITE_OUTPUT, build_lite_file
from xlsudoku.template.lite import XLWINGS_LITE, lite_code
from xlsudoku.xlsm import webextension

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def stored_code():
    store_id, settings = webextension.read_settings(LITE_OUTPUT)
    assert store_id == XLWINGS_LITE
    return settings


def stored_main():
    """Return the module xlwings Lite makes of the stored main.py."""
    module = types.ModuleType("main")
    exec(compile(stored_code()["main.py"], "main.py", "exec"), module.__dict__)
    return module


def requirements():
    lines = stored_code()["requirements.txt"].splitlines()
    return [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]


def test_the_lite_copy_carries_lite_code_and_opens_its_pane(tmp_path):
    assert stored_code() == lite_code(LITE_CODE)
    fresh = build_lite_file(tmp_path / "lite.xlsx")
    assert fresh.read_bytes() == LITE_OUTPUT.read_bytes(), "run python -m xlsudoku.template.build"
    with zipfile.ZipFile(LITE_OUTPUT) as archive:
        names = set(archive.namelist())
        types_xml = archive.read("[Content_Types].xml").decode()
        rels = archive.read("_rels/.rels").decode()
    assert "xl/vbaProject.bin" not in names  # Lite runs no VBA: an .xlsx without macros
    assert {webextension.WEBEXTENSION, webextension.TASKPANES} <= names
    assert "application/vnd.ms-office.webextension+xml" in types_xml
    assert 'Target="xl/webextensions/taskpanes.xml"' in rels
    wb = openpyxl.load_workbook(LITE_OUTPUT)
    assert wb.sheetnames == list(layout.SHEETS) and set(layout.NAMES) <= set(wb.defined_names)


def test_stored_main_gives_lite_the_scripts_and_functions_of_addin_xl():
    main = stored_main()
    scripts = {entry["function_name"] for entry in xlwings.server.custom_scripts_meta(main)}
    assert scripts == {button.action for button in layout.BUTTONS}
    functions = {f["name"] for f in xlwings.server.custom_functions_meta(main)["functions"]}
    assert functions == {"SUDOKU_SOLVE", "SUDOKU_COUNT", "SUDOKU_GRADE", "SUDOKU_GENERATE"}
    assert all(getattr(main, name) is getattr(xl, name) for name in xl.__all__)


def test_stored_scripts_run_on_the_lite_copy_through_the_remote_engine():
    main = stored_main()
    wb = openpyxl.load_workbook(LITE_OUTPUT)
    wb["Generator"][layout.NAMES[layout.SEED].address] = 5
    wb["Analyze"][layout.NAMES[layout.ANALYZE_STRING].address] = "." * 4 + "1234" + "." * 73
    book = remote_book.book(wb)
    for script in ("start", "analyze"):
        asyncio.run(
            xlwings.server.custom_scripts_call(main, script, typehint_to_value={xw.Book: book})
        )
    cells = remote_book.writes(book.json()["actions"])
    assert cells[("Generator", layout.NAMES[layout.STATUS].address)].startswith("Reached 26 opens")
    analyzed = cells[("Analyze", layout.NAMES[layout.ANALYZE_STATUS].address)]
    assert analyzed.startswith("Several solutions"), analyzed
    data = {"func_name": "sudoku_count", "args": [[["1", 2, 3, 4]] * 1 + [[""] * 4] * 3, [[""]]]}
    data |= {"version": xw.__version__, "client": "Office.js", "runtime": "1.4"}
    data |= {"culture_info_name": "en-US", "date_format": "M/d/yyyy"}
    assert asyncio.run(xlwings.server.custom_functions_call(data, main))[0][0] == ">=2"


def test_requirements_name_the_distribution_and_a_supported_xlwings():
    by_name = {requirement.name: requirement for requirement in requirements()}
    assert set(by_name) == {"xlwings", "xlsudoku"}
    assert str(by_name["xlsudoku"].specifier) == f"=={__version__}"
    assert str(by_name["xlwings"].specifier) == f"=={desktop.VBA_XLWINGS}"
    (supported,) = (d[len("xlwings") :] for d in PROJECT["dependencies"] if "xlwings" in d)
    assert SpecifierSet(supported).contains(desktop.VBA_XLWINGS)
    # the documented fallback: the hosted wheel of this very version
    wheel = f"/xlsudoku-{__version__}-py3-none-any.whl"
    assert any(line.endswith(wheel) for line in stored_code()["requirements.txt"].splitlines())
