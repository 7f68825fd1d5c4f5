"""Grade a puzzle from the techniques a person needs: a level and a Sudoku Explainer score.

The solver takes the easiest step again and again (``xlsudoku.engine.logic``); the grade is

- *level*: with a rating profile, the band of the score (``ratings.level_of``); with an
  explicit technique table, the highest ``Level`` of a technique used (trial and error is
  ``Level.BEYOND``);
- *score*: the Sudoku Explainer (SE) rating, i.e. the score of the hardest step, where a step
  scores its technique's table score, refined by SE's rules
  (:func:`xlsudoku.engine.ratings.se.step_score`: a hidden single in a row or column rates 1.5
  instead of 1.2 in a box; chains add SE's length increment);
- *counts*: how many times each technique was used.

The rating profiles (their tables and scoring rules) live in ``xlsudoku.engine.ratings``; the
mapping to other graders' levels (HoDoKu, QQWing, the seeds' words) is docs/grading.md#grade.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Grid, InvalidPuzzle
from xlsudoku.engine.logic import NoSolution, Poll, SolvePath, Taken, solve_path, walk_path
from xlsudoku.engine.ratings import DEFAULT_PROFILE, level_of, profile_table
from xlsudoku.engine.ratings.se import TRIAL_SCORE, step_score
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques import TECHNIQUES, TechniqueSpec


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
    poll: Poll | None = None,
) -> Grade:
    """Grade *grid*, known to have exactly one solution (a proof the caller already has).

    The score, counts and hardest technique follow the rating *profile*'s path
    (:func:`rating_path`; ``se``: classic Sudoku Explainer 1.2.1, the default; ``sukaku``:
    SukakuExplainer) and the level is the band of the score under the profile
    (:func:`xlsudoku.engine.ratings.level_of`, a monotone function of the score); with an
    explicit *table* both come from that table's path.  *poll* bounds the grading
    (:data:`xlsudoku.engine.logic.Poll`: it raises to abandon it).

    >>> grade_unique(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"
    ... )).hardest.value
    'Direct Hidden Pair'
    """
    if table is not None:
        return grade_path(solve_path(grid, table, poll=poll), table)
    return profile_grade(rating_path(grid, profile_table(profile), poll), profile)


def profile_grade(path: SolvePath, profile: str = DEFAULT_PROFILE) -> Grade:
    """Return the grade of a rating *path* of *profile*: its level is the band of its score.

    >>> p = rating_path(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"),
    ...     profile_table("se"))
    >>> g = profile_grade(p)
    >>> g.score, g.hardest.value, g.level.label
    (2.0, 'Direct Hidden Pair', 'Easy')
    """
    graded = grade_path(path, profile_table(profile))
    level = level_of(graded.score, profile) if graded.solved else Level.BEYOND
    return dataclasses.replace(graded, level=level)


def rating_path(
    grid: Grid, table: tuple[TechniqueSpec, ...], poll: Poll | None = None
) -> SolvePath:
    """Return the path that rates *grid* with the profile *table*, bounded by its rating so far.

    Once the path has needed a step of score R, a chain finder may stop at the first chain
    rated at most R, and the multiple and dynamic chains are asked first for one
    (:func:`xlsudoku.engine.logic.next_found`): any step rated at most R leaves the rating as
    it is.  The steps differ from the easiest-first path's, the score seldom does (the path
    may avoid a harder step the easiest-first one meets later; see the agreement figures in
    docs/grading.md#how-we-know-it-is-right).

    >>> p = rating_path(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."),
    ...     profile_table("se"))
    >>> p.solved, grade_path(p).score
    (True, 1.2)
    """
    return solve_path(grid, table, rate=rater(grid.geometry.size), poll=poll)


def rater(size: int) -> Callable[[Step, TechniqueSpec | None], float]:
    """Return the score of a step found by a row (None: trial and error) on a grid of *size*.

    >>> from xlsudoku.engine.steps import Placement
    >>> step = Step(Technique.HIDDEN_SINGLE, (Placement(0, 1),), (), (0,), (0,), (1,), "")
    >>> rater(9)(step, None), rater(9)(step, profile_table("se")[1])
    (11.0, 1.5)
    """

    def rate(step: Step, spec: TechniqueSpec | None) -> float:
        return TRIAL_SCORE if spec is None else step_score(step, spec, size)

    return rate


def walk_rating_path(grid: Grid | Board, profile: str = DEFAULT_PROFILE) -> Iterator[Taken]:
    """Yield the steps of *profile*'s rating path from *grid*, one at a time (see ``walk_path``).

    >>> g = Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2")
    >>> before, spec, step = next(walk_rating_path(g))
    >>> step.technique.value
    'Direct Hidden Pair'
    """
    board = grid if isinstance(grid, Board) else Board.from_grid(grid)
    for taken in walk_path(board, profile_table(profile), rate=rater(board.geometry.size)):
        assert taken is not None  # trial and error is allowed: the walk never stalls
        yield taken
