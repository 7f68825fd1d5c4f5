"""The workbook's buttons, written once against :class:`xlsudoku.addin.cellio.CellIO`.

Generator sheet: :func:`start`, :func:`save_to_collection`, :func:`clear`; Analyze sheet:
:func:`analyze`, :func:`hint`, :func:`solve`.  The xlwings scripts (:mod:`xlsudoku.addin.xl`), the
desktop macros (:mod:`addin.desktop`) and the headless runner (:mod:`addin.headless`) all call
these functions.

Every action works in two phases: it reads and checks everything and computes its results into
a :class:`Changes` list, and only then applies the list.  So a bad input, a puzzle with a clash
or any engine error writes the message to the sheet's status cell and nothing else; a workbook
missing a sheet or a defined name is reported before anything is read.

SAVE TO COLLECTION appends one row under the Collection's header and never touches the rows
already there.  It refuses a puzzle that is already in the Collection (any row, by its 81
characters), so the table never holds the same puzzle twice.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlsudoku.addin import layout, params, render
from xlsudoku.addin.cellio import CellIO, MissingPart
from xlsudoku.engine.analysis import analyze as analyze_grid
from xlsudoku.engine.board import Board
from xlsudoku.engine.generate import GenerateError, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import CLASSIC, Grid, SudokuError
from xlsudoku.engine.hints import hint as hint_for
from xlsudoku.engine.hints import hint_for_step
from xlsudoku.engine.logic import next_step
from xlsudoku.engine.patterns import PRESETS, center_box
from xlsudoku.engine.ranks import rank_statistics
from xlsudoku.engine.solver import solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

GENERATOR_NAMES: tuple[str, ...] = tuple(
    name for name, ref in layout.NAMES.items() if ref.sheet == layout.GENERATOR
)
ANALYZE_NAMES: tuple[str, ...] = tuple(
    name for name, ref in layout.NAMES.items() if ref.sheet == layout.ANALYZE
)


@dataclass
class Changes:
    """Writes an action has decided on, applied together at the end (or not at all)."""

    operations: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def write(self, name: str, value: Any) -> None:
        """Queue ``io.write(name, value)``."""
        self.operations.append(("write", (name, value)))

    def clear(self, name: str) -> None:
        """Queue ``io.clear(name)``."""
        self.operations.append(("clear", (name,)))

    def fill(self, name: str, colour: str | None, cells: Iterable[tuple[int, int]] | None) -> None:
        """Queue ``io.fill(name, colour, cells)``."""
        self.operations.append(("fill", (name, colour, None if cells is None else list(cells))))

    def append_rows(self, name: str, rows: Sequence[Sequence[Any]]) -> None:
        """Queue ``io.append_rows(name, rows)``."""
        self.operations.append(("append_rows", (name, [list(row) for row in rows])))

    def apply(self, io: CellIO) -> None:
        """Run the queued operations on *io*, in order."""
        for method, args in self.operations:
            getattr(io, method)(*args)


@dataclass(frozen=True)
class Outcome:
    """What an action did: the status text written, and whether it succeeded.

    Attributes:
        action: the action's name (``start``, ``analyze``, ...).
        status: the text written to the sheet's status cell.
        ok: False when the input was bad (only the status cell changed).
        detail: the engine result behind the action, when there is one.
    """

    action: str
    status: str
    ok: bool
    detail: Any = None


Body = Callable[[CellIO, Changes], tuple[str, Any]]


def _run(io: CellIO, action: str, status_name: str, names: Sequence[str], body: Body) -> Outcome:
    """Check the workbook, run *body*, then apply its changes or write only the error.

    Raises:
        MissingPart: when even the status cell cannot be found.
    """
    try:
        io.require(names)
    except MissingPart as error:
        try:
            io.require([status_name])
        except MissingPart:
            raise error from None
        io.write(status_name, str(error))
        return Outcome(action, str(error), ok=False)
    changes = Changes()
    try:
        status, detail = body(io, changes)
    except SudokuError as error:
        io.write(status_name, str(error))
        return Outcome(action, str(error), ok=False)
    changes.write(status_name, status)
    changes.apply(io)
    return Outcome(action, status, ok=True, detail=detail)


# -- Generator sheet ---------------------------------------------------------------------------


def start(
    io: CellIO,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    rng: random.Random | None = None,
) -> Outcome:
    """START: generate a puzzle from the parameter cells and write it with its statistics.

    Writes the puzzle, the solution (only when Show solution is Yes; blank otherwise), the
    statistics, the rank table and the status.  *progress* and *cancel* go to the generator:
    when *cancel* returns True the best puzzle found so far is written, and the status says the
    run was interrupted.  *rng* draws the seed when the Seed cell is blank.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        values = {param.name: io.read(param.name) for param in layout.PARAMS}
        checked = params.read_start(values, rng=rng)
        request = params.start_request(checked)
        asked = [False]

        def stop() -> bool:
            asked[0] = asked[0] or (cancel is not None and cancel())
            return asked[0]

        try:
            result = generate(request, progress=progress, cancel=stop)
        except GenerateError as error:
            raise params.ParamError([params.engine_problem(str(error))]) from None
        graded = grade(result.puzzle)
        changes.write(layout.PUZZLE_GRID, render.grid_rows(result.puzzle))
        shown = result.solution if checked.show_solution else None
        changes.write(layout.SOLUTION_GRID, render.grid_rows(shown))
        changes.write(layout.STATS, render.stats_block(result, graded))
        changes.write(layout.RANK_TABLE, render.rank_block(result.ranks))
        return render.start_status(result, graded, cancelled=asked[0]), result

    return _run(io, "start", layout.STATUS, GENERATOR_NAMES, body)


def clear(io: CellIO) -> Outcome:
    """CLEAR: blank the puzzle, solution, statistics and rank table; keep the parameters.

    The statistics labels stay (they are part of the block START writes).
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        changes.write(layout.PUZZLE_GRID, render.grid_rows(None))
        changes.write(layout.SOLUTION_GRID, render.grid_rows(None))
        changes.write(layout.STATS, render.stats_block(None))
        changes.write(layout.RANK_TABLE, render.rank_block(None))
        return "Cleared the puzzle, solution and statistics; the parameters are kept.", None

    names = [layout.PUZZLE_GRID, layout.SOLUTION_GRID, layout.STATS, layout.RANK_TABLE]
    return _run(io, "clear", layout.STATUS, [layout.STATUS, *names], body)


def _stats_value(stats: Any, label: str) -> Any:
    """Return the value beside *label* in the Stats block as read from the sheet (or None)."""
    if not isinstance(stats, list):
        return None
    for row in stats:
        if len(row) >= 2 and isinstance(row[0], str) and row[0].strip() == label:
            return row[1]
    return None


def _detect_pattern(grid: Grid) -> int | None:
    """Return the preset whose open cells are exactly the givens of the center box, or None."""
    mask = "".join("x" if grid[cell] else "." for cell in center_box(CLASSIC))
    for pattern in PRESETS:
        if pattern.mask == mask:
            return pattern.number
    return None


# Strongest first: the symmetry recorded for a puzzle typed by hand is the first it has.
_SYMMETRY_ORDER = (
    Symmetry.DIHEDRAL,
    Symmetry.ROTATE_90,
    Symmetry.ROTATE_180,
    Symmetry.HORIZONTAL,
    Symmetry.VERTICAL,
    Symmetry.DIAGONAL,
    Symmetry.ANTIDIAGONAL,
)


def _detect_symmetry(grid: Grid, asked: Any) -> Symmetry:
    """Return the Symmetry parameter if the givens have it, else the strongest they have."""
    try:
        wanted = params.parse_param(layout.PARAMS_BY_NAME[layout.SYMMETRY], asked)
        symmetry = Symmetry(str(wanted))
        if is_symmetric(grid, symmetry):
            return symmetry
    except params.ParamError:
        pass
    for symmetry in _SYMMETRY_ORDER:
        if is_symmetric(grid, symmetry):
            return symmetry
    return Symmetry.NONE


def save_to_collection(io: CellIO, now: dt.datetime | None = None) -> Outcome:
    """SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection.

    The row holds the puzzle as it is on the sheet (even when typed or edited by hand): its
    solution (it must have exactly one), opens, the preset matching its center box, its
    symmetry (the Symmetry parameter when the givens have it), level, score and rank counts
    from the engine, and the seed from the statistics when they describe this puzzle.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid = params.read_grid(layout.PUZZLE_GRID, _block(io.read(layout.PUZZLE_GRID)))
        if grid.given_count == 0:
            raise params.ParamError(
                [
                    f"The puzzle grid ({layout.NAMES[layout.PUZZLE_GRID].address}) is empty: "
                    "press START first"
                ]
            )
        found = solutions(grid, 2)
        if len(found) != 1:
            what = "no solution" if not found else "more than one solution"
            raise params.ParamError(
                [f"The puzzle grid has {what}; only puzzles with exactly one are saved"]
            )
        puzzle = str(grid)
        existing = io.table_rows(layout.COLLECTION_HEADER)
        column = layout.COLLECTION_COLUMNS.index("puzzle")
        for row in existing:
            if len(row) > column and str(row[column] or "").strip() == puzzle:
                raise params.ParamError(
                    [f"This puzzle is already in the Collection (id {row[0]}); nothing added"]
                )
        ids = [int(row[0]) for row in existing if _is_whole(row[0])]
        new_id = max(ids, default=len(existing)) + 1
        stats = io.read(layout.STATS)
        seed = None
        if _stats_value(stats, "Opens") == grid.given_count:
            seed_value = _stats_value(stats, "Seed")
            seed = int(seed_value) if _is_whole(seed_value) else None
        graded = grade(grid)
        symmetry = _detect_symmetry(grid, io.read(layout.SYMMETRY))
        row = render.collection_row(
            id_=new_id,
            when=now or dt.datetime.now(),
            puzzle=grid,
            solution=found[0],
            pattern=_detect_pattern(grid),
            symmetry=symmetry,
            grade=graded,
            ranks=rank_statistics(grid, found[0], next_step=next_step),
            seed=seed,
        )
        changes.append_rows(layout.COLLECTION_HEADER, [row])
        return f"Saved to the Collection as id {new_id} ({grid.given_count} opens).", row

    names = [layout.STATUS, layout.PUZZLE_GRID, layout.STATS, layout.SYMMETRY]
    return _run(io, "save_to_collection", layout.STATUS, [*names, layout.COLLECTION_HEADER], body)


def _is_whole(value: Any) -> bool:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


def _block(value: Any) -> list[list[Any]]:
    """Return a read block (a single value only when the range is one cell) as rows."""
    return value if isinstance(value, list) else [[value]]


# -- Analyze sheet -----------------------------------------------------------------------------


def _typed_puzzle(io: CellIO, changes: Changes) -> Grid:
    """Return the puzzle typed on the Analyze sheet.

    A non-blank AnalyzeString wins: the puzzle is copied into AnalyzeGrid and the string cell
    is cleared, so the grid is the one place the puzzle lives afterwards.
    """
    text = io.read(layout.ANALYZE_STRING)
    if not params.is_blank(text):
        grid = params.read_string(layout.ANALYZE_STRING, text)
        changes.write(layout.ANALYZE_GRID, render.grid_rows(grid))
        changes.clear(layout.ANALYZE_STRING)
    else:
        grid = params.read_grid(layout.ANALYZE_GRID, _block(io.read(layout.ANALYZE_GRID)))
    if grid.given_count == 0:
        grid_ref = layout.NAMES[layout.ANALYZE_GRID]
        string_ref = layout.NAMES[layout.ANALYZE_STRING]
        raise params.ParamError(
            [
                f"The grid ({grid_ref.address}) is empty: type a puzzle into it, or paste an "
                f"81-character puzzle into {string_ref.address}"
            ]
        )
    return grid


def analyze(io: CellIO) -> Outcome:
    """ANALYZE: validity, solution count, grade, or two solutions' differences and a clue."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid = _typed_puzzle(io, changes)
        analysis = analyze_grid(grid)
        changes.fill(layout.ANALYZE_GRID, render.GRID_FILL, None)
        changes.write(layout.ANALYZE_REPORT, render.report_lines(grid, analysis))
        changes.clear(layout.HINT_TEXT)
        changes.clear(layout.ANALYZE_SOLUTION)
        # a puzzle Excel had turned into a number is read back, and the status says so
        note = params.number_note(layout.ANALYZE_STRING, io.read(layout.ANALYZE_STRING))
        return note + render.analysis_status(analysis), analysis

    return _run(io, "analyze", layout.ANALYZE_STATUS, ANALYZE_NAMES, body)


def hint(io: CellIO) -> Outcome:
    """HINT: the next step, more of it on each press for the same grid (levels 1, 2, 3).

    The level is read back from the hint text on the sheet: pressing again while the text is
    the previous level's hint for this grid discloses the next level.  The cells involved are
    coloured.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid = _typed_puzzle(io, changes)
        result = hint_for(grid, 1)
        step = result.step
        if step is not None:
            board = Board.from_grid(grid)
            shown_text = io.read(layout.HINT_TEXT)
            levels = [result] + [hint_for_step(step, board, level) for level in (2, 3)]
            for earlier, later in zip(levels, levels[1:] + levels[2:], strict=True):
                if shown_text == render.hint_text(earlier):
                    result = later
        changes.fill(layout.ANALYZE_GRID, render.GRID_FILL, None)
        if result.cells:
            colour = render.HINT_REGION_COLOUR if result.level == 1 else render.HINT_CELLS_COLOUR
            changes.fill(layout.ANALYZE_GRID, colour, render.offsets(result.cells))
        changes.write(layout.HINT_TEXT, render.hint_text(result))
        if step is None:
            return "The grid is full: nothing left to hint.", result
        more = " Press HINT again for more." if result.level < 3 else ""
        return f"Hint level {result.level} of 3 (cells involved are coloured).{more}", result

    return _run(io, "hint", layout.ANALYZE_STATUS, ANALYZE_NAMES, body)


def solve(io: CellIO) -> Outcome:
    """SOLVE: write the solution under the typed puzzle (the first of several, said so)."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid = _typed_puzzle(io, changes)
        found = solutions(grid, 2)
        changes.fill(layout.ANALYZE_GRID, render.GRID_FILL, None)
        changes.clear(layout.HINT_TEXT)
        changes.write(layout.ANALYZE_SOLUTION, render.grid_rows(found[0] if found else None))
        if not found:
            return "No solution: the givens cannot all be kept.", None
        if len(found) > 1:
            return "Several solutions: one of them is shown; ANALYZE shows where they differ.", (
                found[0]
            )
        return "Solved: the solution is unique.", found[0]

    return _run(io, "solve", layout.ANALYZE_STATUS, ANALYZE_NAMES, body)


ACTIONS: dict[str, Callable[[CellIO], Outcome]] = {
    "start": start,
    "clear": clear,
    "save_to_collection": save_to_collection,
    "analyze": analyze,
    "hint": hint,
    "solve": solve,
}
