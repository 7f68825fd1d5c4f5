"""The workbook's buttons, written once against :class:`xlsudoku.addin.cellio.CellIO`.

Generator sheet: :func:`start`, :func:`save_to_collection`, :func:`clear` and the Collection
tools :func:`import_puzzles`, :func:`delete_from_collection`, :func:`sort_collection`; Analyze
sheet: :func:`analyze`, :func:`hint`, :func:`solve`; Play sheet: :func:`play`, :func:`check`,
:func:`play_hint`, :func:`play_solve`, :func:`undo`, :func:`fill_candidates`; RESTORE
(:func:`restore_to_collection`) and the Stats sheet's :func:`stats`.  The xlwings scripts
(:mod:`xlsudoku.addin.xl`), the desktop macros (:mod:`addin.desktop`) and the headless runner
(:mod:`addin.headless`) all call these functions.

Every action works in two phases: it reads and checks everything and computes its results into
a :class:`Changes` list, and only then applies the list.  So a bad input, a puzzle with a clash
or any engine error writes the message to the sheet's status cell and nothing else; a workbook
missing a sheet or a defined name is reported before anything is read.

The Collection never loses a row.  SAVE TO COLLECTION and IMPORT append under the rows already
there, refusing a puzzle the Collection holds (same shape and digits); DELETE first copies the
rows to the Removed sheet (with the time and the reason) and only then rewrites the Collection
without them; SORT rewrites the same rows in another order.  Ids are never reused: a new id is
above every id in the Collection and the Removed sheet and above the high-water mark kept in
the HighestId cell, which each new row raises.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import random
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlsudoku.addin import layout, params, render
from xlsudoku.addin.cellio import CellIO, MissingPart
from xlsudoku.engine.analysis import Analysis, Status
from xlsudoku.engine.analysis import analyze as analyze_grid
from xlsudoku.engine.board import Board
from xlsudoku.engine.formats import read_records
from xlsudoku.engine.generate import Budget, BudgetKind, GenerateError, generate, result_analysis
from xlsudoku.engine.generate.clock import Clock, Stopped
from xlsudoku.engine.generate.strategy import plural
from xlsudoku.engine.grading import walk_rating_path
from xlsudoku.engine.grid import Geometry, Grid, SudokuError
from xlsudoku.engine.hints import Hint, hint_for_step, path_step
from xlsudoku.engine.patterns import detect_pattern
from xlsudoku.engine.play import Game, player_board
from xlsudoku.engine.ratings import profile_table
from xlsudoku.engine.solver import solutions, unique_reading
from xlsudoku.engine.steps import Level, Step
from xlsudoku.engine.symmetry import Symmetry, symmetry_of
from xlsudoku.xlsm.files import ReadableFiles


def _names_on(sheet: str) -> tuple[str, ...]:
    return tuple(name for name, ref in layout.NAMES.items() if ref.sheet == sheet)


GENERATOR_NAMES = _names_on(layout.GENERATOR)
ANALYZE_NAMES = _names_on(layout.ANALYZE)
PRINT_NAMES = _names_on(layout.PRINT)
PARAM_NAMES = tuple(param.name for param in layout.PARAMS)
COLLECTION_NAMES = (layout.COLLECTION_HEADER, layout.REMOVED_HEADER, layout.HIGHEST_ID)
MAX_IMPORT = 2000  # puzzles one IMPORT adds at most (each is solved, graded and ranked)
# Which files IMPORT may read when the Import from cell names one: those of the workbook's
# folder (None on xlwings Lite and Server: no file at all), or the file the user named
# (``xlsudoku workbook import BOOK FILE``).  Its default limit, 16 MB, leaves room beside
# MAX_IMPORT new 16x16 puzzles with their notes (under 2 MB) for comments and known puzzles.
ImportFiles = ReadableFiles


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

    def append_rows(
        self, name: str, rows: Sequence[Sequence[Any]], heights: Sequence[float] | None = None
    ) -> None:
        """Queue ``io.append_rows(name, rows, heights)``."""
        self.operations.append(("append_rows", (name, [list(row) for row in rows], heights)))

    def replace_rows(
        self, name: str, rows: Sequence[Sequence[Any]], heights: Sequence[float] | None = None
    ) -> None:
        """Queue ``io.replace_rows(name, rows, heights)``."""
        self.operations.append(("replace_rows", (name, [list(row) for row in rows], heights)))

    def set_sizes(
        self, name: str, widths: Sequence[float] | None, heights: Sequence[float] | None
    ) -> None:
        """Queue ``io.set_sizes(name, widths, heights)``."""
        self.operations.append(("set_sizes", (name, widths, heights)))

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
        changes: every write made, the status first, to replay on another copy of the book.
    """

    action: str
    status: str
    ok: bool
    detail: Any = None
    changes: Changes = field(default_factory=Changes)


Body = Callable[[CellIO, Changes], tuple[str, Any]]


def _run(io: CellIO, action: str, status_name: str, names: Sequence[str], body: Body) -> Outcome:
    """Check the workbook, run *body*, then apply its changes or write only the error.

    The status is written first: a client that fails on a later write (a size or a colour it
    cannot set) still shows what the run did, never the status of the run before.

    Raises:
        MissingPart: when even the status cell cannot be found.
    """
    changes, detail = Changes(), None
    try:
        io.require(names)
        status, detail = body(io, changes)
        ok = True
    except SudokuError as error:
        if isinstance(error, MissingPart) and not has_part(io, status_name):
            raise
        changes, status, ok = Changes(), str(error), False
    changes.operations.insert(0, ("write", (status_name, status)))
    changes.apply(io)
    return Outcome(action, status, ok, detail, changes)


def has_part(io: CellIO, name: str) -> bool:
    """Return True when the workbook has defined *name* where the layout puts it."""
    try:
        io.require([name])
    except MissingPart:
        return False
    return True


def _block(value: Any) -> list[list[Any]]:
    """Return a read block (a single value only when the range is one cell) as rows."""
    return value if isinstance(value, list) else [[value]]


def _is_whole(value: Any) -> bool:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


# -- Generator sheet ---------------------------------------------------------------------------


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
        _shape_print(changes, result.puzzle.geometry, checked.show_solution)
        status = render.start_status(result, analysis, asked[0], grading)
        if analysis is None:
            status += render.ungraded_text(request.limit)
        return status, result

    return _run(io, "start", layout.STATUS, GENERATOR_NAMES + PRINT_NAMES, body)


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
        _shape_print(changes, shape, answer_key=False)
        return (
            f"Cleared the puzzle, solution and statistics; the grid is {shape.name} now. "
            "The parameters and the Collection are kept.",
            None,
        )

    names = [layout.STATUS, layout.GEOMETRY, layout.PUZZLE_GRID, layout.SOLUTION_GRID]
    names += [layout.STATS, layout.RANK_TABLE, *PRINT_NAMES]
    return _run(io, "clear", layout.STATUS, names, body)


def _stats_value(stats: Any, label: str) -> Any:
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
        return params.read_geometry(rule, _stats_value(stats, "Geometry"))
    return params.read_geometry(rule, io.read(layout.GEOMETRY))


def generator_puzzle(io: CellIO, stats: Any = None) -> Grid:
    """Return the puzzle on the Generator sheet, read in its grid's shape (blank cells empty).

    *stats* is the Statistics block when the caller has read it already.

    Raises:
        params.ParamError: a bad cell, named.
    """
    shape = _grid_shape(io, io.read(layout.STATS) if stats is None else stats)
    return params.read_block(layout.PUZZLE_GRID, _block(io.read(layout.PUZZLE_GRID)), shape)


def _detect_symmetry(grid: Grid, asked: Any) -> Symmetry:
    """Return the Symmetry parameter if the givens have it, else the strongest they have."""
    try:
        wanted = params.parse_param(layout.PARAMS_BY_NAME[layout.SYMMETRY], asked)
        preferred: Symmetry | None = Symmetry(str(wanted))
    except (params.ParamError, ValueError):
        preferred = None
    return symmetry_of(grid, preferred)


def save_to_collection(io: CellIO, now: dt.datetime | None = None) -> Outcome:
    """SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection.

    The row holds the puzzle as it is on the sheet (even when typed or edited by hand), in
    the grid's shape (the Statistics' Geometry): its solution (it must have exactly one),
    opens, the preset matching its center box, its symmetry (the Symmetry parameter when the
    givens have it), level, score and rank counts from the engine, and the seed from the
    statistics when they describe this puzzle.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        stats = io.read(layout.STATS)
        grid = generator_puzzle(io, stats)
        if grid.given_count == 0:
            raise params.ParamError(
                [
                    f"The puzzle grid ({layout.NAMES[layout.PUZZLE_GRID].address}) is empty: "
                    "press START first"
                ]
            )
        book = _Collection.read(io)
        existing = book.id_of(grid)
        if existing is not None:
            raise params.ParamError(
                [f"This puzzle is already in the Collection (id {existing}); nothing added"]
            )
        analysis = analyze_grid(grid, _rating(io), ranks=True, clue=False)
        if not analysis.unique:
            what = "more than one solution" if analysis.solutions else "no solution"
            raise params.ParamError(
                [f"The puzzle grid has {what}; only puzzles with exactly one are saved"]
            )
        seed = None
        if _stats_value(stats, "Opens") == grid.given_count:
            seed_value = _stats_value(stats, "Seed")
            seed = int(seed_value) if _is_whole(seed_value) else None
        new_id = book.next_id()
        row = _row_for(analysis, new_id, now, io.read(layout.SYMMETRY), seed)
        changes.append_rows(layout.COLLECTION_HEADER, [row], _heights([row]))
        changes.write(layout.HIGHEST_ID, new_id)
        return f"Saved to the Collection as id {new_id} ({grid.given_count} opens).", row

    names = [
        layout.STATUS,
        layout.PUZZLE_GRID,
        layout.STATS,
        layout.SYMMETRY,
        layout.GEOMETRY,
        layout.RATING,
    ]
    return _run(io, "save_to_collection", layout.STATUS, [*names, *COLLECTION_NAMES], body)


def _time_limit(io: CellIO) -> Budget:
    """Return the limit the Time limit cell sets (blank: its default; a bad value is named)."""
    value = params.parse_param(layout.PARAMS_BY_NAME[layout.TIME_LIMIT], io.read(layout.TIME_LIMIT))
    if value is None:
        return Budget(layout.DEFAULT_TIME_LIMIT)
    return Budget.parse(value) if isinstance(value, str) else Budget(float(value))


def _rating(io: CellIO) -> str:
    """Return the rating profile the Rating cell names (a bad value is named by its cell)."""
    return str(params.parse_param(layout.PARAMS_BY_NAME[layout.RATING], io.read(layout.RATING)))


def _row_for(
    analysis: Analysis,
    id_: int,
    now: dt.datetime | None,
    symmetry: Any,
    seed: int | None,
    notes: str = "",
) -> list[Any]:
    """Return the Collection row of a unique puzzle from its analysis (grade and ranks).

    The score is on the analysis's profile's scale (the Rating cell).
    """
    grid = analysis.puzzle
    solution = analysis.solution
    assert solution is not None, "only a unique puzzle has a Collection row"
    return render.collection_row(
        id_=id_,
        when=now or dt.datetime.now(),
        puzzle=grid,
        solution=solution,
        pattern=detect_pattern(grid),
        symmetry=_detect_symmetry(grid, symmetry),
        analysis=analysis,
        seed=seed,
        notes=notes,
    )


# -- Collection tools --------------------------------------------------------------------------


@dataclass
class _Collection:
    """The Collection's and the Removed sheet's rows, and the id high-water mark."""

    rows: list[list[Any]]
    removed: list[list[Any]]
    highest: int

    @classmethod
    def read(cls, io: CellIO) -> _Collection:
        mark = io.read(layout.HIGHEST_ID)
        return cls(
            [list(row) for row in io.table_rows(layout.COLLECTION_HEADER)],
            [list(row) for row in io.table_rows(layout.REMOVED_HEADER)],
            int(mark) if _is_whole(mark) else 0,
        )

    @staticmethod
    def value(row: Sequence[Any], column: str) -> Any:
        index = layout.COLLECTION_COLUMNS.index(column)
        return row[index] if index < len(row) else None

    def keys(self) -> dict[tuple[str, str], Any]:
        """Return (shape, puzzle string) -> id of every Collection row."""
        found = {}
        for row in self.rows:
            puzzle = str(self.value(row, "puzzle") or "").strip()
            if puzzle:
                shape = str(self.value(row, "geometry") or "").strip() or layout.CLASSIC_NAME
                found.setdefault((shape, puzzle), self.value(row, "id"))
        return found

    def id_of(self, grid: Grid) -> Any:
        """Return the id of the row holding *grid* (same shape and digits), or None."""
        return self.keys().get((grid.geometry.name, str(grid)))

    def next_id(self) -> int:
        """Return an id above every id ever given (rows, removed rows, the high-water mark)."""
        ids = [self.highest]
        ids += [int(row[0]) for row in self.rows + self.removed if row and _is_whole(row[0])]
        ids.append(len(self.rows))
        return max(ids) + 1


def _heights(rows: Sequence[Sequence[Any]]) -> list[float]:
    """Return the height each Collection (or Removed) row needs, in points."""
    return [render.collection_row_height(row) for row in rows]


# Where IMPORT finds puzzles in the workbook itself, as the messages say it.
PASTE_HINT = "paste puzzles (one per line) into it, or name a sheet or range holding them"


# A range or sheet IMPORT reads has at most this many cells (checked from its address before
# a cell is read: through xlwings, reading a huge range is itself what takes the time and the
# memory); room for MAX_IMPORT 16x16 puzzles laid out one digit per cell.
MAX_IMPORT_CELLS = 600_000
# ... and at most this much text, the limit of a file IMPORT reads (ReadableFiles.limit).
MAX_IMPORT_BYTES = ImportFiles(None).limit


def _sheet_text(block: list[list[Any]], where: str, reference: str) -> str:
    """Return the puzzles of a block of cells as lines: a row's filled cells joined by tabs.

    Raises:
        params.ParamError: naming *where* (the cell), when the text passes MAX_IMPORT_BYTES.
    """
    lines, size = [], 0
    for row in block:
        cells = [params.cell_text(value) for value in row if not params.is_blank(value)]
        lines.append("\t".join(cells))
        size += len(lines[-1].encode("utf-8", "surrogatepass")) + 1
        if size > MAX_IMPORT_BYTES:
            raise params.ParamError(
                [
                    f"{where}: {reference} holds more than {MAX_IMPORT_BYTES // 2**20} MiB of "
                    "text, the most IMPORT reads: import it in parts"
                ]
            )
    return "\n".join(lines)


def _read_range(io: CellIO, reference: str, where: str) -> list[list[Any]] | None:
    """Return the cells of the sheet or range *reference* names (None: no such sheet).

    Raises:
        params.ParamError: naming *where*, when it has more than MAX_IMPORT_CELLS cells.
    """
    size = io.sheet_size(reference)
    if size is None:
        return None
    rows, columns = size
    if rows * columns > MAX_IMPORT_CELLS:
        raise params.ParamError(
            [
                f"{where}: {reference} has {rows * columns:,} cells ({rows:,} rows x "
                f"{columns:,} columns); IMPORT reads at most {MAX_IMPORT_CELLS:,}: name a "
                "smaller range, e.g. Paste!A1:A2000"
            ]
        )
    return io.read_sheet(reference)


def _import_source(io: CellIO, value: Any, files: ImportFiles | None) -> tuple[str, str, str, str]:
    """Return (text, where, file name, the day of a daily set or "") of Import from.

    The cell holds the puzzles themselves, names a sheet or a range of the workbook holding
    them (``Paste``, ``Paste!A1:A500``), or, when *files* allows (the desktop and the command
    line, see :class:`ImportFiles`), the path of a puzzle file or one day of a daily set.  On
    xlwings Lite and Server (*files* None) a path is refused: a cell must never make the
    machine running Python read its files.
    """
    from xlsudoku.engine.formats import looks_like_puzzle

    param = layout.TOOLS_BY_NAME[layout.IMPORT_SOURCE]
    text = params.parse_param(param, value)
    where = f"Import from ({param.ref.address})"
    if text is None:
        path = "type a puzzle file's path, or " if files else ""
        raise params.ParamError([f"{where} is empty: {path}{PASTE_HINT}"])
    text = params.cell_text(value) if not isinstance(value, str) else str(text)
    single = "\n" not in text and len(text) < 1024
    block = _read_range(io, text.strip(), where) if single else None
    if block is not None:
        kind = "range" if "!" in text else "sheet"
        return _sheet_text(block, where, text.strip()), f"{kind} {text.strip()}", "", ""
    if single and files is None and params.looks_like_path(text):
        raise params.ParamError(
            [
                f"{where} holds a file path ({params.shown(text)}), but no file is read here "
                "(xlwings Lite and Server read no files, nor does a workbook never saved); "
                f"{PASTE_HINT} (e.g. Paste or Paste!A1:A500)"
            ]
        )
    day = _DAY.match(text.strip()) if files is not None else None
    if day is not None:
        path = Path(day["path"].strip().strip('"'))
        read = _read_import(path, files, where)
        return read, f"{path.name}, {day['day']}", path.name, day["day"]
    if files is None or not single or looks_like_puzzle(text):
        return text, "the Import from cell", "", ""
    path = Path(text.strip().strip('"'))
    return _read_import(path, files, where), path.name, path.name, ""


# Import from naming one day of a daily set: the set's file and the date, e.g.
# ``daily.jsonl 2026-12-01`` (or ``daily.jsonl@2026-12-01``).
_DAY = re.compile(r"^(?P<path>.+?\.(?:jsonl|ndjson))\s*[@ ]\s*(?P<day>\d{4}-\d{2}-\d{2})$", re.I)


def _read_import(path: Path, files: ImportFiles, where: str) -> str:
    """Return the text of the file IMPORT was asked to read, if *files* allows it."""
    from xlsudoku.engine.formats import decode_text
    from xlsudoku.engine.grid import ParseError
    from xlsudoku.xlsm.errors import NotAPath, OutsideFolder, WorkbookError

    shown = params.shown(str(path))
    try:
        data = files.read(path, "a puzzle file to import")
    except NotAPath:
        raise params.ParamError([f"{where}: {shown} is not a file's path"]) from None
    except OutsideFolder:
        raise params.ParamError(
            [
                f"{where}: {shown} is outside the workbook's folder; IMPORT reads files only "
                "from there (or name the file: xlsudoku workbook import BOOK FILE)"
            ]
        ) from None
    except WorkbookError as error:
        message = str(error).split(": ", 1)[-1]
        if message == "no such file":
            message = "file not found"
        raise params.ParamError([f"{where}: {message}: {shown}"]) from None
    try:
        return decode_text(data, path.name)
    except ParseError as error:
        raise params.ParamError([f"{where}: {error}"]) from None


def import_puzzles(
    io: CellIO, now: dt.datetime | None = None, files: ImportFiles | None = None
) -> Outcome:
    """IMPORT: add the puzzles of Import from (pasted, on a sheet, or in a file) to the Collection.

    Every format :func:`xlsudoku.engine.formats.read_puzzles` reads is accepted, and one day
    of a daily set (``daily.jsonl 2026-12-01``: the file and the date).  Each puzzle
    with exactly one solution that the Collection does not hold yet becomes a row (its notes
    say where it came from); the status says where the puzzles came from and counts what was
    skipped and why.  *files* says which files the Import from cell may name (None, as on
    xlwings Lite and Server: none).
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        began, began_cpu = time.perf_counter(), time.process_time()
        limit = _time_limit(io)
        text, where, file_name, day = _import_source(io, io.read(layout.IMPORT_SOURCE), files)
        rating = _rating(io)
        clock = grading_clock(limit, began, began_cpu)
        book = _Collection.read(io)
        known = book.keys()
        next_id = book.next_id()
        rows: list[list[Any]] = []
        skipped = {"already in the Collection": 0, "several solutions": 0, "no solution": 0}
        unreadable: list[str] = []
        records: Iterable[Any] = read_records(text, file_name)
        if day:  # one day of a daily set: its records carry the date
            records = [record for record in records if record.info.get("date") == day]
            if not records:
                cell = layout.TOOLS_BY_NAME[layout.IMPORT_SOURCE].ref.address
                raise params.ParamError(
                    [f"Import from ({cell}): {file_name} has no puzzle dated {day}"]
                )
        stopped_at = None
        for record in records:
            line, result = record.line, record.result
            if clock.late():
                stopped_at = line
                break
            if isinstance(result, SudokuError):
                unreadable.append(f"line {line}: {result}")
                continue
            grid = unique_reading(result)
            if (grid.geometry.name, str(grid)) in known:
                skipped["already in the Collection"] += 1
                continue
            found = solutions(grid, 2)
            if len(found) != 1:
                skipped["no solution" if not found else "several solutions"] += 1
                continue
            if len(rows) == MAX_IMPORT:
                raise params.ParamError(
                    [f"The source holds more than {MAX_IMPORT} new puzzles: import it in parts"]
                )
            notes = f"imported from {where}, line {line}"
            try:
                analysis = analyze_grid(
                    grid, rating, solution=found[0], ranks=True, poll=clock.poll
                )
            except Stopped:
                stopped_at = line
                break
            known[(grid.geometry.name, str(grid))] = next_id
            rows.append(_row_for(analysis, next_id, now, None, None, notes))
            next_id += 1
        if rows:
            changes.append_rows(layout.COLLECTION_HEADER, rows, _heights(rows))
            changes.write(layout.HIGHEST_ID, next_id - 1)
        status = (
            f"Imported {plural(len(rows), 'puzzle')}"
            + (f" as ids {rows[0][0]}-{rows[-1][0]}" if len(rows) > 1 else "")
            + (f" as id {rows[0][0]}" if len(rows) == 1 else "")
            + f" from {where}."
        )
        reasons = [f"{count} {why}" for why, count in skipped.items() if count]
        if unreadable:
            reasons.append(f"{len(unreadable)} unreadable ({unreadable[0]})")
        if reasons:
            status += " Skipped: " + "; ".join(reasons) + "."
        if stopped_at is not None:
            status += render.import_stopped_text(limit, stopped_at)
        return status, rows

    names = [layout.STATUS, layout.IMPORT_SOURCE, layout.RATING, layout.TIME_LIMIT]
    names += COLLECTION_NAMES
    return _run(io, "import_puzzles", layout.STATUS, names, body)


def delete_from_collection(io: CellIO, now: dt.datetime | None = None) -> Outcome:
    """DELETE: move the Collection rows whose ids are in Delete ids to the Removed sheet.

    The rows are appended to the Removed sheet (with the time and the reason) before the
    Collection is rewritten without them, so a row is never in neither place.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        wanted = params.read_ids(io.read(layout.DELETE_IDS))
        book = _Collection.read(io)
        by_id = {int(row[0]): row for row in book.rows if row and _is_whole(row[0])}
        found = [number for number in wanted if number in by_id]
        missing = [number for number in wanted if number not in by_id]
        if not found:
            raise params.ParamError(
                [f"No Collection row has id {', '.join(map(str, missing[:10]))}; nothing moved"]
            )
        when = render.saved_at(now or dt.datetime.now())
        moved = [by_id[number] + [when, "deleted"] for number in found]
        kept = [row for row in book.rows if not (row and row[0] in found)]
        changes.append_rows(layout.REMOVED_HEADER, moved, _heights(moved))
        changes.replace_rows(layout.COLLECTION_HEADER, kept, _heights(kept))
        changes.write(layout.HIGHEST_ID, book.next_id() - 1)
        changes.clear(layout.DELETE_IDS)
        status = (
            f"Moved {plural(len(found), 'row')} (id "
            f"{', '.join(map(str, found))}) to the Removed sheet; {len(kept)} left."
        )
        if missing:
            status += f" Not found: id {', '.join(map(str, missing[:10]))}."
        return status, found

    names = [layout.STATUS, layout.DELETE_IDS, *COLLECTION_NAMES]
    return _run(io, "delete_from_collection", layout.STATUS, names, body)


_LEVEL_ORDER = {level.label.lower(): int(level) for level in Level}


def _sort_key(column: str) -> Callable[[list[Any]], tuple[int, Any]]:
    """Return a key that orders rows by *column*, blanks last, levels by difficulty."""
    index = layout.COLLECTION_COLUMNS.index(column)

    def key(row: list[Any]) -> tuple[int, Any]:
        value = row[index] if index < len(row) else None
        if value is None or value == "":
            return (2, "")
        if column == "level":
            return (0, _LEVEL_ORDER.get(str(value).lower(), len(_LEVEL_ORDER)))
        if column == "geometry":
            side = layout.GEOMETRIES.get(str(value), (99, 0, 0, False))
            return (0, (side[0], side[3]))
        if isinstance(value, dt.datetime | dt.date):
            return (0, value.isoformat())
        if isinstance(value, int | float) and not isinstance(value, bool):
            return (0, float(value))
        return (1, str(value).lower())

    return key


def sort_collection(io: CellIO) -> Outcome:
    """SORT: reorder the Collection's rows by the Sort by column; every row is kept."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        rule = layout.TOOLS_BY_NAME[layout.SORT_BY]
        choice = str(params.parse_param(rule, io.read(layout.SORT_BY)))
        descending = choice.endswith(layout.DESCENDING)
        column = choice.removesuffix(layout.DESCENDING)
        rows = _Collection.read(io).rows
        key = _sort_key(column)
        ordered = sorted(rows, key=key)
        if descending:  # blanks stay last
            filled = [row for row in ordered if key(row)[0] < 2]
            ordered = sorted(filled, key=key, reverse=True) + ordered[len(filled) :]
        assert sorted(map(repr, ordered)) == sorted(map(repr, rows))  # nothing lost
        changes.replace_rows(layout.COLLECTION_HEADER, ordered, _heights(ordered))
        return f"Sorted the Collection's {len(rows)} rows by {choice}.", ordered

    names = [layout.STATUS, layout.SORT_BY, layout.COLLECTION_HEADER]
    return _run(io, "sort_collection", layout.STATUS, names, body)


# -- RESTORE (Removed sheet -> Collection) -------------------------------------------------------


def restore_to_collection(io: CellIO) -> Outcome:
    """RESTORE: move the Removed sheet's rows whose ids are in Restore ids back to the Collection.

    Each row goes back under its own id, every Collection column as it was (the "removed at"
    and "reason" columns stay behind).  The rows are appended to the Collection before the
    Removed sheet is rewritten without them, so a row is never in neither place.  An id the
    Collection already holds, or a puzzle it already holds under another id, refuses the whole
    run: nothing moves.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        where = f"Restore ids ({layout.NAMES[layout.RESTORE_IDS].address})"
        wanted = params.read_ids(io.read(layout.RESTORE_IDS), layout.RESTORE_IDS)
        book = _Collection.read(io)
        held = {int(row[0]) for row in book.rows if row and _is_whole(row[0])}
        clash = [number for number in wanted if number in held]
        if clash:
            ids = ", ".join(map(str, clash[:10]))
            verb = "are" if len(clash) > 1 else "is"
            raise params.ParamError(
                [
                    f"{where}: id {ids} {verb} already in the Collection, so the Removed row "
                    "cannot go back under its id; nothing moved"
                ]
            )
        last_index = {
            int(row[0]): index
            for index, row in enumerate(book.removed)
            if row and _is_whole(row[0])
        }
        found = [number for number in wanted if number in last_index]
        missing = [number for number in wanted if number not in last_index]
        if not found:
            ids = ", ".join(map(str, missing[:10]))
            raise params.ParamError([f"{where}: no Removed row has id {ids}; nothing moved"])
        width = len(layout.COLLECTION_COLUMNS)
        keys = book.keys()
        restored = []
        for number in found:
            row = list(book.removed[last_index[number]][:width])
            row += [None] * (width - len(row))
            shape = str(_Collection.value(row, "geometry") or "").strip() or layout.CLASSIC_NAME
            key = (shape, str(_Collection.value(row, "puzzle") or "").strip())
            twin = keys.get(key) if key[1] else None
            keys[key] = number  # two Removed rows of one puzzle: only one comes back
            if twin is not None:
                raise params.ParamError(
                    [
                        f"{where}: id {number} holds the same puzzle as Collection id {twin}; "
                        "nothing moved"
                    ]
                )
            restored.append(row)
        taken = {last_index[number] for number in found}
        kept = [row for index, row in enumerate(book.removed) if index not in taken]
        changes.append_rows(layout.COLLECTION_HEADER, restored, _heights(restored))
        changes.replace_rows(layout.REMOVED_HEADER, kept, _heights(kept))
        changes.write(layout.HIGHEST_ID, book.next_id() - 1)
        changes.clear(layout.RESTORE_IDS)
        status = (
            f"Restored {plural(len(found), 'row')} (id {', '.join(map(str, found))}) from the "
            f"Removed sheet to the Collection, under the same ids; it holds "
            f"{plural(len(book.rows) + len(found), 'row')}."
        )
        if missing:
            status += f" Not on the Removed sheet: id {', '.join(map(str, missing[:10]))}."
        return status, found

    names = [layout.STATUS, layout.RESTORE_IDS, *COLLECTION_NAMES]
    return _run(io, "restore_to_collection", layout.STATUS, names, body)


# -- Stats sheet -------------------------------------------------------------------------------

_NICE_STEPS = (1, 2, 2.5, 5)


def bins(values: Sequence[float], count: int, whole: bool) -> list[tuple[float, float]]:
    """Return at most *count* ranges ``[low, high)`` of one round width that hold *values*.

    The width is 1, 2, 2.5 or 5 times a power of ten (whole numbers: at least 1), the first
    range starts at a multiple of it, and the ranges run up to the largest value.

    >>> bins([1.2, 3.4, 9.9], 10, whole=False)[:2], len(bins([1.2, 3.4, 9.9], 10, whole=False))
    ([(1.0, 2.0), (2.0, 3.0)], 9)
    >>> bins([1.2, 3.4, 29.9], 10, whole=False)[:2]
    [(0.0, 5.0), (5.0, 10.0)]
    >>> bins([24, 26, 30], 10, whole=True)
    [(24, 25), (25, 26), (26, 27), (27, 28), (28, 29), (29, 30), (30, 31)]
    >>> bins([], 10, whole=True)
    []
    """
    if not values:
        return []
    low, high = min(values), max(values)
    scale = 0.1 if not whole else 1
    while True:
        for step in _NICE_STEPS:
            width = step * scale
            if whole and not float(width).is_integer():
                continue
            start = (low // width) * width
            needed = int((high - start) // width) + 1
            if needed <= count:
                edges = [round(start + index * width, 6) for index in range(needed + 1)]
                if whole:
                    edges = [int(edge) for edge in edges]
                return list(zip(edges, edges[1:], strict=False))
        scale *= 10


def _bin_label(low: float, high: float, whole: bool) -> str:
    """Return the label of the range ``[low, high)``: ``24-26`` (whole) or ``2.5-<5``."""
    if whole:
        return f"{low}" if high - low == 1 else f"{low}-{high - 1}"
    return f"{low:g}-<{high:g}"


def _counted(values: Sequence[float], count: int, whole: bool) -> list[list[Any]]:
    """Return the rows (label, how many values) of the value ranges, padded to *count* rows."""
    rows: list[list[Any]] = []
    for low, high in bins(values, count, whole):
        rows.append([_bin_label(low, high, whole), sum(low <= v < high for v in values)])
    return rows + [[None, None]] * (count - len(rows))


def collection_tables(rows: Sequence[Sequence[Any]]) -> dict[str, list[list[Any]]]:
    """Return the Stats sheet's three tables for the Collection *rows*.

    Puzzles per level (every level, in order, with its count), and the puzzles per range of
    scores and of opens (ranges of one round width, at most :data:`layout.STATS_BINS`; unused
    rows blank).  A row with no level, score or opens counts only where it has one.

    >>> rows = [[1, None, "9x9", "", "", 26, 1, "", "Easy", 1.5], [2, None, "9x9", "", "", 30, 1,
    ...         "", "Hard", 4.2]]
    >>> tables = collection_tables(rows)
    >>> tables["StatsLevels"][:3]
    [['Easy', 1], ['Medium', 0], ['Hard', 1]]
    >>> tables["StatsScores"][:2], tables["StatsScores"][5:7]
    ([['1.5-<2', 1], ['2-<2.5', 0]], [['4-<4.5', 1], [None, None]])
    >>> tables["StatsOpens"][0], tables["StatsOpens"][4]
    (['26', 1], ['30', 1])
    """
    levels = [str(_Collection.value(row, "level") or "").strip().lower() for row in rows]
    scores = [float(v) for row in rows if _is_number(v := _Collection.value(row, "score"))]
    opens = [int(v) for row in rows if _is_whole(v := _Collection.value(row, "opens"))]
    return {
        layout.STATS_LEVELS: [
            [label, levels.count(label.lower())] for label in layout.LEVEL_LABELS
        ],
        layout.STATS_SCORES: _counted(scores, layout.STATS_BINS, whole=False),
        layout.STATS_OPENS: _counted(opens, layout.STATS_BINS, whole=True),
    }


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


STATS_NAMES = (layout.STATS_STATUS, layout.STATS_LEVELS, layout.STATS_SCORES, layout.STATS_OPENS)


def stats(io: CellIO) -> Outcome:
    """STATS: count the Collection's puzzles per level, score and opens for the Stats charts.

    Only the three tables' cells are written; the charts reference them, so Excel (and
    LibreOffice) redraw them from the new counts.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        rows = [row for row in _Collection.read(io).rows if row and _is_whole(row[0])]
        tables = collection_tables(rows)
        for name, table in tables.items():
            changes.write(name, table)
        if not rows:
            return "The Collection is empty: SAVE or IMPORT puzzles, then press STATS.", tables
        levels = sum(count for _, count in tables[layout.STATS_LEVELS])
        return (
            f"Counted the Collection's {plural(len(rows), 'puzzle')} ({levels} with a level); "
            "the charts below show them.",
            tables,
        )

    names = [*STATS_NAMES, layout.COLLECTION_HEADER]
    return _run(io, "stats", layout.STATS_STATUS, names, body)


# -- Analyze sheet -----------------------------------------------------------------------------


def _typed_puzzle(io: CellIO, changes: Changes) -> tuple[Grid, str]:
    """Return the puzzle typed on the Analyze sheet and a note for the status ("" or a sentence).

    A non-blank AnalyzeString wins: the puzzle is copied into AnalyzeGrid and the string cell
    is cleared, so the grid is the one place the puzzle lives afterwards.  A string of another
    size than the Geometry cell's sets that cell to the string's shape (and the note says so).
    """
    param = layout.ANALYZE_PARAMS[0]
    chosen = params.read_geometry(param, io.read(layout.ANALYZE_GEOMETRY))
    text = io.read(layout.ANALYZE_STRING)
    note = ""
    if not params.is_blank(text):
        # a puzzle Excel had turned into a number is read back, and the status says so
        number = params.number_note(layout.ANALYZE_STRING, text)
        if number:
            text, _ = params.number_puzzle(layout.ANALYZE_STRING, text)
            note = " " + number.strip()
        shape = params.string_geometry(text, chosen)
        grid = params.read_string(layout.ANALYZE_STRING, text, shape)
        if shape != chosen:
            changes.write(layout.ANALYZE_GEOMETRY, shape.name)
            note += f" Geometry set to {shape.name} for the {shape.cell_count}-cell string."
        changes.write(layout.ANALYZE_GRID, render.block_rows(grid))
        changes.clear(layout.ANALYZE_STRING)
    else:
        grid = params.read_block(layout.ANALYZE_GRID, _block(io.read(layout.ANALYZE_GRID)), chosen)
    if grid.given_count == 0:
        grid_ref = layout.NAMES[layout.ANALYZE_GRID].part(chosen.size, chosen.size)
        string_ref = layout.NAMES[layout.ANALYZE_STRING]
        raise params.ParamError(
            [
                f"The grid ({grid_ref.address}) is empty: type a puzzle into it, or paste a "
                f"puzzle string into {string_ref.address}"
            ]
        )
    return grid, note


def _plain_look(changes: Changes, geo: Geometry, grid: str = layout.ANALYZE_GRID) -> None:
    """Give a sheet's grid its fill (X-Sudoku's diagonals, Windoku's extra boxes shaded)."""
    changes.fill(grid, render.PLAY_FILL if grid == layout.PLAY_GRID else render.GRID_FILL, None)
    if geo.diagonals or geo.windoku:
        n = geo.size
        extra = [cell for house in geo.houses[3 * n :] for cell in house]
        changes.fill(grid, render.DIAGONAL_COLOUR, sorted({divmod(cell, n) for cell in extra}))
    others = (layout.CANDIDATES, layout.ANALYZE_SOLUTION, layout.ANALYZE_SOLUTION2)
    for name in (layout.PLAY_MARKS,) if grid == layout.PLAY_GRID else others:
        changes.fill(name, None, None)


def _mark_placed(io: CellIO, changes: Changes, step: Step, geo: Geometry) -> None:
    """Note the digits *step* placed in the hidden HintPlaced block: the grid draws them blue."""
    rows = [list(row) for row in _block(io.read(layout.HINT_PLACED))]
    for placement in step.placements:
        r, c = divmod(placement.cell, geo.size)
        rows[r][c] = placement.digit
    changes.write(layout.HINT_PLACED, rows)


def _write_candidates(changes: Changes, board: Board) -> None:
    changes.write(
        layout.CANDIDATES, render.candidates_block(board.values, board.cands, board.geometry)
    )


def analyze(io: CellIO) -> Outcome:
    """ANALYZE: validity, solution count, grade, or two solutions side by side and a clue.

    With several solutions, the two found are written side by side with the cells where they
    differ coloured, and the clue to add is marked in the puzzle.  The candidates (pencil
    marks) start afresh from the puzzle, so ANALYZE also resets what HINT has applied.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = _typed_puzzle(io, changes)
        analysis = analyze_grid(grid, _rating(io))  # the Rating cell's profile
        geo = grid.geometry
        _plain_look(changes, geo)
        changes.write(layout.ANALYZE_REPORT, render.report_lines(grid, analysis))
        changes.clear(layout.HINT_TEXT)
        changes.clear(layout.HINT_PLACED)  # the grid is the puzzle now: every digit a given
        first = analysis.solutions[0] if analysis.status is Status.SEVERAL else None
        second = analysis.solutions[1] if analysis.status is Status.SEVERAL else None
        changes.write(layout.ANALYZE_SOLUTION, render.block_rows(first))
        changes.write(layout.ANALYZE_SOLUTION2, render.block_rows(second))
        if analysis.status is Status.INVALID:
            changes.clear(layout.CANDIDATES)
        else:
            _write_candidates(changes, Board.from_grid(grid))
        if analysis.status is Status.SEVERAL:
            differing = render.offsets(analysis.differing, geo)
            for name in (layout.ANALYZE_SOLUTION, layout.ANALYZE_SOLUTION2):
                changes.fill(name, render.DIFFER_COLOUR, differing)
            if analysis.clue is not None:
                spot = render.offsets([analysis.clue.cell], geo)
                changes.fill(layout.ANALYZE_GRID, render.CLUE_COLOUR, spot)
                changes.fill(layout.ANALYZE_SOLUTION, render.CLUE_COLOUR, spot)
        return render.analysis_status(analysis) + note, analysis

    return _run(io, "analyze", layout.ANALYZE_STATUS, [*ANALYZE_NAMES, layout.RATING], body)


def hint(io: CellIO) -> Outcome:
    """HINT: the next step on the candidates kept on the sheet, more of it on each press.

    Press 1 names the technique and where to look, press 2 the cells of its pattern (the
    cause), press 3 explains it and applies it: its eliminations are made in the Candidates
    block and its placements in the grid, so the next press goes on with the next step.  The
    cause cells and the effect cells get their own colours (see the legend).  A puzzle with
    no solution or several solutions gets no hint: a step would prove nothing there.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = _typed_puzzle(io, changes)
        geo = grid.geometry
        found = solutions(grid, 2)
        if len(found) != 1:
            what = "no solution" if not found else "several solutions"
            raise params.ParamError(
                [
                    f"The puzzle has {what}: HINT needs a puzzle with exactly one. ANALYZE "
                    + ("shows two solutions and a clue to add." if found else "checks it.")
                ]
            )
        # marks that lost a digit of the solution (typed by hand, or left from another
        # puzzle) are dropped for the puzzle's own
        stored = params.read_candidates(_block(io.read(layout.CANDIDATES)), geo)
        board, lost = player_board(Game(grid, found[0], grid.cells, ()), stored)
        board = Board.from_grid(grid) if lost else board
        _plain_look(changes, geo)
        if board.is_solved:
            changes.write(layout.HINT_TEXT, "The grid is full: nothing left to hint.")
            changes.clear(layout.CANDIDATES)
            return "The grid is full: nothing left to hint.", None
        blocks = (layout.HINT_TEXT, layout.ANALYZE_GRID, layout.CANDIDATES)
        step = _path_step(board, grid, _rating(io), found[0])
        result = _next_hint(io, changes, board, step, blocks)
        status = f"Hint {result.level} of 3."
        step = result.step
        if step is not None and result.level == 3:
            after = board.apply(step)
            _write_candidates(changes, after)
            if step.placements:
                changes.write(layout.ANALYZE_GRID, render.block_rows(after.grid))
                _mark_placed(io, changes, step, geo)
            status += " Applied: " + _applied(step) + " Press HINT for the next step."
        else:
            _write_candidates(changes, board)
            status += " Press HINT again for more."
        if lost:
            status += " The candidates did not fit the puzzle and were started afresh."
        return status + note, result

    return _run(io, "hint", layout.ANALYZE_STATUS, [*ANALYZE_NAMES, layout.RATING], body)


def _path_step(board: Board, puzzle: Grid, profile: str, solution: Grid) -> Step:
    """Return the next step from *board*: the profile's path from *puzzle* when on it.

    Off the path (the player went another way), the profile's easiest step from the board.
    """
    step = path_step(board, walk_rating_path(puzzle, profile), profile_table(profile), solution)
    assert step is not None, "a board with an empty cell has a next step"
    return step


def _next_hint(
    io: CellIO, changes: Changes, board: Board, step: Step, blocks: tuple[str, str, str]
) -> Hint:
    """Show and colour the hint of *step*, the next step on *board*; return it.

    *blocks* are the hint cell, the grid and its pencil marks.  The level is one more than the
    hint shown for this very step (one shown for another step is stale: level 1).  Colours:
    the house (level 1), the pattern (cause) and what the step changes (effect, level 3).
    """
    text, grids = blocks[0], blocks[1:]
    level = 1
    for earlier in (1, 2):
        if io.read(text) == render.hint_text(hint_for_step(step, board, earlier)):
            level = earlier + 1
    result = hint_for_step(step, board, level)
    changes.write(text, render.hint_text(result))
    geo = board.geometry
    if level == 1:
        for name in grids:
            changes.fill(name, render.HINT_REGION_COLOUR, render.offsets(result.cells, geo))
        return result
    effect = [p.cell for p in step.placements] + [e.cell for e in step.eliminations]
    cause = [cell for cell in step.cells if cell not in effect]
    if level == 2 and not cause:  # a single: its cells are what level 2 names ("at r1c9")
        cause = list(result.cells)
    for name in grids:
        changes.fill(name, render.HINT_CAUSE_COLOUR, render.offsets(cause, geo))
    for name in grids if level == 3 else ():
        changes.fill(name, render.HINT_EFFECT_COLOUR, render.offsets(effect, geo))
    return result


def _applied(step: Step) -> str:
    placed, removed = len(step.placements), len(step.eliminations)
    parts = [f"{plural(placed, 'digit')} placed in the grid"] if placed else []
    if removed:
        parts.append(f"{plural(removed, 'candidate')} removed")
    return " and ".join(parts) + "."


def solve(io: CellIO) -> Outcome:
    """SOLVE: write the solution beside the typed puzzle (the first of several, said so)."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = _typed_puzzle(io, changes)
        found = solutions(grid, 2)
        _plain_look(changes, grid.geometry)
        changes.clear(layout.HINT_TEXT)
        changes.write(layout.ANALYZE_SOLUTION, render.block_rows(found[0] if found else None))
        changes.write(layout.ANALYZE_SOLUTION2, render.block_rows(None))
        if not found:
            return "No solution: the givens cannot all be kept." + note, None
        if len(found) > 1:
            return (
                "Several solutions: one of them is shown; ANALYZE shows two and where they "
                "differ." + note,
                found[0],
            )
        return "Solved: the solution is unique." + note, found[0]

    return _run(io, "solve", layout.ANALYZE_STATUS, ANALYZE_NAMES, body)


# -- Play sheet --------------------------------------------------------------------------------

PLAY_NAMES = _names_on(layout.PLAY)


def _restored_note(game: Game) -> str:
    """Return the sentence about givens put back ("" when none was touched)."""
    if not game.restored:
        return ""
    cells = render.cells_text(layout.PLAY_GRID, game.restored, geometry=game.geometry)
    suffix = "s" if len(game.restored) > 1 else ""
    return f"Put back the given{suffix} you had changed: {cells}. "


def _play_source(io: CellIO, value: Any) -> tuple[Grid, str]:
    """Return the puzzle Play from names and where it came from (for the status).

    Raises:
        params.ParamError: the cell names nothing playable, or the puzzle there is empty.
        MissingPart: the sheet it names lacks a part.
    """
    param = layout.NAMES[layout.PLAY_SOURCE]
    text = "" if params.is_blank(value) else params.cell_text(value)
    key = text.lower().removeprefix("id").strip().removesuffix(".0")
    number = params.collection_id(key, f"Play from ({param.address})")
    if key in ("", layout.PLAY_FROM_GENERATOR.lower()):
        io.require([layout.PUZZLE_GRID, layout.STATS, layout.GEOMETRY])
        grid = generator_puzzle(io)
        where, empty = "the Generator's puzzle", "press START first"
    elif key == layout.PLAY_FROM_ANALYZE.lower():
        io.require([layout.ANALYZE_GRID, layout.ANALYZE_STRING, layout.ANALYZE_GEOMETRY])
        grid, _ = _typed_puzzle(io, Changes())  # read only: the Analyze sheet stays as it is
        where, empty = "the Analyze sheet's puzzle", "type a puzzle there first"
    elif number is not None:
        io.require([layout.COLLECTION_HEADER])
        grid = _collection_puzzle(io, number)
        where, empty = f"Collection id {number}", ""
    elif key == layout.PLAY_FROM_SELECTED.lower():
        io.require([layout.COLLECTION_HEADER])
        wanted = _selected_id(io, param.address)
        grid = _collection_puzzle(io, wanted)
        where, empty = f"Collection id {wanted} (the selected row)", ""
    else:
        raise params.ParamError(
            [
                f"Play from ({param.address}) must be {layout.PLAY_FROM_GENERATOR}, "
                f"{layout.PLAY_FROM_ANALYZE}, {layout.PLAY_FROM_SELECTED} or a Collection id "
                "such as 7, got "
                f"{params.shown(value)}"
            ]
        )
    if grid.given_count == 0:
        raise params.ParamError([f"{where[:1].upper()}{where[1:]} is empty: {empty}"])
    return grid, where


def _selected_id(io: CellIO, address: str) -> int:
    """Return the id of the Collection row selected (the active cell on the Collection sheet)."""
    header_row = layout.parse_cell(layout.NAMES[layout.COLLECTION_HEADER].top_left)[0]
    row = io.selected_row(layout.COLLECTION)
    rows = io.table_rows(layout.COLLECTION_HEADER)
    index = -1 if row is None else row - header_row - 1
    if not 0 <= index < len(rows) or not rows[index] or not _is_whole(rows[index][0]):
        raise params.ParamError(
            [
                f"Play from ({address}) is {layout.PLAY_FROM_SELECTED}, but no Collection row is "
                "selected: select a row of the Collection sheet and run play from there (the "
                "xlwings Lite or Server pane), or type the row's id"
            ]
        )
    return int(rows[index][0])


def _collection_puzzle(io: CellIO, wanted: int) -> Grid:
    """Return the puzzle of the Collection row with id *wanted*."""
    for row in io.table_rows(layout.COLLECTION_HEADER):
        if row and _is_whole(row[0]) and int(row[0]) == wanted:
            shape = str(_Collection.value(row, "geometry") or layout.CLASSIC_NAME).strip()
            text = str(_Collection.value(row, "puzzle") or "").strip()
            try:
                return Grid.parse(text, params.geometry_of(shape))
            except (SudokuError, KeyError) as error:
                raise params.ParamError([f"Collection id {wanted}: {error}"]) from None
    raise params.ParamError([f"No Collection row has id {wanted}: SAVE or IMPORT it first"])


def play(io: CellIO) -> Outcome:
    """PLAY: put the puzzle Play from names on the play grid, givens locked, ready to solve.

    The givens go to the grid and to the hidden PlayGivens block, which locks them (the
    grid's validation refuses a digit typed over a given) and draws them apart from the
    player's entries (conditional formats: givens bold black, entries blue).  The pencil
    marks, the hint and every colour start afresh.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, where = _play_source(io, io.read(layout.PLAY_SOURCE))
        found = solutions(grid, 2)
        if len(found) != 1:
            what = "no solution" if not found else "more than one solution"
            raise params.ParamError(
                [f"{where[:1].upper()}{where[1:]} has {what}: only a puzzle with one is played"]
            )
        geo = grid.geometry
        changes.write(layout.PLAY_GEOMETRY, geo.name)
        changes.write(layout.PLAY_GIVENS, render.block_rows(grid))
        changes.write(layout.PLAY_GRID, render.block_rows(grid))
        changes.clear(layout.PLAY_MARKS)
        changes.clear(layout.PLAY_HINT)
        _plain_look(changes, geo, layout.PLAY_GRID)
        start = {layout.PLAY_GRID: _corner(render.block_rows(grid), geo.size)}
        _start_clock(changes, start | {layout.PLAY_MARKS: _corner([], geo.size)}, time.time())
        left = geo.cell_count - grid.given_count
        return (
            f"Playing {where} ({geo.name}, {grid.given_count} givens): {left} cells to fill. "
            "Type digits into the grid and pencil marks beside it; CHECK marks wrong entries, "
            "HINT gives the next step from where you stand.",
            grid,
        )

    return _run(io, "play", layout.PLAY_STATUS, PLAY_NAMES, body)


def _read_game(io: CellIO, changes: Changes) -> Game:
    """Return the game on the Play sheet, queueing the givens' return when one was changed.

    Raises:
        params.ParamError: no game (PLAY not pressed), or a cell that holds no digit.
    """
    press_play = "the Play sheet has no puzzle: choose one in Play from and press PLAY"
    shape = io.read(layout.PLAY_GEOMETRY)
    if params.is_blank(shape) or str(shape).strip() not in layout.GEOMETRIES:
        raise params.ParamError([press_play[:1].upper() + press_play[1:]])
    geo = params.geometry_of(str(shape).strip())
    puzzle = params.read_block(layout.PLAY_GIVENS, _block(io.read(layout.PLAY_GIVENS)), geo)
    found = solutions(puzzle, 2) if puzzle.given_count else []
    if len(found) != 1:
        raise params.ParamError([f"The givens were changed and {press_play}"])
    digits = params.read_entries(layout.PLAY_GRID, _block(io.read(layout.PLAY_GRID)), geo)
    restored = tuple(
        cell for cell, given in enumerate(puzzle.cells) if given and digits[cell] != given
    )
    for cell in restored:
        digits[cell] = puzzle[cell]
    if restored:
        changes.write(layout.PLAY_GRID, render.block_rows(Grid(tuple(digits), geo)))
    return Game(puzzle, found[0], tuple(digits), restored)


def check(io: CellIO, now: float | None = None) -> Outcome:
    """CHECK: mark each wrong entry against the solution, and say how many cells are left.

    Only the wrong entries are coloured; no correct digit is shown anywhere, and the pencil
    marks stay as they are.  The status gives the time since PLAY (*now*: the time, seconds
    since the epoch), and "Solved in mm:ss" once the grid is complete and right.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        _plain_look(changes, geo, layout.PLAY_GRID)
        changes.clear(layout.PLAY_HINT)
        wrong = game.wrong
        changes.fill(layout.PLAY_GRID, render.WRONG_COLOUR, render.offsets(wrong, geo))
        entries = len(game.entries)
        left = f"{plural(game.left, 'cell')} left to fill"
        clock = _timed(io, changes, not wrong and not game.left, now or time.time())
        if not wrong and not game.left:
            solved = clock if clock.startswith("Solved") else "Solved"
            status = f"{solved}: all {geo.cell_count} cells are right. Press PLAY for another."
            clock = ""
        elif wrong:
            cells = render.cells_text(layout.PLAY_GRID, wrong, geometry=geo)
            verb = "are" if len(wrong) > 1 else "is"
            some = f"{len(wrong)} of your {entries} entries" if entries > 1 else "Your entry"
            status = f"{some} {verb} wrong, marked red: {cells}. {left}."
        elif entries:
            every = f"Your {entries} entries are all" if entries > 1 else "Your entry is"
            status = f"{every} right; {left}."
        else:
            status = f"No entries yet; {left}."
        return _restored_note(game) + status + clock, wrong

    return _run(io, "check", layout.PLAY_STATUS, PLAY_NAMES, _remembered(body, "CHECK"))


def play_hint(io: CellIO) -> Outcome:
    """HINT on the Play sheet: the next step from the player's own entries and pencil marks.

    A wrong entry comes first ("r3c5 is wrong"), then pencil marks that leave out the digit a
    cell needs (which digit is not said); else the next technique, more of it on each press as
    on the Analyze sheet: press 3 applies it (a placement becomes an entry, eliminations
    rewrite the marks of the cells they touch).  A hint left from another position is cleared.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        _plain_look(changes, geo, layout.PLAY_GRID)
        changes.clear(layout.PLAY_HINT)
        if game.wrong:
            cell = game.wrong[0]
            changes.fill(layout.PLAY_GRID, render.WRONG_COLOUR, render.offsets([cell], geo))
            text = f"{render.cell_label(layout.PLAY_GRID, cell, geo)} is wrong."
            changes.write(layout.PLAY_HINT, text + " Clear it or type another digit.")
            more = len(game.wrong) - 1
            rest = f" {more} more wrong: CHECK marks them all." if more else ""
            return _restored_note(game) + text + rest, cell
        if not game.left:
            return _restored_note(game) + "Solved: every cell is right; nothing left to hint.", None
        marks_block = _block(io.read(layout.PLAY_MARKS))
        board, missing = player_board(game, params.read_candidates(marks_block, geo))
        if missing:
            cell = missing[0]
            spot = render.offsets([cell], geo)
            changes.fill(layout.PLAY_MARKS, render.WRONG_COLOUR, spot)
            text = (
                f"Your pencil marks in {render.cell_label(layout.PLAY_GRID, cell, geo)} leave "
                "out the digit that belongs there."
            )
            changes.write(layout.PLAY_HINT, text)
            return _restored_note(
                game
            ) + text + " Look at that cell's row, column and box again.", cell
        blocks = (layout.PLAY_HINT, layout.PLAY_GRID, layout.PLAY_MARKS)
        step = _path_step(board, game.puzzle, _rating(io), game.solution)
        result = _next_hint(io, changes, board, step, blocks)
        status = f"Hint {result.level} of 3."
        step = result.step
        if step is None or result.level < 3:
            return _restored_note(game) + status + " Press HINT again for more.", result
        after = board.apply(step)
        if step.placements:
            changes.write(layout.PLAY_GRID, render.block_rows(after.grid))
        touched = {e.cell for e in step.eliminations} | {p.cell for p in step.placements}
        rows = [list(row) for row in marks_block]
        for cell in touched:
            r, c = divmod(cell, geo.size)
            keep = after.values[cell] == 0
            rows[r][c] = render.candidates_text(after.cands[cell], geo) if keep else ""
        changes.write(layout.PLAY_MARKS, rows)
        status += " Applied: " + _applied(step) + " Press HINT for the next step."
        return _restored_note(game) + status, result

    return _run(
        io, "play_hint", layout.PLAY_STATUS, [*PLAY_NAMES, layout.RATING], _remembered(body, "HINT")
    )


def play_solve(io: CellIO) -> Outcome:
    """SOLVE on the Play sheet: fill the rest of the grid (wrong entries corrected, said so)."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        _plain_look(changes, geo, layout.PLAY_GRID)
        changes.clear(layout.PLAY_HINT)
        changes.clear(layout.PLAY_MARKS)
        changes.write(layout.PLAY_GRID, render.block_rows(game.solution))
        wrong = game.wrong
        status = f"Solved: {plural(game.left, 'cell')} filled in"
        if wrong:
            cells = render.cells_text(layout.PLAY_GRID, wrong, geometry=geo)
            noun = "entries" if len(wrong) > 1 else "entry"
            status += f"; {len(wrong)} wrong {noun} corrected: {cells}"
        return _restored_note(game) + status + ".", game.solution

    return _run(io, "play_solve", layout.PLAY_STATUS, PLAY_NAMES, _remembered(body, "SOLVE"))


# -- Play comforts: the clock, the history UNDO steps through, FILL CANDIDATES ----------------
#
# A state is the Play grid and the pencil marks as the sheet holds them (the shape's corner,
# each cell's value as read), kept as JSON text in one hidden cell.  The clock row holds when
# PLAY started, the seconds CHECK first found the grid solved in, and the state the last Play
# button left; the history rows hold the states before each move, the oldest first.  A move is
# what one Play button changed, or what the player typed between two presses (Python sees the
# sheet only when a button runs, so entries typed between two presses are one move).

State = dict[str, list[list[Any]]]


def _normal(value: Any) -> Any:
    """Return a cell value as a state keeps it: "" for blank, whole numbers as int."""
    if value is None or value == "":
        return ""
    if _is_whole(value):
        return int(value)
    return value if isinstance(value, str) else str(value)


def _corner(block: Any, side: int) -> list[list[Any]]:
    rows = _block(block)
    return [
        [_normal(rows[r][c]) if r < len(rows) and c < len(rows[r]) else "" for c in range(side)]
        for r in range(side)
    ]


def _read_state(io: CellIO, side: int) -> State:
    """Return the Play grid and pencil marks as they are on the sheet now."""
    return {
        layout.PLAY_GRID: _corner(io.read(layout.PLAY_GRID), side),
        layout.PLAY_MARKS: _corner(io.read(layout.PLAY_MARKS), side),
    }


def _state_after(state: State, changes: Changes, side: int) -> State:
    """Return *state* as the queued *changes* leave it (their writes to the grid and marks)."""
    after = {name: [list(row) for row in rows] for name, rows in state.items()}
    for method, args in changes.operations:
        if args and args[0] in after and method in ("write", "clear"):
            value = args[1] if method == "write" else None
            after[args[0]] = _corner(value, side) if value is not None else _corner([], side)
    return after


def _state_text(state: State) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def _state_of(text: Any) -> State | None:
    """Return the state kept as *text*, or None (blank, or not one this module wrote)."""
    if not isinstance(text, str) or not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    names = (layout.PLAY_GRID, layout.PLAY_MARKS)
    if not isinstance(value, dict) or any(not isinstance(value.get(n), list) for n in names):
        return None
    return {name: value[name] for name in names}


def _clock(io: CellIO) -> list[Any]:
    """Return the clock row: [started (seconds since the epoch), solved in, last state]."""
    row = _block(io.read(layout.PLAY_CLOCK))[0]
    return [*row, None, None, None][:3]


def _history(io: CellIO) -> list[list[Any]]:
    """Return the moves kept, the oldest first: [state text, what the move was]."""
    return [list(row[:2]) for row in _block(io.read(layout.PLAY_HISTORY)) if _state_of(row[0])]


def _write_history(changes: Changes, moves: list[list[Any]]) -> None:
    kept = moves[-layout.HISTORY_ROWS :]
    blank: list[list[Any]] = [["", ""]] * (layout.HISTORY_ROWS - len(kept))
    changes.write(layout.PLAY_HISTORY, kept + blank)


def _remembered(body: Body, what: str) -> Body:
    """Return *body* recording its press in the history (see :func:`_remember`)."""

    def remembering(io: CellIO, changes: Changes) -> tuple[str, Any]:
        result = body(io, changes)
        side = params.geometry_of(str(io.read(layout.PLAY_GEOMETRY)).strip()).size
        _remember(io, changes, side, what)
        return result

    return remembering


def _start_clock(changes: Changes, state: State, now: float) -> None:
    """Start the clock for a new game and forget the history of the last one."""
    changes.write(layout.PLAY_CLOCK, [[now, "", _state_text(state)]])
    _write_history(changes, [])


def _remember(io: CellIO, changes: Changes, side: int, what: str) -> None:
    """Record the moves up to the end of this press: the player's typing, then *what* it did."""
    before = _read_state(io, side)
    after = _state_after(before, changes, side)
    clock = _clock(io)
    for method, args in changes.operations:  # a clock this press has set already (CHECK)
        if method == "write" and args[0] == layout.PLAY_CLOCK:
            clock = [*_block(args[1])[0], None, None, None][:3]
    last = _state_of(clock[2])
    moves = _history(io)
    if last is not None and last != before:
        moves.append([_state_text(last), "your entries"])
    if after != before:
        moves.append([_state_text(before), what])
    if len(moves) != len(_history(io)):
        _write_history(changes, moves)
    if last != after:
        changes.write(layout.PLAY_CLOCK, [[clock[0], clock[1], _state_text(after)]])


def minutes(seconds: float) -> str:
    """Return *seconds* as ``mm:ss`` (``h:mm:ss`` from an hour on).

    >>> minutes(75.4), minutes(3725)
    ('01:15', '1:02:05')
    """
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    text = f"{rest // 60:02d}:{rest % 60:02d}"
    return f"{hours}:{text}" if hours else text


def _timed(io: CellIO, changes: Changes, solved: bool, now: float) -> str:
    """Return the time sentence CHECK adds; the first solved CHECK stops the clock."""
    started, solved_in, last = _clock(io)
    if not _is_number(started):
        return ""
    if solved:
        if not _is_number(solved_in):
            solved_in = now - float(started)
            changes.write(layout.PLAY_CLOCK, [[started, solved_in, last]])
        return f"Solved in {minutes(float(solved_in))}"
    return f" Time so far: {minutes(now - float(started))}."


def undo(io: CellIO) -> Outcome:
    """UNDO: step back one move: the entries typed since the last press, else the last press.

    The grid and the pencil marks go back to what they were before the move; the colours and
    the hint are cleared.  The history keeps the last :data:`layout.HISTORY_ROWS` moves.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, Changes())  # a game must be on the sheet; nothing is put back
        side = game.geometry.size
        now = _read_state(io, side)
        clock = _clock(io)
        last = _state_of(clock[2])
        moves = _history(io)
        if last is not None and last != now:
            target, what = last, "your entries since the last button"
        elif moves:
            text, what = moves.pop()
            target = _state_of(text) or now
            _write_history(changes, moves)
        else:
            raise params.ParamError(["Nothing to undo: no move since PLAY"])
        _plain_look(changes, game.geometry, layout.PLAY_GRID)
        changes.fill(layout.PLAY_MARKS, None, None)
        changes.clear(layout.PLAY_HINT)
        for name in (layout.PLAY_GRID, layout.PLAY_MARKS):
            values = [value for row in target[name] for value in row]
            changes.write(name, render.block_rows_of(values, side))
        changes.write(layout.PLAY_CLOCK, [[clock[0], clock[1], _state_text(target)]])
        left = len(moves)
        more = f"{plural(left, 'more move')} can be undone" if left else "nothing more to undo"
        return f"Undid {what}; {more}.", target

    return _run(io, "undo", layout.PLAY_STATUS, PLAY_NAMES, body)


def fill_candidates(io: CellIO) -> Outcome:
    """FILL CANDIDATES: write every empty cell's candidates as pencil marks.

    A cell's candidates are the digits no peer holds (givens and your entries, right or
    wrong); a filled cell's marks are cleared.  UNDO puts your own marks back.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        board = Board.from_grid(Grid(game.digits, geo))
        marks = [
            render.candidates_text(mask, geo) if not digit else ""
            for digit, mask in zip(board.values, board.cands, strict=True)
        ]
        changes.clear(layout.PLAY_HINT)
        changes.fill(layout.PLAY_MARKS, None, None)
        changes.write(layout.PLAY_MARKS, render.block_rows_of(marks, geo.size))
        _remember(io, changes, geo.size, "FILL CANDIDATES")
        empty = sum(1 for digit in game.digits if not digit)
        none = sum(1 for digit, mask in zip(board.values, board.cands, strict=True) if not digit
                   and not mask)  # fmt: skip
        status = f"Filled in the candidates of {plural(empty, 'empty cell')}."
        if none:
            verb = "has" if none == 1 else "have"
            status += f" {plural(none, 'cell')} {verb} none left: an entry is wrong (CHECK)."
        return _restored_note(game) + status + " UNDO puts your own marks back.", marks

    return _run(io, "fill_candidates", layout.PLAY_STATUS, PLAY_NAMES, body)


ACTIONS: dict[str, Callable[[CellIO], Outcome]] = {
    "start": start,
    "clear": clear,
    "save_to_collection": save_to_collection,
    "import_puzzles": import_puzzles,
    "delete_from_collection": delete_from_collection,
    "sort_collection": sort_collection,
    "restore_to_collection": restore_to_collection,
    "analyze": analyze,
    "hint": hint,
    "solve": solve,
    "play": play,
    "check": check,
    "play_hint": play_hint,
    "play_solve": play_solve,
    "stats": stats,
    "undo": undo,
    "fill_candidates": fill_candidates,
}
