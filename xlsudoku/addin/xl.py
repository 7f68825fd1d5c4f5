"""xlwings Lite / xlwings Server bindings: the buttons as scripts, and four custom functions.

Scripts (``@xw.script``, one per button) take the workbook xlwings hands them and delegate to
:mod:`xlsudoku.addin.actions`.  Custom functions (``@xw.func``) are pure and deterministic: the same
arguments always give the same result (SUDOKU_GENERATE takes its seed as an argument), and a
problem comes back as one cell of text starting with ``ERROR:`` that names the argument (and,
for a grid, the cell).  Every argument is read with ``err_to_str``, so an Excel error value such
as ``#N/A`` reaches the checks as its text and is reported, never read as a blank or a default;
a blank argument and an omitted one mean the same (:func:`xlsudoku.addin.params.function_request`).
Every shape works: the grid functions take the shape from the range's size or their
``geometry`` argument (9x9-X must be named), and a count that reached its limit is the text
``>=N`` (at least N solutions), never a bare number that would read as exact.  Every function
takes a ``time_limit`` (seconds, ``cpu:S`` or ``work:U``; blank 10 s) and answers an ``ERROR:
time limit: ...`` text past it rather than run on, and every script starts from a clean remote
engine (:func:`_io`).

Outside xlwings Lite/Server (``XLWINGS_ON_SERVER`` unset, e.g. on Linux) the decorators leave
the functions unchanged, so this module imports anywhere.

No ``from __future__ import annotations`` here: xlwings before 0.37 matches a script's
parameter by its annotation object (``xw.Book``), which that import would turn into a string.
"""

import dataclasses
import functools
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import xlwings as xw

from xlsudoku.addin import actions, drawing, layout, params, render
from xlsudoku.addin.cellio import XlwingsIO
from xlsudoku.engine import analysis, solver
from xlsudoku.engine.generate import Budget, BudgetKind, generate
from xlsudoku.engine.generate.clock import Clock, Stopped
from xlsudoku.engine.grid import Grid, SudokuError

__all__ = [
    "start",
    "save_to_collection",
    "clear",
    "import_puzzles",
    "delete_from_collection",
    "sort_collection",
    "restore_to_collection",
    "analyze",
    "hint",
    "solve",
    "explain",
    "image",
    "play",
    "check",
    "play_hint",
    "play_solve",
    "stats",
    "undo",
    "fill_candidates",
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

GRID_DOC = "a square range, 4x4 to 16x16: digits (A-G above 9), blank or 0 for an empty cell"
GEOMETRY_DOC = (
    "9x9, 9x9-X, 9x9-windoku, 9x9-jigsaw:LAYOUT, 4x4, 6x6, 12x12 or 16x16; "
    "blank: the range's size (the 9x9 variants must be named)"
)
TIME_LIMIT_DOC = (
    f"seconds (or cpu:S, work:U), blank = {layout.FUNCTION_TIME_LIMIT:g}: past it, an ERROR text"
)


@script
async def start(book: xw.Book) -> None:
    """START: generate a puzzle; a long run first says it may take up to the time limit."""
    io = _io(book)
    if actions.start_notice(io) is not None:
        await _show_now(book)
    actions.start(io)


@script
def save_to_collection(book: xw.Book) -> None:
    """SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection."""
    actions.save_to_collection(_io(book))


@script
def clear(book: xw.Book) -> None:
    """CLEAR: blank the puzzle, solution and statistics (the parameters stay)."""
    actions.clear(_io(book))


@script
def import_puzzles(book: xw.Book) -> None:
    """IMPORT: add the puzzles pasted into Import from (or on the sheet it names); no files."""
    actions.import_puzzles(_io(book), files=None)


@script
def delete_from_collection(book: xw.Book) -> None:
    """DELETE: move the Collection rows listed in Delete ids to the Removed sheet."""
    actions.delete_from_collection(_io(book))


@script
def sort_collection(book: xw.Book) -> None:
    """SORT: reorder the Collection's rows by the Sort by column."""
    actions.sort_collection(_io(book))


@script
def restore_to_collection(book: xw.Book) -> None:
    """RESTORE: move the Removed rows listed in Restore ids back to the Collection (same ids)."""
    actions.restore_to_collection(XlwingsIO(book))


@script
def analyze(book: xw.Book) -> None:
    """ANALYZE: check the typed puzzle, count its solutions, grade it."""
    actions.analyze(_io(book))


@script
def hint(book: xw.Book) -> None:
    """HINT: the next step for the typed puzzle, more of it on each press."""
    actions.hint(_io(book))


@script
def solve(book: xw.Book) -> None:
    """SOLVE: write the typed puzzle's solution."""
    actions.solve(_io(book))


@script
def explain(book: xw.Book) -> None:
    """EXPLAIN: every step of the typed puzzle's rating path, numbered, under the solutions."""
    actions.explain(_io(book))


@script
def image(book: xw.Book) -> None:
    """IMAGE (Print sheet): the puzzle's picture, inserted beside the page (no file here)."""
    io = _io(book)
    actions.image(io, draw=functools.partial(drawing.into_sheet, io))


@script
def play(book: xw.Book) -> None:
    """PLAY: put the puzzle Play from names on the Play sheet's grid, givens locked."""
    actions.play(_io(book))


@script
def check(book: xw.Book) -> None:
    """CHECK: mark the wrong entries on the Play sheet and say how many cells are left."""
    actions.check(_io(book))


@script
def play_hint(book: xw.Book) -> None:
    """HINT (Play sheet): the next step from your own entries and pencil marks."""
    actions.play_hint(_io(book))


@script
def play_solve(book: xw.Book) -> None:
    """SOLVE (Play sheet): fill the rest of the grid."""
    actions.play_solve(_io(book))


def _io(book: xw.Book) -> XlwingsIO:
    """Return the cells of *book* for one script, after forgetting every earlier request.

    xlwings' remote engine (Lite, Server; 0.33 to 0.37) keeps what every request brought and
    never lets go: each book a request opened stays in its list of books, and range reads
    are cached in its module (a ``functools.lru_cache`` keyed on the sheet's values).
    Memory grows with every click, and a request whose values compare equal to an earlier
    one's (1 and TRUE do) reads the earlier request's cells.  So each script starts by
    dropping the books of earlier requests and clearing the engine's caches.
    """
    io = XlwingsIO(book)
    if io.remote:
        _forget_earlier_requests(book.impl)
    return io


def _forget_earlier_requests(current: Any) -> None:
    """Clear the remote engine's caches and its list of books but for *current* (``Book.impl``).

    A book dropped from the list is not closed: a request still running on xlwings Server
    keeps its own book and goes on with it.
    """
    engine = sys.modules.get(type(current).__module__)
    for value in list(vars(engine).values()) if engine is not None else ():
        if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
            value.cache_clear()
    opened = getattr(getattr(current, "books", None), "books", None)
    if isinstance(opened, list):
        opened[:] = [book for book in opened if book is current]


@script
def undo(book: xw.Book) -> None:
    """UNDO (Play sheet): step back one move, your typing or a button's."""
    actions.undo(XlwingsIO(book))


@script
def fill_candidates(book: xw.Book) -> None:
    """FILL CANDIDATES (Play sheet): every empty cell's candidates as pencil marks."""
    actions.fill_candidates(XlwingsIO(book))


@script
def stats(book: xw.Book) -> None:
    """STATS: count the Collection per level, score and opens; the Stats charts redraw."""
    actions.stats(XlwingsIO(book))


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


def _late(budget: Budget, what: str, note: str = "") -> Rows:
    """Return the answer of a function stopped by its time limit."""
    default = f"{layout.FUNCTION_TIME_LIMIT:g} s"
    return _error(
        f"time limit: {what} within {budget.text()}{note}; give it more time with the "
        f"time_limit argument (blank = {default})"
    )


def _grid(rows: Any, geometry: Any) -> Grid:
    """Return the puzzle in the range argument ``grid`` of the shape ``geometry`` names."""
    shape = params.function_geometry(geometry, rows)
    try:
        return params.read_grid(None, rows, shape)
    except SudokuError as error:
        raise SudokuError(f"grid: {error}") from None


@xw.func
@xw.arg("grid", ndim=2, err_to_str=True, doc=GRID_DOC)
@xw.arg("geometry", err_to_str=True, doc=GEOMETRY_DOC)
@xw.arg("time_limit", err_to_str=True, doc=TIME_LIMIT_DOC)
def sudoku_solve(grid: Rows, geometry: Any = None, time_limit: Any = None) -> Rows:
    """Return the solution of a puzzle (same shape); an error text if it has none or several.

    Past *time_limit* (blank: 10 s) the answer is an error text naming the time limit.
    """
    try:
        puzzle, budget = _grid(grid, geometry), params.function_budget(time_limit)
        found = solver.solutions(puzzle, 2, work=Clock.start(budget).solver)
    except SudokuError as error:
        return _error(error)
    except Stopped:
        return _late(budget, "the search for the solution did not finish")
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
@xw.arg("limit", err_to_str=True, doc=f"stop counting here: 1-{layout.MAX_COUNT_LIMIT}, blank = 2")
@xw.arg("geometry", err_to_str=True, doc=GEOMETRY_DOC)
@xw.arg("time_limit", err_to_str=True, doc=TIME_LIMIT_DOC)
def sudoku_count(
    grid: Rows, limit: Any = None, geometry: Any = None, time_limit: Any = None
) -> Rows:
    """Return how many solutions the puzzle has; ">=limit" (text) when counting stopped there.

    Past *time_limit* (blank: 10 s) the answer is an error text naming the time limit.
    """
    try:
        puzzle = _grid(grid, geometry)
        most = params.function_limit(limit)
        budget = params.function_budget(time_limit)
        work = Clock.start(budget).solver
        count = solver.count_solutions(puzzle, most, work=work)
    except SudokuError as error:
        return _error(error)
    except Stopped:
        return _late(budget, f"counting did not reach {most} or the end")
    return [[f">={count}" if count >= most else count]]


@xw.func
@xw.arg("grid", ndim=2, err_to_str=True, doc=GRID_DOC)
@xw.arg("geometry", err_to_str=True, doc=GEOMETRY_DOC)
@xw.arg("profile", err_to_str=True, doc="rating profile: se (blank) or sukaku")
@xw.arg("time_limit", err_to_str=True, doc=TIME_LIMIT_DOC)
def sudoku_grade(
    grid: Rows, geometry: Any = None, profile: Any = None, time_limit: Any = None
) -> Rows:
    """Return the level, the score and the rating profile of a puzzle: one row, 3 cells.

    Past *time_limit* (blank: 10 s) the answer is an error text naming the time limit; a
    ``work:`` limit counts the solve as work and the grading in CPU seconds (a unit is about
    one).
    """
    try:
        chosen = params.function_profile(profile)
        puzzle, budget = _grid(grid, geometry), params.function_budget(time_limit)
        wall, cpu = time.perf_counter(), time.process_time()
        found = solver.solutions(puzzle, 2, work=Clock.start(budget, wall=wall, cpu=cpu).solver)
        clock = actions.grading_clock(budget, wall, cpu)
        known = found[0] if len(found) == 1 else None
        result = analysis.analyze(
            puzzle, chosen, solution=known, suggest_given=False, poll=clock.poll
        )
        graded = result.graded()
    except SudokuError as error:
        return _error(error)
    except Stopped:
        return _late(budget, "the grading did not finish")
    return [[graded.label, graded.score, chosen]]


@xw.func
@xw.arg("opens", err_to_str=True, doc="givens; blank: 26 on 9x9 (each shape has its default)")
@xw.arg("pattern", err_to_str=True, doc="center-box pattern 1-12, none or a mask (9x9 shapes)")
@xw.arg("seed", err_to_str=True, doc="whole number, blank = 0; the same seed, the same puzzle")
@xw.arg(
    "geometry",
    err_to_str=True,
    doc="9x9 (blank), 9x9-X, 9x9-windoku, 9x9-jigsaw:LAYOUT, 4x4 ... 16x16",
)
@xw.arg("time_limit", err_to_str=True, doc=TIME_LIMIT_DOC)
def sudoku_generate(
    opens: Any = None,
    pattern: Any = None,
    seed: Any = None,
    geometry: Any = None,
    time_limit: Any = None,
) -> Rows:
    """Return a puzzle (blank = empty) with `opens` givens, 180° symmetric.

    The same arguments always give the same puzzle, or, when the search does not reach
    `opens` within *time_limit* (blank: 10 s), an error text naming the time limit.
    """
    try:
        request = params.function_request(opens, pattern, seed, geometry)
        budget = params.function_budget(time_limit)
        wall = budget.kind is BudgetKind.WALL
        limited = dataclasses.replace(
            request,
            time_limit=budget.amount if wall else None,
            budget=None if wall else budget,
        )
        result = generate(limited)
    except SudokuError as error:
        return _error(error)
    if not result.reached:
        best = f" (the best had {result.puzzle.given_count})"
        return _late(budget, f"no puzzle with {request.target_givens} opens was found", best)
    return render.grid_rows(result.puzzle)
