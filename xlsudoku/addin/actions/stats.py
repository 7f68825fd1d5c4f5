"""The Stats sheet's STATS: the Collection's puzzles per level, score and opens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xlsudoku.addin import layout
from xlsudoku.addin.actions.collection import Collection
from xlsudoku.addin.actions.shared import (
    Changes,
    Outcome,
    is_number,
    is_whole,
    run_action,
)
from xlsudoku.addin.cellio import CellIO
from xlsudoku.engine.generate.strategy import plural

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
    levels = [str(Collection.value(row, "level") or "").strip().lower() for row in rows]
    scores = [float(v) for row in rows if is_number(v := Collection.value(row, "score"))]
    givens = [int(v) for row in rows if is_whole(v := Collection.value(row, "opens"))]
    return {
        layout.STATS_LEVELS: [
            [label, levels.count(label.lower())] for label in layout.LEVEL_LABELS
        ],
        layout.STATS_SCORES: _counted(scores, layout.STATS_BINS, whole=False),
        layout.STATS_OPENS: _counted(givens, layout.STATS_BINS, whole=True),
    }


STATS_NAMES = (layout.STATS_STATUS, layout.STATS_LEVELS, layout.STATS_SCORES, layout.STATS_OPENS)


def stats(io: CellIO) -> Outcome:
    """STATS: count the Collection's puzzles per level, score and opens for the Stats charts.

    Only the three tables' cells are written; the charts reference them, so Excel (and
    LibreOffice) redraw them from the new counts.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        rows = [row for row in Collection.read(io).rows if row and is_whole(row[0])]
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
    return run_action(io, "stats", layout.STATS_STATUS, names, body)
