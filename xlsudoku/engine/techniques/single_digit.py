"""Single-digit patterns: Skyscraper, 2-String Kite and Empty Rectangle.

All three join two *strong links* on one digit (a house where the digit has exactly two
places, so one of them holds it) through a *weak link* (two of the cells see each other, so
at most one holds it).  One of the two free ends then holds the digit, and any cell that sees
both ends cannot.

- Skyscraper: two rows (or two columns) with two places each; one end of each lies in the same
  column (row).
- 2-String Kite: a row and a column with two places each, one end of each in the same box.
- Empty Rectangle: the digit's places in a box all lie on one row and one column of the box
  (the box holds it in that row or in that column), joined to a strong link outside the box.

A *dual* kite or empty rectangle (two patterns on the same box) is yielded first as one step
that makes both sets of eliminations, then each pattern alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Cell, Digit, House
from xlsudoku.engine.steps import Elimination, Step, Technique


def _positions(board: Board, digit: Digit) -> list[tuple[Cell, ...]]:
    """Return, for every house, the cells where *digit* is a candidate."""
    bit = 1 << (digit - 1)
    cands = board.cands
    return [tuple([c for c in cells if cands[c] & bit]) for cells in board.geometry.houses]


def _seen_by_both(
    board: Board, digit: Digit, a: Cell, b: Cell, skip: tuple[Cell, ...]
) -> tuple[Cell, ...]:
    """Return the cells holding *digit* as a candidate that see both *a* and *b*."""
    bit = 1 << (digit - 1)
    peer_sets = board.geometry.peer_sets
    both = peer_sets[a] & peer_sets[b]
    return tuple(sorted(c for c in both if board.cands[c] & bit and c not in skip))


def _eliminations(cells: tuple[Cell, ...], digit: Digit) -> tuple[Elimination, ...]:
    return tuple(Elimination(c, digit) for c in cells)


def _names(board: Board, cells: tuple[Cell, ...]) -> str:
    """Return ``r1c2, r3c4 and r5c6``."""
    names = [board.geometry.cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def find_skyscraper(board: Board) -> Iterator[Step]:
    """Yield every Skyscraper: two parallel strong links whose base ends share a line.

    >>> b = _board_with_places({1: [(1, 2), (1, 7), (7, 2), (7, 6), (6, 7), (4, 4)]})
    >>> print(next(find_skyscraper(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    Skyscraper on 1: row 2 and row 8 each hold 1 in two places; r2c3 and r8c3 share column 3, so
    1 is in r2c8 or r8c7, and r7c8 cannot be 1
    """
    geo = board.geometry
    n = geo.size
    for digit in range(1, n + 1):
        pos = _positions(board, digit)
        for first, line_kind in ((0, "row"), (n, "column")):
            lines = [h for h in range(first, first + n) if len(pos[h]) == 2]
            for i, h1 in enumerate(lines):
                for h2 in lines[i + 1 :]:
                    step = _skyscraper(board, digit, pos, h1, h2, line_kind)
                    if step is not None:
                        yield step


def _skyscraper(
    board: Board, digit: Digit, pos: list[tuple[Cell, ...]], h1: House, h2: House, line_kind: str
) -> Step | None:
    """Return the Skyscraper on the two-place lines *h1* and *h2*, if their ends align once."""
    geo = board.geometry
    across = geo.col_of if line_kind == "row" else geo.row_of
    a1, a2 = pos[h1]
    b1, b2 = pos[h2]
    shared = {across(a1), across(a2)} & {across(b1), across(b2)}
    if len(shared) != 1:
        return None  # no common line, or an X-Wing
    line = shared.pop()
    base_a, roof_a = (a1, a2) if across(a1) == line else (a2, a1)
    base_b, roof_b = (b1, b2) if across(b1) == line else (b2, b1)
    chain = (base_a, roof_a, base_b, roof_b)
    targets = _seen_by_both(board, digit, roof_a, roof_b, chain)
    if not targets:
        return None
    ch = geo.digit_char(digit)
    base_house = geo.size + line if line_kind == "row" else line
    explanation = (
        f"Skyscraper on {ch}: {geo.house_name(h1)} and {geo.house_name(h2)} each hold {ch} in two "
        f"places; {geo.cell_name(base_a)} and {geo.cell_name(base_b)} share "
        f"{geo.house_name(base_house)}, so {ch} is in {geo.cell_name(roof_a)} or "
        f"{geo.cell_name(roof_b)}, and {_names(board, targets)} cannot be {ch}"
    )
    return Step(
        Technique.SKYSCRAPER,
        (),
        _eliminations(targets, digit),
        chain,
        (h1, h2),
        (digit,),
        explanation,
    )


def find_two_string_kite(board: Board) -> Iterator[Step]:
    """Yield every 2-String Kite: a row and a column strong link joined inside one box.

    Kites on the same box and digit with different eliminations are first yielded together as
    one dual kite.

    >>> b = _board_with_places({1: [(0, 1), (0, 6), (2, 2), (7, 2), (7, 6), (4, 4)]})
    >>> print(next(find_two_string_kite(b)).explanation)  # doctest: +NORMALIZE_WHITESPACE
    2-String Kite on 1: row 1 holds 1 only in r1c2 and r1c7, column 3 only in r3c3 and r8c3;
    r1c2 and r3c3 share box 1, so 1 is in r1c7 or r8c3, and r8c7 cannot be 1
    """
    geo = board.geometry
    n = geo.size
    for digit in range(1, n + 1):
        pos = _positions(board, digit)
        by_box: dict[House, list[Step]] = {}
        for row in range(n):
            if len(pos[row]) != 2:
                continue
            for col in range(n, 2 * n):
                if len(pos[col]) != 2:
                    continue
                for step in _kites(board, digit, pos[row], pos[col], row, col):
                    by_box.setdefault(step.houses[2], []).append(step)
        yield from _with_duals(board, digit, by_box, Technique.TWO_STRING_KITE, "2-String Kites")


def _kites(
    board: Board,
    digit: Digit,
    row_cells: tuple[Cell, ...],
    col_cells: tuple[Cell, ...],
    row: House,
    col: House,
) -> Iterator[Step]:
    """Yield the kites joining the row pair and the column pair through a shared box."""
    geo = board.geometry
    if set(row_cells) & set(col_cells):
        return
    ch = geo.digit_char(digit)
    for r_in in row_cells:
        for c_in in col_cells:
            if geo.box_of(r_in) != geo.box_of(c_in):
                continue
            r_out = row_cells[1] if r_in == row_cells[0] else row_cells[0]
            c_out = col_cells[1] if c_in == col_cells[0] else col_cells[0]
            chain = (r_out, r_in, c_in, c_out)
            targets = _seen_by_both(board, digit, r_out, c_out, chain)
            if not targets:
                continue
            box = 2 * geo.size + geo.box_of(r_in)
            yield Step(
                Technique.TWO_STRING_KITE,
                (),
                _eliminations(targets, digit),
                chain,
                (row, col, box),
                (digit,),
                f"2-String Kite on {ch}: {geo.house_name(row)} holds {ch} only in "
                f"{geo.cell_name(row_cells[0])} and {geo.cell_name(row_cells[1])}, "
                f"{geo.house_name(col)} only in {geo.cell_name(col_cells[0])} and "
                f"{geo.cell_name(col_cells[1])}; {geo.cell_name(r_in)} and {geo.cell_name(c_in)} "
                f"share {geo.house_name(box)}, so {ch} is in {geo.cell_name(r_out)} or "
                f"{geo.cell_name(c_out)}, and {_names(board, targets)} cannot be {ch}",
            )


def _with_duals(
    board: Board, digit: Digit, by_box: dict[House, list[Step]], technique: Technique, plural: str
) -> Iterator[Step]:
    """Yield, per box, the union of patterns with different eliminations, then each pattern."""
    geo = board.geometry
    for box in sorted(by_box):
        steps = by_box[box]
        distinct: dict[frozenset[Elimination], Step] = {}
        for step in steps:
            distinct.setdefault(frozenset(step.eliminations), step)
        if len(distinct) > 1:
            elims = sorted(
                {e for s in distinct.values() for e in s.eliminations}, key=lambda e: e.cell
            )
            cells = tuple(dict.fromkeys(c for s in distinct.values() for c in s.cells))
            houses = tuple(dict.fromkeys(h for s in distinct.values() for h in s.houses))
            ch = geo.digit_char(digit)
            parts = "; ".join(s.explanation.split(": ", 1)[1] for s in distinct.values())
            yield Step(
                technique,
                (),
                tuple(elims),
                cells,
                houses,
                (digit,),
                f"Dual {plural} on {ch} in {geo.house_name(box)}: {parts}",
            )
        yield from steps


def find_empty_rectangle(board: Board) -> Iterator[Step]:
    """Yield every Empty Rectangle: a box holding the digit on a cross, plus a strong link.

    >>> places = [(0, 0), (1, 1), (1, 2), (2, 0), (4, 0), (4, 5), (1, 5), (7, 5)]
    >>> b = _board_with_places({1: places})
    >>> s = next(find_empty_rectangle(b))
    >>> print(s.explanation)  # doctest: +NORMALIZE_WHITESPACE
    Empty Rectangle on 1: box 1 holds 1 only in row 2 or column 1; row 5 holds 1 only in r5c1
    and r5c6. If r5c6 is not 1, r5c1 is, so column 1 of the box is not and row 2 of the box is;
    either way r2c6 cannot be 1
    """
    geo = board.geometry
    n = geo.size
    if geo.box_rows < 2 or geo.box_cols < 2 or geo.regions:
        return
    for digit in range(1, n + 1):
        pos = _positions(board, digit)
        by_box: dict[House, list[Step]] = {}
        for b in range(n):
            box = 2 * n + b
            cells = pos[box]
            if len(cells) < 2:
                continue
            rows = sorted({geo.row_of(c) for c in cells})
            cols = sorted({geo.col_of(c) for c in cells})
            if len(rows) < 2 or len(cols) < 2:
                continue  # all in one line: locked candidates, not a rectangle
            placed = [(geo.row_of(x), geo.col_of(x)) for x in cells]
            for r in sorted({geo.row_of(c) for c in geo.houses[box]}):
                # the cross at row r must hold every place: those off row r share one column
                off_row = {col for row, col in placed if row != r}
                if len(off_row) != 1:
                    continue
                (c,) = off_row
                if not any(row == r and col != c for row, col in placed):
                    continue
                for step in _rectangles(board, digit, pos, box, r, c, cells):
                    by_box.setdefault(box, []).append(step)
        yield from _with_duals(board, digit, by_box, Technique.EMPTY_RECTANGLE, "Empty Rectangles")


def _rectangles(
    board: Board,
    digit: Digit,
    pos: list[tuple[Cell, ...]],
    box: House,
    r: int,
    c: int,
    cells: tuple[Cell, ...],
) -> Iterator[Step]:
    """Yield the Empty Rectangle steps of *box* (cross at row *r*, column *c*)."""
    geo = board.geometry
    n = geo.size
    band = r // geo.box_rows
    stack = c // geo.box_cols
    ch = geo.digit_char(digit)
    bit = 1 << (digit - 1)
    cross = f"{geo.house_name(box)} holds {ch} only in row {r + 1} or column {c + 1}"
    # A strong link in a row: one end in column c (outside the band), the other end outside
    # the stack; the box's row r then meets the other end's column.
    for row in range(n):
        if row // geo.box_rows == band or len(pos[row]) != 2:
            continue
        for near in pos[row]:
            if geo.col_of(near) != c:
                continue
            far = pos[row][1] if near == pos[row][0] else pos[row][0]
            if geo.col_of(far) // geo.box_cols == stack:
                continue
            target = geo.cell_at(r, geo.col_of(far))
            if not board.cands[target] & bit:
                continue
            yield Step(
                Technique.EMPTY_RECTANGLE,
                (),
                (Elimination(target, digit),),
                cells + (near, far),
                (box, row),
                (digit,),
                f"Empty Rectangle on {ch}: {cross}; {geo.house_name(row)} holds {ch} only in "
                f"{geo.cell_name(near)} and {geo.cell_name(far)}. If {geo.cell_name(far)} is not "
                f"{ch}, {geo.cell_name(near)} is, so column {c + 1} of the box is not and row "
                f"{r + 1} of the box is; either way {geo.cell_name(target)} cannot be {ch}",
            )
    # A strong link in a column: one end in row r (outside the stack), the other end outside
    # the band; the box's column c then meets the other end's row.
    for col in range(n, 2 * n):
        if (col - n) // geo.box_cols == stack or len(pos[col]) != 2:
            continue
        for near in pos[col]:
            if geo.row_of(near) != r:
                continue
            far = pos[col][1] if near == pos[col][0] else pos[col][0]
            if geo.row_of(far) // geo.box_rows == band:
                continue
            target = geo.cell_at(geo.row_of(far), c)
            if not board.cands[target] & bit:
                continue
            yield Step(
                Technique.EMPTY_RECTANGLE,
                (),
                (Elimination(target, digit),),
                cells + (near, far),
                (box, col),
                (digit,),
                f"Empty Rectangle on {ch}: {cross}; {geo.house_name(col)} holds {ch} only in "
                f"{geo.cell_name(near)} and {geo.cell_name(far)}. If {geo.cell_name(far)} is not "
                f"{ch}, {geo.cell_name(near)} is, so row {r + 1} of the box is not and column "
                f"{c + 1} of the box is; either way {geo.cell_name(target)} cannot be {ch}",
            )


def _board_with_places(places: dict[Digit, list[tuple[int, int]]]) -> Board:
    """Return an empty-valued 9x9 board where each digit is a candidate only at *places*.

    Other digits are candidates everywhere; for doctests and hand-made cases.
    """
    from xlsudoku.engine.grid import CLASSIC

    cands = [CLASSIC.all_digits] * 81
    for digit, cells in places.items():
        bit = 1 << (digit - 1)
        keep = {CLASSIC.cell_at(r, c) for r, c in cells}
        cands = [m if i in keep else m & ~bit for i, m in enumerate(cands)]
    return Board.from_candidates((0,) * 81, tuple(cands))
