"""The Collection tools: SAVE TO COLLECTION, IMPORT, DELETE, SORT and RESTORE.

The Collection never loses a row.  SAVE TO COLLECTION and IMPORT append under the rows already
there, refusing a puzzle the Collection holds (same shape and digits); DELETE first copies the
rows to the Removed sheet (with the time and the reason) and only then rewrites the Collection
without them; RESTORE moves them back the same way round; SORT rewrites the same rows in
another order.  Ids are never reused: a new id is above every id in the Collection and the
Removed sheet and above the high-water mark kept in the HighestId cell, which each new row
raises.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlsudoku.addin import layout, params, render
from xlsudoku.addin.actions.generator import generator_puzzle, grading_clock, stats_value
from xlsudoku.addin.actions.shared import (
    COLLECTION_NAMES,
    Changes,
    Outcome,
    is_whole,
    rating_profile,
    run_action,
)
from xlsudoku.addin.cellio import CellIO
from xlsudoku.engine.analysis import analyze as analyze_grid
from xlsudoku.engine.formats import read_records
from xlsudoku.engine.generate import Budget
from xlsudoku.engine.generate.clock import Stopped
from xlsudoku.engine.generate.strategy import plural
from xlsudoku.engine.grid import Grid, SudokuError
from xlsudoku.engine.patterns import detect_pattern
from xlsudoku.engine.solver import solutions, unique_reading
from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry, symmetry_of
from xlsudoku.xlsm.files import ReadableFiles

MAX_IMPORT = 2000  # puzzles one IMPORT adds at most (each is solved, graded and ranked)
# Which files IMPORT may read when the Import from cell names one: those of the workbook's
# folder (None on xlwings Lite and Server: no file at all), or the file the user named
# (``xlsudoku workbook import BOOK FILE``).  Its default limit, 16 MB, leaves room beside
# MAX_IMPORT new 16x16 puzzles with their notes (under 2 MB) for comments and known puzzles.
ImportFiles = ReadableFiles


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
        book = Collection.read(io)
        existing = book.id_of(grid)
        if existing is not None:
            raise params.ParamError(
                [f"This puzzle is already in the Collection (id {existing}); nothing added"]
            )
        profile = rating_profile(io)
        facts, note = start_facts(io, grid, profile)
        if facts is None:
            analysis = analyze_grid(grid, profile, ranks=True, suggest_given=False)
            if not analysis.unique:
                what = "more than one solution" if analysis.solutions else "no solution"
                raise params.ParamError(
                    [f"The puzzle grid has {what}; only puzzles with exactly one are saved"]
                )
            facts = render.Facts.of(analysis)
        else:
            note = " Its grade is the one START found (not analysed again)."
        seed = None
        if stats_value(stats, "Opens") == grid.given_count:
            seed_value = stats_value(stats, "Seed")
            seed = int(seed_value) if is_whole(seed_value) else None
        new_id = book.next_id()
        solution = Grid.parse(facts.solution, grid.geometry)
        row = row_for(facts, grid, solution, new_id, now, io.read(layout.SYMMETRY), seed)
        changes.append_rows(layout.COLLECTION_HEADER, [row], heights([row]))
        changes.write(layout.HIGHEST_ID, new_id)
        return (
            f"Saved to the Collection as id {new_id} ({grid.given_count} opens; {facts.level}, "
            f"score {facts.score:g} under {facts.profile}).{note}",
            row,
        )

    names = [
        layout.STATUS,
        layout.PUZZLE_GRID,
        layout.STATS,
        layout.SYMMETRY,
        layout.GEOMETRY,
        layout.RATING,
        layout.GENERATOR_FACTS,
    ]
    return run_action(io, "save_to_collection", layout.STATUS, [*names, *COLLECTION_NAMES], body)


def _time_limit(io: CellIO) -> Budget:
    """Return the limit the Time limit cell sets (blank: its default; a bad value is named)."""
    value = params.parse_param(layout.PARAMS_BY_NAME[layout.TIME_LIMIT], io.read(layout.TIME_LIMIT))
    if value is None:
        return Budget(layout.DEFAULT_TIME_LIMIT)
    return Budget.parse(value) if isinstance(value, str) else Budget(float(value))


def row_for(
    facts: render.Facts,
    grid: Grid,
    solution: Grid,
    id_: int,
    now: dt.datetime | None,
    symmetry: Any,
    seed: int | None,
    notes: str = "",
) -> list[Any]:
    """Return the Collection row of a unique puzzle from its facts (grade, profile, ranks).

    *facts* are one analysis's (:meth:`render.Facts.of`), START's kept on the sheet, or what a
    record was stored with; the score is on their profile's scale.
    """
    return render.collection_row(
        id_=id_,
        when=now or dt.datetime.now(),
        puzzle=grid,
        solution=solution,
        pattern=detect_pattern(grid),
        symmetry=_detect_symmetry(grid, symmetry),
        facts=facts,
        seed=seed,
        notes=notes,
    )


def start_facts(io: CellIO, grid: Grid, profile: str) -> tuple[render.Facts | None, str]:
    """Return what START found for *grid* under *profile* (kept on the sheet), and a note.

    None when the sheet keeps nothing for this puzzle and profile (the grid was typed or
    edited, the Rating changed, or the puzzle was not graded); the note then says why the
    puzzle is analysed, when START's facts were there but do not fit.  A solution that does
    not complete the grid (a hidden cell edited by hand) is not trusted either.
    """
    facts = render.Facts.read(io.read(layout.GENERATOR_FACTS))
    if facts is None:
        return None, ""
    if facts.puzzle != str(grid):
        return None, " The grid differs from START's puzzle, so it was analysed here."
    if facts.profile != profile:
        return None, (
            f" START graded it under {facts.profile}; Rating is {profile}, so it was graded "
            "again under that."
        )
    try:
        solution = Grid.parse(facts.solution, grid.geometry)
    except SudokuError:
        return None, ""
    fits = all(not given or given == digit for given, digit in zip(grid, solution, strict=True))
    if not fits or solution.given_count != grid.geometry.cell_count:
        return None, ""
    return facts, ""


@dataclass
class Collection:
    """The Collection's and the Removed sheet's rows, and the id high-water mark."""

    rows: list[list[Any]]
    removed: list[list[Any]]
    highest: int

    @classmethod
    def read(cls, io: CellIO) -> Collection:
        """Read both sheets' rows and the HighestId cell (not a whole number: 0)."""
        mark = io.read(layout.HIGHEST_ID)
        return cls(
            [list(row) for row in io.table_rows(layout.COLLECTION_HEADER)],
            [list(row) for row in io.table_rows(layout.REMOVED_HEADER)],
            int(mark) if is_whole(mark) else 0,
        )

    @staticmethod
    def value(row: Sequence[Any], column: str) -> Any:
        """Return the value of *column* in a Collection *row* (None past its end).

        >>> Collection.value([7, None, "9x9"], "geometry"), Collection.value([7], "puzzle")
        ('9x9', None)
        """
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
        ids += [int(row[0]) for row in self.rows + self.removed if row and is_whole(row[0])]
        ids.append(len(self.rows))
        return max(ids) + 1


def heights(rows: Sequence[Sequence[Any]]) -> list[float]:
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

    Rows under a Collection's header (a Collection or Removed sheet, or a copy of one) become
    JSON records instead, one a line, carrying what each row was stored with (geometry, level,
    score, profile, ranks), so that IMPORT keeps it rather than grade again.

    Raises:
        params.ParamError: naming *where* (the cell), when the text passes MAX_IMPORT_BYTES.
    """
    lines, size = [], 0
    columns: list[str] | None = None
    for row in block:
        texts = [params.cell_text(value) for value in row]
        if columns is None and [t.strip().lower() for t in texts[:4]] == _COLLECTION_HEAD:
            columns = [text.strip().lower() for text in texts]
            lines.append("")  # the header's line: the rows keep their line numbers
        elif columns is not None:
            fields = dict(zip(columns, texts, strict=False))
            kept = {key: fields.get(key, "").strip() for key in _STORED}
            lines.append(json.dumps(kept) if kept["puzzle"] else "")
        else:
            cells = [
                text for value, text in zip(row, texts, strict=True) if not params.is_blank(value)
            ]
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


# A Collection's first columns, and what IMPORT takes from each of its rows.
_COLLECTION_HEAD = list(layout.COLLECTION_COLUMNS[:4])
_STORED = ("puzzle", "geometry", "level", "score", "profile", "ranks")


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


def stored_facts(info: Any, grid: Grid, solution: Grid) -> render.Facts | None:
    """Return the grade a record was stored with (level, score and profile), or None.

    A Collection row, a batch's or daily set's record carries all three; a level alone (an
    ``.sdk`` file's ``#L`` line) is not a grade on a profile's scale, so it is graded.

    >>> from xlsudoku.engine.grid import Grid
    >>> g = Grid.parse("1" + "." * 15)
    >>> stored_facts({"level": "Easy", "score": "1.2", "profile": "se"}, g, g).score
    1.2
    >>> stored_facts({"level": "Easy"}, g, g) is None
    True
    """
    level, score, profile = (
        str(info.get(key, "")).strip() for key in ("level", "score", "profile")
    )
    try:
        number = float(score)
    except ValueError:
        return None
    if not level or not profile or number != number:  # NaN is no score
        return None
    ranks = str(info.get("ranks", "")).strip()
    return render.Facts(str(grid), str(solution), level, round(number, 1), profile, ranks)


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
        rating = rating_profile(io)
        clock = grading_clock(limit, began, began_cpu)
        book = Collection.read(io)
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
        kept = graded = 0
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
            facts = stored_facts(record.info, grid, found[0])
            if facts is not None:
                kept += 1
            else:
                try:
                    analysis = analyze_grid(
                        grid, rating, solution=found[0], ranks=True, poll=clock.poll
                    )
                except Stopped:
                    stopped_at = line
                    break
                facts = render.Facts.of(analysis)
                graded += 1
            known[(grid.geometry.name, str(grid))] = next_id
            rows.append(row_for(facts, grid, found[0], next_id, now, None, None, notes))
            next_id += 1
        if rows:
            changes.append_rows(layout.COLLECTION_HEADER, rows, heights(rows))
            changes.write(layout.HIGHEST_ID, next_id - 1)
        status = (
            f"Imported {plural(len(rows), 'puzzle')}"
            + (f" as ids {rows[0][0]}-{rows[-1][0]}" if len(rows) > 1 else "")
            + (f" as id {rows[0][0]}" if len(rows) == 1 else "")
            + f" from {where}."
        )
        if kept:
            status += (
                f" {plural(kept, 'puzzle')} kept the level and score stored with "
                f"{'it' if kept == 1 else 'them'}"
                + (f"; {graded} had none and {'was' if graded == 1 else 'were'} graded "
                   f"under {rating} (the Rating cell)." if graded else ".")
            )  # fmt: skip
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
    return run_action(io, "import_puzzles", layout.STATUS, names, body)


def delete_from_collection(io: CellIO, now: dt.datetime | None = None) -> Outcome:
    """DELETE: move the Collection rows whose ids are in Delete ids to the Removed sheet.

    The rows are appended to the Removed sheet (with the time and the reason) before the
    Collection is rewritten without them, so a row is never in neither place.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        wanted = params.read_ids(io.read(layout.DELETE_IDS))
        book = Collection.read(io)
        by_id = {int(row[0]): row for row in book.rows if row and is_whole(row[0])}
        found = [number for number in wanted if number in by_id]
        missing = [number for number in wanted if number not in by_id]
        if not found:
            raise params.ParamError(
                [f"No Collection row has id {', '.join(map(str, missing[:10]))}; nothing moved"]
            )
        when = render.saved_at(now or dt.datetime.now())
        moved = [by_id[number] + [when, "deleted"] for number in found]
        kept = [row for row in book.rows if not (row and row[0] in found)]
        changes.append_rows(layout.REMOVED_HEADER, moved, heights(moved))
        changes.replace_rows(layout.COLLECTION_HEADER, kept, heights(kept))
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
    return run_action(io, "delete_from_collection", layout.STATUS, names, body)


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
        rows = Collection.read(io).rows
        key = _sort_key(column)
        ordered = sorted(rows, key=key)
        if descending:  # blanks stay last
            filled = [row for row in ordered if key(row)[0] < 2]
            ordered = sorted(filled, key=key, reverse=True) + ordered[len(filled) :]
        assert sorted(map(repr, ordered)) == sorted(map(repr, rows))  # nothing lost
        changes.replace_rows(layout.COLLECTION_HEADER, ordered, heights(ordered))
        return f"Sorted the Collection's {len(rows)} rows by {choice}.", ordered

    names = [layout.STATUS, layout.SORT_BY, layout.COLLECTION_HEADER]
    return run_action(io, "sort_collection", layout.STATUS, names, body)


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
        book = Collection.read(io)
        held = {int(row[0]) for row in book.rows if row and is_whole(row[0])}
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
            int(row[0]): index for index, row in enumerate(book.removed) if row and is_whole(row[0])
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
            shape = str(Collection.value(row, "geometry") or "").strip() or layout.CLASSIC_NAME
            key = (shape, str(Collection.value(row, "puzzle") or "").strip())
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
        changes.append_rows(layout.COLLECTION_HEADER, restored, heights(restored))
        changes.replace_rows(layout.REMOVED_HEADER, kept, heights(kept))
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
    return run_action(io, "restore_to_collection", layout.STATUS, names, body)
