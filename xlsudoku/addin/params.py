"""Raw cell values -> validated parameters, with messages that name the cell.

Cells arrive as whatever the workbook holds: ``None``, numbers (Excel keeps every number as a
float), booleans, text, dates, an Excel error such as ``#N/A`` or, in a file the headless runner
reads, a formula that was never calculated.  Each rule comes from :data:`addin.layout.PARAMS`;
every problem becomes a :class:`ParamError` whose message starts with the parameter's label and
cell, e.g. ``Opens (C5) must be a whole number from 17 to 80, got 'abc'``.

Puzzles typed on the Analyze sheet are read by :func:`read_puzzle`: digits 1-9 in a 9x9 block
(blank, 0 or ``.`` for an empty cell) or an 81-character string in one cell.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlsudoku.addin import layout
from xlsudoku.engine.generate import GenerateError, GenerateRequest, validate_request
from xlsudoku.engine.generate.deep import LOW_CLUE_TARGET, default_workers
from xlsudoku.engine.grid import CLASSIC, ConflictError, Grid, ParseError, SudokuError
from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry

# Every error value Excel shows in a cell (Office.js sends them as these strings, openpyxl
# reads them from cells of type "e").
EXCEL_ERRORS = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#CONNECT!",
        "#BUSY!",
        "#UNKNOWN!",
        "#DATA!",
        "#PYTHON!",
    }
)

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
        return str(int(value))
    if isinstance(value, str):
        return repr(value.strip() if len(value.strip()) <= 40 else value.strip()[:37] + "...")
    return str(value)


def _unusable(value: Raw) -> str | None:
    """Return why *value* can never be a parameter (error value, formula, date), or None."""
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
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", ""))
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def _fmt(number: float | None) -> str:
    """Return a rule bound without a needless ``.0``."""
    if number is None:
        return ""
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


def _rule(param: layout.Param) -> str:
    """Return what the cell must hold, as a message says it."""
    if param.kind is layout.Kind.WHOLE:
        text = f"a whole number from {_fmt(param.minimum)} to {_fmt(param.maximum)}"
    elif param.kind is layout.Kind.DECIMAL:
        text = f"a number from {_fmt(param.minimum)} to {_fmt(param.maximum)}"
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
    xlsudoku.addin.params.ParamError: Opens (C5) must be a whole number from 17 to 80, got 'abc'
    """
    where = where or _where(param)
    if is_blank(value):
        if param.optional:
            return None
        raise ParamError([f"{where} is empty; it must be {_rule(param)}"])
    reason = _unusable(value)
    if reason is not None:
        raise ParamError([f"{where} {reason}; it must be {_rule(param)}"])
    if param.kind is layout.Kind.CHOICE:
        choice = _choice(param, value)
        if choice is None:
            raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
        return choice
    number = _number(value)
    if number is None:
        raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
    if param.kind is layout.Kind.WHOLE and not number.is_integer():
        raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
    low = -math.inf if param.minimum is None else param.minimum
    high = math.inf if param.maximum is None else param.maximum
    if not low <= number <= high:
        raise ParamError([f"{where} must be {_rule(param)}, got {shown(value)}"])
    return int(number) if param.kind is layout.Kind.WHOLE else number


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _choice(param: layout.Param, value: Raw) -> str | None:
    """Return the choice *value* names (case, spaces and aliases forgiven), or None."""
    if param.name == layout.SHOW_SOLUTION and isinstance(value, bool | int | float):
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
    if param.name == layout.SHOW_SOLUTION and key in ("true", "false", "y", "n"):
        return layout.YES if key in ("true", "y") else layout.NO
    if param.name == layout.SYMMETRY:
        try:
            return Symmetry.parse(value).value
        except ValueError:
            return None
    return None


@dataclass(frozen=True, slots=True)
class StartParams:
    """The Generator sheet's parameters, checked.

    ``seed`` is always set: a blank Seed cell gets a fresh random seed here, so the seed shown
    in the statistics is one a person can type back to repeat the puzzle.
    """

    pattern: int
    opens: int
    trials: int
    show_solution: bool
    symmetry: Symmetry
    difficulty: Level | None
    seed: int
    time_limit: float | None
    seed_was_blank: bool = False


def read_start(values: Mapping[str, Raw], rng: random.Random | None = None) -> StartParams:
    """Check every Generator parameter in *values* (defined name -> raw value).

    All cells are checked before anything is reported, so one message lists every problem.
    *rng* draws the seed when the Seed cell is blank (default: the system's entropy).

    Raises:
        ParamError: listing each bad cell.

    >>> p = read_start({"Pattern": 1, "Opens": 26, "Trials": 299, "ShowSolution": "No",
    ...                 "Symmetry": "rotate180", "Difficulty": "any", "Seed": 7,
    ...                 "TimeLimit": None})
    >>> p.opens, p.symmetry.value, p.seed, p.time_limit
    (26, 'rotate180', 7, None)
    >>> read_start({"Pattern": 13, "Opens": 2.5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Pattern (C4) must be a whole number from 1 to 12, got 13; ...
    """
    problems: list[str] = []
    checked: dict[str, int | float | str | None] = {}
    for param in layout.PARAMS:
        try:
            checked[param.name] = parse_param(param, values.get(param.name))
        except ParamError as error:
            problems.extend(error.problems)
    if problems:
        raise ParamError(problems)
    seed = checked[layout.SEED]
    seed_was_blank = seed is None
    if seed is None:
        seed = (rng or random.SystemRandom()).randint(0, layout.MAX_SEED)
    time_limit = checked[layout.TIME_LIMIT]
    return StartParams(
        pattern=int(_as_number(checked[layout.PATTERN])),
        opens=int(_as_number(checked[layout.OPENS])),
        trials=int(_as_number(checked[layout.TRIALS])),
        show_solution=checked[layout.SHOW_SOLUTION] == layout.YES,
        symmetry=Symmetry(str(checked[layout.SYMMETRY])),
        difficulty=layout.DIFFICULTY_LEVELS[str(checked[layout.DIFFICULTY])],
        seed=int(_as_number(seed)),
        time_limit=None if time_limit is None else float(_as_number(time_limit)),
        seed_was_blank=seed_was_blank,
    )


def _as_number(value: int | float | str | None) -> float:
    """Narrow a checked WHOLE/DECIMAL value for the type checker."""
    if not isinstance(value, int | float):
        raise TypeError(f"expected a number, got {value!r}")
    return value


# -- puzzles typed on the Analyze sheet --------------------------------------------------------


def _grid_digit(value: Raw) -> int | None:
    """Return the digit a grid cell holds (0 = empty), or None when it is not one."""
    if is_blank(value):
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if float(value).is_integer() and 0 <= value <= 9:
            return int(value)
        return None
    if isinstance(value, str):
        text = value.strip()
        if text in (".", "0", "-", "_", "*"):
            return 0
        if len(text) == 1 and text in "123456789":
            return int(text)
        if text.endswith(".0") and len(text) == 3 and text[0] in "123456789":
            return int(text[0])
    return None


def read_grid(name: str | None, rows: Sequence[Sequence[Raw]]) -> Grid:
    """Read a 9x9 block of cells (at defined *name*, if any) as a puzzle; check it has no clash.

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
    xlsudoku.addin.params.ParamError: digit 5 repeated in row 1: r1c1 (C5) and r1c9 (K5)
    >>> read_grid(None, [[1, 2]])
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: the puzzle must be a 9x9 block of cells, got 1x2
    """
    ref = layout.NAMES[name] if name is not None else None
    size = CLASSIC.size
    if len(rows) != size or any(len(row) != size for row in rows):
        where = f"{name} ({ref.address})" if ref is not None else "the puzzle"
        width = max((len(row) for row in rows), default=0)
        raise ParamError([f"{where} must be a 9x9 block of cells, got {len(rows)}x{width}"])
    digits: list[int] = []
    problems: list[str] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            digit = _grid_digit(value)
            if digit is None:
                reason = _unusable(value)
                problems.append(
                    f"cell {_cell_label(ref, r * size + c)} "
                    + (reason if reason else f"holds {shown(value)}")
                    + "; type a digit 1-9 or leave it empty"
                )
                digit = 0
            digits.append(digit)
    if problems:
        if len(problems) > 3:
            problems = problems[:3] + [f"and {len(problems) - 3} more bad cells"]
        raise ParamError(problems)
    return _checked(Grid(tuple(digits)), ref)


def _cell_label(ref: layout.Ref | None, cell: int) -> str:
    """Return ``r1c2`` for *cell*, with its Excel address when the block's *ref* is known."""
    name = CLASSIC.cell_name(cell)
    return name if ref is None else f"{name} ({ref.cell(*divmod(cell, CLASSIC.size))})"


def read_string(name: str, value: Raw) -> Grid:
    """Read an 81-character puzzle typed into one cell (defined name *name*).

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
    text = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    try:
        grid = Grid.parse(text.strip(), CLASSIC)
    except ParseError as error:
        raise ParamError([f"{name} ({ref.address}): {error}"]) from None
    try:
        return grid.validate()
    except ConflictError as error:
        raise ParamError([f"{name} ({ref.address}): {error}"]) from None


def _checked(grid: Grid, ref: layout.Ref | None) -> Grid:
    """Return *grid* when no digit repeats; else name the two clashing cells."""
    conflicts = grid.conflicts()
    if not conflicts:
        return grid
    house, digit, first, second = conflicts[0]
    message = (
        f"digit {digit} repeated in {grid.geometry.house_name(house)}: "
        f"{_cell_label(ref, first)} and {_cell_label(ref, second)}"
    )
    if len(conflicts) > 1:
        more = len(conflicts) - 1
        message += f" (and {more} more clash{'es' if more > 1 else ''})"
    raise ParamError([message])


# -- the engine's own checks, named by cell ----------------------------------------------------

# A GenerateError message starts with the request field it is about; these are the cells that
# set each field (a pattern that does not fit the symmetry is about both).
_FIELD_CELLS: dict[str, tuple[str, ...]] = {
    "opens": (layout.OPENS,),
    "pattern": (layout.PATTERN, layout.SYMMETRY),
    "trials": (layout.TRIALS,),
    "time limit": (layout.TIME_LIMIT,),
    "seed": (layout.SEED,),
    "symmetry": (layout.SYMMETRY,),
    "difficulty": (layout.DIFFICULTY,),
    "needs": (layout.DIFFICULTY,),
}


def engine_problem(message: str) -> str:
    """Return the generator's *message* prefixed with the parameter cells it is about.

    >>> engine_problem("opens 25 is odd but pattern 1 (corners) opens 4 center cells")
    'Opens (C5): opens 25 is odd but pattern 1 (corners) opens 4 center cells'
    >>> engine_problem("pattern: pattern 11 (diagonal) is not symmetric under rotate90")
    'Pattern (C4) and Symmetry (C8): pattern 11 (diagonal) is not symmetric under rotate90'
    """
    for field_name, names in _FIELD_CELLS.items():
        if message.lower().startswith(field_name):
            where = " and ".join(_where(layout.PARAMS_BY_NAME[name]) for name in names)
            prefix = f"{field_name}: "
            text = message[len(prefix) :] if message.startswith(prefix) else message
            return f"{where}: {text}"
    return message


def start_request(start: StartParams) -> GenerateRequest:
    """Return the generator request of *start*, checked by the engine (parity, pattern fit).

    Raises:
        ParamError: the engine's reason, prefixed with the parameter cells it is about.

    >>> p = read_start({"Pattern": 1, "Opens": 25, "Trials": 9, "ShowSolution": "No",
    ...                 "Symmetry": "rotate180", "Difficulty": "any", "Seed": 1})
    >>> start_request(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: Opens (C5): opens 25 is odd but pattern 1 ...
    """
    request = GenerateRequest(
        opens=start.opens,
        pattern=start.pattern,
        trials=start.trials,
        symmetry=start.symmetry,
        time_limit=start.time_limit,
        seed=start.seed,
        difficulty=start.difficulty,
        workers=default_workers(start.seed),  # deep searches: every CPU unless seeded
    )
    try:
        validate_request(request)
    except GenerateError as error:
        raise ParamError([engine_problem(str(error))]) from None
    return request


def function_request(opens: Raw, pattern: Raw, seed: Raw) -> GenerateRequest:
    """Return the request of ``SUDOKU_GENERATE(opens, pattern, seed)``, checked.

    The arguments follow the Opens, Pattern and Seed cells' rules; a blank seed is 0, so the
    function stays deterministic, and opens must be above the generator's low-clue targets
    (which are searched under a time limit, so their result depends on the clock).

    Raises:
        ParamError: naming the argument.

    >>> function_request(26, 1, None).seed
    0
    >>> function_request(26, "x", 1)
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.ParamError: pattern must be a whole number from 1 to 12, got 'x'
    """
    problems: list[str] = []
    checked: dict[str, int | float | str | None] = {}
    for name, value in ((layout.OPENS, opens), (layout.PATTERN, pattern), (layout.SEED, seed)):
        param = layout.PARAMS_BY_NAME[name]
        try:
            checked[name] = parse_param(param, value, where=name.lower())
        except ParamError as error:
            problems.extend(error.problems)
    if problems:
        raise ParamError(problems)
    request = GenerateRequest(
        opens=int(_as_number(checked[layout.OPENS])),
        pattern=int(_as_number(checked[layout.PATTERN])),
        seed=int(checked[layout.SEED] or 0),
    )
    if request.opens <= LOW_CLUE_TARGET:
        # Deeper targets go to a time-limited search: the result would depend on the clock,
        # and a formula must not hold Excel for a minute.
        raise ParamError(
            [
                f"opens {request.opens}: SUDOKU_GENERATE makes puzzles with "
                f"{LOW_CLUE_TARGET + 1} or more opens; use START for fewer"
            ]
        )
    try:
        validate_request(request)
    except GenerateError as error:
        raise ParamError([str(error)]) from None
    return request
