"""What a person sees on a PDF page: the grids drawn (poppler's pixels) and their digits (text).

``pdftoppm`` renders a page in grey; each grid is found from its long dark lines alone (no
knowledge of the layout code): horizontal runs of dark pixels that share their left and right
ends make a column of grids, which the unbroken runs of its left border split into grids.
``pdftotext -bbox`` gives each word's box; a word inside a grid goes to the cell under its
centre.  So a test can read back exactly which digit a reader sees in which cell.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

DPI = 100
DARK = 200  # grey level below which a pixel is ink (thin lines are anti-aliased grey)


def need_poppler() -> None:
    for tool in ("pdftoppm", "pdftotext"):
        if shutil.which(tool) is None:
            pytest.skip(f"poppler's {tool} is not installed")


@dataclass
class SeenGrid:
    top: float  # pixels
    bottom: float
    left: float
    right: float
    rows: int  # horizontal lines found minus one
    columns: int  # vertical lines found minus one
    thick_rows: list[int]  # which horizontal lines are thick (0 = top)
    thick_columns: list[int]  # which vertical lines are thick (0 = left)
    text: str = ""  # the cells as read from the text layer, row-major, '.' empty


def render(pdf: Path, page: int, work: Path) -> np.ndarray:
    prefix = work / f"page{page}"
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(DPI), "-f", str(page), "-l", str(page), str(pdf), prefix],
        check=True,
    )
    (found,) = work.glob(f"page{page}*.pgm")
    data = found.read_bytes()
    found.unlink()
    match = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert match, "not a binary PGM"
    width, height = int(match.group(1)), int(match.group(2))
    return np.frombuffer(data[match.end() :], dtype=np.uint8).reshape(height, width)


def _runs(line: np.ndarray, shortest: int) -> list[tuple[int, int]]:
    dark = np.concatenate(([False], line < DARK, [False]))
    edges = np.flatnonzero(np.diff(dark.astype(np.int8)))
    return [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= shortest]


def _bands(values: list[int]) -> list[list[int]]:
    """Runs of consecutive integers (one drawn line covers a few pixel rows)."""
    out: list[list[int]] = []
    for v in sorted(values):
        if out and v - out[-1][-1] <= 1:
            out[-1].append(v)
        else:
            out.append([v])
    return out


def _groups(values: list[int]) -> list[float]:
    return [sum(g) / len(g) for g in _bands(values)]


def _thick(ink: list[float]) -> list[int]:
    """Indices of the lines with clearly more ink than the thinnest (poppler draws a hairline
    one pixel wide, so a thick line has at least 1.5 times its ink)."""
    return [i for i, amount in enumerate(ink) if amount >= 1.5 * min(ink)]


def _ink(strips: np.ndarray) -> float:
    """Width in pixels of the ink in *strips* (rows of a horizontal line, or columns)."""
    return float((255 - strips.astype(np.float64)).mean(axis=1).sum() / 255)


def find_grids(image: np.ndarray, shortest_mm: float = 20) -> list[SeenGrid]:
    shortest = int(shortest_mm / 25.4 * DPI)
    by_extent: dict[tuple[int, int], list[int]] = {}  # (left, right) of a line -> its rows
    for y in range(image.shape[0]):
        for a, b in _runs(image[y], shortest):
            key = next((k for k in by_extent if abs(k[0] - a) <= 4 and abs(k[1] - b) <= 4), (a, b))
            by_extent.setdefault(key, []).append(y)
    grids = []
    for (a, b), ys in by_extent.items():
        # The left border runs unbroken from each grid's top line to its bottom line: its
        # vertical runs split a column of grids into grids.
        border = image[:, a + 1 : a + 3].min(axis=1)
        for top, bottom in _runs(border, shortest):
            inside = [band for band in _bands(ys) if top - 3 <= band[0] <= bottom + 3]
            if len(inside) >= 3:
                grids.append(_grid(image, inside, a, b))
    return sorted(grids, key=lambda g: (round(g.top / 20), g.left))


def _grid(image: np.ndarray, bands: list[list[int]], left: int, right: int) -> SeenGrid:
    lines = [sum(b) / len(b) for b in bands]
    top, bottom = int(lines[0]), int(round(lines[-1]))
    height = bottom - top
    xs = [
        x
        for x in range(max(0, left - 3), min(image.shape[1], right + 3))
        if any(b - a >= 0.9 * height for a, b in _runs(image[top - 2 : bottom + 3, x], 1))
    ]
    columns = _bands(xs)
    row_ink = [_ink(image[b[0] - 1 : b[-1] + 2, left:right]) for b in bands]
    column_ink = [_ink(image[top:bottom, c[0] - 1 : c[-1] + 2].T) for c in columns]
    return SeenGrid(
        top,
        bottom,
        left,
        right,
        len(lines) - 1,
        len(columns) - 1,
        _thick(row_ink),
        _thick(column_ink),
    )


def read_cells(pdf: Path, page: int, grids: list[SeenGrid], chars: str) -> None:
    """Fill each grid's ``text`` from the words of the page's text layer."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    scale = DPI / 72
    words = [
        (
            float(x0) * scale,
            float(y0) * scale,
            float(x1) * scale,
            float(y1) * scale,
            html.unescape(t),
        )
        for x0, y0, x1, y1, t in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
            out,
        )
    ]
    for grid in grids:
        cells = ["."] * (grid.rows * grid.columns)
        cell_h = (grid.bottom - grid.top) / grid.rows
        cell_w = (grid.right - grid.left) / grid.columns
        for x0, y0, x1, y1, text in words:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            if grid.left < cx < grid.right and grid.top < cy < grid.bottom:
                # a digit above 9 is printed as the number (10-16), as the sheets write it
                assert text.isdigit() and 1 <= int(text) <= len(chars), f"{text!r} in a grid"
                text = chars[int(text) - 1]
                index = int((cy - grid.top) / cell_h) * grid.columns + int(
                    (cx - grid.left) / cell_w
                )
                assert cells[index] == ".", "two digits in one cell"
                cells[index] = text
        grid.text = "".join(cells)


def page_text(pdf: Path, page: int) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def seen(pdf: Path, page: int, work: Path) -> list[SeenGrid]:
    grids = find_grids(render(pdf, page, work))
    read_cells(pdf, page, grids, "123456789ABCDEFG")
    return grids
