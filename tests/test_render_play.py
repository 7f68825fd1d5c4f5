"""What a player sees, printed by LibreOffice: clashes and the highlight drawn by the sheet itself,
every text on every fill at 4.5:1 or more, and the Stats sheet's charts.

The clash and the highlighted digit are conditional formats: the digits are typed into the file
(no button runs after them), and LibreOffice draws them when it prints.  Each fill's cells are
found on the printed page (its exact colour, one connected patch a cell) and the text inside a
cell is the pixel that stands out most from the fill there (the core of a glyph; its smoothed
edge is paler); WCAG's contrast ratio of the two is measured.

These tests need ``soffice`` (LibreOffice) and poppler (see tests/test_render.py).
"""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from PIL import Image
from sheets import PUZZLES, TEMPLATE, grid_of

from xlsudoku.addin import headless, layout, render
from xlsudoku.bench import snapshot
from xlsudoku.engine.solver import solve
from xlsudoku.template.styles import ACCENT

pytestmark = pytest.mark.render

AA = 4.5  # WCAG 2 AA, normal text


@pytest.fixture(scope="module", autouse=True)
def tools(render_tools: None) -> None:
    """Every test here renders with LibreOffice (conftest's ``render_tools``)."""


def relative_luminance(colour: tuple[int, int, int]) -> float:
    """Return WCAG 2's relative luminance of an RGB colour (0 black, 1 white)."""
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        for c in (v / 255 for v in colour)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    light, dark = sorted(map(relative_luminance, (first, second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def run(command: str, path: Path) -> str:
    outcome = headless.run(command, path).outcome
    assert outcome.ok, outcome.status
    return outcome.status


def page_of(pdf: Path, sheet: str) -> int:
    pages = snapshot.page_count(pdf)
    (page,) = [p for p in range(1, pages + 1) if f"{sheet} · " in snapshot.page_text(pdf, p)]
    return page


@functools.cache
def load(png: Path) -> np.ndarray:
    """Return the page's pixels as an (height, width, 3) array."""
    with Image.open(png) as image:
        return np.asarray(image.convert("RGB"), dtype=np.int16)


def luminance(pixels: np.ndarray) -> np.ndarray:
    """Return WCAG 2's relative luminance of every pixel (0 black, 1 white)."""
    channels = pixels / 255
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def patches(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Return the bounding boxes (x0, y0, x1, y1) of the connected patches of *mask*.

    Each row's runs of True are joined to the runs they touch in the row above (union-find).
    """
    runs: list[tuple[int, int, int]] = []  # (y, first x, last x)
    row_runs: list[list[int]] = []
    for y, row in enumerate(mask):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        here = []
        for first, end in zip(edges[::2], edges[1::2], strict=True):
            here.append(len(runs))
            runs.append((y, int(first), int(end) - 1))
        row_runs.append(here)
    parent = list(range(len(runs)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for y in range(1, len(row_runs)):
        above, here = row_runs[y - 1], row_runs[y]
        i = j = 0
        while i < len(above) and j < len(here):
            _, a0, a1 = runs[above[i]]
            _, b0, b1 = runs[here[j]]
            if a0 <= b1 and b0 <= a1:
                parent[root(here[j])] = root(above[i])
            if a1 < b1:
                i += 1
            else:
                j += 1
    boxes: dict[int, list[int]] = {}
    for index, (y, first, last) in enumerate(runs):
        box = boxes.setdefault(root(index), [first, y, last, y])
        box[0], box[2] = min(box[0], first), max(box[2], last)
        box[1], box[3] = min(box[1], y), max(box[3], y)
    return [(box[0], box[1], box[2], box[3]) for box in boxes.values()]


def texts_on(png: Path, fill: str) -> list[tuple[tuple[int, int, int], float]]:
    """Return (text colour, contrast) of every cell of *fill* on the page that holds text.

    A cell is a connected patch of the fill's printed colour (a patch as big as the page's
    ground is not one); its text is the pixel that contrasts most with the fill inside the
    cell's lines: the core of a glyph (its smoothed edge is paler).
    """
    pixels = load(png)
    page = pixels.shape[0] * pixels.shape[1]
    rows, columns = np.nonzero(np.abs(pixels - np.array(rgb(fill))).max(axis=2) <= 3)
    if rows.size:  # only the part of the page where the fill is
        pixels = pixels[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1]
    near = np.abs(pixels - np.array(rgb(fill))).max(axis=2) <= 3
    if not near.any():
        return []
    colours, counts = np.unique(pixels[near], axis=0, return_counts=True)
    drawn = colours[counts.argmax()]  # the fill as printed
    mask = (pixels == drawn).all(axis=2)
    ground = float(luminance(drawn[None, :])[0])
    found = []
    for x0, y0, x1, y1 in patches(mask):
        width, height = x1 - x0, y1 - y0
        if width < 20 or height < 20 or width * height > page / 40:
            continue
        dx, dy = width // 6, height // 6  # inside the cell's lines
        inside = luminance(pixels[y0 + dy : y1 - dy, x0 + dx : x1 - dx])
        ratio = (np.maximum(inside, ground) + 0.05) / (np.minimum(inside, ground) + 0.05)
        if (ratio > 1.5).sum() < 8:
            continue  # an empty cell
        y, x = np.unravel_index(ratio.argmax(), ratio.shape)
        text = pixels[y0 + dy + y, x0 + dx + x]
        found.append(((int(text[0]), int(text[1]), int(text[2])), float(ratio.max())))
    return found


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Two games and a Collection, printed.

    Book 1: PLAY (seed 7); a digit typed twice in row 1 (a clash: an entry equal to a given),
    a right entry of digit D and Highlight digit = D, a wrong entry that clashes with nothing,
    then CHECK; the Analyze sheet after three HINTs (a digit placed, cause and effect
    coloured); eight puzzles imported and STATS.  Book 2: PLAY, every empty cell but a few
    filled right, then HINT (its house coloured, your digits in it).
    """
    folder = tmp_path_factory.mktemp("render-play")
    first = Path(shutil.copy(TEMPLATE, folder / "first.xlsm"))
    book = openpyxl.load_workbook(first, keep_vba=True)
    book[layout.GENERATOR][layout.NAMES[layout.SEED].address] = 7
    book[layout.GENERATOR][layout.NAMES[layout.IMPORT_SOURCE].address] = "\n".join(
        puzzle for puzzle, _ in PUZZLES
    )
    book.save(first)
    run("start", first)
    run("play", first)
    run("import", first)
    run("stats", first)
    book = openpyxl.load_workbook(first, keep_vba=True)
    play = book[layout.PLAY]
    grid = layout.NAMES[layout.PLAY_GRID]
    givens = play[layout.NAMES[layout.PLAY_GIVENS].address]
    puzzle = grid_of([[c.value for c in row] for row in givens])
    solution = solve(puzzle)
    empty = [cell for cell in range(81) if not puzzle[cell]]
    clash_cell = next(cell for cell in empty if cell < 9)
    clash_digit = next(puzzle[cell] for cell in range(9) if puzzle[cell])
    right = next(cell for cell in empty if cell // 9 > 2 and cell % 9 > 2)
    peers = puzzle.geometry.peers

    def clashes(cell: int, digit: int) -> bool:
        return any(puzzle[p] == digit for p in peers[cell]) or any(
            digit == typed and p in peers[cell] for p, typed in entries.items()
        )

    entries = {clash_cell: clash_digit, right: solution[right]}
    wrong, wrong_digit = next(
        (cell, digit)
        for cell in empty
        if cell // 9 > 5 and cell not in entries
        for digit in range(1, 10)
        if digit != solution[cell] and not clashes(cell, digit)
    )
    entries[wrong] = wrong_digit
    for cell, digit in entries.items():
        play[grid.cell(*divmod(cell, 9))] = digit
    book.save(first)
    run("check", first)
    book = openpyxl.load_workbook(first, keep_vba=True)
    book[layout.PLAY][layout.NAMES[layout.PLAY_HIGHLIGHT].address] = solution[right]
    book[layout.ANALYZE][layout.NAMES[layout.ANALYZE_STRING].address] = PUZZLES[0][0]
    book.save(first)
    run("analyze", first)
    for _ in range(3):
        run("hint", first)

    second = Path(shutil.copy(TEMPLATE, folder / "second.xlsm"))
    book = openpyxl.load_workbook(second, keep_vba=True)
    book[layout.GENERATOR][layout.NAMES[layout.SEED].address] = 7
    book.save(second)
    run("start", second)
    run("play", second)
    book = openpyxl.load_workbook(second, keep_vba=True)
    for cell in empty[:-4]:
        book[layout.PLAY][grid.cell(*divmod(cell, 9))] = solution[cell]
    book.save(second)
    hint = run("play-hint", second)
    assert hint.startswith("Hint 1 of 3")

    pages = {}
    for name, path in (("first", first), ("second", second)):
        pdf = snapshot.convert(path, "pdf", folder / f"pdf-{name}")
        for sheet in (layout.PLAY, layout.ANALYZE, layout.STATS_SHEET):
            page = page_of(pdf, sheet)
            png = folder / f"{name}-{sheet}.png"
            pages[(name, sheet)] = snapshot.page_png(pdf, page, png, dpi=300)
            pages[(name, sheet, "text")] = snapshot.page_text(pdf, page)
    pages["puzzle"] = puzzle
    pages["highlighted"] = sum(
        1 for cell in range(81) if (puzzle[cell] or entries.get(cell)) == solution[right]
    )
    return pages


def test_a_clash_typed_into_the_file_is_drawn_without_python(printed: dict) -> None:
    found = texts_on(printed[("first", layout.PLAY)], render.CLASH_COLOUR)
    # the entry and the given it repeats: both drawn dark red on amber (and the legend's cell)
    red = [(text, ratio) for text, ratio in found if contrast(text, rgb(render.CLASH_INK)) < 1.3]
    assert len(red) == 2 and len(found) == 3, found
    assert min(ratio for _, ratio in found) >= AA


def test_the_highlighted_digit_is_drawn_in_every_cell_holding_it(printed: dict) -> None:
    found = texts_on(printed[("first", layout.PLAY)], render.HIGHLIGHT_COLOUR)
    assert len(found) == printed["highlighted"], found


@pytest.mark.parametrize(
    ("book", "sheet", "fill"),
    [
        ("first", layout.PLAY, render.CLASH_COLOUR),
        ("first", layout.PLAY, render.HIGHLIGHT_COLOUR),
        ("first", layout.PLAY, render.WRONG_COLOUR),
        ("first", layout.PLAY, render.HINT_REGION_COLOUR),  # the legend
        ("second", layout.PLAY, render.HINT_REGION_COLOUR),
        ("first", layout.ANALYZE, render.HINT_CAUSE_COLOUR),
        ("first", layout.ANALYZE, render.HINT_EFFECT_COLOUR),
        ("first", layout.ANALYZE, render.DIFFER_COLOUR),  # the legend
        ("first", layout.ANALYZE, render.SUGGESTED_GIVEN_COLOUR),  # the legend
        ("first", layout.ANALYZE, render.GRID_FILL),
    ],
)
def test_every_text_on_every_fill_reads_at_aa(printed: dict, book: str, sheet: str, fill: str):
    found = texts_on(printed[(book, sheet)], fill)
    assert found, f"no text on {fill} on the {sheet} sheet"
    worst = min(ratio for _, ratio in found)
    print(f"{sheet} {fill}: {len(found)} cells with text, lowest contrast {worst:.2f}")
    assert worst >= AA, [f"#{''.join(f'{v:02X}' for v in t)} {r:.2f}" for t, r in found]


def test_blue_entries_are_measured_on_the_hint_and_check_fills(printed: dict) -> None:
    blue = rgb(render.ENTRY_INK)
    for book, fill in (("first", render.WRONG_COLOUR), ("second", render.HINT_REGION_COLOUR)):
        texts = [text for text, _ in texts_on(printed[(book, layout.PLAY)], fill)]
        assert any(contrast(text, blue) < 1.3 for text in texts), (fill, texts)


def test_hint_digits_on_the_analyze_sheet_are_not_drawn_as_givens(printed: dict) -> None:
    page = printed[("first", layout.ANALYZE)]
    texts = [text for text, _ in texts_on(page, render.HINT_EFFECT_COLOUR)]
    blue = rgb(render.ENTRY_INK)
    assert any(contrast(text, blue) < 1.3 for text in texts), texts


def test_the_stats_charts_are_drawn_from_the_counts(printed: dict) -> None:
    text = printed[("first", layout.STATS_SHEET, "text")]
    for _, _, title in layout.STATS_TABLES:
        assert title in text
    for label in layout.LEVEL_LABELS[:3]:
        assert label in text
    accent = np.array(rgb(ACCENT))

    def bar_pixels(png: Path) -> int:
        return int((np.abs(load(png) - accent).max(axis=2) <= 12).sum())

    bars = bar_pixels(printed[("first", layout.STATS_SHEET)])
    assert bars > 20_000  # the bars are drawn
    empty = bar_pixels(printed[("second", layout.STATS_SHEET)])  # no STATS: no bar
    assert empty < bars / 10


def test_every_ink_on_every_fill_the_workbook_writes_reads_at_aa() -> None:
    """The same, computed from the colours the template and the buttons write (every pair)."""
    book = openpyxl.load_workbook(TEMPLATE)
    inks = {render.GIVEN_INK, render.ENTRY_INK, "#374151", "#1F2937"}  # + marks, legends
    fills = {
        render.GRID_FILL, render.PLAY_FILL, render.DIAGONAL_COLOUR, render.HINT_REGION_COLOUR,
        render.HINT_CAUSE_COLOUR, render.HINT_EFFECT_COLOUR, render.DIFFER_COLOUR,
        render.SUGGESTED_GIVEN_COLOUR, render.WRONG_COLOUR, render.HIGHLIGHT_COLOUR,
    }  # fmt: skip
    pairs = {(fill, ink) for fill in fills for ink in inks}
    for name in (layout.PLAY_GRID, layout.ANALYZE_GRID):
        ref = layout.NAMES[name]
        for block in book[ref.sheet].conditional_formatting:
            for rule in block.rules:
                fill = rule.dxf.fill if rule.dxf is not None else None
                if fill is None or fill.bgColor is None or fill.bgColor.rgb in (None, "00000000"):
                    continue
                colour = "#" + str(fill.bgColor.rgb)[-6:]
                font = rule.dxf.font
                if font is not None and font.color is not None:
                    pairs.add((colour, "#" + str(font.color.rgb)[-6:]))
                else:
                    pairs |= {(colour, render.GIVEN_INK), (colour, render.ENTRY_INK)}
    assert (render.CLASH_COLOUR, render.CLASH_INK) in pairs
    low = {
        (fill, ink): round(contrast(rgb(fill), rgb(ink)), 2)
        for fill, ink in pairs
        if contrast(rgb(fill), rgb(ink)) < AA
    }
    assert not low, low
