"""Candidate mask helpers against plain set arithmetic."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from xlsudoku.engine.masks import (
    bit,
    count,
    digits_of,
    full_mask,
    lowest_digit,
    mask_of,
    single_digit,
)

DIGIT_SETS = st.sets(st.integers(1, 16))


@given(DIGIT_SETS)
def test_mask_round_trip(digits):
    m = mask_of(digits)
    assert digits_of(m) == tuple(sorted(digits))
    assert count(m) == len(digits)
    assert m == sum(bit(d) for d in digits)


@given(DIGIT_SETS)
def test_single_and_lowest(digits):
    m = mask_of(digits)
    assert single_digit(m) == (next(iter(digits)) if len(digits) == 1 else 0)
    if digits:
        assert lowest_digit(m) == min(digits)


def test_full_mask():
    assert [digits_of(full_mask(n)) for n in (4, 9)] == [(1, 2, 3, 4), tuple(range(1, 10))]
    assert digits_of(full_mask(16))[-1] == 16
