"""Saving keeps what openpyxl cannot rewrite: every cell a run did not change, as it was."""

import io
import re
import zipfile

import openpyxl
import pytest
from conftest import ROOT

from xlsudoku.cli import main
from xlsudoku.errors import Exit
from xlsudoku.xlsm import workbook as workbook_file
from xlsudoku.xlsm.keep import CellNotKept, keep_cells

TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"
GENERATOR, COLLECTION = "xl/worksheets/sheet1.xml", "xl/worksheets/sheet4.xml"

# Cells openpyxl alone would change: a 17-digit id, an ISO date, formulas with cached values,
# a value under a merged range, a number past a float's range as Excel writes it, a 309-digit
# whole number (openpyxl's save stops on it), rich text.
ROWS = (
    '<row r="2"><c r="A2"><v>1</v></c><c r="L2"><v>12345678901234567</v></c>'
    '<c r="M2" t="d"><v>2024-05-06T00:00:00</v></c></row>'
    '<row r="3"><c r="A3"><v>2</v></c><c r="J3"><f>A3*2</f><v>4</v></c>'
    '<c r="K3" t="str"><f>"x"&amp;A3</f><v>x2</v></c>'
    '<c r="M3" t="inlineStr"><is><t>top</t></is></c></row>'
    '<row r="4"><c r="A4"><v>3</v></c><c r="L4"><v>1.7976931348623157E+308</v></c>'
    '<c r="M4" t="inlineStr"><is><t>under merge</t></is></c></row>'
    '<row r="5"><c r="A5"><v>4</v></c><c r="L5"><v>' + "9" * 309 + "</v></c>"
    '<c r="M5" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space="preserve">'
    " plain</t></r></is></c></row>"
)
KEPT = ["L2", "M2", "J3", "K3", "M3", "L4", "M4", "L5", "M5"]


def _patch(data, part, old, new):
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            text = source.read(info.filename)
            if info.filename == part:
                assert re.search(old, text), old
                text = re.sub(old, new, text, count=1)
            archive.writestr(info, text)
    return out.getvalue()


def _cells(path, part):
    """Return address -> the cell's XML of a worksheet part, without its style."""
    text = zipfile.ZipFile(path).read(part).decode()
    cells = re.findall(r'(<c r="([A-Z]+[0-9]+)"[^>]*?(?:/>|>.*?</c>))', text, re.DOTALL)
    return {address: re.sub(r' (s|t)="(n|[0-9]+)"', "", cell) for cell, address in cells}


@pytest.fixture(params=["patterns", "parser"])
def book(tmp_path, request):
    data = TEMPLATE.read_bytes()
    data = _patch(data, COLLECTION, rb'<row r="2"\s*(/>|></row>)', ROWS.encode())
    if request.param == "parser":  # a comment: the sheet is read by the XML parser
        data = _patch(data, COLLECTION, rb"<sheetData>", b"<!-- kept --><sheetData>")
    data = _patch(
        data,
        COLLECTION,
        rb"<conditionalFormatting",
        b'<mergeCells count="1"><mergeCell ref="M3:M4"/></mergeCells><conditionalFormatting',
    )
    path = tmp_path / "book.xlsm"
    path.write_bytes(data)
    return path


def test_a_refused_save_keeps_every_cell_byte_for_byte(book):
    before = _cells(book, COLLECTION)
    assert main(["workbook", "save", str(book)]) == Exit.BAD_INPUT  # nothing to save yet
    assert _cells(book, COLLECTION) == before
    assert [before[address] for address in KEPT] == [_cells(book, COLLECTION)[a] for a in KEPT]


def test_start_and_save_keep_the_cells_they_do_not_write(book):
    before = _cells(book, COLLECTION)
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    assert _cells(book, COLLECTION) == before  # START writes no Collection cell
    assert main(["workbook", "save", str(book)]) == 0
    after = _cells(book, COLLECTION)
    for address in ("L2", "M2", "M3", "L4", "M4", "L5", "M5"):
        assert after[address] == before[address], address
    # the Collection changed: its formulas' cached values are left for Excel to compute
    assert after["J3"].startswith('<c r="J3"><f>A3*2</f>') and "<v>" not in after["J3"]
    assert openpyxl.load_workbook(book)["Collection"]["A6"].value == 5


def test_a_cached_value_of_a_sheet_the_run_did_not_change_is_kept(book):
    data = _patch(
        book.read_bytes(), COLLECTION, rb'<c r="J3"><f>A3\*2</f>', b'<c r="J3"><f>Removed!A1</f>'
    )
    book.write_bytes(data)
    assert main(["workbook", "save", str(book)]) == Exit.BAD_INPUT
    assert _cells(book, COLLECTION)["J3"] == '<c r="J3"><f>Removed!A1</f><v>4</v></c>'


@pytest.mark.parametrize("text", ["1.7976931348623157E+308", "1E+999", "9" * 309])
def test_a_refused_parameter_is_left_as_it_was(tmp_path, capsys, text):
    data = _patch(
        TEMPLATE.read_bytes(),
        GENERATOR,
        rb'<c r="C6"([^>]*?)(?: t="n")?><v>26</v></c>',
        b'<c r="C6"\\1><v>' + text.encode() + b"</v></c>",
    )
    book = tmp_path / "book.xlsm"
    book.write_bytes(data)
    before = _cells(book, GENERATOR)
    assert main(["workbook", "start", str(book), "--quiet"]) == Exit.BAD_INPUT
    err = capsys.readouterr().err
    assert "Opens (C6)" in err and "Traceback" not in err
    after = _cells(book, GENERATOR)
    assert after["C6"] == before["C6"] and text in after["C6"]


def test_cells_out_of_order_are_refused_not_garbled(tmp_path, capsys):
    data = _patch(
        TEMPLATE.read_bytes(),
        COLLECTION,
        rb'<row r="2"\s*(/>|></row>)',
        b'<row r="2"><c r="B2"><v>2</v></c><c r="A2"><v>1</v></c></row>',
    )
    book = tmp_path / "book.xlsm"
    book.write_bytes(data)
    assert main(["workbook", "save", str(book)]) == Exit.UNUSABLE_FILE
    assert "Collection!A2: the sheet's cells are out of order" in capsys.readouterr().err
    assert book.read_bytes() == data


def test_keep_cells_changes_nothing_when_openpyxl_kept_everything():
    data = TEMPLATE.read_bytes()
    wb = openpyxl.load_workbook(io.BytesIO(data), keep_vba=True)
    out = io.BytesIO()
    wb.save(out)
    kept = keep_cells(data, out.getvalue(), {})
    for part in (GENERATOR, COLLECTION):
        assert zipfile.ZipFile(io.BytesIO(kept)).read(part) == zipfile.ZipFile(out).read(part)


def test_a_formula_openpyxl_drops_is_named():
    data = _patch(
        TEMPLATE.read_bytes(),
        COLLECTION,
        rb'<row r="2"\s*(/>|></row>)',
        b'<row r="2"><c r="A2"><f>1+1</f><v>2</v></c></row>',
    )
    wb = openpyxl.load_workbook(io.BytesIO(data), keep_vba=True)
    wb["Collection"]["A2"].value = None  # as if openpyxl had lost it
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(CellNotKept, match="Collection!A2: the formula of this cell would be lost"):
        keep_cells(data, out.getvalue(), {})


@pytest.mark.parametrize("save", ["whole", "patched"])
def test_shared_strings_are_compared_by_text_and_rich_ones_put_back(tmp_path, monkeypatch, save):
    if save == "whole":  # openpyxl saves every sheet: keep_cells puts the strings back
        monkeypatch.setattr(workbook_file, "_patched", lambda *args: None)
    strings = (
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" '
        'uniqueCount="2"><si><t>plain &amp; simple</t></si><si><r><rPr><i/></rPr><t>it</t></r>'
        "<r><t>alic</t></r></si></sst>"
    )
    data = _patch(
        TEMPLATE.read_bytes(),
        COLLECTION,
        rb'<row r="2"\s*(/>|></row>)',
        b'<row r="2"><c r="M2" t="s"><v>0</v></c></row>'
        b'<row r="3"><c r="M3" t="s"><v>1</v></c></row>',
    )
    data = _patch(
        data,
        "xl/_rels/workbook.xml.rels",
        rb"</Relationships>",
        b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    )
    data = _patch(
        data,
        "[Content_Types].xml",
        rb"</Types>",
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
        b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(buffer, "w") as out:
        for info in source.infolist():
            out.writestr(info, source.read(info.filename))
        out.writestr("xl/sharedStrings.xml", strings)
    book = tmp_path / "book.xlsm"
    book.write_bytes(buffer.getvalue())
    before = _cells(book, COLLECTION)
    assert main(["workbook", "save", str(book)]) == Exit.BAD_INPUT
    cells = _cells(book, COLLECTION)
    if save == "patched":  # the Collection was not touched: its cells are as they were
        assert cells == before
        return
    assert cells["M2"] == '<c r="M2" t="inlineStr"><is><t>plain &amp; simple</t></is></c>'
    assert cells["M3"] == (
        '<c r="M3" t="inlineStr"><is><r><rPr><i/></rPr><t>it</t></r><r><t>alic</t></r></is></c>'
    )
