"""A workbook as a puzzle file: the Collection's rows and the Generator's puzzle.

``xlsudoku format|grade|count|booklet book.xlsm`` (and ``solve book.xlsm --sheet ...``) read
puzzles from the workbook instead of its bytes.  The Collection is read by the **names in its
header row** (:data:`~xlsudoku.addin.layout.COLLECTION_HEADER`), so added or reordered columns
do no harm: ``puzzle`` is needed, ``solution``, ``level``, ``id`` and ``geometry`` are used when
present.  The Generator's puzzle is the ``PuzzleGrid`` block.  Each puzzle carries the cell it
came from (``Collection!C5``), which every message names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlsudoku.addin import layout
from xlsudoku.engine.formats import parse_puzzle
from xlsudoku.engine.grid import Grid, SudokuError

PARTS = ("all", "collection", "generator")


class WorkbookInputError(SudokuError):
    """The workbook cannot be read as puzzles (missing, damaged, no Collection header)."""


@dataclass(frozen=True, slots=True)
class WorkbookPuzzle:
    """A puzzle found in a workbook.

    Attributes:
        label: Where it is, e.g. ``Collection!C5`` (messages start with it).
        puzzle: The puzzle, or why the cell cannot be read.
        solution: The row's solution text, if the Collection has one.
        level: The row's level, if any.
        ident: ``id 7`` (the Collection's id), or the label.
        score: The row's score, if any.
        profile: The rating profile of the row's level and score, if the row names it.
    """

    label: str
    puzzle: Grid | SudokuError
    solution: str | None = None
    level: str | None = None
    ident: str = ""
    score: str | None = None
    profile: str | None = None


def is_workbook(path: str) -> bool:
    """Return True when *path* names an .xlsx or .xlsm file.

    >>> is_workbook("Book.XLSM"), is_workbook("puzzles.txt")
    (True, False)
    """
    from xlsudoku.xlsm.workbook import is_workbook_path

    return is_workbook_path(path)


def read_workbook(path: str, part: str = "all", validate: bool = True) -> list[WorkbookPuzzle]:
    """Return the puzzles of the workbook at *path*: Collection rows, then the Generator's.

    Args:
        path: An .xlsx or .xlsm file.
        part: ``collection``, ``generator`` or ``all`` (both; the Generator's puzzle only
            when it is not already in the Collection).
        validate: Treat a digit repeated in a house as an error.

    Raises:
        WorkbookInputError: The file is missing or not a workbook, or it has no Collection
            sheet or header with a ``puzzle`` column (when the Collection is asked for).
    """
    from xlsudoku.xlsm.errors import WorkbookError
    from xlsudoku.xlsm.workbook import load

    if part not in PARTS:
        raise WorkbookInputError(f"unknown part {part!r}: use {', '.join(PARTS)}")
    try:
        book, _ = load(Path(path), values_only=True)
    except WorkbookError as error:
        raise WorkbookInputError(str(error)) from None
    try:
        found = _collection(book, path, validate) if part != "generator" else []
        if part != "collection":
            known = {str(p.puzzle) for p in found if isinstance(p.puzzle, Grid)}
            found.extend(p for p in _generator(book) if str(p.puzzle) not in known)
        return found
    finally:
        book.close()


def _collection(book: Any, path: str, validate: bool) -> list[WorkbookPuzzle]:
    ref = layout.NAMES[layout.COLLECTION_HEADER]
    if ref.sheet not in book.sheetnames:
        raise WorkbookInputError(f"{path}: no {ref.sheet} sheet")
    header_row, first_col, _, _ = ref.bounds
    rows = book[ref.sheet].iter_rows(min_row=header_row, min_col=first_col, values_only=True)
    header = [str(v).strip().lower() if v is not None else "" for v in next(rows, ())]
    if "puzzle" not in header:
        where = f"{ref.sheet}!{layout.cell_address(header_row, first_col)}"
        raise WorkbookInputError(f"{path}: no 'puzzle' column in the header row at {where}")
    column = {name: i for i, name in enumerate(header) if name}
    found = []
    for number, values in enumerate(rows, start=header_row + 1):
        row = {name: values[i] if i < len(values) else None for name, i in column.items()}
        if all(v is None or str(v).strip() == "" for v in row.values()):
            continue
        cell = f"{ref.sheet}!{layout.cell_address(number, first_col + column['puzzle'])}"
        ident = row.get("id")
        found.append(
            WorkbookPuzzle(
                label=cell,
                puzzle=_row_puzzle(row, validate),
                solution=_text(row.get("solution")),
                level=_text(row.get("level")),
                ident=f"id {_text(ident)}" if _text(ident) else f"row {number}",
                score=_text(row.get("score")),
                profile=_text(row.get("profile")),
            )
        )
    return found


def _text(value: object) -> str | None:
    if value is None or str(value).strip() == "":
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _row_puzzle(row: dict[str, object], validate: bool) -> Grid | SudokuError:
    value = row["puzzle"]
    if isinstance(value, int | float):
        return SudokuError(
            "the puzzle is a number (Excel dropped its leading zeros); store it as text"
        )
    text = _text(value)
    if text is None:
        return SudokuError("no puzzle in this row")
    from xlsudoku.production.spec import geometry_named

    try:
        name = _text(row.get("geometry"))
        geometry = geometry_named(name) if name else None
        return parse_puzzle(text, geometry, validate)
    except (SudokuError, ValueError) as error:
        return error if isinstance(error, SudokuError) else SudokuError(str(error))


def _generator(book: Any) -> list[WorkbookPuzzle]:
    from xlsudoku.addin.actions import generator_puzzle
    from xlsudoku.addin.cellio import MissingPart, OpenpyxlIO

    ref = layout.NAMES[layout.PUZZLE_GRID]
    io = OpenpyxlIO(book)
    try:  # a workbook without the Generator's grid and its shape cells has no puzzle there
        io.require([layout.PUZZLE_GRID, layout.STATS, layout.GEOMETRY])
    except MissingPart:
        return []
    label = f"{ref.sheet}!{ref.address}"
    try:
        puzzle: Grid | SudokuError = generator_puzzle(io)
    except SudokuError as error:
        puzzle = error
    if isinstance(puzzle, Grid) and puzzle.given_count == 0:
        return []
    return [WorkbookPuzzle(label=label, puzzle=puzzle, ident=ref.sheet)]
