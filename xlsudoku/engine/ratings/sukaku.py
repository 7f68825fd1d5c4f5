"""SukakuExplainer: SE's table plus its strong-link chains of one digit and its big wings.

SukakuExplainer rates chains of k strong links of one digit (Skyscraper, 2-String Kite,
"k strong links") from a base of 4.0 / 5.4 / 5.8 / 6.2 / 6.6 for k = 2..6, +0.1 / +0.2 by the
houses used, +0.3 with grouped links (``techniques.strong_links``), and its WXYZ- to
TUVWXYZ-Wings from 5.5, 6.2, 6.6 and 7.5.  ``INSERTIONS`` says where each of those rows joins
SE's solve order: before the first row of a technique of SE's table.
"""

from __future__ import annotations

from xlsudoku.engine.ratings.se import SE_TABLE
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import EXTENDED_TECHNIQUES, TechniqueSpec
from xlsudoku.engine.techniques.strong_links import finder as strong_links_finder

_L = Level
_T = Technique
_ROW = {spec.technique: spec for spec in EXTENDED_TECHNIQUES}

# (SE technique, rows tried just before its first row), in SE's order.
INSERTIONS: tuple[tuple[Technique, tuple[TechniqueSpec, ...]], ...] = (
    (_T.XY_WING, (TechniqueSpec(_T.SKYSCRAPER, _L.VERY_HARD, 4.0, strong_links_finder(2)),)),
    (
        _T.BUG_PLUS_1,
        (
            TechniqueSpec(_T.X_CHAIN, _L.VERY_HARD, 5.4, strong_links_finder(3)),
            _ROW[_T.WXYZ_WING],
        ),
    ),
    (
        _T.ALIGNED_PAIR_EXCLUSION,
        (TechniqueSpec(_T.X_CHAIN, _L.VERY_HARD, 5.8, strong_links_finder(4)),),
    ),
    (
        _T.BIDIRECTIONAL_CYCLE,
        (
            TechniqueSpec(_T.X_CHAIN, _L.DIABOLICAL, 6.2, strong_links_finder(5)),
            _ROW[_T.VWXYZ_WING],
            TechniqueSpec(_T.X_CHAIN, _L.DIABOLICAL, 6.6, strong_links_finder(6)),
        ),
    ),
    (_T.NISHIO_FORCING_CHAIN, (_ROW[_T.UVWXYZ_WING], _ROW[_T.TUVWXYZ_WING])),
)


def insert_rows(
    table: tuple[TechniqueSpec, ...],
    insertions: tuple[tuple[Technique, tuple[TechniqueSpec, ...]], ...],
) -> tuple[TechniqueSpec, ...]:
    """Return *table* with each group of rows inserted just before its technique's first row.

    >>> rows = insert_rows(SE_TABLE, INSERTIONS[:1])
    >>> [spec.technique.value for spec in rows[14:17]]
    ['Hidden Triple', 'Skyscraper', 'XY-Wing']
    """
    for before, rows in insertions:
        at = next(i for i, spec in enumerate(table) if spec.technique is before)
        table = table[:at] + rows + table[at:]
    return table


SUKAKU_TABLE: tuple[TechniqueSpec, ...] = insert_rows(SE_TABLE, INSERTIONS)
"""SukakuExplainer's techniques in its solve order."""
