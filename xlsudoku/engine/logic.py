"""The human-style solve loop: take the easiest step that applies, again and again.

``next_step`` asks each technique of the table in order (the table is sorted by score, so the
easiest first) and returns the first step found.  ``solve_path`` repeats it until the grid is
full.  When no technique applies, a trial-and-error step places the correct digit of the most
constrained cell, taken from the exact solution, so the path always ends.

A rating path (``solve_path`` given *rate*) may take a step that is not the easiest: once the
rating (the hardest step so far) has reached a row's score, the row's *find_within* finder may
stop at the first step rated no higher than the rating so far, and the rows marked *early* are
tried first, since any step within the rating so far leaves the rating as it is.  Hints and
steps never do that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Grid, InvalidPuzzle
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Level, Placement, Step, Technique
from xlsudoku.engine.techniques import TECHNIQUES, TechniqueSpec

# Called between the searches of a solve (before each technique is asked) by a caller that
# bounds the solve: it raises to abandon it (a time limit reached), and the exception passes
# through.
Poll = Callable[[], None]


class NoSolution(InvalidPuzzle):
    """The puzzle's givens do not clash, but no way of filling the grid exists."""


@dataclass(frozen=True, slots=True)
class SolvePath:
    """The steps taken, the board they lead to and whether it is full.

    *stalled* is True when the path stopped because no allowed technique applied (only when a
    *max_level* below ``Level.BEYOND`` forbade trial and error).  *specs* holds, for each step,
    the table row whose finder found it (None for trial and error): several rows may share a
    technique with different scores, and grading scores a step by the row that found it.
    """

    steps: tuple[Step, ...]
    board: Board
    solved: bool
    stalled: bool = False
    specs: tuple[TechniqueSpec | None, ...] = ()


def next_found(
    board: Board,
    table: tuple[TechniqueSpec, ...] = TECHNIQUES,
    ceiling: float | None = None,
    poll: Poll | None = None,
) -> tuple[TechniqueSpec, Step] | None:
    """Return the first step of the first technique in *table* with the row that found it.

    With a *ceiling* (a rating), a row whose score is at most *ceiling* and that has a
    ``find_within`` finder may return any of its steps rated at most *ceiling*, not its easiest;
    and before the first Diabolical row, the rows marked ``early`` whose score is at most
    *ceiling* are asked first for a step rated at most *ceiling* (their searches find one
    sooner than the rows before them), those whose ``lead`` *ceiling* has reached before the
    others.  *poll* is called before each row is asked (it raises to abandon the search).

    >>> b = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> spec, step = next_found(b)
    >>> spec.technique.value, step.placements
    ('Full House', (Placement(cell=8, digit=9),))
    """
    asked: dict[int, Step | None] = {}  # row index -> its step, asked early
    early = ceiling is not None
    for i, spec in enumerate(table):
        if poll is not None:
            poll()
        if early and spec.level >= Level.DIABOLICAL:
            early = False
            found = _early_found(board, table, ceiling, asked)
            if found is not None:
                return found
        step = asked[i] if i in asked else _find(spec, board, ceiling)
        if step is not None:
            return spec, step
    return None


def _find(spec: TechniqueSpec, board: Board, ceiling: float | None) -> Step | None:
    """Return the first step of *spec* on *board*, bounded by *ceiling* where it can be."""
    if ceiling is not None and spec.find_within is not None and spec.score <= ceiling:
        return next(spec.find_within(board, ceiling), None)
    return next(spec.find(board), None)


def _early_found(
    board: Board,
    table: tuple[TechniqueSpec, ...],
    ceiling: float | None,
    asked: dict[int, Step | None],
) -> tuple[TechniqueSpec, Step] | None:
    """Return a step rated at most *ceiling* from a row marked early, recording in *asked*.

    The rows are asked in table order, those whose *lead* *ceiling* has reached first.
    """
    if ceiling is None:
        return None
    top = ceiling

    def leads(i: int) -> bool:
        lead = table[i].lead
        return lead is not None and lead <= top

    rows = [i for i, spec in enumerate(table) if spec.early and spec.score <= top]
    rows.sort(key=lambda i: not leads(i))  # stable: table order otherwise
    for i in rows:
        step = asked[i] = _find(table[i], board, top)
        if step is not None and step.rating <= top:
            return table[i], step
    return None


def next_step(board: Board, table: tuple[TechniqueSpec, ...] = TECHNIQUES) -> Step | None:
    """Return the first step of the first technique in *table* that finds one, else None.

    >>> b = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> next_step(b).explanation
    'Full house: r1c9 is the last empty cell of row 1, so it is 9'
    """
    found = next_found(board, table)
    return found[1] if found is not None else None


def limit_table(
    table: tuple[TechniqueSpec, ...], max_level: Level | None
) -> tuple[TechniqueSpec, ...]:
    """Return the techniques of *table* at or below *max_level* (all of them for None).

    >>> all(spec.level <= Level.EASY for spec in limit_table(TECHNIQUES, Level.EASY))
    True
    """
    if max_level is None:
        return table
    return tuple(spec for spec in table if spec.level <= max_level)


def trial_step(board: Board, solution: Grid) -> Step:
    """Return the trial-and-error step: the solution's digit in the most constrained cell.

    >>> b = Board.from_grid(Grid.parse("1" + "." * 80))
    >>> s = solve(b.grid)
    >>> trial_step(b, s).placements[0].cell
    1
    """
    geo = board.geometry
    best = min(
        (c for c in range(geo.cell_count) if not board.values[c]),
        key=lambda c: board.cands[c].bit_count(),
    )
    digit = solution[best]
    options = "".join(
        geo.digit_char(d) for d in range(1, geo.size + 1) if board.cands[best] >> (d - 1) & 1
    )
    return Step(
        Technique.TRIAL_AND_ERROR,
        (Placement(best, digit),),
        (),
        (best,),
        (),
        (digit,),
        f"Trial and error: no technique applies; {geo.cell_name(best)} "
        f"(candidates {options}) "
        f"is {geo.digit_char(digit)} in the solution",
    )


def solve_path(
    grid: Grid | Board,
    table: tuple[TechniqueSpec, ...] = TECHNIQUES,
    max_level: Level | None = None,
    max_steps: int | None = None,
    rate: Callable[[Step, TechniqueSpec | None], float] | None = None,
    poll: Poll | None = None,
) -> SolvePath:
    """Solve *grid* step by step with the techniques of *table* up to *max_level*.

    Trial and error is used only when *max_level* is None or ``Level.BEYOND``; otherwise the
    path stops where the allowed techniques give out (``solved`` False, ``stalled`` True).
    *max_steps* bounds the loop (None: until solved or stalled).  With *rate* (a step's score
    from the step and the row that found it, None for trial and error) the path is a rating
    path: the highest score so far is the ceiling of the next step's search (see
    :func:`next_found`), which makes it faster and changes steps, and seldom the highest score.
    *poll* is called before each technique is asked (see :data:`Poll`).

    Raises:
        ConflictError: a digit is given twice in a house.
        NoSolution: the givens admit no solution.

    >>> p = solve_path(Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
    >>> sorted({s.technique.value for s in p.steps}), p.solved
    (['Full House', 'Hidden Single'], True)
    """
    board = grid if isinstance(grid, Board) else Board.from_grid(grid)
    steps: list[Step] = []
    specs: list[TechniqueSpec | None] = []
    stalled = False
    for taken in walk_path(board, table, max_level, rate, poll):
        if taken is None:
            stalled = True
            break
        if max_steps is not None and len(steps) >= max_steps:
            break
        _, spec, step = taken
        steps.append(step)
        specs.append(spec)
        board = board.apply(step)
    return SolvePath(tuple(steps), board, board.is_solved, stalled, tuple(specs))


# One step of a path: the board before it, the row that found it (None for trial and error)
# and the step.
Taken = tuple[Board, TechniqueSpec | None, Step]


def walk_path(
    board: Board,
    table: tuple[TechniqueSpec, ...] = TECHNIQUES,
    max_level: Level | None = None,
    rate: Callable[[Step, TechniqueSpec | None], float] | None = None,
    poll: Poll | None = None,
) -> Iterator[Taken | None]:
    """Yield the steps of :func:`solve_path` one at a time, each with the board before it.

    The walk ends when the board is full; it yields None and ends when it stalls (no allowed
    technique applies and trial and error is not allowed).  A caller that stops early pays
    only for the steps it took (a hint from a board part way along the path).  *poll* is
    called before each technique is asked (see :data:`Poll`).

    Raises:
        ConflictError: a digit is given twice in a house.
        NoSolution: the givens admit no solution.

    >>> b = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> before, spec, step = next(walk_path(b))
    >>> before is b, spec.technique.value, step.placements
    (True, 'Full House', (Placement(cell=8, digit=9),))
    """
    board.grid.validate()
    allowed = limit_table(table, max_level)
    trial = max_level is None or max_level >= Level.BEYOND
    solution: Grid | None = None
    ceiling: float | None = None
    taken = 0
    while not board.is_solved:
        found = next_found(board, allowed, ceiling, poll)
        spec: TechniqueSpec | None
        if found is not None:
            spec, step = found
        else:
            if not trial:
                yield None
                return
            if solution is None:
                solution = solve(board.grid)
                if solution is None:
                    raise NoSolution(f"the puzzle has no solution (found after {taken} steps)")
            spec, step = None, trial_step(board, solution)
        if rate is not None:
            score = rate(step, spec)
            ceiling = score if ceiling is None else max(ceiling, score)
        yield board, spec, step
        taken += 1
        board = board.apply(step)
