"""The one analysis of a puzzle: every fact a surface shows, computed once.

:func:`analyze` tells whether a puzzle is invalid, has no solution, one or several; for a unique
puzzle it grades it once (the rating profile's path for the score, the hardest step and the
counts; the human-style solver for the level) and, when asked, counts its ranks.  The CLI's
``grade`` and ``analyze``, the workbook's Generator statistics, Collection rows, Analyze sheet
and custom functions, and the batch records all show this value (:class:`Analysis`), never a
grade computed another way.  A puzzle the generator made is analysed with the solution its
oracle proved unique, so uniqueness is not proved twice.

For a puzzle with several solutions the analysis shows two of them, the cells where they differ
and a clue to add: a differing cell with its digit from the first solution, chosen among the
differing cells as the one that leaves the fewest solutions (counted up to a bound).  This is
the general form of the 2x2 and 3x3 "deadly patterns": one more given inside the pattern breaks
the swap.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grading import (
    Grade,
    NotUnique,
    grade_path,
    profile_grade,
    rater,
    rating_path,
)
from xlsudoku.engine.grid import Cell, ConflictError, Grid, InvalidPuzzle
from xlsudoku.engine.hints import Hint, hint_for_step, path_step
from xlsudoku.engine.logic import NoSolution, Poll, SolvePath, Taken, solve_path
from xlsudoku.engine.ranks import Ranks, rank_statistics
from xlsudoku.engine.ratings import DEFAULT_PROFILE, PROFILES, profile_table
from xlsudoku.engine.solver import count_solutions, solutions
from xlsudoku.engine.steps import Level, Placement, Step, Technique
from xlsudoku.engine.techniques import TechniqueSpec

# Solutions are counted up to this bound when comparing candidate clues.
COUNT_LIMIT = 200
# At most this many differing cells are tried as the clue to add.
MAX_TRIED = 40


class Status(enum.Enum):
    """What the analysis found; values are the words shown to people."""

    INVALID = "invalid"
    NO_SOLUTION = "no solution"
    UNIQUE = "unique"
    SEVERAL = "several solutions"


@dataclass(frozen=True, slots=True)
class Analysis:
    """What :func:`analyze` found about a puzzle; every surface shows this value.

    Attributes:
        puzzle: the puzzle analysed.
        status: invalid, no solution, unique or several.
        message: one sentence for people (names the conflicting cells when invalid).
        profile: the rating profile of the score (``se``, ``sukaku``), or ``table`` when the
            grade came from an explicit technique table.
        grade: the grade of a unique puzzle, else None: ``level`` from the human-style solver,
            ``score``, ``hardest`` and ``counts`` from the profile's rating path.
        ranks: the rank statistics of a unique puzzle when asked for, else None.
        solutions: the solution (unique) or two different solutions (several).
        differing: cells where the two solutions differ.
        suggested_given: the given to add (a differing cell and its digit in the first solution).
        suggested_given_makes_unique: True when adding it leaves exactly one solution.
        suggested_given_solutions: solutions left after adding it (at most ``COUNT_LIMIT``).
    """

    puzzle: Grid
    status: Status
    message: str
    profile: str = DEFAULT_PROFILE
    grade: Grade | None = None
    ranks: Ranks | None = None
    solutions: tuple[Grid, ...] = ()
    differing: tuple[Cell, ...] = ()
    suggested_given: Placement | None = None
    suggested_given_makes_unique: bool = False
    suggested_given_solutions: int = 0
    path: SolvePath | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        """Return the steps of the profile's path of a unique puzzle (empty otherwise)."""
        return () if self.path is None else self.path.steps

    def taken(self) -> Iterator[Taken]:
        """Yield the path's steps, each with the board before it and the row that found it.

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> before, spec, step = next(a.taken())
        >>> before.grid == a.puzzle, step == a.steps[0]
        (True, True)
        """
        if self.path is None:
            return
        board = Board.from_grid(self.puzzle)
        specs = self.path.specs
        for i, step in enumerate(self.path.steps):
            yield board, specs[i] if i < len(specs) else None, step
            board = board.apply(step)

    def step_scores(self) -> tuple[float, ...]:
        """Return the score of each step of the path (trial and error scores 11.0).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> max(a.step_scores()) == a.score
        True
        """
        rate = rater(self.puzzle.geometry.size)
        return tuple(rate(step, spec) for _, spec, step in self.taken())

    def uses(self, technique: Technique) -> bool:
        """Return True when the path takes a step of *technique* (the puzzle "needs" it).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> a.uses(Technique.HIDDEN_SINGLE), a.uses(Technique.X_WING)
        (True, False)
        """
        return any(step.technique is technique for step in self.steps)

    def next_step(self, board: Board | None = None) -> Step | None:
        """Return the next step from *board* (the puzzle's when None): the path's, if on it.

        A board off the path gets the profile's easiest step from it (its finders in order),
        else trial and error; None when the board is full (see ``hints.path_step``).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> a.next_step() == a.steps[0]
        True
        """
        start = Board.from_grid(self.puzzle) if board is None else board
        table = profile_table(self.profile if self.profile in PROFILES else DEFAULT_PROFILE)
        return path_step(start, self.taken(), table, self.solution)

    def hint(self, level: int = 1, board: Board | None = None) -> Hint:
        """Return the hint of *level* (1-3) for the next step from *board* (see next_step).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> a.hint(1).text
        'Look for a Hidden Single in box 1.'
        """
        start = Board.from_grid(self.puzzle) if board is None else board
        step = self.next_step(start)
        if step is None:
            return Hint(level, "The grid is full: nothing left to find.", (), None)
        return hint_for_step(step, start, level)

    def explain(self) -> list[str]:
        """Return every step of the path, numbered, in the words of the hints (level 3).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> a.explain()[0]
        '1. [1.2] Hidden single: 6 can only go in r2c2 within box 1. So: place 6 in r2c2.'
        """
        lines = []
        rate = rater(self.puzzle.geometry.size)
        for number, (board, spec, step) in enumerate(self.taken(), 1):
            text = hint_for_step(step, board, 3).text.replace("\n", " ")
            lines.append(f"{number}. [{rate(step, spec):.1f}] {text}")
        return lines

    def explained(self) -> list[dict[str, object]]:
        """Return every step of the path as JSON-ready data (what ``explain --format json`` has).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> first = a.explained()[0]
        >>> first["step"], first["technique"], first["score"], first["placements"]
        (1, 'Hidden Single', 1.2, ['6 in r2c2'])
        """
        geo = self.puzzle.geometry
        rate = rater(geo.size)
        out: list[dict[str, object]] = []
        for number, (board, spec, step) in enumerate(self.taken(), 1):
            explanation = hint_for_step(step, board, 3).text.split("\n")
            out.append(
                {
                    "step": number,
                    "technique": step.technique.value,
                    "score": round(rate(step, spec), 1),
                    "explanation": explanation[0],
                    "result": explanation[-1].removeprefix("So: ").rstrip("."),
                    "cells": [geo.cell_name(c) for c in step.cells],
                    "placements": [
                        f"{geo.digit_char(p.digit)} in {geo.cell_name(p.cell)}"
                        for p in step.placements
                    ],
                    "eliminations": [
                        f"{geo.digit_char(e.digit)} from {geo.cell_name(e.cell)}"
                        for e in step.eliminations
                    ],
                }
            )
        return out

    @property
    def unique(self) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.status is Status.UNIQUE

    @property
    def solution(self) -> Grid | None:
        """Return the solution of a unique puzzle, else None."""
        return self.solutions[0] if self.unique else None

    @property
    def level(self) -> Level | None:
        """Return the level of a unique puzzle (its score's band under the profile), else None."""
        return None if self.grade is None else self.grade.level

    @property
    def score(self) -> float | None:
        """Return the rating of a unique puzzle (its hardest step's score), else None."""
        return None if self.grade is None else self.grade.score

    @property
    def hardest(self) -> Technique | None:
        """Return the technique of the hardest step of a unique puzzle, else None."""
        return None if self.grade is None else self.grade.hardest

    def with_ranks(self, poll: Poll | None = None) -> Analysis:
        """Return this analysis with its rank statistics (rounds beyond singles: the profile's).

        *poll* is called before each step beyond singles (it raises to abandon the count).

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... )).with_ranks()
        >>> a.ranks.singles_only
        True
        """
        if self.ranks is not None or self.solution is None:
            return self
        step_of = self.next_step if poll is None else _polled(self.next_step, poll)
        counted = rank_statistics(self.puzzle, self.solution, next_step=step_of)
        return dataclasses.replace(self, ranks=counted)

    def graded(self) -> Grade:
        """Return the grade, or raise the typed error of a puzzle that cannot be graded.

        Raises:
            ConflictError: a digit is given twice in a house.
            NoSolution: the givens admit no solution.
            NotUnique: the puzzle has several solutions.
        """
        if self.grade is not None:
            return self.grade
        if self.status is Status.INVALID:
            self.puzzle.validate()  # raises the ConflictError that names the cells
            raise InvalidPuzzle(self.message)
        if self.status is Status.NO_SOLUTION:
            raise NoSolution("the puzzle has no solution")
        raise NotUnique(f"the puzzle has more than one solution ({self.puzzle.given_count} givens)")

    def summary(self) -> str:
        """Return the grade in words, saying where the level and the score come from.

        >>> a = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... ))
        >>> a.summary()
        'Easy; SE rating 1.2 (hardest step: Hidden Single)'
        >>> analyze(a.puzzle, "sukaku").summary()
        'Easy; SukakuExplainer rating 1.2 (hardest step: Hidden Single)'
        """
        if self.grade is None:
            return self.message
        scale = RATING_NAMES.get(self.profile, self.profile)
        hardest = self.grade.hardest.value if self.grade.hardest else "none"
        return f"{self.grade.label}; {scale} {self.grade.score:.1f} (hardest step: {hardest})"

    def to_dict(self) -> dict[str, object]:
        """Return the analysis as JSON-ready data (what ``grade --format json`` prints).

        >>> d = analyze(Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... )).to_dict()
        >>> d["status"], d["level"], d["score"], d["hardest"], d["profile"]
        ('unique', 'Easy', 1.2, 'Hidden Single', 'se')
        """
        data: dict[str, object] = {
            "puzzle": str(self.puzzle),
            "geometry": self.puzzle.geometry.name,
            "status": self.status.value,
        }
        if self.grade is not None:
            g = self.grade
            data |= {
                "level": g.label,
                "score": round(g.score, 1),
                "hardest": g.hardest.value if g.hardest else None,
                "profile": self.profile,
                "solved": g.solved,
                "counts": {technique.value: n for technique, n in g.counts},
            }
        if self.solution is not None:
            data["solution"] = str(self.solution)
        if self.ranks is not None:
            data["ranks"] = self.ranks.to_dict()
        return data


# What the score of each profile is called where people read it.
RATING_NAMES = {"se": "SE rating", "sukaku": "SukakuExplainer rating", "table": "score"}


def best_given(grid: Grid, first: Grid, differing: tuple[Cell, ...]) -> tuple[Placement, int]:
    """Return the clue (from *first*) among *differing* cells leaving the fewest solutions.

    Each candidate clue is scored by the solutions left (counted up to ``COUNT_LIMIT``); the
    first cell wins ties.  At most ``MAX_TRIED`` cells are tried.

    >>> g = Grid.parse("..3456789456789123789123456..4365897365897214897214365"
    ...                "531642978642978531978531642")
    >>> a, b = solutions(g, 2)
    >>> best_given(g, a, tuple(c for c in range(81) if a[c] != b[c]))
    (Placement(cell=0, digit=1), 1)
    """
    best: tuple[Placement, int] | None = None
    for cell in differing[:MAX_TRIED]:
        left = count_solutions(grid.with_cells({cell: first[cell]}), COUNT_LIMIT)
        if best is None or left < best[1]:
            best = (Placement(cell, first[cell]), left)
            if left == 1:
                break
    assert best is not None
    return best


def _polled(step_of: Callable[[Board], Step | None], poll: Poll) -> Callable[[Board], Step | None]:
    """Return *step_of* calling *poll* first (which raises to abandon the caller's count)."""

    def step(board: Board) -> Step | None:
        poll()
        return step_of(board)

    return step


def analyze(
    grid: Grid,
    profile: str = DEFAULT_PROFILE,
    *,
    solution: Grid | None = None,
    table: tuple[TechniqueSpec, ...] | None = None,
    ranks: bool = False,
    suggest_given: bool = True,
    poll: Poll | None = None,
    path: SolvePath | None = None,
) -> Analysis:
    """Analyse *grid* once: what it is, and for a unique puzzle its grade (and ranks).

    Args:
        grid: the puzzle.
        profile: the rating profile of the score (``se`` or ``sukaku``).
        solution: the puzzle's solution when its uniqueness is already proved (the generator's
            oracle proves it); the puzzle is then not solved again.
        table: grade with this technique table's own path instead of a profile.
        ranks: also count the rank statistics of a unique puzzle.
        suggest_given: for a puzzle with several solutions, also find the clue to add (it counts
            solutions for each differing cell); a grader that only refuses it passes False.
        poll: called between the searches of the grade and the ranks of a unique puzzle; it
            raises to abandon them (:data:`xlsudoku.engine.logic.Poll`), and the exception
            passes through.
        path: the profile's rating path of the puzzle when the caller has it (with
            *solution*): it is not walked again.

    >>> analyze(Grid.parse("11" + "." * 79)).message
    'invalid: digit 1 repeated in row 1: r1c1 and r1c2 (and 1 more clash)'
    >>> a = analyze(Grid.parse("..3456789456789123789123456..4365897365897214897214365"
    ...                        "531642978642978531978531642"))
    >>> a.status.value, a.differing, a.suggested_given_makes_unique
    ('several solutions', (0, 1, 27, 28), True)
    >>> for part in a.message.split("; "):
    ...     print(part)
    several solutions: two of them differ in 4 cells (r1c1, r1c2, r4c1, r4c2)
    adding 1 in r1c1 makes the solution unique
    """
    geo = grid.geometry
    if solution is None:
        try:
            grid.validate()
        except ConflictError as err:
            return Analysis(grid, Status.INVALID, f"invalid: {err}", profile)
        found = solutions(grid, 2)
    else:
        found = [solution]
    if not found:
        return Analysis(
            grid, Status.NO_SOLUTION, "no solution: the givens cannot all be kept", profile
        )
    if len(found) == 1:
        if table is not None:
            path = solve_path(grid, table, poll=poll)
            g = grade_path(path, table)
        else:
            if path is None or not path.solved:
                path = rating_path(grid, profile_table(profile), poll)
            g = profile_grade(path, profile)
        named = "table" if table is not None else profile.lower()
        unique = Analysis(grid, Status.UNIQUE, "", named, g, None, (found[0],), path=path)
        if ranks:
            unique = unique.with_ranks(poll)
        return dataclasses.replace(unique, message=f"unique solution; {unique.summary()}")
    first, second = found
    differing = tuple(c for c in range(geo.cell_count) if first[c] != second[c])
    if not suggest_given:
        message = f"several solutions: two of them differ in {len(differing)} cells"
        return Analysis(
            grid, Status.SEVERAL, message, profile, None, None, (first, second), differing
        )
    added, left = best_given(grid, first, differing)
    more = f"{left}" if left < COUNT_LIMIT else f"at least {COUNT_LIMIT}"
    outcome = "makes the solution unique" if left == 1 else f"leaves {more} solutions"
    return Analysis(
        grid,
        Status.SEVERAL,
        f"several solutions: two of them differ in {len(differing)} cells "
        f"({', '.join(geo.cell_name(c) for c in differing[:8])}"
        f"{', ...' if len(differing) > 8 else ''}); adding {geo.digit_char(added.digit)} "
        f"in {geo.cell_name(added.cell)} {outcome}",
        profile,
        solutions=(first, second),
        differing=differing,
        suggested_given=added,
        suggested_given_makes_unique=left == 1,
        suggested_given_solutions=left,
    )
