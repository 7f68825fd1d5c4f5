"""HoDoKu's rating imitated with our finders: its solve order, its levels, its summed score.

HoDoKu 2.2 solves with its own order of techniques, gives each step a level and a score, and
rates a puzzle by the highest level of a step, promoted to the next level while the summed
score exceeds the level's maximum.  :func:`hodoku_grade` rates a puzzle that way, for the
agreement figures of the benchmarks; it is not a rating profile of ``grading.grade``.
"""

from __future__ import annotations

import enum

from xlsudoku.engine.grading import check_unique
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.logic import SolvePath, solve_path
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.techniques import EXTENDED_TECHNIQUES, TechniqueSpec


class HodokuLevel(enum.IntEnum):
    """HoDoKu's difficulty levels (its names), for comparison with HoDoKu's ratings."""

    EASY = 1
    MEDIUM = 2
    HARD = 3
    UNFAIR = 4
    EXTREME = 5


_H = HodokuLevel
# HoDoKu 2.2's solve order, level and score per step for each of our techniques (from HoDoKu's
# default solver options; a naked pair or triple inside a box-line intersection is HoDoKu's
# locked pair or triple, which it scores 40 / 60).  Trial and error is HoDoKu's brute force.
HODOKU_STEPS: dict[Technique, tuple[int, HodokuLevel, int]] = {
    Technique.FULL_HOUSE: (100, _H.EASY, 4),
    Technique.NAKED_SINGLE: (200, _H.EASY, 4),
    Technique.HIDDEN_SINGLE: (300, _H.EASY, 14),
    Technique.POINTING: (1200, _H.MEDIUM, 50),
    Technique.CLAIMING: (1210, _H.MEDIUM, 50),
    Technique.NAKED_PAIR: (1300, _H.MEDIUM, 60),
    Technique.NAKED_TRIPLE: (1400, _H.MEDIUM, 80),
    Technique.HIDDEN_PAIR: (1500, _H.MEDIUM, 70),
    Technique.HIDDEN_TRIPLE: (1600, _H.MEDIUM, 100),
    Technique.NAKED_QUAD: (2000, _H.HARD, 120),
    Technique.HIDDEN_QUAD: (2100, _H.HARD, 150),
    Technique.X_WING: (2200, _H.HARD, 140),
    Technique.SWORDFISH: (2300, _H.HARD, 150),
    Technique.JELLYFISH: (2400, _H.HARD, 160),
    Technique.BUG_PLUS_1: (2900, _H.HARD, 100),
    Technique.SKYSCRAPER: (3000, _H.HARD, 130),
    Technique.TWO_STRING_KITE: (3100, _H.HARD, 150),
    Technique.EMPTY_RECTANGLE: (3170, _H.HARD, 120),
    Technique.W_WING: (3200, _H.HARD, 150),
    Technique.XY_WING: (3300, _H.HARD, 160),
    Technique.XYZ_WING: (3400, _H.HARD, 180),
    Technique.UNIQUE_RECTANGLE_1: (3500, _H.HARD, 100),
    Technique.UNIQUE_RECTANGLE_2: (3600, _H.HARD, 100),
    Technique.UNIQUE_RECTANGLE_3: (3700, _H.HARD, 100),
    Technique.UNIQUE_RECTANGLE_4: (3800, _H.HARD, 100),
    Technique.UNIQUE_RECTANGLE_5: (3900, _H.HARD, 100),
    Technique.UNIQUE_RECTANGLE_6: (4000, _H.HARD, 100),
    Technique.HIDDEN_RECTANGLE: (4010, _H.HARD, 100),
    Technique.AVOIDABLE_RECTANGLE_1: (4020, _H.HARD, 100),
    Technique.AVOIDABLE_RECTANGLE_2: (4030, _H.HARD, 100),
    Technique.FINNED_X_WING: (4100, _H.HARD, 130),
    Technique.FINNED_SWORDFISH: (4300, _H.UNFAIR, 200),
    Technique.FINNED_JELLYFISH: (4500, _H.UNFAIR, 250),
    Technique.SUE_DE_COQ: (5300, _H.UNFAIR, 250),
    Technique.SIMPLE_COLORING: (5330, _H.HARD, 150),
    Technique.MULTI_COLORING: (5360, _H.HARD, 200),
    Technique.X_CHAIN: (5400, _H.UNFAIR, 260),
    Technique.XY_CHAIN: (5500, _H.UNFAIR, 260),
    Technique.AIC: (5600, _H.UNFAIR, 280),
    Technique.GROUPED_AIC: (5650, _H.UNFAIR, 300),
    Technique.ALS_AIC: (5660, _H.UNFAIR, 300),
    Technique.ALS_XZ: (5700, _H.UNFAIR, 300),
    # SukakuExplainer's big wings are ALS-XZ to HoDoKu (it has no WXYZ-Wing in its solver)
    Technique.WXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.VWXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.UVWXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.TUVWXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.ALS_XY_WING: (5800, _H.UNFAIR, 320),
    Technique.ALS_CHAIN: (5900, _H.UNFAIR, 340),
    Technique.DEATH_BLOSSOM: (6000, _H.UNFAIR, 360),
    Technique.FRANKEN_FISH: (6100, _H.UNFAIR, 300),
    Technique.FINNED_FRANKEN_FISH: (6700, _H.UNFAIR, 390),
    Technique.MUTANT_FISH: (7300, _H.EXTREME, 450),
    Technique.FINNED_MUTANT_FISH: (7900, _H.EXTREME, 470),
    Technique.FORCING_CHAIN: (8500, _H.EXTREME, 500),
    Technique.TRIAL_AND_ERROR: (8900, _H.EXTREME, 10000),
}

# Steps HoDoKu knows but leaves out of its solver by default (its rating never uses them).
HODOKU_DISABLED: frozenset[Technique] = frozenset(
    {Technique.DEATH_BLOSSOM, Technique.MUTANT_FISH, Technique.FINNED_MUTANT_FISH}
)

# HoDoKu promotes a puzzle to the next level while its total score exceeds the level's maximum.
HODOKU_MAX_SCORE: dict[HodokuLevel, int] = {
    _H.EASY: 800,
    _H.MEDIUM: 1000,
    _H.HARD: 1600,
    _H.UNFAIR: 1800,
}


def hodoku_table(
    table: tuple[TechniqueSpec, ...] = EXTENDED_TECHNIQUES,
) -> tuple[TechniqueSpec, ...]:
    """Return *table* in HoDoKu's solve order (techniques HoDoKu's solver does not use dropped).

    >>> [spec.technique.value for spec in hodoku_table()[:3]]
    ['Full House', 'Naked Single', 'Hidden Single']
    """
    known = [
        spec
        for spec in table
        if spec.technique in HODOKU_STEPS and spec.technique not in HODOKU_DISABLED
    ]
    return tuple(sorted(known, key=lambda spec: HODOKU_STEPS[spec.technique][0]))


def hodoku_rating(path: SolvePath) -> tuple[HodokuLevel, int]:
    """Return HoDoKu's level and score for a solve *path* (best made with :func:`hodoku_table`).

    The level is the highest HoDoKu level of a step, promoted while the summed score exceeds
    that level's maximum, as HoDoKu does.

    >>> from xlsudoku.engine.steps import Level
    >>> hodoku_rating(solve_path(Grid.parse("12345678." + "." * 72), max_level=Level.EASY))
    (<HodokuLevel.EXTREME: 5>, 4)
    """
    level = _H.EASY
    score = 0
    for step in path.steps:
        _, lv, points = HODOKU_STEPS[step.technique]
        level = max(level, lv)
        score += points
    if not path.solved:
        return _H.EXTREME, score
    while level in HODOKU_MAX_SCORE and score > HODOKU_MAX_SCORE[level]:
        level = HodokuLevel(level + 1)
    return level, score


def hodoku_grade(
    grid: Grid, table: tuple[TechniqueSpec, ...] = EXTENDED_TECHNIQUES
) -> tuple[HodokuLevel, int]:
    """Rate *grid* the way HoDoKu does, with our finders in HoDoKu's order.

    Raises:
        ConflictError: a digit is given twice in a house.
        NoSolution: the givens admit no solution.
        NotUnique: the puzzle has several solutions.

    >>> hodoku_grade(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
    (<HodokuLevel.EASY: 1>, 196)
    """
    check_unique(grid)
    return hodoku_rating(solve_path(grid, hodoku_table(table)))
