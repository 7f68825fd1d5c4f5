"""Puzzle files: every format round-trips, mixed files, per-line errors naming the place."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.formats import (
    PuzzleFormat,
    format_grid,
    parse_puzzle,
    read_file,
    read_puzzles,
    write_file,
    write_puzzles,
)
from xlsudoku.engine.grid import CLASSIC, ConflictError, Grid, ParseError, geometry_for_size

GEOMETRIES = [geometry_for_size(n) for n in (4, 6, 9, 12, 16)]
PUZZLE = "2..1.5..3.54...71..1.2.3.8.6.28.73.4.........1.53.98.6.2.7.1.6..81...24.7..4.2..1"
GRID = Grid.parse(PUZZLE)


def _name(fmt: PuzzleFormat) -> str:
    return "x.csv" if fmt is PuzzleFormat.CSV else "x.txt"


def _read(text: str, name: str = "", validate: bool = True) -> list[tuple[int, object]]:
    return list(read_puzzles(text, name, validate=validate))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GEOMETRIES), st.sampled_from(list(PuzzleFormat)), st.data())
def test_every_format_round_trips(geo, fmt, data):
    cells = data.draw(
        st.lists(st.integers(0, geo.size), min_size=geo.cell_count, max_size=geo.cell_count)
    )
    g = Grid(tuple(cells), geo)
    text = format_grid(g, fmt)
    first_line = 2 if fmt is PuzzleFormat.GRID else 1  # a picture starts with its border
    assert _read(text, _name(fmt), validate=False) == [(first_line, g)]
    assert parse_puzzle(text, validate=False) == g  # CSV grids are recognised without a name


@pytest.mark.parametrize("fmt", list(PuzzleFormat), ids=lambda f: f.value)
def test_several_puzzles_per_file(fmt):
    rng = random.Random(fmt.value)
    grids = [random_grid(rng) for _ in range(3)] + [GRID]
    found = _read(write_puzzles(grids, fmt), _name(fmt))
    assert [g for _, g in found] == grids
    # drawings are counted by their first line
    lines = write_puzzles(grids, fmt).splitlines()
    for number, _ in found:
        assert lines[number - 1].strip()


def test_known_texts():
    assert format_grid(GRID) == PUZZLE
    assert format_grid(GRID, PuzzleFormat.SDM) == PUZZLE.replace(".", "0")
    assert format_grid(GRID, PuzzleFormat.SS).splitlines()[:4] == [
        "2..|1.5|..3",
        ".54|...|71.",
        ".1.|2.3|.8.",
        "-----------",
    ]
    assert format_grid(GRID, PuzzleFormat.GRID).splitlines()[:2] == [
        "+-------+-------+-------+",
        "| 2 . . | 1 . 5 | . . 3 |",
    ]
    assert format_grid(GRID, PuzzleFormat.CSV).splitlines()[0] == "2,,,1,,5,,,3"
    sdk = format_grid(GRID, PuzzleFormat.SDK, {"level": "Easy", "author": "Ruud"})
    assert sdk.splitlines()[:3] == ["#ARuud", "#LEasy", "2..1.5..3"]  # SudoCue's letter order
    assert parse_puzzle(sdk) == GRID


def test_letters_above_nine():
    g = random_grid(random.Random(2), geometry_for_size(16))
    assert set(format_grid(g)) == set("123456789ABCDEFG")
    assert "16" in format_grid(g, PuzzleFormat.CSV)  # CSV writes numbers
    assert parse_puzzle(format_grid(g, PuzzleFormat.CSV).replace("16", "G")) == g


def test_collections_tsv_comments_and_headers():
    text = (
        "# a collection\n"
        "puzzle\tsolution\n"
        f"{PUZZLE}\t{PUZZLE}\n"
        "\n"
        f"{PUZZLE.replace('.', '0')} # sdm with a comment\n"
        f"{PUZZLE}:1:{PUZZLE}\n"
        f"{PUZZLE.replace('.', '-')}\n"
    )
    assert _read(text) == [(3, GRID), (5, GRID), (6, GRID), (7, GRID)]


def test_dash_is_a_blank_in_lines_and_a_separator_in_drawings():
    assert _read("-" * 81) == [(1, Grid.empty())]
    drawing = "\n".join(
        ["1 2 3 | 4 5 6 | 7 8 9", "------+-------+------"] + ["- - - | - - - | - - -"] * 8
    )
    [(_, g)] = _read(drawing)
    assert g.given_count == 9 and g.cells[:9] == tuple(range(1, 10))


def test_drawings_without_blank_lines_between():
    ss = format_grid(GRID, PuzzleFormat.SS)
    assert _read(ss + "\n" + ss) == [(1, GRID), (12, GRID)]


def test_csv_styles():
    rows = format_grid(GRID, PuzzleFormat.CSV)
    assert _read(rows.replace(",,", ",0,").replace(",,", ",.,"), "a.csv") == [(1, GRID)]
    one_per_row = f"puzzle,level\n{PUZZLE},easy\n{PUZZLE},hard\n"
    assert _read(one_per_row, "a.csv") == [(2, GRID), (3, GRID)]


def test_files(tmp_path):
    for fmt in PuzzleFormat:
        path = tmp_path / f"p.{fmt.value}"
        write_file(path, [GRID, GRID])
        assert [g for _, g in read_file(path)] == [GRID, GRID]
    write_file(tmp_path / "p.out", [GRID], PuzzleFormat.SS)
    assert "|" in (tmp_path / "p.out").read_text()


# ------------------------------------------------------------------------------ error messages


def _errors(text: str, name: str = "") -> list[tuple[int, str, str]]:
    return [
        (n, type(r).__name__, str(r))
        for n, r in read_puzzles(text, name)
        if not isinstance(r, Grid)
    ]


BAD_CASES = [
    (  # a bad character in a one-line puzzle
        f"{PUZZLE}\n{PUZZLE[:10]}x{PUZZLE[11:]}\n",
        "",
        [(2, "ParseError", "bad character 'x' at row 2, column 2")],
    ),
    (  # wrong length
        f"{PUZZLE[:-1]}\n",
        "",
        [(1, "ParseError", "wrong length: 80 cells, a puzzle line has 16, 36, 81, 144, 256")],
    ),
    (  # a digit twice in a house: both cells named
        f"{PUZZLE}\n{'3' + PUZZLE[1:]}\n",
        "",
        [(2, "ConflictError", "digit 3 repeated in row 1: r1c1 and r1c9")],
    ),
    (  # a bad character inside a drawing: the line of that row
        format_grid(GRID, PuzzleFormat.SS).replace("6.2|8.7|3.4", "6.2|8?7|3.4"),
        "",
        [(5, "ParseError", "bad character '?' at row 4, column 5")],
    ),
    (  # a drawing row with a cell missing
        format_grid(GRID, PuzzleFormat.SDK).replace(".54...71.", ".54...71"),
        "",
        [(2, "ParseError", "row 2 of the drawing has 8 cells, expected 9")],
    ),
    (  # a drawing cut short
        "\n".join(format_grid(GRID, PuzzleFormat.SDK).splitlines()[:7]),
        "",
        [(1, "ParseError", "a grid drawing of 9 columns needs 9 rows, found 7")],
    ),
    (  # a row length that is no grid size
        "1234567\n",
        "",
        [(1, "ParseError", "a grid row of 7 cells is not a grid size")],
    ),
    (  # CSV: a bad value
        format_grid(GRID, PuzzleFormat.CSV).replace("6,,2,8", "6,,x,8"),
        "a.csv",
        [(1, "ParseError", "bad value 'x' at row 4, column 3")],
    ),
    (  # CSV: a row with too few values
        format_grid(GRID, PuzzleFormat.CSV).replace("6,,2,8,,7,3,,4", "6,,2,8,,7,3,4"),
        "a.csv",
        [(1, "ParseError", "CSV line 4 has 8 values, expected 9")],
    ),
    (  # CSV: too few rows
        "\n".join(format_grid(GRID, PuzzleFormat.CSV).splitlines()[:5]),
        "a.csv",
        [(1, "ParseError", "a CSV grid of 9 columns needs 9 rows, found 5")],
    ),
]


@pytest.mark.parametrize(("text", "name", "expected"), BAD_CASES)
def test_errors_name_line_row_and_column(text, name, expected):
    assert _errors(text, name) == expected


def test_reading_goes_on_after_a_bad_line():
    text = f"{'x' * 81}\n{PUZZLE}\n{'1' * 81}\n{PUZZLE}\n"
    found = _read(text)
    assert [n for n, _ in found] == [1, 2, 3, 4]
    assert [type(r) for _, r in found] == [ParseError, Grid, ConflictError, Grid]


def test_parse_puzzle_errors():
    with pytest.raises(ParseError, match="no puzzle found"):
        parse_puzzle("# only a comment\n")
    with pytest.raises(ParseError, match="2 puzzles found where one was expected"):
        parse_puzzle(f"{PUZZLE}\n{PUZZLE}")
    with pytest.raises(ConflictError, match="r1c1 and r1c2"):
        parse_puzzle("11" + "." * 79)
    assert parse_puzzle("11" + "." * 79, validate=False).given_count == 2
    assert parse_puzzle("." * 81, CLASSIC) == Grid.empty()


def test_format_names():
    assert PuzzleFormat.parse(".sdk") is PuzzleFormat.SDK
    assert PuzzleFormat.parse("TSV") is PuzzleFormat.LINE
    with pytest.raises(ValueError, match="unknown puzzle format 'pdf'"):
        PuzzleFormat.parse("pdf")


# ------------------------------------------------------------------------------ info and JSON

from xlsudoku.engine.formats import (  # noqa: E402
    INFO_FORMATS,
    INFO_LETTERS,
    geometry_named,
    read_records,
)

SUDOCUE_SDK = """#ARuud
#DA random puzzle created by SudoCue
#CJust start plugging in the numbers
#B03-08-2006
#SSudoCue
#LEasy
#Uhttp://www.sudocue.net/
2..1.5..3
.54...71.
.1.2.3.8.
6.28.73.4
.........
1.53.98.6
.2.7.1.6.
.81...24.
7..4.2..1
"""  # SudoCue's own example (sudocue.net/fileformats.php)
SUDOCUE_INFO = {
    "author": "Ruud",
    "description": "A random puzzle created by SudoCue",
    "comment": "Just start plugging in the numbers",
    "date": "03-08-2006",
    "source": "SudoCue",
    "level": "Easy",
    "url": "http://www.sudocue.net/",
}


def test_sdk_info_lines_are_read():
    [record] = read_records(SUDOCUE_SDK)
    assert (record.line, record.result, dict(record.info)) == (8, GRID, SUDOCUE_INFO)
    assert set(SUDOCUE_INFO) == set(INFO_LETTERS.values())


@pytest.mark.parametrize("fmt", list(PuzzleFormat), ids=lambda f: f.value)
def test_info_is_kept_where_the_format_holds_it(fmt):
    x_geo = geometry_named("9x9-X")
    grids = [GRID, random_grid(random.Random(5)), random_grid(random.Random(6), x_geo)]
    infos = [SUDOCUE_INFO, {}, {"author": "A. N. Other", "comment": "two\nlines"}]
    records = list(read_records(write_puzzles(grids, fmt, infos), _name(fmt)))
    if fmt is PuzzleFormat.JSON:
        assert [dict(r.info) for r in records] == infos
    elif fmt in INFO_FORMATS:  # an info line ends at the line break: the text is joined
        assert [dict(r.info) for r in records] == [
            SUDOCUE_INFO,
            {},
            {"author": "A. N. Other", "comment": "two lines"},
        ]
    else:
        assert [dict(r.info) for r in records] == [{}, {}, {}]
    # only JSON holds the geometry: elsewhere the X-Sudoku reads back as a classic grid
    assert [r.result.geometry.name for r in records] == (
        ["9x9", "9x9", "9x9-X"] if fmt is PuzzleFormat.JSON else ["9x9"] * 3
    )
    assert [r.result.cells for r in records] == [g.cells for g in grids]


def test_info_lines_belong_to_the_next_puzzle_only():
    text = (
        "# a plain comment, not an info line\n"
        "#AFirst\n"
        f"{PUZZLE}\n"
        f"{PUZZLE}\n"
        "#LHard\n"
        "\n"
        + format_grid(GRID, PuzzleFormat.SS)
        + "\n#Xunknown letter: a comment\n"
        + f"{PUZZLE}\n"
    )
    assert [(r.line, dict(r.info)) for r in read_records(text)] == [
        (3, {"author": "First"}),
        (4, {}),
        (7, {"level": "Hard"}),
        (19, {}),
    ]


SMALL = "4.2......1.....3"
X_PUZZLE = "1" + "." * 79 + "2"  # clash-free on the diagonals too
JSON_CASES = [
    (  # generate --format json: the geometry in the request
        json.dumps({"puzzle": X_PUZZLE, "opens": 2, "request": {"geometry": "9x9-X"}}),
        [(1, "9x9-X", X_PUZZLE, {})],
    ),
    (  # grade --format json: one object per line, level and info fields
        json.dumps({"line": 4, "puzzle": PUZZLE, "level": "Hard", "author": "me"})
        + "\n"
        + json.dumps({"puzzle": SMALL, "geometry": "4x4"}),
        [(1, "9x9", PUZZLE, {"level": "Hard", "author": "me"}), (2, "4x4", SMALL, {})],
    ),
    (  # an array of objects and strings, pretty-printed
        json.dumps([{"puzzle": PUZZLE}, SMALL], indent=2),
        [(2, "9x9", PUZZLE, {}), (5, "4x4", SMALL, {})],
    ),
]


@pytest.mark.parametrize(("text", "expected"), JSON_CASES)
def test_json_is_read(text, expected):
    found = [
        (r.line, r.result.geometry.name, str(r.result), dict(r.info)) for r in read_records(text)
    ]
    assert found == expected


def test_json_errors_name_the_line_and_reading_goes_on():
    text = (
        f'{{"puzzle": "{PUZZLE}"}}\n'
        '{"puzzle": "12", oops}\n'
        '{"level": "Easy"}\n'
        f'{{"puzzle": "{PUZZLE}", "geometry": "7x7"}}\n'
        f'{{"puzzle": "{"1" * 81}"}}\n'
        f'{{"puzzle": "{PUZZLE}"}}\n'
    )
    assert _errors(text) == [
        (
            2,
            "ParseError",
            "bad JSON: Expecting property name enclosed in double quotes (column 18)",
        ),
        (3, "ParseError", 'a JSON puzzle needs a "puzzle" string'),
        (
            4,
            "ParseError",
            "unknown geometry '7x7': use 9x9, 4x4, 6x6, 12x12, 16x16, 9x9-X, 9x9-windoku or "
            "9x9-jigsaw:LAYOUT",
        ),
        (5, "ConflictError", "digit 1 repeated in row 1: r1c1 and r1c2 (and 215 more clashes)"),
    ]
    assert [n for n, r in read_puzzles(text) if isinstance(r, Grid)] == [1, 6]


def test_a_given_geometry_reads_x_sudoku_in_every_format():
    x_geo = geometry_named("X")
    for fmt in PuzzleFormat:
        text = format_grid(GRID, fmt)
        [(_, g)] = _read_with(text, _name(fmt), x_geo)
        assert g.geometry is x_geo and g.cells == GRID.cells


def _read_with(text, name, geo):
    return list(read_puzzles(text, name, geometry=geo, validate=False))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("9x9", "9x9"),
        ("9", "9x9"),
        ("9x9-X", "9x9-X"),
        ("x", "9x9-X"),
        ("16X16", "16x16"),
        ("6x6", "6x6"),
        ("12x12", "12x12"),
        ("4x4", "4x4"),
    ],
)
def test_geometry_names(name, expected):
    assert geometry_named(name).name == expected


@pytest.mark.parametrize("name", ["7x7", "9x8", "", "nine"])
def test_bad_geometry_names(name):
    with pytest.raises(ParseError, match="unknown geometry"):
        geometry_named(name)
