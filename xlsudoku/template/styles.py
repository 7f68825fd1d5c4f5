"""The workbook's look, for the build: fonts, colours, input cells and grids drawn by shape.

Every grid is a 16x16 block whose shape (side, boxes, diagonals) changes with a cell that names
it, so its lines and shading are conditional formats, computed by Excel (and LibreOffice) from
hidden helper cells: a table of the shapes and the four values looked up for the named shape.
One conditional format per combination of a cell's dark edges (box or grid borders) and its
shading; the combinations exclude each other, so every renderer draws the same thing whatever
the order it applies them in.  The cells outside the shape keep no line at all.

Only :mod:`xlsudoku.template.build` uses this module (openpyxl is not needed at run time).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from xlsudoku.addin import layout
from xlsudoku.engine.grid import JIGSAW_LAYOUTS
from xlsudoku.xlsm.cells import absolute, column_number

INK = "1F2937"
ACCENT = "1F4E79"
MUTED = "6B7280"
INPUT_FILL = PatternFill("solid", fgColor="FFF7D6")
HEADER_FILL = PatternFill("solid", fgColor="DCE6F1")
STATUS_FILL = PatternFill("solid", fgColor="F3F4F6")
WHITE_FILL = PatternFill("solid", fgColor="FFFFFF", bgColor="FFFFFF")
PICKED_FILL = PatternFill("solid", fgColor="FFD966", bgColor="FFD966")
GIVEN_MARK, BLANK_MARK = "■", "□"

TITLE_FONT = Font(name="Calibri", size=18, bold=True, color=ACCENT)
NOTE_FONT = Font(name="Calibri", size=10, italic=True, color=MUTED)
HEADER_FONT = Font(name="Calibri", size=11, bold=True, color=ACCENT)
LABEL_FONT = Font(name="Calibri", size=11, color=INK)
INPUT_FONT = Font(name="Calibri", size=12, bold=True, color=INK)
HELP_FONT = Font(name="Calibri", size=9, italic=True, color=MUTED)
PICTURE_FONT = Font(name="Consolas", size=10, color=INK)
FIXED_FONT = Font(name="Courier New", size=9, color=INK)
CENTER = Alignment(horizontal="center", vertical="center")
LEFT = Alignment(horizontal="left", vertical="center")
WRAP = Alignment(horizontal="left", vertical="top", wrap_text=True)
WRAP_CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)

THIN = Side(style="thin", color="9CA3AF")
HAIR = Side(style="thin", color="D1D5DB")
BOX_LINE = Side(style="thin", color="000000")
CELL_LINE = Side(style="thin", color="A6A6A6")
NO_LINE = Side(style=None)
SHADE = "EDEDED"  # every other box of a printed grid
DIAGONAL_SHADE = "E4DFEC"  # the diagonals of an X-Sudoku


# -- cells --------------------------------------------------------------------------------------


def cells(ws: Worksheet, ref: layout.Ref) -> list[list]:  # type: ignore[type-arg]
    """Return the cells of *ref* as rows (one row of one cell for a single address)."""
    return [list(row) for row in ws[ref.address]] if ":" in ref.address else [[ws[ref.address]]]


def style_block(ws: Worksheet, ref: layout.Ref, **style: object) -> None:
    """Set each of *style*'s attributes (font, fill, ...) on every cell of *ref*."""
    for row in cells(ws, ref):
        for cell in row:
            for key, value in style.items():
                setattr(cell, key, value)


def merge(ws: Worksheet, ref: layout.Ref, value: object, **style: object) -> None:
    """Merge *ref*, put *value* in its first cell and style that cell."""
    ws.merge_cells(ref.address)
    first = ws[ref.top_left]
    first.value = value
    for key, item in style.items():
        setattr(first, key, item)


def number_text(value: float | None) -> str:
    """Return *value* as Excel formula text, whole numbers without an exponent.

    >>> number_text(999_999_999_999_999), number_text(0.1), number_text(3600.0)
    ('999999999999999', '0.1', '3600')
    """
    if value is None:
        raise ValueError("a numeric rule needs both bounds")
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def validation(param: layout.Param) -> DataValidation | None:
    """Return the data validation of *param*'s cell (None for free text)."""
    if param.kind in (layout.Kind.TEXT, layout.Kind.SCORE):
        return None  # a score range is checked by Python, which names what is wrong
    if param.kind in (layout.Kind.CHOICE, layout.Kind.PATTERN):
        listed = layout.LISTS.get(param.name)
        source = (
            listed.formula.split("!", 1)[1]
            if listed is not None
            else '"' + ",".join(param.choices) + '"'
        )
        rule = DataValidation(type="list", formula1=f"={source}" if listed else source)
        error = f"{param.label} must be one of the dropdown's entries."
        # A pattern may also be a mask typed by hand: the dropdown offers, Python checks.
        # A Jigsaw's own layout is typed too (9x9-jigsaw: and 81 characters): Python checks it.
        jigsaw = param.name in (layout.GEOMETRY, layout.ANALYZE_GEOMETRY)
        rule.showErrorMessage = param.kind is layout.Kind.CHOICE and not jigsaw
    elif param.kind is layout.Kind.BUDGET:
        # seconds in range, or kind:amount (checked by Python, which names what is wrong)
        cell = param.ref.top_left
        low, high = number_text(param.minimum), number_text(param.maximum)
        rule = DataValidation(
            type="custom",
            formula1=f"OR(AND(ISNUMBER({cell}),{cell}>={low},{cell}<={high}),"
            f'ISNUMBER(SEARCH(":",{cell})))',
        )
        error = f"{param.label} must be seconds from {low} to {high}, or cpu:SECONDS or work:UNITS."
        if param.optional:
            error += f" Leave it blank for {param.allowed.split('blank = ')[-1]}."
        rule.showErrorMessage = True
    else:
        kind = "whole" if param.kind is layout.Kind.WHOLE else "decimal"
        rule = DataValidation(
            type=kind,
            operator="between",
            formula1=number_text(param.minimum),
            formula2=number_text(param.maximum),
        )
        number = "a whole number" if kind == "whole" else "a number"
        low, high = number_text(param.minimum), number_text(param.maximum)
        error = f"{param.label} must be {number} from {low} to {high}."
        if param.optional:
            error += f" Leave it blank for {param.allowed.split('blank = ')[-1]}."
        rule.showErrorMessage = True
    rule.allow_blank = param.optional
    rule.errorTitle = param.label
    rule.error = error
    rule.showInputMessage = True
    rule.promptTitle = param.label
    rule.prompt = (param.allowed or param.label)[:250]
    return rule


def input_cells(ws: Worksheet, params: tuple[layout.Param, ...], with_help: bool = True) -> None:
    """Draw parameter cells: the label to the left, the value, its help, note and validation."""
    for param in params:
        row, column = layout.parse_cell(param.ref.address)
        label = ws.cell(row, column - 1, param.label)
        label.font, label.alignment = LABEL_FONT, LEFT
        value_style = {
            "font": INPUT_FONT,
            "fill": INPUT_FILL,
            "alignment": CENTER if param.kind is not layout.Kind.TEXT else WRAP,
            "border": Border(left=THIN, right=THIN, top=THIN, bottom=THIN),
        }
        if param.width > 1:
            block = layout.Ref(
                param.ref.sheet,
                f"{param.ref.address}:{layout.cell_address(row, column + param.width - 1)}",
            )
            merge(ws, block, param.default, **value_style)
            style_block(ws, block, border=value_style["border"])
        else:
            cell = ws.cell(row, column, param.default)
            for key, item in value_style.items():
                setattr(cell, key, item)
        value = ws[param.ref.address]
        if param.kind in (layout.Kind.TEXT, layout.Kind.PATTERN, layout.Kind.SCORE):
            value.number_format = "@"  # typed as written: Excel would read 7-8 as a date
        if with_help and param.allowed:
            help_cell = ws.cell(row, column + param.width, param.allowed)
            help_cell.font, help_cell.alignment = HELP_FONT, LEFT
        value.comment = Comment(f"{param.label}: {param.note}", "xlsudoku", width=340, height=150)
        rule = validation(param)
        if rule is not None:
            ws.add_data_validation(rule)
            rule.add(param.ref.address)


def heading(ws: Worksheet, ref: layout.Ref, text: str, **style: object) -> None:
    """Merge *ref* (a row over a block) and write a heading into it, from the left."""
    merge(ws, ref, text, **({"font": HEADER_FONT, "alignment": LEFT} | style))


# -- grids drawn by shape -----------------------------------------------------------------------


class Shape(NamedTuple):
    """The addresses of a sheet's hidden shape cells, as formulas use them (absolute).

    Attributes:
        side: the side of the named shape (9 when the name is not one of the shapes).
        box_rows: the rows of its rectangular box.
        box_cols: the columns of its rectangular box.
        diagonals: 1 for an X-Sudoku, else 0.
        regions: a Jigsaw's 81 region characters, row by row; empty for any other shape.
    """

    side: str
    box_rows: str
    box_cols: str
    diagonals: str
    regions: str

    def jigsaw(self) -> str:
        """Return the condition that holds while the named shape is a Jigsaw."""
        return f"LEN({self.regions})={JIGSAW_CELLS}"

    def region_at(self, row: str, column: str) -> str:
        """Return the region character of the cell at 0-based *row*, *column* (formulas)."""
        return f"MID({self.regions},({row})*{JIGSAW_SIDE}+({column})+1,1)"


JIGSAW_SIDE = 9
JIGSAW_CELLS = JIGSAW_SIDE * JIGSAW_SIDE


def regions_formula(source: str) -> str:
    """Return the formula of the regions cell: a Jigsaw's layout named in *source*, or "".

    A published layout's name (the engine's :data:`JIGSAW_LAYOUTS`) is looked up; anything
    else after ``9x9-jigsaw:`` is taken as the 81 characters themselves (the buttons check
    them; the grid only draws a layout of 81 characters).

    >>> formula = regions_formula("$C$4")
    >>> formula.startswith('=IF(LOWER(LEFT(SUBSTITUTE($C$4," ",""),11))<>"9x9-jigsaw:",""')
    True
    >>> JIGSAW_LAYOUTS["steps"] in formula
    True
    """
    compact = f'SUBSTITUTE({source}," ","")'
    prefix = layout.JIGSAW_PREFIX
    rest = f"MID({compact},{len(prefix) + 1},200)"
    names = ",".join(f'"{name}"' for name in JIGSAW_LAYOUTS)
    texts = ",".join(f'"{text}"' for text in JIGSAW_LAYOUTS.values())
    return (
        f'=IF(LOWER(LEFT({compact},{len(prefix)}))<>"{prefix}","",'
        f"IFERROR(INDEX({{{texts}}},MATCH({rest},{{{names}}},0)),{rest}))"
    )


def shape_helpers(ws: Worksheet) -> Shape:
    """Write the sheet's hidden shape table and helper cells; return the helpers' addresses.

    The helpers hold the side, box rows, box columns and 1/0 for diagonals of the shape named
    in :data:`layout.SHAPE_SOURCE` (9x9 when the name is not one of the shapes, as a Jigsaw's
    is), and the regions of a Jigsaw (:func:`regions_formula`).
    """
    table = layout.SHAPE_TABLE[ws.title]
    for row, (name, spec) in zip(cells(ws, table), layout.GEOMETRIES.items(), strict=True):
        for cell, value in zip(row, (name, *spec), strict=True):
            cell.value = int(value) if isinstance(value, bool) else value
    first_row, first_col, last_row, _ = table.bounds
    column_of = layout.column_letters
    names = absolute(f"{column_of(first_col)}{first_row}:{column_of(first_col)}{last_row}")
    source = layout.SHAPE_SOURCE[ws.title]
    helpers = []
    for offset, cell in enumerate(cells(ws, layout.SHAPE_CELLS[ws.title])[0]):
        column = column_of(first_col + 1 + offset)
        values = absolute(f"{column}{first_row}:{column}{last_row}")
        cell.value = f"=INDEX({values},IFERROR(MATCH({source},{names},0),1))"
        helpers.append(absolute(cell.coordinate))
    regions = ws[layout.REGION_CELLS[ws.title].address]
    regions.value = regions_formula(source)
    first, last = layout.HIDDEN_COLUMNS[ws.title]
    for number in range(column_number(first), column_number(last) + 1):
        ws.column_dimensions[layout.column_letters(number)].hidden = True
    side, box_rows, box_cols, diagonals = helpers
    return Shape(side, box_rows, box_cols, diagonals, absolute(regions.coordinate))


@dataclass(frozen=True)
class Overlay:
    """A look a grid's conditional formats draw over a cell while *condition* holds.

    Attributes:
        condition: an Excel formula (without ``=``) with the placeholders ``{r}`` and ``{c}``
            (the cell's row and column in the grid, from 0), ``{side}``, ``{box_rows}``,
            ``{box_cols}``, ``{diagonals}``, ``{regions}`` (the shape's helper cells),
            ``{jigsaw}`` and ``{windoku}`` (conditions: the shape is a Jigsaw, a Windoku).
        fill: the cell's fill while it holds (None: the cell's own).
        given_font: the font of a given then (None: the given's own).
        entry_font: the font of any other digit then (None: the cell's own).
    """

    condition: str
    fill: PatternFill | None
    given_font: Font | None = None
    entry_font: Font | None = None


def grid_look(
    ws: Worksheet,
    ref: layout.Ref,
    helpers: Shape,
    shaded: bool,
    outside: PatternFill | None = None,
    givens: tuple[layout.Ref, Font] | None = None,
    overlays: Sequence[Overlay] = (),
) -> None:
    """Draw *ref* (a 16x16 block) as a grid of the shape in *helpers*, with conditional formats.

    Box edges (a Jigsaw's region edges) and the grid's outline are black, the other cell
    edges gray; *shaded* fills every other box (not a Jigsaw's: its edges draw the regions)
    and an X-Sudoku's diagonals and a Windoku's extra boxes, for print.
    *outside* fills the cells beyond the shape (covering a static fill such as the input
    colour).  *givens* is a block of the same size and a font: a cell whose twin in that block
    holds a digit is drawn in the font (each rule carries it, since LibreOffice applies one
    rule per cell).  *overlays* are looks drawn over all that when their condition holds, the
    first that holds winning (:class:`Overlay`); each rule carries its borders too, for the same
    reason.
    """
    side, box_rows, box_cols, diagonals, _ = helpers
    first_row, first_col, _, _ = ref.bounds
    r, c = f"(ROW()-{first_row})", f"(COLUMN()-{first_col})"
    inside = f"{r}<{side},{c}<{side}"
    jigsaw = helpers.jigsaw()
    here = helpers.region_at(r, c)
    # A Jigsaw's region edge: the cell's region differs from its neighbour's (case counts, as
    # in the engine's layouts); IF, not OR, since MID cannot look before the first cell.
    left_edge = f"IF({c}=0,TRUE,NOT(EXACT({here},{helpers.region_at(r, f'{c}-1')})))"
    top_edge = f"IF({r}=0,TRUE,NOT(EXACT({here},{helpers.region_at(f'{r}-1', c)})))"
    edges = (
        f"IF({jigsaw},{left_edge},MOD({c},{box_cols})=0)",
        f"IF({jigsaw},{top_edge},MOD({r},{box_rows})=0)",
        f"{c}={side}-1",
        f"{r}={side}-1",
    )
    on_diagonal = f"AND({diagonals}=1,OR({r}={c},{r}+{c}={side}-1))"
    windoku = "FALSE"
    source = layout.SHAPE_SOURCE.get(ws.title)
    if source is not None:  # Windoku's extra boxes: rows and columns 1-3 and 5-7 from 0
        sheet, mark, cell = source.rpartition("!")
        named = f"{sheet}{mark}{absolute(cell)}"
        windoku = f'{named}="9x9-windoku"'
        on_diagonal = f"OR({on_diagonal},AND({windoku},MOD({r},4)<>0,MOD({c},4)<>0))"
    placeholders = {
        "r": r,
        "c": c,
        "side": side,
        "box_rows": box_rows,
        "box_cols": box_cols,
        "diagonals": diagonals,
        "regions": helpers.regions,
        "jigsaw": jigsaw,
        "windoku": windoku,
    }
    fonts: list[tuple[str, Font | None, bool]] = [("TRUE", None, False)]
    if givens is not None:
        block, font = givens
        given = f"LEN(INDEX({absolute(block.address)},{r}+1,{c}+1))>0"
        fonts = [(given, font, True), (f"NOT({given})", None, False)]
    looks: list[tuple[str, Overlay | None]] = []
    earlier: list[str] = []
    for overlay in overlays:
        test = overlay.condition.format(**placeholders)
        looks.append((",".join([*(f"NOT({e})" for e in earlier), test]), overlay))
        earlier.append(test)
    looks.append((",".join(f"NOT({e})" for e in earlier) or "TRUE", None))
    fills: list[tuple[str, PatternFill | None]] = [("TRUE", None)]
    if shaded:
        shade = f"AND(NOT({jigsaw}),MOD(INT({r}/{box_rows})+INT({c}/{box_cols}),2)=1)"
        fills = [
            (on_diagonal, PatternFill("solid", fgColor=DIAGONAL_SHADE, bgColor=DIAGONAL_SHADE)),
            (f"NOT({on_diagonal}),{shade}", PatternFill("solid", fgColor=SHADE, bgColor=SHADE)),
            (f"NOT({on_diagonal}),NOT({shade})", None),
        ]
    for dark in itertools.product((True, False), repeat=4):
        left, top, right, bottom = dark
        conditions = [inside] + [
            test if on else f"NOT({test})" for test, on in zip(edges, dark, strict=True)
        ]
        border = Border(
            left=BOX_LINE if left else CELL_LINE,
            top=BOX_LINE if top else CELL_LINE,
            right=BOX_LINE if right else NO_LINE,
            bottom=BOX_LINE if bottom else NO_LINE,
        )
        for (condition, fill), (typed, font, is_given), (look, overlay) in itertools.product(
            fills, fonts, looks
        ):
            tests = [*conditions, condition] + ([typed] if givens is not None else [])
            if overlay is not None:
                fill = overlay.fill or fill
                font = (overlay.given_font if is_given else overlay.entry_font) or font
            formula = "AND(" + ",".join([*tests, look]) + ")"
            rule = FormulaRule(formula=[formula], border=border, fill=fill, font=font)
            ws.conditional_formatting.add(ref.address, rule)
    if outside is not None:
        rule = FormulaRule(formula=[f"NOT(AND({inside}))"], fill=outside)
        ws.conditional_formatting.add(ref.address, rule)


def size_grid(ws: Worksheet, ref: layout.Ref, points: float, widths: bool = True) -> None:
    """Give every column (if *widths*) and row of *ref* the size *points*."""
    from xlsudoku.xlsm.cells import character_width

    first_row, first_col, last_row, last_col = ref.bounds
    if widths:
        for column in range(first_col, last_col + 1):
            ws.column_dimensions[layout.column_letters(column)].width = character_width(points)
    for row in range(first_row, last_row + 1):
        ws.row_dimensions[row].height = points
