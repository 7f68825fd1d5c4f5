"""The workbook build: the committed file is a fresh build, and it holds what layout.py says.

Checks read the file back with independent readers (openpyxl for cells, names, validation and
print setup; oletools' olevba for the VBA project; the package's XML for the buttons).
"""

from __future__ import annotations

import re
import warnings
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlsudoku.addin import layout
from xlsudoku.addin.build_workbook import BUTTONS_BAS, CODE_NAMES, DEFAULT_OUTPUT, build_file
from xlsudoku.addin.package import package_contents
from xlsudoku.addin.vbaproject import (
    quickstart_project_bytes,
    xlwings_project,
    xlwings_quickstart,
    xlwings_version,
)
from xlsudoku.engine.patterns import PRESETS

with warnings.catch_warnings():  # oletools still uses pyparsing names deprecated since 3.0
    warnings.simplefilter("ignore", DeprecationWarning)
    from oletools.olevba import VBA_Parser

COMMITTED = Path(__file__).resolve().parent.parent / "workbooks" / "xlsudoku.xlsm"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_file(tmp_path_factory.mktemp("build") / "xlsudoku.xlsm")


@pytest.fixture(scope="module")
def book(fresh: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(fresh)


@pytest.fixture(scope="module")
def macros(fresh: Path) -> dict[str, str]:
    parser = VBA_Parser(str(fresh))
    try:
        return {
            stream.split("/")[-1]: code.replace("\r\n", "\n")
            for _, stream, _, code in parser.extract_macros()
        }
    finally:
        parser.close()


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_committed_workbook_is_a_fresh_build(fresh: Path) -> None:
    assert DEFAULT_OUTPUT == COMMITTED
    committed, built = members(COMMITTED), members(fresh)
    differing = sorted(
        name for name in committed.keys() | built.keys() if committed.get(name) != built.get(name)
    )
    assert not differing, (
        f"run `python -m xlsudoku.addin.build_workbook`; parts differ: {differing}"
    )
    assert COMMITTED.read_bytes() == fresh.read_bytes()


def test_build_repeats_byte_for_byte(fresh: Path, tmp_path: Path) -> None:
    again = build_file(tmp_path / "again.xlsm")
    assert again.read_bytes() == fresh.read_bytes()


def test_vendored_xlwings_project_is_the_shipped_one() -> None:
    vendored = xlwings_project()
    installed = xlwings_project(quickstart_project_bytes(xlwings_quickstart()))
    if xlwings_version(installed) != xlwings_version(vendored):
        pytest.skip(
            f"installed xlwings {xlwings_version(installed)} differs from the vendored "
            f"{xlwings_version(vendored)}: run `python -m addin.build_workbook --refresh-xlwings`"
        )
    assert installed == vendored


# -- cells, names, rules ----------------------------------------------------------------------


def test_sheets_and_defined_names(book: openpyxl.Workbook) -> None:
    assert book.sheetnames == list(layout.SHEETS)
    defined = {name: book.defined_names[name].attr_text for name in book.defined_names}
    assert defined == {name: ref.formula for name, ref in layout.NAMES.items()}
    for name, ref in layout.NAMES.items():
        ((sheet, address),) = book.defined_names[name].destinations
        assert (sheet, address.replace("$", "")) == (ref.sheet, ref.address)


@pytest.mark.parametrize("param", layout.PARAMS, ids=lambda param: param.name)
def test_parameter_cell(book: openpyxl.Workbook, param: layout.Param) -> None:
    ws = book[param.ref.sheet]
    cell = ws[param.ref.address]
    assert cell.value == param.default
    assert cell.comment is not None and param.note in cell.comment.text
    row, column = layout.parse_cell(param.ref.address)
    assert ws.cell(row, column - 1).value == param.label
    rules = [rule for rule in ws.data_validations.dataValidation if param.ref.address in rule.sqref]
    assert len(rules) == 1
    rule = rules[0]
    assert rule.showErrorMessage and rule.allow_blank == param.optional
    if param.kind is layout.Kind.CHOICE:
        assert rule.type == "list"
        assert rule.formula1 == '"' + ",".join(param.choices) + '"'
    else:
        assert rule.type == ("whole" if param.kind is layout.Kind.WHOLE else "decimal")
        assert rule.operator == "between"
        assert float(rule.formula1) == param.minimum and float(rule.formula2) == param.maximum


def test_generator_blocks(book: openpyxl.Workbook) -> None:
    ws = book[layout.GENERATOR]
    stats = layout.NAMES[layout.STATS]
    assert [ws[stats.cell(i, 0)].value for i in range(stats.shape[0])] == list(layout.STATS_LABELS)
    for name in (layout.PUZZLE_GRID, layout.SOLUTION_GRID, layout.RANK_TABLE):
        assert all(cell.value is None for row in ws[layout.NAMES[name].address] for cell in row)
    assert ws[layout.NAMES[layout.STATUS].address].value.startswith("Ready")
    merged = {str(block) for block in ws.merged_cells.ranges}
    assert layout.MERGED[layout.STATUS].address in merged


def test_puzzle_grid_is_printable(book: openpyxl.Workbook) -> None:
    ws = book[layout.GENERATOR]
    grid = ws[layout.NAMES[layout.PUZZLE_GRID].address]
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            assert cell.font.b and cell.font.sz >= 18
            assert cell.alignment.horizontal == "center"
            assert (cell.border.left.style == "thick") == (c % 3 == 0)
            assert (cell.border.top.style == "thick") == (r % 3 == 0)
            assert cell.border.right.style == ("thick" if c == 8 else "thin")
            assert cell.border.bottom.style == ("thick" if r == 8 else "thin")
    heights = {ws.row_dimensions[cell.row].height for cell in [row[0] for row in grid]}
    assert heights == {36.0}
    assert ws.print_area == "'Generator'!" + re.sub(
        r"([A-Z]+)(\d+)", r"$\1$\2", layout.PRINT_AREA.address
    )
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 1)
    assert ws.print_options.horizontalCentered


def read_picture(text: str) -> tuple[str, str]:
    """Return (title line, mask) of a drawn pattern: x for a given square, . for a blank one."""
    title, *rows = text.split("\n")
    squares = "".join(rows).replace(" ", "")
    return title, squares.replace("■", "x").replace("□", ".")


def test_pattern_pictures_match_engine_presets(book: openpyxl.Workbook) -> None:
    ws = book[layout.GENERATOR]
    pictures = layout.NAMES[layout.PATTERN_PICTURES]
    drawn = [cell.value for row in ws[pictures.address] for cell in row if cell.value]
    assert len(drawn) == len(PRESETS)
    found = dict(read_picture(text) for text in drawn)
    assert found == {f"{p.number} {p.name}": p.mask for p in PRESETS}


def test_collection_header(book: openpyxl.Workbook) -> None:
    ws = book[layout.COLLECTION]
    header = layout.NAMES[layout.COLLECTION_HEADER]
    assert [cell.value for cell in ws[header.address][0]] == list(layout.COLLECTION_COLUMNS)
    assert ws.freeze_panes == "A2"
    assert ws.max_row == 1
    assert ws.column_dimensions["C"].width >= 81  # the 81-character puzzle fits


def test_analyze_sheet(book: openpyxl.Workbook) -> None:
    from xlsudoku.addin import render

    ws = book[layout.ANALYZE]
    fills = {
        cell.fill.fgColor.rgb
        for row in ws[layout.NAMES[layout.ANALYZE_GRID].address]
        for cell in row
    }
    assert fills == {"00" + render.GRID_FILL.lstrip("#")}  # what HINT restores after colouring
    assert all(
        cell.value is None for row in ws[layout.NAMES[layout.ANALYZE_GRID].address] for cell in row
    )
    assert ws[layout.NAMES[layout.ANALYZE_STATUS].address].value.startswith("Ready")
    merged = {str(block) for block in ws.merged_cells.ranges}
    for name in (layout.ANALYZE_STRING, layout.ANALYZE_STATUS, layout.HINT_TEXT):
        assert layout.MERGED[name].address in merged


# -- macros and buttons -----------------------------------------------------------------------


def test_package_is_macro_enabled_with_code_names(fresh: Path) -> None:
    contents = package_contents(fresh)
    assert contents.has_vba and contents.macro_enabled
    assert contents.sheets == layout.SHEETS
    assert contents.code_names == tuple(CODE_NAMES[sheet] for sheet in layout.SHEETS)
    workbook_xml = members(fresh)["xl/workbook.xml"].decode()
    assert 'codeName="ThisWorkbook"' in workbook_xml


def test_olevba_sees_every_module(macros: dict[str, str]) -> None:
    assert set(macros) == {"ThisWorkbook", *CODE_NAMES.values(), "Buttons", "xlwings", "Dictionary"}
    assert "Public Function RunPython(" in macros["xlwings"]
    assert macros["Buttons"].strip() == BUTTONS_BAS.read_text().strip()


@pytest.mark.parametrize("button", layout.BUTTONS, ids=lambda button: button.action)
def test_button_runs_its_macro(fresh: Path, macros: dict[str, str], button: layout.Button) -> None:
    drawn = [b for b in package_contents(fresh).buttons if b.caption == button.caption]
    assert [(b.sheet, b.macro) for b in drawn] == [(button.anchor.sheet, button.macro)]
    sub = re.search(
        rf"^Public Sub {button.macro}\(\)\n(.*?)^End Sub",
        macros["Buttons"],
        re.MULTILINE | re.DOTALL,
    )
    assert sub is not None, f"no Sub {button.macro} in module Buttons"
    assert sub.group(1).strip() == f'RunPython "{button.python_call}"'


def test_desktop_entry_points_exist() -> None:
    import xlsudoku.addin.desktop

    for button in layout.BUTTONS:
        assert callable(getattr(xlsudoku.addin.desktop, button.action)), button.action


def test_build_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from xlsudoku.addin.build_workbook import main

    target = tmp_path / "sub" / "book.xlsm"
    assert main(["--output", str(target)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {target}"
    assert target.read_bytes() == COMMITTED.read_bytes()
