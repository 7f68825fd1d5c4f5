"""Daily sets: so many puzzles a day for a run of days, a mix of levels, none repeated.

A daily set is a batch (:mod:`.batch`: the same items, seeds, executors, store and resume)
whose records get a date as they are written: record *j* of the file (0-based) belongs to day
``first + j // per_day`` and is puzzle ``j % per_day + 1`` of it (:class:`DatedSink`).  The
batch's variants are the mix of levels in turn, so a seed gives the same set anywhere, and the
batch's deduplication keeps every puzzle of the whole run, and of a file it extends
(``--resume`` with more ``--days``), apart: puzzles are compared by :func:`repeat_key`, their
canonical form up to the Sudoku symmetries, so a rotated, mirrored or relabelled copy of a
puzzle already in the set is a repeat too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from xlsudoku.engine.canonical import canonical_form
from xlsudoku.engine.generate import GenerateRequest
from xlsudoku.engine.grid import Geometry, Grid
from xlsudoku.engine.steps import Level
from xlsudoku.production.batch import Sink
from xlsudoku.production.records import Record
from xlsudoku.production.spec import BatchSpec, make_variants


@dataclass(frozen=True, slots=True)
class DailySpec:
    """The days of a set: the first, how many, and puzzles per day.

    >>> spec = DailySpec(dt.date(2026, 12, 1), 7, 3)
    >>> spec.count, spec.date_of(0), spec.date_of(3), spec.date_of(20)
    (21, '2026-12-01', '2026-12-02', '2026-12-07')
    """

    first: dt.date
    days: int
    per_day: int

    def check(self) -> None:
        """Raise ValueError when the set's last day is past the calendar's last date.

        >>> DailySpec(dt.date(9999, 12, 31), 2, 1).check()
        Traceback (most recent call last):
        ...
        ValueError: --days 2 from 9999-12-31 runs past 9999-12-31, the last date there is
        """
        last = dt.date.max
        if self.days - 1 > (last - self.first).days:
            raise ValueError(
                f"--days {self.days:,} from {self.first.isoformat()} runs past "
                f"{last.isoformat()}, the last date there is"
            )

    @property
    def count(self) -> int:
        """Return the puzzles of the whole set."""
        return self.days * self.per_day

    def date_of(self, position: int) -> str:
        """Return the ISO date of the set's puzzle at 0-based *position*."""
        return (self.first + dt.timedelta(days=position // self.per_day)).isoformat()


def repeat_key(puzzle: str, geometry: Geometry) -> str:
    """Return what a daily set compares *puzzle* by: its canonical form on *geometry*.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> repeat_key("12" + "." * 79, CLASSIC) == repeat_key("." * 79 + "98", CLASSIC)
    True
    """
    return canonical_form(Grid.parse(puzzle, geometry))


def batch_spec(
    daily: DailySpec, base: GenerateRequest, levels: Sequence[Level], seed: int
) -> BatchSpec:
    """Return the batch behind a daily set: the levels in turn, ``count`` distinct puzzles.

    >>> spec = batch_spec(DailySpec(dt.date(2026, 12, 1), 2, 3), GenerateRequest(), [], 5)
    >>> spec.count, spec.seed, len(spec.variants)
    (6, 5, 1)
    """
    variants = make_variants(base, [(base.target_givens, False)], tuple(levels))
    return BatchSpec(variants, seed, daily.count, 10 * daily.count + 100)


class DatedSink:
    """A sink that dates each record by its place in the set, then hands it on.

    >>> class Listed:
    ...     def __init__(self): self.records = []
    ...     def append(self, records, next_index): self.records += records
    >>> out = Listed()
    >>> sink = DatedSink(out, DailySpec(dt.date(2026, 12, 1), 2, 2), have=1)
    >>> sink.append([{"puzzle": "1."}, {"puzzle": "2."}], 5)
    >>> [(r["date"], r["number"]) for r in out.records]
    [('2026-12-01', 2), ('2026-12-02', 1)]
    """

    def __init__(self, inner: Sink, daily: DailySpec, have: int = 0) -> None:
        self.inner, self.daily, self.have = inner, daily, have

    def append(self, records: list[Record], next_index: int) -> None:
        """Date *records* (in order) and pass them to the inner sink."""
        dated = []
        for record in records:
            number = self.have % self.daily.per_day + 1
            dated.append({"date": self.daily.date_of(self.have), "number": number, **record})
            self.have += 1
        self.inner.append(dated, next_index)


def check_dates(records: Sequence[Record], daily: DailySpec, path: str) -> None:
    """Raise ValueError when the records of a file being extended do not start the set.

    >>> check_dates([{"date": "2026-12-02"}], DailySpec(dt.date(2026, 12, 1), 2, 2), "d.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: d.jsonl: record 1 is dated 2026-12-02, this set puts it on 2026-12-01
    """
    for position, record in enumerate(records):
        if record.get("date") != daily.date_of(position):
            raise ValueError(
                f"{path}: record {position + 1} is dated {record.get('date')}, this set puts it "
                f"on {daily.date_of(position)}"
            )
