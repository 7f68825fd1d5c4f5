"""The Analyze sheet's ANALYZE, HINT and SOLVE, on a puzzle typed or pasted there.

The Play sheet shows its hints the same way (:func:`show_hint`), from the player's board.
"""

from __future__ import annotations

from typing import Any

from xlsudoku.addin import layout, params, render
from xlsudoku.addin.actions.shared import (
    ANALYZE_NAMES,
    Changes,
    Outcome,
    as_rows,
    rating_profile,
    run_action,
)
from xlsudoku.addin.cellio import CellIO
from xlsudoku.engine.analysis import Status
from xlsudoku.engine.analysis import analyze as analyze_grid
from xlsudoku.engine.board import Board
from xlsudoku.engine.generate.strategy import plural
from xlsudoku.engine.grading import walk_rating_path
from xlsudoku.engine.grid import Geometry, Grid
from xlsudoku.engine.hints import Hint, hint_for_step, path_step
from xlsudoku.engine.play import Game, player_board
from xlsudoku.engine.ratings import profile_table
from xlsudoku.engine.solver import solutions
from xlsudoku.engine.steps import Step


def typed_puzzle(io: CellIO, changes: Changes) -> tuple[Grid, str]:
    """Return the puzzle typed on the Analyze sheet and a note for the status ("" or a sentence).

    A non-blank AnalyzeString wins: the puzzle is copied into AnalyzeGrid and the string cell
    is cleared, so the grid is the one place the puzzle lives afterwards.  A string of another
    size than the Geometry cell's sets that cell to the string's shape (and the note says so).
    """
    param = layout.ANALYZE_PARAMS[0]
    chosen = params.read_geometry(param, io.read(layout.ANALYZE_GEOMETRY))
    text = io.read(layout.ANALYZE_STRING)
    note = ""
    if not params.is_blank(text):
        # a puzzle Excel had turned into a number is read back, and the status says so
        number = params.number_note(layout.ANALYZE_STRING, text)
        if number:
            text, _ = params.number_puzzle(layout.ANALYZE_STRING, text)
            note = " " + number.strip()
        shape = params.string_geometry(text, chosen)
        grid = params.read_string(layout.ANALYZE_STRING, text, shape)
        if shape != chosen:
            changes.write(layout.ANALYZE_GEOMETRY, shape.name)
            note += f" Geometry set to {shape.name} for the {shape.cell_count}-cell string."
        changes.write(layout.ANALYZE_GRID, render.block_rows(grid))
        changes.clear(layout.ANALYZE_STRING)
    else:
        grid = params.read_block(layout.ANALYZE_GRID, as_rows(io.read(layout.ANALYZE_GRID)), chosen)
    if grid.given_count == 0:
        grid_ref = layout.NAMES[layout.ANALYZE_GRID].part(chosen.size, chosen.size)
        string_ref = layout.NAMES[layout.ANALYZE_STRING]
        raise params.ParamError(
            [
                f"The grid ({grid_ref.address}) is empty: type a puzzle into it, or paste a "
                f"puzzle string into {string_ref.address}"
            ]
        )
    return grid, note


def plain_look(changes: Changes, geo: Geometry, grid: str = layout.ANALYZE_GRID) -> None:
    """Give a sheet's grid its fill (X-Sudoku's diagonals, Windoku's extra boxes shaded)."""
    changes.fill(grid, render.PLAY_FILL if grid == layout.PLAY_GRID else render.GRID_FILL, None)
    if geo.diagonals or geo.windoku:
        n = geo.size
        extra = [cell for house in geo.houses[3 * n :] for cell in house]
        changes.fill(grid, render.DIAGONAL_COLOUR, sorted({divmod(cell, n) for cell in extra}))
    others = (layout.CANDIDATES, layout.ANALYZE_SOLUTION, layout.ANALYZE_SOLUTION2)
    for name in (layout.PLAY_MARKS,) if grid == layout.PLAY_GRID else others:
        changes.fill(name, None, None)


def _mark_placed(io: CellIO, changes: Changes, step: Step, geo: Geometry) -> None:
    """Note the digits *step* placed in the hidden HintPlaced block: the grid draws them blue."""
    rows = [list(row) for row in as_rows(io.read(layout.HINT_PLACED))]
    for placement in step.placements:
        r, c = divmod(placement.cell, geo.size)
        rows[r][c] = placement.digit
    changes.write(layout.HINT_PLACED, rows)


def _write_candidates(changes: Changes, board: Board) -> None:
    changes.write(
        layout.CANDIDATES, render.candidates_block(board.values, board.cands, board.geometry)
    )


def analyze(io: CellIO) -> Outcome:
    """ANALYZE: validity, solution count, grade, or two solutions side by side and a clue.

    With several solutions, the two found are written side by side with the cells where they
    differ coloured, and the clue to add is marked in the puzzle.  The candidates (pencil
    marks) start afresh from the puzzle, so ANALYZE also resets what HINT has applied.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = typed_puzzle(io, changes)
        analysis = analyze_grid(grid, rating_profile(io))  # the Rating cell's profile
        geo = grid.geometry
        plain_look(changes, geo)
        changes.write(layout.ANALYZE_REPORT, render.report_lines(grid, analysis))
        changes.clear(layout.HINT_TEXT)
        changes.clear(layout.HINT_PLACED)  # the grid is the puzzle now: every digit a given
        changes.clear(layout.EXPLAIN_STEPS)  # EXPLAIN's steps were another puzzle's, maybe
        first = analysis.solutions[0] if analysis.status is Status.SEVERAL else None
        second = analysis.solutions[1] if analysis.status is Status.SEVERAL else None
        changes.write(layout.ANALYZE_SOLUTION, render.block_rows(first))
        changes.write(layout.ANALYZE_SOLUTION2, render.block_rows(second))
        if analysis.status is Status.INVALID:
            changes.clear(layout.CANDIDATES)
        else:
            _write_candidates(changes, Board.from_grid(grid))
        if analysis.status is Status.SEVERAL:
            differing = render.offsets(analysis.differing, geo)
            for name in (layout.ANALYZE_SOLUTION, layout.ANALYZE_SOLUTION2):
                changes.fill(name, render.DIFFER_COLOUR, differing)
            if analysis.suggested_given is not None:
                spot = render.offsets([analysis.suggested_given.cell], geo)
                changes.fill(layout.ANALYZE_GRID, render.SUGGESTED_GIVEN_COLOUR, spot)
                changes.fill(layout.ANALYZE_SOLUTION, render.SUGGESTED_GIVEN_COLOUR, spot)
        return render.analysis_status(analysis) + note, analysis

    return run_action(io, "analyze", layout.ANALYZE_STATUS, [*ANALYZE_NAMES, layout.RATING], body)


def explain(io: CellIO) -> Outcome:
    """EXPLAIN: the whole solution in words, every step of the rating path numbered.

    The steps are the ones ``xlsudoku explain`` prints, under the Rating cell's profile, one
    a row in the ExplainSteps column under the solutions; a path longer than its rows shows
    its first steps and says how many are left out.  ANALYZE clears them.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = typed_puzzle(io, changes)
        analysis = analyze_grid(grid, rating_profile(io), suggest_given=False)
        if analysis.status is not Status.UNIQUE:
            what = {
                Status.INVALID: "a digit repeated in a house",
                Status.NO_SOLUTION: "no solution",
            }.get(analysis.status, "several solutions")
            raise params.ParamError(
                [
                    f"The puzzle has {what}: EXPLAIN needs a puzzle with exactly one. ANALYZE "
                    "says more."
                ]
            )
        lines = analysis.explain()
        changes.write(layout.EXPLAIN_STEPS, render.steps_block(lines))
        ref = layout.NAMES[layout.EXPLAIN_STEPS]
        shown = min(len(lines), ref.shape[0] - (len(lines) > ref.shape[0]))
        last = ref.cell(max(shown, 1) - 1, 0)
        status = (
            f"The solution in {plural(len(lines), 'step')} ({analysis.summary()}), from "
            f"{ref.top_left} down"
            + (f" to {last}" if shown == len(lines) else f": the first {shown} shown")
            + "."
        )
        return status + note, lines

    names = [*ANALYZE_NAMES, layout.RATING]
    return run_action(io, "explain", layout.ANALYZE_STATUS, names, body)


def hint(io: CellIO) -> Outcome:
    """HINT: the next step on the candidates kept on the sheet, more of it on each press.

    Press 1 names the technique and where to look, press 2 the cells of its pattern (the
    cause), press 3 explains it and applies it: its eliminations are made in the Candidates
    block and its placements in the grid, so the next press goes on with the next step.  The
    cause cells and the effect cells get their own colours (see the legend).  A puzzle with
    no solution or several solutions gets no hint: a step would prove nothing there.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = typed_puzzle(io, changes)
        geo = grid.geometry
        found = solutions(grid, 2)
        if len(found) != 1:
            what = "no solution" if not found else "several solutions"
            raise params.ParamError(
                [
                    f"The puzzle has {what}: HINT needs a puzzle with exactly one. ANALYZE "
                    + ("shows two solutions and a clue to add." if found else "checks it.")
                ]
            )
        # marks that lost a digit of the solution (typed by hand, or left from another
        # puzzle) are dropped for the puzzle's own
        stored = params.read_candidates(as_rows(io.read(layout.CANDIDATES)), geo)
        board, lost = player_board(Game(grid, found[0], grid.cells, ()), stored)
        board = Board.from_grid(grid) if lost else board
        plain_look(changes, geo)
        if board.is_solved:
            changes.write(layout.HINT_TEXT, "The grid is full: nothing left to hint.")
            changes.clear(layout.CANDIDATES)
            return "The grid is full: nothing left to hint.", None
        blocks = (layout.HINT_TEXT, layout.ANALYZE_GRID, layout.CANDIDATES)
        step = next_step(board, grid, rating_profile(io), found[0])
        result = show_hint(io, changes, board, step, blocks)
        status = f"Hint {result.level} of 3."
        step = result.step
        if step is not None and result.level == 3:
            after = board.apply(step)
            _write_candidates(changes, after)
            if step.placements:
                changes.write(layout.ANALYZE_GRID, render.block_rows(after.grid))
                _mark_placed(io, changes, step, geo)
            status += " Applied: " + applied_text(step) + " Press HINT for the next step."
        else:
            _write_candidates(changes, board)
            status += " Press HINT again for more."
        if lost:
            status += " The candidates did not fit the puzzle and were started afresh."
        return status + note, result

    return run_action(io, "hint", layout.ANALYZE_STATUS, [*ANALYZE_NAMES, layout.RATING], body)


def next_step(board: Board, puzzle: Grid, profile: str, solution: Grid) -> Step:
    """Return the next step from *board*: the profile's path from *puzzle* when on it.

    Off the path (the player went another way), the profile's easiest step from the board.
    """
    step = path_step(board, walk_rating_path(puzzle, profile), profile_table(profile), solution)
    assert step is not None, "a board with an empty cell has a next step"
    return step


def show_hint(
    io: CellIO, changes: Changes, board: Board, step: Step, blocks: tuple[str, str, str]
) -> Hint:
    """Show and colour the hint of *step*, the next step on *board*; return it.

    *blocks* are the hint cell, the grid and its pencil marks.  The level is one more than the
    hint shown for this very step (one shown for another step is stale: level 1).  Colours:
    the house (level 1), the pattern (cause) and what the step changes (effect, level 3).
    """
    text, grids = blocks[0], blocks[1:]
    level = 1
    for earlier in (1, 2):
        if io.read(text) == render.hint_text(hint_for_step(step, board, earlier)):
            level = earlier + 1
    result = hint_for_step(step, board, level)
    changes.write(text, render.hint_text(result))
    geo = board.geometry
    if level == 1:
        for name in grids:
            changes.fill(name, render.HINT_REGION_COLOUR, render.offsets(result.cells, geo))
        return result
    effect = [p.cell for p in step.placements] + [e.cell for e in step.eliminations]
    cause = [cell for cell in step.cells if cell not in effect]
    if level == 2 and not cause:  # a single: its cells are what level 2 names ("at r1c9")
        cause = list(result.cells)
    for name in grids:
        changes.fill(name, render.HINT_CAUSE_COLOUR, render.offsets(cause, geo))
    for name in grids if level == 3 else ():
        changes.fill(name, render.HINT_EFFECT_COLOUR, render.offsets(effect, geo))
    return result


def applied_text(step: Step) -> str:
    """Return the sentence saying what applying *step* changed, for the status.

    >>> from xlsudoku.engine.steps import Elimination, Placement, Technique
    >>> removed = (Elimination(3, 5), Elimination(4, 5))
    >>> pair = Step(Technique.NAKED_PAIR, (), removed, (), (), (), "")
    >>> applied_text(pair)
    '2 candidates removed.'
    >>> applied_text(Step(Technique.NAKED_SINGLE, (Placement(0, 5),), (), (0,), (), (5,), ""))
    '1 digit placed in the grid.'
    """
    placed, removed = len(step.placements), len(step.eliminations)
    parts = [f"{plural(placed, 'digit')} placed in the grid"] if placed else []
    if removed:
        parts.append(f"{plural(removed, 'candidate')} removed")
    return " and ".join(parts) + "."


def solve(io: CellIO) -> Outcome:
    """SOLVE: write the solution beside the typed puzzle (the first of several, said so)."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, note = typed_puzzle(io, changes)
        found = solutions(grid, 2)
        plain_look(changes, grid.geometry)
        changes.clear(layout.HINT_TEXT)
        changes.write(layout.ANALYZE_SOLUTION, render.block_rows(found[0] if found else None))
        changes.write(layout.ANALYZE_SOLUTION2, render.block_rows(None))
        if not found:
            return "No solution: the givens cannot all be kept." + note, None
        if len(found) > 1:
            return (
                "Several solutions: one of them is shown; ANALYZE shows two and where they "
                "differ." + note,
                found[0],
            )
        return "Solved: the solution is unique." + note, found[0]

    return run_action(io, "solve", layout.ANALYZE_STATUS, ANALYZE_NAMES, body)
