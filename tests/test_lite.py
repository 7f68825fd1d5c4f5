"""The xlwings Lite code: lite/main.py and lite/requirements.txt, as a Lite user pastes them.

main.py must give xlwings Lite exactly the scripts and custom functions of addin.xl (they run
here through xlwings' remote engine, as Lite runs them); requirements.txt must pin an xlwings
inside the supported range and name the wheel ``python -m build`` makes.
"""

import asyncio
import importlib.util
import tomllib

import openpyxl
import remote_book
import xlwings as xw
import xlwings.server
from conftest import ROOT
from packaging.specifiers import SpecifierSet

from xlsudoku.addin import layout

LITE = ROOT / "lite"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def lite_main():
    spec = importlib.util.spec_from_file_location("main", LITE / "main.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_main_gives_lite_the_scripts_and_functions_of_addin_xl():
    main = lite_main()
    scripts = {entry["function_name"] for entry in xlwings.server.custom_scripts_meta(main)}
    assert scripts == {button.action for button in layout.BUTTONS}
    functions = {f["name"] for f in xlwings.server.custom_functions_meta(main)["functions"]}
    assert functions == {"SUDOKU_SOLVE", "SUDOKU_COUNT", "SUDOKU_GRADE", "SUDOKU_GENERATE"}
    from xlsudoku.addin import xl

    assert all(getattr(main, name) is getattr(xl, name) for name in xl.__all__)


def test_start_runs_through_lite_main():
    wb = openpyxl.load_workbook(ROOT / "workbooks" / "xlsudoku.xlsm", keep_vba=True)
    wb["Generator"][layout.NAMES[layout.SEED].address] = 5
    book = remote_book.book(wb)
    asyncio.run(
        xlwings.server.custom_scripts_call(lite_main(), "start", typehint_to_value={xw.Book: book})
    )
    cells = remote_book.writes(book.json()["actions"])
    assert cells[("Generator", layout.NAMES[layout.STATUS].address)].startswith("Reached 26 opens")


def test_requirements_pin_a_supported_xlwings_and_name_the_built_wheel():
    lines = (LITE / "requirements.txt").read_text(encoding="utf-8").split()
    (pin,) = (line for line in lines if line.startswith("xlwings=="))
    (supported,) = (d[len("xlwings") :] for d in PROJECT["dependencies"] if "xlwings" in d)
    assert SpecifierSet(supported).contains(pin.split("==")[1])
    (url,) = (line for line in lines if line.startswith("https://"))
    assert url.endswith(f"/xlsudoku-{PROJECT['version']}-py3-none-any.whl")
