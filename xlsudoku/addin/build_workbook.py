"""Build ``workbooks/xlsudoku.xlsm`` from :mod:`addin.layout` (``python -m addin.build_workbook``).

The build is deterministic: the same sources give the same bytes (fixed document timestamps
and zip member times), so a test can prove the committed workbook equals a fresh build.
Sources: :mod:`addin.layout` (every address, default, rule and label), :mod:`engine.patterns`
(the twelve pattern pictures), ``addin/vba/Buttons.bas`` (the button macros) and the VBA
project of xlwings' standalone quickstart workbook, vendored as ``addin/vba/xlwings_project.bin``
(``RunPython``; see :mod:`xlsudoku.addin.vbaproject`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from xlsudoku.addin import layout
from xlsudoku.addin.package import ButtonShape, attach_macros, normalize_zip
from xlsudoku.addin.vbaproject import (
    Module,
    ModuleKind,
    refresh_vendored_project,
    workbook_project,
    write_project,
    xlwings_project,
)
from xlsudoku.engine.patterns import PRESETS

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = ROOT / "workbooks" / "xlsudoku.xlsm"
BUTTONS_BAS = Path(__file__).resolve().parent / "vba" / "Buttons.bas"
FIXED_TIME = dt.datetime(2024, 1, 1)
CODE_NAMES = {layout.GENERATOR: "Sheet1", layout.COLLECTION: "Sheet2", layout.ANALYZE: "Sheet3"}

# -- look ---------------------------------------------------------------------------------------

INK = "1F2937"
ACCENT = "1F4E79"
MUTED = "6B7280"
INPUT_FILL = PatternFill("solid", fgColor="FFF7D6")
HEADER_FILL = PatternFill("solid", fgColor="DCE6F1")
STATUS_FILL = PatternFill("solid", fgColor="F3F4F6")
GIVEN_MARK, BLANK_MARK = "■", "□"

TITLE_FONT = Font(name="Calibri", size=18, bold=True, color=ACCENT)
NOTE_FONT = Font(name="Calibri", size=10, italic=True, color=MUTED)
HEADER_FONT = Font(name="Calibri", size=11, bold=True, color=ACCENT)
LABEL_FONT = Font(name="Calibri", size=11, color=INK)
INPUT_FONT = Font(name="Calibri", size=12, bold=True, color=INK)
HELP_FONT = Font(name="Calibri", size=9, italic=True, color=MUTED)
PUZZLE_FONT = Font(name="Calibri", size=20, bold=True, color="000000")
SOLUTION_FONT = Font(name="Calibri", size=12, color="4B5563")
PICTURE_FONT = Font(name="Consolas", size=10, color=INK)
CENTER = Alignment(horizontal="center", vertical="center")
LEFT = Alignment(horizontal="left", vertical="center")
WRAP = Alignment(horizontal="left", vertical="top", wrap_text=True)

THIN = Side(style="thin", color="9CA3AF")
THICK = Side(style="thick", color="000000")
MEDIUM = Side(style="medium", color="000000")
HAIR = Side(style="thin", color="D1D5DB")

PUZZLE_CELL_WIDTH = 6.86  # characters: 48 px, as wide as the 36 pt (48 px) rows are high
PUZZLE_ROW_HEIGHT = 36.0
SOLUTION_ROW_HEIGHT = 26.0


# -- helpers ------------------------------------------------------------------------------------


def _cells(ws: Worksheet, ref: layout.Ref) -> list[list]:  # type: ignore[type-arg]
    return [list(row) for row in ws[ref.address]] if ":" in ref.address else [[ws[ref.address]]]


def _style_block(ws: Worksheet, ref: layout.Ref, **style: object) -> None:
    for row in _cells(ws, ref):
        for cell in row:
            for key, value in style.items():
                setattr(cell, key, value)


def _grid_borders(ws: Worksheet, ref: layout.Ref, box: Side, inner: Side) -> None:
    """Draw a 9x9 grid: *box* lines around the grid and its 3x3 boxes, *inner* elsewhere."""
    for r, row in enumerate(_cells(ws, ref)):
        for c, cell in enumerate(row):
            cell.border = Border(
                left=box if c % 3 == 0 else inner,
                right=box if c == 8 else inner,
                top=box if r % 3 == 0 else inner,
                bottom=box if r == 8 else inner,
            )


def _merge(ws: Worksheet, address: str, value: object, **style: object) -> None:
    ws.merge_cells(address)
    first = ws[address.split(":")[0]]
    first.value = value
    for key, item in style.items():
        setattr(first, key, item)


def _span(ref: layout.Ref, row: int) -> str:
    """Return the address of *ref*'s columns on *row*, e.g. ``F3:N3``."""
    _, first_col, _, last_col = ref.bounds
    return f"{layout.cell_address(row, first_col)}:{layout.cell_address(row, last_col)}"


class _Geometry:
    """Column widths and row heights of one sheet, to place buttons in pixels and points."""

    def __init__(self, ws: Worksheet) -> None:
        self.ws = ws

    def width_px(self, column: int) -> int:
        dimension = self.ws.column_dimensions.get(layout.column_letters(column))
        if dimension is None or not dimension.width:
            return 64  # Excel's default column: 8.43 characters of Calibri 11
        return int(dimension.width * 7 + 0.5)  # 7 px per character of Calibri 11

    def height_px(self, row: int) -> int:
        dimension = self.ws.row_dimensions.get(row)
        height = dimension.height if dimension is not None and dimension.height else 15.0
        return round(height * 4 / 3)

    def button(self, button: layout.Button, inset_x: int = 6, inset_y: int = 6) -> ButtonShape:
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


def _number(value: float | None) -> str:
    """Return *value* as Excel formula text, whole numbers without an exponent.

    >>> _number(999_999_999_999_999), _number(0.1), _number(3600.0)
    ('999999999999999', '0.1', '3600')
    """
    if value is None:
        raise ValueError("a numeric rule needs both bounds")
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _validation(param: layout.Param) -> DataValidation:
    if param.kind is layout.Kind.CHOICE:
        rule = DataValidation(type="list", formula1='"' + ",".join(param.choices) + '"')
        error = f"{param.label} must be one of: {', '.join(param.choices)}."
    else:
        kind = "whole" if param.kind is layout.Kind.WHOLE else "decimal"
        rule = DataValidation(
            type=kind,
            operator="between",
            formula1=_number(param.minimum),
            formula2=_number(param.maximum),
        )
        number = "a whole number" if kind == "whole" else "a number"
        low, high = _number(param.minimum), _number(param.maximum)
        error = f"{param.label} must be {number} from {low} to {high}."
        if param.optional:
            error += f" Leave it blank for {param.allowed.split('blank = ')[-1]}."
    rule.allow_blank = param.optional
    rule.showErrorMessage = True
    rule.errorTitle = param.label
    rule.error = error
    rule.showInputMessage = True
    rule.promptTitle = param.label
    rule.prompt = param.allowed
    return rule


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


def _sheet_basics(ws: Worksheet, widths: dict[str, float], title: str, note: str) -> None:
    ws.sheet_view.showGridLines = False
    for letter, width in widths.items():
        ws.column_dimensions[letter].width = width
    row, column = layout.parse_cell(layout.TITLES[ws.title].address)
    heading = ws.cell(row, column, title)
    heading.font, heading.alignment = TITLE_FONT, LEFT
    ws.row_dimensions[row].height = 30
    ws.cell(row + 1, column, note).font = NOTE_FONT


def _build_generator(ws: Worksheet) -> None:
    names = layout.NAMES
    widths = dict(layout.COLUMN_WIDTHS[layout.GENERATOR])
    first_row, first_col, last_row, last_col = names[layout.PUZZLE_GRID].bounds
    for column in range(first_col, last_col + 1):
        widths[layout.column_letters(column)] = PUZZLE_CELL_WIDTH
    _sheet_basics(
        ws,
        widths,
        "xlsudoku · Sudoku generator",
        "Set the parameters and click START. SAVE TO COLLECTION keeps the puzzle; "
        "hover over a parameter for its note.",
    )
    for row in range(first_row, last_row + 1):
        ws.row_dimensions[row].height = PUZZLE_ROW_HEIGHT

    header_row = first_row - 1
    ws.row_dimensions[header_row].height = 24
    value_column = layout.parse_cell(layout.PARAMS[0].ref.address)[1]
    for offset, text in zip((-1, 0, 1), ("Parameter", "Value", "Allowed"), strict=True):
        cell = ws.cell(header_row, value_column + offset)
        cell.value, cell.font, cell.fill, cell.alignment = text, HEADER_FONT, HEADER_FILL, LEFT
    puzzle = names[layout.PUZZLE_GRID]
    _merge(
        ws,
        _span(puzzle, header_row),
        "Sudoku",
        font=Font(name="Calibri", size=16, bold=True, color=INK),
        alignment=CENTER,
    )
    stats = names[layout.STATS]
    _merge(
        ws,
        _span(stats, header_row),
        "Statistics",
        font=HEADER_FONT,
        fill=HEADER_FILL,
        alignment=LEFT,
    )

    for param in layout.PARAMS:
        row, column = layout.parse_cell(param.ref.address)
        label = ws.cell(row, column - 1, param.label)
        label.font, label.alignment = LABEL_FONT, LEFT
        value = ws.cell(row, column, param.default)
        value.font, value.fill, value.alignment = INPUT_FONT, INPUT_FILL, CENTER
        value.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
        help_cell = ws.cell(row, column + 1, param.allowed)
        help_cell.font, help_cell.alignment = HELP_FONT, LEFT
        value.comment = Comment(f"{param.label}: {param.note}", "xlsudoku", width=320, height=110)
        rule = _validation(param)
        ws.add_data_validation(rule)
        rule.add(param.ref.address)

    status = names[layout.STATUS]
    row, column = layout.parse_cell(status.address)
    ws.cell(row, column - 1, "Status").font = HEADER_FONT
    ws.cell(row, column - 1).alignment = Alignment(vertical="top")
    _merge(
        ws,
        layout.MERGED[layout.STATUS].address,
        "Ready: set the parameters, then click START.",
        font=LABEL_FONT,
        fill=STATUS_FILL,
        alignment=WRAP,
    )

    _style_block(ws, puzzle, font=PUZZLE_FONT, alignment=CENTER)
    _grid_borders(ws, puzzle, THICK, THIN)

    solution = names[layout.SOLUTION_GRID]
    s_first_row = solution.bounds[0]
    for row in range(s_first_row, solution.bounds[2] + 1):
        ws.row_dimensions[row].height = SOLUTION_ROW_HEIGHT
    _merge(
        ws,
        _span(solution, s_first_row - 1),
        "Solution (shown when Show solution is Yes)",
        font=HEADER_FONT,
        alignment=CENTER,
    )
    _style_block(ws, solution, font=SOLUTION_FONT, alignment=CENTER)
    _grid_borders(ws, solution, MEDIUM, HAIR)

    for offset, text in enumerate(layout.STATS_LABELS):
        label = ws[stats.cell(offset, 0)]
        label.value, label.font, label.alignment = text, LABEL_FONT, LEFT
        value = ws[stats.cell(offset, 1)]
        value.font, value.alignment = INPUT_FONT, LEFT
        for cell in (label, value):
            cell.border = Border(bottom=HAIR)

    ranks = names[layout.RANK_TABLE]
    r_first_row = ranks.bounds[0]
    for column, text in zip(
        range(ranks.bounds[1], ranks.bounds[3] + 1), ("Rank", "Cells"), strict=True
    ):
        cell = ws.cell(r_first_row - 1, column)
        cell.value, cell.font, cell.fill, cell.alignment = text, HEADER_FONT, HEADER_FILL, LEFT
    _style_block(ws, ranks, font=LABEL_FONT, alignment=LEFT, border=Border(bottom=HAIR))

    pictures = names[layout.PATTERN_PICTURES]
    p_first_row, p_first_col, p_last_row, p_last_col = pictures.bounds
    heading = ws.cell(
        p_first_row - 1,
        p_first_col,
        f"Patterns ({GIVEN_MARK} always a given, {BLANK_MARK} always blank)",
    )
    heading.font, heading.alignment = HEADER_FONT, LEFT
    per_row = p_last_col - p_first_col + 1
    for index in range(len(PRESETS)):
        row = p_first_row + 2 * (index // per_row)
        column = p_first_col + index % per_row
        top = layout.cell_address(row, column)
        _merge(
            ws,
            f"{top}:{layout.cell_address(row + 1, column)}",
            pattern_picture(index + 1),
            font=PICTURE_FONT,
            alignment=Alignment(horizontal="center", vertical="center", wrap_text=True),
        )

    caption = layout.PRINT_CAPTION
    opens, seed, level = (stats.cell(layout.STATS_LABELS.index(label), 1)
                          for label in ("Opens", "Seed", "Level"))  # fmt: skip
    _merge(
        ws,
        caption.address,
        f'=IF({opens}="","",{opens}&" opens · "&{level}&" · seed "&{seed})',
        font=NOTE_FONT,
        alignment=Alignment(horizontal="right", vertical="center"),
    )
    ws.row_dimensions[caption.bounds[0]].height = 20

    setup = ws.page_setup
    setup.orientation = "portrait"
    setup.paperSize = ws.PAPERSIZE_A4
    setup.fitToWidth = 1
    setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_area = layout.PRINT_AREA.address
    ws.print_options.horizontalCentered = True
    ws.page_margins.top = 1.0
    ws.oddFooter.center.text = "&A · xlsudoku"
    ws.oddFooter.center.size = 9
    ws.sheet_view.selection[0].activeCell = layout.NAMES[layout.OPENS].address
    ws.sheet_view.selection[0].sqref = layout.NAMES[layout.OPENS].address


def _build_collection(ws: Worksheet) -> None:
    header = layout.NAMES[layout.COLLECTION_HEADER]
    for offset, text in enumerate(layout.COLLECTION_COLUMNS):
        cell = ws[header.cell(0, offset)]
        cell.value, cell.font, cell.fill, cell.alignment = text, HEADER_FONT, HEADER_FILL, LEFT
        cell.border = Border(bottom=MEDIUM)
    for letter, width in layout.COLUMN_WIDTHS[layout.COLLECTION].items():
        ws.column_dimensions[letter].width = width
    _text_columns(ws, header)
    ws.freeze_panes = ws.cell(header.bounds[0] + 1, 1).coordinate
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_title_rows = f"{header.bounds[0]}:{header.bounds[0]}"
    ws.oddFooter.center.text = "&A · page &P of &N · xlsudoku"
    ws.oddFooter.center.size = 9


# Collection columns holding text Excel would otherwise turn into a number or a date on entry
# (an 81-digit puzzle with 0 for blanks, "2024-05-01 09:30:05", "4, 12*").
TEXT_COLUMNS = ("saved at", "puzzle", "solution", "ranks")
TEXT = "@"  # Excel's Text number format


def _text_columns(ws: Worksheet, header: layout.Ref) -> None:
    """Format the :data:`TEXT_COLUMNS` of the Collection as Text, whole columns below the header."""
    for name in TEXT_COLUMNS:
        column = header.bounds[1] + layout.COLLECTION_COLUMNS.index(name)
        ws.column_dimensions[layout.column_letters(column)].number_format = TEXT


def _build_analyze(ws: Worksheet) -> None:
    names = layout.NAMES
    grid = names[layout.ANALYZE_GRID]
    first_row, first_col, last_row, last_col = grid.bounds
    widths = dict(layout.COLUMN_WIDTHS[layout.ANALYZE])
    for column in range(first_col, last_col + 1):
        widths[layout.column_letters(column)] = PUZZLE_CELL_WIDTH
    _sheet_basics(
        ws,
        widths,
        "xlsudoku · Analyze a puzzle",
        "Type a puzzle into the grid (blank or 0 = empty) or paste 81 characters into Puzzle "
        "string, then click ANALYZE, HINT or SOLVE.",
    )
    string = names[layout.ANALYZE_STRING]
    row, column = layout.parse_cell(string.address)
    ws.cell(row, column - 1, "Puzzle string").font = HEADER_FONT
    _merge(
        ws,
        layout.MERGED[layout.ANALYZE_STRING].address,
        None,
        font=Font(name="Consolas", size=10),
        fill=INPUT_FILL,
        alignment=LEFT,
        border=Border(left=THIN, right=THIN, top=THIN, bottom=THIN),
        number_format=TEXT,  # a pasted 0-for-blank puzzle stays text, not a 15-digit number
    )
    rule = DataValidation(
        type="textLength",
        operator="lessThanOrEqual",
        formula1="200",
        allow_blank=True,
        showInputMessage=True,
        promptTitle="Puzzle string",
        prompt="81 characters, row by row: 1-9 a given, '.' or 0 an empty cell. "
        "When filled, it is used instead of the grid.",
    )
    ws.add_data_validation(rule)
    rule.add(string.address)

    _merge(
        ws,
        _span(grid, first_row - 1),
        "Puzzle",
        font=Font(name="Calibri", size=14, bold=True, color=INK),
        alignment=CENTER,
    )
    for r in range(first_row, last_row + 1):
        ws.row_dimensions[r].height = PUZZLE_ROW_HEIGHT
    _style_block(ws, grid, font=PUZZLE_FONT, alignment=CENTER, fill=INPUT_FILL)
    _grid_borders(ws, grid, THICK, THIN)
    rule = DataValidation(
        type="whole",
        operator="between",
        formula1="0",
        formula2="9",
        allow_blank=True,
        errorStyle="warning",
        showErrorMessage=True,
        errorTitle="Puzzle",
        error="A cell holds one digit, 1-9 (0 or blank = empty).",
    )
    ws.add_data_validation(rule)
    rule.add(grid.address)

    report = names[layout.ANALYZE_REPORT]
    r_row, r_col = layout.parse_cell(report.top_left)
    heading = ws.cell(r_row - 1, r_col, "Report")
    heading.font, heading.fill = HEADER_FONT, HEADER_FILL
    _style_block(ws, report, font=LABEL_FONT, alignment=LEFT, border=Border(bottom=HAIR))

    for name, label in ((layout.ANALYZE_STATUS, "Status"), (layout.HINT_TEXT, "Hint")):
        row, column = layout.parse_cell(names[name].address)
        cell = ws.cell(row, column - 1, label)
        cell.font, cell.alignment = HEADER_FONT, Alignment(vertical="top")
        _merge(
            ws,
            layout.MERGED[name].address,
            "Ready: type or paste a puzzle, then click ANALYZE."
            if name == layout.ANALYZE_STATUS
            else None,
            font=LABEL_FONT,
            fill=STATUS_FILL,
            alignment=WRAP,
        )
    hint_rows = layout.MERGED[layout.HINT_TEXT].bounds
    for r in range(hint_rows[0], hint_rows[2] + 1):
        ws.row_dimensions[r].height = 20

    solution = names[layout.ANALYZE_SOLUTION]
    s_first_row = solution.bounds[0]
    for r in range(s_first_row, solution.bounds[2] + 1):
        ws.row_dimensions[r].height = SOLUTION_ROW_HEIGHT
    _merge(ws, _span(solution, s_first_row - 1), "Solution", font=HEADER_FONT, alignment=CENTER)
    _style_block(ws, solution, font=SOLUTION_FONT, alignment=CENTER)
    _grid_borders(ws, solution, MEDIUM, HAIR)

    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.oddFooter.center.text = "&A · xlsudoku"
    ws.oddFooter.center.size = 9


# -- the workbook -------------------------------------------------------------------------------


def buttons_module() -> Module:
    """Return the ``Buttons`` VBA module (source from ``addin/vba/Buttons.bas``, CRLF lines).

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


def build() -> Workbook:
    """Return the template workbook (not yet saved), with its VBA project and buttons."""
    wb = Workbook()
    generator = wb.active
    assert generator is not None
    generator.title = layout.GENERATOR
    collection = wb.create_sheet(layout.COLLECTION)
    analyze = wb.create_sheet(layout.ANALYZE)
    _build_generator(generator)
    _build_collection(collection)
    _build_analyze(analyze)

    for name, ref in layout.NAMES.items():
        wb.defined_names[name] = DefinedName(name, attr_text=ref.formula)

    shapes: dict[str, list[ButtonShape]] = {}
    for button in layout.BUTTONS:
        geometry = _Geometry(wb[button.anchor.sheet])
        shapes.setdefault(button.anchor.sheet, []).append(geometry.button(button))
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m addin.build_workbook [--output PATH] [--refresh-xlwings]``; return status."""
    parser = argparse.ArgumentParser(
        prog="python -m xlsudoku.addin.build_workbook", description=__doc__
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        help=f"where to write the workbook (default: {DEFAULT_OUTPUT})",
    )
    parser.add_argument(
        "--refresh-xlwings",
        action="store_true",
        help="first copy the VBA project of the installed xlwings package's quickstart "
        "workbook to addin/vba/xlwings_project.bin",
    )
    args = parser.parse_args(argv)
    if args.refresh_xlwings:
        print(f"copied {refresh_vendored_project()}")
    path = build_file(args.output)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
