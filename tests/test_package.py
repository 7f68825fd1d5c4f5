"""Saving through openpyxl keeps the workbook's VBA project, buttons and notes (addin.package)."""

from __future__ import annotations

import shutil
import warnings
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
import pytest

from xlsudoku.addin import layout
from xlsudoku.xlsm.errors import PackageError
from xlsudoku.xlsm.package import (
    EXCEL_NS,
    VML_NS,
    ButtonShape,
    button_vml,
    normalize_zip,
    package_contents,
    save_preserving,
)

with warnings.catch_warnings():  # oletools still uses pyparsing names deprecated since 3.0
    warnings.simplefilter("ignore", DeprecationWarning)
    from oletools.olevba import VBA_Parser

TEMPLATE = Path(__file__).resolve().parent.parent / "workbooks" / "xlsudoku.xlsm"
EXPECTED_BUTTONS = {(b.anchor.sheet, b.caption, b.macro) for b in layout.BUTTONS}


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return Path(shutil.copy(TEMPLATE, tmp_path / "book.xlsm"))


def buttons_of(path: Path) -> set[tuple[str, str, str]]:
    return {(b.sheet, b.caption, b.macro) for b in package_contents(path).buttons}


def vml_shapes(path: Path) -> list[str]:
    """Return the ObjectType of every shape in every VML drawing of the file."""
    kinds = []
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.endswith(".vml"):
                root = ElementTree.fromstring(archive.read(name))
                for data in root.iter(f"{{{EXCEL_NS}}}ClientData"):
                    kinds.append(data.get("ObjectType", ""))
    return sorted(kinds)


def olevba_modules(path: Path) -> set[str]:
    parser = VBA_Parser(str(path))
    try:
        return {stream.split("/")[-1] for _, stream, _, _ in parser.extract_macros()}
    finally:
        parser.close()


def write_puzzle(book: openpyxl.Workbook) -> None:
    ref = layout.NAMES[layout.PUZZLE_GRID]
    for index in range(9):
        book[ref.sheet][ref.cell(index, index)] = index + 1
    status = layout.NAMES[layout.STATUS]
    book[status.sheet][status.address] = "written by the test"


@pytest.mark.parametrize("keep_vba", [True, False], ids=["keep_vba", "plain load"])
def test_save_keeps_vba_buttons_and_notes(copy: Path, tmp_path: Path, keep_vba: bool) -> None:
    before = package_contents(copy)
    shapes_before = vml_shapes(copy)
    book = openpyxl.load_workbook(copy, keep_vba=keep_vba)
    write_puzzle(book)
    target = tmp_path / "saved.xlsm"
    saved = save_preserving(book, target, template=copy)

    assert saved.vba_project == before.vba_project
    assert saved.macro_enabled and saved.code_names == before.code_names
    assert buttons_of(target) == EXPECTED_BUTTONS
    assert vml_shapes(target) == shapes_before  # buttons and note shapes, nothing doubled
    with zipfile.ZipFile(target) as archive:
        for name in archive.namelist():
            if name.endswith(".vml"):  # the prefixes Office writes, not ElementTree's ns0
                text = archive.read(name).decode()
                assert "<v:shape " in text and "<x:ClientData" in text and "ns0:" not in text
    assert "Buttons" in olevba_modules(target)
    again = openpyxl.load_workbook(target)
    status = layout.NAMES[layout.STATUS]
    assert again[status.sheet][status.address].value == "written by the test"
    for param in layout.PARAMS:
        assert again[param.ref.sheet][param.ref.address].comment is not None


def test_repeated_saves_stay_stable(copy: Path, tmp_path: Path) -> None:
    current = copy
    for round_ in range(3):
        book = openpyxl.load_workbook(current, keep_vba=True)
        write_puzzle(book)
        target = tmp_path / f"round{round_}.xlsm"
        save_preserving(book, target, template=current)
        current = target
    assert buttons_of(current) == EXPECTED_BUTTONS
    assert vml_shapes(current) == vml_shapes(copy)
    assert package_contents(current).vba_project == package_contents(copy).vba_project


def test_losing_buttons_is_an_error(copy: Path, tmp_path: Path) -> None:
    book = openpyxl.load_workbook(copy, keep_vba=True)
    book[layout.ANALYZE].legacy_drawing = None  # as if a writer had dropped the drawing
    with pytest.raises(
        PackageError, match=r"lost buttons \['ANALYZE', 'HINT', 'SOLVE', 'EXPLAIN'\]"
    ):
        save_preserving(book, tmp_path / "stripped.xlsm", template=copy)


def test_template_without_macros_is_an_error(tmp_path: Path) -> None:
    plain = tmp_path / "plain.xlsx"
    openpyxl.Workbook().save(plain)
    assert not package_contents(plain).has_vba
    with pytest.raises(PackageError, match="has no VBA project"):
        save_preserving(openpyxl.load_workbook(plain), tmp_path / "out.xlsm", template=plain)


def test_button_vml_shapes() -> None:
    shapes = [
        ButtonShape("A & B", "FirstClick", (1, 4, 2, 4, 1, 60, 2, 20), (10.0, 20.0, 42.0, 12.0)),
        ButtonShape("SECOND", "SecondClick", (3, 4, 2, 4, 3, 60, 2, 20), (90.0, 20.0, 42.0, 12.0)),
    ]
    root = ElementTree.fromstring(button_vml(shapes, drawing_id=3))
    found = root.findall(f"{{{VML_NS}}}shape")
    assert [shape.get("id") for shape in found] == ["_x0000_s4072", "_x0000_s4073"]
    for shape, expected in zip(found, shapes, strict=True):
        data = shape.find(f"{{{EXCEL_NS}}}ClientData")
        assert data is not None and data.get("ObjectType") == "Button"
        assert data.findtext(f"{{{EXCEL_NS}}}FmlaMacro") == f"[0]!{expected.macro}"
        anchor = data.findtext(f"{{{EXCEL_NS}}}Anchor")
        assert anchor is not None
        assert tuple(int(value) for value in anchor.split(",")) == expected.anchor
        textbox = shape.find(f"{{{VML_NS}}}textbox")
        assert textbox is not None and "".join(textbox.itertext()).strip() == expected.caption
        assert f"margin-left:{expected.box[0]:g}pt" in shape.get("style", "")


def test_normalize_zip_fixes_order_and_times(tmp_path: Path) -> None:
    path = tmp_path / "z.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("b.xml", "b")
        archive.writestr("[Content_Types].xml", "t")
        archive.writestr("a.xml", "a")
    normalize_zip(path)
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        assert [info.filename for info in infos] == ["[Content_Types].xml", "a.xml", "b.xml"]
        assert {info.date_time for info in infos} == {(2024, 1, 1, 0, 0, 0)}
        assert archive.read("b.xml") == b"b"
