"""The Play sheet: PLAY, CHECK, HINT, SOLVE, UNDO and FILL CANDIDATES.

PLAY puts a puzzle on the play grid with its givens locked; the other buttons look at what the
player typed.  The clock and the history UNDO steps through are kept in hidden cells.
"""

from __future__ import annotations

import json
import time
from typing import Any

from xlsudoku.addin import layout, params, render
from xlsudoku.addin.actions.analyze import (
    applied_text,
    next_step,
    plain_look,
    show_hint,
    typed_puzzle,
)
from xlsudoku.addin.actions.collection import Collection
from xlsudoku.addin.actions.generator import generator_puzzle
from xlsudoku.addin.actions.shared import (
    Body,
    Changes,
    Outcome,
    as_rows,
    is_number,
    is_whole,
    names_on,
    rating_profile,
    run_action,
)
from xlsudoku.addin.cellio import CellIO
from xlsudoku.engine.board import Board
from xlsudoku.engine.generate.strategy import plural
from xlsudoku.engine.grid import Grid, SudokuError
from xlsudoku.engine.play import Game, player_board
from xlsudoku.engine.solver import solutions

PLAY_NAMES = names_on(layout.PLAY)


def _restored_note(game: Game) -> str:
    """Return the sentence about givens put back ("" when none was touched)."""
    if not game.restored:
        return ""
    cells = render.cells_text(layout.PLAY_GRID, game.restored, geometry=game.geometry)
    suffix = "s" if len(game.restored) > 1 else ""
    return f"Put back the given{suffix} you had changed: {cells}. "


def _play_source(io: CellIO, value: Any) -> tuple[Grid, str]:
    """Return the puzzle Play from names and where it came from (for the status).

    Raises:
        params.ParamError: the cell names nothing playable, or the puzzle there is empty.
        MissingPart: the sheet it names lacks a part.
    """
    param = layout.NAMES[layout.PLAY_SOURCE]
    text = "" if params.is_blank(value) else params.cell_text(value)
    key = text.lower().removeprefix("id").strip().removesuffix(".0")
    number = params.collection_id(key, f"Play from ({param.address})")
    if key in ("", layout.PLAY_FROM_GENERATOR.lower()):
        io.require([layout.PUZZLE_GRID, layout.STATS, layout.GEOMETRY])
        grid = generator_puzzle(io)
        where, empty = "the Generator's puzzle", "press START first"
    elif key == layout.PLAY_FROM_ANALYZE.lower():
        io.require([layout.ANALYZE_GRID, layout.ANALYZE_STRING, layout.ANALYZE_GEOMETRY])
        grid, _ = typed_puzzle(io, Changes())  # read only: the Analyze sheet stays as it is
        where, empty = "the Analyze sheet's puzzle", "type a puzzle there first"
    elif number is not None:
        io.require([layout.COLLECTION_HEADER])
        grid = _collection_puzzle(io, number)
        where, empty = f"Collection id {number}", ""
    elif key == layout.PLAY_FROM_SELECTED.lower():
        io.require([layout.COLLECTION_HEADER])
        wanted = _selected_id(io, param.address)
        grid = _collection_puzzle(io, wanted)
        where, empty = f"Collection id {wanted} (the selected row)", ""
    else:
        raise params.ParamError(
            [
                f"Play from ({param.address}) must be {layout.PLAY_FROM_GENERATOR}, "
                f"{layout.PLAY_FROM_ANALYZE}, {layout.PLAY_FROM_SELECTED} or a Collection id "
                "such as 7, got "
                f"{params.shown(value)}"
            ]
        )
    if grid.given_count == 0:
        raise params.ParamError([f"{where[:1].upper()}{where[1:]} is empty: {empty}"])
    return grid, where


def _selected_id(io: CellIO, address: str) -> int:
    """Return the id of the Collection row selected (the active cell on the Collection sheet)."""
    header_row = layout.parse_cell(layout.NAMES[layout.COLLECTION_HEADER].top_left)[0]
    row = io.selected_row(layout.COLLECTION)
    rows = io.table_rows(layout.COLLECTION_HEADER)
    index = -1 if row is None else row - header_row - 1
    if not 0 <= index < len(rows) or not rows[index] or not is_whole(rows[index][0]):
        raise params.ParamError(
            [
                f"Play from ({address}) is {layout.PLAY_FROM_SELECTED}, but no Collection row is "
                "selected: select a row of the Collection sheet and run play from there (the "
                "xlwings Lite or Server pane), or type the row's id"
            ]
        )
    return int(rows[index][0])


def _collection_puzzle(io: CellIO, wanted: int) -> Grid:
    """Return the puzzle of the Collection row with id *wanted*."""
    for row in io.table_rows(layout.COLLECTION_HEADER):
        if row and is_whole(row[0]) and int(row[0]) == wanted:
            shape = str(Collection.value(row, "geometry") or layout.CLASSIC_NAME).strip()
            text = str(Collection.value(row, "puzzle") or "").strip()
            try:
                return Grid.parse(text, params.geometry_of(shape))
            except (SudokuError, KeyError) as error:
                raise params.ParamError([f"Collection id {wanted}: {error}"]) from None
    raise params.ParamError([f"No Collection row has id {wanted}: SAVE or IMPORT it first"])


def play(io: CellIO) -> Outcome:
    """PLAY: put the puzzle Play from names on the play grid, givens locked, ready to solve.

    The givens go to the grid and to the hidden PlayGivens block, which locks them (the
    grid's validation refuses a digit typed over a given) and draws them apart from the
    player's entries (conditional formats: givens bold black, entries blue).  The pencil
    marks, the hint and every colour start afresh.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        grid, where = _play_source(io, io.read(layout.PLAY_SOURCE))
        found = solutions(grid, 2)
        if len(found) != 1:
            what = "no solution" if not found else "more than one solution"
            raise params.ParamError(
                [f"{where[:1].upper()}{where[1:]} has {what}: only a puzzle with one is played"]
            )
        geo = grid.geometry
        changes.write(layout.PLAY_GEOMETRY, geo.name)
        changes.write(layout.PLAY_GIVENS, render.block_rows(grid))
        changes.write(layout.PLAY_GRID, render.block_rows(grid))
        changes.clear(layout.PLAY_MARKS)
        changes.clear(layout.PLAY_HINT)
        plain_look(changes, geo, layout.PLAY_GRID)
        start = {layout.PLAY_GRID: _corner(render.block_rows(grid), geo.size)}
        _start_clock(changes, start | {layout.PLAY_MARKS: _corner([], geo.size)}, time.time())
        left = geo.cell_count - grid.given_count
        return (
            f"Playing {where} ({geo.name}, {grid.given_count} givens): {left} cells to fill. "
            "Type digits into the grid and pencil marks beside it; CHECK marks wrong entries, "
            "HINT gives the next step from where you stand.",
            grid,
        )

    return run_action(io, "play", layout.PLAY_STATUS, PLAY_NAMES, body)


def _read_game(io: CellIO, changes: Changes) -> Game:
    """Return the game on the Play sheet, queueing the givens' return when one was changed.

    Raises:
        params.ParamError: no game (PLAY not pressed), or a cell that holds no digit.
    """
    press_play = "the Play sheet has no puzzle: choose one in Play from and press PLAY"
    shape = io.read(layout.PLAY_GEOMETRY)
    if params.is_blank(shape) or str(shape).strip() not in layout.GEOMETRIES:
        raise params.ParamError([press_play[:1].upper() + press_play[1:]])
    geo = params.geometry_of(str(shape).strip())
    puzzle = params.read_block(layout.PLAY_GIVENS, as_rows(io.read(layout.PLAY_GIVENS)), geo)
    found = solutions(puzzle, 2) if puzzle.given_count else []
    if len(found) != 1:
        raise params.ParamError([f"The givens were changed and {press_play}"])
    digits = params.read_entries(layout.PLAY_GRID, as_rows(io.read(layout.PLAY_GRID)), geo)
    restored = tuple(
        cell for cell, given in enumerate(puzzle.cells) if given and digits[cell] != given
    )
    for cell in restored:
        digits[cell] = puzzle[cell]
    if restored:
        changes.write(layout.PLAY_GRID, render.block_rows(Grid(tuple(digits), geo)))
    return Game(puzzle, found[0], tuple(digits), restored)


def check(io: CellIO, now: float | None = None) -> Outcome:
    """CHECK: mark each wrong entry against the solution, and say how many cells are left.

    Only the wrong entries are coloured; no correct digit is shown anywhere, and the pencil
    marks stay as they are.  The status gives the time since PLAY (*now*: the time, seconds
    since the epoch), and "Solved in mm:ss" once the grid is complete and right.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        plain_look(changes, geo, layout.PLAY_GRID)
        changes.clear(layout.PLAY_HINT)
        wrong = game.wrong
        changes.fill(layout.PLAY_GRID, render.WRONG_COLOUR, render.offsets(wrong, geo))
        entries = len(game.entries)
        left = f"{plural(game.left, 'cell')} left to fill"
        clock = _timed(io, changes, not wrong and not game.left, now or time.time())
        if not wrong and not game.left:
            solved = clock if clock.startswith("Solved") else "Solved"
            status = f"{solved}: all {geo.cell_count} cells are right. Press PLAY for another."
            clock = ""
        elif wrong:
            cells = render.cells_text(layout.PLAY_GRID, wrong, geometry=geo)
            verb = "are" if len(wrong) > 1 else "is"
            some = f"{len(wrong)} of your {entries} entries" if entries > 1 else "Your entry"
            status = f"{some} {verb} wrong, marked red: {cells}. {left}."
        elif entries:
            every = f"Your {entries} entries are all" if entries > 1 else "Your entry is"
            status = f"{every} right; {left}."
        else:
            status = f"No entries yet; {left}."
        return _restored_note(game) + status + clock, wrong

    return run_action(io, "check", layout.PLAY_STATUS, PLAY_NAMES, _remembered(body, "CHECK"))


def play_hint(io: CellIO) -> Outcome:
    """HINT on the Play sheet: the next step from the player's own entries and pencil marks.

    A wrong entry comes first ("r3c5 is wrong"), then pencil marks that leave out the digit a
    cell needs (which digit is not said); else the next technique, more of it on each press as
    on the Analyze sheet: press 3 applies it (a placement becomes an entry, eliminations
    rewrite the marks of the cells they touch).  A hint left from another position is cleared.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        plain_look(changes, geo, layout.PLAY_GRID)
        changes.clear(layout.PLAY_HINT)
        if game.wrong:
            cell = game.wrong[0]
            changes.fill(layout.PLAY_GRID, render.WRONG_COLOUR, render.offsets([cell], geo))
            text = f"{render.cell_label(layout.PLAY_GRID, cell, geo)} is wrong."
            changes.write(layout.PLAY_HINT, text + " Clear it or type another digit.")
            more = len(game.wrong) - 1
            rest = f" {more} more wrong: CHECK marks them all." if more else ""
            return _restored_note(game) + text + rest, cell
        if not game.left:
            return _restored_note(game) + "Solved: every cell is right; nothing left to hint.", None
        marks_block = as_rows(io.read(layout.PLAY_MARKS))
        board, missing = player_board(game, params.read_candidates(marks_block, geo))
        if missing:
            cell = missing[0]
            spot = render.offsets([cell], geo)
            changes.fill(layout.PLAY_MARKS, render.WRONG_COLOUR, spot)
            text = (
                f"Your pencil marks in {render.cell_label(layout.PLAY_GRID, cell, geo)} leave "
                "out the digit that belongs there."
            )
            changes.write(layout.PLAY_HINT, text)
            return _restored_note(
                game
            ) + text + " Look at that cell's row, column and box again.", cell
        blocks = (layout.PLAY_HINT, layout.PLAY_GRID, layout.PLAY_MARKS)
        step = next_step(board, game.puzzle, rating_profile(io), game.solution)
        result = show_hint(io, changes, board, step, blocks)
        status = f"Hint {result.level} of 3."
        step = result.step
        if step is None or result.level < 3:
            return _restored_note(game) + status + " Press HINT again for more.", result
        after = board.apply(step)
        if step.placements:
            changes.write(layout.PLAY_GRID, render.block_rows(after.grid))
        touched = {e.cell for e in step.eliminations} | {p.cell for p in step.placements}
        rows = [list(row) for row in marks_block]
        for cell in touched:
            r, c = divmod(cell, geo.size)
            keep = after.values[cell] == 0
            rows[r][c] = render.candidates_text(after.cands[cell], geo) if keep else ""
        changes.write(layout.PLAY_MARKS, rows)
        status += " Applied: " + applied_text(step) + " Press HINT for the next step."
        return _restored_note(game) + status, result

    return run_action(
        io, "play_hint", layout.PLAY_STATUS, [*PLAY_NAMES, layout.RATING], _remembered(body, "HINT")
    )


def play_solve(io: CellIO) -> Outcome:
    """SOLVE on the Play sheet: fill the rest of the grid (wrong entries corrected, said so)."""

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        plain_look(changes, geo, layout.PLAY_GRID)
        changes.clear(layout.PLAY_HINT)
        changes.clear(layout.PLAY_MARKS)
        changes.write(layout.PLAY_GRID, render.block_rows(game.solution))
        wrong = game.wrong
        status = f"Solved: {plural(game.left, 'cell')} filled in"
        if wrong:
            cells = render.cells_text(layout.PLAY_GRID, wrong, geometry=geo)
            noun = "entries" if len(wrong) > 1 else "entry"
            status += f"; {len(wrong)} wrong {noun} corrected: {cells}"
        return _restored_note(game) + status + ".", game.solution

    return run_action(io, "play_solve", layout.PLAY_STATUS, PLAY_NAMES, _remembered(body, "SOLVE"))


# -- Play comforts: the clock, the history UNDO steps through, FILL CANDIDATES ----------------
#
# A state is the Play grid and the pencil marks as the sheet holds them (the shape's corner,
# each cell's value as read), kept as JSON text in one hidden cell.  The clock row holds when
# PLAY started, the seconds CHECK first found the grid solved in, and the state the last Play
# button left; the history rows hold the states before each move, the oldest first.  A move is
# what one Play button changed, or what the player typed between two presses (Python sees the
# sheet only when a button runs, so entries typed between two presses are one move).

State = dict[str, list[list[Any]]]


def _normal(value: Any) -> Any:
    """Return a cell value as a state keeps it: "" for blank, whole numbers as int."""
    if value is None or value == "":
        return ""
    if is_whole(value):
        return int(value)
    return value if isinstance(value, str) else str(value)


def _corner(block: Any, side: int) -> list[list[Any]]:
    rows = as_rows(block)
    return [
        [_normal(rows[r][c]) if r < len(rows) and c < len(rows[r]) else "" for c in range(side)]
        for r in range(side)
    ]


def _read_state(io: CellIO, side: int) -> State:
    """Return the Play grid and pencil marks as they are on the sheet now."""
    return {
        layout.PLAY_GRID: _corner(io.read(layout.PLAY_GRID), side),
        layout.PLAY_MARKS: _corner(io.read(layout.PLAY_MARKS), side),
    }


def _state_after(state: State, changes: Changes, side: int) -> State:
    """Return *state* as the queued *changes* leave it (their writes to the grid and marks)."""
    after = {name: [list(row) for row in rows] for name, rows in state.items()}
    for method, args in changes.operations:
        if args and args[0] in after and method in ("write", "clear"):
            value = args[1] if method == "write" else None
            after[args[0]] = _corner(value, side) if value is not None else _corner([], side)
    return after


def _state_text(state: State) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def _state_of(text: Any) -> State | None:
    """Return the state kept as *text*, or None (blank, or not one this module wrote)."""
    if not isinstance(text, str) or not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    names = (layout.PLAY_GRID, layout.PLAY_MARKS)
    if not isinstance(value, dict) or any(not isinstance(value.get(n), list) for n in names):
        return None
    return {name: value[name] for name in names}


def _clock(io: CellIO) -> list[Any]:
    """Return the clock row: [started (seconds since the epoch), solved in, last state]."""
    row = as_rows(io.read(layout.PLAY_CLOCK))[0]
    return [*row, None, None, None][:3]


def _history(io: CellIO) -> list[list[Any]]:
    """Return the moves kept, the oldest first: [state text, what the move was]."""
    return [list(row[:2]) for row in as_rows(io.read(layout.PLAY_HISTORY)) if _state_of(row[0])]


def _write_history(changes: Changes, moves: list[list[Any]]) -> None:
    kept = moves[-layout.HISTORY_ROWS :]
    blank: list[list[Any]] = [["", ""]] * (layout.HISTORY_ROWS - len(kept))
    changes.write(layout.PLAY_HISTORY, kept + blank)


def _remembered(body: Body, what: str) -> Body:
    """Return *body* recording its press in the history (see :func:`_remember`)."""

    def remembering(io: CellIO, changes: Changes) -> tuple[str, Any]:
        result = body(io, changes)
        side = params.geometry_of(str(io.read(layout.PLAY_GEOMETRY)).strip()).size
        _remember(io, changes, side, what)
        return result

    return remembering


def _start_clock(changes: Changes, state: State, now: float) -> None:
    """Start the clock for a new game and forget the history of the last one."""
    changes.write(layout.PLAY_CLOCK, [[now, "", _state_text(state)]])
    _write_history(changes, [])


def _remember(io: CellIO, changes: Changes, side: int, what: str) -> None:
    """Record the moves up to the end of this press: the player's typing, then *what* it did."""
    before = _read_state(io, side)
    after = _state_after(before, changes, side)
    clock = _clock(io)
    for method, args in changes.operations:  # a clock this press has set already (CHECK)
        if method == "write" and args[0] == layout.PLAY_CLOCK:
            clock = [*as_rows(args[1])[0], None, None, None][:3]
    last = _state_of(clock[2])
    moves = _history(io)
    if last is not None and last != before:
        moves.append([_state_text(last), "your entries"])
    if after != before:
        moves.append([_state_text(before), what])
    if len(moves) != len(_history(io)):
        _write_history(changes, moves)
    if last != after:
        changes.write(layout.PLAY_CLOCK, [[clock[0], clock[1], _state_text(after)]])


def minutes(seconds: float) -> str:
    """Return *seconds* as ``mm:ss`` (``h:mm:ss`` from an hour on).

    >>> minutes(75.4), minutes(3725)
    ('01:15', '1:02:05')
    """
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    text = f"{rest // 60:02d}:{rest % 60:02d}"
    return f"{hours}:{text}" if hours else text


def _timed(io: CellIO, changes: Changes, solved: bool, now: float) -> str:
    """Return the time sentence CHECK adds; the first solved CHECK stops the clock."""
    started, solved_in, last = _clock(io)
    if not is_number(started):
        return ""
    if solved:
        if not is_number(solved_in):
            solved_in = now - float(started)
            changes.write(layout.PLAY_CLOCK, [[started, solved_in, last]])
        return f"Solved in {minutes(float(solved_in))}"
    return f" Time so far: {minutes(now - float(started))}."


def undo(io: CellIO) -> Outcome:
    """UNDO: step back one move: the entries typed since the last press, else the last press.

    The grid and the pencil marks go back to what they were before the move; the colours and
    the hint are cleared.  The history keeps the last :data:`layout.HISTORY_ROWS` moves.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, Changes())  # a game must be on the sheet; nothing is put back
        side = game.geometry.size
        now = _read_state(io, side)
        clock = _clock(io)
        last = _state_of(clock[2])
        moves = _history(io)
        if last is not None and last != now:
            target, what = last, "your entries since the last button"
        elif moves:
            text, what = moves.pop()
            target = _state_of(text) or now
            _write_history(changes, moves)
        else:
            raise params.ParamError(["Nothing to undo: no move since PLAY"])
        plain_look(changes, game.geometry, layout.PLAY_GRID)
        changes.fill(layout.PLAY_MARKS, None, None)
        changes.clear(layout.PLAY_HINT)
        for name in (layout.PLAY_GRID, layout.PLAY_MARKS):
            values = [value for row in target[name] for value in row]
            changes.write(name, render.block_rows_of(values, side))
        changes.write(layout.PLAY_CLOCK, [[clock[0], clock[1], _state_text(target)]])
        left = len(moves)
        more = f"{plural(left, 'more move')} can be undone" if left else "nothing more to undo"
        return f"Undid {what}; {more}.", target

    return run_action(io, "undo", layout.PLAY_STATUS, PLAY_NAMES, body)


def fill_candidates(io: CellIO) -> Outcome:
    """FILL CANDIDATES: write every empty cell's candidates as pencil marks.

    A cell's candidates are the digits no peer holds (givens and your entries, right or
    wrong); a filled cell's marks are cleared.  UNDO puts your own marks back.
    """

    def body(io: CellIO, changes: Changes) -> tuple[str, Any]:
        game = _read_game(io, changes)
        geo = game.geometry
        board = Board.from_grid(Grid(game.digits, geo))
        marks = [
            render.candidates_text(mask, geo) if not digit else ""
            for digit, mask in zip(board.values, board.cands, strict=True)
        ]
        changes.clear(layout.PLAY_HINT)
        changes.fill(layout.PLAY_MARKS, None, None)
        changes.write(layout.PLAY_MARKS, render.block_rows_of(marks, geo.size))
        _remember(io, changes, geo.size, "FILL CANDIDATES")
        empty = sum(1 for digit in game.digits if not digit)
        none = sum(1 for digit, mask in zip(board.values, board.cands, strict=True) if not digit
                   and not mask)  # fmt: skip
        status = f"Filled in the candidates of {plural(empty, 'empty cell')}."
        if none:
            verb = "has" if none == 1 else "have"
            status += f" {plural(none, 'cell')} {verb} none left: an entry is wrong (CHECK)."
        return _restored_note(game) + status + " UNDO puts your own marks back.", marks

    return run_action(io, "fill_candidates", layout.PLAY_STATUS, PLAY_NAMES, body)
