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
from xlsudoku.engine.patterns import PRESETS
from xlsudoku.template.build import BUTTONS_BAS, CODE_NAMES, DEFAULT_OUTPUT, build_file
from xlsudoku.template.styles import regions_formula
from xlsudoku.template.xlwings_vba import (
    quickstart_project_bytes,
    xlwings_project,
    xlwings_quickstart,
    xlwings_version,
)
from xlsudoku.xlsm.cells import absolute
from xlsudoku.xlsm.package import package_contents

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
    assert not differing, f"run `python -m xlsudoku.template.build`; parts differ: {differing}"
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
            f"{xlwings_version(vendored)}: run "
            "`python -m xlsudoku.template.build --refresh-xlwings`"
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


INPUTS = (*layout.PARAMS, *layout.TOOLS, *layout.ANALYZE_PARAMS)


@pytest.mark.parametrize("param", INPUTS, ids=lambda param: param.name)
def test_parameter_cell(book: openpyxl.Workbook, param: layout.Param) -> None:
    ws = book[param.ref.sheet]
    cell = ws[param.ref.address]
    assert cell.value == param.default
    assert cell.comment is not None and param.note in cell.comment.text
    row, column = layout.parse_cell(param.ref.address)
    assert ws.cell(row, column - 1).value == param.label
    rules = [rule for rule in ws.data_validations.dataValidation if param.ref.address in rule.sqref]
    if param.kind in (layout.Kind.TEXT, layout.Kind.SCORE):  # Python checks a score range
        assert rules == [] and cell.number_format == "@"
        return
    assert len(rules) == 1
    rule = rules[0]
    assert rule.allow_blank == param.optional
    # a pattern may be a mask typed by hand: the dropdown offers the presets, Python checks
    # a pattern's mask and a Jigsaw's own layout are typed as well: Python checks them
    typed = param.kind is layout.Kind.PATTERN or param.name in (
        layout.GEOMETRY,
        layout.ANALYZE_GEOMETRY,
    )
    assert rule.showErrorMessage == (not typed)
    if param.kind in (layout.Kind.CHOICE, layout.Kind.PATTERN):
        assert rule.type == "list"
        listed = layout.LISTS.get(param.name)
        if listed is None:
            assert rule.formula1 == '"' + ",".join(param.choices) + '"'
        else:
            assert rule.formula1 == "=" + absolute(listed.address)
            sheet = book[listed.sheet]
            assert [row[0].value for row in sheet[listed.address]] == list(param.choices)
            column = listed.address.rstrip("0123456789:").rstrip("0123456789")
            assert sheet.column_dimensions[listed.top_left.rstrip("0123456789")].hidden, column
    elif param.kind is layout.Kind.BUDGET:  # seconds in range, or cpu:/work: text
        cell = param.ref.top_left
        assert rule.type == "custom" and f"ISNUMBER({cell})" in rule.formula1
        assert f'SEARCH(":",{cell})' in rule.formula1
    else:
        assert rule.type == ("whole" if param.kind is layout.Kind.WHOLE else "decimal")
        assert rule.operator == "between"
        assert float(rule.formula1) == param.minimum and float(rule.formula2) == param.maximum


def test_generator_blocks(book: openpyxl.Workbook) -> None:
    ws = book[layout.GENERATOR]
    stats = layout.NAMES[layout.STATS]
    assert [ws[stats.cell(i, 0)].value for i in range(stats.shape[0])] == list(layout.STATS_LABELS)
    assert ws[stats.cell(0, 1)].value == "9x9"  # the grid's shape until START or CLEAR
    for name in (layout.PUZZLE_GRID, layout.SOLUTION_GRID, layout.RANK_TABLE):
        assert all(cell.value is None for row in ws[layout.NAMES[name].address] for cell in row)
    assert ws[layout.NAMES[layout.STATUS].address].value.startswith("Ready")
    merged = {str(block) for block in ws.merged_cells.ranges}
    assert layout.MERGED[layout.STATUS].address in merged
    assert ws[layout.NAMES[layout.HIGHEST_ID].address].value == 0


def test_rank_rows_are_even_and_empty_rows_have_no_line(book: openpyxl.Workbook) -> None:
    ws = book[layout.GENERATOR]
    ranks = layout.NAMES[layout.RANK_TABLE]
    first_row, _, last_row, _ = ranks.bounds
    assert {ws.row_dimensions[r].height for r in range(first_row, last_row + 1)} == {
        layout.GRID_CELL_POINTS[layout.GENERATOR]
    }
    assert all(cell.border.bottom.style is None for row in ws[ranks.address] for cell in row)
    (rule,) = conditional(ws, ranks)  # the line comes with a value
    assert rule.formula == [f"LEN($W{first_row})>0"] and rule.dxf.border.bottom.style


def test_the_chosen_pattern_is_highlighted(book: openpyxl.Workbook) -> None:
    ws = book[layout.GENERATOR]
    pattern = absolute(layout.PARAMS_BY_NAME[layout.PATTERN].ref.address)
    tests = {
        rule.formula[0]: str(block.sqref)
        for block in ws.conditional_formatting
        for rule in block.rules
        if pattern in rule.formula[0]
    }
    assert len(tests) == len(PRESETS)
    for number in range(1, len(PRESETS) + 1):
        block = tests[f'OR({pattern}={number},{pattern}="{number}")']
        assert ws[block.split(":")[0]].value.startswith(f"{number} ")


def conditional(ws, ref: layout.Ref) -> list:
    return [
        rule
        for block in ws.conditional_formatting
        if str(block.sqref) == ref.address
        for rule in block.rules
    ]


@pytest.mark.parametrize("name", layout.GRIDS)
def test_grids_are_drawn_by_shape(book: openpyxl.Workbook, name: str) -> None:
    ref = layout.NAMES[name]
    ws = book[ref.sheet]
    rules = conditional(ws, ref)
    if name in layout.HIDDEN_NAMES:
        assert rules == []  # a hidden block is not drawn
        return
    shaded = ref.sheet not in (layout.ANALYZE, layout.PLAY)
    # every combination of dark left/top/right/bottom edges, with 3 shades or none (on the
    # play grid, each a given or not, and a clash, the highlighted digit or neither; on the
    # analyze grid, a digit HINT placed or not)
    looks = {layout.PLAY_GRID: 2 * 3, layout.ANALYZE_GRID: 2}.get(name, 3 if shaded else 1)
    assert len(rules) == 16 * looks + (name == layout.ANALYZE_GRID)
    helpers = [cell.coordinate for cell in ws[layout.SHAPE_CELLS[ref.sheet].address][0]]
    for rule in rules:
        assert all(f"${h[:2]}${h[2:]}" in rule.formula[0] for h in helpers[:1]), rule.formula
    for cell in ws[layout.SHAPE_CELLS[ref.sheet].address][0]:
        assert layout.SHAPE_SOURCE[ref.sheet] in cell.value
    regions = ws[layout.REGION_CELLS[ref.sheet].address]
    assert regions.value == regions_formula(layout.SHAPE_SOURCE[ref.sheet])
    # the box edges give way to a Jigsaw's region edges: every rule of a border reads it
    assert all(absolute(regions.coordinate) in rule.formula[0] for rule in rules if rule.dxf.border)


def test_shape_table_is_the_layout(book: openpyxl.Workbook) -> None:
    for sheet, table in layout.SHAPE_TABLE.items():
        rows = [[cell.value for cell in row] for row in book[sheet][table.address]]
        assert rows == [
            [name, side, box_rows, box_cols, int(diagonals)]
            for name, (side, box_rows, box_cols, diagonals) in layout.GEOMETRIES.items()
        ]


def test_print_sheet_fits_every_shape(book: openpyxl.Workbook) -> None:
    from xlsudoku.xlsm.cells import character_width

    ws = book[layout.PRINT]
    grid = layout.NAMES[layout.PRINT_GRID]
    first_row, first_col, last_row, last_col = grid.bounds
    widths = [
        ws.column_dimensions[layout.column_letters(c)].width for c in range(first_col, last_col + 1)
    ]
    heights = [ws.row_dimensions[r].height for r in range(first_row, last_row + 1)]
    # 16 columns and rows share the square: every shape fits, so Lite and Server (which keep
    # these sizes) print any puzzle whole; the desktop and headless START size them per shape
    cell = layout.PRINT_SQUARE / layout.MAX_SIDE
    hidden = [
        ws.column_dimensions[layout.column_letters(c)].hidden
        for c in range(first_col, last_col + 1)
    ]
    assert widths == [character_width(cell)] * 16 and hidden == [False] * 16
    assert heights == [cell] * 16
    assert not any(ws.row_dimensions[r].hidden for r in range(first_row, last_row + 1))
    key = layout.NAMES[layout.PRINT_KEY]
    assert all(ws.row_dimensions[r].hidden for r in range(key.bounds[0], key.bounds[2] + 1))
    assert ws[grid.top_left].value == '=IF(Generator!F4="","",Generator!F4)'
    assert ws[key.cell(15, 15)].value == '=IF(Generator!U37="","",Generator!U37)'
    assert ws.print_area == "'Print'!" + absolute(layout.PRINT_AREA.address)
    assert [brk.id for brk in ws.row_breaks.brk] == [layout.NAMES[layout.PRINT_RULES].bounds[0]]
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0)
    assert ws.print_options.horizontalCentered
    assert ws.page_setup.orientation == "portrait"


def test_every_sheet_has_a_footer_counting_its_own_pages(book: openpyxl.Workbook) -> None:
    for ws in book.worksheets:
        assert ws.oddFooter.center.text.startswith("&A ·")
        assert ws.page_setup.useFirstPageNumber and ws.page_setup.firstPageNumber == 1


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


@pytest.mark.parametrize(
    ("sheet", "name", "columns"),
    [
        (layout.COLLECTION, layout.COLLECTION_HEADER, layout.COLLECTION_COLUMNS),
        (layout.REMOVED, layout.REMOVED_HEADER, layout.REMOVED_COLUMNS),
    ],
)
def test_tables(book: openpyxl.Workbook, sheet: str, name: str, columns: tuple) -> None:
    ws = book[sheet]
    header = layout.NAMES[name]
    assert [cell.value for cell in ws[header.address][0]] == list(columns)
    assert ws.freeze_panes == "A2" and ws.print_title_rows == "$1:$1"
    assert ws.max_row == 1
    for offset, column in enumerate(columns):
        dimension = ws.column_dimensions[layout.column_letters(offset + 1)]
        if column in layout.TEXT_COLUMNS:
            assert dimension.number_format == "@" and dimension.alignment.wrap_text
        if column in layout.DATE_COLUMNS:
            assert dimension.number_format == layout.DATE_FORMAT
    assert ws.page_setup.orientation == "landscape"
    assert ws.oddFooter.center.text == "&A · page &P · xlsudoku"


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
    legend = [row[0] for row in ws[layout.NAMES[layout.LEGEND].address]]
    assert [(cell.fill.fgColor.rgb[-6:], cell.value) for cell in legend] == [
        (colour.lstrip("#"), text) for colour, text in render.LEGEND
    ]
    assert len({colour for colour, _ in render.LEGEND}) == len(render.LEGEND)


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
    drawn = [
        b
        for b in package_contents(fresh).buttons
        if b.caption == button.caption and b.sheet == button.anchor.sheet
    ]
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
    from xlsudoku.template.build import main

    target = tmp_path / "sub" / "book.xlsm"
    assert main(["--output", str(target)]) == 0
    lite = tmp_path / "sub" / "book-lite.xlsx"
    assert capsys.readouterr().out.split("\n")[:2] == [f"wrote {target}", f"wrote {lite}"]
    assert lite.exists()
    assert target.read_bytes() == COMMITTED.read_bytes()
