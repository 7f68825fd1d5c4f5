"""Grade a puzzle from the techniques a person needs: a level and a Sudoku Explainer score.

The solver takes the easiest step again and again (``xlsudoku.engine.logic``); the grade is

- *level*: the highest ``Level`` of a technique used (trial and error is ``Level.BEYOND``);
- *score*: the Sudoku Explainer (SE) rating, i.e. the score of the hardest step, where a step
  scores its technique's table score, refined by :func:`step_score` (a hidden single in a row or
  column rates 1.5 instead of 1.2 in a box; chains add SE's length increment);
- *counts*: how many times each technique was used.

The mapping to other graders' levels (HoDoKu, QQWing, the seeds' words) is documented in the
README; :func:`hodoku_grade` rates a puzzle the way HoDoKu does (its solve order, its levels and
its score promotion) from the same finders, for the agreement figures.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from dataclasses import dataclass

from xlsudoku.engine.grid import Grid, InvalidPuzzle
from xlsudoku.engine.logic import NoSolution, SolvePath, solve_path
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques import (
    DEFAULT_PROFILE,
    EXTENDED_TECHNIQUES,
    TECHNIQUES,
    TechniqueSpec,
    profile_table,
)


class NotUnique(InvalidPuzzle):
    """The puzzle has more than one solution, so it cannot be graded."""


@dataclass(frozen=True, slots=True)
class Grade:
    """The difficulty of a puzzle.

    Attributes:
        level: the hardest level of technique needed.
        score: Sudoku Explainer scale rating: the score of the hardest step.
        counts: ``(technique, times used)`` in solve order (table order).
        hardest: the technique of the hardest step (None for a full grid).
        solved: True when the path filled the grid.
    """

    level: Level
    score: float
    counts: tuple[tuple[Technique, int], ...]
    hardest: Technique | None
    solved: bool

    @property
    def label(self) -> str:
        """Return the level's name shown to people.

        >>> Grade(Level.HARD, 3.4, (), Technique.HIDDEN_PAIR, True).label
        'Hard'
        """
        return self.level.label


# Sudoku Explainer's length increment for chains: +0.1 each time the length passes a ceiling
# that grows by x3/2 and x4/3 in turn (4, 6, 8, 12, 16, 24, ...).
def chain_length_increment(length: int) -> float:
    """Return SE's difficulty added for a chain of *length* nodes.

    >>> [chain_length_increment(n) for n in (4, 5, 7, 9, 13, 17)]
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    """
    added = 0
    ceiling = 4
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added / 10


_CHAINS = frozenset({Technique.X_CHAIN, Technique.XY_CHAIN, Technique.AIC, Technique.FORCING_CHAIN})


def step_score(step: Step, spec: TechniqueSpec, size: int = 9) -> float:
    """Return the SE-scale score of *step* found by the technique of *spec*.

    A step that carries its own rating (SE's chains) scores that.  A hidden single in a row or
    column rates 1.5 (1.2 in a box).  For our chains the length (the
    number of candidates on the chain: two per cell of an XY-chain, one per cell otherwise)
    adds SE's length increment to the technique's base score.

    >>> from xlsudoku.engine.steps import Placement
    >>> spec = next(s for s in TECHNIQUES if s.technique is Technique.HIDDEN_SINGLE)
    >>> step = Step(Technique.HIDDEN_SINGLE, (Placement(0, 1),), (), (0,), (0,), (1,), "")
    >>> step_score(step, spec)
    1.5
    """
    if step.rating:
        return step.rating
    technique = step.technique
    if technique is Technique.HIDDEN_SINGLE:
        return spec.score if step.houses and step.houses[0] >= 2 * size else 1.5
    if technique in _CHAINS:
        nodes = len(step.cells) * (2 if technique is Technique.XY_CHAIN else 1)
        return round(spec.score + chain_length_increment(nodes), 1)
    return spec.score


# Trial and error has no finder; SE rates puzzles that need it above its whole scale.
TRIAL_SCORE = 11.0


def grade_path(path: SolvePath, table: tuple[TechniqueSpec, ...] = TECHNIQUES) -> Grade:
    """Return the grade of a solve *path* found with *table*.

    >>> g = grade_path(solve_path(Grid.parse("12345678." + "." * 72), max_level=Level.EASY))
    >>> g.level.label, g.score, g.counts[0], g.solved
    ('Beyond technique', 1.0, (<Technique.FULL_HOUSE: 'Full House'>, 1), False)
    """
    by_technique = {spec.technique: spec for spec in table}
    counts: Counter[Technique] = Counter()
    level = Level.EASY
    score = 0.0
    hardest: Technique | None = None
    size = path.board.geometry.size
    for i, step in enumerate(path.steps):
        counts[step.technique] += 1
        found_by = path.specs[i] if i < len(path.specs) else by_technique.get(step.technique)
        if found_by is None:
            s, lv = TRIAL_SCORE, Level.BEYOND
        else:
            s, lv = step_score(step, found_by, size), found_by.level
        level = max(level, lv)
        if s > score:
            score, hardest = s, step.technique
    if not path.solved:
        level = Level.BEYOND
    order = {spec.technique: i for i, spec in enumerate(table)}
    ordered = sorted(counts.items(), key=lambda item: order.get(item[0], len(order)))
    return Grade(level, score, tuple(ordered), hardest, path.solved)


def check_unique(grid: Grid) -> None:
    """Raise a typed error unless *grid* is valid with exactly one solution.

    >>> check_unique(Grid.empty())
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grading.NotUnique: the puzzle has more than one solution (0 givens)
    """
    grid.validate()
    found = count_solutions(grid, 2)
    if found == 0:
        raise NoSolution("the puzzle has no solution")
    if found > 1:
        raise NotUnique(f"the puzzle has more than one solution ({grid.given_count} givens)")


def grade(
    grid: Grid,
    table: tuple[TechniqueSpec, ...] | None = None,
    profile: str = DEFAULT_PROFILE,
) -> Grade:
    """Grade *grid*: level, SE-scale score, technique counts (see :func:`grade_unique`).

    Raises:
        ConflictError: a digit is given twice in a house (the message names the cells).
        NoSolution: the givens admit no solution.
        NotUnique: the puzzle has several solutions.
        ValueError: *profile* is not a known profile.

    >>> g = grade(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
    >>> g.label, g.score, g.hardest.value
    ('Easy', 1.2, 'Hidden Single')
    """
    check_unique(grid)
    return grade_unique(grid, table, profile)


def grade_unique(
    grid: Grid,
    table: tuple[TechniqueSpec, ...] | None = None,
    profile: str = DEFAULT_PROFILE,
) -> Grade:
    """Grade *grid*, known to have exactly one solution (a proof the caller already has).

    The score follows the rating *profile* (``se``: classic Sudoku Explainer 1.2.1, the
    default; ``sukaku``: SukakuExplainer) and the level stays the human-style solver's
    (:func:`human_level`); with an explicit *table* both come from that table's path.  A
    profile's score, counts and hardest technique come from its :func:`rating_path`, which may
    take other steps than the easiest-first path that hints show.

    >>> grade_unique(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"
    ... )).hardest.value
    'Direct Hidden Pair'
    """
    chosen = profile_table(profile) if table is None else table
    if table is not None:
        return grade_path(solve_path(grid, chosen), chosen)
    graded = grade_path(rating_path(grid, chosen), chosen)
    return dataclasses.replace(graded, level=human_level(grid, graded))


def rating_path(grid: Grid, table: tuple[TechniqueSpec, ...]) -> SolvePath:
    """Return the path that rates *grid* with the profile *table*, bounded by its rating so far.

    Once the path has needed a step of score R, a chain finder may stop at the first chain
    rated at most R, and the multiple and dynamic chains are asked first for one
    (:func:`xlsudoku.engine.logic.next_found`): any step rated at most R leaves the rating as
    it is.  The steps differ from the easiest-first path's, the score seldom does (the path
    may avoid a harder step the easiest-first one meets later; see the README's agreement
    figures).

    >>> p = rating_path(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."),
    ...     profile_table("se"))
    >>> p.solved, grade_path(p).score
    (True, 1.2)
    """
    size = grid.geometry.size

    def rate(step: Step, spec: TechniqueSpec | None) -> float:
        return TRIAL_SCORE if spec is None else step_score(step, spec, size)

    return solve_path(grid, table, rate=rate)


def human_level(grid: Grid, rated: Grade) -> Level:
    """Return the human-style solver's level of *grid*, rated *rated* by a profile.

    The level is the one the human-style table (``TECHNIQUES``) reaches: its path up to Very
    hard techniques (cheap), else Diabolical when the profile's chains solved the puzzle, else
    Beyond technique.  A profile's own order can reach for a harder pattern than a person needs
    (SE tries a direct hidden pair before a naked single, and has no Skyscraper).

    >>> g = grade(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"))
    >>> g.score, g.hardest.value, g.level.label
    (2.0, 'Direct Hidden Pair', 'Easy')
    """
    if not rated.solved:
        return Level.BEYOND
    path = solve_path(grid, TECHNIQUES, max_level=Level.VERY_HARD)
    if path.solved:
        return grade_path(path).level
    return Level.DIABOLICAL


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
    Technique.FINNED_X_WING: (4100, _H.HARD, 130),
    Technique.FINNED_SWORDFISH: (4300, _H.UNFAIR, 200),
    Technique.FINNED_JELLYFISH: (4500, _H.UNFAIR, 250),
    Technique.SIMPLE_COLORING: (5330, _H.HARD, 150),
    Technique.X_CHAIN: (5400, _H.UNFAIR, 260),
    Technique.XY_CHAIN: (5500, _H.UNFAIR, 260),
    Technique.AIC: (5600, _H.UNFAIR, 280),
    Technique.FORCING_CHAIN: (8500, _H.EXTREME, 500),
    Technique.TRIAL_AND_ERROR: (8900, _H.EXTREME, 10000),
    # -- technique families of issue 12 item 3 --
    Technique.UNIQUE_RECTANGLE_5: (3900, _H.HARD, 100),
    Technique.UNIQUE_RECTANGLE_6: (4000, _H.HARD, 100),
    Technique.HIDDEN_RECTANGLE: (4010, _H.HARD, 100),
    Technique.AVOIDABLE_RECTANGLE_1: (4020, _H.HARD, 100),
    Technique.AVOIDABLE_RECTANGLE_2: (4030, _H.HARD, 100),
    Technique.MULTI_COLORING: (5360, _H.HARD, 200),
    Technique.SUE_DE_COQ: (5300, _H.UNFAIR, 250),
    Technique.GROUPED_AIC: (5650, _H.UNFAIR, 300),
    Technique.ALS_AIC: (5660, _H.UNFAIR, 300),
    Technique.ALS_XZ: (5700, _H.UNFAIR, 300),
    Technique.ALS_XY_WING: (5800, _H.UNFAIR, 320),
    Technique.ALS_CHAIN: (5900, _H.UNFAIR, 340),
    Technique.DEATH_BLOSSOM: (6000, _H.UNFAIR, 360),
    Technique.FRANKEN_FISH: (6100, _H.UNFAIR, 300),
    Technique.FINNED_FRANKEN_FISH: (6700, _H.UNFAIR, 390),
    Technique.MUTANT_FISH: (7300, _H.EXTREME, 450),
    Technique.FINNED_MUTANT_FISH: (7900, _H.EXTREME, 470),
    # SukakuExplainer's big wings are ALS-XZ to HoDoKu (it has no WXYZ-Wing in its solver)
    Technique.WXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.VWXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.UVWXYZ_WING: (5700, _H.UNFAIR, 300),
    Technique.TUVWXYZ_WING: (5700, _H.UNFAIR, 300),
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

    >>> from xlsudoku.engine.grid import Grid
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

    >>> hodoku_grade(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
    (<HodokuLevel.EASY: 1>, 196)
    """
    check_unique(grid)
    return hodoku_rating(solve_path(grid, hodoku_table(table)))
