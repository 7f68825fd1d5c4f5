"""A save of values and sizes writes only those into the file: every other part as it was."""

import io
import random
import re
import zipfile

import openpyxl
import pytest
from conftest import ROOT

from xlsudoku.addin import headless
from xlsudoku.xlsm import workbook as workbook_file
from xlsudoku.xlsm.patch import Sizes, patch_cells

TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"


def _book(
    rows="", calc='<calcPr calcId="1"/>', cols='<cols><col min="2" max="5" width="7"/></cols>'
):
    """Return a two-sheet package: Data (with *rows* and *cols*) and Other."""
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="A1:C3"/>{cols}<sheetData>{rows}</sheetData></worksheet>'
    )
    other = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetData><row r="1"><c r="A1"><f>Data!A1*2</f><v>4</v></c>'
        '<c r="B1"><f>A1+1</f><v>5</v></c></row></sheetData></worksheet>'
    )
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    workbook = (
        f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
        '<sheet name="Data" sheetId="1" r:id="rId1"/><sheet name="Other" sheetId="2" r:id="rId2"/>'
        f"</sheets>{calc}</workbook>"
    )
    kind = f"{rel}/worksheet"
    rels = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{kind}" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{kind}" Target="worksheets/sheet2.xml"/>'
        "</Relationships>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/workbook.xml", workbook)
        archive.writestr("xl/_rels/workbook.xml.rels", rels)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
        archive.writestr("xl/worksheets/sheet2.xml", other)
        archive.writestr("xl/vbaProject.bin", b"\x00project")
    return buffer.getvalue()


def _part(data, name):
    return zipfile.ZipFile(io.BytesIO(data)).read(name).decode()


ROWS = (
    '<row r="1" spans="1:3"><c r="A1" s="3"><v>2</v></c><c r="C1" t="s"><v>0</v></c></row>'
    '<row r="3" ht="20" customHeight="1"><c r="B3" s="4" t="inlineStr"><is><t>x</t></is></c></row>'
)


def test_values_go_into_their_cells_in_order_keeping_styles():
    data = patch_cells(
        _book(ROWS),
        {"Data": {(1, 1): 7.5, (1, 2): True, (2, 1): "a <b>", (3, 2): None, (4, 4): 3}},
    )
    sheet = _part(data, "xl/worksheets/sheet1.xml")
    assert (
        '<row r="1"><c r="A1" s="3" t="n"><v>7.5</v></c><c r="B1" t="b"><v>1</v></c>'
        '<c r="C1" t="s"><v>0</v></c></row>'
        '<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">a &lt;b&gt;</t></is></c>'
        '</row><row r="3" ht="20" customHeight="1"><c r="B3" s="4"/></row>'
        '<row r="4"><c r="D4" t="n"><v>3</v></c></row>'
    ) in sheet
    assert '<dimension ref="A1:D4"/>' in sheet
    assert _part(data, "xl/vbaProject.bin") == "\x00project"


def test_every_formula_is_calculated_on_load_and_stale_caches_are_dropped():
    data = patch_cells(_book(ROWS), {"Data": {(1, 1): 9}})
    assert 'fullCalcOnLoad="1"' in _part(data, "xl/workbook.xml")
    other = _part(data, "xl/worksheets/sheet2.xml")
    # A1 reads the changed sheet: its cached 4 is gone; B1 reads only its own sheet, but that
    # sheet's A1 changed with it, so its cache goes too (the row is rewritten as a whole)
    assert '<c r="A1"><f>Data!A1*2</f></c>' in other
    unchanged = patch_cells(_book(ROWS), {})
    assert _part(unchanged, "xl/worksheets/sheet2.xml").count("<v>") == 2


def test_sizes_split_a_column_range_and_set_row_heights():
    sizes = Sizes(columns={3: (9.95, False), 8: (0.0, True)}, rows={2: (56.0, False), 3: (0, True)})
    data = patch_cells(_book(ROWS), {"Data": {}}, {"Data": sizes})
    sheet = _part(data, "xl/worksheets/sheet1.xml")
    assert (
        '<cols><col min="2" max="2" width="7"/><col min="3" max="3" width="9.95" '
        'customWidth="1"/><col min="4" max="5" width="7"/><col min="8" max="8" hidden="1"/>'
        "</cols>"
    ) in sheet
    assert '<row r="2" ht="56" customHeight="1"></row>' in sheet
    assert '<row r="3" hidden="1">' in sheet


@pytest.mark.parametrize(
    "values, book",
    [
        ({"Data": {(1, 1): object()}}, _book(ROWS)),  # a value of another type
        ({"Data": {(1, 1): 10**400}}, _book(ROWS)),  # past a double's range
        ({"Data": {(1, 1): "bell \x07"}}, _book(ROWS)),  # not allowed in XML
        ({"Data": {(1, 1): float("nan")}}, _book(ROWS)),
        ({"Nowhere": {(1, 1): 1}}, _book(ROWS)),
        ({"Data": {(1, 1): 1}}, _book(ROWS, calc="")),  # no calcPr to ask for a calculation
        ({"Data": {(1, 1): 1}}, _book('<row r="2"/><row r="1"/>')),  # rows out of order
        ({"Data": {(1, 1): 1}}, _book('<row r="1"><c r="B1"/><c r="A1"/></row>')),
        ({"Data": {(1, 1): 1}}, _book('<row><c r="A1"/></row>')),  # a row without a number
        ({"Data": {(1, 1): 1}}, _book("<!-- note -->" + ROWS)),
    ],
)
def test_what_cannot_be_patched_is_left_to_openpyxl(values, book):
    assert patch_cells(book, values) is None


def test_a_shared_formula_follower_with_a_stale_cache_is_left_to_openpyxl():
    follower = '<row r="1"><c r="A1"><f t="shared" si="0"/><v>3</v></c></row>'
    assert patch_cells(_book(follower), {"Data": {(2, 1): 1}}) is None


def _values(sheet):
    """Return the sheet's values, the run's seconds left out (they differ run by run)."""
    return {
        key: re.sub(r"\([0-9.]+ s\)", "", cell.value) if isinstance(cell.value, str) else cell.value
        for key, cell in sheet._cells.items()
        if cell.value is not None and not isinstance(cell.value, float)
    }


def _same_workbook(first, second):
    a, b = openpyxl.load_workbook(first), openpyxl.load_workbook(second)
    for sa, sb in zip(a.worksheets, b.worksheets, strict=True):
        assert _values(sa) == _values(sb), sa.title
        for key in set(sa._cells) | set(sb._cells):
            one, two = sa.cell(*key), sb.cell(*key)
            assert repr((one.font, one.fill, one.border, one.number_format)) == repr(
                (two.font, two.fill, two.border, two.number_format)
            ), (sa.title, key)
        for kind in ("column_dimensions", "row_dimensions"):
            sizes = [
                {k: (d.width if kind[0] == "c" else d.height, d.hidden) for k, d in
                 getattr(s, kind).items() if d.hidden or (d.width if kind[0] == "c" else d.height)}
                for s in (sa, sb)
            ]  # fmt: skip
            assert sizes[0] == sizes[1], (sa.title, kind)


def test_start_writes_what_a_whole_save_writes(tmp_path, monkeypatch):
    """START on the bundled workbook, patched and saved whole: the same sheets."""
    seen = []
    patched = workbook_file._patched

    def spy(*args):
        seen.append(patched(*args))
        return seen[-1]

    monkeypatch.setattr(workbook_file, "_patched", spy)
    first = headless.run("start", TEMPLATE, tmp_path / "patched.xlsm", rng=random.Random(3))
    assert seen and seen[-1] is not None  # the Print sheet resized and values: patched
    monkeypatch.setattr(workbook_file, "_patched", lambda *args: None)
    second = headless.run("start", TEMPLATE, tmp_path / "whole.xlsm", rng=random.Random(3))
    assert first.outcome.detail.puzzle == second.outcome.detail.puzzle
    _same_workbook(tmp_path / "patched.xlsm", tmp_path / "whole.xlsm")
    original = zipfile.ZipFile(TEMPLATE)
    kept = zipfile.ZipFile(tmp_path / "patched.xlsm")
    for name in ("xl/vbaProject.bin", "xl/styles.xml", "[Content_Types].xml"):
        assert kept.read(name) == original.read(name), name
    # a second START on the result: nothing to resize, still patched
    monkeypatch.setattr(workbook_file, "_patched", spy)
    headless.run("start", tmp_path / "patched.xlsm", rng=random.Random(4))
    assert seen[-1] is not None


def test_an_xlsx_output_of_a_macro_workbook_is_saved_whole(tmp_path, monkeypatch):
    seen = []
    patched = workbook_file._patched
    monkeypatch.setattr(workbook_file, "_patched", lambda *a: seen.append(patched(*a)))
    headless.run("start", TEMPLATE, tmp_path / "out.xlsx", rng=random.Random(3))
    assert seen == [None]


def test_a_whole_number_past_a_doubles_digits_is_written_with_every_digit():
    data = patch_cells(_book(ROWS), {"Data": {(1, 1): 2**60 + 1}})
    assert '<c r="A1" s="3" t="n"><v>1152921504606846977</v></c>' in _part(
        data, "xl/worksheets/sheet1.xml"
    )
