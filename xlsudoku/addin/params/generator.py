"""The Generator sheet's parameters: checked together, then made a generator request.

:func:`read_start` checks every cell before it reports, so one message lists every problem;
:func:`start_request` adds the engine's own checks (parity, pattern fit), each message
prefixed with the cells it is about (:func:`engine_problem`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from xlsudoku.addin import layout
from xlsudoku.addin.params.cells import (
    ParamError,
    Raw,
    as_number,
    geometry_of,
    parse_param,
    where_of,
)
from xlsudoku.engine.generate import (
    Budget,
    BudgetKind,
    GenerateError,
    GenerateRequest,
    validate_request,
)
from xlsudoku.engine.generate.deep import default_workers
from xlsudoku.engine.generate.request import ScoreRange
from xlsudoku.engine.grid import (
    Geometry,
)
from xlsudoku.engine.ratings import DEFAULT_PROFILE
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry


@dataclass(frozen=True, slots=True)
class StartParams:
    """The Generator sheet's parameters, checked.

    ``seed`` is always set: a blank Seed cell gets a fresh random seed here, so the seed shown
    in the statistics is one a person can type back to repeat the puzzle.
    """

    geometry: Geometry
    pattern: int | str | None
    target_givens: int
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
    >>> p.geometry.name, p.pattern, p.target_givens, p.symmetry.value, p.seed, p.time_limit
    ('9x9', 8, 26, 'rotate180', 7, 60.0)
    >>> read_start({"Geometry": "9x9", "Pattern": 13, "Opens": 2.5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.addin.params.cells.ParamError: Pattern (C5) must be a preset 1-12, none, or a ...
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
                " and ".join(where_of(param) for param in both)
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
                " and ".join(where_of(param) for param in both)
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
        target_givens=int(as_number(checked[layout.OPENS])),
        trials=int(as_number(checked[layout.TRIALS])),
        show_solution=checked[layout.SHOW_SOLUTION] == layout.YES,
        symmetry=Symmetry(str(checked[layout.SYMMETRY])),
        difficulty=layout.DIFFICULTY_LEVELS[str(checked[layout.DIFFICULTY])],
        needs=None if needs == layout.NO_TECHNIQUE else Technique(str(needs)),
        seed=int(as_number(seed)),
        time_limit=(
            layout.DEFAULT_TIME_LIMIT if time_limit is None else float(as_number(time_limit))
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
        where = [where_of(layout.PARAMS_BY_NAME[name]) for name in cells]
        listed = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
        prefix = f"{fields[0]}: "
        return f"{listed}: {message[len(prefix) :] if message.startswith(prefix) else message}"
    if message.startswith("pattern: ") and "center box" in message and "grid" in message:
        names = (layout.PARAMS_BY_NAME[name] for name in (layout.PATTERN, layout.GEOMETRY))
        return " and ".join(map(where_of, names)) + ": " + message[len("pattern: ") :]
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
        where = [where_of(layout.PARAMS_BY_NAME[name]) for name in cells_named]
        joined = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
        return f"{joined}: {message}"
    for field_name, names in _FIELD_CELLS.items():
        if message.lower().startswith(field_name):
            where_text = " and ".join(where_of(layout.PARAMS_BY_NAME[name]) for name in names)
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
    xlsudoku.addin.params.cells.ParamError: Opens (C6), Pattern (C5) and Symmetry (C9): opens 25 ...
    """
    request = GenerateRequest(
        target_givens=start.target_givens,
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
