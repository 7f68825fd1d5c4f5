"""The one reading of a cell value, with messages that name the cell.

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
  Excel turned into a number is read back when Excel kept it whole,
  :func:`xlsudoku.addin.params.puzzles.number_puzzle`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

from xlsudoku.addin import layout
from xlsudoku.engine.formats import geometry_named
from xlsudoku.engine.generate import (
    Budget,
    GenerateError,
)
from xlsudoku.engine.generate.request import ScoreRange
from xlsudoku.engine.grid import (
    Geometry,
    SudokuError,
    geometry,
)
from xlsudoku.engine.patterns import PatternError, parse_pattern
from xlsudoku.engine.steps import Technique
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
    return unusable(value)


def unusable(value: Raw) -> str | None:
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


def number_of(value: Raw) -> float | None:
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


def where_of(param: layout.Param) -> str:
    """Return how a message names *param*: its label and its cell.

    >>> where_of(layout.PARAMS_BY_NAME["Opens"])
    'Opens (C6)'
    """
    return f"{param.label} ({param.ref.top_left})"


def parse_param(
    param: layout.Param, value: Raw, where: str | None = None
) -> int | float | str | None:
    """Check one parameter cell; return its value (None for an allowed blank).

    WHOLE gives an ``int``, DECIMAL a ``float``, CHOICE the choice as spelled in
    ``param.choices``.  Messages start with *where* (default: the label and the cell).

    Raises:
        ParamError: naming the parameter and its cell.

    >>> target_givens = layout.PARAMS_BY_NAME["Opens"]
    >>> parse_param(target_givens, 26.0), parse_param(target_givens, " 27 ")
    (26, 27)
    >>> parse_param(target_givens, "abc")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: Opens (C6) must be a whole number from 4 to 256, got 'abc'
    """  # noqa: E501
    where = where or where_of(param)
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
    if param.kind is layout.Kind.CHOICE and _names_a_jigsaw(param, value):
        return _jigsaw(value, where)
    if param.kind is layout.Kind.CHOICE:
        choice = _choice(param, value)
        if choice is None:
            raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
        return choice
    if param.kind is layout.Kind.BUDGET and isinstance(value, str) and ":" in value:
        return _budget(param, value, where)
    number = number_of(value)
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
    xlsudoku.addin.params.cells.ParamError: Time limit (s) (C13) must be seconds from 0.1 to 3600, ...
    """  # noqa: E501
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
    xlsudoku.addin.params.cells.ParamError: Score (C15): the lowest score 9 is above the highest 7
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
    number = number_of(value)
    if number is not None:
        if number.is_integer() and 1 <= number <= layout.PATTERN_COUNT:
            return int(number)
        raise problem
    if not isinstance(value, str):  # a number out of every range (inf, nan, 10**5000)
        raise problem
    text = value.strip()
    if loose_key(text) == layout.NO_PATTERN:
        return layout.NO_PATTERN
    try:
        pattern = parse_pattern(text)
    except PatternError as error:
        raise ParamError([f"{where}: {error}"]) from None
    if pattern is None or len(pattern.mask) != 9:
        raise problem
    return pattern.number if pattern.number is not None else pattern.mask


def loose_key(text: str) -> str:
    """Return *text* as choices are matched: lower case, letters and digits only.

    >>> loose_key(" Rotate 180 "), loose_key("9x9-X")
    ('rotate180', '9x9x')
    """
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
    key = loose_key(value)
    for choice in param.choices:
        if key == loose_key(choice):
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


def _names_a_jigsaw(param: layout.Param, value: Raw) -> bool:
    """Return True when a Geometry cell's *value* names a Jigsaw (its layout still unchecked)."""
    jigsaw_cell = param.name in (layout.GEOMETRY, layout.ANALYZE_GEOMETRY)
    return jigsaw_cell and isinstance(value, str) and loose_key(value).startswith("9x9jigsaw")


def _jigsaw(value: str, where: str) -> str:
    """Return the name of the Jigsaw *value* names, its layout checked (the engine's reason).

    >>> _jigsaw(" 9x9-Jigsaw:Steps ", "Geometry (C4)")
    '9x9-jigsaw:steps'
    >>> _jigsaw("9x9-jigsaw:" + "1" * 81, "Geometry (C4)")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: Geometry (C4): jigsaw layout: needs 9 regions, found 1
    """
    try:
        return geometry_named(value).name
    except SudokuError as error:
        reason = str(error).split(": ", 1)[1] if str(error).startswith("geometry ") else str(error)
        raise ParamError([f"{where}: {reason}"]) from None


def geometry_of(name: str) -> Geometry:
    """Return the engine geometry of a shape name of :data:`layout.GEOMETRIES`, or a Jigsaw's.

    >>> geometry_of("9x9-X").name, geometry_of("12x12").box_cols, geometry_of("9x9-windoku").name
    ('9x9-X', 4, '9x9-windoku')
    >>> geometry_of("9x9-jigsaw:comb").regions[:9]
    '111223333'
    """
    if name.startswith(layout.JIGSAW_PREFIX):
        return geometry_named(name)
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


def as_number(value: int | float | str | None) -> float:
    """Narrow a checked WHOLE/DECIMAL value for the type checker."""
    if not isinstance(value, int | float):
        raise TypeError(f"expected a number, got {value!r}")
    return value


def as_text(value: Raw) -> str:
    """Return a cell's value as text, a whole number without ``.0`` (spaces kept).

    >>> as_text(12.0), as_text(" ab "), as_text(2.5)
    ('12', ' ab ', '2.5')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**4000:
        return shown(value)  # Python refuses to write out an int this long
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
