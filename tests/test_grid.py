"""Geometry tables, the Grid value, parsing and its error messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlsudoku.engine.grid import (
    CLASSIC,
    ConflictError,
    Grid,
    InvalidPuzzle,
    ParseError,
    SudokuError,
    char_to_digit,
    drawing_rows,
    geometry,
    geometry_for_cells,
    geometry_for_size,
    is_separator_line,
)

GEOMETRIES = [geometry_for_size(n) for n in (4, 6, 9, 12, 16)] + [geometry_for_size(9, True)]


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.name)
def test_houses_and_peers(geo):
    n = geo.size
    extra = 2 if geo.diagonals else 0
    assert len(geo.houses) == 3 * n + extra
    for house in geo.houses:
        assert len(house) == n == len(set(house))
    # rows, columns and boxes each partition the cells
    for kind in range(3):
        cells = [c for h in geo.houses[kind * n : (kind + 1) * n] for c in h]
        assert sorted(cells) == list(range(geo.cell_count))
    for cell in range(geo.cell_count):
        r, c = geo.row_of(cell), geo.col_of(cell)
        b = geo.box_of(cell)
        expected = {
            p
            for p in range(geo.cell_count)
            if p != cell
            and (
                geo.row_of(p) == r
                or geo.col_of(p) == c
                or geo.box_of(p) == b
                or (geo.diagonals and r == c and geo.row_of(p) == geo.col_of(p))
                or (geo.diagonals and r + c == n - 1 and geo.row_of(p) + geo.col_of(p) == n - 1)
            )
        }
        assert geo.peer_sets[cell] == expected
        assert geo.peers[cell] == tuple(sorted(expected))
        assert cell in geo.houses[geo.houses_of[cell][2]]


def test_classic_peer_count_and_names():
    assert all(len(p) == 20 for p in CLASSIC.peers)
    assert CLASSIC.cell_name(80) == "r9c9"
    assert [CLASSIC.house_name(h) for h in (0, 9, 18)] == ["row 1", "column 1", "box 1"]
    x = geometry_for_size(9, True)
    assert [x.house_name(h) for h in (27, 28)] == ["diagonal", "anti-diagonal"]


def test_geometry_errors():
    with pytest.raises(SudokuError, match="no standard geometry of size 7"):
        geometry_for_size(7)
    with pytest.raises(ParseError, match="80 cells is not a grid size"):
        geometry_for_cells(80)
    with pytest.raises(SudokuError, match="above the largest supported size 16"):
        geometry(5, 5)


@given(st.sampled_from(GEOMETRIES), st.data())
def test_parse_str_round_trip(geo, data):
    cells = data.draw(
        st.lists(st.integers(0, geo.size), min_size=geo.cell_count, max_size=geo.cell_count)
    )
    g = Grid(tuple(cells), geo)
    assert Grid.parse(str(g), geo) == g
    if not geo.diagonals:  # the size is inferred from the length
        assert Grid.parse(str(g)) == g


@pytest.mark.parametrize("blank", list(".0-*_"))
def test_every_blank_character(blank):
    g = Grid.parse("5" + blank * 80)
    assert g.given_count == 1 and g[0] == 5


def test_parse_drawings():
    line = "2..1.5..3.54...71..1.2.3.8.6.28.73.4.........1.53.98.6.2.7.1.6..81...24.7..4.2..1"
    ss = (
        "2..|1.5|..3\n.54|...|71.\n.1.|2.3|.8.\n-----------\n6.2|8.7|3.4\n...|...|...\n"
        "1.5|3.9|8.6\n-----------\n.2.|7.1|.6.\n.81|...|24.\n7..|4.2|..1\n"
    )
    assert Grid.parse(ss) == Grid.parse(line)
    spaced = "\n".join(" ".join(line[r * 9 : r * 9 + 9]) for r in range(9))
    assert Grid.parse(spaced) == Grid.parse(line)
    # a row of nine dashes is nine blanks, not a separator
    dashed = ss.replace("...|...|...", "---|---|---")
    assert Grid.parse(dashed) == Grid.parse(line)


def test_separator_lines():
    assert is_separator_line("+-------+-------+-------+")
    assert is_separator_line("------+------+------")
    assert is_separator_line("===========")
    assert is_separator_line("-----------", side=9)
    assert not is_separator_line("---------", side=9)
    assert not is_separator_line("1..|...|...")
    assert not is_separator_line("")
    assert drawing_rows("1234\n-----\n3412") == [(0, "1234"), (2, "3412")]
    assert drawing_rows("12\n--\n34") == [(0, "12"), (1, "--"), (2, "34")]  # two blanks


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x" + "." * 80, "bad character 'x' at row 1, column 1"),
        ("." * 12 + "?" + "." * 68, "bad character '?' at row 2, column 4"),
        ("." * 80, "80 cells is not a grid size (16, 36, 81, 144 or 256 cells)"),
        ("A" + "." * 80, "bad character 'A' at row 1, column 1"),  # letters only above 9
        ("G" + "." * 35, "bad character 'G' at row 1, column 1"),
    ],
)
def test_parse_errors_name_the_place(text, message):
    with pytest.raises(ParseError) as err:
        Grid.parse(text)
    assert str(err.value) == message


def test_parse_error_carries_row_and_column():
    with pytest.raises(ParseError) as err:
        Grid.parse("." * 40 + "z" + "." * 40)
    assert (err.value.row, err.value.column) == (5, 5)


def test_wrong_length_for_a_given_geometry():
    with pytest.raises(ParseError, match="a 9x9 puzzle needs 81 cells, found 16"):
        Grid.parse("." * 16, CLASSIC)


def test_letters_above_nine():
    g16 = Grid.parse("G" + "." * 254 + "a")
    assert g16.geometry.size == 16 and (g16[0], g16[255]) == (16, 10)
    assert char_to_digit("C", 12) == 12 and char_to_digit("D", 12) is None


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ({0: 1, 3: 1}, "digit 1 repeated in row 1: r1c1 and r1c4"),
        ({0: 4, 72: 4}, "digit 4 repeated in column 1: r1c1 and r9c1"),
        ({0: 9, 20: 9}, "digit 9 repeated in box 1: r1c1 and r3c3"),
    ],
)
def test_validate_names_both_cells(cells, message):
    g = Grid.empty().with_cells(cells)
    with pytest.raises(ConflictError) as err:
        g.validate()
    assert str(err.value) == message
    assert err.value.conflicts == g.conflicts()


def test_validate_counts_further_clashes_and_diagonals():
    with pytest.raises(ConflictError, match=r"\(and 1 more clash\)"):
        Grid.parse("11" + "." * 79).validate()
    x = geometry_for_size(9, True)
    with pytest.raises(ConflictError, match="digit 3 repeated in diagonal: r1c1 and r9c9"):
        Grid(tuple([3] + [0] * 79 + [3]), x).validate()
    assert Grid.empty().validate() == Grid.empty()


def test_grid_value_errors():
    with pytest.raises(InvalidPuzzle, match="a 9x9 grid has 81 cells, got 3"):
        Grid((0, 0, 0))
    with pytest.raises(InvalidPuzzle, match="value 10 at r1c2 is outside 1-4"):
        Grid.from_rows([[1, 10, 0, 0], [0] * 4, [0] * 4, [0] * 4])


def test_grid_accessors():
    g = Grid.parse("123" + "." * 78)
    assert g.rows()[0][:4] == [1, 2, 3, 0]
    assert g.to_array().shape == (9, 9) and int(g.to_array()[0, 2]) == 3
    assert g.givens() == (0, 1, 2) and len(g) == 81 and list(g)[:2] == [1, 2]
    assert not g.is_complete
