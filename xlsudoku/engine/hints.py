"""Progressive hints: the next step of the rating profile's path, disclosed in three levels.

1. the technique and where to look (a house, or the cell's row for a naked single);
2. the cells of the pattern;
3. the full explanation and what it does (the digit placed or the candidates removed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grading import walk_rating_path
from xlsudoku.engine.grid import Cell, Grid, SudokuError
from xlsudoku.engine.logic import NoSolution, Taken, next_step, trial_step
from xlsudoku.engine.ratings import DEFAULT_PROFILE, profile_table
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Step
from xlsudoku.engine.techniques import TechniqueSpec

LEVELS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint: the sentence to show, the cells to colour and the step it discloses.

    *step* is None when the grid is already full.
    """

    level: int
    text: str
    cells: tuple[Cell, ...]
    step: Step | None


def _result(step: Step, board: Board) -> str:
    """Return what *step* does, e.g. ``place 5 in r4c7`` or ``remove 3 from r1c2, r1c5``."""
    geo = board.geometry
    parts = [f"place {geo.digit_char(p.digit)} in {geo.cell_name(p.cell)}" for p in step.placements]
    by_digit: dict[int, list[Cell]] = {}
    placed = {p.cell for p in step.placements}
    for e in step.eliminations:
        if e.cell not in placed:
            by_digit.setdefault(e.digit, []).append(e.cell)
    parts += [
        f"remove {geo.digit_char(d)} from {', '.join(geo.cell_name(c) for c in cells)}"
        for d, cells in sorted(by_digit.items())
    ]
    return "; ".join(parts)


def hint_for_step(step: Step, board: Board, level: int) -> Hint:
    """Return the hint of *level* (1-3) that discloses *step* on *board*.

    >>> b = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> s = next_step(b)
    >>> [hint_for_step(s, b, n).text for n in (1, 2)]
    ['Look for a Full House in row 1.', 'Look for a Full House in row 1, at r1c9.']
    >>> hint_for_step(s, b, 3).text.splitlines()[1]
    'So: place 9 in r1c9.'
    """
    if level not in LEVELS:
        raise SudokuError(f"hint level {level} is not one of 1, 2, 3")
    geo = board.geometry
    houses = step.houses or geo.houses_of[step.cells[0]][:1]
    region = " and ".join(geo.house_name(h) for h in houses[:2])
    name = step.technique.value
    article = "an" if name[0].lower() in "aeiou" else "a"
    if level == 1:
        cells = tuple(sorted({c for h in houses[:2] for c in geo.houses[h]}))
        return Hint(1, f"Look for {article} {name} in {region}.", cells, step)
    if level == 2:
        where = ", ".join(geo.cell_name(c) for c in step.cells)
        return Hint(2, f"Look for {article} {name} in {region}, at {where}.", step.cells, step)
    touched = tuple(p.cell for p in step.placements) + tuple(e.cell for e in step.eliminations)
    cells = tuple(dict.fromkeys(step.cells + touched))
    return Hint(3, f"{step.explanation}.\nSo: {_result(step, board)}.", cells, step)


def on_path(board: Board, path: Iterable[Taken]) -> tuple[int, Step] | None:
    """Return the number and step of the *path* step taken from *board*, else None.

    The path is followed while *board* knows all its board knows (each digit it placed, no
    candidate it removed); a path board equal to *board* gives its step.  A board that lacks
    something of a path board, or that the whole path passes, is not on the path.

    >>> from xlsudoku.engine.grading import walk_rating_path
    >>> g = Grid.parse("12345678." + "." * 72)
    >>> on_path(Board.from_grid(g), walk_rating_path(g))[0]
    0
    """
    for number, (before, _, step) in enumerate(path):
        if before.values == board.values and before.cands == board.cands:
            return number, step
        if not _knows(board, before):
            return None
    return None


def _knows(board: Board, other: Board) -> bool:
    """Return True when *board* holds every digit placed and candidate removed on *other*."""
    for digit, cands, known, left in zip(
        board.values, board.cands, other.values, other.cands, strict=True
    ):
        if known:
            if digit != known:
                return False
        elif not digit and cands & ~left:
            return False
    return True


def path_step(
    board: Board,
    path: Iterable[Taken],
    table: tuple[TechniqueSpec, ...],
    solution: Grid | None = None,
) -> Step | None:
    """Return the next step from *board*: the *path*'s when it is on it, else *table*'s.

    A board off the path gets the first step of *table*'s finders in order (the easiest), or
    the trial-and-error step from *solution* (solved here when None).  None when it is full.

    Raises:
        NoSolution: the board has no solution (a digit in it is wrong).

    >>> from xlsudoku.engine.grading import walk_rating_path
    >>> g = Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2")
    >>> path_step(Board.from_grid(g), walk_rating_path(g), profile_table("se")).technique.value
    'Direct Hidden Pair'
    """
    if board.is_solved:
        return None
    found = on_path(board, path)
    if found is not None:
        return found[1]
    step = next_step(board, table)
    if step is not None:
        return step
    if solution is None:
        solution = solve(board.grid)
        if solution is None:
            raise NoSolution("the grid has no solution: a digit in it is wrong")
    return trial_step(board, solution)


def hint(
    grid_or_board: Grid | Board,
    level: int = 1,
    profile: str = DEFAULT_PROFILE,
    puzzle: Grid | None = None,
) -> Hint:
    """Return the hint of *level* for the next step on a grid (or a board with pencil marks).

    The step is the next one of the rating *profile*'s path (``se``, ``sukaku``: the path that
    rates the puzzle, :func:`xlsudoku.engine.grading.walk_rating_path`) from *puzzle* (the
    board's own digits when None), when the board is on it; else the profile's easiest step
    from the board (:func:`path_step`).  When no technique applies, the hint names the most
    constrained cell (trial and error), and level 3 gives its digit from the solution.

    Raises:
        ConflictError: a digit is twice in a house.
        NoSolution: the grid has no solution (a digit in it is wrong).
        SudokuError: *level* is not 1, 2 or 3.
        ValueError: *profile* is not a known profile.

    >>> g = Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    >>> hint(g, 1).text
    'Look for a Hidden Single in box 1.'
    >>> print(hint(g, 3).text)
    Hidden single: 6 can only go in r2c2 within box 1.
    So: place 6 in r2c2.
    >>> g = Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2")
    >>> print(hint(g, 3, profile="se").text)  # doctest: +NORMALIZE_WHITESPACE
    Direct hidden pair: in box 4, 7 and 9 can only go in r6c2 and r6c3 (hidden pair), so 3
    cannot go there, and r6c1 is the only place left for 3 in box 4.
    So: place 3 in r6c1.
    """
    if level not in LEVELS:
        raise SudokuError(f"hint level {level} is not one of 1, 2, 3")
    table = profile_table(profile)
    board = grid_or_board if isinstance(grid_or_board, Board) else Board.from_grid(grid_or_board)
    board.grid.validate()
    if board.is_solved:
        return Hint(level, "The grid is full: nothing left to find.", (), None)
    # a wrong digit can leave a grid without solution whose candidates still allow steps
    solution = solve(board.grid)
    if solution is None:
        raise NoSolution("the grid has no solution: a digit in it is wrong")
    start = board.grid if puzzle is None else puzzle
    step = path_step(board, walk_rating_path(start, profile), table, solution)
    assert step is not None
    return hint_for_step(step, board, level)
