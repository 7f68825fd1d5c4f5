"""One item of a batch made: generate, grade, and the record's fields in JSON lines or CSV.

:func:`make_chunk` is what a worker runs (a local process or a Dask worker): it takes a
:class:`Chunk` of consecutive items and returns one :class:`Made` per item, in order.  A record
holds only what the seed decides (no times, no dates), so the same batch gives the same bytes
on any executor.  The grade is the puzzle's one analysis (:func:`~xlsudoku.engine.analysis.analyze`
with the solution the generator proved unique): its level label, score and hardest technique.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xlsudoku.engine.formats import csv_rows, json_value
from xlsudoku.engine.generate import generate, result_analysis
from xlsudoku.engine.grid import ParseError
from xlsudoku.production.spec import Plain, request_fields, request_from_fields

Record = dict[str, Plain]

REQUEST_FIELDS = ("target", "pattern", "symmetry", "geometry", "difficulty", "needs", "trials")
RECORD_FIELDS: tuple[str, ...] = (
    "puzzle",  # first, so a batch CSV is also a puzzle file for the other commands
    "solution",
    "index",
    "seed",
    "opens",
    "level",
    "score",
    "profile",  # the rating profile of the level and score
    "hardest",
    *REQUEST_FIELDS,
    "time_limit",
    "minimal",
    "trials_used",
    "grids_tried",
    "score_range",  # a request made to a score: its range and rating profile
    "profile",
)
_INTS = frozenset({"index", "seed", "opens", "target", "trials", "trials_used", "grids_tried"})
_FLOATS = frozenset({"score", "time_limit"})


@dataclass(frozen=True, slots=True)
class Chunk:
    """Consecutive items ``start`` to ``stop - 1`` of a batch, as plain data for a worker.

    Attributes:
        variants: The batch's variants as :func:`~.spec.request_fields` dicts.
        seed: The batch's base seed.
        start: First item.
        stop: One past the last item.
    """

    variants: tuple[Mapping[str, Plain], ...]
    seed: int
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class Made:
    """An item made: its record, or why it gave none.

    Attributes:
        index: The item.
        record: The record, or None when the target was not reached.
        miss: Why there is no record ('' when there is one).
    """

    index: int
    record: Record | None
    miss: str = ""


class RunStopped(Exception):
    """The run's stop hook (Ctrl+C, its time limit) ended it; an item it cut short is not kept."""


def make_record(
    index: int, fields: Mapping[str, Plain], seed: int, stop: Callable[[], bool] | None = None
) -> Made:
    """Generate and grade item *index* of variant *fields* with *seed*.

    Raises:
        RunStopped: *stop* said stop before the item was made (it is made again on resume).

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> made = make_record(0, request_fields(GenerateRequest()), 7)
    >>> made.record["seed"], made.record["opens"], made.record["level"] in ("Easy", "Medium")
    (7, 26, True)
    >>> make_record(0, request_fields(GenerateRequest()), 7, stop=lambda: True)
    Traceback (most recent call last):
    ...
    xlsudoku.production.records.RunStopped: stopped before item 0 was made
    """
    if stop is not None and stop():
        raise RunStopped(f"stopped before item {index} was made")
    result = generate(request_from_fields(fields, seed), cancel=stop)
    if result.stop == "cancel":
        raise RunStopped(f"stopped while item {index} was made")
    if not result.reached:
        return Made(index, None, result.message)
    graded = result_analysis(result).graded()  # the generator's own analysis when it made one
    record: Record = {
        "puzzle": str(result.puzzle),
        "solution": str(result.solution),
        "index": index,
        "seed": seed,
        "opens": result.givens,
        "level": graded.label,
        "score": graded.score,
        "hardest": "" if graded.hardest is None else graded.hardest.value,
        **request_fields(result.request),
        "minimal": result.minimal,
        "trials_used": result.trials_used,
        "grids_tried": result.grids_tried,
    }
    # every record names the profile of its score, and its range when one was asked for
    request = result.request
    record["score_range"] = None if request.score is None else str(request.score)
    record["profile"] = request.profile
    return Made(index, record)


def make_chunk(chunk: Chunk, stop: Callable[[], bool] | None = None) -> list[Made]:
    """Make every item of *chunk*, in order (what a worker runs).

    Raises:
        RunStopped: *stop* said stop (this process's runs only: a worker is ended instead).

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> made = make_chunk(Chunk((request_fields(GenerateRequest()),), 7, 0, 2))
    >>> [m.record["seed"] for m in made]
    [7, 8]
    """
    count = len(chunk.variants)
    return [
        make_record(index, chunk.variants[index % count], chunk.seed + index, stop)
        for index in range(chunk.start, chunk.stop)
    ]


def to_json_line(record: Record) -> str:
    """Return *record* as one JSON line (no newline).

    >>> to_json_line({"puzzle": "1.", "index": 0})
    '{"puzzle": "1.", "index": 0}'
    """
    return json.dumps(record)


def from_json_line(line: str) -> Record:
    """Return the record of a JSON line; ValueError when it is not a JSON object.

    >>> from_json_line('{"puzzle": "1.", "index": 0}')["index"]
    0
    """
    try:
        value, end = json_value(line)
    except ParseError as error:
        raise ValueError(str(error)) from None
    if line[end:].strip():
        raise ValueError("more than one JSON value on the line")
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def csv_header() -> str:
    """Return the CSV header line (no newline).

    >>> csv_header().split(",")[:3]
    ['puzzle', 'solution', 'index']
    """
    return ",".join(RECORD_FIELDS)


def to_csv_line(record: Record) -> str:
    """Return *record* as one CSV line (no newline); None is an empty cell.

    >>> to_csv_line({"puzzle": "1.", "index": 0, "minimal": True}).split(",")[:3]
    ['1.', '', '0']
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="")
    writer.writerow([_csv_cell(record.get(name)) for name in RECORD_FIELDS])
    return out.getvalue()


def _csv_cell(value: Plain) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def from_csv_line(line: str, header: list[str]) -> Record:
    """Return the record of a CSV line under *header*, with the types JSON lines have.

    >>> header = csv_header().split(",")
    >>> line = to_csv_line({"puzzle": "1.", "index": 3, "pattern": "x.x", "score": 2.5})
    >>> r = from_csv_line(line, header)
    >>> r["index"], r["pattern"], r["score"], r["needs"]
    (3, 'x.x', 2.5, None)
    """
    _, cells = next(csv_rows(line), (1, []))
    if isinstance(cells, ParseError):
        raise ValueError(str(cells))
    if len(cells) != len(header):
        raise ValueError(f"{len(cells)} fields, the header has {len(header)}")
    return {name: _typed(name, cell) for name, cell in zip(header, cells, strict=True)}


def _typed(name: str, cell: str) -> Plain:
    if cell == "":
        return None
    if name in _INTS:
        return int(cell)
    if name in _FLOATS:
        return float(cell)
    if name == "minimal":
        return cell == "true"
    if name == "pattern" and cell.isascii() and cell.isdigit():
        return int(cell)
    return cell
