"""The workbook contract in addin.layout: addresses, shapes, rules and defaults hold together."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlsudoku.addin import layout, render
from xlsudoku.addin.layout import Kind, Ref
from xlsudoku.engine.patterns import PRESETS, preset
from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry
from xlsudoku.xlsm import cells


def cells_of(ref: Ref) -> set[tuple[str, int, int]]:
    first_row, first_col, last_row, last_col = ref.bounds
    return {
        (ref.sheet, row, col)
        for row in range(first_row, last_row + 1)
        for col in range(first_col, last_col + 1)
    }


# -- address helpers --------------------------------------------------------------------------


@given(st.integers(min_value=1, max_value=16384))
def test_column_letters_round_trip(number: int) -> None:
    letters = cells.column_letters(number)
    assert letters.isalpha() and letters.isupper()
    assert cells.column_number(letters) == number


@pytest.mark.parametrize(
    ("number", "letters"),
    [(1, "A"), (26, "Z"), (27, "AA"), (52, "AZ"), (53, "BA"), (702, "ZZ"), (703, "AAA")],
)
def test_column_letters_known(number: int, letters: str) -> None:
    assert cells.column_letters(number) == letters


@pytest.mark.parametrize("bad", ["", "5C", "C0", "C", "12", "C5:", "r3c5", "C-5"])
def test_parse_cell_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match="not a cell address"):
        cells.parse_cell(bad)


def test_ref_rejects_bad_address() -> None:
    with pytest.raises(ValueError):
        Ref("Generator", "F4:N")


def test_ref_cell_offsets_and_bounds() -> None:
    ref = Ref("Analyze", "C5:K13")
    assert ref.cell(0, 0) == "C5"
    assert ref.cell(4, 2) == "E9"
    assert ref.cell(8, 8) == "K13"
    for row, col in [(9, 0), (0, 9), (-1, 0)]:
        with pytest.raises(IndexError, match="outside Analyze!C5:K13"):
            ref.cell(row, col)


# -- names ------------------------------------------------------------------------------------


def test_every_name_is_on_a_contract_sheet() -> None:
    assert layout.SHEETS == (
        "Generator", "Print", "Analyze", "Collection", "Removed", "Play", "Stats",
    )  # fmt: skip
    for name, ref in layout.NAMES.items():
        assert ref.sheet in layout.SHEETS, name


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        *[(name, (layout.MAX_SIDE, layout.MAX_SIDE)) for name in layout.GRIDS],
        (layout.STATS, (len(layout.STATS_LABELS), 2)),
        (layout.RANK_TABLE, (layout.RANK_ROWS, 2)),
        (layout.COLLECTION_HEADER, (1, len(layout.COLLECTION_COLUMNS))),
        (layout.REMOVED_HEADER, (1, len(layout.REMOVED_COLUMNS))),
        (layout.LEGEND, (len(render.LEGEND), 1)),
        (layout.ANALYZE_REPORT, (layout.REPORT_LINES, 1)),
        (layout.STATUS, (1, 1)),
        (layout.ANALYZE_STATUS, (1, 1)),
        (layout.ANALYZE_STRING, (1, 1)),
        (layout.HINT_TEXT, (1, 1)),
        (layout.PLAY_LEGEND, (len(render.PLAY_LEGEND), 1)),
        (layout.PLAY_STATUS, (1, 1)),
        (layout.PLAY_HINT, (1, 1)),
        (layout.PLAY_GEOMETRY, (1, 1)),
        (layout.PLAY_HIGHLIGHT, (1, 1)),
        (layout.PLAY_CLOCK, (1, 3)),
        (layout.PLAY_HISTORY, (layout.HISTORY_ROWS, 2)),
        (layout.STATS_STATUS, (1, 1)),
        (layout.STATS_LEVELS, (len(layout.LEVEL_LABELS), 2)),
        (layout.STATS_SCORES, (layout.STATS_BINS, 2)),
        (layout.STATS_OPENS, (layout.STATS_BINS, 2)),
        *[(param.name, (1, 1)) for param in layout.INPUTS],
        (layout.HIGHEST_ID, (1, 1)),
        (layout.GENERATOR_FACTS, (1, 1)),
        (layout.EXPLAIN_STEPS, (layout.EXPLAIN_ROWS, 1)),
        (layout.PRINT_STATUS, (1, 1)),
    ],
)
def test_name_shapes(name: str, shape: tuple[int, int]) -> None:
    assert layout.NAMES[name].shape == shape


def test_contract_names_present() -> None:
    expected = {
        "Geometry", "Pattern", "Opens", "Trials", "ShowSolution", "Symmetry", "Difficulty",
        "Needs", "Seed", "TimeLimit", "Rating", "Score", "Status", "PuzzleGrid", "Caption",
        "SolutionGrid",
        "Stats",
        "RankTable", "PatternPictures", "ImportSource", "DeleteIds", "SortBy", "HighestId",
        "PrintTitle", "PrintGrid", "PrintRules", "PrintKeyTitle", "PrintKey",
        "CollectionHeader", "RemovedHeader", "AnalyzeGeometry", "AnalyzeGrid", "AnalyzeString",
        "AnalyzeStatus", "AnalyzeReport", "HintText", "Candidates", "Legend", "AnalyzeSolution",
        "AnalyzeSolution2", "PlaySource", "PlayGeometry", "PlayGrid", "PlayMarks", "PlayGivens",
        "PlayStatus", "PlayHint", "PlayLegend", "RestoreIds", "HintPlaced", "PlayHighlight",
        "PlayClock", "PlayHistory", "StatsStatus", "StatsLevels", "StatsScores", "StatsOpens",
        "GeneratorFacts", "ExplainSteps", "PrintStatus",
    }  # fmt: skip
    assert set(layout.NAMES) == expected


def test_names_do_not_overlap() -> None:
    blocks = dict(layout.NAMES)
    blocks |= {f"merged {name}": ref for name, ref in layout.MERGED.items()}
    blocks |= {f"button {b.anchor.sheet} {b.caption}": b.anchor for b in layout.BUTTONS}
    for (name_a, ref_a), (name_b, ref_b) in itertools.combinations(blocks.items(), 2):
        if name_a == f"merged {name_b}" or name_b == f"merged {name_a}":
            continue
        assert not cells_of(ref_a) & cells_of(ref_b), (name_a, name_b)


def test_merged_blocks_start_at_their_name() -> None:
    for name, block in layout.MERGED.items():
        assert block.sheet == layout.NAMES[name].sheet
        assert block.top_left == layout.NAMES[name].top_left
        assert block.shape != (1, 1)


def test_print_area_holds_the_page_and_the_answer_key() -> None:
    for name in (layout.PRINT_TITLE, layout.PRINT_GRID, layout.PRINT_RULES, layout.PRINT_KEY):
        assert cells_of(layout.NAMES[name]) <= cells_of(layout.PRINT_AREA), name
    grid, key = layout.NAMES[layout.PRINT_GRID], layout.NAMES[layout.PRINT_KEY]
    assert grid.bounds[1::2] == key.bounds[1::2]  # the same columns, so the same cell sizes


def test_shape_sources_name_a_geometry_cell() -> None:
    assert layout.SHAPE_SOURCE[layout.GENERATOR] == layout.NAMES[layout.STATS].cell(0, 1)
    assert layout.STATS_LABELS[0] == "Geometry"
    assert layout.SHAPE_SOURCE[layout.ANALYZE] == layout.NAMES[layout.ANALYZE_GEOMETRY].address
    assert layout.SHAPE_SOURCE[layout.PLAY] == layout.NAMES[layout.PLAY_GEOMETRY].address
    for sheet, (first, last) in layout.HIDDEN_COLUMNS.items():
        hidden = range(cells.column_number(first), cells.column_number(last) + 1)
        for ref in (
            layout.SHAPE_TABLE[sheet],
            layout.SHAPE_CELLS[sheet],
            layout.REGION_CELLS[sheet],
        ):
            assert ref.bounds[1] in hidden and ref.bounds[3] in hidden
        for name, ref in layout.NAMES.items():
            if ref.sheet != sheet:
                continue
            if name in layout.HIDDEN_NAMES:  # kept out of sight on purpose
                assert ref.bounds[1] in hidden and ref.bounds[3] in hidden, name
                for helper in (
                    layout.SHAPE_TABLE[sheet],
                    layout.SHAPE_CELLS[sheet],
                    layout.REGION_CELLS[sheet],
                ):
                    assert not cells_of(helper) & cells_of(ref), name
            else:
                assert ref.bounds[3] < hidden.start, ref


def test_geometries_are_engine_shapes() -> None:
    from xlsudoku.addin.params import geometry_of
    from xlsudoku.engine.grid import SHAPES

    for name, (side, box_rows, box_cols, diagonals) in layout.GEOMETRIES.items():
        assert SHAPES[side] == (box_rows, box_cols)
        geo = geometry_of(name)
        assert geo.name == name and geo.diagonals == diagonals and geo.size == side
        if not geo.windoku:
            assert name == f"{side}x{side}" + ("-X" if diagonals else "")
    assert layout.MAX_SIDE == max(SHAPES)


def test_collection_columns_as_contracted() -> None:
    assert layout.COLLECTION_COLUMNS == (
        "id", "saved at", "geometry", "puzzle", "solution", "opens", "pattern", "symmetry",
        "level", "score", "ranks", "seed", "notes", "profile",
    )  # fmt: skip
    assert layout.REMOVED_COLUMNS == (*layout.COLLECTION_COLUMNS, "removed at", "reason")
    assert layout.NAMES[layout.COLLECTION_HEADER].top_left == "A1"
    assert layout.NAMES[layout.REMOVED_HEADER].top_left == "A1"


# -- parameters -------------------------------------------------------------------------------


def test_params_in_contract_order_with_defaults() -> None:
    defaults = {param.name: param.default for param in layout.PARAMS}
    assert defaults == {
        "Geometry": "9x9", "Pattern": 1, "Opens": 26, "Trials": 299, "ShowSolution": "No",
        "Symmetry": "rotate180", "Difficulty": "any", "Needs": "none", "Seed": None,
        "TimeLimit": None, "Rating": "se", "Score": None,
    }  # fmt: skip
    assert layout.PARAMS_BY_NAME == {param.name: param for param in layout.PARAMS}


ALL_INPUTS = (*layout.PARAMS, *layout.TOOLS, *layout.ANALYZE_PARAMS)


@pytest.mark.parametrize("param", ALL_INPUTS, ids=lambda param: param.name)
def test_param_rule_is_complete(param: layout.Param) -> None:
    assert param.label and param.note
    assert param.allowed or param not in layout.PARAMS
    assert layout.NAMES[param.name] == param.ref
    if param.kind is Kind.TEXT:
        assert param.optional and param.default is None
    elif param.kind in (Kind.CHOICE, Kind.PATTERN):
        assert param.choices and param.minimum is None and param.maximum is None
        assert str(param.default) in param.choices
        # Excel's limit for a list written into the validation; longer lists live in cells
        assert len(",".join(param.choices)) < 255 or param.name in layout.LISTS
    else:
        assert param.minimum is not None and param.maximum is not None
        assert param.minimum < param.maximum
        if param.default is None:
            assert param.optional
        else:
            assert isinstance(param.default, int | float)
            assert param.minimum <= param.default <= param.maximum
            if param.kind is Kind.WHOLE:
                assert float(param.default).is_integer()


def test_pattern_choices_match_engine_presets() -> None:
    pattern = layout.PARAMS_BY_NAME[layout.PATTERN]
    assert pattern.choices == (*(str(p.number) for p in PRESETS), "none")
    # SUDOKU_GENERATE takes what the Pattern cell takes (a preset, none or a mask)
    assert layout.FUNCTION_PATTERN.choices == pattern.choices
    assert layout.FUNCTION_PATTERN.kind is pattern.kind


def test_default_opens_parity_fits_default_pattern() -> None:
    opens = layout.PARAMS_BY_NAME[layout.OPENS].default
    pattern = layout.PARAMS_BY_NAME[layout.PATTERN].default
    assert isinstance(opens, int) and isinstance(pattern, int)
    assert opens % 2 == preset(pattern).given_count % 2


def test_symmetry_choices_are_engine_symmetries() -> None:
    assert {Symmetry(choice) for choice in layout.SYMMETRY_CHOICES} == set(Symmetry)


def test_difficulty_choices_cover_every_level() -> None:
    levels = layout.DIFFICULTY_LEVELS
    assert levels[layout.ANY_DIFFICULTY] is None
    assert {level for level in levels.values() if level is not None} == set(Level)
    for text, level in levels.items():
        if level is not None:
            assert text == level.label.lower()


def test_seed_limit_fits_excel_precision() -> None:
    seed = layout.PARAMS_BY_NAME[layout.SEED]
    assert seed.maximum is not None and len(str(int(seed.maximum))) <= 15
    assert float(int(seed.maximum)) == seed.maximum


# -- buttons ----------------------------------------------------------------------------------


def test_buttons_as_contracted() -> None:
    placed = {(button.anchor.sheet, button.caption) for button in layout.BUTTONS}
    assert placed == {
        ("Generator", "START"), ("Generator", "SAVE TO COLLECTION"), ("Generator", "CLEAR"),
        ("Generator", "IMPORT"), ("Generator", "DELETE"), ("Generator", "SORT"),
        ("Analyze", "ANALYZE"), ("Analyze", "HINT"), ("Analyze", "SOLVE"),
        ("Play", "PLAY"), ("Play", "CHECK"), ("Play", "HINT"), ("Play", "SOLVE"),
        ("Generator", "RESTORE"), ("Play", "UNDO"), ("Play", "FILL CANDIDATES"),
        ("Stats", "STATS"), ("Analyze", "EXPLAIN"), ("Print", "IMAGE"),
    }  # fmt: skip
    assert len({button.action for button in layout.BUTTONS}) == len(layout.BUTTONS)
    assert len({button.macro for button in layout.BUTTONS}) == len(layout.BUTTONS)


@pytest.mark.parametrize("button", layout.BUTTONS, ids=lambda button: button.action)
def test_button_macro_and_call(button: layout.Button) -> None:
    assert button.macro.isidentifier() and button.macro[0].isupper()
    assert button.macro.endswith("Click")
    assert (
        button.python_call
        == f"import xlsudoku.addin.desktop; xlsudoku.addin.desktop.{button.action}()"
    )
    assert '"' not in button.python_call  # it sits inside a VBA string literal
    assert button.anchor.shape == (1, 1)


def test_titles_and_widths() -> None:
    assert set(layout.COLUMN_WIDTHS) == set(layout.SHEETS)
    for sheet, widths in layout.COLUMN_WIDTHS.items():
        assert all(letter.isalpha() and 0 < width <= 255 for letter, width in widths.items()), sheet
    collection = layout.COLUMN_WIDTHS[layout.COLLECTION]
    assert len(collection) == len(layout.COLLECTION_COLUMNS)
    # puzzle and solution wrap: three rows of a 9x9 puzzle per line
    assert collection["D"] == collection["E"] == layout.PUZZLE_COLUMN_WIDTH >= 27
    for sheet, ref in layout.TITLES.items():
        assert ref.sheet == sheet and ref.shape == (1, 1)


def test_parity_told_in_the_notes_holds_for_the_presets() -> None:
    # The Pattern and Opens notes say: patterns 1-6 even, 7-12 odd, the odd ones with the center.
    assert "Presets 1-6 have an even number" in layout.PARAMS_BY_NAME[layout.PATTERN].note
    assert "even for patterns 1-6" in layout.PARAMS_BY_NAME[layout.OPENS].note
    for pattern in PRESETS:
        assert pattern.given_count % 2 == (0 if pattern.number <= 6 else 1), pattern.label
        if pattern.given_count % 2:
            assert pattern.mask[4] == "x", pattern.label


def test_opens_note_tells_each_shape_its_range() -> None:
    import re

    from xlsudoku.addin.params import geometry_of
    from xlsudoku.engine.generate import GenerateError, GenerateRequest, validate_request
    from xlsudoku.engine.symmetry import Symmetry

    note = layout.PARAMS_BY_NAME[layout.OPENS].note
    told = {
        name: (int(low), int(high))
        for name, low, high in re.findall(r"(\d+x\d+) (\d+)-(\d+)", note)
    }
    # the 9x9 variants (9x9-X, 9x9-windoku) are not told apart in the note
    assert set(told) == {name for name in layout.GEOMETRIES if "-" not in name}

    def valid(shape: str, opens: int) -> bool:
        request = GenerateRequest(
            target_givens=opens, pattern=None, symmetry=Symmetry.NONE, geometry=geometry_of(shape)
        )
        try:
            validate_request(request)
        except GenerateError:
            return False
        return True

    for shape, (low, high) in told.items():
        assert valid(shape, low) and valid(shape, high), shape
        assert not valid(shape, low - 1) and not valid(shape, high + 1), shape
        assert layout.PARAMS_BY_NAME[layout.OPENS].minimum <= low
        assert high <= layout.PARAMS_BY_NAME[layout.OPENS].maximum
