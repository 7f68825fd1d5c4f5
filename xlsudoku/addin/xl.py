"""xlwings Lite / xlwings Server bindings: the buttons as scripts, and four custom functions.

Scripts (``@xw.script``, one per button) take the workbook xlwings hands them and delegate to
:mod:`xlsudoku.addin.actions`.  Custom functions (``@xw.func``) are pure and deterministic: the same
arguments always give the same result (SUDOKU_GENERATE takes its seed as an argument), and a
problem comes back as one cell of text starting with ``ERROR:`` that names the argument (and,
for a grid, the cell).  Every argument is read with ``err_to_str``, so an Excel error value such
as ``#N/A`` reaches the checks as its text and is reported, never read as a blank or a default.

Outside xlwings Lite/Server (``XLWINGS_ON_SERVER`` unset, e.g. on Linux) the decorators leave
the functions unchanged, so this module imports anywhere.

No ``from __future__ import annotations`` here: xlwings before 0.37 matches a script's
parameter by its annotation object (``xw.Book``), which that import would turn into a string.
"""

from collections.abc import Callable
from typing import Any, TypeVar

import xlwings as xw

from xlsudoku.addin import actions, params, render
from xlsudoku.addin.cellio import XlwingsIO
from xlsudoku.engine import analysis, solver
from xlsudoku.engine.generate import generate
from xlsudoku.engine.generate.deep import LOW_CLUE_TARGET
from xlsudoku.engine.grid import Grid, SudokuError

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
    "play",
    "check",
    "play_hint",
    "play_solve",
    "sudoku_solve",
    "sudoku_count",
    "sudoku_grade",
    "sudoku_generate",
]

Rows = list[list[Any]]
F = TypeVar("F", bound=Callable[..., Any])


def _unchanged(function: F) -> F:
    return function


# xlwings before 0.37 defines ``xw.script`` only where scripts exist (Lite, Server: a licence key
# is set); classic desktop xlwings then has none, and the script functions stay plain.
script: Callable[[F], F] = getattr(xw, "script", _unchanged)

GRID_DOC = "a 9x9 range: digits 1-9, blank or 0 for an empty cell"
MAX_LIMIT = 1000


@script
async def start(book: xw.Book) -> None:
    """START: generate a puzzle; a long run first says it may take up to the time limit."""
    io = XlwingsIO(book)
    if actions.start_notice(io) is not None:
        await _show_now(book)
    actions.start(io)


@script
def save_to_collection(book: xw.Book) -> None:
    """SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection."""
    actions.save_to_collection(XlwingsIO(book))


@script
def clear(book: xw.Book) -> None:
    """CLEAR: blank the puzzle, solution and statistics (the parameters stay)."""
    actions.clear(XlwingsIO(book))


@script
def import_puzzles(book: xw.Book) -> None:
    """IMPORT: add the puzzles named in Import from to the Collection."""
    actions.import_puzzles(XlwingsIO(book))


@script
def delete_from_collection(book: xw.Book) -> None:
    """DELETE: move the Collection rows listed in Delete ids to the Removed sheet."""
    actions.delete_from_collection(XlwingsIO(book))


@script
def sort_collection(book: xw.Book) -> None:
    """SORT: reorder the Collection's rows by the Sort by column."""
    actions.sort_collection(XlwingsIO(book))


@script
def analyze(book: xw.Book) -> None:
    """ANALYZE: check the typed puzzle, count its solutions, grade it."""
    actions.analyze(XlwingsIO(book))


@script
def hint(book: xw.Book) -> None:
    """HINT: the next step for the typed puzzle, more of it on each press."""
    actions.hint(XlwingsIO(book))


@script
def solve(book: xw.Book) -> None:
    """SOLVE: write the typed puzzle's solution."""
    actions.solve(XlwingsIO(book))


@script
def play(book: xw.Book) -> None:
    """PLAY: put the puzzle Play from names on the Play sheet's grid, givens locked."""
    actions.play(XlwingsIO(book))


@script
def check(book: xw.Book) -> None:
    """CHECK: mark the wrong entries on the Play sheet and say how many cells are left."""
    actions.check(XlwingsIO(book))


@script
def play_hint(book: xw.Book) -> None:
    """HINT (Play sheet): the next step from your own entries and pencil marks."""
    actions.play_hint(XlwingsIO(book))


@script
def play_solve(book: xw.Book) -> None:
    """SOLVE (Play sheet): fill the rest of the grid."""
    actions.play_solve(XlwingsIO(book))


async def _show_now(book: xw.Book) -> None:
    """Send the writes so far to Excel now: xlwings Lite can (``Book.flush``), Server cannot.

    On xlwings Server a script's writes travel in its one reply, so there the notice is
    replaced by the final status before Excel shows either.
    """
    try:
        await book.flush()
    except (AttributeError, NotImplementedError):
        pass


def _error(error: Exception | str) -> Rows:
    return [[f"ERROR: {error}"]]


def _grid(rows: Any) -> Grid:
    """Return the puzzle in the range argument ``grid``; messages start with ``grid:``."""
    try:
        return params.read_grid(None, rows)
    except SudokuError as error:
        raise SudokuError(f"grid: {error}") from None


def _limit(value: Any) -> int:
    """Return SUDOKU_COUNT's ``limit``: blank is 2, else a whole number from 1 to MAX_LIMIT."""
    if params.is_blank(value):
        return 2
    rule = f"limit must be a whole number from 1 to {MAX_LIMIT}"
    if isinstance(value, str) and value.strip().upper() in params.EXCEL_ERRORS:
        raise SudokuError(f"limit holds the Excel error {value.strip().upper()}; {rule}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SudokuError(f"{rule}, got {params.shown(value)}")
    if not 1 <= value <= MAX_LIMIT or int(value) != value:
        raise SudokuError(f"{rule}, got {params.shown(value)}")
    return int(value)


@xw.func
@xw.arg("grid", ndim=2, err_to_str=True, doc=GRID_DOC)
def sudoku_solve(grid: Rows) -> Rows:
    """Return the solution of a 9x9 puzzle (9x9 array); an error text if it has none or several."""
    try:
        found = solver.solutions(_grid(grid), 2)
    except SudokuError as error:
        return _error(error)
    if not found:
        return _error("the puzzle has no solution")
    if len(found) > 1:
        return _error(
            "the puzzle has more than one solution; SUDOKU_COUNT counts them, "
            "and ANALYZE shows a clue that makes it unique"
        )
    return render.grid_rows(found[0])


@xw.func
@xw.arg("grid", ndim=2, err_to_str=True, doc=GRID_DOC)
@xw.arg("limit", err_to_str=True, doc=f"stop counting here: 1-{MAX_LIMIT}, blank = 2")
def sudoku_count(grid: Rows, limit: Any = None) -> Rows:
    """Return how many solutions the puzzle has, counting up to limit (default 2)."""
    try:
        puzzle = _grid(grid)
        most = _limit(limit)
    except SudokuError as error:
        return _error(error)
    return [[solver.count_solutions(puzzle, most)]]


@xw.func
@xw.arg("grid", ndim=2, err_to_str=True, doc=GRID_DOC)
def sudoku_grade(grid: Rows) -> Rows:
    """Return the level and the score (Sudoku Explainer scale) of a puzzle: one row, 2 cells."""
    try:
        graded = analysis.analyze(_grid(grid)).graded()
    except SudokuError as error:
        return _error(error)
    return [[graded.label, graded.score]]


@xw.func
@xw.arg("opens", err_to_str=True, doc=f"givens, {LOW_CLUE_TARGET + 1}-80 (default 26)")
@xw.arg("pattern", err_to_str=True, doc="center-box pattern 1-12 (default 1)")
@xw.arg("seed", err_to_str=True, doc="whole number; the same seed gives the same puzzle")
def sudoku_generate(opens: Any = 26, pattern: Any = 1, seed: Any = 1) -> Rows:
    """Return a 9x9 puzzle (blank = empty) with about `opens` givens, 180° symmetric.

    The same opens, pattern and seed always give the same puzzle.
    """
    try:
        result = generate(params.function_request(opens, pattern, seed))
    except SudokuError as error:
        return _error(error)
    return render.grid_rows(result.puzzle)
