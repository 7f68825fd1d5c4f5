"""Build ``workbooks/xlsudoku.xlsm`` and its xlwings Lite copy from :mod:`xlsudoku.addin.layout`.

``python -m xlsudoku.template.build`` writes both: ``workbooks/xlsudoku.xlsm`` (the VBA buttons
of classic desktop Excel) and ``workbooks/xlsudoku-lite.xlsx`` (no macros; the code of
``lite/`` stored as xlwings Lite stores it, :mod:`xlsudoku.template.lite`).

The build is deterministic: the same sources give the same bytes (fixed document timestamps
and zip member times), so a test can prove the committed workbook equals a fresh build.
Sources: :mod:`addin.layout` (every address, default, rule and label), :mod:`engine.patterns`
(the twelve pattern pictures), :mod:`xlsudoku.template.styles` (fonts, colours, grids drawn by
shape), ``template/vba/Buttons.bas`` (the button macros) and the VBA
project of xlwings' standalone quickstart workbook, vendored as ``template/vba/xlwings_project.bin``
(``RunPython``; see :mod:`xlsudoku.xlsm.vbaproject`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence
from pathlib import Path

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.data_source import AxDataSource, StrRef
from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from xlsudoku.addin import layout, render
from xlsudoku.engine.grid import geometry_for_size
from xlsudoku.engine.patterns import PRESETS
from xlsudoku.template.lite import XLWINGS_LITE, lite_code, requirements
from xlsudoku.template.styles import (
    ACCENT,
    BLANK_MARK,
    CENTER,
    FIXED_FONT,
    GIVEN_MARK,
    HAIR,
    HEADER_FILL,
    HEADER_FONT,
    HELP_FONT,
    INK,
    INPUT_FILL,
    INPUT_FONT,
    JIGSAW_SIDE,
    LABEL_FONT,
    LEFT,
    NOTE_FONT,
    PICKED_FILL,
    PICTURE_FONT,
    STATUS_FILL,
    THIN,
    TITLE_FONT,
    WHITE_FILL,
    WRAP,
    WRAP_CENTER,
    Overlay,
    cells,
    grid_look,
    heading,
    input_cells,
    merge,
    shape_helpers,
    size_grid,
    style_block,
)
from xlsudoku.template.xlwings_vba import refresh_vendored_project, xlwings_project
from xlsudoku.xlsm.cells import absolute, character_width
from xlsudoku.xlsm.package import (
    ButtonShape,
    attach_macros,
    normalize_zip,
    register_vml_prefixes,
)
from xlsudoku.xlsm.vbaproject import Module, ModuleKind, workbook_project, write_project
from xlsudoku.xlsm.webextension import add_task_pane

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = ROOT / "workbooks" / "xlsudoku.xlsm"
LITE_OUTPUT = ROOT / "workbooks" / "xlsudoku-lite.xlsx"
LITE_CODE = ROOT / "lite"
BUTTONS_BAS = Path(__file__).resolve().parent / "vba" / "Buttons.bas"
FIXED_TIME = dt.datetime(2024, 1, 1)
CODE_NAMES = {
    layout.GENERATOR: "Sheet1",
    layout.PRINT: "Sheet4",
    layout.ANALYZE: "Sheet3",
    layout.COLLECTION: "Sheet2",
    layout.REMOVED: "Sheet5",
    layout.PLAY: "Sheet6",
    layout.STATS_SHEET: "Sheet7",
}

PUZZLE_FONT = Font(name="Calibri", size=18, bold=True, color="000000")
SOLUTION_FONT = Font(name="Calibri", size=12, color="4B5563")
PRINT_FONT = Font(name="Calibri", size=22, bold=True, color="000000")
KEY_FONT = Font(name="Calibri", size=16, color="374151")
ANALYZE_FONT = Font(name="Calibri", size=15, bold=True, color="000000")
MARK_FONT = Font(name="Courier New", size=8, color="374151")  # four lines fit a 16x16 cell
ENTRY_FONT = Font(name="Calibri", size=18, color=render.ENTRY_INK.lstrip("#"))
GIVEN_FONT = Font(bold=True, color=render.GIVEN_INK.lstrip("#"))
MEDIUM = Side(style="medium", color="000000")
TABLE_LINED_ROWS = 5000  # a table's rows get a line under them while they hold an id


# -- buttons ------------------------------------------------------------------------------------


class _Sizes:
    """Column widths and row heights of one sheet, to place buttons in pixels and points."""

    def __init__(self, ws: Worksheet) -> None:
        self.ws = ws

    def width_px(self, column: int) -> int:
        dimension = self.ws.column_dimensions.get(layout.column_letters(column))
        if dimension is None or not dimension.width:
            return 64  # Excel's default column: 8.43 characters of Calibri 11
        return int(dimension.width * 7 + 5 + 0.5)  # 7 px per character of Calibri 11, 5 padding

    def height_px(self, row: int) -> int:
        dimension = self.ws.row_dimensions.get(row)
        height = dimension.height if dimension is not None and dimension.height else 15.0
        return round(height * 4 / 3)

    def button(self, button: layout.Button, inset_x: int = 4, inset_y: int = 3) -> ButtonShape:
        row, column = layout.parse_cell(button.anchor.top_left)
        width, height = self.width_px(column), self.height_px(row)
        left = sum(self.width_px(c) for c in range(1, column)) + inset_x
        top = sum(self.height_px(r) for r in range(1, row)) + inset_y
        return ButtonShape(
            caption=button.caption,
            macro=button.macro,
            anchor=(
                column - 1,
                inset_x,
                row - 1,
                inset_y,
                column - 1,
                width - inset_x,
                row - 1,
                height - inset_y,
            ),
            box=(
                left * 0.75,
                top * 0.75,
                (width - 2 * inset_x) * 0.75,
                (height - 2 * inset_y) * 0.75,
            ),
        )


def pattern_picture(number: int) -> str:
    """Return the text drawn for preset *number*: its number and name, then three rows.

    >>> print(pattern_picture(9))
    9 cross
    □ ■ □
    ■ ■ ■
    □ ■ □
    """
    pattern = PRESETS[number - 1]
    rows = [
        " ".join(GIVEN_MARK if open_ else BLANK_MARK for open_ in row) for row in pattern.rows()
    ]
    return "\n".join([f"{pattern.number} {pattern.name}", *rows])


# -- sheets -------------------------------------------------------------------------------------


def _sheet_basics(ws: Worksheet, title: str | None = None, note: str = "") -> None:
    ws.sheet_view.showGridLines = False
    for letter, width in layout.COLUMN_WIDTHS[ws.title].items():
        ws.column_dimensions[letter].width = width
    if title is None:
        return
    row, column = layout.parse_cell(layout.TITLES[ws.title].address)
    heading = ws.cell(row, column, title)
    heading.font, heading.alignment = TITLE_FONT, LEFT
    ws.row_dimensions[row].height = 30
    ws.cell(row + 1, column, note).font = NOTE_FONT


def _page(
    ws: Worksheet,
    landscape: bool,
    tall: int,
    area: str | None = None,
    footer: str = "&A · xlsudoku",
) -> None:
    """Set the page: A4, fit to one page wide and *tall* pages high (0 = as many as needed)."""
    setup = ws.page_setup
    setup.orientation = "landscape" if landscape else "portrait"
    setup.paperSize = ws.PAPERSIZE_A4
    setup.fitToWidth = 1
    setup.fitToHeight = tall
    setup.firstPageNumber = 1
    setup.useFirstPageNumber = True  # "page 1" is the sheet's first page, not the book's
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    if area is not None:
        ws.print_area = area
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.5
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.oddFooter.center.text = footer
    ws.oddFooter.center.size = 9


def _build_generator(ws: Worksheet) -> None:
    names = layout.NAMES
    _sheet_basics(
        ws,
        "xlsudoku · Sudoku generator",
        "Set the parameters and click START. SAVE TO COLLECTION keeps the puzzle; the Print "
        "sheet is the page to solve on; hover over a parameter for its note.",
    )
    puzzle = names[layout.PUZZLE_GRID]
    cell_points = layout.GRID_CELL_POINTS[layout.GENERATOR]
    size_grid(ws, puzzle, cell_points)
    last_row = names[layout.SOLUTION_GRID].bounds[2]
    for row in range(
        puzzle.bounds[0] - 1, max(last_row, layout.NAMES[layout.HIGHEST_ID].bounds[0]) + 1
    ):
        ws.row_dimensions[row].height = cell_points  # one height: the tables' rows are even

    header_row = puzzle.bounds[0] - 1
    value_column = layout.parse_cell(layout.PARAMS[0].ref.address)[1]
    for offset, text in zip((-1, 0, 1), ("Parameter", "Value", "Allowed"), strict=True):
        cell = ws.cell(header_row, value_column + offset)
        cell.value, cell.font, cell.fill, cell.alignment = text, HEADER_FONT, HEADER_FILL, LEFT
    heading(
        ws,
        puzzle.row_span(header_row),
        "Sudoku",
        font=Font(name="Calibri", size=16, bold=True, color=INK),
    )
    stats = names[layout.STATS]
    heading(ws, stats.row_span(header_row), "Statistics", fill=HEADER_FILL, alignment=LEFT)
    input_cells(ws, layout.PARAMS)

    status = names[layout.STATUS]
    row, column = layout.parse_cell(status.address)
    label = ws.cell(row, column - 1, "Status")
    label.font, label.alignment = HEADER_FONT, Alignment(vertical="top")
    merge(
        ws,
        layout.MERGED[layout.STATUS],
        "Ready: set the parameters, then click START.",
        font=LABEL_FONT,
        fill=STATUS_FILL,
        alignment=WRAP,
    )

    helpers = shape_helpers(ws)
    style_block(ws, puzzle, font=PUZZLE_FONT, alignment=CENTER)
    grid_look(ws, puzzle, helpers, shaded=True)
    solution = names[layout.SOLUTION_GRID]
    heading(
        ws,
        solution.row_span(solution.bounds[0] - 1),
        "Solution (when Show solution is Yes; the Print sheet's answer key)",
    )
    style_block(ws, solution, font=SOLUTION_FONT, alignment=CENTER)
    grid_look(ws, solution, helpers, shaded=True)

    for offset, text in enumerate(layout.STATS_LABELS):
        label = ws[stats.cell(offset, 0)]
        label.value, label.font, label.alignment = text, LABEL_FONT, LEFT
        value = ws[stats.cell(offset, 1)]
        value.font, value.alignment = INPUT_FONT, LEFT
        for cell in (label, value):
            cell.border = Border(bottom=HAIR)
    ws[stats.cell(0, 1)].value = layout.CLASSIC_NAME  # the grid's shape until START or CLEAR

    ranks = names[layout.RANK_TABLE]
    r_first_row = ranks.bounds[0]
    for column, text in zip(
        range(ranks.bounds[1], ranks.bounds[3] + 1), ("Rank", "Cells"), strict=True
    ):
        cell = ws.cell(r_first_row - 1, column)
        cell.value, cell.font, cell.fill, cell.alignment = text, HEADER_FONT, HEADER_FILL, LEFT
    style_block(ws, ranks, font=LABEL_FONT, alignment=LEFT)
    first = ranks.top_left.rstrip("0123456789")
    filled = f"LEN(${first}{r_first_row})>0"
    ws.conditional_formatting.add(
        ranks.address, FormulaRule(formula=[filled], border=Border(bottom=HAIR))
    )

    pictures = names[layout.PATTERN_PICTURES]
    p_first_row, p_first_col, _, p_last_col = pictures.bounds
    heading(
        ws,
        layout.Ref(
            layout.GENERATOR,
            f"{layout.cell_address(p_first_row - 1, p_first_col)}:"
            f"{layout.cell_address(p_first_row - 1, p_last_col)}",
        ),
        f"Patterns ({GIVEN_MARK} always a given, {BLANK_MARK} always blank; chosen one "
        "highlighted)",
        alignment=LEFT,
    )
    pattern_cell = absolute(layout.PARAMS_BY_NAME[layout.PATTERN].ref.address)
    per_row = p_last_col - p_first_col + 1
    for index in range(len(PRESETS)):
        row = p_first_row + 2 * (index // per_row)
        column = p_first_col + index % per_row
        block = layout.Ref(
            layout.GENERATOR,
            f"{layout.cell_address(row, column)}:{layout.cell_address(row + 1, column)}",
        )
        merge(ws, block, pattern_picture(index + 1), font=PICTURE_FONT, alignment=WRAP_CENTER)
        number = index + 1
        chosen = f'OR({pattern_cell}={number},{pattern_cell}="{number}")'
        ws.conditional_formatting.add(
            block.address,
            FormulaRule(formula=[chosen], fill=PICKED_FILL, font=Font(bold=True, color="000000")),
        )

    caption = layout.MERGED[layout.CAPTION]
    givens, seed, level = (stats.cell(layout.STATS_LABELS.index(label), 1)
                          for label in ("Opens", "Seed", "Level"))  # fmt: skip
    merge(
        ws,
        caption,
        f'=IF({givens}="","",{givens}&" opens · "&{level}&" · seed "&{seed})',
        font=NOTE_FONT,
        alignment=LEFT,
    )

    heading(
        ws,
        layout.TOOLS_HEADING,
        "Collection tools (rows move to the Removed sheet, never lost)",
        fill=HEADER_FILL,
        alignment=LEFT,
    )
    input_cells(ws, layout.TOOLS, with_help=False)
    for name, ref in layout.LISTS.items():
        choices = (layout.PARAMS_BY_NAME | layout.TOOLS_BY_NAME)[name].choices
        for cell, text in zip((row[0] for row in cells(ws, ref)), choices, strict=True):
            cell.value = text
    highest = names[layout.HIGHEST_ID]
    row, column = layout.parse_cell(highest.address)
    label = ws.cell(row, column - 1, "Highest id given")
    label.font, label.alignment = LABEL_FONT, LEFT
    mark = ws[highest.address]
    mark.font, mark.alignment = INPUT_FONT, CENTER
    mark.value = 0
    mark.comment = Comment(
        "Highest id given: the highest Collection id ever given. New rows get a higher id, "
        "so an id is never reused, even after DELETE.",
        "xlsudoku",
        width=300,
        height=80,
    )
    note = ws.cell(row, column + 1, "ids are never reused")
    note.font, note.alignment = HELP_FONT, LEFT

    _page(ws, landscape=False, tall=1, area=layout.PRINT_AREAS[layout.GENERATOR].address)
    ws.sheet_view.selection[0].activeCell = layout.NAMES[layout.OPENS].address
    ws.sheet_view.selection[0].sqref = layout.NAMES[layout.OPENS].address


def _build_print(ws: Worksheet) -> None:
    names = layout.NAMES
    _sheet_basics(ws)
    helpers = shape_helpers(ws)
    grid, key = names[layout.PRINT_GRID], names[layout.PRINT_KEY]
    generator = layout.GENERATOR
    source_grids = ((grid, names[layout.PUZZLE_GRID]), (key, names[layout.SOLUTION_GRID]))
    for target, source in source_grids:
        for r, row in enumerate(cells(ws, target)):
            for c, cell in enumerate(row):
                origin = f"{generator}!{source.cell(r, c)}"
                cell.value = f'=IF({origin}="","",{origin})'
    style_block(ws, grid, font=PRINT_FONT, alignment=CENTER)
    style_block(ws, key, font=KEY_FONT, alignment=CENTER)
    grid_look(ws, grid, helpers, shaded=True)
    grid_look(ws, key, helpers, shaded=True)
    shape = helpers
    caption = f"{generator}!{names[layout.CAPTION].address}"
    stats_shape = layout.SHAPE_SOURCE[layout.PRINT]
    merge(
        ws,
        layout.MERGED[layout.PRINT_TITLE],
        f'="Sudoku "&{stats_shape}&IF({caption}="",""," · "&{caption})',
        font=Font(name="Calibri", size=16, bold=True, color=INK),
        alignment=CENTER,
    )
    side, box_rows, box_cols, diagonals, _ = shape
    merge(
        ws,
        layout.MERGED[layout.PRINT_RULES],
        f'="Fill every row, column and "&IF({shape.jigsaw()},"outlined region",'
        f'{box_rows}&"x"&{box_cols}&" box")&" with each of 1-"'
        f'&{side}&IF({diagonals}=1,", and both diagonals too","")'
        f'&IF({stats_shape}="9x9-windoku",", and the four shaded boxes too","")&"."',
        font=NOTE_FONT,
        alignment=CENTER,
    )
    merge(
        ws,
        layout.MERGED[layout.PRINT_KEY_TITLE],
        f'="Answer key · "&{stats_shape}&IF({caption}="",""," · "&{caption})',
        font=Font(name="Calibri", size=14, bold=True, color=INK),
        alignment=CENTER,
    )
    ws.row_dimensions[names[layout.PRINT_TITLE].bounds[0]].height = 30
    ws.row_dimensions[names[layout.PRINT_RULES].bounds[0]].height = 20
    # The largest shape's sizes fit every shape; the desktop and headless START and CLEAR size
    # them for each shape, Lite and Server keep these.
    sizes = render.print_sizes(geometry_for_size(layout.MAX_SIDE))
    for ref, heights in ((grid, sizes), (key, render.print_sizes(None))):
        first_row, first_col, _, _ = ref.bounds
        for offset, points in enumerate(sizes):
            dimension = ws.column_dimensions[layout.column_letters(first_col + offset)]
            dimension.width = character_width(points)
            dimension.hidden = points <= 0
        for offset, points in enumerate(heights):
            ws.row_dimensions[first_row + offset].height = points
            ws.row_dimensions[first_row + offset].hidden = points <= 0
    merge(
        ws,
        layout.MERGED[layout.PRINT_STATUS],
        "IMAGE: a picture of this puzzle (PNG), as xlsudoku image draws it.",
        font=LABEL_FONT,
        fill=STATUS_FILL,
        alignment=WRAP,
    )
    key_title = names[layout.PRINT_KEY_TITLE].bounds[0]
    ws.row_dimensions[key_title].height = 0
    ws.row_dimensions[key_title].hidden = True
    ws.row_breaks.append(Break(id=names[layout.PRINT_RULES].bounds[0]))
    _page(ws, landscape=False, tall=0, area=layout.PRINT_AREA.address)


def _table(ws: Worksheet, header: layout.Ref, columns: tuple[str, ...]) -> None:
    """Draw a table's header row and give each column its width, format and wrapping."""
    widths = layout.COLUMN_WIDTHS[layout.COLLECTION] | {
        layout.column_letters(len(layout.COLLECTION_COLUMNS) + 1): 19,
        layout.column_letters(len(layout.COLLECTION_COLUMNS) + 2): 14,
    }
    for offset, text in enumerate(columns):
        letter = layout.column_letters(offset + 1)
        cell = ws[header.cell(0, offset)]
        cell.value, cell.font, cell.fill, cell.alignment = text, HEADER_FONT, HEADER_FILL, LEFT
        cell.border = Border(bottom=MEDIUM)
        dimension = ws.column_dimensions[letter]
        dimension.width = widths[letter]
        if text in layout.TEXT_COLUMNS:
            dimension.number_format = "@"
            dimension.alignment = WRAP
            if text in ("puzzle", "solution"):
                dimension.font = FIXED_FONT
        elif text in layout.DATE_COLUMNS:
            dimension.number_format = layout.DATE_FORMAT
            dimension.alignment = Alignment(vertical="top")
        else:
            dimension.alignment = Alignment(horizontal="left", vertical="top")
    first_row, first_col, _, last_col = header.bounds
    rows = layout.Ref(
        ws.title,
        f"{layout.cell_address(first_row + 1, first_col)}:"
        f"{layout.cell_address(first_row + TABLE_LINED_ROWS, last_col)}",
    )
    first_id = absolute(rows.top_left).rsplit("$", 1)[0] + str(first_row + 1)
    ws.conditional_formatting.add(
        rows.address,
        FormulaRule(formula=[f"LEN({first_id})>0"], border=Border(bottom=HAIR)),
    )
    ws.freeze_panes = ws.cell(header.bounds[0] + 1, 1).coordinate
    ws.print_title_rows = f"{header.bounds[0]}:{header.bounds[0]}"
    _page(ws, landscape=True, tall=0, footer="&A · page &P · xlsudoku")


def _build_collection(ws: Worksheet) -> None:
    ws.sheet_view.showGridLines = False
    _table(ws, layout.NAMES[layout.COLLECTION_HEADER], layout.COLLECTION_COLUMNS)


def _build_removed(ws: Worksheet) -> None:
    ws.sheet_view.showGridLines = False
    _table(ws, layout.NAMES[layout.REMOVED_HEADER], layout.REMOVED_COLUMNS)


def _build_analyze(ws: Worksheet) -> None:
    names = layout.NAMES
    _sheet_basics(
        ws,
        "xlsudoku · Analyze a puzzle",
        "Type a puzzle into the grid (blank or 0 = empty) or paste it as one line into Puzzle "
        "string, then click ANALYZE, HINT or SOLVE.",
    )
    cell_points = layout.GRID_CELL_POINTS[layout.ANALYZE]
    for name in (layout.ANALYZE_GRID, layout.CANDIDATES):
        size_grid(ws, names[name], cell_points)
    for name in (layout.ANALYZE_SOLUTION,):
        size_grid(ws, names[name], cell_points, widths=False)

    string = names[layout.ANALYZE_STRING]
    row, column = layout.parse_cell(string.address)
    ws.cell(row, column - 1, "Puzzle string").font = HEADER_FONT
    merge(
        ws,
        layout.MERGED[layout.ANALYZE_STRING],
        None,
        font=Font(name="Consolas", size=10),
        fill=INPUT_FILL,
        alignment=LEFT,
        border=Border(left=THIN, right=THIN, top=THIN, bottom=THIN),
    )
    ws[string.address].number_format = "@"  # a pasted 0-for-blank puzzle stays text, not a number
    rule = DataValidation(
        type="textLength",
        operator="lessThanOrEqual",
        formula1="400",
        allow_blank=True,
        showInputMessage=True,
        promptTitle="Puzzle string",
        prompt="The cells row by row (81 for 9x9): 1-9 a given, '.' or 0 an empty cell, A-G "
        "above 9. When filled, it is used instead of the grid.",
    )
    ws.add_data_validation(rule)
    rule.add(string.address)
    input_cells(ws, layout.ANALYZE_PARAMS, with_help=False)
    ws[names[layout.ANALYZE_GEOMETRY].address].font = Font(name="Calibri", size=11, bold=True)

    helpers = shape_helpers(ws)
    grid = names[layout.ANALYZE_GRID]
    header_row = grid.bounds[0] - 1
    heading(
        ws,
        grid.row_span(header_row),
        "Puzzle",
        font=Font(name="Calibri", size=14, bold=True, color=INK),
    )
    style_block(ws, grid, font=ANALYZE_FONT, alignment=CENTER, fill=INPUT_FILL)
    placed = absolute(names[layout.HINT_PLACED].address)
    value = f"INDEX({absolute(grid.address)},{{r}}+1,{{c}}+1)"
    by_hint = Overlay(
        f'AND(LEN({value})>0,INDEX({placed},{{r}}+1,{{c}}+1)&""={value}&"")',
        None,
        entry_font=Font(bold=False, color=render.ENTRY_INK.lstrip("#")),
    )
    grid_look(ws, grid, helpers, shaded=False, outside=WHITE_FILL, overlays=(by_hint,))
    rule = DataValidation(
        type="whole",
        operator="between",
        formula1="0",
        formula2=str(layout.MAX_SIDE),
        allow_blank=True,
        errorStyle="warning",
        showErrorMessage=True,
        errorTitle="Puzzle",
        error="A cell holds one digit: 1-9 on 9x9 (up to 16 on 16x16); 0 or blank = empty.",
    )
    ws.add_data_validation(rule)
    rule.add(grid.address)

    candidates = names[layout.CANDIDATES]
    heading(
        ws,
        candidates.row_span(header_row),
        "Candidates (pencil marks: HINT keeps them, ANALYZE starts them afresh)",
    )
    style_block(ws, candidates, font=MARK_FONT, alignment=WRAP_CENTER, number_format="@")
    grid_look(ws, candidates, helpers, shaded=False)

    _legend(ws, names[layout.LEGEND], render.LEGEND)

    for name, label, text in (
        (layout.ANALYZE_STATUS, "Status", "Ready: type or paste a puzzle, then click ANALYZE."),
        (layout.HINT_TEXT, "Hint", None),
    ):
        row, column = layout.parse_cell(names[name].address)
        cell = ws.cell(row, column - 1, label)
        cell.font, cell.alignment = HEADER_FONT, Alignment(vertical="top")
        merge(ws, layout.MERGED[name], text, font=LABEL_FONT, fill=STATUS_FILL, alignment=WRAP)
    for ref in (layout.MERGED[layout.ANALYZE_STATUS], layout.MERGED[layout.HINT_TEXT]):
        for r in range(ref.bounds[0], ref.bounds[2] + 1):
            ws.row_dimensions[r].height = 22

    report = names[layout.ANALYZE_REPORT]
    heading(
        ws,
        layout.REPORT_HEADING,
        "Report",
        fill=HEADER_FILL,
        alignment=LEFT,
    )
    style_block(ws, report, font=LABEL_FONT, alignment=LEFT)

    for name, title in (
        (layout.ANALYZE_SOLUTION, "Solution"),
        (layout.ANALYZE_SOLUTION2, "Another solution (when there are several)"),
    ):
        block = names[name]
        heading(ws, block.row_span(block.bounds[0] - 1), title)
        style_block(ws, block, font=SOLUTION_FONT, alignment=CENTER)
        grid_look(ws, block, helpers, shaded=False)
    steps = names[layout.EXPLAIN_STEPS]
    heading(
        ws,
        layout.EXPLAIN_HEADING,
        "Solution in words (EXPLAIN: every step of the rating path, numbered, as the hints "
        "word them; ANALYZE clears it)",
        fill=HEADER_FILL,
        alignment=LEFT,
    )
    style_block(ws, steps, font=LABEL_FONT, alignment=LEFT, number_format="@")
    _page(ws, landscape=True, tall=1, area=layout.PRINT_AREAS[layout.ANALYZE].address)


def _legend(ws: Worksheet, ref: layout.Ref, entries: tuple[tuple[str, str], ...]) -> None:
    """Write a colour legend into *ref* (one cell per colour) under a "Colours" label."""
    heading_row, legend_col = layout.parse_cell(ref.top_left)
    ws.cell(heading_row - 1, legend_col, "Colours").font = HEADER_FONT
    for cell, (colour, text) in zip((row[0] for row in cells(ws, ref)), entries, strict=True):
        cell.value = text
        cell.fill = PatternFill("solid", fgColor=colour.lstrip("#"))
        cell.font, cell.alignment = Font(name="Calibri", size=9, color=INK), WRAP_CENTER


def _play_looks() -> tuple[Overlay, Overlay]:
    """Return the Play grid's two looks drawn as you type: a clash, the highlighted digit.

    A digit twice in a house is drawn dark red on amber in every cell that holds it (givens
    too): a row, a column, a box (a Jigsaw's region instead), and while the shape has them an
    X-Sudoku's diagonals and a Windoku's extra boxes.  The digit named in Highlight digit is
    drawn on teal.  Both are conditional formats, so Excel, xlwings Lite and Server and
    LibreOffice draw them without Python; the shape's cells guard the houses a shape has.
    """
    grid = layout.NAMES[layout.PLAY_GRID]
    corner = absolute(grid.top_left)
    block = absolute(grid.address)
    first_row, first_col, _, _ = grid.bounds
    value = f"INDEX({block},{{r}}+1,{{c}}+1)"
    same = f'({block}&""={value}&"")'  # a typed 7 and a written "7" are one digit
    row_of, column_of = f"(ROW({block})-{first_row})", f"(COLUMN({block})-{first_col})"
    region_of = f"MID({{regions}},{row_of}*{JIGSAW_SIDE}+{column_of}+1,1)"  # "" past the 81st cell
    houses = (
        f"COUNTIF(OFFSET({corner},{{r}},0,1,{{side}}),{value})>1",
        f"COUNTIF(OFFSET({corner},0,{{c}},{{side}},1),{value})>1",
        f"AND(NOT({{jigsaw}}),COUNTIF(OFFSET({corner},INT({{r}}/{{box_rows}})*{{box_rows}},"
        f"INT({{c}}/{{box_cols}})*{{box_cols}},{{box_rows}},{{box_cols}}),{value})>1)",
        f"AND({{jigsaw}},SUMPRODUCT(EXACT({region_of},"
        f"MID({{regions}},{{r}}*{JIGSAW_SIDE}+{{c}}+1,1))*{same})>1)",
        f"AND({{diagonals}}=1,{{r}}={{c}},SUMPRODUCT(({row_of}={column_of})*{same})>1)",
        f"AND({{diagonals}}=1,{{r}}+{{c}}={{side}}-1,"
        f"SUMPRODUCT(({row_of}+{column_of}={{side}}-1)*{same})>1)",
        f"AND({{windoku}},MOD({{r}},4)<>0,MOD({{c}},4)<>0,"
        f"COUNTIF(OFFSET({corner},INT({{r}}/4)*4+1,INT({{c}}/4)*4+1,3,3),{value})>1)",
    )
    clash = f"AND(LEN({value})>0,OR({','.join(houses)}))"
    wanted = absolute(layout.NAMES[layout.PLAY_HIGHLIGHT].address)
    highlight = f'AND(LEN({wanted})>0,LEN({value})>0,{value}&""={wanted}&"")'
    ink = render.CLASH_INK.lstrip("#")
    return (
        Overlay(
            clash,
            _solid(render.CLASH_COLOUR),
            given_font=Font(bold=True, color=ink),
            entry_font=Font(color=ink),
        ),
        Overlay(highlight, _solid(render.HIGHLIGHT_COLOUR)),
    )


def _solid(colour: str) -> PatternFill:
    return PatternFill("solid", fgColor=colour.lstrip("#"), bgColor=colour.lstrip("#"))


def _highlight_cell(ws: Worksheet) -> None:
    """Draw the Highlight digit cell beside the geometry, with its label, rule and note."""
    ref = layout.NAMES[layout.PLAY_HIGHLIGHT]
    merge(
        ws,
        layout.HIGHLIGHT_LABEL,
        "Highlight digit",
        font=LABEL_FONT,
        alignment=Alignment(horizontal="right", vertical="center"),
    )
    cell = ws[ref.address]
    cell.font, cell.fill, cell.alignment = INPUT_FONT, INPUT_FILL, CENTER
    cell.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    cell.comment = Comment(
        "Type a digit (1-9; up to 16 on 16x16) and every cell of the grid holding it is "
        "shown on teal; clear it to stop. The sheet does this itself, no button needed.",
        "xlsudoku",
        width=300,
        height=80,
    )
    rule = DataValidation(
        type="whole",
        operator="between",
        formula1="1",
        formula2=str(layout.MAX_SIDE),
        allow_blank=True,
        showErrorMessage=True,
        errorTitle="Highlight digit",
        error=f"Type a digit from 1 to {layout.MAX_SIDE}, or clear the cell.",
    )
    ws.add_data_validation(rule)
    rule.add(ref.address)


def _build_play(ws: Worksheet) -> None:
    names = layout.NAMES
    _sheet_basics(
        ws,
        "xlsudoku · Play",
        "Choose a puzzle in Play from and click PLAY; type your digits into the grid and "
        "pencil marks beside it (such as 157). CHECK marks wrong entries, HINT helps, SOLVE "
        "fills the rest.",
    )
    cell_points = layout.GRID_CELL_POINTS[layout.PLAY]
    for name in (layout.PLAY_GRID, layout.PLAY_MARKS):
        size_grid(ws, names[name], cell_points)
    input_cells(ws, layout.PLAY_PARAMS, with_help=False)
    row, column = layout.parse_cell(names[layout.PLAY_GEOMETRY].address)
    ws.cell(row, column - 1, "Geometry").font = LABEL_FONT
    merge(
        ws,
        layout.MERGED[layout.PLAY_GEOMETRY],
        None,
        font=Font(name="Calibri", size=11, bold=True),
        alignment=LEFT,
    )

    helpers = shape_helpers(ws)
    grid, marks = names[layout.PLAY_GRID], names[layout.PLAY_MARKS]
    givens = names[layout.PLAY_GIVENS]
    header_row = grid.bounds[0] - 1
    heading(
        ws,
        grid.row_span(header_row),
        "Puzzle (givens bold black, your digits blue)",
        font=Font(name="Calibri", size=14, bold=True, color=INK),
    )
    fill = PatternFill("solid", fgColor=render.PLAY_FILL.lstrip("#"))
    style_block(ws, grid, font=ENTRY_FONT, alignment=CENTER, fill=fill)
    grid_look(ws, grid, helpers, shaded=False, givens=(givens, GIVEN_FONT), overlays=_play_looks())
    _highlight_cell(ws)
    # A given is locked: Excel refuses a value typed over it; CHECK and HINT put back one
    # cleared or pasted over.
    given_cell = (
        f"INDEX({absolute(givens.address)},ROW()-{grid.bounds[0] - 1},"
        f"COLUMN()-{grid.bounds[1] - 1})"
    )
    rule = DataValidation(
        type="custom",
        formula1=f"LEN({given_cell})=0",
        allow_blank=True,
        errorStyle="stop",
        showErrorMessage=True,
        errorTitle="A given",
        error="This digit is a given of the puzzle: it cannot be changed. Type into the empty "
        "cells (1-9 on 9x9, up to 16 on 16x16).",
    )
    ws.add_data_validation(rule)
    rule.add(grid.address)

    heading(
        ws,
        marks.row_span(header_row),
        "Pencil marks (yours: type the digits a cell may hold, such as 157; A-G above 9)",
    )
    style_block(ws, marks, font=MARK_FONT, alignment=WRAP_CENTER, number_format="@")
    grid_look(ws, marks, helpers, shaded=False)
    _legend(ws, names[layout.PLAY_LEGEND], render.PLAY_LEGEND)
    legend_first, _, legend_last, _ = names[layout.PLAY_LEGEND].bounds
    for row in range(legend_first, legend_last + 1):  # the rows under the grid too
        if row > grid.bounds[2]:
            ws.row_dimensions[row].height = 30

    for name, label, text in (
        (layout.PLAY_STATUS, "Status", "Ready: choose a puzzle in Play from, then click PLAY."),
        (layout.PLAY_HINT, "Hint", None),
    ):
        row, column = layout.parse_cell(names[name].address)
        cell = ws.cell(row, column - 1, label)
        cell.font, cell.alignment = HEADER_FONT, Alignment(vertical="top")
        merge(ws, layout.MERGED[name], text, font=LABEL_FONT, fill=STATUS_FILL, alignment=WRAP)
    for ref in (layout.MERGED[layout.PLAY_STATUS], layout.MERGED[layout.PLAY_HINT]):
        for r in range(ref.bounds[0], ref.bounds[2] + 1):
            ws.row_dimensions[r].height = 22
    _page(ws, landscape=True, tall=1, area=layout.PRINT_AREAS[layout.PLAY].address)


def _stats_chart(ws: Worksheet, name: str, heading_text: str, title: str) -> BarChart:
    """Return the bar chart of the Stats table *name*: its labels as categories, counts as bars."""
    first_row, first_col, last_row, _ = layout.NAMES[name].bounds
    chart = BarChart()
    chart.type = "col"
    chart.title = title
    chart.legend = None
    chart.y_axis.title = "puzzles"
    chart.x_axis.title = heading_text.lower()
    chart.y_axis.majorGridlines = None
    # openpyxl hides both axes unless told (delete="1" in the file): LibreOffice then draws none
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    counts = Reference(ws, min_col=first_col + 1, min_row=first_row, max_row=last_row)
    labels = Reference(ws, min_col=first_col, min_row=first_row, max_row=last_row)
    chart.add_data(counts, titles_from_data=False)
    # the labels are text: a string reference (openpyxl's set_categories makes a number one)
    chart.series[0].cat = AxDataSource(strRef=StrRef(f=str(labels)))
    chart.series[0].graphicalProperties.solidFill = ACCENT
    chart.series[0].graphicalProperties.line.solidFill = ACCENT
    chart.width, chart.height = layout.STATS_CHART_SIZE
    return chart


def _build_stats(ws: Worksheet) -> None:
    names = layout.NAMES
    _sheet_basics(
        ws,
        "xlsudoku · Stats",
        "Click STATS to count the Collection's puzzles per level, score and opens; the charts "
        "below redraw from the tables.",
    )
    row, column = layout.parse_cell(names[layout.STATS_STATUS].address)
    merge(
        ws,
        layout.MERGED[layout.STATS_STATUS],
        "Ready: click STATS to count the Collection.",
        font=LABEL_FONT,
        fill=STATUS_FILL,
        alignment=WRAP,
    )
    ws.row_dimensions[row].height = ws.row_dimensions[row + 1].height = 20
    for name, heading_text, title in layout.STATS_TABLES:
        ref = names[name]
        first_row, first_col, _, _ = ref.bounds
        for offset, text in enumerate((heading_text, "Puzzles")):
            cell = ws.cell(first_row - 1, first_col + offset, text)
            cell.font, cell.fill, cell.border = HEADER_FONT, HEADER_FILL, Border(bottom=MEDIUM)
            cell.alignment = LEFT if offset == 0 else CENTER
        style_block(ws, ref, font=LABEL_FONT, border=Border(bottom=HAIR))
        for label_cell, count_cell in cells(ws, ref):
            label_cell.alignment, count_cell.alignment = LEFT, CENTER
            label_cell.number_format = "@"
        if name == layout.STATS_LEVELS:
            for (label_cell, count_cell), label in zip(
                cells(ws, ref), layout.LEVEL_LABELS, strict=True
            ):
                label_cell.value, count_cell.value = label, 0
        ws.add_chart(_stats_chart(ws, name, heading_text, title), layout.STATS_CHART_ANCHORS[name])
    _page(ws, landscape=False, tall=1, area=layout.PRINT_AREAS[layout.STATS_SHEET].address)


# -- the workbook -------------------------------------------------------------------------------


def buttons_module() -> Module:
    """Return the ``Buttons`` VBA module (source from ``template/vba/Buttons.bas``, CRLF lines).

    >>> "Public Sub StartClick()" in buttons_module().source
    True
    """
    text = BUTTONS_BAS.read_text(encoding="utf-8")
    return Module(
        "Buttons", ModuleKind.PROCEDURAL, text.replace("\r\n", "\n").replace("\n", "\r\n")
    )


def vba_project_bytes() -> bytes:
    """Return the workbook's ``vbaProject.bin``: xlwings' project, our sheets and buttons."""
    project = workbook_project(xlwings_project(), list(CODE_NAMES.values()), [buttons_module()])
    return write_project(project)


def build(macros: bool = True) -> Workbook:
    """Return the template workbook (not yet saved), with its VBA project and buttons.

    *macros* False leaves both out (the xlwings Lite copy, an .xlsx: Lite runs no VBA).
    """
    wb = Workbook()
    first = wb.active
    assert first is not None
    first.title = layout.SHEETS[0]
    for title in layout.SHEETS[1:]:
        wb.create_sheet(title)
    builders = {
        layout.GENERATOR: _build_generator,
        layout.PRINT: _build_print,
        layout.ANALYZE: _build_analyze,
        layout.COLLECTION: _build_collection,
        layout.REMOVED: _build_removed,
        layout.PLAY: _build_play,
        layout.STATS_SHEET: _build_stats,
    }
    for title, builder in builders.items():
        builder(wb[title])

    for name, ref in layout.NAMES.items():
        wb.defined_names[name] = DefinedName(name, attr_text=ref.formula)

    if macros:
        shapes: dict[str, list[ButtonShape]] = {}
        for button in layout.BUTTONS:
            sizes = _Sizes(wb[button.anchor.sheet])
            shapes.setdefault(button.anchor.sheet, []).append(sizes.button(button))
        attach_macros(wb, vba_project_bytes(), shapes, CODE_NAMES)

    wb.properties.creator = "xlsudoku"
    wb.properties.title = "xlsudoku"
    wb.properties.created = FIXED_TIME
    wb.properties.modified = FIXED_TIME
    wb.active = 0
    return wb


def build_file(output: Path = DEFAULT_OUTPUT) -> Path:
    """Build the workbook and save it, deterministically, at *output*; return the path."""
    output.parent.mkdir(parents=True, exist_ok=True)
    build().save(output)
    normalize_zip(output)
    return output


def build_lite_file(output: Path = LITE_OUTPUT, code: Path = LITE_CODE) -> Path:
    """Build the xlwings Lite copy at *output*: no macros, Lite's code from *code* stored in it."""
    output.parent.mkdir(parents=True, exist_ok=True)
    register_vml_prefixes()  # the notes' VML is written the same in every process
    build(macros=False).save(output)
    add_task_pane(output, XLWINGS_LITE, lite_code(code))
    normalize_zip(output)
    return output


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m xlsudoku.template.build [--output PATH] [--refresh-xlwings]``."""
    parser = argparse.ArgumentParser(prog="python -m xlsudoku.template.build", description=__doc__)
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        help=f"where to write the workbook (default: {DEFAULT_OUTPUT})",
    )
    parser.add_argument(
        "--lite-output",
        type=Path,
        help="where to write the xlwings Lite copy (default: beside the workbook, its name "
        f"ending -lite.xlsx: {LITE_OUTPUT})",
    )
    parser.add_argument(
        "--refresh-xlwings",
        action="store_true",
        help="first copy the VBA project of the installed xlwings package's quickstart "
        "workbook to template/vba/xlwings_project.bin",
    )
    args = parser.parse_args(argv)
    if args.refresh_xlwings:
        print(f"copied {refresh_vendored_project()}")
    lite = args.lite_output or args.output.with_name(f"{args.output.stem}-lite.xlsx")
    for path in (build_file(args.output), build_lite_file(lite)):
        print(f"wrote {path}")
    if args.output == DEFAULT_OUTPUT:
        # the copy a person reads and pastes: the same text the Lite workbook stores
        (LITE_CODE / "requirements.txt").write_text(requirements(), encoding="utf-8")
        print(f"wrote {LITE_CODE / 'requirements.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
