"""One reading of a cell value on every input cell (xlsudoku/addin/params/cells.py, its rules).

Each input cell of the workbook gets a logical value, an Excel error and a number typed as
text; the button that reads the cell is pressed (headless, through openpyxl: the same actions
Excel runs) and the status must name the cell and say what it holds.  Only Show solution, a
yes/no question, reads TRUE (as Yes).
"""

import pytest
from sheets import PUZZLES

from xlsudoku.addin import actions, layout
from xlsudoku.addin.cellio import OpenpyxlIO

GRID_CELL = "grid cell"


def _inputs():
    """Yield (label, sheet, address, action) for every cell a button reads."""
    for param in layout.PARAMS:
        yield param.label, param.ref.sheet, param.ref.top_left, "start"
    tools = {layout.IMPORT_SOURCE: "import_puzzles", layout.DELETE_IDS: "delete_from_collection"}
    tools[layout.SORT_BY] = "sort_collection"
    tools[layout.RESTORE_IDS] = "restore_to_collection"
    for param in layout.TOOLS:
        yield param.label, param.ref.sheet, param.ref.top_left, tools[param.name]
    for name in (layout.ANALYZE_GEOMETRY, layout.ANALYZE_STRING):
        ref = layout.NAMES[name]
        yield name, ref.sheet, ref.top_left, "analyze"
    for name, action in ((layout.ANALYZE_GRID, "analyze"), (layout.PUZZLE_GRID, "save")):
        ref = layout.NAMES[name]
        yield f"{name} {GRID_CELL}", ref.sheet, ref.cell(0, 1), action


INPUTS = list(_inputs())
STATUS = {"analyze": layout.ANALYZE_STATUS}


def _press(wb, sheet, address, value, action):
    puzzle = PUZZLES[0][0]
    wb["Collection"].append([1, "2024-01-01 00:00:00", "9x9", PUZZLES[1][0]])
    typed = {"save": layout.PUZZLE_GRID, "analyze": layout.ANALYZE_GRID}.get(action)
    if typed and address != layout.NAMES[layout.ANALYZE_STRING].top_left:
        grid = layout.NAMES[typed]
        for index, ch in enumerate(puzzle):
            wb[grid.sheet][grid.cell(*divmod(index, 9))] = int(ch) if ch != "." else None
    wb[sheet][address] = value
    function = getattr(actions, "save_to_collection" if action == "save" else action)
    outcome = function(OpenpyxlIO(wb))
    name = STATUS.get(action, layout.STATUS)
    ref = layout.NAMES[name]
    return outcome, wb[ref.sheet][ref.top_left].value


@pytest.mark.parametrize(("label", "sheet", "address", "action"), INPUTS)
def test_a_logical_value_is_read_the_same_everywhere(wb, label, sheet, address, action):
    outcome, status = _press(wb, sheet, address, True, action)
    if label == "Show solution":  # a yes/no question: TRUE answers Yes
        assert outcome.ok, status
        return
    assert not outcome.ok and status == outcome.status
    assert address in status and "holds the logical value TRUE" in status, status


@pytest.mark.parametrize(("label", "sheet", "address", "action"), INPUTS)
def test_an_excel_error_is_named_everywhere(wb, label, sheet, address, action):
    outcome, status = _press(wb, sheet, address, "#N/A", action)
    assert not outcome.ok and address in status and "the Excel error #N/A" in status, status


@pytest.mark.parametrize(
    ("name", "text", "action"),
    [
        (layout.OPENS, " 28 ", "start"),
        (layout.TRIALS, "1,000", "start"),
        (layout.SEED, "'7", "start"),
        (layout.TIME_LIMIT, "30", "start"),
        (layout.PATTERN, "2", "start"),
        (layout.DELETE_IDS, "1", "delete_from_collection"),
    ],
)
def test_a_number_typed_as_text_is_that_number(wb, name, text, action):
    ref = layout.NAMES[name]
    outcome, status = _press(wb, ref.sheet, ref.top_left, text.lstrip("'"), action)
    assert outcome.ok, status
