"""addin.params: every bad parameter value gives a message naming the parameter and its cell."""

import datetime as dt
import random

import pytest

from xlsudoku.addin import layout, params
from xlsudoku.engine.generate import GenerateError
from xlsudoku.engine.grid import CLASSIC, geometry_for_size
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry

DEFAULTS = params.defaults()
JIGSAWS = ", ".join(layout.JIGSAW_CHOICES)  # the Geometry dropdown's Jigsaws (any is typed too)
PATTERN_RULE = (
    "a preset 1-12, none, or a 9-character mask of the center box (x a given, . a blank), "
    "e.g. x.x...x.x"
)

# (parameter, raw value, the exact message)
BAD = [
    (
        "Geometry",
        "10x10",
        "Geometry (C4) must be one of 9x9, 9x9-X, 9x9-windoku, 4x4, 6x6, 12x12, 16x16, "
        f"{JIGSAWS}, got '10x10'",
    ),
    (
        "Geometry",
        None,
        f"Geometry (C4) is empty; it must be one of 9x9, 9x9-X, 9x9-windoku, 4x4, 6x6, 12x12, "
        f"16x16, {JIGSAWS}",
    ),
    ("Pattern", None, f"Pattern (C5) is empty; it must be {PATTERN_RULE}"),
    (
        "Pattern",
        "abc",
        "Pattern (C5): bad character 'a' at position 1 of pattern 'abc': use x or 1 for open, "
        ". or 0 for blank",
    ),
    ("Pattern", "x.x", "Pattern (C5): a pattern mask needs a square number of cells, got 3"),
    ("Pattern", "x...", f"Pattern (C5) must be {PATTERN_RULE}, got 'x...'"),
    ("Pattern", 2.5, f"Pattern (C5) must be {PATTERN_RULE}, got 2.5"),
    ("Pattern", float("inf"), f"Pattern (C5) must be {PATTERN_RULE}, got inf"),
    ("Pattern", 13.0, f"Pattern (C5) must be {PATTERN_RULE}, got 13"),
    ("Pattern", True, f"Pattern (C5) holds the logical value TRUE; it must be {PATTERN_RULE}"),
    ("Pattern", "#N/A", f"Pattern (C5) holds the Excel error #N/A; it must be {PATTERN_RULE}"),
    (
        "Needs",
        "teleport",
        "Needs technique (C11) must be one of the dropdown's entries (none, Full House, "
        "Hidden Single, Naked Single, ...), got 'teleport'",
    ),
    ("Opens", "abc", "Opens (C6) must be a whole number from 4 to 256, got 'abc'"),
    ("Opens", 3, "Opens (C6) must be a whole number from 4 to 256, got 3"),
    ("Opens", 257, "Opens (C6) must be a whole number from 4 to 256, got 257"),
    ("Opens", 26.4, "Opens (C6) must be a whole number from 4 to 256, got 26.4"),
    ("Opens", float("nan"), "Opens (C6) must be a whole number from 4 to 256, got nan"),
    (
        "Opens",
        "#REF!",
        "Opens (C6) holds the Excel error #REF!; it must be a whole number from 4 to 256",
    ),
    (
        "Opens",
        "=C4*26",
        "Opens (C6) holds the formula '=C4*26', which was never calculated (type a value, or "
        "open and save the file in Excel first); it must be a whole number from 4 to 256",
    ),
    (
        "Opens",
        dt.datetime(2024, 1, 26),
        "Opens (C6) holds a date or time (2024-01-26 00:00:00); it must be a whole number "
        "from 4 to 256",
    ),
    ("Trials", 0, "Trials (C7) must be a whole number from 1 to 99999, got 0"),
    ("Trials", -5, "Trials (C7) must be a whole number from 1 to 99999, got -5"),
    ("Trials", "lots", "Trials (C7) must be a whole number from 1 to 99999, got 'lots'"),
    ("Trials", None, "Trials (C7) is empty; it must be a whole number from 1 to 99999"),
    ("ShowSolution", "maybe", "Show solution (C8) must be one of No, Yes, got 'maybe'"),
    ("ShowSolution", 2, "Show solution (C8) must be one of No, Yes, got 2"),
    ("ShowSolution", None, "Show solution (C8) is empty; it must be one of No, Yes"),
    (
        "Symmetry",
        "spiral",
        "Symmetry (C9) must be one of none, rotate180, rotate90, horizontal, vertical, "
        "diagonal, antidiagonal, dihedral, got 'spiral'",
    ),
    (
        "Symmetry",
        "#DIV/0!",
        "Symmetry (C9) holds the Excel error #DIV/0!; it must be one of none, rotate180, "
        "rotate90, horizontal, vertical, diagonal, antidiagonal, dihedral",
    ),
    (
        "Difficulty",
        "impossible",
        "Difficulty (C10) must be one of any, easy, medium, hard, very hard, diabolical, "
        "beyond technique, got 'impossible'",
    ),
    (
        "Difficulty",
        3,
        "Difficulty (C10) must be one of any, easy, medium, hard, very hard, "
        "diabolical, beyond technique, got 3",
    ),
    ("Seed", -1, "Seed (C12) must be a whole number from 0 to 999999999999999 (or blank), got -1"),
    (
        "Seed",
        1.5,
        "Seed (C12) must be a whole number from 0 to 999999999999999 (or blank), got 1.5",
    ),
    (
        "Seed",
        1e16,
        "Seed (C12) must be a whole number from 0 to 999999999999999 (or blank), "
        "got 10000000000000000",
    ),
    (
        "Seed",
        "x1",
        "Seed (C12) must be a whole number from 0 to 999999999999999 (or blank), got 'x1'",
    ),
    (
        "TimeLimit",
        0,
        "Time limit (s) (C13) must be seconds from 0.1 to 3600, or cpu:SECONDS or work:UNITS in "
        "that range (or blank), got 0",
    ),
    (
        "TimeLimit",
        "soon",
        "Time limit (s) (C13) must be seconds from 0.1 to 3600, or cpu:SECONDS or work:UNITS in "
        "that range (or blank), got 'soon'",
    ),
    (
        "TimeLimit",
        7200,
        "Time limit (s) (C13) must be seconds from 0.1 to 3600, or cpu:SECONDS or work:UNITS in "
        "that range (or blank), got 7200",
    ),
    (
        "TimeLimit",
        "#NAME?",
        "Time limit (s) (C13) holds the Excel error #NAME?; it must be seconds from 0.1 to 3600, "
        "or cpu:SECONDS or work:UNITS in that range (or blank)",
    ),
    ("Rating", "hodoku", "Rating (C14) must be one of se, sukaku, got 'hodoku'"),
    ("Rating", None, "Rating (C14) is empty; it must be one of se, sukaku"),
    ("Score", "9-7", "Score (C15): the lowest score 9 is above the highest 7"),
    ("Score", "NaN", "Score (C15): scores are numbers from 1 to 12"),
    ("Score", 1e308, "Score (C15): scores are numbers from 1 to 12"),
    (
        "Score",
        "abc",
        "Score (C15): 'abc' is not a number (write MIN-MAX or MIN-, e.g. 7.0-8.0 or 9-)",
    ),
    (
        "Score",
        True,
        "Score (C15) holds the logical value TRUE; it must be a range of ratings MIN-MAX or "
        "MIN-, e.g. 7.0-8.0 or 9- (or blank)",
    ),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD)
def test_bad_value_names_parameter_and_cell(name, value, message):
    with pytest.raises(params.ParamError) as caught:
        params.read_start(DEFAULTS | {name: value})
    assert str(caught.value) == message


def test_numbers_too_long_to_write_out_are_refused_by_name():
    # found by the soak's fuzzing: str() of a 5001-digit int raises, and Pattern tracebacked
    for name, rule in (("Pattern", PATTERN_RULE), ("Opens", "a whole number from 4 to 256")):
        for value in (10**5000, -(10**5000)):
            with pytest.raises(params.ParamError) as caught:
                params.read_start(DEFAULTS | {name: value})
            cell = layout.PARAMS_BY_NAME[name].ref.top_left
            assert str(caught.value).endswith(f"({cell}) must be {rule}, got a huge number")


def test_string_cell_with_a_number_too_long_for_a_puzzle_names_the_cell():
    # 10**5000 cannot be written out nor made a float: a traceback once, like Pattern's
    for value, shown in ((10**5000, "a huge number"), (10**300, "the number 1E+300")):
        with pytest.raises(params.ParamError) as caught:
            params.read_string("AnalyzeString", value)
        assert str(caught.value).startswith(f"AnalyzeString (C3) holds {shown}, not the puzzle")


def test_every_parameter_has_bad_cases():
    assert {name for name, _, _ in BAD} == {param.name for param in layout.PARAMS}


def test_all_problems_are_reported_together():
    with pytest.raises(params.ParamError) as caught:
        params.read_start(DEFAULTS | {"Opens": "x", "Trials": 0, "Symmetry": "?"})
    assert [p.split(" ", 1)[0] for p in caught.value.problems] == ["Opens", "Trials", "Symmetry"]


# (parameter, raw value, the value read)
GOOD = [
    ("Opens", "26", 26),
    ("Opens", 80, 80),
    ("Trials", "1,000", 1000),
    ("ShowSolution", True, "Yes"),
    ("ShowSolution", False, "No"),
    ("ShowSolution", "yes", "Yes"),
    ("ShowSolution", "TRUE", "Yes"),
    ("Symmetry", "Rotate 90", "rotate90"),
    ("Symmetry", "180", "rotate180"),
    ("Difficulty", "Very Hard", "very hard"),
    ("Difficulty", "ANY", "any"),
    ("Seed", None, None),
    ("Seed", "   ", None),
    ("Seed", 999999999999999.0, 999999999999999),
    ("TimeLimit", 0.5, 0.5),
    ("TimeLimit", "2.5", 2.5),
    ("Score", None, None),
    ("Score", " 7-8 ", "7.0-8.0"),
    ("Score", "9-", "9.0-"),
    ("Score", 7.5, "7.5-7.5"),
]


@pytest.mark.parametrize(("name", "value", "expected"), GOOD)
def test_good_values(name, value, expected):
    assert params.parse_param(layout.PARAMS_BY_NAME[name], value) == expected


def test_read_start_builds_the_parameters():
    got = params.read_start(
        DEFAULTS
        | {"Seed": 42.0, "ShowSolution": "Yes", "Difficulty": "hard", "Symmetry": "dihedral"}
    )
    assert got == params.StartParams(
        geometry=CLASSIC,
        pattern=1,
        target_givens=26,
        trials=299,
        show_solution=True,
        symmetry=Symmetry.DIHEDRAL,
        difficulty=Level.HARD,
        needs=None,
        seed=42,
        time_limit=layout.DEFAULT_TIME_LIMIT,  # a blank Time limit cell
    )


@pytest.mark.parametrize(
    ("values", "geometry", "pattern", "needs"),
    [
        ({"Pattern": "none"}, "9x9", None, None),
        ({"Pattern": "NONE", "Geometry": "16x16"}, "16x16", None, None),
        ({"Pattern": "x.x/.x./x.x"}, "9x9", 8, None),  # a mask equal to a preset is the preset
        ({"Pattern": "xx.......", "Geometry": "9x9-x"}, "9x9-X", "xx.......", None),
        ({"Pattern": "1..1.1..1"}, "9x9", "x..x.x..x", None),
        ({"Needs": "x-wing"}, "9x9", 1, Technique.X_WING),
        ({"Needs": "Forcing Chain"}, "9x9", 1, Technique.FORCING_CHAIN),
    ],
)
def test_geometry_pattern_and_needs(values, geometry, pattern, needs):
    got = params.read_start(DEFAULTS | values | {"Seed": 1})
    assert (got.geometry.name, got.pattern, got.needs) == (geometry, pattern, needs)


def test_difficulty_and_needs_exclude_each_other():
    with pytest.raises(params.ParamError) as caught:
        params.read_start(DEFAULTS | {"Difficulty": "hard", "Needs": "X-Wing"})
    assert str(caught.value) == (
        "Difficulty (C10) and Needs technique (C11): ask for a level or a technique, not both "
        "(set Difficulty to any or Needs technique to none)"
    )


def test_needs_choices_are_the_registry():
    from xlsudoku.engine.techniques import TECHNIQUES

    names = layout.PARAMS_BY_NAME["Needs"].choices
    assert names[0] == "none"
    assert set(names[1:]) == {spec.technique.value for spec in TECHNIQUES}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"Geometry": "6x6", "Opens": 14},
            "Pattern (C5) and Geometry (C4): the 6x6 grid has no center box",
        ),
        (
            {"Geometry": "4x4", "Pattern": "none"},
            "Opens (C6) and Geometry (C4): opens 26 is above 16, the cells a 4x4 puzzle can open",
        ),
        (
            {"Pattern": "x........", "Opens": 25},
            "Pattern (C5) and Symmetry (C9): pattern 'x........' is not symmetric",
        ),
    ],
)
def test_requests_the_engine_refuses_name_the_cells(values, message):
    checked = params.read_start(DEFAULTS | values | {"Seed": 1})
    with pytest.raises(params.ParamError) as caught:
        params.start_request(checked)
    assert str(caught.value).startswith(message)


def test_blank_seed_draws_a_seed_that_fits_the_cell():
    got = params.read_start(DEFAULTS, rng=random.Random(5))
    again = params.read_start(DEFAULTS, rng=random.Random(5))
    assert got.seed_was_blank and got.seed == again.seed
    assert 0 <= got.seed <= layout.MAX_SEED


def test_template_defaults_are_valid():
    values = {param.name: param.default for param in layout.PARAMS}
    got = params.read_start(values, rng=random.Random(1))
    assert (got.pattern, got.target_givens, got.trials, got.show_solution) == (1, 26, 299, False)
    assert got.geometry == CLASSIC and got.needs is None
    assert got.symmetry is Symmetry.ROTATE_180 and got.difficulty is None


# -- puzzles typed on the Analyze sheet ---------------------------------------------------------

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def rows_of(text):
    return [[int(ch) if ch != "." else None for ch in text[r * 9 : r * 9 + 9]] for r in range(9)]


def test_grid_reads_numbers_text_and_blanks():
    rows = rows_of(PUZZLE)
    rows[0][2] = 3.0  # Excel numbers are floats
    rows[0][4] = "2"  # a digit typed as text
    rows[0][0] = 0  # zero means empty
    rows[0][1] = " "
    rows[0][3] = "."
    assert str(params.read_grid("AnalyzeGrid", rows)) == PUZZLE


@pytest.mark.parametrize(
    ("cell", "value", "message"),
    [
        ((0, 0), "x", "cell r1c1 (C6) holds 'x'; type a digit 1-9 or leave it empty"),
        ((8, 8), 10, "cell r9c9 (K14) holds 10; type a digit 1-9 or leave it empty"),
        ((2, 3), 4.5, "cell r3c4 (F8) holds 4.5; type a digit 1-9 or leave it empty"),
        (
            (4, 4),
            "#N/A",
            "cell r5c5 (G10) holds the Excel error #N/A; type a digit 1-9 or leave it empty",
        ),
        (
            (0, 1),
            True,
            "cell r1c2 (D6) holds the logical value TRUE; type a digit 1-9 or leave it empty",
        ),
        ((1, 1), 9, "digit 9 repeated in row 2: r2c1 (C7) and r2c2 (D7) (and 1 more clash)"),
        ((0, 0), 2, "digit 2 repeated in row 1: r1c1 (C6) and r1c5 (G6)"),
    ],
)
def test_grid_problems_name_the_cell(cell, value, message):
    rows = rows_of(PUZZLE)
    rows[cell[0]][cell[1]] = value
    with pytest.raises(params.ParamError) as caught:
        params.read_grid("AnalyzeGrid", rows)
    assert str(caught.value) == message


def test_many_bad_cells_are_summarised():
    rows = [["x"] * 9 for _ in range(9)]
    with pytest.raises(params.ParamError) as caught:
        params.read_grid("AnalyzeGrid", rows)
    assert len(caught.value.problems) == 4
    assert caught.value.problems[-1] == "and 78 more bad cells"


def test_grid_without_a_name_uses_sudoku_cell_names():
    rows = rows_of(PUZZLE)
    rows[0][0] = "?"
    with pytest.raises(params.ParamError, match=r"^cell r1c1 holds '\?'"):
        params.read_grid(None, rows)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123", "AnalyzeString (C3): a 9x9 puzzle needs 81 cells, found 3"),
        ("x" + PUZZLE[1:], "AnalyzeString (C3): bad character 'x' at row 1, column 1"),
        (
            "3" + PUZZLE[1:],
            "AnalyzeString (C3): digit 3 repeated in row 1: r1c1 and r1c3 (and 1 more clash)",
        ),
        ("#VALUE!", "AnalyzeString (C3) holds the Excel error #VALUE!"),
    ],
)
def test_string_problems_name_the_cell(text, message):
    with pytest.raises(params.ParamError) as caught:
        params.read_string("AnalyzeString", text)
    assert str(caught.value) == message


def test_string_accepts_zeros_and_spaces():
    assert str(params.read_string("AnalyzeString", "  " + PUZZLE.replace(".", "0") + " ")) == (
        PUZZLE
    )


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("opens 25 is odd", "Opens (C6): opens 25 is odd"),
        ("trials must be at least 1, got 0", "Trials (C7): trials must be at least 1, got 0"),
        ("pattern: bad", "Pattern (C5) and Symmetry (C9): bad"),
        (GenerateError("pattern: bad", ("pattern",)), "Pattern (C5): bad"),
        (
            GenerateError("pattern: bad", ("pattern", "symmetry")),
            "Pattern (C5) and Symmetry (C9): bad",
        ),
        ("something else", "something else"),
    ],
)
def test_engine_problems_get_the_cell(message, expected):
    assert params.engine_problem(message) == expected


@pytest.mark.parametrize(
    ("values", "cells"),
    [
        ({"Opens": 25}, ["Opens (C6)", "Pattern (C5)", "Symmetry (C9)"]),
        ({"Opens": 24, "Pattern": 7}, ["Opens (C6)", "Pattern (C5)", "Symmetry (C9)"]),
        ({"Opens": 16, "Pattern": "none"}, ["Opens (C6)", "Geometry (C4)"]),
        ({"Opens": 200, "Geometry": "12x12", "Pattern": "none"}, ["Opens (C6)", "Geometry (C4)"]),
        ({"Opens": 81}, ["Opens (C6)", "Geometry (C4)", "Pattern (C5)"]),
        (
            {"Opens": 26, "Pattern": "none", "Symmetry": "rotate90"},
            ["Opens (C6)", "Symmetry (C9)"],
        ),
        ({"Geometry": "16x16", "Opens": 100}, ["Pattern (C5)", "Geometry (C4)"]),
    ],
)
def test_a_conflict_names_every_cell_in_it(values, cells):
    """Parameters that contradict each other are named together, each with its cell."""
    checked = params.read_start(DEFAULTS | values | {"Seed": 1})
    with pytest.raises(params.ParamError) as caught:
        params.start_request(checked)
    named = str(caught.value).split(": ", 1)[0]
    assert sorted(named.replace(" and ", ", ").split(", ")) == sorted(cells)


# -- shapes, pencil marks, Collection tools ------------------------------------------------------


def test_block_reads_the_corner_of_its_shape():
    block = [[None] * 16 for _ in range(16)]
    text = "1.3.2............." + "." * 98 + "ABCDEFG" + "." * 137
    geo = geometry_for_size(16)
    for index, ch in enumerate(text):
        if ch != ".":
            block[index // 16][index % 16] = ch if ch.isalpha() else int(ch)
    block[8][0] = "16"  # a number above 9 typed as text
    grid = params.read_block("AnalyzeGrid", block, geo)
    assert grid[0] == 1 and grid[2] == 3 and grid[8 * 16] == 16
    assert [grid[c] for c in range(116, 123)] == [10, 11, 12, 13, 14, 15, 16]


def test_block_refuses_digits_outside_the_shape():
    block = [[None] * 16 for _ in range(16)]
    block[0][0] = 5
    block[9][3] = 2
    with pytest.raises(params.ParamError) as caught:
        params.read_block("AnalyzeGrid", block, CLASSIC)
    assert str(caught.value) == (
        "cell F15 holds 2 but is outside the 9x9 grid: set Geometry to the puzzle's shape, "
        "or clear the cell"
    )


def test_block_names_cells_of_big_shapes():
    block = [[None] * 16 for _ in range(16)]
    block[15][15] = 17
    with pytest.raises(params.ParamError) as caught:
        params.read_block("AnalyzeGrid", block, geometry_for_size(16))
    assert str(caught.value) == "cell r16c16 (R21) holds 17; type a number 1-16 or leave it empty"


@pytest.mark.parametrize(
    ("length", "chosen", "expected"),
    [
        (81, "9x9", "9x9"),
        (81, "9x9-X", "9x9-X"),
        (256, "9x9", "16x16"),
        (16, "9x9", "4x4"),
        (80, "6x6", "6x6"),
    ],
)
def test_string_geometry(length, chosen, expected):
    assert params.string_geometry("." * length, params.geometry_of(chosen)).name == expected


def test_candidates_round_trip():
    from xlsudoku.addin import render
    from xlsudoku.engine.board import Board
    from xlsudoku.engine.grid import Grid

    for size in (4, 6, 9, 12, 16):
        geo = geometry_for_size(size)
        board = Board.from_grid(Grid.parse("1" + "." * (size * size - 1), geo))
        block = render.candidates_block(board.values, board.cands, geo)
        read = params.read_candidates(block, geo)
        assert read == [mask or None for mask in board.cands]


@pytest.mark.parametrize(
    ("text", "ids"),
    [("7", [7]), (7.0, [7]), ("1, 3-5", [1, 3, 4, 5]), ("2;2, 1", [2, 1]), (" 10 - 11 ", [10, 11])],
)
def test_read_ids(text, ids):
    assert params.read_ids(text) == ids


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "Delete ids (C33) is empty: type the ids of the rows to delete"),
        ("1, a", "Delete ids (C33) must list ids such as 3, 5-7; 'a' is not one"),
        ("5-3", "Delete ids (C33): the range '5-3' runs backwards or is huge"),
    ],
)
def test_read_ids_problems(text, message):
    with pytest.raises(params.ParamError) as caught:
        params.read_ids(text)
    assert str(caught.value) == message


def test_a_jigsaw_geometry_is_read_and_its_layout_checked():
    rule = layout.PARAMS_BY_NAME[layout.GEOMETRY]
    assert params.read_geometry(rule, "9x9-Jigsaw:Comb").name == "9x9-jigsaw:comb"
    own = "112222333111122333111222333" + "444555666" * 3 + "777888999" * 3
    assert params.read_geometry(rule, "9x9-jigsaw:" + own).regions == own
    with pytest.raises(
        params.ParamError, match=r"^Geometry \(C4\): jigsaw layout: region '4' is not connected"
    ):
        params.read_geometry(rule, "9x9-jigsaw:4" + own[1:27] + "1" + own[28:])
