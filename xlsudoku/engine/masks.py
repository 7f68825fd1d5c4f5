"""Candidate masks: bit ``d - 1`` set means digit ``d`` is possible.

>>> m = mask_of((1, 5))
>>> m, digits_of(m), count(m)
(17, (1, 5), 2)
"""

from __future__ import annotations

from collections.abc import Iterable

Mask = int

# digits_of for every 9-bit mask, built once (tables are data).
_DIGITS_9: tuple[tuple[int, ...], ...] = tuple(
    tuple(d + 1 for d in range(9) if m >> d & 1) for m in range(1 << 9)
)


def bit(digit: int) -> Mask:
    """Return the mask of a single *digit*.

    >>> bit(3)
    4
    """
    return 1 << (digit - 1)


def mask_of(digits: Iterable[int]) -> Mask:
    """Return the mask holding *digits*.

    >>> mask_of([1, 2, 9])
    259
    """
    m = 0
    for d in digits:
        m |= 1 << (d - 1)
    return m


def digits_of(mask: Mask) -> tuple[int, ...]:
    """Return the digits in *mask*, ascending.

    >>> digits_of(0b100000101)
    (1, 3, 9)
    """
    if mask < 512:
        return _DIGITS_9[mask]
    return tuple(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


def count(mask: Mask) -> int:
    """Return how many digits *mask* holds.

    >>> count(0b1011)
    3
    """
    return mask.bit_count()


def single_digit(mask: Mask) -> int:
    """Return the digit if *mask* holds exactly one, else 0.

    >>> single_digit(0b1000), single_digit(0b1010)
    (4, 0)
    """
    if mask and not mask & (mask - 1):
        return mask.bit_length()
    return 0


def lowest_digit(mask: Mask) -> int:
    """Return the smallest digit in a non-empty *mask*.

    >>> lowest_digit(0b1100)
    3
    """
    return (mask & -mask).bit_length()


def full_mask(size: int) -> Mask:
    """Return the mask of all digits 1..*size*.

    >>> full_mask(9)
    511
    """
    return (1 << size) - 1


def places_by_digit(masks: Iterable[Mask], size: int) -> list[Mask]:
    """Return, per digit (index ``digit - 1``), the positions in *masks* that hold it, a bit each.

    >>> places_by_digit([0b011, 0b110, 0b001], 3)
    [5, 3, 2]
    """
    places = [0] * size
    for i, m in enumerate(masks):
        while m:
            low = m & -m
            places[low.bit_length() - 1] |= 1 << i
            m ^= low
    return places
