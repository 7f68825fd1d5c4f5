"""xlsudoku.addin.cellio on the committed workbook: OpenpyxlIO, and XlwingsIO on the remote Book."""

import openpyxl
import pytest
import remote_book

from xlsudoku.addin import layout
from xlsudoku.addin.cellio import MissingPart, OpenpyxlIO, XlwingsIO


@pytest.fixture
def wb(template_path):
    return openpyxl.load_workbook(template_path, keep_vba=True)


@pytest.fixture(scope="session")
def template_path():
    from conftest import ROOT

    return ROOT / "workbooks" / "xlsudoku.xlsm"


@pytest.fixture(params=["openpyxl", "xlwings"])
def io_of(request):
    """Return a function making either adapter over an openpyxl workbook's contents."""

    def make(workbook):
        if request.param == "openpyxl":
            return OpenpyxlIO(workbook)
        return XlwingsIO(remote_book.book(workbook))

    return make


def test_reads_template_defaults(wb, io_of):
    io = io_of(wb)
    assert io.read("Opens") == 26
    assert io.read("Symmetry") == "rotate180"
    assert io.read("Seed") is None
    assert io.read("PuzzleGrid") == [[None] * 16 for _ in range(16)]
    stats = io.read("Stats")
    assert [row[0] for row in stats] == list(layout.STATS_LABELS)


def test_reads_error_values_and_formulas_as_text(wb, io_of):
    wb["Generator"]["C6"] = "#N/A"  # openpyxl stores it as an error cell
    wb["Generator"]["C7"] = "=1+1"
    io = io_of(wb)
    assert wb["Generator"]["C6"].data_type == "e"
    assert io.read("Opens") == "#N/A"
    if isinstance(io, OpenpyxlIO):
        assert io.read("Trials") == "=1+1"


def test_require_passes_on_the_template(wb, io_of):
    io_of(wb).require(layout.NAMES)


def test_missing_sheet_is_named(wb, io_of):
    wb.remove(wb["Collection"])
    with pytest.raises(MissingPart) as caught:
        io_of(wb).require(layout.NAMES)
    assert str(caught.value) == (
        "The workbook has no sheet 'Collection' (its sheets: Generator, Print, Analyze, "
        "Removed, Play, Stats); restore it from workbooks/xlsudoku.xlsm."
    )


def test_renamed_sheet_is_named(wb, io_of):
    wb["Analyze"].title = "Check"
    with pytest.raises(MissingPart) as caught:
        io_of(wb).require([layout.ANALYZE_GRID, layout.OPENS])
    sheets = "Generator, Print, Check, Collection, Removed, Play, Stats"
    assert f"no sheet 'Analyze' (its sheets: {sheets})" in str(caught.value)


def test_missing_defined_name_is_named(wb, io_of):
    del wb.defined_names["Opens"]
    with pytest.raises(MissingPart) as caught:
        io_of(wb).require(layout.NAMES)
    assert str(caught.value) == (
        "The workbook has no defined name 'Opens' (Generator!C6); restore it from "
        "workbooks/xlsudoku.xlsm."
    )


def test_openpyxl_write_read_clear_round_trip(wb):
    io = OpenpyxlIO(wb)
    rows = [[(r * 16 + c) % 16 + 1 for c in range(16)] for r in range(16)]
    io.write("PuzzleGrid", rows)
    assert io.read("PuzzleGrid") == rows
    assert wb["Generator"]["F4"].value == 1 and wb["Generator"]["U19"].value == 16
    io.write("Status", "=looks like a formula")
    assert wb["Generator"][layout.NAMES[layout.STATUS].address].data_type == "s"
    io.write("Stats", [["Opens", ""]])  # a short block: the rest is blanked
    assert io.read("Stats")[0] == ["Opens", None] and io.read("Stats")[1] == [None, None]
    io.clear("PuzzleGrid")
    assert io.read("PuzzleGrid") == [[None] * 16 for _ in range(16)]


def test_openpyxl_append_rows_only_adds(wb):
    io = OpenpyxlIO(wb)
    assert io.table_rows("CollectionHeader") == []
    assert io.append_rows("CollectionHeader", [[1, "a"], [2, "b"]]) == 2
    ws = wb["Collection"]
    ws["C9"] = "far below"  # a stray cell further down: new rows go under it
    assert io.append_rows("CollectionHeader", [[3, "123"]]) == 10
    got = io.table_rows("CollectionHeader")
    assert [row[:3] for row in got] == [
        [1, "a", None],
        [2, "b", None],
        *[[None, None, None]] * 5,
        [None, None, "far below"],
        [3, "123", None],
    ]
    assert ws["B10"].data_type == "s"  # text stays text
    assert [c.value for c in ws[1]] == list(layout.COLLECTION_COLUMNS)


def test_openpyxl_fill(wb):
    io = OpenpyxlIO(wb)
    io.fill("AnalyzeGrid", "#F8CBAD", [(0, 0), (8, 8)])
    ws = wb["Analyze"]
    assert ws["C6"].fill.fgColor.rgb == "FFF8CBAD" and ws["K14"].fill.fgColor.rgb == "FFF8CBAD"
    assert ws["D6"].fill.fgColor.rgb == "00FFF7D6"
    io.fill("AnalyzeGrid", None, None)
    assert ws["C6"].fill.fill_type is None


def test_xlwings_writes_become_actions(wb):
    book = remote_book.book(wb)
    io = XlwingsIO(book)
    io.write("PuzzleGrid", [[1] * 16] * 16)
    io.write("Status", "0.5")  # Excel would read it as a number: kept as text
    io.clear("SolutionGrid")
    io.fill("AnalyzeGrid", "#F8CBAD", [(1, 2)])
    actions = book.json()["actions"]
    assert [a["func"] for a in actions] == ["setValues", "setValues", "setValues", "setRangeColor"]
    cells = remote_book.writes(actions)
    assert cells[("Generator", "F4")] == 1 and cells[("Generator", "U19")] == 1
    assert cells[("Generator", layout.NAMES[layout.STATUS].address)] == "'0.5"
    assert cells[("Generator", "F22")] == "" and cells[("Generator", "U37")] == ""
    colour = actions[3]
    analyze = layout.SHEETS.index("Analyze")
    assert (colour["sheet_position"], colour["start_row"], colour["start_column"]) == (
        analyze,
        6,
        4,
    )
    assert colour["args"] == ["#F8CBAD"]


def test_xlwings_append_rows_goes_below_existing_rows(wb):
    ws = wb["Collection"]
    ws.append([1, "2024-01-01 10:00:00", "puzzle"])
    ws.append([2, "2024-01-01 10:01:00", "other"])
    book = remote_book.book(wb)
    io = XlwingsIO(book)
    assert [row[0] for row in io.table_rows("CollectionHeader")] == [1, 2]
    assert io.append_rows("CollectionHeader", [[3, "2024-01-02 09:00:00", "new"]]) == 4
    (action,) = book.json()["actions"]
    assert (action["start_row"], action["start_column"], action["column_count"]) == (
        3,
        0,
        len(layout.COLLECTION_COLUMNS),
    )
    assert action["values"][0][:3] == [3, "'2024-01-02 09:00:00", "new"]


def test_openpyxl_replace_rows_and_heights(wb):
    io = OpenpyxlIO(wb)
    io.append_rows("CollectionHeader", [[1, "a"], [2, "b"], [3, "c"]], [30, 31, 32])
    ws = wb["Collection"]
    assert [ws.row_dimensions[r].height for r in (2, 3, 4)] == [30, 31, 32]
    io.replace_rows("CollectionHeader", [[3, "c"]], [40])
    assert [row[:2] for row in io.table_rows("CollectionHeader")] == [[3, "c"]]
    assert ws["A3"].value is None and ws["B4"].value is None
    assert ws.row_dimensions[2].height == 40
    io.replace_rows("CollectionHeader", [])
    assert io.table_rows("CollectionHeader") == []


def test_set_sizes(wb):
    from xlsudoku.xlsm.cells import character_width

    io = OpenpyxlIO(wb)
    io.set_sizes("PrintGrid", [42.0] * 12 + [0] * 4, [42.0] * 12 + [0] * 4)
    ws = wb["Print"]
    assert ws.column_dimensions["B"].width == character_width(42.0)
    assert (
        ws.column_dimensions["M"].width == character_width(42.0)
        and not ws.column_dimensions["M"].hidden
    )
    assert ws.column_dimensions["N"].hidden and ws.row_dimensions[14].hidden
    assert ws.row_dimensions[13].height == 42.0

    book = remote_book.book(wb)
    XlwingsIO(book).set_sizes("PrintGrid", [42.0] * 12 + [0] * 4, [42.0] * 12 + [0] * 4)
    # Lite and Server keep the template's sizes: the xlwings Server client cannot set them
    assert book.json()["actions"] == []


@pytest.mark.parametrize(
    ("name", "refers_to", "message"),
    [
        ("Status", "Collection!$C$13", "'Status' points at Collection!"),
        ("PuzzleGrid", "Generator!$F$4:$T$19", "16x15 cells, not 16x16 (Generator!F4:U19)"),
        ("Stats", "Collection!$A$2:$B$11", "'Stats' points at Collection!"),
        (
            "Status",
            "Generator!$C$6",
            "'Status' points at Generator!$C$6, over the cells of 'Opens'",
        ),
        ("Stats", "Generator!$B$4:$C$14", "'Stats' points at Generator!$B$4:$C$14, over the cells"),
        ("HighestId", "Generator!$W$5", "'HighestId' points at Generator!$W$5, over the cells of"),
        ("SolutionGrid", "Generator!$F$5:$U$20", "'SolutionGrid' points at Generator!$F$5:$U$20"),
    ],
)
def test_misplaced_name_is_named_before_anything_is_written(wb, io_of, name, refers_to, message):
    from openpyxl.workbook.defined_name import DefinedName

    del wb.defined_names[name]
    wb.defined_names[name] = DefinedName(name, attr_text=refers_to)
    io = io_of(wb)
    with pytest.raises(MissingPart) as caught:
        io.require(layout.NAMES)
    assert message in str(caught.value) and "Nothing was written" in str(caught.value)


def test_the_template_s_names_overlap_nowhere(wb, io_of):
    io_of(wb).require(layout.NAMES)  # every name where the template put it: nothing to say
