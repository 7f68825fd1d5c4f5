"""The Generator sheet's START and CLEAR, and the Print sheet they shape.

START generates a puzzle from the parameter cells and writes it with its statistics, its
rank table and, when asked, its solution; the grading after the search gets what the search
left of the Time limit (:func:`grading_clock`).  CLEAR blanks them for a typed puzzle.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from typing import Any

from xlsudoku.addin import layout, params, render
from xlsudoku.addin.actions.shared import (
    GENERATOR_NAMES,
    PARAM_NAMES,
    PRINT_NAMES,
    Changes,
    Outcome,
    as_rows,
    run_action,
)
from xlsudoku.addin.cellio import CellIO
from xlsudoku.engine.analysis import Analysis
from xlsudoku.engine.generate import Budget, BudgetKind, GenerateError, generate, result_analysis
from xlsudoku.engine.generate.clock import Clock, Stopped
from xlsudoku.engine.grid import Geometry, Grid, SudokuError


def _shape_print(changes: Changes, shape: Geometry, answer_key: bool) -> None:
    """Size the Print sheet for *shape*: its grid fills the page; the key only when asked."""
    sizes = render.print_sizes(shape)
    changes.set_sizes(layout.PRINT_GRID, sizes, sizes)
    changes.set_sizes(layout.PRINT_KEY, None, sizes if answer_key else render.print_sizes(None))
    title = layout.GRID_CELL_POINTS[layout.GENERATOR] if answer_key else 0.0
    changes.set_sizes(layout.PRINT_KEY_TITLE, None, [title])


def start(
    io: CellIO,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    rng: random.Random | None = None,
) -> Outcome:
    """START: generate a puzzle from the parameter cells and write it with its statistics.

    Writes the puzzle, the solution (only when Show solution is Yes; blank otherwise), the
    statistics, the rank table and the status, and shapes the Print sheet for the puzzle.
    *progress* and *cancel* go to the generator: when *cancel* returns True the best puzzle
    found so far is written, and the status says the run was interrupted.  *rng* draws the
    seed when the Seed cell is blank.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        values = {param.name: io.read(param.name) for param in layout.PARAMS}
        checked = params.read_start(values, rng=rng)
        request = params.start_request(checked)
        asked = [False]

        def stop() -> bool:
            asked[0] = asked[0] or (cancel is not None and cancel())
            return asked[0]

        began, began_cpu = time.perf_counter(), time.process_time()
        try:
            result = generate(request, progress=progress, cancel=stop)
        except GenerateError as error:
            raise params.ParamError([params.engine_problem(error)]) from None
        # the generator's own analysis (a graded goal made it), else one with the proved solution
        clock = grading_clock(request.limit, began, began_cpu)
        graded_from = time.perf_counter()
        try:
            analysis: Analysis | None = result_analysis(result, ranks=True, poll=clock.poll)
        except Stopped:
            analysis = None  # the puzzle is still written; the status says it is not graded
        grading = time.perf_counter() - graded_from
        changes.write(layout.PUZZLE_GRID, render.block_rows(result.puzzle))
        shown = result.solution if checked.show_solution else None
        changes.write(layout.SOLUTION_GRID, render.block_rows(shown))
        changes.write(layout.STATS, render.stats_block(result, analysis))
        changes.write(layout.RANK_TABLE, render.rank_block(analysis and analysis.ranks))
        # what SAVE TO COLLECTION keeps, so that it need not analyse the puzzle again
        kept = analysis is not None and analysis.unique and analysis.grade is not None
        changes.write(layout.GENERATOR_FACTS, render.Facts.of(analysis).text() if kept else "")
        _shape_print(changes, result.puzzle.geometry, checked.show_solution)
        status = render.start_status(result, analysis, asked[0], grading)
        if analysis is None:
            status += render.ungraded_text(request.limit)
        return status, result

    return run_action(io, "start", layout.STATUS, GENERATOR_NAMES + PRINT_NAMES, body)


# When the search used the whole Time limit, the grading still gets this share of it: the click
# then ends a little after its limit, and a puzzle is graded in all but the longest cases.
GRADING_GRACE = 0.05


def grading_clock(limit: Budget | None, wall: float, cpu: float) -> Clock:
    """Return the clock of the grading after a search begun at *wall* and *cpu* under *limit*.

    The grading gets what the search left of the limit, and at least ``GRADING_GRACE`` of it.
    *wall* is a ``time.perf_counter()`` value and *cpu* a ``time.process_time()`` value; a
    work limit counts its units as CPU seconds here (a unit is about one), since grading
    counts no work.

    >>> clock = grading_clock(Budget(60.0), wall=time.perf_counter(), cpu=time.process_time())
    >>> 59 < clock.remaining() <= 60
    True
    >>> late = grading_clock(Budget(60.0), wall=time.perf_counter() - 60, cpu=0.0)
    >>> 2.9 < late.remaining() <= 3.0
    True
    """
    if limit is None:
        return Clock()
    grace = limit.amount * GRADING_GRACE
    if limit.kind is BudgetKind.WALL:
        return Clock(max(wall + limit.amount, time.perf_counter() + grace))
    deadline = max(cpu + limit.amount, time.process_time() + grace)
    return Clock(deadline, read=time.process_time)


def start_notice(io: CellIO) -> str | None:
    """Write to the status, before a long START, that it may take up to the time limit.

    Returns the text written, or None when the run is a quick one (or its parameters are bad:
    START itself says what is wrong).  Lite shows it at once (the script flushes it); on
    Server it is replaced by START's own status in the same reply.
    """
    from xlsudoku.engine.generate.generator import DESCENT, pick

    try:
        io.require([layout.STATUS, *PARAM_NAMES])
        checked = params.read_start({name: io.read(name) for name in PARAM_NAMES})
        request = params.start_request(checked)
    except SudokuError:
        return None
    strategy = pick(request)
    limit = request.limit
    if limit is None and strategy.default_seconds is not None:
        limit = Budget(strategy.default_seconds)
    if strategy is DESCENT or limit is None:
        return None
    text = render.may_take_text(limit)
    io.write(layout.STATUS, text)
    return text


def clear(io: CellIO) -> Outcome:
    """CLEAR: blank the puzzle, solution, statistics and rank table; keep the parameters.

    The grid and the Print sheet take the shape of the Geometry cell (the statistics labels
    stay, with that shape in the Geometry row), so a puzzle of that shape can be typed in.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        shape = params.read_geometry(
            layout.PARAMS_BY_NAME[layout.GEOMETRY], io.read(layout.GEOMETRY)
        )
        changes.write(layout.PUZZLE_GRID, render.block_rows(None))
        changes.write(layout.SOLUTION_GRID, render.block_rows(None))
        changes.write(layout.STATS, render.stats_block(None, shape=shape.name))
        changes.write(layout.RANK_TABLE, render.rank_block(None))
        changes.clear(layout.GENERATOR_FACTS)
        _shape_print(changes, shape, answer_key=False)
        return (
            f"Cleared the puzzle, solution and statistics; the grid is {shape.name} now. "
            "The parameters and the Collection are kept.",
            None,
        )

    names = [layout.STATUS, layout.GEOMETRY, layout.PUZZLE_GRID, layout.SOLUTION_GRID]
    names += [layout.STATS, layout.RANK_TABLE, layout.GENERATOR_FACTS, *PRINT_NAMES]
    return run_action(io, "clear", layout.STATUS, names, body)


def image(io: CellIO, draw: Callable[[Grid, str], str] | None = None) -> Outcome:
    """IMAGE (Print sheet): a picture of the Generator's puzzle, the one the page prints.

    The picture is the booklet's (``xlsudoku image``): *draw* takes the puzzle and a title and
    puts the picture where its caller can, returning what it did for the status: a file beside
    the workbook (headless), or a picture inserted into the Print sheet (Excel, xlwings Lite
    and Server, where no file is written).  Without *draw* the status says how to get one.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        stats = io.read(layout.STATS)
        grid = generator_puzzle(io, stats)
        if grid.given_count == 0:
            raise params.ParamError(
                [
                    f"The puzzle grid (Generator!{layout.NAMES[layout.PUZZLE_GRID].address}) is "
                    "empty: press START first, then IMAGE"
                ]
            )
        if draw is None:
            raise params.ParamError(
                [
                    "IMAGE draws where Excel or the command line can put the picture: press it "
                    "in Excel, or run xlsudoku workbook image BOOK (a PNG beside the workbook)"
                ]
            )
        level = stats_value(stats, "Level")
        title = f"Sudoku {grid.geometry.name}" + (f" · {level}" if level else "")
        done = draw(grid, title)
        return f"IMAGE: {done}", done

    names = [layout.PRINT_STATUS, layout.PUZZLE_GRID, layout.STATS, layout.GEOMETRY]
    return run_action(io, "image", layout.PRINT_STATUS, names, body)


def stats_value(stats: Any, label: str) -> Any:
    """Return the value beside *label* in the Stats block as read from the sheet (or None)."""
    if not isinstance(stats, list):
        return None
    for row in stats:
        if len(row) >= 2 and isinstance(row[0], str) and row[0].strip() == label:
            return row[1]
    return None


def _grid_shape(io: CellIO, stats: Any) -> Geometry:
    """Return the shape of the Generator's grid: the Statistics' Geometry, else the parameter."""
    rule = layout.PARAMS_BY_NAME[layout.GEOMETRY]
    with contextlib.suppress(params.ParamError):
        return params.read_geometry(rule, stats_value(stats, "Geometry"))
    return params.read_geometry(rule, io.read(layout.GEOMETRY))


def generator_puzzle(io: CellIO, stats: Any = None) -> Grid:
    """Return the puzzle on the Generator sheet, read in its grid's shape (blank cells empty).

    *stats* is the Statistics block when the caller has read it already.

    Raises:
        params.ParamError: a bad cell, named.
    """
    shape = _grid_shape(io, io.read(layout.STATS) if stats is None else stats)
    return params.read_block(layout.PUZZLE_GRID, as_rows(io.read(layout.PUZZLE_GRID)), shape)
