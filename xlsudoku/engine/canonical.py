"""Canonical form of a 9x9 puzzle up to the Sudoku symmetries.

Two puzzles are the same to a solver when one becomes the other by the moves that keep every
row, column and box a house: permuting the rows within a band, the bands, the columns within a
stack, the stacks, transposing, and relabelling the digits.  The canonical form is the least
81-character string (blank ``.`` before the digits) over all ``2 * 6**8`` placements of rows
and columns, each read with its digits relabelled in order of first appearance, so two puzzles
are the same exactly when their canonical forms are equal.

The least string is found a row at a time: for each transposition and each of the 1296 column
orders, every row may come first; only the choices whose rows so far read least go on to the
next row (the relabelling is fixed by the rows already read, so a row's reading costs a few
operations).  Column orders that line up the same columns are one order, which keeps sparse
and regular grids (the empty grid at worst) from multiplying equal choices.  Puzzles of other
shapes get the relabelling alone (their symmetries differ).
"""

from __future__ import annotations

import itertools

from xlsudoku.engine.grid import Grid

_ORDERS3 = tuple(itertools.permutations(range(3)))
# every column order that keeps the stacks: a stack order, then an order within each stack
_COLUMN_ORDERS = tuple(
    tuple(3 * s + i for s, inner in zip(stacks, within, strict=True) for i in inner)
    for stacks in _ORDERS3
    for within in itertools.product(_ORDERS3, repeat=3)
)


def relabelled(cells: tuple[int, ...]) -> str:
    """Return *cells* as a string with the digits renamed 1, 2, ... in order of first appearance.

    >>> relabelled((5, 0, 5, 3))
    '1.12'
    """
    names: dict[int, str] = {0: "."}
    out = []
    for d in cells:
        if d not in names:
            names[d] = str(len(names))
        out.append(names[d])
    return "".join(out)


def canonical_form(grid: Grid) -> str:
    """Return the least string of *grid* over the Sudoku symmetries and relabellings.

    A 9x9 grid with rows, columns and boxes only is read up to every symmetry; any other
    geometry up to relabelling alone.

    >>> puzzle = Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    >>> turned = Grid(tuple(puzzle[(8 - c % 9) * 9 + c // 9] for c in range(81)))
    >>> swapped = Grid(tuple((10 - d) % 10 for d in turned))
    >>> str(swapped) == str(puzzle), canonical_form(swapped) == canonical_form(puzzle)
    (False, True)
    >>> canonical_form(puzzle)[:27]
    '...........1..2..324.56.78.'
    """
    geo = grid.geometry
    if geo.size != 9 or not geo.standard or geo.box_rows != 3:
        return relabelled(grid.cells)
    cells = grid.cells
    transposed = tuple(cells[(c % 9) * 9 + c // 9] for c in range(81))
    # a partial reading: (rows of the grid by position, column order, rows used, the band
    # being filled, the digit names so far)
    states: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], dict[int, int]]] = []
    for source in (cells, transposed):
        columns = [source[c::9] for c in range(9)]
        # column orders that line up the same columns read the same forever: keep one each
        distinct = {tuple(columns[c] for c in order): order for order in _COLUMN_ORDERS}
        states += [(source, order, (), {0: 0}) for order in distinct.values()]
    best = ""
    for position in range(9):
        least: tuple[int, ...] | None = None
        kept: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], dict[int, int]]] = []
        for source, order, used, names in states:
            if position % 3:
                band = used[-1] // 3
                rows = [r for r in range(3 * band, 3 * band + 3) if r not in used]
            else:
                bands = {r // 3 for r in used}
                rows = [r for r in range(9) if r // 3 not in bands]
            for row in rows:
                new = dict(names)
                reading = []
                for col in order:
                    d = source[row * 9 + col]
                    if d not in new:
                        new[d] = len(new)
                    reading.append(new[d])
                key = tuple(reading)
                if least is None or key < least:
                    least, kept = key, [(source, order, (*used, row), new)]
                elif key == least:
                    kept.append((source, order, (*used, row), new))
        best += "".join("." if v == 0 else str(v) for v in least or ())
        states = kept
    return best
