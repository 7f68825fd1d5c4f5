"""Analyse a typed puzzle: invalid, no solution, unique (with its grade) or several solutions.

For a puzzle with several solutions the analysis shows two of them, the cells where they differ
and a clue to add: a differing cell with its digit from the first solution, chosen among the
differing cells as the one that leaves the fewest solutions (counted up to a bound).  This is
the general form of the 2x2 and 3x3 "deadly patterns": one more given inside the pattern breaks
the swap.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from xlsudoku.engine.grading import Grade, grade
from xlsudoku.engine.grid import Cell, ConflictError, Grid
from xlsudoku.engine.solver import count_solutions, solutions
from xlsudoku.engine.steps import Placement
from xlsudoku.engine.techniques import TECHNIQUES, TechniqueSpec

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
    """The result of :func:`analyze`.

    Attributes:
        status: invalid, no solution, unique or several.
        message: one sentence for people (names the conflicting cells when invalid).
        grade: the grade of a unique puzzle, else None.
        solutions: the solution (unique) or two different solutions (several).
        differing: cells where the two solutions differ.
        clue: the given to add (a differing cell and its digit in the first solution).
        clue_makes_unique: True when adding *clue* leaves exactly one solution.
        clue_solutions: solutions left after adding *clue* (at most ``COUNT_LIMIT``).
    """

    status: Status
    message: str
    grade: Grade | None = None
    solutions: tuple[Grid, ...] = ()
    differing: tuple[Cell, ...] = ()
    clue: Placement | None = None
    clue_makes_unique: bool = False
    clue_solutions: int = 0


def best_clue(grid: Grid, first: Grid, differing: tuple[Cell, ...]) -> tuple[Placement, int]:
    """Return the clue (from *first*) among *differing* cells leaving the fewest solutions.

    Each candidate clue is scored by the solutions left (counted up to ``COUNT_LIMIT``); the
    first cell wins ties.  At most ``MAX_TRIED`` cells are tried.

    >>> g = Grid.parse("..3456789456789123789123456..4365897365897214897214365"
    ...                "531642978642978531978531642")
    >>> a, b = solutions(g, 2)
    >>> best_clue(g, a, tuple(c for c in range(81) if a[c] != b[c]))
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


def analyze(grid: Grid, table: tuple[TechniqueSpec, ...] = TECHNIQUES) -> Analysis:
    """Analyse *grid* and return what it is, with the details people need.

    >>> analyze(Grid.parse("11" + "." * 79)).message
    'invalid: digit 1 repeated in row 1: r1c1 and r1c2 (and 1 more clash)'
    >>> a = analyze(Grid.parse("..3456789456789123789123456..4365897365897214897214365"
    ...                        "531642978642978531978531642"))
    >>> a.status.value, a.differing, a.clue_makes_unique
    ('several solutions', (0, 1, 27, 28), True)
    >>> for part in a.message.split("; "):
    ...     print(part)
    several solutions: two of them differ in 4 cells (r1c1, r1c2, r4c1, r4c2)
    adding 1 in r1c1 makes the solution unique
    """
    geo = grid.geometry
    try:
        grid.validate()
    except ConflictError as err:
        return Analysis(Status.INVALID, f"invalid: {err}")
    found = solutions(grid, 2)
    if not found:
        return Analysis(Status.NO_SOLUTION, "no solution: the givens cannot all be kept")
    if len(found) == 1:
        g = grade(grid, table)
        return Analysis(
            Status.UNIQUE,
            f"unique solution; {g.label} (score {g.score:.1f}, hardest: "
            f"{g.hardest.value if g.hardest else 'none'})",
            grade=g,
            solutions=(found[0],),
        )
    first, second = found
    differing = tuple(c for c in range(geo.cell_count) if first[c] != second[c])
    clue, left = best_clue(grid, first, differing)
    more = f"{left}" if left < COUNT_LIMIT else f"at least {COUNT_LIMIT}"
    outcome = "makes the solution unique" if left == 1 else f"leaves {more} solutions"
    return Analysis(
        Status.SEVERAL,
        f"several solutions: two of them differ in {len(differing)} cells "
        f"({', '.join(geo.cell_name(c) for c in differing[:8])}"
        f"{', ...' if len(differing) > 8 else ''}); adding {geo.digit_char(clue.digit)} "
        f"in {geo.cell_name(clue.cell)} {outcome}",
        solutions=(first, second),
        differing=differing,
        clue=clue,
        clue_makes_unique=left == 1,
        clue_solutions=left,
    )
