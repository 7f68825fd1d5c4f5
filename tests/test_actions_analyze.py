"""The Analyze sheet: two solutions side by side, candidates kept so HINT advances, colours.

Driven through OpenpyxlIO on the committed workbook and through xlwings' remote engine.
"""

import asyncio

import pytest
import remote_book
import xlwings as xw
import xlwings.server
from sheets import PUZZLES, block_of, fills, grid_of

from xlsudoku.addin import actions, layout, params, render, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.engine.analysis import analyze
from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import CLASSIC, Grid
from xlsudoku.engine.solver import solutions

SEVERAL = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"
ELIMINATING = PUZZLES[6][0]  # a step of its path removes candidates without placing


def candidates(io, geo=CLASSIC):
    return params.read_candidates(io.read(layout.CANDIDATES), geo)


# -- several solutions ----------------------------------------------------------------------------


def test_several_solutions_side_by_side(io, wb):
    io.write(layout.ANALYZE_GRID, block_of(SEVERAL))
    outcome = actions.analyze(io)
    assert outcome.status.startswith("Several solutions")
    first, second = (
        grid_of(io.read(layout.ANALYZE_SOLUTION)),
        grid_of(io.read(layout.ANALYZE_SOLUTION2)),
    )
    assert first != second and set(solutions(Grid.parse(SEVERAL), 3)) >= {first, second}
    differing = {divmod(c, 9) for c in range(81) if first[c] != second[c]}
    assert differing == {(0, 0), (0, 1), (3, 0), (3, 1)}
    assert fills(wb, layout.ANALYZE_SOLUTION2, render.DIFFER_COLOUR) == differing
    clue = outcome.detail.suggested_given
    spot = {divmod(clue.cell, 9)}
    assert (
        fills(wb, layout.ANALYZE_GRID, render.SUGGESTED_GIVEN_COLOUR) == spot
    )  # the clue is marked
    assert fills(wb, layout.ANALYZE_SOLUTION, render.SUGGESTED_GIVEN_COLOUR) == spot
    assert fills(wb, layout.ANALYZE_SOLUTION, render.DIFFER_COLOUR) == differing - spot
    lines = [row[0] for row in io.read(layout.ANALYZE_REPORT)]
    assert lines[5].startswith(f"Clue to add (marked): {clue.digit} in r1c1 (C6)")


def test_hint_refuses_a_puzzle_with_several_solutions(io, wb):
    io.write(layout.ANALYZE_GRID, block_of(SEVERAL))
    actions.analyze(io)
    before = io.read(layout.CANDIDATES)
    outcome = actions.hint(io)
    assert not outcome.ok
    assert outcome.status == (
        "The puzzle has several solutions: HINT needs a puzzle with exactly one. ANALYZE shows "
        "two solutions and a clue to add."
    )
    assert io.read(layout.HINT_TEXT) is None and io.read(layout.CANDIDATES) == before


# -- HINT, step by step -------------------------------------------------------------------------


def test_hint_advances_through_the_whole_solve(io):
    io.write(layout.ANALYZE_GRID, block_of(ELIMINATING))
    solution = Grid.parse(PUZZLES[6][1])
    seen_elimination = False
    texts = []
    for press in range(1, 3 * 81 + 4):
        outcome = actions.hint(io)
        assert outcome.ok, outcome.status
        if outcome.status == "The grid is full: nothing left to hint.":
            break
        texts.append(io.read(layout.HINT_TEXT))
        level = (press - 1) % 3 + 1
        assert texts[-1].startswith(f"Hint {level} of 3:"), (press, texts[-1])
        if level == 3 and "candidate" in outcome.status and "placed" not in outcome.status:
            seen_elimination = True
        # the stored candidates always keep the solution's digits
        grid = grid_of(io.read(layout.ANALYZE_GRID))
        for cell, mask in enumerate(candidates(io)):
            if not grid[cell]:
                assert mask is not None and mask >> (solution[cell] - 1) & 1
    else:
        pytest.fail("HINT never finished the puzzle")
    assert grid_of(io.read(layout.ANALYZE_GRID)) == solution
    assert seen_elimination  # an elimination step was applied, so the next press moved on
    level_3 = [text for text in texts if text.startswith("Hint 3 of 3")]
    assert len(level_3) == len(set(level_3)) == len(texts) // 3  # never the same step twice


def test_elimination_step_is_applied_to_the_candidates(io, wb):
    io.write(layout.ANALYZE_GRID, block_of(ELIMINATING))
    # HINT follows the path of the Rating cell's profile (se in the template)
    path = analyze(Grid.parse(ELIMINATING), "se").steps
    first = next(i for i, step in enumerate(path) if not step.placements)
    for _ in range(3 * first):  # the placement steps before it
        actions.hint(io)
    for press in (1, 2, 3):
        outcome = actions.hint(io)
        assert io.read(layout.HINT_TEXT).startswith(f"Hint {press} of 3: ")
    step = outcome.detail.step
    assert step == path[first] and step.eliminations and not step.placements
    marks = candidates(io)
    for elimination in step.eliminations:
        assert not marks[elimination.cell] >> (elimination.digit - 1) & 1
    # cause and effect in different colours, in the grid and the candidates
    effect = {divmod(e.cell, 9) for e in step.eliminations}
    cause = {divmod(c, 9) for c in step.cells} - effect
    for name in (layout.ANALYZE_GRID, layout.CANDIDATES):
        assert fills(wb, name, render.HINT_EFFECT_COLOUR) == effect
        assert fills(wb, name, render.HINT_CAUSE_COLOUR) == cause
    assert cause and render.HINT_CAUSE_COLOUR != render.HINT_EFFECT_COLOUR
    nxt = actions.hint(io)  # the next press: the next step, not the same one again
    assert io.read(layout.HINT_TEXT).startswith("Hint 1 of 3: ") and nxt.detail.step != step


def test_analyze_resets_the_candidates(io):
    io.write(layout.ANALYZE_GRID, block_of(ELIMINATING))
    for _ in range(12):
        actions.hint(io)
    actions.analyze(io)
    grid = grid_of(io.read(layout.ANALYZE_GRID))
    fresh = Board.from_grid(grid)
    assert candidates(io) == [mask or None for mask in fresh.cands]


def test_candidates_that_do_not_fit_are_started_afresh(io):
    io.write(layout.ANALYZE_GRID, block_of(ELIMINATING))
    solution = Grid.parse(PUZZLES[6][1])
    empty = next(c for c in range(81) if ELIMINATING[c] == ".")
    wrong = [[""] * 16 for _ in range(16)]
    wrong[empty // 9][empty % 9] = str(solution[empty] % 9 + 1)  # everything but the answer
    io.write(layout.CANDIDATES, wrong)
    outcome = actions.hint(io)
    assert "The candidates did not fit the puzzle and were started afresh." in outcome.status
    assert candidates(io)[empty] >> (solution[empty] - 1) & 1


def test_colour_legend_matches_what_the_buttons_use():
    colours = [colour for colour, _ in render.LEGEND]
    assert colours == [
        render.HINT_REGION_COLOUR,
        render.HINT_CAUSE_COLOUR,
        render.HINT_EFFECT_COLOUR,
        render.DIFFER_COLOUR,
        render.SUGGESTED_GIVEN_COLOUR,
    ]


# -- remote engine ------------------------------------------------------------------------------


def run_script(book, name):
    asyncio.run(xlwings.server.custom_scripts_call(xl, name, typehint_to_value={xw.Book: book}))
    return book.json()["actions"]


def test_analyze_and_hint_through_the_remote_engine(wb):
    io = OpenpyxlIO(wb)
    io.write(layout.ANALYZE_STRING, SEVERAL)
    json_actions = run_script(remote_book.book(wb), "analyze")
    cells = remote_book.writes(json_actions)
    second = layout.NAMES[layout.ANALYZE_SOLUTION2]
    assert cells[(second.sheet, second.cell(0, 0))] in (1, 2)
    colours = {tuple(a["args"]) for a in json_actions if a["func"] == "setRangeColor"}
    assert (render.DIFFER_COLOUR,) in colours and (render.SUGGESTED_GIVEN_COLOUR,) in colours

    io.write(layout.ANALYZE_STRING, None)
    io.write(layout.ANALYZE_GRID, block_of(ELIMINATING))
    for press in range(1, 4):
        json_actions = run_script(remote_book.book(wb), "hint")
        cells = remote_book.writes(json_actions)
        # carry the sheet's new state into the next payload, as Excel would
        for (sheet, address), value in cells.items():
            wb[sheet][address] = None if value == "" else str(value).lstrip("'")
        text = cells[(layout.ANALYZE, layout.NAMES[layout.HINT_TEXT].address)]
        assert text.startswith(f"Hint {press} of 3:")
    colours = [a["args"][0] for a in json_actions if a["func"] == "setRangeColor"]
    assert render.HINT_EFFECT_COLOUR in colours
    marks = params.read_candidates(io.read(layout.CANDIDATES), CLASSIC)
    assert any(marks)  # the pencil marks are on the sheet for the next press


def test_hint_keeps_its_candidates_in_the_file_between_headless_runs(tmp_path, capsys):
    import shutil

    import openpyxl
    from sheets import TEMPLATE

    from xlsudoku.cli import main

    book = tmp_path / "xlsudoku.xlsm"
    shutil.copy2(TEMPLATE, book)
    wb = openpyxl.load_workbook(book, keep_vba=True)
    wb[layout.ANALYZE][layout.NAMES[layout.ANALYZE_STRING].address] = ELIMINATING
    wb.save(book)
    levels = []
    path = analyze(Grid.parse(ELIMINATING), "se").steps
    first = next(i for i, step in enumerate(path) if not step.placements)
    for _ in range(3 * (first + 1)):  # the placement steps, then the elimination step
        assert main(["workbook", "hint", str(book)]) == 0
        levels.append(capsys.readouterr().out.split(".")[0])
    assert levels == ["Hint 1 of 3", "Hint 2 of 3", "Hint 3 of 3"] * (first + 1)
    saved = openpyxl.load_workbook(book)
    ref = layout.NAMES[layout.CANDIDATES]
    block = [[cell.value for cell in row] for row in saved[ref.sheet][ref.address]]
    marks = params.read_candidates(block, CLASSIC)
    board = Board.from_grid(grid_of(OpenpyxlIO(saved).read(layout.ANALYZE_GRID)))
    # fewer marks than the grid alone allows: the elimination step was kept in the file
    assert sum(bin(m or 0).count("1") for m in marks) < sum(bin(m).count("1") for m in board.cands)


# -- EXPLAIN: the whole solution in words ---------------------------------------------------------


def _steps(io):
    return [row[0] for row in io.read(layout.EXPLAIN_STEPS)]


def test_explain_writes_every_step_numbered_and_analyze_clears_them(io):
    io.write(layout.ANALYZE_STRING, ELIMINATING)
    outcome = actions.explain(io)
    assert outcome.ok, outcome.status
    want = analyze(Grid.parse(ELIMINATING), "se").explain()
    steps = _steps(io)
    assert steps[: len(want)] == want and all(line in ("", None) for line in steps[len(want) :])
    first = layout.NAMES[layout.EXPLAIN_STEPS].top_left
    assert f"{len(want)} steps" in outcome.status and first in outcome.status
    assert actions.analyze(io).ok
    assert all(line in ("", None) for line in _steps(io))


def test_explain_follows_the_rating_cell(io):
    io.write(layout.ANALYZE_STRING, PUZZLES[0][0])
    io.write(layout.RATING, "sukaku")
    assert actions.explain(io).ok
    want = analyze(Grid.parse(PUZZLES[0][0]), "sukaku").explain()
    assert _steps(io)[: len(want)] == want


def test_explain_refuses_a_puzzle_without_one_solution(io):
    io.write(layout.ANALYZE_GRID, block_of(SEVERAL))
    outcome = actions.explain(io)
    assert not outcome.ok
    assert outcome.status.startswith("The puzzle has several solutions: EXPLAIN needs")
    assert all(line in ("", None) for line in _steps(io))


def test_a_path_longer_than_the_rows_says_how_many_are_not_shown():
    lines = [f"{n}. step" for n in range(1, layout.EXPLAIN_ROWS + 6)]
    block = render.steps_block(lines)
    assert len(block) == layout.EXPLAIN_ROWS
    assert block[-2] == [f"{layout.EXPLAIN_ROWS - 1}. step"]
    assert block[-1][0].startswith(f"Steps {layout.EXPLAIN_ROWS}-{len(lines)} (6 of {len(lines)})")


def test_explain_through_the_remote_engine(wb):
    io = OpenpyxlIO(wb)
    io.write(layout.ANALYZE_STRING, ELIMINATING)
    json_actions = run_script(remote_book.book(wb), "explain")
    cells = remote_book.writes(json_actions)
    ref = layout.NAMES[layout.EXPLAIN_STEPS]
    want = analyze(Grid.parse(ELIMINATING), "se").explain()
    assert cells[(ref.sheet, ref.cell(0, 0))] == want[0]
    assert cells[(ref.sheet, ref.cell(len(want) - 1, 0))] == want[-1]
