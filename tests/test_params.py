"""addin.params: every bad parameter value gives a message naming the parameter and its cell."""

import datetime as dt
import random

import pytest

from xlsudoku.addin import layout, params
from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry

DEFAULTS = {
    "Pattern": 1,
    "Opens": 26,
    "Trials": 299,
    "ShowSolution": "No",
    "Symmetry": "rotate180",
    "Difficulty": "any",
    "Seed": None,
    "TimeLimit": None,
}

# (parameter, raw value, the exact message)
BAD = [
    ("Pattern", None, "Pattern (C4) is empty; it must be a whole number from 1 to 12"),
    ("Pattern", "", "Pattern (C4) is empty; it must be a whole number from 1 to 12"),
    ("Pattern", "abc", "Pattern (C4) must be a whole number from 1 to 12, got 'abc'"),
    ("Pattern", 2.5, "Pattern (C4) must be a whole number from 1 to 12, got 2.5"),
    ("Pattern", 0, "Pattern (C4) must be a whole number from 1 to 12, got 0"),
    ("Pattern", 13.0, "Pattern (C4) must be a whole number from 1 to 12, got 13"),
    ("Pattern", True, "Pattern (C4) must be a whole number from 1 to 12, got TRUE"),
    (
        "Pattern",
        "#N/A",
        "Pattern (C4) holds the Excel error #N/A; it must be a whole number from 1 to 12",
    ),
    ("Opens", "abc", "Opens (C5) must be a whole number from 17 to 80, got 'abc'"),
    ("Opens", 16, "Opens (C5) must be a whole number from 17 to 80, got 16"),
    ("Opens", 81, "Opens (C5) must be a whole number from 17 to 80, got 81"),
    ("Opens", 26.4, "Opens (C5) must be a whole number from 17 to 80, got 26.4"),
    ("Opens", float("nan"), "Opens (C5) must be a whole number from 17 to 80, got nan"),
    (
        "Opens",
        "#REF!",
        "Opens (C5) holds the Excel error #REF!; it must be a whole number from 17 to 80",
    ),
    (
        "Opens",
        "=C4*26",
        "Opens (C5) holds the formula '=C4*26', which was never calculated (type a value, or "
        "open and save the file in Excel first); it must be a whole number from 17 to 80",
    ),
    (
        "Opens",
        dt.datetime(2024, 1, 26),
        "Opens (C5) holds a date or time (2024-01-26 00:00:00); it must be a whole number "
        "from 17 to 80",
    ),
    ("Trials", 0, "Trials (C6) must be a whole number from 1 to 99999, got 0"),
    ("Trials", -5, "Trials (C6) must be a whole number from 1 to 99999, got -5"),
    ("Trials", "lots", "Trials (C6) must be a whole number from 1 to 99999, got 'lots'"),
    ("Trials", None, "Trials (C6) is empty; it must be a whole number from 1 to 99999"),
    ("ShowSolution", "maybe", "Show solution (C7) must be one of No, Yes, got 'maybe'"),
    ("ShowSolution", 2, "Show solution (C7) must be one of No, Yes, got 2"),
    ("ShowSolution", None, "Show solution (C7) is empty; it must be one of No, Yes"),
    (
        "Symmetry",
        "spiral",
        "Symmetry (C8) must be one of none, rotate180, rotate90, horizontal, vertical, "
        "diagonal, antidiagonal, dihedral, got 'spiral'",
    ),
    (
        "Symmetry",
        "#DIV/0!",
        "Symmetry (C8) holds the Excel error #DIV/0!; it must be one of none, rotate180, "
        "rotate90, horizontal, vertical, diagonal, antidiagonal, dihedral",
    ),
    (
        "Difficulty",
        "impossible",
        "Difficulty (C9) must be one of any, easy, medium, hard, very hard, diabolical, "
        "beyond technique, got 'impossible'",
    ),
    (
        "Difficulty",
        3,
        "Difficulty (C9) must be one of any, easy, medium, hard, very hard, "
        "diabolical, beyond technique, got 3",
    ),
    ("Seed", -1, "Seed (C10) must be a whole number from 0 to 999999999999999 (or blank), got -1"),
    (
        "Seed",
        1.5,
        "Seed (C10) must be a whole number from 0 to 999999999999999 (or blank), got 1.5",
    ),
    (
        "Seed",
        1e16,
        "Seed (C10) must be a whole number from 0 to 999999999999999 (or blank), "
        "got 10000000000000000",
    ),
    (
        "Seed",
        "x1",
        "Seed (C10) must be a whole number from 0 to 999999999999999 (or blank), got 'x1'",
    ),
    ("TimeLimit", 0, "Time limit (s) (C11) must be a number from 0.1 to 3600 (or blank), got 0"),
    (
        "TimeLimit",
        "soon",
        "Time limit (s) (C11) must be a number from 0.1 to 3600 (or blank), got 'soon'",
    ),
    (
        "TimeLimit",
        7200,
        "Time limit (s) (C11) must be a number from 0.1 to 3600 (or blank), got 7200",
    ),
    (
        "TimeLimit",
        "#NAME?",
        "Time limit (s) (C11) holds the Excel error #NAME?; it must be a number from 0.1 to 3600 "
        "(or blank)",
    ),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD)
def test_bad_value_names_parameter_and_cell(name, value, message):
    with pytest.raises(params.ParamError) as caught:
        params.read_start(DEFAULTS | {name: value})
    assert str(caught.value) == message


def test_every_parameter_has_bad_cases():
    assert {name for name, _, _ in BAD} == {param.name for param in layout.PARAMS}


def test_all_problems_are_reported_together():
    with pytest.raises(params.ParamError) as caught:
        params.read_start(DEFAULTS | {"Opens": "x", "Trials": 0, "Symmetry": "?"})
    assert [p.split(" ", 1)[0] for p in caught.value.problems] == ["Opens", "Trials", "Symmetry"]


# (parameter, raw value, the value read)
GOOD = [
    ("Pattern", 12.0, 12),
    ("Pattern", " 3 ", 3),
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
        pattern=1,
        opens=26,
        trials=299,
        show_solution=True,
        symmetry=Symmetry.DIHEDRAL,
        difficulty=Level.HARD,
        seed=42,
        time_limit=layout.DEFAULT_TIME_LIMIT,  # a blank Time limit cell
    )


def test_blank_seed_draws_a_seed_that_fits_the_cell():
    got = params.read_start(DEFAULTS, rng=random.Random(5))
    again = params.read_start(DEFAULTS, rng=random.Random(5))
    assert got.seed_was_blank and got.seed == again.seed
    assert 0 <= got.seed <= layout.MAX_SEED


def test_template_defaults_are_valid():
    values = {param.name: param.default for param in layout.PARAMS}
    got = params.read_start(values, rng=random.Random(1))
    assert (got.pattern, got.opens, got.trials, got.show_solution) == (1, 26, 299, False)
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
        ((0, 0), "x", "cell r1c1 (C5) holds 'x'; type a digit 1-9 or leave it empty"),
        ((8, 8), 10, "cell r9c9 (K13) holds 10; type a digit 1-9 or leave it empty"),
        ((2, 3), 4.5, "cell r3c4 (F7) holds 4.5; type a digit 1-9 or leave it empty"),
        (
            (4, 4),
            "#N/A",
            "cell r5c5 (G9) holds the Excel error #N/A; type a digit 1-9 or leave it empty",
        ),
        ((0, 1), True, "cell r1c2 (D5) holds TRUE; type a digit 1-9 or leave it empty"),
        ((1, 1), 9, "digit 9 repeated in row 2: r2c1 (C6) and r2c2 (D6) (and 1 more clash)"),
        ((0, 0), 2, "digit 2 repeated in row 1: r1c1 (C5) and r1c5 (G5)"),
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
        ("opens 25 is odd", "Opens (C5): opens 25 is odd"),
        ("trials must be at least 1, got 0", "Trials (C6): trials must be at least 1, got 0"),
        ("pattern: bad", "Pattern (C4) and Symmetry (C8): bad"),
        ("something else", "something else"),
    ],
)
def test_engine_problems_get_the_cell(message, expected):
    assert params.engine_problem(message) == expected
