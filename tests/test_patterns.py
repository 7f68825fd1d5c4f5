"""Center-box patterns: the twelve presets, masks, pictures and their errors."""

from __future__ import annotations

import pytest

from xlsudoku.engine.grid import CLASSIC, geometry, geometry_for_size
from xlsudoku.engine.patterns import (
    PRESETS,
    Pattern,
    PatternError,
    center_box,
    parse_pattern,
    preset,
    show_pattern,
)
from xlsudoku.engine.symmetry import Symmetry


def _rot180(mask: str) -> str:
    return mask[::-1]  # row-major 3x3: 180° rotation reverses the order


def test_twelve_presets_numbered_in_order():
    assert len(PRESETS) == 12
    assert [p.number for p in PRESETS] == list(range(1, 13))
    assert len({p.mask for p in PRESETS}) == 12
    assert len({p.name for p in PRESETS}) == 12


@pytest.mark.parametrize("p", PRESETS, ids=lambda p: p.name)
def test_each_preset_is_180_symmetric_and_odd_ones_open_the_center(p):
    assert len(p.mask) == 9 and set(p.mask) <= {"x", "."}
    assert _rot180(p.mask) == p.mask
    assert (p.given_count % 2 == 1) == (p.mask[4] == "x")
    p.check_symmetry(Symmetry.ROTATE_180)


def test_default_pattern_is_even():
    assert preset(1).given_count % 2 == 0


@pytest.mark.parametrize("p", PRESETS, ids=lambda p: p.name)
def test_cells_and_blank_cells_split_the_center_box(p):
    box = center_box(CLASSIC)
    assert box == (30, 31, 32, 39, 40, 41, 48, 49, 50)
    opened, blank = set(p.cells()), set(p.blank_cells())
    assert opened | blank == set(box) and not opened & blank
    assert [c in opened for c in box] == [ch == "x" for ch in p.mask]
    lines = p.picture().splitlines()
    assert [line.replace(" ", "") for line in lines] == [p.mask[0:3], p.mask[3:6], p.mask[6:9]]
    assert p.rows() == tuple(tuple(ch == "x" for ch in p.mask[r : r + 3]) for r in (0, 3, 6))


PARSES = [
    (1, "x.x...x.x"),
    ("1", "x.x...x.x"),
    (" 12 ", "...xxx..."),
    ("x.x/.../x.x", "x.x...x.x"),
    ("101 000 101", "x.x...x.x"),
    ("1.. .1. ..1", "x...x...x"),
    ("X.. ... ...", "x........"),
]


@pytest.mark.parametrize(("value", "mask"), PARSES)
def test_parse_pattern_reads_numbers_and_masks(value, mask):
    p = parse_pattern(value)
    assert p is not None and p.mask == mask


def test_a_mask_equal_to_a_preset_is_that_preset_and_others_are_custom():
    assert parse_pattern("xxx|x.x|xxx") is preset(3)
    custom = parse_pattern("x........")
    assert custom is not None and custom.number is None and custom.name == "custom"
    assert (
        parse_pattern(None) is None and parse_pattern("") is None and parse_pattern("none") is None
    )
    assert parse_pattern(preset(5)) is preset(5)


BAD = [
    (0, "unknown pattern 0: presets are 1-12"),
    (13, "unknown pattern 13"),
    ("99", "unknown pattern 99"),
    ("x.x.y....", "bad character 'y' at position 5 of pattern 'x.x.y....'"),
    ("x.x.x", "a pattern mask needs a square number of cells, got 5"),
]


@pytest.mark.parametrize(("value", "message"), BAD)
def test_bad_patterns_raise_with_the_place(value, message):
    with pytest.raises(PatternError) as info:
        parse_pattern(value)
    assert message in str(info.value)


def test_geometries_without_a_center_box_take_no_pattern():
    for geo in (
        geometry_for_size(4),
        geometry_for_size(6),
        geometry_for_size(12),
        geometry_for_size(16),
    ):
        with pytest.raises(PatternError, match="no center box"):
            center_box(geo)
        with pytest.raises(PatternError, match="use pattern None"):
            preset(1).cells(geo)
    assert center_box(geometry(3, 3, True)) == center_box(CLASSIC)


def test_a_mask_of_the_wrong_size_does_not_fit():
    with pytest.raises(PatternError, match="has 4 cells but the 9x9 center box has 9"):
        Pattern(None, "custom", "x..x").cells(CLASSIC)


SYMMETRY_CASES = [
    (1, Symmetry.ROTATE_90, True),
    (2, Symmetry.DIHEDRAL, True),
    (11, Symmetry.DIAGONAL, True),
    (11, Symmetry.ANTIDIAGONAL, True),
    (11, Symmetry.ROTATE_90, False),
    (12, Symmetry.HORIZONTAL, True),
    (12, Symmetry.VERTICAL, True),
    (12, Symmetry.DIAGONAL, False),
    (5, Symmetry.ROTATE_90, False),
]


@pytest.mark.parametrize(("number", "symmetry", "ok"), SYMMETRY_CASES)
def test_check_symmetry_against_other_symmetries(number, symmetry, ok):
    p = preset(number)
    if ok:
        p.check_symmetry(symmetry)
    else:
        with pytest.raises(PatternError, match=f"is not symmetric under {symmetry.value}"):
            p.check_symmetry(symmetry)


def test_show_pattern_gives_cells_and_picture():
    cells, picture = show_pattern("3")
    assert cells == preset(3).cells()
    assert picture == "x x x\nx . x\nx x x"
    assert show_pattern(None) == ((), "(no pattern)")
