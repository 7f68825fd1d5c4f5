"""The chain vocabulary: candidates, and potentials (a candidate assumed on or off).

A *candidate* is a digit in a cell; a *potential* is a candidate assumed *on* (it is the cell's
digit) or *off* (it is not).  Every chain of this package reasons on potentials, packed in one
int so that sets, dicts and tables indexed by them stay cheap:

- ``Candidate = cell * size + digit - 1`` (``size`` is the grid's: 9 on a classic grid);
- ``Potential = candidate * 2 + 1`` when on, ``candidate * 2`` when off.

So ``negation(p) == p ^ 1``, ``candidate_of(p) == p >> 1`` and ``is_on(p) == bool(p & 1)``: the
hot loops of the implication engine write these expressions out, everything else names them
with the functions below.
"""

from __future__ import annotations

from xlsudoku.engine.grid import Cell, Digit, Geometry

Candidate = int  # cell * size + digit - 1
Potential = int  # candidate * 2 + 1 when on, candidate * 2 when off


def candidate(cell: Cell, digit: Digit, size: int) -> Candidate:
    """Return the candidate *digit* in *cell* on a grid of *size* digits.

    >>> candidate(1, 5, 9)
    13
    """
    return cell * size + digit - 1


def on(cell: Cell, digit: Digit, size: int) -> Potential:
    """Return the potential "*cell* is *digit*".

    >>> on(1, 5, 9), off(1, 5, 9)
    (27, 26)
    """
    return (cell * size + digit - 1) * 2 + 1


def off(cell: Cell, digit: Digit, size: int) -> Potential:
    """Return the potential "*cell* is not *digit*".

    >>> negation(off(0, 1, 9)) == on(0, 1, 9)
    True
    """
    return (cell * size + digit - 1) * 2


def potential(c: Candidate, is_on: bool) -> Potential:
    """Return the candidate *c* assumed on (*is_on*) or off.

    >>> potential(13, True), potential(13, False)
    (27, 26)
    """
    return c * 2 + is_on


def negation(p: Potential) -> Potential:
    """Return the opposite of *p*: on for off, off for on.

    >>> negation(27), negation(26)
    (26, 27)
    """
    return p ^ 1


def is_on(p: Potential) -> bool:
    """Return True when *p* assumes its digit in its cell.

    >>> is_on(on(4, 2, 9)), is_on(off(4, 2, 9))
    (True, False)
    """
    return bool(p & 1)


def candidate_of(p: Potential) -> Candidate:
    """Return the candidate *p* is about.

    >>> candidate_of(on(1, 5, 9)) == candidate_of(off(1, 5, 9)) == candidate(1, 5, 9)
    True
    """
    return p >> 1


def cell_of(p: Potential, size: int) -> Cell:
    """Return the cell of *p* on a grid of *size* digits.

    >>> cell_of(on(40, 7, 9), 9), digit_of(on(40, 7, 9), 9)
    (40, 7)
    """
    return (p >> 1) // size


def digit_of(p: Potential, size: int) -> Digit:
    """Return the digit of *p* on a grid of *size* digits.

    >>> digit_of(off(80, 9, 9), 9)
    9
    """
    return (p >> 1) % size + 1


def candidate_name(c: Candidate, geo: Geometry) -> str:
    """Return ``r1c2=5`` for the candidate 5 in r1c2.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> candidate_name(candidate(1, 5, 9), CLASSIC)
    'r1c2=5'
    """
    cell, index = divmod(c, geo.size)
    return f"{geo.cell_name(cell)}={geo.digit_char(index + 1)}"


def name(p: Potential, geo: Geometry) -> str:
    """Return ``r1c2=5 on`` or ``r1c2=5 off``.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> name(on(1, 5, 9), CLASSIC), name(off(1, 5, 9), CLASSIC)
    ('r1c2=5 on', 'r1c2=5 off')
    """
    return f"{candidate_name(p >> 1, geo)} {'on' if p & 1 else 'off'}"


def statement(p: Potential, geo: Geometry) -> str:
    """Return what *p* says in words: ``r1c2 is 5`` or ``r1c2 cannot be 5``.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> statement(on(1, 5, 9), CLASSIC), statement(off(1, 5, 9), CLASSIC)
    ('r1c2 is 5', 'r1c2 cannot be 5')
    """
    cell, index = divmod(p >> 1, geo.size)
    verb = "is" if p & 1 else "cannot be"
    return f"{geo.cell_name(cell)} {verb} {geo.digit_char(index + 1)}"
