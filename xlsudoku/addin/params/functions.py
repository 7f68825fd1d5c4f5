"""The custom functions' arguments (``SUDOKU_GENERATE``, ``SUDOKU_COUNT``, ...), checked.

Blank and omitted arguments mean the same and take their defaults; every message names the
argument.
"""

from __future__ import annotations

from collections.abc import Sequence

from xlsudoku.addin import layout
from xlsudoku.addin.params.cells import (
    ParamError,
    Raw,
    as_number,
    geometry_of,
    is_blank,
    loose_key,
    parse_param,
)
from xlsudoku.engine.formats import geometry_named
from xlsudoku.engine.generate import (
    KNOWN_FLOOR,
    Budget,
    GenerateError,
    GenerateRequest,
    validate_request,
)
from xlsudoku.engine.generate.deep import LOW_GIVENS_TARGET
from xlsudoku.engine.grid import (
    CLASSIC,
    Geometry,
    SudokuError,
)
from xlsudoku.engine.ratings import DEFAULT_PROFILE, PROFILES


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
    xlsudoku.addin.params.cells.ParamError: grid: the puzzle must be a square block of 4, 6, 9, 12 or 16 cells a side (a 9x9-X puzzle: geometry "9x9-X"), got 1x2
    """  # noqa: E501
    if isinstance(value, str) and loose_key(value).startswith(
        ("windoku", "9x9windoku", "9x9jigsaw")
    ):
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
    """  # noqa: E501
    limit = parse_param(layout.FUNCTION_LIMIT, value, where="limit")
    return int(as_number(layout.FUNCTION_LIMIT.default if limit is None else limit))


def function_budget(value: Raw) -> Budget:
    """Return a custom function's ``time_limit``: seconds, ``cpu:S`` or ``work:U``; blank 10 s.

    Raises:
        ParamError: naming the argument.

    >>> function_budget(None), function_budget("work:3").kind.value
    (Budget(amount=10.0, kind=<BudgetKind.WALL: 'wall'>), 'work')
    >>> function_budget(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: time_limit must be seconds from 0.1 to 600, or cpu:...
    """
    checked = parse_param(layout.FUNCTION_BUDGET, value, where="time_limit")
    if checked is None:
        return Budget(layout.FUNCTION_TIME_LIMIT)
    if isinstance(checked, str):
        return Budget.parse(checked)
    return Budget(float(checked))


def _function_shape(geo: Geometry) -> str:
    """Return the shape whose defaults a custom function uses: 9x9's for Windoku and Jigsaw.

    >>> from xlsudoku.engine.grid import geometry
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
    xlsudoku.addin.params.cells.ParamError: profile: 'hodoku' is not one of se, sukaku
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
    floor = LOW_GIVENS_TARGET + 1 if shape == CLASSIC.name else KNOWN_FLOOR.get(shape, geo.size - 1)
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


def function_request(
    target_givens: Raw, pattern: Raw, seed: Raw, geometry: Raw = None
) -> GenerateRequest:
    """Return the request of ``SUDOKU_GENERATE(opens, pattern, seed, geometry)``, checked.

    Blank or omitted arguments take their defaults: geometry 9x9, opens and pattern by shape
    (:data:`layout.FUNCTION_DEFAULTS`), seed 0, so the function stays deterministic.  The
    ranges in the messages are those of the shape asked.

    Raises:
        ParamError: naming the argument.

    >>> function_request(None, None, None).seed, function_request(None, "none", 3).pattern
    (0, None)
    >>> function_request(None, None, 1, "16x16").target_givens
    140
    >>> function_request("x", 1, 1, "6x6")
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: opens for 6x6 must be a whole number from 8 to 35 (or blank), got 'x'
    """  # noqa: E501
    geo = function_geometry(geometry)
    rule = function_opens(geo)
    problems: list[str] = []
    checked: dict[str, int | float | str | None] = {}
    rules = (
        (rule, target_givens, f"opens for {geo.name}"),
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
    default_givens, default_pattern = layout.FUNCTION_DEFAULTS[_function_shape(geo)]
    chosen = checked[layout.PATTERN]
    chosen = default_pattern if chosen is None else chosen
    request = GenerateRequest(
        target_givens=int(as_number(checked[layout.OPENS] or default_givens)),
        pattern=None if chosen == layout.NO_PATTERN else chosen,
        seed=int(checked[layout.SEED] or 0),
        geometry=geo,
    )
    try:
        validate_request(request)
    except GenerateError as error:
        raise ParamError([str(error)]) from None
    return request
