"""Every button, pressed headless, keeps every package part it did not change byte for byte.

Both workbooks get foreign parts first: the xlwings Lite add-in (web extension and task pane;
the Lite workbook has it already), a customXml part with its relationship, an unknown part,
a chart on a new sheet, a cell comment, a data validation and a conditional format on cells
no button writes.  Each button then runs on a copy and must leave every part it does not
change as it was, keep the foreign elements of the sheets it writes, and do what it does.
"""

import io
import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import PatternFill
from openpyxl.worksheet.datavalidation import DataValidation
from sheets import grid_of

from xlsudoku.addin import headless, layout
from xlsudoku.errors import UnusableFile
from xlsudoku.xlsm import package
from xlsudoku.xlsm import workbook as workbook_file

ROOT = Path(__file__).resolve().parent.parent
WORKBOOKS = {
    "xlsm": ROOT / "workbooks" / "xlsudoku.xlsm",
    "lite": ROOT / "workbooks" / "xlsudoku-lite.xlsx",
}
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
WEB_PARTS = (
    "xl/webextensions/webextension1.xml",
    "xl/webextensions/taskpanes.xml",
    "xl/webextensions/_rels/taskpanes.xml.rels",
)
CUSTOM_XML = {
    "customXml/item1.xml": b'<?xml version="1.0"?><keep xmlns="urn:test">\xc3\xa9 42</keep>',
    "customXml/itemProps1.xml": (
        b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
        b'<ds:datastoreItem ds:itemID="{6A1B2C3D-0000-4000-8000-000000000001}" '
        b'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml">'
        b"<ds:schemaRefs/></ds:datastoreItem>"
    ),
    "customXml/_rels/item1.xml.rels": (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/customXmlProps" Target="itemProps1.xml"/></Relationships>'
    ),
}
UNKNOWN = {"xl/foreign/unknown.bin": bytes(range(256)) * 4}
FOREIGN_CELLS = {"comment": "AZ200", "validation": "AZ201", "format": "AZ202"}
# parts a button may rewrite: the sheets it writes (only their cells, sizes and dimension),
# the styles (the fills it adds), the workbook (calculate formulas on load)
CHANGEABLE = re.compile(r"xl/worksheets/sheet\d+\.xml|xl/styles\.xml|xl/workbook\.xml")
SHEET_PARTS_A_BUTTON_WRITES = re.compile(
    rb"<sheetData\s*/>|<sheetData\b.*?</sheetData>|<cols>.*?</cols>|<dimension\b[^>]*/>", re.DOTALL
)


def _with_relationship(rels: bytes, rel_id: str, kind: str, target: str) -> bytes:
    line = f'<Relationship Id="{rel_id}" Type="{kind}" Target="{target}"/>'.encode()
    return rels.replace(b"</Relationships>", line + b"</Relationships>")


def _with_types(types: bytes, *entries: str) -> bytes:
    return types.replace(b"</Types>", "".join(entries).encode() + b"</Types>")


def _foreign(source: Path, target: Path) -> None:
    """Write *source* with the foreign parts added to *target*."""
    macros = source.suffix == ".xlsm"
    book = openpyxl.load_workbook(source, keep_vba=macros)
    chart_sheet = book.create_sheet("Foreign chart")
    for number in range(1, 6):
        chart_sheet.append([number, number * number])
    chart = BarChart()
    chart.add_data(Reference(chart_sheet, min_col=2, min_row=1, max_row=5))
    chart_sheet.add_chart(chart, "D2")
    generator = book[layout.GENERATOR]
    generator[FOREIGN_CELLS["comment"]].comment = Comment("keep this note", "a user")
    validation = DataValidation(type="list", formula1='"yes,no"')
    validation.add(FOREIGN_CELLS["validation"])
    generator.add_data_validation(validation)
    generator.conditional_formatting.add(
        FOREIGN_CELLS["format"],
        CellIsRule(operator="greaterThan", formula=["1"], fill=PatternFill("solid", "FF00FF00")),
    )
    buffer = io.BytesIO()
    if macros:
        package.save_preserving(book, buffer, source.read_bytes())
    else:
        book.save(buffer)
    with zipfile.ZipFile(WORKBOOKS["lite"]) as lite:
        web = {part: lite.read(part) for part in WEB_PARTS}
    parts: dict[str, bytes] = {}
    with zipfile.ZipFile(buffer) as saved:
        for name in saved.namelist():
            parts[name] = saved.read(name)
    assert not any(part in parts for part in WEB_PARTS)  # openpyxl dropped the Lite add-in
    parts.update(web)
    parts.update(CUSTOM_XML)
    parts.update(UNKNOWN)
    parts["_rels/.rels"] = _with_relationship(
        _with_relationship(
            parts["_rels/.rels"],
            "rIdWeb",
            "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes",
            "xl/webextensions/taskpanes.xml",
        ),
        "rIdUnknown",
        "urn:test:unknown",
        "xl/foreign/unknown.bin",
    )
    parts["xl/_rels/workbook.xml.rels"] = _with_relationship(
        parts["xl/_rels/workbook.xml.rels"],
        "rIdCustom",
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml",
        "../customXml/item1.xml",
    )
    parts["[Content_Types].xml"] = _with_types(
        parts["[Content_Types].xml"],
        '<Override PartName="/xl/webextensions/taskpanes.xml" '
        'ContentType="application/vnd.ms-office.webextensiontaskpanes+xml"/>',
        '<Override PartName="/xl/webextensions/webextension1.xml" '
        'ContentType="application/vnd.ms-office.webextension+xml"/>',
        '<Override PartName="/customXml/itemProps1.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.customXmlProperties+xml"/>',
        '<Override PartName="/customXml/item1.xml" ContentType="application/xml"/>',
        '<Override PartName="/xl/foreign/unknown.bin" ContentType="application/octet-stream"/>',
    )
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _foreign_parts(parts: dict[str, bytes]) -> dict[str, bytes]:
    """Return the parts the foreign additions brought (the chart's, the comments', ...)."""
    wanted = re.compile(r"xl/(webextensions|foreign|charts|drawings|comments)/|customXml/")
    return {name: data for name, data in parts.items() if wanted.match(name)}


def _read(path: Path, name: str):
    ref = layout.NAMES[name]
    cells = openpyxl.load_workbook(path)[ref.sheet][ref.address]
    if not isinstance(cells, tuple):
        return cells.value
    return [[cell.value for cell in row] for row in cells]


def _column(path: Path, sheet: str, column: str) -> list:
    return [cell.value for cell in openpyxl.load_workbook(path)[sheet][column]]


def _complete(block) -> bool:
    return grid_of(block).is_complete


# button -> (buttons pressed before it, with their inputs; its inputs; what it must have done)
BUTTONS = {
    "start": (
        [],
        {layout.SEED: 9},
        lambda path, before: _read(path, layout.PUZZLE_GRID) != _read(before, layout.PUZZLE_GRID),
    ),
    "clear": (
        [],
        {},
        lambda path, before: not any(v for row in _read(path, layout.PUZZLE_GRID) for v in row),
    ),
    "save": (
        [("start", {layout.SEED: 11})],
        {},
        lambda path, before: _column(path, layout.COLLECTION, "A")[1:3] == [1, 2],
    ),
    "import": (
        [],
        {layout.IMPORT_SOURCE: PUZZLE},
        lambda path, before: PUZZLE in _column(path, layout.COLLECTION, "D"),
    ),
    "delete": (
        [],
        {layout.DELETE_IDS: "1"},
        lambda path, before: (
            _column(path, layout.REMOVED, "A")[1] == 1
            and _column(path, layout.COLLECTION, "A")[1:] in ([], [None])
        ),
    ),
    "sort": ([("import", {layout.IMPORT_SOURCE: PUZZLE})], {}, None),
    "analyze": (
        [],
        {layout.ANALYZE_STRING: PUZZLE},
        lambda path, before: str(grid_of(_read(path, layout.ANALYZE_GRID))) == PUZZLE,
    ),
    "hint": (
        [("analyze", {layout.ANALYZE_STRING: PUZZLE})],
        {},
        lambda path, before: str(_read(path, layout.HINT_TEXT)).startswith("Hint 1"),
    ),
    "solve": (
        [("analyze", {layout.ANALYZE_STRING: PUZZLE})],
        {},
        lambda path, before: _complete(_read(path, layout.ANALYZE_SOLUTION)),
    ),
    "explain": (
        [("analyze", {layout.ANALYZE_STRING: PUZZLE})],
        {},
        lambda path, before: str(_read(path, layout.EXPLAIN_STEPS)[0][0]).startswith("1. ["),
    ),
    "image": (
        [],
        {},
        lambda path, before: path.with_name(f"{path.stem}-puzzle.png").is_file(),
    ),
    "play": (
        [("start", {layout.SEED: 11})],
        {},
        lambda path, before: (
            grid_of(_read(path, layout.PLAY_GRID)).given_count == 26
            and _read(path, layout.PLAY_GRID) != _read(before, layout.PLAY_GRID)
        ),
    ),
    "check": ([], {}, None),
    "play-hint": ([], {}, lambda path, before: bool(_read(path, layout.PLAY_HINT))),
    "play-solve": (
        [],
        {},
        lambda path, before: _complete(_read(path, layout.PLAY_GRID)),
    ),
    "restore": (
        [("delete", {layout.DELETE_IDS: "1"})],
        {layout.RESTORE_IDS: "1"},
        lambda path, before: _column(path, layout.COLLECTION, "A")[1] == 1,
    ),
    "undo": (
        [("fill-candidates", {})],
        {},
        lambda path, before: _read(path, layout.PLAY_MARKS) != _read(before, layout.PLAY_MARKS),
    ),
    "fill-candidates": (
        [],
        {},
        lambda path, before: _read(path, layout.PLAY_MARKS) != _read(before, layout.PLAY_MARKS),
    ),
    "stats": (
        [],
        {},
        lambda path, before: any(
            isinstance(value, int) and value > 0
            for row in _read(path, layout.STATS_LEVELS)
            for value in row
        ),
    ),
}


@pytest.fixture(scope="module", params=list(WORKBOOKS))
def ready(request, tmp_path_factory):
    """The workbook with foreign parts, a puzzle generated, saved and on the Play sheet."""
    source = WORKBOOKS[request.param]
    folder = tmp_path_factory.mktemp(request.param)
    pristine = folder / f"foreign{source.suffix}"
    _foreign(source, pristine)
    path = folder / f"ready{source.suffix}"
    shutil.copy2(pristine, path)
    for button, inputs in (("start", {layout.SEED: 5}), ("save", {}), ("play", {})):
        assert headless.run(button, path, inputs=inputs).outcome.ok, button
    return pristine, path


def test_the_foreign_workbooks_hold_what_the_test_checks(ready):
    pristine, _ = ready
    parts = _parts(pristine)
    assert set(WEB_PARTS) | set(CUSTOM_XML) | set(UNKNOWN) <= set(parts)
    assert any(name.startswith("xl/charts/chart") for name in parts)
    book = openpyxl.load_workbook(pristine)
    generator = book[layout.GENERATOR]
    assert generator[FOREIGN_CELLS["comment"]].comment.text == "keep this note"
    assert any("AZ201" in str(v.sqref) for v in generator.data_validations.dataValidation)
    assert any("AZ202" in str(rule.sqref) for rule in generator.conditional_formatting)


@pytest.mark.parametrize("button", list(headless.COMMANDS))
def test_every_button_keeps_every_part_it_did_not_change(ready, tmp_path, button):
    pristine, prepared = ready
    path = tmp_path / prepared.name
    shutil.copy2(prepared, path)
    steps, inputs, effect = BUTTONS[button]
    for step, step_inputs in steps:
        assert headless.run(step, path, inputs=step_inputs).outcome.ok, step
    before = tmp_path / f"before{path.suffix}"
    shutil.copy2(path, before)
    old = _parts(path)

    outcome = headless.run(button, path, inputs=inputs).outcome

    assert outcome.ok, outcome.status
    new = _parts(path)
    assert list(new) == list(old)  # no part lost, none added, in the same order
    for name, data in old.items():
        if CHANGEABLE.fullmatch(name):
            kept = SHEET_PARTS_A_BUTTON_WRITES.sub(b"", new[name])
            if name.startswith("xl/worksheets/"):
                assert kept == SHEET_PARTS_A_BUTTON_WRITES.sub(b"", data), name
        else:
            assert new[name] == data, name
    # the foreign parts are what they were before any button was pressed
    assert _foreign_parts(new) == _foreign_parts(_parts(pristine))
    generator = openpyxl.load_workbook(path)[layout.GENERATOR]
    assert generator[FOREIGN_CELLS["comment"]].comment.text == "keep this note"
    if effect is not None:
        assert effect(path, before), button
    elif button == "sort":
        assert outcome.status.startswith("Sorted the Collection's 2 rows")
    else:
        assert "cells" in outcome.status and "left" in outcome.status, outcome.status


def test_a_button_pressed_twice_adds_no_style(ready, tmp_path):
    _, prepared = ready
    path = tmp_path / prepared.name
    shutil.copy2(prepared, path)
    assert headless.run("check", path).outcome.ok
    styles = _parts(path)["xl/styles.xml"]
    assert headless.run("check", path).outcome.ok
    assert _parts(path)["xl/styles.xml"] == styles


def test_a_whole_save_that_would_drop_parts_is_refused(ready, tmp_path, monkeypatch):
    _, prepared = ready
    path = tmp_path / prepared.name
    shutil.copy2(prepared, path)
    before = path.read_bytes()
    monkeypatch.setattr(workbook_file, "_patched", lambda *args: None)  # cannot patch
    with pytest.raises(UnusableFile) as refused:
        headless.run("clear", path)
    message = str(refused.value)
    assert "would lose xl/webextensions/" in message or "would lose customXml/" in message
    assert "nothing was saved" in message and f"{path} was not changed" in message
    assert path.read_bytes() == before
