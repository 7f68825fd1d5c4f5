"""What a person sees: LibreOffice opens the workbook and prints every sheet; poppler reads it.

A copy of the workbook goes through the buttons headless (START with the solution shown, SAVE
TO COLLECTION, DELETE, ANALYZE of a puzzle with several solutions), LibreOffice prints it to
PDF, and the tests read each page back: which sheet it is (the footer), its text as laid out
(``pdftotext -layout``) and its ink (``pdftoppm``).  Checks: every sheet fits its pages, the
puzzle fills the Print page for every shape and the answer key is its second page, no text
is cut (status lines, report lines, Collection strings are all there), buttons and macros are
bound.

These tests need ``soffice`` (LibreOffice) and poppler's ``pdfinfo``/``pdftotext``/``pdftoppm``.
Without them they skip, unless ``XLSUDOKU_REQUIRE_RENDER=1`` (set by CI), when they fail.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
import pytest
from sheets import TEMPLATE, grid_of

from xlsudoku.addin import headless, layout, params, render
from xlsudoku.bench import snapshot
from xlsudoku.engine.grid import DIGIT_CHARS
from xlsudoku.xlsm.cells import Ref

pytestmark = pytest.mark.render

FORM_NS = "urn:oasis:names:tc:opendocument:xmlns:form:1.0"
SCRIPT_NS = "urn:oasis:names:tc:opendocument:xmlns:script:1.0"
XLINK_NS = "http://www.w3.org/1999/xlink"
SEVERAL = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"
OPENS = {"4x4": 6, "6x6": 14, "9x9-X": 28, "12x12": 70, "16x16": 140}


@pytest.fixture(scope="module", autouse=True)
def tools(render_tools: None) -> None:
    """Every test here renders with LibreOffice (conftest's ``render_tools``)."""


def set_cells(path: Path, **cells: object) -> None:
    book = openpyxl.load_workbook(path, keep_vba=True)
    for name, value in cells.items():
        ref = layout.NAMES[name]
        book[ref.sheet][ref.address] = value
    book.save(path)


def run(command: str, path: Path) -> str:
    outcome = headless.run(command, path).outcome
    assert outcome.ok, outcome.status
    return outcome.status


class Printed:
    """A workbook after the buttons, printed by LibreOffice: pages by sheet, text, pictures."""

    def __init__(self, path: Path, statuses: dict[str, str]) -> None:
        self.path = path
        self.statuses = statuses
        self.pdf = snapshot.convert(path, "pdf", path.parent / "pdf")
        self.count = snapshot.page_count(self.pdf)
        self.texts = {page: snapshot.page_text(self.pdf, page) for page in range(1, self.count + 1)}
        self.book = openpyxl.load_workbook(path)

    def pages(self, sheet: str) -> list[int]:
        footer = re.compile(rf"{sheet} · (page \d+ · )?xlsudoku")
        return [page for page, text in self.texts.items() if footer.search(text)]

    def png(self, page: int, dpi: int = 40) -> Path:
        return snapshot.page_png(self.pdf, page, self.path.parent / f"page{page}.png", dpi=dpi)

    def read(self, name: str) -> object:
        ref = layout.NAMES[name]
        cells = self.book[ref.sheet][ref.address]
        if not isinstance(cells, tuple):
            return cells.value
        return [[cell.value for cell in row] for row in cells]


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Printed:
    """The 9x9 workbook: START (seed 7, solution shown), SAVE, DELETE of a second row, ANALYZE."""
    path = Path(shutil.copy(TEMPLATE, tmp_path_factory.mktemp("render") / "xlsudoku.xlsm"))
    statuses = {}
    set_cells(path, Seed=8)
    run("start", path)
    run("save", path)
    set_cells(path, Seed=7, ShowSolution="Yes", DeleteIds="1")
    statuses["start"] = run("start", path)
    statuses["save"] = run("save", path)
    statuses["delete"] = run("delete", path)
    set_cells(path, AnalyzeString=SEVERAL)
    statuses["analyze"] = run("analyze", path)
    # a long status: three bad parameters at once (nothing but the status changes)
    set_cells(path, Opens="lots", Trials=0, TimeLimit="soon", Symmetry="spiral")
    failed = headless.run("start", path).outcome
    assert not failed.ok and len(failed.status) > 200
    statuses["bad start"] = failed.status
    return Printed(path, statuses)


def words(text: str) -> str:
    """Return *text* with every run of white space made one space (wrapped lines joined)."""
    return " ".join(text.split())


def shown_whole(needle: str, text: str) -> bool:
    """Return True when every word of *needle* is on the page, in order.

    Other columns' words may come between (pdftotext lays a wrapped cell's lines out beside
    the cells to its right), but not one word of *needle* may be missing: nothing was cut.
    """
    words_on_page = iter(text.split())
    return all(any(word == seen for seen in words_on_page) for word in needle.split())


def printed_grid(text: str) -> list[list[str]]:
    """Return the rows of digits (and 10-16) the page's grid shows, by pdftotext's layout."""
    rows = []
    for line in text.splitlines():
        tokens = line.split()
        if tokens and all(re.fullmatch(r"[1-9]|1[0-6]", token) for token in tokens):
            rows.append(tokens)
    return rows


def expected_rows(grid_block: list[list[object]], side: int) -> list[list[str]]:
    rows = []
    for row in grid_block[:side]:
        digits = [str(value) for value in row[:side] if value not in (None, "")]
        if digits:
            rows.append(digits)
    return rows


# -- pages ------------------------------------------------------------------------------------


def test_every_sheet_prints_on_its_own_pages(printed: Printed) -> None:
    assert printed.pages(layout.GENERATOR) == [1]
    assert printed.pages(layout.PRINT) == [2, 3]  # the puzzle and its answer key
    assert printed.pages(layout.ANALYZE) == [4]
    assert printed.pages(layout.COLLECTION) == [5]
    assert printed.pages(layout.REMOVED) == [6]
    assert printed.pages(layout.PLAY) == [7]
    assert printed.pages(layout.STATS_SHEET) == [8]
    assert printed.count == 8
    # the Collection counts its own pages, not the book's
    assert "Collection · page 1 · xlsudoku" in printed.texts[5]


def test_print_page_holds_the_puzzle_and_fills_the_page(printed: Printed) -> None:
    text = printed.texts[2]
    assert printed_grid(text) == expected_rows(printed.read(layout.PUZZLE_GRID), 9)
    stats = dict(map(tuple, printed.read(layout.STATS)))
    assert f"Sudoku 9x9 · {stats['Opens']} opens · {stats['Level']} · seed 7" in text
    assert "Fill every row, column and 3x3 box with each of 1-9." in text
    assert "START" not in text  # buttons do not print
    png = printed.png(2)
    width, height, _ = snapshot.png_gray(png.read_bytes())
    assert height > width  # portrait A4
    x, y, w, h = snapshot.ink_box(png)
    assert abs((x + w / 2) - width / 2) < width * 0.03  # centered
    assert w > width * 0.8  # 7 of the page's 8.3 inches: big enough to solve on paper
    assert h < height * 0.9  # and it is one page, title and rules included


def test_answer_key_is_the_second_page(printed: Printed) -> None:
    text = printed.texts[3]
    assert "Answer key · 9x9" in text
    solution = grid_of(printed.read(layout.SOLUTION_GRID))
    assert printed_grid(text) == [[str(d) for d in row] for row in solution.rows()]


def test_generator_page_shows_everything_uncut(printed: Printed) -> None:
    text = words(printed.texts[1])
    assert printed.read(layout.STATUS) == printed.statuses["bad start"]
    assert shown_whole(printed.statuses["bad start"], text)  # the long status, whole
    assert not shown_whole(printed.statuses["bad start"] + " missing", text)
    for param in layout.PARAMS:
        assert param.label in text
    for label in layout.STATS_LABELS:
        assert label in text
    for number in range(1, 13):
        assert re.search(rf"\b{number} \w", text)  # the twelve pattern pictures


def test_analyze_page_shows_the_report_and_two_solutions(printed: Printed) -> None:
    text = words(printed.texts[4])
    for (line,) in printed.read(layout.ANALYZE_REPORT):
        if line:
            assert words(line) in text, line
    assert words(printed.statuses["analyze"]) in text
    assert "Another solution" in text and "clue to add" in text


def test_collection_page_is_readable(printed: Printed) -> None:
    text = printed.texts[5]
    rows = printed.book[layout.COLLECTION]
    puzzle = rows["D2"].value
    assert rows["A2"].value == 2 and rows["B2"].is_date
    # the puzzle wraps inside its column (the solution beside it): all of it is on the page
    pieces = [found[0] for line in text.splitlines() if (found := re.findall(r"[.1-9]{9,}", line))]
    assert "".join(pieces) == puzzle
    assert rows.row_dimensions[2].height >= 36  # three lines of a 9x9 puzzle
    removed = printed.book[layout.REMOVED]
    assert removed["A2"].value == 1 and "deleted" in printed.texts[6]


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["4x4", "16x16"])
def test_print_page_fills_the_page_for_every_shape(
    shape: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = Path(shutil.copy(TEMPLATE, tmp_path_factory.mktemp(shape) / "xlsudoku.xlsm"))
    set_cells(path, Geometry=shape, Pattern="none", Opens=OPENS[shape], Seed=3)
    run("start", path)
    book = Printed(path, {})
    side = int(shape.split("x")[0])
    assert book.pages(layout.PRINT) == [2]  # no answer key asked for
    text = book.texts[2]
    assert f"Sudoku {shape}" in text
    assert printed_grid(text) == expected_rows(book.read(layout.PUZZLE_GRID), side)
    png = book.png(2)
    width, _, _ = snapshot.png_gray(png.read_bytes())
    _, _, w, _ = snapshot.ink_box(png)
    # three quarters of the page's width: LibreOffice releases place a 16x16 grid a few pixels
    # apart at this resolution (262 of 331 here), a grid fitted to a corner takes half
    assert w > width * 0.75
    grid = grid_of(book.read(layout.PUZZLE_GRID), params.geometry_of(shape))
    assert str(grid).count(".") == side * side - OPENS[shape]
    assert set(str(grid)) <= set(DIGIT_CHARS[:side]) | {"."}


# -- macros and the README pictures -------------------------------------------------------------


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
    for module in ("Buttons", "xlwings", "Dictionary", "ThisWorkbook", "Sheet1", "Sheet5"):
        assert f'library:name="{module}"' in library
    for b in layout.BUTTONS:
        assert f"Public Sub {b.macro}()" in buttons_module


@pytest.mark.slow
def test_docs_pictures_show_every_sheet_and_whole_captions(tmp_path: Path) -> None:
    book_pdf = tmp_path / "book.pdf"
    made = snapshot.make_docs_pictures(tmp_path / "docs", seed=7, dpi=40, keep_pdf=book_pdf)
    assert [path.name for path in made] == list(snapshot.PICTURES)
    for picture in made:
        width, height, _ = snapshot.png_gray(picture.read_bytes())
        assert width > 100 and height > 20 and snapshot.ink(picture) > 0.005, picture.name
    generator = snapshot.page_text(book_pdf, 1)
    assert "Generator · xlsudoku" in generator
    # every button's caption on one line, none cut (the buttons are printed for the pictures)
    for button in layout.BUTTONS:
        sheet_text = (
            generator
            if button.anchor.sheet == layout.GENERATOR
            else (
                "".join(
                    snapshot.page_text(book_pdf, p)
                    for p in range(2, snapshot.page_count(book_pdf) + 1)
                )
            )
        )
        printed = re.search(rf"(^|\s){re.escape(button.caption)}(\s|$)", sheet_text, re.M)
        # a button beside its sheet's page (IMAGE beside the Print page) stays off the paper
        assert bool(printed) == on_page(button.anchor), button.caption


def on_page(anchor: Ref) -> bool:
    """Whether *anchor*'s top-left cell lies in its sheet's print area."""
    row, column, _, _ = anchor.bounds
    top, left, bottom, right = layout.PRINT_AREAS[anchor.sheet].bounds
    return top <= row <= bottom and left <= column <= right


# -- what the Play and Analyze sheets show: givens apart from entries, hints that stand out -----


def colour_counts(png: Path) -> dict[tuple[int, int, int], int]:
    """Return how many pixels of the page have each colour."""
    counts: dict[tuple[int, int, int], int] = {}
    for row in snapshot.png_rgb(png.read_bytes())[2]:
        for pixel in row:
            counts[pixel] = counts.get(pixel, 0) + 1
    return counts


def rendered(counts: dict[tuple[int, int, int], int], colour: str) -> tuple[str, int]:
    """Return the rendered colour nearest *colour* (``#RRGGBB``) and its pixel count."""
    wanted = tuple(int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    near = {
        pixel: count
        for pixel, count in counts.items()
        if max(abs(a - b) for a, b in zip(pixel, wanted, strict=True)) <= 8
    }
    if not near:
        return colour, 0
    pixel = max(near, key=near.__getitem__)
    return "#" + "".join(f"{v:02X}" for v in pixel), sum(near.values())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Printed, dict[str, str]]:
    """START (seed 7), PLAY, one right entry typed, HINT on the Play and the Analyze sheets."""
    path = Path(shutil.copy(TEMPLATE, tmp_path_factory.mktemp("play") / "xlsudoku.xlsm"))
    set_cells(path, Seed=7)
    run("start", path)
    run("play", path)
    book = openpyxl.load_workbook(path)
    puzzle = grid_of([[c.value for c in row] for row in book[layout.PLAY]["BN6:CC21"]])
    from xlsudoku.engine.solver import solve

    solution = solve(puzzle)
    cell = next(cell for cell in range(81) if not puzzle[cell])
    grid = layout.NAMES[layout.PLAY_GRID]
    set_cells(path, AnalyzeString=str(puzzle))
    book = openpyxl.load_workbook(path, keep_vba=True)
    book[layout.PLAY][grid.cell(*divmod(cell, 9))] = solution[cell]
    book.save(path)
    statuses = {"hint": run("play-hint", path), "analyze": run("analyze", path)}
    statuses["analyze hint"] = run("hint", path)
    return Printed(path, statuses), statuses


def relative_luminance(colour: str) -> float:
    """Return the relative luminance of ``#RRGGBB`` *colour* (WCAG 2: 0 black, 1 white)."""
    text = colour.lstrip("#")
    channels = [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """Return the WCAG 2 contrast ratio of two ``#RRGGBB`` colours (1 to 21)."""
    light, dark = sorted(map(relative_luminance, (first, second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_ratio() -> None:
    assert (relative_luminance("#FFFFFF"), relative_luminance("#000000")) == (1.0, 0.0)
    assert contrast_ratio("#000000", "#FFFFFF") == 21.0
    assert round(contrast_ratio("#FFF2CC", "#FFF7D6"), 2) == 1.04  # pale yellow on pale yellow


def test_play_sheet_draws_givens_apart_from_entries(played: tuple[Printed, dict[str, str]]) -> None:
    printed, _ = played
    (page,) = printed.pages(layout.PLAY)
    _, _, rows = snapshot.png_rgb(printed.png(page, dpi=150).read_bytes())
    # the grids: where the pure black is (box lines and givens; labels are a softer ink)
    black = [(x, y) for y, row in enumerate(rows) for x, p in enumerate(row) if max(p) < 20]
    left, right = min(x for x, _ in black), max(x for x, _ in black)
    top, bottom = min(y for _, y in black), max(y for _, y in black)
    inside = [p for row in rows[top : bottom + 1] for p in row[left : right + 1]]
    blue = [p for p in inside if p[2] - p[0] > 80 and p[2] - p[1] > 40]
    ink = [p for p in inside if max(p) < 20]
    assert len(blue) > 20 and len(ink) > 10 * len(blue)  # 26 givens (and lines), one entry
    entry = max(blue, key=lambda p: p[2] - p[0])  # the most saturated blue drawn
    entry_hex = "#" + "".join(f"{v:02X}" for v in entry)
    ratio = contrast_ratio(entry_hex, render.GIVEN_INK)
    print(f"entry ink {entry_hex} ({render.ENTRY_INK} asked) against black givens: {ratio:.2f}")
    assert ratio >= 3


@pytest.mark.parametrize(
    ("sheet", "fill"), [(layout.PLAY, render.PLAY_FILL), (layout.ANALYZE, render.GRID_FILL)]
)
def test_the_first_hint_stands_out_from_the_grid(
    played: tuple[Printed, dict[str, str]], sheet: str, fill: str
) -> None:
    printed, statuses = played
    assert statuses["hint"].startswith("Hint 1 of 3")
    assert statuses["analyze hint"].startswith("Hint 1 of 3")
    (page,) = printed.pages(sheet)
    counts = colour_counts(printed.png(page, dpi=100))
    region, region_pixels = rendered(counts, render.HINT_REGION_COLOUR)
    ground, ground_pixels = rendered(counts, fill)
    cell = (layout.GRID_CELL_POINTS[sheet] / 72 * 100 * 0.4) ** 2  # a cell, printed shrunk
    assert region_pixels > 5 * cell and ground_pixels > region_pixels
    # the fill is light, so every digit on it reads at 4.5:1 (tests/test_render_play.py): it
    # stands apart from the ground by its hue, the orange of "where to look"
    ratio = contrast_ratio(region, ground)
    hue = max(abs(int(region[i : i + 2], 16) - int(ground[i : i + 2], 16)) for i in (1, 3, 5))
    print(f"{sheet}: hint {region} on {ground}: contrast {ratio:.2f}, channel gap {hue}")
    assert ratio >= 1.2 and hue >= 40
