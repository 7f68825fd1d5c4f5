"""SukakuExplainer: SE's table plus its strong-link chains of one digit and its big wings.

SukakuExplainer rates chains of k strong links of one digit (Skyscraper, 2-String Kite,
"k strong links") from a base of 4.0 / 5.4 / 5.8 for k = 2..4, +0.1 / +0.2 by the houses
used, +0.3 with grouped links (``techniques.strong_links``), and its WXYZ- to
TUVWXYZ-Wings from 5.5, 6.2, 6.6 and 7.5 (``techniques.als.wing_rating``); of several
instances it applies the easiest, the one with most eliminations among equals.
``INSERTIONS`` says where each of those rows joins SE's solve order: before the first row of a
technique of SE's table.
"""

from __future__ import annotations

from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.ratings.se import SE_TABLE
from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques import EXTENDED_TECHNIQUES, Finder, TechniqueSpec
from xlsudoku.engine.techniques.strong_links import finder as strong_links_finder

_L = Level
_T = Technique
_ROW = {spec.technique: spec for spec in EXTENDED_TECHNIQUES}


def easiest_first(find: Finder) -> Finder:
    """Return a finder yielding the steps of *find* by rating, most eliminations first on ties.

    >>> from xlsudoku.engine.techniques.uniqueness import _board_from_masks
    >>> from xlsudoku.engine.techniques.als import find_wxyz_wing
    >>> b = _board_from_masks({0: (1, 2), 36: (1, 3), 40: (2, 4), 44: (3, 4)})
    >>> [step.rating for step in easiest_first(find_wxyz_wing)(b)]
    [5.5]
    """

    def found(board: Board) -> Iterator[Step]:
        yield from sorted(find(board), key=lambda step: (step.rating, -len(step.eliminations)))

    found.__name__ = f"easiest_{getattr(find, '__name__', 'steps')}"
    return found


def _wing(technique: Technique) -> TechniqueSpec:
    """Return the registry's row of a big wing, its instances tried easiest first."""
    row = _ROW[technique]
    return TechniqueSpec(row.technique, row.level, row.score, easiest_first(row.find))


# (SE technique, rows tried just before its first row), in SE's order, as SukakuExplainer's
# default solver has them (it leaves chains of 5 and 6 strong links out).
INSERTIONS: tuple[tuple[Technique, tuple[TechniqueSpec, ...]], ...] = (
    (_T.XY_WING, (TechniqueSpec(_T.SKYSCRAPER, _L.VERY_HARD, 4.0, strong_links_finder(2)),)),
    (
        _T.BUG_PLUS_1,
        (
            TechniqueSpec(_T.X_CHAIN, _L.VERY_HARD, 5.4, strong_links_finder(3)),
            _wing(_T.WXYZ_WING),
        ),
    ),
    (
        _T.ALIGNED_PAIR_EXCLUSION,
        (
            TechniqueSpec(_T.X_CHAIN, _L.VERY_HARD, 5.8, strong_links_finder(4)),
            _wing(_T.VWXYZ_WING),
        ),
    ),
    (_T.BIDIRECTIONAL_CYCLE, (_wing(_T.UVWXYZ_WING),)),
    (_T.ALIGNED_TRIPLET_EXCLUSION, (_wing(_T.TUVWXYZ_WING),)),
)


def insert_rows(
    table: tuple[TechniqueSpec, ...],
    insertions: tuple[tuple[Technique, tuple[TechniqueSpec, ...]], ...],
) -> tuple[TechniqueSpec, ...]:
    """Return *table* with each group of rows inserted just before its technique's first row.

    >>> rows = insert_rows(SE_TABLE, INSERTIONS[:1])
    >>> [spec.technique.value for spec in rows[13:16]]
    ['Hidden Triple', 'Skyscraper', 'XY-Wing']
    """
    for before, rows in insertions:
        at = next(i for i, spec in enumerate(table) if spec.technique is before)
        table = table[:at] + rows + table[at:]
    return table


SUKAKU_TABLE: tuple[TechniqueSpec, ...] = insert_rows(SE_TABLE, INSERTIONS)
"""SukakuExplainer's techniques in its solve order."""
