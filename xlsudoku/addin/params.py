"""Raw cell values -> validated parameters, with messages that name the cell.

Cells arrive as whatever the workbook holds: ``None``, numbers (Excel keeps every number as a
float), booleans, text, dates, an Excel error such as ``#N/A`` or, in a file the headless runner
reads, a formula that was never calculated.  Each rule comes from :data:`addin.layout.PARAMS`;
every problem becomes a :class:`ParamError` whose message starts with the parameter's label and
cell, e.g. ``Opens (C5) must be a whole number from 17 to 80, got 'abc'``.

One reading of a cell, for every input cell of every sheet and every custom function argument
(:func:`cell_problem` says what can never be read, :func:`parse_param` reads the rest):

- **blank**: an empty cell, or text of spaces only.  Optional cells take their default.
- **Excel errors** (``#N/A``, ``#DIV/0!``, ... as Office.js and openpyxl hand them over) are
  refused, naming the error, never read as a blank or a default.
- **formulas** that were never calculated (a file saved by a program, read headless) and
  **dates or times** are refused: no parameter is a date.
- **logical values** (TRUE, FALSE) answer a yes/no question: Show solution reads TRUE as Yes
  and FALSE as No (as 1 and 0); every other cell refuses them, saying it holds a logical value.
- **numbers as text**: a number typed as text (``'26``, `` 27 ``, ``1,000``) is that number
  wherever a number is asked, and a number is its digits wherever text is asked (a puzzle that
  Excel turned into a number is read back when Excel kept it whole, :func:`number_puzzle`).

Puzzles are read by :func:`read_block` (the top-left corner of a 16x16 block of cells, shaped
by a geometry: digits 1-9, 10-16 or the letters A-G above 9, blank, 0 or ``.`` for an empty
cell), :func:`read_grid` (a block exactly the puzzle's size) and :func:`read_string` (a puzzle
typed as one line of text in one cell).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlsudoku.addin import layout
from xlsudoku.engine.formats import geometry_named, read_puzzles
from xlsudoku.engine.generate import (
    KNOWN_FLOOR,
    Budget,
    BudgetKind,
    GenerateError,
    GenerateRequest,
    validate_request,
)
from xlsudoku.engine.generate.deep import LOW_CLUE_TARGET, default_workers
from xlsudoku.engine.generate.request import ScoreRange
from xlsudoku.engine.grid import (
    CLASSIC,
    ConflictError,
    Geometry,
    Grid,
    ParseError,
    SudokuError,
    char_to_digit,
    geometry,
    geometry_for_cells,
)
from xlsudoku.engine.patterns import PatternError, parse_pattern
from xlsudoku.engine.ratings import DEFAULT_PROFILE, PROFILES
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry
from xlsudoku.xlsm.cells import EXCEL_ERRORS

Raw = object
"""A value as a cell holds it (None, bool, int, float, str, datetime, ...)."""


class ParamError(SudokuError):
    """One or more cells hold values the add-in cannot use.

    Attributes:
        problems: one message per bad cell, each naming the parameter and its cell.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


def is_blank(value: Raw) -> bool:
    """Return True for an empty cell (None or text made only of spaces).

    >>> is_blank(None), is_blank("  "), is_blank(0)
    (True, True, False)
    """
    return value is None or (isinstance(value, str) and not value.strip())


def shown(value: Raw) -> str:
    """Return *value* as a message quotes it: text in quotes, numbers without ``.0``.

    >>> shown("abc"), shown(26.0), shown(26.5), shown(True)
    ("'abc'", '26', '26.5', 'TRUE')
    """
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}" if abs(value) >= 1e21 else str(int(value))
    if isinstance(value, int) and abs(value) >= 10**21:  # e.g. 400 digits: say how big
        if abs(value) >= 10**4000:  # Python refuses to write out an int this long
            return "a huge number"
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, str):
        return repr(value.strip() if len(value.strip()) <= 40 else value.strip()[:37] + "...")
    return str(value)


def cell_problem(value: Raw, yes_no: bool = False) -> str | None:
    """Return why a cell holding *value* can never be read, or None (see the module's rules).

    *yes_no* is True for a cell that asks a yes/no question: a logical value answers it.

    >>> cell_problem("#N/A"), cell_problem(True), cell_problem(True, yes_no=True)
    ('holds the Excel error #N/A', 'holds the logical value TRUE', None)
    >>> cell_problem("26"), cell_problem(None)
    (None, None)
    """
    if yes_no and isinstance(value, bool):
        return None
    return _unusable(value)


def _unusable(value: Raw) -> str | None:
    """Return why *value* can never be read in a cell that asks no yes/no question, or None."""
    if isinstance(value, bool):
        return f"holds the logical value {shown(value)}"
    if isinstance(value, str):
        text = value.strip()
        if text.upper() in EXCEL_ERRORS:
            return f"holds the Excel error {text.upper()}"
        if text.startswith("="):
            return (
                f"holds the formula {shown(text)}, which was never calculated "
                "(type a value, or open and save the file in Excel first)"
            )
    if isinstance(value, dt.date | dt.time | dt.timedelta):
        return f"holds a date or time ({value})"
    return None


def _number(value: Raw) -> float | None:
    """Return *value* as a finite float, or None when it is not a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # a whole number of hundreds of digits is out of every range
            return None
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", ""))
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def _rule(param: layout.Param) -> str:
    """Return what the cell must hold, as a message says it."""
    if param.kind is layout.Kind.WHOLE:
        text = f"a whole number from {shown(param.minimum)} to {shown(param.maximum)}"
    elif param.kind is layout.Kind.DECIMAL:
        text = f"a number from {shown(param.minimum)} to {shown(param.maximum)}"
    elif param.kind is layout.Kind.BUDGET:
        low, high = shown(param.minimum), shown(param.maximum)
        text = f"seconds from {low} to {high}, or cpu:SECONDS or work:UNITS in that range"
    elif param.kind is layout.Kind.PATTERN:
        text = (
            f"a preset 1-{layout.PATTERN_COUNT}, {layout.NO_PATTERN}, or a 9-character mask of "
            "the center box (x a given, . a blank), e.g. x.x...x.x"
        )
    elif param.kind is layout.Kind.TEXT:
        text = "text"
    elif param.kind is layout.Kind.SCORE:
        text = "a range of ratings MIN-MAX or MIN-, e.g. 7.0-8.0 or 9-"
    elif len(param.choices) > 12:
        text = "one of the dropdown's entries (" + ", ".join(param.choices[:4]) + ", ...)"
    else:
        text = "one of " + ", ".join(param.choices)
    return text + (" (or blank)" if param.optional else "")


def _where(param: layout.Param) -> str:
    return f"{param.label} ({param.ref.top_left})"


def parse_param(
    param: layout.Param, value: Raw, where: str | None = None
) -> int | float | str | None:
    """Check one parameter cell; return its value (None for an allowed blank).

    WHOLE gives an ``int``, DECIMAL a ``float``, CHOICE the choice as spelled in
    ``param.choices``.  Messages start with *where* (default: the label and the cell).

    Raises:
        ParamError: naming the parameter and its cell.

    >>> opens = layout.PARAMS_BY_NAME["Opens"]
    >>> parse_param(opens, 26.0), parse_param(opens, " 27 ")
    (26, 27)
    >>> parse_param(opens, "abc")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Opens (C6) must be a whole number from 4 to 256, got 'abc'
    """
    where = where or _where(param)
    if is_blank(value):
        if param.optional:
            return None
        raise ParamError([f"{where} is empty; it must be {_rule(param)}"])
    reason = cell_problem(value, yes_no=_asks_yes_no(param))
    if reason is not None:
        raise ParamError([f"{where} {reason}; it must be {_rule(param)}"])
    if param.kind is layout.Kind.TEXT:
        return shown(value).strip("'") if not isinstance(value, str) else value.strip()
    if param.kind is layout.Kind.PATTERN:
        return _pattern(param, value, where)
    if param.kind is layout.Kind.SCORE:
        return _score(param, value, where)
    if param.kind is layout.Kind.CHOICE:
        choice = _choice(param, value)
        if choice is None:
            raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
        return choice
    if param.kind is layout.Kind.BUDGET and isinstance(value, str) and ":" in value:
        return _budget(param, value, where)
    number = _number(value)
    low = -math.inf if param.minimum is None else param.minimum
    high = math.inf if param.maximum is None else param.maximum
    whole = param.kind is layout.Kind.WHOLE
    if number is None or (whole and not number.is_integer()) or not low <= number <= high:
        raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
    return int(number) if whole else number


def _budget(param: layout.Param, value: str, where: str) -> str:
    """Return a budget cell's ``kind:amount`` (see :class:`Budget`), checked against its range.

    >>> limit = layout.PARAMS_BY_NAME["TimeLimit"]
    >>> _budget(limit, " CPU: 90 ", "Time limit (s) (C13)")
    'cpu:90'
    >>> _budget(limit, "gpu:5", "Time limit (s) (C13)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Time limit (s) (C13) must be seconds from 0.1 to 3600, ...
    """
    try:
        budget = Budget.parse(value)
    except GenerateError:
        raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"]) from None
    low = -math.inf if param.minimum is None else param.minimum
    high = math.inf if param.maximum is None else param.maximum
    if not low <= budget.amount <= high:
        raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
    return str(budget)


def _score(param: layout.Param, value: Raw, where: str) -> str:
    """Return a Score cell's range as ``MIN-MAX`` or ``MIN-`` (a number: that one rating).

    >>> score = layout.PARAMS_BY_NAME["Score"]
    >>> _score(score, " 7-8 ", "Score (C15)"), _score(score, 7.5, "Score (C15)")
    ('7.0-8.0', '7.5-7.5')
    >>> _score(score, "9-7", "Score (C15)")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Score (C15): the lowest score 9 is above the highest 7
    """
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        # a date (Excel reads 7-8 typed in a General cell as the 8th of July) or another value
        raise ParamError([f"{where} must be {_rule(param)} (typed as text), got {shown(value)}"])
    text = value if isinstance(value, str) else shown(value)
    try:
        return str(ScoreRange.parse(text))
    except GenerateError as error:
        reason = str(error).split(": ", 1)[-1]
        raise ParamError([f"{where}: {reason}"]) from None


def _asks_yes_no(param: layout.Param) -> bool:
    return param.kind is layout.Kind.CHOICE and set(param.choices) == {layout.YES, layout.NO}


def _pattern(param: layout.Param, value: Raw, where: str) -> int | str:
    """Return a preset number, ``none`` or a 9-character mask (``x`` and ``.``)."""
    problem = ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
    if isinstance(value, bool):
        raise problem
    number = _number(value)
    if number is not None:
        if number.is_integer() and 1 <= number <= layout.PATTERN_COUNT:
            return int(number)
        raise problem
    if not isinstance(value, str):  # a number out of every range (inf, nan, 10**5000)
        raise problem
    text = value.strip()
    if _key(text) == layout.NO_PATTERN:
        return layout.NO_PATTERN
    try:
        pattern = parse_pattern(text)
    except PatternError as error:
        raise ParamError([f"{where}: {error}"]) from None
    if pattern is None or len(pattern.mask) != 9:
        raise problem
    return pattern.number if pattern.number is not None else pattern.mask


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _choice(param: layout.Param, value: Raw) -> str | None:
    """Return the choice *value* names (case, spaces and aliases forgiven), or None."""
    if _asks_yes_no(param) and isinstance(value, bool | int | float):
        # A checkbox or a TRUE/FALSE cell is as clear as Yes/No.
        if value in (0, 1):
            return layout.YES if value else layout.NO
        return None
    if not isinstance(value, str):
        return None
    key = _key(value)
    for choice in param.choices:
        if key == _key(choice):
            return choice
    if _asks_yes_no(param) and key in ("true", "false", "y", "n"):
        return layout.YES if key in ("true", "y") else layout.NO
    if param.name == layout.SYMMETRY:
        try:
            return Symmetry.parse(value).value
        except ValueError:
            return None
    if param.name == layout.NEEDS:
        try:
            technique = Technique.parse(value)
        except ValueError:
            return None
        return technique.value if technique.value in param.choices else None
    return None


def geometry_of(name: str) -> Geometry:
    """Return the engine geometry of a shape name of :data:`layout.GEOMETRIES`.

    >>> geometry_of("9x9-X").name, geometry_of("12x12").box_cols, geometry_of("9x9-windoku").name
    ('9x9-X', 4, '9x9-windoku')
    """
    _, box_rows, box_cols, diagonals = layout.GEOMETRIES[name]
    return geometry(box_rows, box_cols, diagonals, windoku=name.endswith("-windoku"))


def read_geometry(param: layout.Param, value: Raw) -> Geometry:
    """Check a Geometry cell and return its geometry.

    Raises:
        ParamError: naming the cell.

    >>> read_geometry(layout.PARAMS_BY_NAME["Geometry"], "16X16").size
    16
    """
    return geometry_of(str(parse_param(param, value)))


@dataclass(frozen=True, slots=True)
class StartParams:
    """The Generator sheet's parameters, checked.

    ``seed`` is always set: a blank Seed cell gets a fresh random seed here, so the seed shown
    in the statistics is one a person can type back to repeat the puzzle.
    """

    geometry: Geometry
    pattern: int | str | None
    opens: int
    trials: int
    show_solution: bool
    symmetry: Symmetry
    difficulty: Level | None
    needs: Technique | None
    seed: int
    time_limit: float | None
    seed_was_blank: bool = False
    clock: BudgetKind = BudgetKind.WALL
    rating: str = DEFAULT_PROFILE
    score: ScoreRange | None = None


def read_start(values: Mapping[str, Raw], rng: random.Random | None = None) -> StartParams:
    """Check every Generator parameter in *values* (defined name -> raw value).

    All cells are checked before anything is reported, so one message lists every problem.
    *rng* draws the seed when the Seed cell is blank (default: the system's entropy).

    Raises:
        ParamError: listing each bad cell.

    >>> p = read_start(defaults() | {"Seed": 7, "Pattern": "x.x.x.x.x"})
    >>> p.geometry.name, p.pattern, p.opens, p.symmetry.value, p.seed, p.time_limit
    ('9x9', 8, 26, 'rotate180', 7, 60.0)
    >>> read_start({"Geometry": "9x9", "Pattern": 13, "Opens": 2.5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Pattern (C5) must be a preset 1-12, none, or a ...
    """
    problems: list[str] = []
    checked: dict[str, int | float | str | None] = {}
    for param in layout.PARAMS:
        try:
            checked[param.name] = parse_param(param, values.get(param.name))
        except ParamError as error:
            problems.extend(error.problems)
    if not problems:
        difficulty = layout.DIFFICULTY_LEVELS[str(checked[layout.DIFFICULTY])]
        needs = checked[layout.NEEDS]
        if difficulty is not None and needs != layout.NO_TECHNIQUE:
            both = (layout.PARAMS_BY_NAME[name] for name in (layout.DIFFICULTY, layout.NEEDS))
            problems.append(
                " and ".join(_where(param) for param in both)
                + f": ask for a level or a technique, not both (set Difficulty to "
                f"{layout.ANY_DIFFICULTY} or Needs technique to {layout.NO_TECHNIQUE})"
            )
        asked = [
            name
            for name, unset in ((layout.DIFFICULTY, difficulty is None),
                                (layout.NEEDS, needs == layout.NO_TECHNIQUE))
            if not unset
        ]  # fmt: skip
        if checked[layout.SCORE] is not None and asked:
            both = (layout.PARAMS_BY_NAME[name] for name in (layout.SCORE, *asked))
            problems.append(
                " and ".join(_where(param) for param in both)
                + f": ask for a score or a level or technique, not both (clear Score, or set "
                f"Difficulty to {layout.ANY_DIFFICULTY} and Needs technique to "
                f"{layout.NO_TECHNIQUE})"
            )
    if problems:
        raise ParamError(problems)
    seed = checked[layout.SEED]
    seed_was_blank = seed is None
    if seed is None:
        seed = (rng or random.SystemRandom()).randint(0, layout.MAX_SEED)
    time_limit = checked[layout.TIME_LIMIT]
    clock = BudgetKind.WALL
    if isinstance(time_limit, str):  # cpu:SECONDS or work:UNITS
        budget = Budget.parse(time_limit)
        time_limit, clock = budget.amount, budget.kind
    pattern = checked[layout.PATTERN]
    needs = checked[layout.NEEDS]
    score = checked[layout.SCORE]
    return StartParams(
        geometry=geometry_of(str(checked[layout.GEOMETRY])),
        pattern=None if pattern == layout.NO_PATTERN else pattern,
        opens=int(_as_number(checked[layout.OPENS])),
        trials=int(_as_number(checked[layout.TRIALS])),
        show_solution=checked[layout.SHOW_SOLUTION] == layout.YES,
        symmetry=Symmetry(str(checked[layout.SYMMETRY])),
        difficulty=layout.DIFFICULTY_LEVELS[str(checked[layout.DIFFICULTY])],
        needs=None if needs == layout.NO_TECHNIQUE else Technique(str(needs)),
        seed=int(_as_number(seed)),
        time_limit=(
            layout.DEFAULT_TIME_LIMIT if time_limit is None else float(_as_number(time_limit))
        ),
        seed_was_blank=seed_was_blank,
        rating=str(checked[layout.RATING]),
        clock=clock,
        score=None if score is None else ScoreRange.parse(str(score)),
    )


def defaults() -> dict[str, Raw]:
    """Return every Generator parameter's template value (defined name -> value).

    >>> defaults()["Opens"], defaults()["Geometry"]
    (26, '9x9')
    """
    return {param.name: param.default for param in layout.PARAMS}


def _as_number(value: int | float | str | None) -> float:
    """Narrow a checked WHOLE/DECIMAL value for the type checker."""
    if not isinstance(value, int | float):
        raise TypeError(f"expected a number, got {value!r}")
    return value


# -- puzzles in cells --------------------------------------------------------------------------


def _grid_digit(value: Raw, size: int) -> int | None:
    """Return the digit a grid cell holds (0 = empty), or None when it is not one.

    Numbers 1 to *size*, their text, and above 9 the letters the engine writes (A = 10).

    >>> _grid_digit(7.0, 9), _grid_digit(" 12 ", 16), _grid_digit("b", 16), _grid_digit(10, 9)
    (7, 12, 11, None)
    """
    if is_blank(value):
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = _number(value)  # None for a number beyond every float (hundreds of digits)
        if number is not None and number.is_integer() and 0 <= number <= size:
            return int(number)
        return None
    if isinstance(value, str):
        text = value.strip()
        if text in (".", "-", "_", "*"):
            return 0
        number = _number(text)
        if number is not None:
            return _grid_digit(number, size)
        if len(text) == 1 and size > 9:
            return char_to_digit(text, size)
    return None


def _digits_rule(size: int) -> str:
    return "a digit 1-9" if size == 9 else f"a number 1-{size}"


def read_grid(
    name: str | None, rows: Sequence[Sequence[Raw]], geometry: Geometry = CLASSIC
) -> Grid:
    """Read a block of cells exactly the size of *geometry* (at defined *name*, if any).

    With a defined *name*, messages give each cell's Excel address too; without one (a range
    passed to a custom function) only the ``rXcY`` name.

    Raises:
        ParamError: naming the cell of each bad value, or the two cells of a clash.

    >>> rows = [[None] * 9 for _ in range(9)]
    >>> rows[0][0] = 5.0
    >>> str(read_grid("AnalyzeGrid", rows))[:3]
    '5..'
    >>> rows[0][8] = 5
    >>> read_grid("AnalyzeGrid", rows)
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: digit 5 repeated in row 1: r1c1 (C6) and r1c9 (K6)
    >>> read_grid(None, [[1, 2]])
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: the puzzle must be a 9x9 block of cells, got 1x2
    """
    ref = layout.NAMES[name] if name is not None else None
    size = geometry.size
    if len(rows) != size or any(len(row) != size for row in rows):
        where = f"{name} ({ref.address})" if ref is not None else "the puzzle"
        width = max((len(row) for row in rows), default=0)
        raise ParamError(
            [f"{where} must be a {size}x{size} block of cells, got {len(rows)}x{width}"]
        )
    return _read_cells(ref, rows, geometry)


def read_block(name: str, rows: Sequence[Sequence[Raw]], geometry: Geometry) -> Grid:
    """Read the puzzle of *geometry* from the top-left corner of the block at defined *name*.

    The cells outside the puzzle's corner must be empty: a digit there belongs to a puzzle of
    another shape, and the message says which cell and what to do.

    Raises:
        ParamError: naming the cells at fault.

    >>> from xlsudoku.engine.grid import geometry_for_size
    >>> rows = [[None] * 16 for _ in range(16)]
    >>> rows[0][:4] = [1, 2, 3, 4]
    >>> str(read_block("AnalyzeGrid", rows, geometry_for_size(4)))
    '1234............'
    >>> rows[5][5] = 7
    >>> read_block("AnalyzeGrid", rows, geometry_for_size(4))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: cell H11 holds 7 but is outside the 4x4 grid: set ...
    """
    ref = layout.NAMES[name]
    corner = _corner(ref, rows, geometry, "set Geometry to the puzzle's shape, or clear")
    return _read_cells(ref, corner, geometry)


def _corner(
    ref: layout.Ref, rows: Sequence[Sequence[Raw]], geometry: Geometry, fix: str
) -> list[list[Raw]]:
    """Return the *geometry* corner of the block *rows*; a value outside it is a ParamError.

    The message names the first such cell, counts the others and ends with *fix* ("clear" the
    cells, or something to do first).
    """
    size = geometry.size
    outside = [
        (r, c)
        for r, row in enumerate(rows)
        for c, value in enumerate(row)
        if (r >= size or c >= size) and not is_blank(value)
    ]
    if outside:
        r, c = outside[0]
        more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
        raise ParamError(
            [
                f"cell {ref.cell(r, c)} holds {shown(rows[r][c])} but is outside the "
                f"{geometry.name} grid{more}: {fix} the cell{'s' if more else ''}"
            ]
        )
    return [list(row[:size]) for row in rows[:size]]


def _read_cells(ref: layout.Ref | None, rows: Sequence[Sequence[Raw]], geo: Geometry) -> Grid:
    return _checked(Grid(tuple(_digits(ref, rows, geo)), geo), ref)


def read_entries(name: str, rows: Sequence[Sequence[Raw]], geometry: Geometry) -> list[int]:
    """Return the digits (0 = empty) in the *geometry* corner of block *name*, clashes allowed.

    A player's entries may repeat a digit (a mistake CHECK points out); what is not a digit,
    or a digit outside the shape, is named by its cell.

    Raises:
        ParamError: naming the cells at fault.

    >>> rows = [[None] * 16 for _ in range(16)]
    >>> rows[0][:2] = [3, 3.0]
    >>> read_entries("PlayGrid", rows, CLASSIC)[:3]
    [3, 3, 0]
    >>> rows[0][2] = "x"
    >>> read_entries("PlayGrid", rows, CLASSIC)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: cell r1c3 (E6) holds 'x'; type a digit 1-9 or leave it empty
    """
    ref = layout.NAMES[name]
    return _digits(ref, _corner(ref, rows, geometry, "clear"), geometry)


def _digits(ref: layout.Ref | None, rows: Sequence[Sequence[Raw]], geo: Geometry) -> list[int]:
    """Return the digit of every cell of *rows* (0 = empty), naming each bad cell."""
    digits: list[int] = []
    problems: list[str] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            digit = _grid_digit(value, geo.size)
            if digit is None:
                reason = _unusable(value)
                problems.append(
                    f"cell {_cell_label(ref, r * geo.size + c, geo)} "
                    + (reason if reason else f"holds {shown(value)}")
                    + f"; type {_digits_rule(geo.size)} or leave it empty"
                )
                digit = 0
            digits.append(digit)
    if problems:
        if len(problems) > 3:
            problems = problems[:3] + [f"and {len(problems) - 3} more bad cells"]
        raise ParamError(problems)
    return digits


def _cell_label(ref: layout.Ref | None, cell: int, geo: Geometry = CLASSIC) -> str:
    """Return ``r1c2`` for *cell*, with its Excel address when the block's *ref* is known."""
    name = geo.cell_name(cell)
    return name if ref is None else f"{name} ({ref.cell(*divmod(cell, geo.size))})"


def string_geometry(value: Raw, chosen: Geometry) -> Geometry:
    """Return the shape of a puzzle typed as one line: *chosen* when the length fits it.

    Else the standard shape of that many cells (a 256-character line is 16x16).

    >>> x = geometry(3, 3, True)
    >>> string_geometry("." * 36, CLASSIC).name, string_geometry("." * 81, x).name
    ('6x6', '9x9-X')
    """
    text = _as_text(value)
    count = len("".join(text.split()))
    if count == chosen.cell_count:
        return chosen
    with contextlib.suppress(ParseError):
        return geometry_for_cells(count)
    return chosen


def _ascii_digits(text: str) -> bool:
    """Return True when *text* (spaces around ignored) is made of the digits 0-9 only.

    >>> _ascii_digits(" 12 "), _ascii_digits("①"), _ascii_digits("²")
    (True, False, False)
    """
    text = text.strip()
    return text.isascii() and text.isdigit()


def _as_text(value: Raw) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**4000:
        return shown(value)  # Python refuses to write out an int this long
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def cell_text(value: Raw) -> str:
    """Return a cell's value as text: a whole number without ``.0``, text stripped.

    >>> cell_text(12.0), cell_text(" ab "), cell_text(2.5)
    ('12', 'ab', '2.5')
    """
    return _as_text(value).strip()


_PATH = re.compile(r"^(~|[A-Za-z]:|\.{1,2}[/\\])|[/\\]|\.[A-Za-z][A-Za-z0-9]{1,4}$")


def looks_like_path(text: str) -> bool:
    """Return True when one line of text reads as a file path and holds no puzzle.

    >>> looks_like_path("/etc/passwd"), looks_like_path("puzzles.sdm"), looks_like_path("C:x")
    (True, True, True)
    >>> looks_like_path("4.....8.5.3" + "." * 70), looks_like_path("hello")
    (False, False)
    """
    line = text.strip().strip('"')
    if not _PATH.search(line):
        return False
    return not any(isinstance(found, Grid) for _, found in read_puzzles(line))


def read_string(name: str, value: Raw, geometry: Geometry = CLASSIC) -> Grid:
    """Read a puzzle typed into one cell (defined name *name*) as one line of *geometry*.

    Raises:
        ParamError: naming the cell, with the engine's reason (length, character, clash).

    >>> str(read_string("AnalyzeString", "12" + "." * 79))[:4]
    '12..'
    >>> read_string("AnalyzeString", "12345")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: AnalyzeString (C3): a 9x9 puzzle needs 81 cells, found 5
    """
    ref = layout.NAMES[name]
    reason = _unusable(value)
    if reason is not None:
        raise ParamError([f"{name} ({ref.address}) {reason}"])
    if isinstance(value, int | float) and not isinstance(value, bool):
        text, _ = number_puzzle(name, value)
    else:
        text = "".join(str(value).split())
    try:
        grid = Grid.parse(text, geometry)
    except ParseError as error:
        raise ParamError([f"{name} ({ref.address}): {error}"]) from None
    try:
        return grid.validate()
    except ConflictError as error:
        raise ParamError([f"{name} ({ref.address}): {error}"]) from None


# Excel keeps 15 significant digits of a number: a puzzle typed with 0 for blanks into a cell
# not formatted as Text loses its leading zeros, and every digit after the 15th.
EXCEL_DIGITS = 15


def number_puzzle(name: str, value: int | float) -> tuple[str, int]:
    """Return the puzzle that Excel turned into the number *value*, and the zeros put back.

    A whole number of at most 15 digits is exact: the puzzle is its digits after as many leading
    zeros (blanks) as make 81.  A longer one lost every digit after the 15th, so it cannot be
    read back: the message says how to paste it so that Excel keeps it.

    Raises:
        ParamError: naming the cell, when the number is not a puzzle Excel kept whole.

    >>> text, zeros = number_puzzle("AnalyzeString", 12.0)
    >>> text[-3:], len(text), zeros
    ('012', 81, 79)
    >>> number_puzzle("AnalyzeString", 1.2e80)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: AnalyzeString (C3) holds the number 1.2E+80, not the ...
    """
    ref = layout.NAMES[name]
    size = CLASSIC.cell_count
    # an int longer than any puzzle is not written out (Python refuses beyond 4300 digits)
    longer = isinstance(value, int) and abs(value) >= 10**size
    exact = not longer and (
        isinstance(value, int)
        or (math.isfinite(value) and float(value).is_integer() and abs(value) < 10**EXCEL_DIGITS)
    )
    digits = str(int(value)) if exact else ""
    if not exact or not digits.isdigit() or len(digits) > size:
        huge = isinstance(value, int) and abs(value) >= 10**308  # beyond a float
        number = shown(value) if huge else f"the number {value:.{EXCEL_DIGITS}G}"
        raise ParamError(
            [
                f"{name} ({ref.address}) holds {number}, not the "
                f"puzzle: Excel keeps only {EXCEL_DIGITS} digits of a number, so the cells "
                f"after the {EXCEL_DIGITS}th digit are lost. Format {ref.address} as Text "
                "(Home > Number Format > Text) or type ' before the puzzle, and paste it again "
                "(or write . for the blanks)"
            ]
        )
    return digits.zfill(size), size - len(digits)


def number_note(name: str, value: Raw) -> str:
    """Return the status sentence for a puzzle read back from a number, or "" for text.

    >>> number_note("AnalyzeString", 12.0)[:60]
    'AnalyzeString (C3) held a number: Excel had dropped its 79 l'
    >>> number_note("AnalyzeString", "12" + "." * 79)
    ''
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    _, zeros = number_puzzle(name, value)
    ref = layout.NAMES[name]
    return (
        f"{name} ({ref.address}) held a number: Excel had dropped its {zeros} leading zeros "
        "(blank cells), read back as 81 digits. "
    )


def _checked(grid: Grid, ref: layout.Ref | None) -> Grid:
    """Return *grid* when no digit repeats; else name the two clashing cells."""
    conflicts = grid.conflicts()
    if not conflicts:
        return grid
    geo = grid.geometry
    house, digit, first, second = conflicts[0]
    message = (
        f"digit {digit} repeated in {geo.house_name(house)}: "
        f"{_cell_label(ref, first, geo)} and {_cell_label(ref, second, geo)}"
    )
    if len(conflicts) > 1:
        more = len(conflicts) - 1
        message += f" (and {more} more clash{'es' if more > 1 else ''})"
    raise ParamError([message])


# -- the engine's own checks, named by cell ----------------------------------------------------

# The cells that set each request field a GenerateError is about.
_FIELD_CELLS: dict[str, tuple[str, ...]] = {
    "opens": (layout.OPENS,),
    "pattern": (layout.PATTERN, layout.SYMMETRY),
    "trials": (layout.TRIALS,),
    "time limit": (layout.TIME_LIMIT,),
    "seed": (layout.SEED,),
    "symmetry": (layout.SYMMETRY,),
    "difficulty": (layout.DIFFICULTY,),
    "needs": (layout.NEEDS,),
    "geometry": (layout.GEOMETRY,),
    "score": (layout.SCORE,),
    "profile": (layout.RATING,),
}


def engine_problem(error: GenerateError | str) -> str:
    """Return the generator's message prefixed with every parameter cell it is about.

    A conflict names each cell that takes part in it: the error's ``fields`` when it has them,
    else the cells its message names.

    >>> engine_problem(GenerateError("opens 25 is odd but pattern 1 opens 4 center cells",
    ...                              ("opens", "pattern", "symmetry")))
    'Opens (C6), Pattern (C5) and Symmetry (C9): opens 25 is odd but pattern 1 opens 4 center cells'
    >>> engine_problem(GenerateError("pattern: the 6x6 grid has no center box",
    ...                              ("pattern", "geometry")))
    'Pattern (C5) and Geometry (C4): the 6x6 grid has no center box'
    >>> engine_problem("opens 25 is odd but pattern 1 opens 4 center cells")
    'Opens (C6), Pattern (C5) and Symmetry (C9): opens 25 is odd but pattern 1 opens 4 center cells'
    >>> engine_problem("opens 90 is above 81, the cells a 9x9 puzzle can open")
    'Opens (C6) and Geometry (C4): opens 90 is above 81, the cells a 9x9 puzzle can open'
    >>> engine_problem("pattern: pattern 11 (diagonal) is not symmetric under rotate90")
    'Pattern (C5) and Symmetry (C9): pattern 11 (diagonal) is not symmetric under rotate90'
    """
    message = str(error)
    fields = getattr(error, "fields", ())
    if fields:
        cells = dict.fromkeys(_FIELD_CELLS[field][0] for field in fields if field in _FIELD_CELLS)
        where = [_where(layout.PARAMS_BY_NAME[name]) for name in cells]
        listed = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
        prefix = f"{fields[0]}: "
        return f"{listed}: {message[len(prefix) :] if message.startswith(prefix) else message}"
    if message.startswith("pattern: ") and "center box" in message and "grid" in message:
        names = (layout.PARAMS_BY_NAME[name] for name in (layout.PATTERN, layout.GEOMETRY))
        return " and ".join(map(_where, names)) + ": " + message[len("pattern: ") :]
    if message.startswith("opens "):  # a target the other parameters rule out names them all
        cells_named = [layout.OPENS]
        if re.search(r"\ba \d+x\d+(?:-X)? (?:puzzle|Sudoku)\b", message):
            cells_named.append(layout.GEOMETRY)
        if "pattern" in message:
            cells_named.append(layout.PATTERN)
        if (
            "symmetry" in message
            or "come in pairs" in message
            or " is odd " in message
            or (" is even " in message)
        ):
            cells_named.append(layout.SYMMETRY)
        where = [_where(layout.PARAMS_BY_NAME[name]) for name in cells_named]
        joined = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
        return f"{joined}: {message}"
    for field_name, names in _FIELD_CELLS.items():
        if message.lower().startswith(field_name):
            where_text = " and ".join(_where(layout.PARAMS_BY_NAME[name]) for name in names)
            prefix = f"{field_name}: "
            text = message[len(prefix) :] if message.startswith(prefix) else message
            return f"{where_text}: {text}"
    return message


def start_request(start: StartParams) -> GenerateRequest:
    """Return the generator request of *start*, checked by the engine (parity, pattern fit).

    Raises:
        ParamError: the engine's reason, prefixed with the parameter cells it is about.

    >>> start_request(read_start(defaults() | {"Opens": 25, "Seed": 1}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Opens (C6), Pattern (C5) and Symmetry (C9): opens 25 ...
    """
    request = GenerateRequest(
        opens=start.opens,
        pattern=start.pattern,
        trials=start.trials,
        symmetry=start.symmetry,
        time_limit=start.time_limit if start.clock is BudgetKind.WALL else None,
        budget=(
            None
            if start.clock is BudgetKind.WALL or start.time_limit is None
            else Budget(start.time_limit, start.clock)
        ),
        seed=start.seed,
        geometry=start.geometry,
        difficulty=start.difficulty,
        needs=start.needs,
        workers=default_workers(start.seed),  # deep searches: every CPU unless seeded
        score=start.score,
        profile=start.rating,
    )
    try:
        validate_request(request)
    except GenerateError as error:
        raise ParamError([engine_problem(error)]) from None
    return request


def function_geometry(value: Raw, rows: Sequence[Sequence[Raw]] | None = None) -> Geometry:
    """Return the shape a custom function's ``geometry`` argument names.

    Blank: the shape of the square range *rows* (4, 6, 9, 12 or 16 cells a side; 9x9-X must
    be named), or 9x9 without a range.

    Raises:
        ParamError: naming the argument, or the range when its size is no shape's.

    >>> function_geometry(None, [[None] * 4] * 4).name, function_geometry("9x9-x").name
    ('4x4', '9x9-X')
    >>> function_geometry(None, [[1, 2]])
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: grid: the puzzle must be a square block of 4, 6, 9, 12 or 16 cells a side (a 9x9-X puzzle: geometry "9x9-X"), got 1x2
    """  # noqa: E501
    if isinstance(value, str) and _key(value).startswith(("windoku", "9x9windoku", "9x9jigsaw")):
        try:
            return geometry_named(value)
        except SudokuError as error:
            raise ParamError([str(error)]) from None  # it names the geometry
    name = parse_param(layout.FUNCTION_GEOMETRY, value, where="geometry")
    if name is not None:
        return geometry_of(str(name))
    if rows is None:
        return CLASSIC
    shapes = {
        geometry_of(n).size: geometry_of(n) for n in layout.GEOMETRIES if geometry_of(n).standard
    }
    width = max((len(row) for row in rows), default=0)
    if len(rows) in shapes and all(len(row) == len(rows) for row in rows):
        return shapes[len(rows)]
    sides = ", ".join(str(side) for side in sorted(shapes)[:-1]) + f" or {max(shapes)}"
    raise ParamError(
        [
            f"grid: the puzzle must be a square block of {sides} cells a side (a 9x9-X "
            f'puzzle: geometry "9x9-X"), got {len(rows)}x{width}'
        ]
    )


def function_limit(value: Raw) -> int:
    """Return SUDOKU_COUNT's ``limit``: blank or omitted is 2.

    Raises:
        ParamError: naming the argument.

    >>> function_limit(None), function_limit("10")
    (2, 10)
    """
    limit = parse_param(layout.FUNCTION_LIMIT, value, where="limit")
    return int(_as_number(layout.FUNCTION_LIMIT.default if limit is None else limit))


def function_budget(value: Raw) -> Budget:
    """Return a custom function's ``time_limit``: seconds, ``cpu:S`` or ``work:U``; blank 10 s.

    Raises:
        ParamError: naming the argument.

    >>> function_budget(None), function_budget("work:3").kind.value
    (Budget(amount=10.0, kind=<BudgetKind.WALL: 'wall'>), 'work')
    >>> function_budget(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: time_limit must be seconds from 0.1 to 600, or cpu:...
    """
    checked = parse_param(layout.FUNCTION_BUDGET, value, where="time_limit")
    if checked is None:
        return Budget(layout.FUNCTION_TIME_LIMIT)
    if isinstance(checked, str):
        return Budget.parse(checked)
    return Budget(float(checked))


def _function_shape(geo: Geometry) -> str:
    """Return the shape whose defaults a custom function uses: 9x9's for Windoku and Jigsaw.

    >>> _function_shape(geometry(3, 3, windoku=True)), _function_shape(geometry(2, 3))
    ('9x9', '6x6')
    """
    return CLASSIC.name if geo.windoku or geo.regions else geo.name


def function_profile(value: Raw) -> str:
    """Return SUDOKU_GRADE's ``profile``: blank or omitted is the default profile.

    >>> function_profile(None), function_profile("SukaKu")
    ('se', 'sukaku')
    >>> function_profile("hodoku")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: profile: 'hodoku' is not one of se, sukaku
    """
    if is_blank(value):
        return DEFAULT_PROFILE
    text = str(value).strip().lower()
    if text not in PROFILES:
        raise ParamError([f"profile: {str(value).strip()!r} is not one of {', '.join(PROFILES)}"])
    return text


def function_opens(geo: Geometry) -> layout.Param:
    """Return the rule of SUDOKU_GENERATE's ``opens`` for the shape *geo*.

    From the fewest clues a puzzle of the shape can have (on 9x9, from above the generator's
    low-clue targets, which are searched under a time limit: a formula must give the same
    puzzle every time) to all cells but one.

    >>> rule = function_opens(CLASSIC)
    >>> rule.minimum, rule.maximum, rule.default
    (24, 80, 26)
    """
    shape = _function_shape(geo)
    floor = LOW_CLUE_TARGET + 1 if shape == CLASSIC.name else KNOWN_FLOOR.get(shape, geo.size - 1)
    default, _ = layout.FUNCTION_DEFAULTS[shape]
    return layout.Param(
        layout.OPENS,
        "opens",
        layout.PARAMS_BY_NAME[layout.OPENS].ref,
        layout.Kind.WHOLE,
        default,
        minimum=floor,
        maximum=geo.cell_count - 1,
        optional=True,
    )


def function_request(opens: Raw, pattern: Raw, seed: Raw, geometry: Raw = None) -> GenerateRequest:
    """Return the request of ``SUDOKU_GENERATE(opens, pattern, seed, geometry)``, checked.

    Blank or omitted arguments take their defaults: geometry 9x9, opens and pattern by shape
    (:data:`layout.FUNCTION_DEFAULTS`), seed 0, so the function stays deterministic.  The
    ranges in the messages are those of the shape asked.

    Raises:
        ParamError: naming the argument.

    >>> function_request(None, None, None).seed, function_request(None, "none", 3).pattern
    (0, None)
    >>> function_request(None, None, 1, "16x16").opens
    140
    >>> function_request("x", 1, 1, "6x6")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: opens for 6x6 must be a whole number from 8 to 35 (or blank), got 'x'
    """  # noqa: E501
    geo = function_geometry(geometry)
    rule = function_opens(geo)
    problems: list[str] = []
    checked: dict[str, int | float | str | None] = {}
    rules = (
        (rule, opens, f"opens for {geo.name}"),
        (layout.FUNCTION_PATTERN, pattern, "pattern"),
        (layout.PARAMS_BY_NAME[layout.SEED], seed, "seed"),
    )
    for param, value, where in rules:
        try:
            checked[param.name] = parse_param(param, value, where=where)
        except ParamError as error:
            problems.extend(error.problems)
    if problems:
        raise ParamError(problems)
    default_opens, default_pattern = layout.FUNCTION_DEFAULTS[_function_shape(geo)]
    chosen = checked[layout.PATTERN]
    chosen = default_pattern if chosen is None else chosen
    request = GenerateRequest(
        opens=int(_as_number(checked[layout.OPENS] or default_opens)),
        pattern=None if chosen == layout.NO_PATTERN else chosen,
        seed=int(checked[layout.SEED] or 0),
        geometry=geo,
    )
    try:
        validate_request(request)
    except GenerateError as error:
        raise ParamError([str(error)]) from None
    return request


# -- pencil marks and Collection tools ---------------------------------------------------------


def read_candidates(rows: Sequence[Sequence[Raw]], geo: Geometry) -> list[int | None]:
    r"""Return the candidate mask each cell of the Candidates block holds (None: none stored).

    Every digit character of a cell's text is a candidate; spaces and line breaks are not.

    >>> rows = [["1 3\n 5 "] + [None] * 8] + [[None] * 9 for _ in range(8)]
    >>> read_candidates(rows, CLASSIC)[:2]
    [21, None]
    """
    masks: list[int | None] = []
    for r in range(geo.size):
        for c in range(geo.size):
            value = rows[r][c] if r < len(rows) and c < len(rows[r]) else None
            mask = 0
            for ch in "" if is_blank(value) else _as_text(value):
                digit = char_to_digit(ch, geo.size) if ch not in " \n\r\t" else None
                if digit:
                    mask |= 1 << (digit - 1)
            masks.append(mask or None)
    return masks


# Ids have at most this many digits: Excel keeps every digit of a whole number this long.
MAX_ID_DIGITS = 15
# Delete ids names at most this many ids (ranges counted whole).
MAX_DELETE_IDS = 100_000


def collection_id(text: str, where: str) -> int | None:
    """Return the Collection id *text* spells in the digits 0-9, or None when it is no number.

    Raises:
        ParamError: naming *where*, when the number is longer than any id.

    >>> collection_id(" 12 ", "Play from (C3)"), collection_id("\u00b2", "Play from (C3)")
    (12, None)
    >>> collection_id("9" * 5001, "Play from (C3)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Play from (C3): '99999...' is not an id: an id has ...
    """
    text = text.strip()
    if not _ascii_digits(text):
        return None
    if len(text.lstrip("0")) > MAX_ID_DIGITS:
        short = text if len(text) <= 8 else text[:5] + "..."
        raise ParamError(
            [f"{where}: {short!r} is not an id: an id has at most {MAX_ID_DIGITS} digits"]
        )
    return int(text)


def read_ids(value: Raw, name: str = layout.DELETE_IDS) -> list[int]:
    """Return the Collection ids typed in Delete ids (or *name*): numbers and ranges, ``3, 5-7``.

    Raises:
        ParamError: naming the cell and the part that is not an id.

    >>> read_ids("3, 5-7; 9"), read_ids(4.0)
    ([3, 5, 6, 7, 9], [4])
    >>> read_ids("3, x")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Delete ids (C33) must list ids such as 3, 5-7; 'x' is not one
    """
    param = layout.TOOLS_BY_NAME[name]
    where = _where(param)
    if is_blank(value):
        verb = param.label.split()[0].lower()  # delete, restore
        raise ParamError([f"{where} is empty: type the ids of the rows to {verb}"])
    reason = _unusable(value)
    if reason is not None:
        raise ParamError([f"{where} {reason}; type ids such as 3, 5-7"])
    ids: list[int] = []
    for part in _as_text(value).replace(";", ",").split(","):
        text = part.strip()
        if not text:
            continue
        low, _, high = text.partition("-")
        first, last = collection_id(low, where), collection_id(high or low, where)
        if first is None or last is None:
            raise ParamError([f"{where} must list ids such as 3, 5-7; {shown(text)} is not one"])
        if last < first or last - first >= MAX_DELETE_IDS:
            raise ParamError([f"{where}: the range {shown(text)} runs backwards or is huge"])
        ids.extend(range(first, last + 1))
        if len(ids) > MAX_DELETE_IDS:
            raise ParamError([f"{where} names more than {MAX_DELETE_IDS} ids: take them in parts"])
    return list(dict.fromkeys(ids))
