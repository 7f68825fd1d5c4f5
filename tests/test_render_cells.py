"""xlsudoku.addin.render: engine results become cell values shaped like their defined names."""

import datetime as dt

import pytest

from xlsudoku.addin import layout, render
from xlsudoku.engine.analysis import analyze
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.hints import hint
from xlsudoku.engine.ranks import RankRound, Ranks
from xlsudoku.engine.symmetry import Symmetry

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def shape(block):
    return len(block), {len(row) for row in block}


@pytest.fixture(scope="module")
def result():
    return generate(GenerateRequest(target_givens=24, seed=11))


def test_grid_rows():
    rows = render.grid_rows(Grid.parse(PUZZLE))
    assert shape(rows) == (9, {9})
    assert rows[0] == ["", "", 3, "", 2, "", 6, "", ""]
    assert rows[8] == ["", "", 5, "", 1, "", 3, "", ""]
    assert render.grid_rows(None) == [[""] * 9 for _ in range(9)]


@pytest.mark.parametrize(
    ("name", "cell", "label"),
    [
        ("AnalyzeGrid", 0, "r1c1 (C6)"),
        ("AnalyzeGrid", 40, "r5c5 (G10)"),
        ("PuzzleGrid", 80, "r9c9 (N12)"),
        ("PuzzleGrid", 9, "r2c1 (F5)"),
    ],
)
def test_cell_label(name, cell, label):
    assert render.cell_label(name, cell) == label


def test_stats_block(result):
    analysis = analyze(result.puzzle, solution=result.solution)
    graded = analysis.graded()
    block = render.stats_block(result, analysis)
    assert shape(block) == (layout.NAMES[layout.STATS].shape[0], {2})
    stats = dict(map(tuple, block))
    assert list(stats) == list(layout.STATS_LABELS)
    assert stats["Opens"] == result.givens == 24
    assert stats["Target reached"] == render.target_text(result, analysis)
    assert stats["Target reached"].startswith("Yes: 24 opens" if result.reached else "No: asked 24")
    assert stats["Minimal"] == ("Yes" if result.minimal else "No")
    assert stats["Trials used"] == result.trials_used
    assert stats["Grids tried"] == result.grids_tried
    assert stats["Seed"] == 11
    assert stats["Level"] == graded.level.label
    assert stats["Score"] == round(graded.score, 1)
    assert stats["Hardest technique"] == graded.hardest.value
    assert abs(stats["Seconds"] - result.seconds) < 0.001


def test_stats_block_unreached():
    unreached = generate(
        GenerateRequest(target_givens=18, pattern=4, trials=1, seed=2, time_limit=0.1)
    )
    stats = dict(map(tuple, render.stats_block(unreached, None)))
    reached = f"No: asked 18 opens; missed the opens (got {unreached.givens})"
    assert stats["Target reached"] == reached and stats["Level"] == ""


def test_rank_block_matches_the_ranks(result):
    ranks = analyze(result.puzzle, solution=result.solution, ranks=True).ranks
    block = render.rank_block(ranks)
    assert shape(block) == (layout.RANK_ROWS, {2})
    filled = [row for row in block if row != ["", ""]]
    assert [row[1] for row in filled] == list(ranks.cells_per_rank)
    assert filled[0][0] == "rank 1"
    assert sum(row[1] for row in filled) == 81 - 24


def test_rank_block_overflow_and_techniques():
    rounds = tuple(RankRound(n, tuple(range(n))) for n in range(1, 24))
    rounds += (RankRound(24, (1, 2), True, ("X-Wing", "XY-Wing")),)
    block = render.rank_block(Ranks(rounds, givens=0), rows=20)
    assert block[0] == ["rank 1", 1] and block[18] == ["rank 19", 19]
    assert block[19] == ["ranks 20-24", 20 + 21 + 22 + 23 + 2]
    small = render.rank_block(Ranks(rounds[-1:], givens=79), rows=2)
    assert small == [["rank 24 (X-Wing, XY-Wing)", 2], ["", ""]]


def test_collection_row(result):
    analysis = analyze(result.puzzle, solution=result.solution, ranks=True)
    graded = analysis.graded()
    row = render.collection_row(
        id_=3,
        when=dt.datetime(2024, 2, 29, 23, 59, 58),
        puzzle=result.puzzle,
        solution=result.solution,
        pattern=1,
        symmetry=Symmetry.ROTATE_180,
        facts=render.Facts.of(analysis),
        seed=result.seed,
    )
    record = dict(zip(layout.COLLECTION_COLUMNS, row, strict=True))
    assert record["id"] == 3 and record["saved at"] == dt.datetime(2024, 2, 29, 23, 59, 58)
    assert record["geometry"] == "9x9" and record["notes"] == ""
    assert record["puzzle"] == str(result.puzzle) and len(record["puzzle"]) == 81
    assert record["solution"] == str(result.solution) and "." not in record["solution"]
    assert record["opens"] == 24 and record["pattern"] == 1 and record["symmetry"] == "rotate180"
    assert record["level"] == graded.level.label and record["score"] == round(graded.score, 1)
    assert [int(x.rstrip("*")) for x in record["ranks"].split(", ")] == list(
        analysis.ranks.cells_per_rank
    )
    assert record["seed"] == 11


def test_report_unique():
    grid = Grid.parse(PUZZLE)
    lines = [row[0] for row in render.report_lines(grid, analyze(grid))]
    assert len(lines) == layout.REPORT_LINES
    assert lines[:4] == [
        f"Puzzle (9x9): {PUZZLE}",
        "Givens: 32",
        "Valid: yes (no digit repeats)",
        "Solutions: exactly one",
    ]
    # the level (human-style solver) and the rating (the profile's path) named apart
    assert lines[4] == "Grade: Easy; SE rating 1.2 (hardest step: Hidden Single)"
    assert lines[5].startswith("Techniques used (se rating path): ")
    assert lines[6:] == [""] * (layout.REPORT_LINES - 6)


def test_report_several_solutions():
    # the two-solution grid of xlsudoku.engine.analysis' doctest: r1c1/r1c2/r4c1/r4c2 swap 1 and 2
    text = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"
    grid = Grid.parse(text)
    lines = [row[0] for row in render.report_lines(grid, analyze(grid))]
    assert lines[3] == "Solutions: two or more; two of them are shown below, side by side"
    assert lines[4] == (
        "They differ in 4 cells (coloured): r1c1 (C6), r1c2 (D6), r4c1 (C9), r4c2 (D9)"
    )
    assert lines[5] == "Clue to add (marked): 1 in r1c1 (C6) makes the solution unique"


def test_report_lines_are_never_cut():
    grid = Grid.parse("." * 255 + "1")
    lines = [row[0] for row in render.report_lines(grid, analyze(grid))]
    assert all(len(line) <= layout.REPORT_WIDTH for line in lines)
    shown = " ".join(line.strip() for line in lines)
    assert str(grid) in shown.replace(" ", "") or "more lines" in lines[-1]
    assert lines[0].startswith("Puzzle (16x16): ") and lines[1].startswith("  ")


def test_block_rows_and_candidates():
    from xlsudoku.engine.grid import geometry_for_size

    geo = geometry_for_size(16)
    grid = Grid.parse("G" + "." * 255, geo)
    block = render.block_rows(grid)
    assert block[0][0] == 16 and block[15][15] == ""
    assert render.candidates_text(geo.all_digits, geo) == "1234\n5678\n9ABC\nDEFG"
    assert render.candidates_text(0b1010, geometry_for_size(4)) == "\u00a02\n\u00a04"


@pytest.mark.parametrize(
    ("side", "cell"), [(4, 126.0), (6, 84.0), (9, 56.0), (12, 42.0), (16, 31.5)]
)
def test_print_sizes_fill_the_square(side, cell):
    from xlsudoku.engine.grid import geometry_for_size

    sizes = render.print_sizes(geometry_for_size(side))
    assert sizes == [cell] * side + [0.0] * (16 - side)
    assert sum(sizes) == pytest.approx(layout.PRINT_SQUARE)


def test_report_no_solution():
    grid = Grid.parse("12345678." + "........9" + "." * 63)
    lines = [row[0] for row in render.report_lines(grid, analyze(grid))]
    assert lines[3] == "Solutions: none (the givens cannot all be kept)"


def test_hint_text_levels():
    grid = Grid.parse(PUZZLE)
    assert render.hint_text(hint(grid, 1)) == "Hint 1 of 3: Look for a Hidden Single in box 1."
    assert render.hint_text(hint(grid, 3)) == (
        "Hint 3 of 3: Hidden single: 6 can only go in r2c2 within box 1.\nSo: place 6 in r2c2."
    )
