"""The shapes beyond rows, columns and boxes, as LibreOffice prints them, drawn by the sheet itself.

A Jigsaw's regions are outlined in black on every grid (the Play, Analyze and Print sheets
here), from the geometry's name alone: the name is typed into the file and no button runs, so
the lines are the template's conditional formats.  An X-Sudoku's diagonal clash is marked on the
Play grid as you type, without Python.

The grid is found on the printed page by its gray cell lines; each edge between two cells is
read at its middle: black where two regions meet, gray inside a region.

These tests need ``soffice`` (LibreOffice) and poppler (see tests/test_render.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from sheets import TEMPLATE, grid_of
from test_render_play import contrast, load, page_of, rgb, run, texts_on

from xlsudoku.addin import headless, layout, render
from xlsudoku.bench import snapshot
from xlsudoku.engine.grid import JIGSAW_LAYOUTS, geometry
from xlsudoku.engine.solver import solve

pytestmark = pytest.mark.render

# A layout of the user's own (not a published name): the classic boxes, with r1c3 given to box 2
# and r2c4 to box 1 (each region still 9 connected cells).
OWN_LAYOUT = (
    "112222333" "111122333" "111222333"
    "444555666" "444555666" "444555666"
    "777888999" "777888999" "777888999"
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def tools(render_tools: None) -> None:
    """Every test here renders with LibreOffice (conftest's ``render_tools``)."""


def _clusters(indices: np.ndarray) -> list[int]:
    """Return the middle of each run of consecutive *indices*."""
    if not indices.size:
        return []
    runs = np.split(indices, np.flatnonzero(np.diff(indices) > 1) + 1)
    return [int(run.mean()) for run in runs]


def grid_lines(png: Path, side: int = 9) -> tuple[list[int], list[int]]:
    """Return the page columns and rows of the first grid's lines (side + 1 of each).

    A line pixel is gray or black (the same in every channel, darker than the fills); a grid
    line runs the whole grid, so its page column (row) holds the most line pixels.
    """
    pixels = load(png)
    spread = pixels.max(axis=2) - pixels.min(axis=2)
    line = (pixels.max(axis=2) < 200) & (spread < 12)
    counts = line.sum(axis=0)
    columns = _clusters(np.flatnonzero(counts > 0.6 * counts.max()))[: side + 1]
    assert len(columns) == side + 1, columns
    inside = line[:, columns[0] : columns[-1] + 1].sum(axis=1)
    rows = _clusters(np.flatnonzero(inside > 0.9 * (columns[-1] - columns[0])))[: side + 1]
    assert len(rows) == side + 1, rows
    return columns, rows


def edges(png: Path, side: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """Return which inner edges are black: (left edges of each cell, top edges of each cell).

    An edge is read in the middle of its cell's side: black when its darkest pixel there is
    darker than the gray of the cell lines.
    """
    dark = load(png).max(axis=2)  # black lines are dark in every channel
    columns, rows = grid_lines(png, side)
    left = np.zeros((side, side), dtype=bool)
    top = np.zeros((side, side), dtype=bool)
    for r in range(side):
        for c in range(side):
            mid_y = (rows[r] + rows[r + 1]) // 2
            mid_x = (columns[c] + columns[c + 1]) // 2
            if c:
                x = columns[c]
                left[r, c] = dark[mid_y - 3 : mid_y + 4, x - 3 : x + 4].min() < 80
            if r:
                y = rows[r]
                top[r, c] = dark[y - 3 : y + 4, mid_x - 3 : mid_x + 4].min() < 80
    return left, top


def expected(regions: str) -> tuple[np.ndarray, np.ndarray]:
    left = np.zeros((9, 9), dtype=bool)
    top = np.zeros((9, 9), dtype=bool)
    for r in range(9):
        for c in range(9):
            here = regions[r * 9 + c]
            left[r, c] = c > 0 and regions[r * 9 + c - 1] != here
            top[r, c] = r > 0 and regions[(r - 1) * 9 + c] != here
    return left, top


@pytest.fixture(scope="module")
def jigsaw_pages(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A template whose shape cells name Jigsaws, typed into the file; no button runs.

    Play: the published layout "steps"; Analyze: a layout of 81 characters; Generator (and so
    the Print sheet): the published layout "comb".
    """
    folder = tmp_path_factory.mktemp("render-jigsaw")
    path = Path(shutil.copy(TEMPLATE, folder / "jigsaw.xlsm"))
    book = openpyxl.load_workbook(path, keep_vba=True)
    book[layout.PLAY][layout.NAMES[layout.PLAY_GEOMETRY].address] = "9x9-jigsaw:steps"
    book[layout.ANALYZE][layout.NAMES[layout.ANALYZE_GEOMETRY].address] = "9x9-jigsaw:" + OWN_LAYOUT
    book[layout.GENERATOR][layout.SHAPE_SOURCE[layout.GENERATOR]] = "9x9-jigsaw:comb"
    book.save(path)
    pdf = snapshot.convert(path, "pdf", folder / "pdf")
    pages = {}
    for sheet in (layout.PLAY, layout.ANALYZE, layout.PRINT):
        page = page_of(pdf, sheet) if sheet != layout.PRINT else _print_page(pdf)
        pages[sheet] = snapshot.page_png(pdf, page, folder / f"{sheet}.png", dpi=200)
        pages[(sheet, "text")] = snapshot.page_text(pdf, page)
    return pages


def _print_page(pdf: Path) -> int:
    """Return the Print sheet's first page: the one that states the rules."""
    pages = snapshot.page_count(pdf)
    return next(p for p in range(1, pages + 1) if "Fill every row" in snapshot.page_text(pdf, p))


@pytest.mark.parametrize(
    ("sheet", "regions"),
    [
        (layout.PLAY, JIGSAW_LAYOUTS["steps"]),
        (layout.ANALYZE, OWN_LAYOUT),
        (layout.PRINT, JIGSAW_LAYOUTS["comb"]),
    ],
)
def test_a_jigsaw_grid_outlines_its_regions(jigsaw_pages: dict, sheet: str, regions: str):
    geometry(3, 3, regions=regions)  # a layout the engine takes
    left, top = edges(jigsaw_pages[sheet])
    want_left, want_top = expected(regions)
    assert (left == want_left).all(), np.argwhere(left != want_left).tolist()
    assert (top == want_top).all(), np.argwhere(top != want_top).tolist()


def test_the_print_sheet_states_a_jigsaws_rules(jigsaw_pages: dict) -> None:
    text = " ".join(jigsaw_pages[(layout.PRINT, "text")].split())
    assert "Fill every row, column and outlined region with each of 1-9." in text


@pytest.mark.slow  # a whole-workbook render of its own (.ci/run's slow step)
def test_a_classic_grid_keeps_its_boxes(tmp_path: Path) -> None:
    pdf = snapshot.convert(TEMPLATE, "pdf", tmp_path / "pdf")
    png = snapshot.page_png(pdf, page_of(pdf, layout.PLAY), tmp_path / "play.png", dpi=200)
    classic = "".join(str((c // 27) * 3 + c % 9 // 3 + 1) for c in range(81))
    left, top = edges(png)
    want_left, want_top = expected(classic)
    assert (left == want_left).all() and (top == want_top).all()


def test_an_x_sudoku_diagonal_clash_is_drawn_as_you_type(tmp_path: Path) -> None:
    """START an X-Sudoku, PLAY it, type a digit that repeats one only on its diagonal."""
    path = Path(shutil.copy(TEMPLATE, tmp_path / "x.xlsm"))
    book = openpyxl.load_workbook(path, keep_vba=True)
    generator = book[layout.GENERATOR]
    generator[layout.NAMES[layout.GEOMETRY].address] = "9x9-X"
    generator[layout.NAMES[layout.PATTERN].address] = "none"
    generator[layout.NAMES[layout.SEED].address] = 11
    book.save(path)
    run("start", path)
    run("play", path)
    book = openpyxl.load_workbook(path, keep_vba=True)
    play = book[layout.PLAY]
    assert play[layout.NAMES[layout.PLAY_GEOMETRY].address].value == "9x9-X"
    grid = layout.NAMES[layout.PLAY_GRID]
    block = [[cell.value for cell in row] for row in play[layout.NAMES[layout.PLAY_GIVENS].address]]
    puzzle = grid_of(block, geometry(3, 3, True))
    solution = solve(puzzle)
    classic = geometry(3, 3)
    # an empty cell on the main diagonal and a given digit there that no row, column or box
    # of the cell holds: typed, it clashes on the diagonal alone
    diagonal = [r * 9 + r for r in range(9)]
    cell, digit = next(
        (cell, puzzle[other])
        for cell in diagonal
        if not puzzle[cell]
        for other in diagonal
        if puzzle[other]
        and not any(puzzle[p] == puzzle[other] for p in classic.peers[cell])
        and puzzle[other] != solution[cell]
    )
    play[grid.cell(*divmod(cell, 9))] = digit
    book.save(path)
    pdf = snapshot.convert(path, "pdf", tmp_path / "pdf")
    png = snapshot.page_png(pdf, page_of(pdf, layout.PLAY), tmp_path / "play.png", dpi=200)
    found = texts_on(png, render.CLASH_COLOUR)
    red = [text for text, _ in found if contrast(text, rgb(render.CLASH_INK)) < 1.3]
    # the entry and the given it repeats on the diagonal (and the legend's cell, not red)
    assert len(red) == 2, found


@pytest.mark.slow  # a whole-workbook render of its own (.ci/run's slow step)
def test_start_on_a_jigsaw_draws_its_regions_on_print_and_play(tmp_path: Path) -> None:
    """Geometry = 9x9-jigsaw:spiral, START and PLAY: both pages outline the spiral's regions."""
    path = Path(shutil.copy(TEMPLATE, tmp_path / "spiral.xlsm"))
    inputs = {layout.GEOMETRY: "9x9-jigsaw:spiral", layout.PATTERN: "none", layout.SEED: 4}
    assert headless.run("start", path, inputs=inputs).outcome.ok
    assert headless.run("play", path).outcome.ok
    book = openpyxl.load_workbook(path)
    assert (
        book[layout.PLAY][layout.NAMES[layout.PLAY_GEOMETRY].address].value == "9x9-jigsaw:spiral"
    )
    pdf = snapshot.convert(path, "pdf", tmp_path / "pdf")
    want_left, want_top = expected(JIGSAW_LAYOUTS["spiral"])
    for sheet, page in ((layout.PLAY, page_of(pdf, layout.PLAY)), (layout.PRINT, _print_page(pdf))):
        png = snapshot.page_png(pdf, page, tmp_path / f"{sheet}.png", dpi=200)
        left, top = edges(png)
        assert (left == want_left).all() and (top == want_top).all(), sheet
