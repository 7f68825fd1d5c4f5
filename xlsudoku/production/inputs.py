"""Puzzles to print, from any input: batch records, puzzle files, workbooks.

:func:`read_entries` tells the inputs apart:

- ``.jsonl`` / ``.ndjson`` / ``.json``: batch records, one JSON object per line (``puzzle``,
  and ``solution``, ``level``, ``geometry``, ``seed`` when present);
- a CSV whose first line is a header with a ``puzzle`` column: batch records (or a Collection
  saved as CSV);
- ``.xlsx`` / ``.xlsm``: the workbook's Collection and Generator puzzle
  (:mod:`.workbook_input`);
- anything else: a puzzle file in any format the engine reads (:mod:`xlsudoku.engine.formats`).

Each entry is labelled with where it came from (``line 4``, ``Collection!C5``), so a bad one
is reported by place and the others are still printed.  :func:`complete` fills in a missing
solution (the exact solver) and level (the puzzle's analysis).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from xlsudoku.engine.formats import (
    MAX_CSV_FIELD,
    MAX_TEXT_BYTES,
    csv_rows,
    decode_text,
    json_value,
    parse_puzzle,
    read_puzzles,
)
from xlsudoku.engine.grid import Grid, SudokuError
from xlsudoku.production.workbook_input import WorkbookPuzzle

_JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")


@dataclass(frozen=True, slots=True)
class Entry:
    """A puzzle to print.

    Attributes:
        puzzle: The puzzle.
        solution: Its solution, when known.
        level: Its level label (``Hard``), when known.
        ident: What identifies it to a reader: ``seed 1003``, ``id 7``, ``line 12``.
        day: The date of a daily set's puzzle (``2026-12-01``), or "".
        score: Its score, when the input records it.
        profile: The rating profile of its level and score, when the input records it.
        steps: The steps of its path in words (``Analysis.explain``), when asked for.
    """

    puzzle: Grid
    solution: Grid | None = None
    level: str | None = None
    ident: str = ""
    day: str = ""
    score: float | None = None
    profile: str | None = None
    steps: tuple[str, ...] = ()


Found = list[tuple[str, Entry | SudokuError]]


def read_entries(source: str, part: str = "all", as_csv: bool = False) -> Found:
    r"""Return ``(label, entry or error)`` for each puzzle of *source* (a path or ``-``).

    Raises:
        SudokuError: The file cannot be read at all (missing, a damaged workbook).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "b.jsonl")
    >>> _ = open(path, "w").write('{"puzzle": "' + "." * 16 + '", "seed": 4}\n{"puzzle": 5}\n')
    >>> [(label, getattr(e, "ident", str(e))) for label, e in read_entries(path)]
    [('line 1', 'seed 4'), ('line 2', 'no puzzle string')]
    """
    from xlsudoku.production.workbook_input import is_workbook, read_workbook

    if is_workbook(source):
        return [(p.label, _workbook_entry(p, p.puzzle)) for p in read_workbook(source, part)]
    text, name = _read_text(source), source + (".csv" if as_csv else "")
    if source == "-":
        name = "stdin.csv" if as_csv else ""
    if name.lower().endswith(_JSON_SUFFIXES):
        return _json_lines(text)
    first = text.split("\n", 1)[0][:MAX_CSV_FIELD]
    header = next(csv_rows(first.lower()), (1, []))[1]
    if name.lower().endswith(".csv") and isinstance(header, list) and "puzzle" in header:
        return _csv_records(text)
    return [
        (
            f"line {number}",
            Entry(found, ident=f"line {number}") if isinstance(found, Grid) else found,
        )
        for number, found in read_puzzles(text, name)
    ]


def _read_text(source: str) -> str:
    """Return the text of *source* (a path or ``-``), bounded and checked to be UTF-8.

    Raises:
        SudokuError: missing, a special file, too large, or bytes that are not UTF-8.
    """
    from xlsudoku.xlsm.errors import WorkbookError
    from xlsudoku.xlsm.files import read_bytes

    if source == "-":
        data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
        if len(data) > MAX_TEXT_BYTES:
            raise SudokuError(
                f"standard input holds more than {MAX_TEXT_BYTES / 2**20:,.0f} MB, the limit "
                "for a puzzle file"
            )
        return decode_text(data, "standard input")
    try:
        data = read_bytes(Path(source), MAX_TEXT_BYTES, "a puzzle file")
    except WorkbookError as error:
        raise SudokuError(str(error)) from None
    if data.startswith(b"PK\x03\x04"):
        raise SudokuError(f"{source}: not a text puzzle file or batch file but a zip package")
    return decode_text(data, source)


def _workbook_entry(found: WorkbookPuzzle, puzzle: Grid | SudokuError) -> Entry | SudokuError:
    if isinstance(puzzle, SudokuError):
        return puzzle
    # a row's score is shown with its level only when the row names their profile: a row
    # of an older workbook is graded again rather than shown on an unknown scale
    rated = {"score": found.score, "profile": found.profile} if found.profile else {}
    return _entry({"solution": found.solution, "level": found.level, **rated}, puzzle, found.ident)


def _entry(record: Mapping[str, object], puzzle: Grid, ident: str) -> Entry | SudokuError:
    solution = record.get("solution")
    try:
        solved = None if not solution else Grid.parse(str(solution), puzzle.geometry)
    except SudokuError as error:
        return SudokuError(f"solution: {error}")
    level, day = record.get("level"), record.get("date")
    try:
        score = _score(record.get("score"))
    except ValueError as error:
        return SudokuError(str(error))
    label = str(level) if level else None
    if label is not None and len(label) > MAX_LABEL:
        return SudokuError(
            f"level: {len(label):,} characters, at most {MAX_LABEL} (a level is a word or two)"
        )
    profile = record.get("profile")
    return Entry(
        puzzle,
        solved,
        label,
        ident,
        str(day) if day else "",
        score,
        str(profile).strip().lower() if profile and str(profile).strip() else None,
    )


# The longest level label read: a level is a word or two (Very hard, Diabolical).
MAX_LABEL = 40
# The largest score read: every rating profile's scores are far below it.
MAX_SCORE = 1e6


def _score(value: object) -> float | None:
    """Return the score a record holds (None when it holds none), checked.

    Raises:
        ValueError: text that is not a number, or a number that is not finite and in range;
            the message names the field.

    >>> _score("7.2"), _score(""), _score(None)
    (7.2, None, None)
    >>> _score("nan")
    Traceback (most recent call last):
    ...
    ValueError: score: 'nan' is not a number from 0 to 1,000,000
    """
    import math

    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    shown = repr(value if not isinstance(value, str) else value[:40])
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"score: {shown} is not a number")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise ValueError(f"score: {shown} is not a number") from None
    if not (math.isfinite(number) and 0 <= number <= MAX_SCORE):
        raise ValueError(f"score: {shown} is not a number from 0 to {MAX_SCORE:,.0f}")
    return number


def _record_entry(record: Mapping[str, object], number: int) -> Entry | SudokuError:
    from xlsudoku.production.spec import geometry_named

    text = record.get("puzzle")
    if not isinstance(text, str) or not text:
        return SudokuError("no puzzle string")
    try:
        name = record.get("geometry")
        request = record.get("request")
        if not name and isinstance(request, Mapping):  # what generate --format json writes
            name = request.get("geometry")
        puzzle = parse_puzzle(text, geometry_named(str(name)) if name else None)
    except (SudokuError, ValueError) as error:
        return error if isinstance(error, SudokuError) else SudokuError(str(error))
    seed, ident = record.get("seed"), record.get("id")
    label = f"id {ident}" if ident else f"seed {seed}" if seed not in (None, "") else ""
    return _entry(record, puzzle, label or f"line {number}")


def _json_lines(text: str) -> Found:
    found: Found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json_value(line.strip())[0]
        except SudokuError as error:
            found.append((f"line {number}", SudokuError(f"not a JSON record ({error})")))
            continue
        if not isinstance(record, dict):
            found.append((f"line {number}", SudokuError("not a JSON object")))
            continue
        found.append((f"line {number}", _record_entry(record, number)))
    return found


def _csv_records(text: str) -> Found:
    found: Found = []
    names: list[str] | None = None
    for number, values in csv_rows(text):
        if isinstance(values, SudokuError):
            found.append((f"line {number}", values))
            break
        if names is None:
            names = [name.strip().lower() for name in values]
            continue
        if not any(value.strip() for value in values):
            continue
        row = dict(zip(names, values, strict=False))
        found.append((f"line {number}", _record_entry(row, number)))
    return found


def complete(
    entry: Entry, grade_missing: bool = True, explain: bool = False, profile: str = "se"
) -> Entry:
    """Return *entry* with its solution checked or found, and its level when missing.

    A missing level (and score) is graded under the entry's recorded profile, else *profile*;
    a recorded one is kept, not graded again.  With *explain* the steps of the path are added
    in words (the one analysis gives the level too).

    Raises:
        SudokuError: The puzzle has no solution, several, or a solution that does not fit.

    >>> complete(Entry(Grid.parse("." * 16)))
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.SudokuError: more than one solution: not a puzzle to print
    >>> done = complete(Entry(Grid.parse("2....3.21.3....1")))
    >>> str(done.solution), done.level
    ('2143431212343421', 'Easy')
    """
    from xlsudoku.engine.analysis import analyze
    from xlsudoku.engine.solver import solutions

    puzzle = entry.puzzle
    found = solutions(puzzle, 2)
    if not found:
        raise SudokuError("no solution")
    if len(found) > 1:
        raise SudokuError("more than one solution: not a puzzle to print")
    if entry.solution is not None and entry.solution.cells != found[0].cells:
        raise SudokuError("the solution given does not solve the puzzle")
    level, score, rated = entry.level, entry.score, entry.profile
    steps: tuple[str, ...] = ()
    if (level is None and grade_missing) or explain:
        analysis = analyze(puzzle, entry.profile or profile, solution=found[0])
        graded = analysis.graded()
        if level is None and grade_missing:
            level, score, rated = graded.label, graded.score, analysis.profile
        steps = tuple(analysis.explain()) if explain else ()
    return dataclasses.replace(
        entry, solution=found[0], level=level, score=score, profile=rated, steps=steps
    )


# The largest id a range may name: ids beyond it are no Collection's, and a bound keeps
# "1-999999999" from building a huge set.
MAX_ID = 1_000_000


def parse_ids(text: str) -> frozenset[int]:
    """Return the ids of a list such as ``3,7-12`` (whole numbers from 1, ranges inclusive).

    Raises:
        ValueError: naming the part that is not an id or a range.

    >>> sorted(parse_ids("3, 7-9,3"))
    [3, 7, 8, 9]
    >>> parse_ids("3,9-7")
    Traceback (most recent call last):
    ...
    ValueError: '9-7' is not an id or a range of ids (such as 3,7-12): 9 is above 7
    """
    ids: set[int] = set()
    for part in text.split(","):
        item = part.strip()
        first, dash, last = item.partition("-")
        why = ""
        if not (first.strip().isdigit() and (not dash or last.strip().isdigit())):
            why = "use whole numbers from 1"
        else:
            low, high = int(first), int(last) if dash else int(first)
            if low < 1:
                why = "ids start at 1"
            elif low > high:
                why = f"{low} is above {high}"
            elif high > MAX_ID:
                why = f"ids go up to {MAX_ID:,}"
            else:
                ids.update(range(low, high + 1))
                continue
        raise ValueError(f"{item!r} is not an id or a range of ids (such as 3,7-12): {why}")
    return frozenset(ids)


def chosen(found: Found, ids: frozenset[int]) -> Found:
    """Return the entries of *found* whose id is in *ids*.

    A workbook's entries are chosen by their Collection id (``id 7``); any other input's by
    their 1-based place in the file (a batch file's record number, a puzzle file's puzzle).

    >>> found = [(f"line {n}", Entry(Grid.parse("." * 16), ident=f"seed {n}")) for n in (1, 2, 3)]
    >>> [label for label, _ in chosen(found, frozenset({1, 3}))]
    ['line 1', 'line 3']
    >>> found = [("Collection!C5", Entry(Grid.parse("." * 16), ident="id 12"))]
    >>> [label for label, _ in chosen(found, frozenset({12}))]
    ['Collection!C5']
    """
    by_id = any(isinstance(entry, Entry) and entry.ident.startswith("id ") for _, entry in found)
    kept: Found = []
    for number, (label, entry) in enumerate(found, start=1):
        if by_id:
            ident = entry.ident.removeprefix("id ") if isinstance(entry, Entry) else ""
            if ident.isdigit() and int(ident) in ids:
                kept.append((label, entry))
        elif number in ids:
            kept.append((label, entry))
    return kept
