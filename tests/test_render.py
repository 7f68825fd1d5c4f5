"""LibreOffice opens the workbook, prints the puzzle on one page, and sees its macros and buttons.

These tests need ``soffice`` (LibreOffice) and poppler's ``pdfinfo``/``pdftotext``/``pdftoppm``.
Without them they skip, unless ``XLSUDOKU_REQUIRE_RENDER=1`` (set by CI), when they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
import pytest

from xlsudoku.addin import headless, layout, snapshot

pytestmark = pytest.mark.render

TEMPLATE = Path(__file__).resolve().parent.parent / "workbooks" / "xlsudoku.xlsm"
FOOTER = "{sheet} · xlsudoku"
FORM_NS = "urn:oasis:names:tc:opendocument:xmlns:form:1.0"
SCRIPT_NS = "urn:oasis:names:tc:opendocument:xmlns:script:1.0"
XLINK_NS = "http://www.w3.org/1999/xlink"


@pytest.fixture(scope="module", autouse=True)
def tools() -> None:
    missing = snapshot.missing_tools()
    if missing:
        reason = f"LibreOffice/poppler tools missing: {', '.join(missing)}"
        if os.environ.get("XLSUDOKU_REQUIRE_RENDER") == "1":
            pytest.fail(f"{reason} (XLSUDOKU_REQUIRE_RENDER=1)")
        pytest.skip(f"{reason} (apt install libreoffice-calc poppler-utils)")


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the workbook after a headless START with a fixed seed."""
    path = Path(shutil.copy(TEMPLATE, tmp_path_factory.mktemp("render") / "xlsudoku.xlsm"))
    book = openpyxl.load_workbook(path, keep_vba=True)
    book[layout.GENERATOR][layout.NAMES[layout.SEED].address] = 7
    book.save(path)
    result = headless.run("start", path)
    assert result.outcome.ok, result.outcome.status
    return path


@pytest.fixture(scope="module")
def pdf(started: Path) -> Path:
    return snapshot.convert(started, "pdf", started.parent / "pdf")


def pages_of(pdf: Path, sheet: str) -> list[int]:
    footer = FOOTER.format(sheet=sheet)
    return [
        page
        for page in range(1, snapshot.page_count(pdf) + 1)
        if footer in snapshot.page_text(pdf, page)
    ]


def test_generator_prints_on_exactly_one_page(pdf: Path) -> None:
    assert pages_of(pdf, layout.GENERATOR) == [1]
    assert pages_of(pdf, layout.ANALYZE) == [snapshot.page_count(pdf)]


def test_printed_page_holds_the_generated_puzzle(started: Path, pdf: Path) -> None:
    sheet = openpyxl.load_workbook(started)[layout.GENERATOR]
    grid = layout.NAMES[layout.PUZZLE_GRID]
    expected = []
    for row in sheet[grid.address]:
        digits = "".join(str(cell.value) for cell in row if cell.value is not None)
        if digits:
            expected.append(digits)
    stats = layout.NAMES[layout.STATS]
    opens = sheet[stats.cell(layout.STATS_LABELS.index("Opens"), 1)].value
    assert sum(len(digits) for digits in expected) == opens
    text = snapshot.page_text(pdf, 1)
    printed = [
        re.sub(r"\s+", "", line) for line in text.splitlines() if re.fullmatch(r"[\s1-9]+", line)
    ]
    assert [line for line in printed if line] == expected
    assert f"{opens} opens ·" in text and "seed 7" in text  # the caption formula was calculated
    assert "START" not in text  # buttons do not print


def test_printed_page_is_not_blank(pdf: Path, tmp_path: Path) -> None:
    png = snapshot.page_png(pdf, 1, tmp_path / "generator.png", dpi=40)
    assert png.read_bytes().startswith(snapshot.PNG_SIGNATURE)
    width, height, _ = snapshot.png_gray(png.read_bytes())
    assert height > width  # portrait A4
    assert 0.005 < snapshot.ink(png) < 0.2
    x, y, w, h = snapshot.ink_box(png)
    assert abs((x + w / 2) - width / 2) < width * 0.05  # centered horizontally
    assert w > width * 0.5  # large enough to solve on paper


def test_libreoffice_binds_every_button_to_its_macro(tmp_path: Path) -> None:
    ods = snapshot.convert(TEMPLATE, "ods", tmp_path)
    with zipfile.ZipFile(ods) as archive:
        content = ElementTree.fromstring(archive.read("content.xml"))
        library = archive.read("Basic/VBAProject/script-lb.xml").decode()
        buttons_module = archive.read("Basic/VBAProject/Buttons.xml").decode()
    bound = {}
    for button in content.iter(f"{{{FORM_NS}}}button"):
        listeners = button.iter(f"{{{SCRIPT_NS}}}event-listener")
        bound[button.get(f"{{{FORM_NS}}}label")] = [
            item.get(f"{{{XLINK_NS}}}href") for item in listeners
        ]
    assert bound == {
        b.caption: [
            f"vnd.sun.star.script:VBAProject.Buttons.{b.macro}?language=Basic&location=document"
        ]
        for b in layout.BUTTONS
    }
    for module in (
        "Buttons",
        "xlwings",
        "Dictionary",
        "ThisWorkbook",
        "Sheet1",
        "Sheet2",
        "Sheet3",
    ):
        assert f'library:name="{module}"' in library
    for b in layout.BUTTONS:
        assert f"Public Sub {b.macro}()" in buttons_module


def test_docs_picture_command(tmp_path: Path) -> None:
    picture = snapshot.make_docs_picture(tmp_path / "generator.png", seed=7, dpi=40)
    width, height, _ = snapshot.png_gray(picture.read_bytes())
    assert width > height  # the whole Generator sheet, cropped to its content
    assert snapshot.ink(picture) > 0.02
