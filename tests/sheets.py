"""Helpers for the workbook tests: puzzles to and from the sheets' 16x16 blocks, by name."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from xlsudoku.addin import layout
from xlsudoku.engine.grid import CLASSIC, DIGIT_CHARS, Geometry, Grid, geometry_for_cells

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"
PUZZLES = [
    line.split("\t")[:2]
    for line in (Path(__file__).parent / "data" / "addin_puzzles.tsv").read_text().splitlines()
    if line and not line.startswith("#")
]


def load_template() -> openpyxl.Workbook:
    return openpyxl.load_workbook(TEMPLATE, keep_vba=True)


def block_of(text: str, side: int = layout.MAX_SIDE) -> list[list[object]]:
    """Return a one-line puzzle as a full 16x16 block of cell values ('' for blank)."""
    size = geometry_for_cells(len(text)).size
    block: list[list[object]] = [[""] * side for _ in range(side)]
    for index, ch in enumerate(text):
        if ch not in ".0":
            block[index // size][index % size] = DIGIT_CHARS.index(ch) + 1
    return block


def grid_of(block: list[list[object]], geometry: Geometry = CLASSIC) -> Grid:
    """Return the puzzle in the top-left corner of a read block (None or '' = blank)."""
    size = geometry.size
    for r, row in enumerate(block):
        for c, value in enumerate(row):
            if (r >= size or c >= size) and value not in (None, ""):
                raise AssertionError(f"digit {value!r} outside the {geometry.name} corner")
    return Grid(tuple(int(block[r][c] or 0) for r in range(size) for c in range(size)), geometry)


def put(wb: openpyxl.Workbook, name: str, value: object) -> None:
    """Write *value* (a single value or a block of rows) at defined *name* with openpyxl."""
    ref = layout.NAMES[name]
    ws = wb[ref.sheet]
    if not isinstance(value, list):
        ws[ref.top_left] = value
        return
    for r, row in enumerate(value):
        for c, item in enumerate(row):
            ws[ref.cell(r, c)] = None if item == "" else item


def cells_of(name: str) -> list[tuple[str, str]]:
    """Return the (sheet, address) of every cell of defined *name*, row by row."""
    ref = layout.NAMES[name]
    rows, columns = ref.shape
    return [(ref.sheet, ref.cell(r, c)) for r in range(rows) for c in range(columns)]


def address(name: str) -> str:
    """Return the address of defined *name* as messages show it."""
    return layout.NAMES[name].address


def fills(wb, name, colour):
    """Return the (row, column) offsets of block *name* filled with *colour*."""
    ref = layout.NAMES[name]
    found = set()
    for r, row in enumerate(wb[ref.sheet][ref.address]):
        for c, cell in enumerate(row):
            if cell.fill.fill_type == "solid" and cell.fill.fgColor.rgb[-6:] == colour.lstrip("#"):
                found.add((r, c))
    return found
