"""xlwings Lite / xlwings Server bindings: the buttons as scripts, and four custom functions.

Scripts (``@xw.script``, one per button) take the workbook xlwings hands them and delegate to
:mod:`xlsudoku.addin.actions`.  Custom functions (``@xw.func``) are pure and deterministic: the same
arguments always give the same result (SUDOKU_GENERATE takes its seed as an argument), and a
problem comes back as one cell of text starting with ``ERROR:``.

Outside xlwings Lite/Server (``XLWINGS_ON_SERVER`` unset, e.g. on Linux) the decorators leave
the functions unchanged, so this module imports anywhere.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from xlsudoku.addin import actions, params, render
from xlsudoku.addin.cellio import XlwingsIO
from xlsudoku.engine import solver
from xlsudoku.engine.generate import generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import SudokuError

__all__ = [
    "start",
    "save_to_collection",
    "clear",
    "import_puzzles",
    "delete_from_collection",
    "sort_collection",
    "analyze",
    "hint",
    "solve",
    "sudoku_solve",
    "sudoku_count",
    "sudoku_grade",
    "sudoku_generate",
]

Rows = list[list[Any]]


@xw.script
def start(book: xw.Book) -> None:
    """START: generate a puzzle from the Generator sheet's parameters."""
    actions.start(XlwingsIO(book))


@xw.script
def save_to_collection(book: xw.Book) -> None:
    """SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection."""
    actions.save_to_collection(XlwingsIO(book))


@xw.script
def clear(book: xw.Book) -> None:
    """CLEAR: blank the puzzle, solution and statistics (the parameters stay)."""
    actions.clear(XlwingsIO(book))


@xw.script
def import_puzzles(book: xw.Book) -> None:
    """IMPORT: add the puzzles named in Import from to the Collection."""
    actions.import_puzzles(XlwingsIO(book))


@xw.script
def delete_from_collection(book: xw.Book) -> None:
    """DELETE: move the Collection rows listed in Delete ids to the Removed sheet."""
    actions.delete_from_collection(XlwingsIO(book))


@xw.script
def sort_collection(book: xw.Book) -> None:
    """SORT: reorder the Collection's rows by the Sort by column."""
    actions.sort_collection(XlwingsIO(book))


@xw.script
def analyze(book: xw.Book) -> None:
    """ANALYZE: check the typed puzzle, count its solutions, grade it."""
    actions.analyze(XlwingsIO(book))


@xw.script
def hint(book: xw.Book) -> None:
    """HINT: the next step for the typed puzzle, more of it on each press."""
    actions.hint(XlwingsIO(book))


@xw.script
def solve(book: xw.Book) -> None:
    """SOLVE: write the typed puzzle's solution."""
    actions.solve(XlwingsIO(book))


def _error(error: Exception) -> Rows:
    return [[f"ERROR: {error}"]]


@xw.func
@xw.arg("grid", ndim=2, doc="a 9x9 range: digits 1-9, blank or 0 for an empty cell")
def sudoku_solve(grid: Rows) -> Rows:
    """Return the solution of a 9x9 puzzle (9x9 array), or an error text."""
    try:
        puzzle = params.read_grid(None, grid)
        solution = solver.solve(puzzle)
    except SudokuError as error:
        return _error(error)
    if solution is None:
        return [["ERROR: no solution"]]
    return render.grid_rows(solution)


@xw.func
@xw.arg("grid", ndim=2, doc="a 9x9 range: digits 1-9, blank or 0 for an empty cell")
def sudoku_count(grid: Rows, limit: Any = 2) -> Rows:
    """Return how many solutions the puzzle has, counting up to limit (default 2)."""
    limit = 2 if limit is None or limit == "" else limit
    try:
        puzzle = params.read_grid(None, grid)
        if isinstance(limit, bool) or not isinstance(limit, int | float):
            raise SudokuError(f"limit must be a whole number from 1 to 1000, got {limit!r}")
        if not 1 <= limit <= 1000 or int(limit) != limit:
            raise SudokuError(f"limit must be a whole number from 1 to 1000, got {limit:g}")
    except SudokuError as error:
        return _error(error)
    return [[solver.count_solutions(puzzle, int(limit))]]


@xw.func
@xw.arg("grid", ndim=2, doc="a 9x9 range: digits 1-9, blank or 0 for an empty cell")
def sudoku_grade(grid: Rows) -> Rows:
    """Return the level and the score (Sudoku Explainer scale) of a puzzle: one row, 2 cells."""
    try:
        graded = grade(params.read_grid(None, grid))
    except SudokuError as error:
        return _error(error)
    return [[graded.label, graded.score]]


@xw.func
def sudoku_generate(opens: Any = 26, pattern: Any = 1, seed: Any = 1) -> Rows:
    """Return a 9x9 puzzle (blank = empty) with about `opens` givens, 180° symmetric.

    The same opens, pattern and seed always give the same puzzle.
    """
    try:
        result = generate(params.function_request(opens, pattern, seed))
    except SudokuError as error:
        return _error(error)
    return render.grid_rows(result.puzzle)
