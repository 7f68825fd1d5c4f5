"""What to generate, what came out, and the one place that decides whether a request can be met.

:class:`GenerateRequest` is what a caller asks for (with its :class:`Budget`, the limit of the
run), :class:`GenerateResult` what comes back.
:func:`form_of` validates a request and returns its :class:`Form`: the pattern's fixed cells,
the orbits free to blank and the floor.  Parity and reachability are decided here only: the
valid totals are the pattern's cells plus any sum of free orbit sizes, computed exactly.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass

from xlsudoku.engine.analysis import Analysis
from xlsudoku.engine.grid import CLASSIC, Cell, Geometry, Grid, SudokuError
from xlsudoku.engine.patterns import Pattern, PatternError, parse_pattern
from xlsudoku.engine.ratings import DEFAULT_PROFILE, PROFILES, finds
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry, orbits
from xlsudoku.engine.techniques import TECHNIQUES

# Fewest clues with a unique solution, known for the standard shapes (9x9: McGuire et al. 2012).
# Other shapes use the trivial bound size - 1 (a puzzle missing two digits has two solutions).
KNOWN_FLOOR: dict[str, int] = {"4x4": 4, "6x6": 8, "9x9": 17}

# Opens a request gets when it names none, per shape: a target the plain descent reaches within
# seconds on most seeds (measured with 180-degree symmetry; docs/generator.md has the table).
# Every command line, the workbook and SUDOKU_GENERATE take their default from here.
DEFAULT_GIVENS: dict[str, int] = {
    "4x4": 6, "6x6": 14, "9x9": 26, "9x9-X": 26, "9x9-windoku": 26, "12x12": 70, "16x16": 140,
}  # fmt: skip


class GenerateError(SudokuError):
    """A generate request that cannot be met; the message names the field.

    Attributes:
        fields: Every request field the problem is about, the first the message starts with
            (``("opens", "pattern", "symmetry")`` when the three together cannot be met);
            empty when only the message names them.

    >>> GenerateError("opens 25 is odd", ("opens", "pattern")).fields
    ('opens', 'pattern')
    """

    def __init__(self, message: str, fields: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.fields = fields


class BudgetKind(enum.Enum):
    """What a :class:`Budget` measures; values are the names ``--budget`` accepts."""

    WALL = "wall"  # seconds of wall-clock time: what a person waits for
    CPU = "cpu"  # seconds of CPU time of the searching processes, whatever else runs
    WORK = "work"  # counted work: the same run on every machine (see generate.clock)


@dataclass(frozen=True, slots=True)
class Budget:
    """The limit of a run: an amount of wall-clock seconds, CPU seconds or work units.

    A wall-clock limit is what a person waits for; on a busy machine (a shared server, CI, a
    browser tab) it buys less search.  A CPU limit buys the same search whatever else runs
    (give or take the machine's speed); a work limit counts the search's own steps, so the
    same seed gives the same puzzle on every machine and under any load.  A work unit is
    about one second of CPU time of the machine that measured it (:mod:`.clock`).

    Attributes:
        amount: Seconds (wall, cpu) or work units (work); positive.
        kind: What is counted.

    >>> Budget.parse("cpu:60"), str(Budget.parse("2.5")), Budget.parse("work:30").text()
    (Budget(amount=60.0, kind=<BudgetKind.CPU: 'cpu'>), 'wall:2.5', '30 work units')
    """

    amount: float
    kind: BudgetKind = BudgetKind.WALL

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Return the budget written ``[wall|cpu|work:]AMOUNT`` (seconds of wall time alone).

        >>> Budget.parse("work:5").kind.value, Budget.parse(" CPU : 1.5 ").amount
        ('work', 1.5)
        >>> Budget.parse("gpu:3")
        Traceback (most recent call last):
        ...
        xlsudoku.engine.generate.request.GenerateError: budget 'gpu:3': the kind must be wall, \
cpu or work
        """
        kind_text, _, amount_text = str(text).rpartition(":")
        kinds = {k.value: k for k in BudgetKind}
        kind = kinds.get(kind_text.strip().lower() or "wall")
        if kind is None:
            raise GenerateError(f"budget {text!r}: the kind must be wall, cpu or work")
        try:
            amount = float(amount_text)
        except ValueError:
            raise GenerateError(f"budget {text!r}: the amount must be a number") from None
        budget = cls(amount, kind)
        budget.check()
        return budget

    def check(self) -> None:
        """Raise :class:`GenerateError` when the amount is not a positive finite number.

        >>> Budget(0.0).check()
        Traceback (most recent call last):
        ...
        xlsudoku.engine.generate.request.GenerateError: budget wall:0: the amount must be positive
        """
        if not isinstance(self.kind, BudgetKind):
            raise GenerateError(f"budget kind must be a BudgetKind, got {self.kind!r}")
        amount = self.amount
        if isinstance(amount, bool) or not isinstance(amount, int | float):
            raise GenerateError(f"budget amount must be a number, got {amount!r}")
        if not (amount > 0 and math.isfinite(amount)):
            raise GenerateError(f"budget {self}: the amount must be positive")

    def scaled(self, share: float) -> Budget:
        """Return the budget of the same kind with *share* of the amount.

        >>> Budget(60.0, BudgetKind.CPU).scaled(0.5)
        Budget(amount=30.0, kind=<BudgetKind.CPU: 'cpu'>)
        """
        return Budget(self.amount * share, self.kind)

    def text(self) -> str:
        """Return the budget for a sentence: ``60 s``, ``60 s of CPU``, ``60 work units``.

        >>> Budget(60.0).text(), Budget(1.5, BudgetKind.CPU).text()
        ('60 s', '1.5 s of CPU')
        """
        if self.kind is BudgetKind.WALL:
            return f"{self.amount:g} s"
        if self.kind is BudgetKind.CPU:
            return f"{self.amount:g} s of CPU"
        return f"{self.amount:g} work unit{'' if self.amount == 1 else 's'}"

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.amount:g}"


# Ratings on Sudoku Explainer's scale lie between these (trial and error rates 11.0; a
# profile's longest nested chains a little above it).
SCORE_BOTTOM = 1.0
SCORE_TOP = 12.0


@dataclass(frozen=True, slots=True)
class ScoreRange:
    """The ratings a puzzle made to a score may have: from *low* up to *high* (None: no top).

    Both ends are on the rating profile's scale (Sudoku Explainer's: 1.0 to about 11) and
    included; a rating is compared at one decimal, as every surface shows it.

    >>> ScoreRange.parse("7.0-8.0"), str(ScoreRange.parse(" 9- "))
    (ScoreRange(low=7.0, high=8.0), '9.0-')
    >>> ScoreRange.parse("7-8").contains(7.95), ScoreRange(9.0).distance(8.6)
    (True, 0.4)
    """

    low: float
    high: float | None = None

    @classmethod
    def parse(cls, text: str) -> ScoreRange:
        """Return the range written ``MIN-MAX`` or ``MIN-`` (``MIN`` alone: that one score).

        >>> ScoreRange.parse("9-7")
        Traceback (most recent call last):
        ...
        xlsudoku.engine.generate.request.GenerateError: score '9-7': the lowest score 9 is \
above the highest 7
        """
        raw = str(text).strip()
        low_text, dash, high_text = raw.partition("-")
        if not low_text.strip():
            raise GenerateError(
                f"score {text!r}: write MIN-MAX or MIN- (scores from {SCORE_BOTTOM:g} to "
                f"{SCORE_TOP:g}), e.g. 7.0-8.0 or 9-"
            )
        low = _score_number(text, low_text)
        high = _score_number(text, high_text) if high_text.strip() else None
        if not dash:
            high = low
        found = cls(low, high)
        found.check(text)
        return found

    def check(self, text: object = None) -> None:
        """Raise :class:`GenerateError` unless the ends are scores and ``low <= high``.

        >>> ScoreRange(float("nan")).check()
        Traceback (most recent call last):
        ...
        xlsudoku.engine.generate.request.GenerateError: score nan-: scores are numbers from \
1 to 12
        """
        named = f"score {self}" if text is None else f"score {text!r}"
        for end in (self.low, self.high):
            if end is None:
                continue
            if isinstance(end, bool) or not isinstance(end, int | float):
                raise GenerateError(f"{named}: scores are numbers, got {end!r}")
            if not SCORE_BOTTOM <= end <= SCORE_TOP:  # NaN fails both comparisons
                raise GenerateError(
                    f"{named}: scores are numbers from {SCORE_BOTTOM:g} to {SCORE_TOP:g}"
                )
        if self.high is not None and self.low > self.high:
            raise GenerateError(
                f"{named}: the lowest score {self.low:g} is above the highest {self.high:g}"
            )

    def contains(self, score: float) -> bool:
        """Return True when *score* (shown at one decimal) lies in the range."""
        return self.distance(score) == 0.0

    def distance(self, score: float) -> float:
        """Return how far *score* (at one decimal) is outside the range: 0.0 inside it."""
        shown = round(score, 1)
        if shown < self.low:
            return round(self.low - shown, 1)
        if self.high is not None and shown > self.high:
            return round(shown - self.high, 1)
        return 0.0

    def __str__(self) -> str:
        return f"{self.low:.1f}-" + ("" if self.high is None else f"{self.high:.1f}")


def _score_number(text: str, word: str) -> float:
    """Return one end of a score range, or raise the error naming the whole *text*."""
    try:
        return float(word)
    except ValueError:
        raise GenerateError(
            f"score {text!r}: {word.strip()!r} is not a number (write MIN-MAX or MIN-, "
            "e.g. 7.0-8.0 or 9-)"
        ) from None


@dataclass(frozen=True, slots=True)
class GenerateRequest:
    """What to generate.

    Attributes:
        target_givens: Target number of clues ("opens").
        pattern: Preset 1-12, a mask of the center box (``x``/``1`` open, ``.``/``0`` blank,
            row-major), or None for no pattern.  See :mod:`xlsudoku.engine.patterns`.
        trials: Attempt budget (an attempt is one descent from a full grid).
        symmetry: Symmetry of the clue pattern (orbits are blanked together).
        time_limit: Seconds of wall-clock time, or None for the strategy's default (see
            :mod:`.generator`); the same as ``budget=Budget(seconds)``.
        budget: The limit of the run as a :class:`Budget` (wall-clock, CPU or counted work),
            or None for *time_limit* (give one of the two, not both).
        short_when_unlikely: A deep target below the measured floor of its pattern gets a
            short search and a message saying so (:mod:`.floors`); False searches the whole
            limit (a benchmark measuring the floors).
        seed: Seed of the random generator; None draws one (the result reports it).
        geometry: Shape of the grid (9x9 by default).
        difficulty: Wanted level (the graded strategy, :mod:`.graded`).
        needs: A technique the solve path must use (the graded strategy too).
        workers: Processes a deep search may use (1: this process only, as in Pyodide; more
            only where processes can start, see :mod:`.deep`).
        score: Ratings the puzzle must have under *profile* (the climbing strategy,
            :mod:`.climb`); *target_givens* is then a ceiling, not a target.
        profile: The rating profile that grades the puzzle (``se``, ``sukaku``): its score's
            band is the level, its path the techniques needed, and the scale of *score*.

    >>> GenerateRequest().target_givens, GenerateRequest().symmetry.value
    (26, 'rotate180')
    """

    target_givens: int = 26
    pattern: int | str | None = 1
    trials: int = 299
    symmetry: Symmetry = Symmetry.ROTATE_180
    time_limit: float | None = None
    seed: int | None = None
    geometry: Geometry = CLASSIC
    difficulty: Level | None = None
    needs: Technique | None = None
    workers: int = 1
    budget: Budget | None = None
    short_when_unlikely: bool = True
    score: ScoreRange | None = None
    profile: str = DEFAULT_PROFILE

    @property
    def graded(self) -> bool:
        """True when the request asks for a difficulty or a technique."""
        return self.difficulty is not None or self.needs is not None

    @property
    def limit(self) -> Budget | None:
        """The request's own limit: its budget, or its time limit in wall-clock seconds.

        >>> GenerateRequest(time_limit=5).limit, GenerateRequest().limit
        (Budget(amount=5, kind=<BudgetKind.WALL: 'wall'>), None)
        """
        if self.budget is not None:
            return self.budget
        return None if self.time_limit is None else Budget(self.time_limit)

    def with_seed(self, seed: int) -> GenerateRequest:
        """Return the request with *seed* filled in (what a result reports).

        >>> GenerateRequest().with_seed(5).seed
        5
        """
        return dataclasses.replace(self, seed=seed)


@dataclass(frozen=True, slots=True)
class GenerateResult:
    """A generated puzzle and how it was reached.

    Attributes:
        puzzle: The puzzle (unique, symmetric, pattern applied).
        solution: Its solution.
        givens: Clues in *puzzle*.
        target: The requested number of opens.
        reached: True when the target was met: the opens, and for a graded request the level
            (or the technique) too.
        minimal: True when no orbit of clues (pattern orbits included) can be blanked keeping
            the puzzle unique (False too when the test, bounded by counted work, could not
            settle it: see :mod:`.generator`).
        trials_used: Attempts made.
        grids_tried: Solution grids filled.
        seconds: Wall time spent.
        seed: The seed used (drawn when the request had none).
        message: One sentence for the user, e.g. ``Reached 26 opens in 2 trials (0.02 s)``.
        request: The request, with the seed filled in.
        time_limit: Seconds the run was allowed when its limit is wall-clock time (see
            *limit*), else None.
        stop: Why the run ended: ``reached``, ``trials``, ``time`` (its limit cut it, see
            *limit* and :attr:`limited_by`), ``cancel`` or ``unlikely`` (a short search of a
            very unlikely target).
        workers: Processes that searched (1 unless the request asked for more and they could
            start).
        limit: The limit the run was allowed: the request's budget or time limit, or the
            strategy's default when it had none (deep targets: 60 s), or the short search of a
            target the pattern makes very unlikely; None for no limit.
        analysis: The puzzle's analysis under the request's profile when the generator made
            one (a graded request's goal judged the puzzle by it), else None: see
            :func:`result_analysis`, which every surface uses.
        missed: What the puzzle missed when not reached: ``opens``, ``level`` or
            ``technique`` (empty when reached, and for an ungraded miss of the opens only
            ``opens``).
    """

    puzzle: Grid
    solution: Grid
    givens: int
    target: int
    reached: bool
    minimal: bool
    trials_used: int
    grids_tried: int
    seconds: float
    seed: int
    message: str
    request: GenerateRequest
    time_limit: float | None = None
    stop: str = "reached"
    workers: int = 1
    limit: Budget | None = None
    analysis: Analysis | None = None
    missed: tuple[str, ...] = ()

    @property
    def limited_by(self) -> BudgetKind | None:
        """What stopped the run when its limit did (``stop`` is time or unlikely), else None.

        >>> from xlsudoku.engine.generate import generate
        >>> r = generate(GenerateRequest(target_givens=18, pattern=None, seed=1,
        ...                              budget=Budget(0.05, BudgetKind.WORK)))
        >>> r.stop, r.limited_by, r.limit.text()
        ('time', <BudgetKind.WORK: 'work'>, '0.05 work units')
        """
        if self.limit is None or self.stop not in ("time", "unlikely"):
            return None
        return self.limit.kind

    def to_dict(self) -> dict[str, object]:
        """Return every field as JSON-ready data (grids as 81-character strings).

        >>> from xlsudoku.engine.generate import generate
        >>> d = generate(GenerateRequest(seed=1)).to_dict()
        >>> d["opens"], d["reached"], len(d["puzzle"]), d["request"]["pattern"]
        (26, True, 81, 1)
        """
        req = self.request
        return {
            "puzzle": str(self.puzzle),
            "solution": str(self.solution),
            "opens": self.givens,
            "target": self.target,
            "reached": self.reached,
            "minimal": self.minimal,
            "trials_used": self.trials_used,
            "grids_tried": self.grids_tried,
            "seconds": round(self.seconds, 6),
            "seed": self.seed,
            "message": self.message,
            "time_limit": self.time_limit,
            "stop": self.stop,
            "workers": self.workers,
            "limit": None if self.limit is None else str(self.limit),
            "analysis": None if self.analysis is None else self.analysis.to_dict(),
            "missed": list(self.missed),
            "request": {
                "opens": req.target_givens,
                "pattern": req.pattern,
                "trials": req.trials,
                "symmetry": req.symmetry.value,
                "time_limit": req.time_limit,
                "seed": req.seed,
                "geometry": req.geometry.name,
                "difficulty": None if req.difficulty is None else req.difficulty.name,
                "needs": None if req.needs is None else req.needs.value,
                "workers": req.workers,
                "budget": None if req.budget is None else str(req.budget),
                "score": None if req.score is None else str(req.score),
                "profile": req.profile,
            },
        }


@dataclass(frozen=True, slots=True)
class Form:
    """What a validated request fixes: the pattern's cells and the orbits free to blank.

    Attributes:
        pattern: The pattern, or None.
        fixed_given: Cells that are always clues (the pattern's open cells).
        fixed_blank: Cells that are always blank (the rest of the pattern's box).
        free: Orbits of the symmetry outside the pattern, the ones a strategy may blank.
        fixed_orbits: Orbits made of pattern cells (always clues).
        floor: Fewest clues a puzzle of this shape can have.
    """

    pattern: Pattern | None
    fixed_given: frozenset[Cell]
    fixed_blank: frozenset[Cell]
    free: tuple[tuple[Cell, ...], ...]
    fixed_orbits: tuple[tuple[Cell, ...], ...]
    floor: int

    def totals(self) -> int:
        """Return the reachable totals as a bit set: bit *k* set when *k* opens can be made.

        >>> f = form_of(GenerateRequest())
        >>> [k for k in range(20, 30) if f.totals() >> k & 1]
        [20, 22, 24, 26, 28]
        """
        sums = 1
        for o in self.free:
            sums |= sums << len(o)
        return sums << len(self.fixed_given)

    def lowest(self) -> int:
        """Return the fewest opens the form allows (a descent with no stop aims there).

        >>> form_of(GenerateRequest()).lowest()
        18
        """
        totals = self.totals()
        total = max(self.floor, len(self.fixed_given))
        while not totals >> total & 1:
            total += 1
        return total


def default_givens(geometry: Geometry) -> int:
    """Return the opens a request of *geometry* gets when it names none (:data:`DEFAULT_GIVENS`).

    A Jigsaw gets the 9x9 figure; another shape without an entry gets about a third of its
    cells, rounded to even.

    >>> from xlsudoku.engine.grid import geometry_for_size
    >>> default_givens(CLASSIC), default_givens(geometry_for_size(16))
    (26, 140)
    """
    found = DEFAULT_GIVENS.get(geometry.name)
    if found is None and geometry.size == 9:
        found = DEFAULT_GIVENS["9x9"]
    return found if found is not None else geometry.cell_count // 6 * 2


def default_pattern(geometry: Geometry) -> int | None:
    """Return the pattern a request of *geometry* gets when it names none: preset 1 on 9x9.

    Only the 9x9 shapes have a center box for a pattern; the others get none.

    >>> from xlsudoku.engine.grid import geometry_for_size
    >>> default_pattern(CLASSIC), default_pattern(geometry_for_size(16))
    (1, None)
    """
    return 1 if geometry.size == 9 and not geometry.regions else None


def form_of(request: GenerateRequest) -> Form:
    """Validate *request* and return its form; raise :class:`GenerateError` naming the field.

    >>> form_of(GenerateRequest()).fixed_given == frozenset({30, 32, 48, 50})
    True
    """
    geo = request.geometry
    if not isinstance(geo, Geometry):
        raise GenerateError(f"geometry must be a Geometry, got {geo!r}")
    if not isinstance(request.symmetry, Symmetry):
        raise GenerateError(f"symmetry must be a Symmetry, got {request.symmetry!r}")
    checked = (
        ("opens", request.target_givens),
        ("trials", request.trials),
        ("workers", request.workers),
    )
    for name, value in checked:
        if isinstance(value, bool) or not isinstance(value, int):
            raise GenerateError(f"{name} must be a whole number, got {value!r}")
    if request.trials < 1:
        raise GenerateError(f"trials must be at least 1, got {request.trials}")
    if request.workers < 1:
        raise GenerateError(f"workers must be at least 1, got {request.workers}")
    if request.time_limit is not None and not request.time_limit > 0:
        raise GenerateError(f"time limit must be positive seconds, got {request.time_limit!r}")
    if not isinstance(request.short_when_unlikely, bool):
        raise GenerateError(
            f"short_when_unlikely must be True or False, got {request.short_when_unlikely!r}"
        )
    if request.budget is not None:
        if not isinstance(request.budget, Budget):
            raise GenerateError(f"budget must be a Budget, got {request.budget!r}")
        if request.time_limit is not None:
            raise GenerateError("give a time limit or a budget, not both")
        request.budget.check()
    if request.seed is not None and (
        isinstance(request.seed, bool) or not isinstance(request.seed, int)
    ):
        raise GenerateError(f"seed must be a whole number, got {request.seed!r}")
    if not isinstance(request.profile, str) or request.profile.lower() not in PROFILES:
        raise GenerateError(
            f"profile: unknown rating profile {request.profile!r} (known: {', '.join(PROFILES)})"
        )
    if request.needs is not None and all(s.technique is not request.needs for s in TECHNIQUES):
        raise GenerateError(f"needs: {request.needs.value} has no finder in the technique table")
    if request.needs is not None and not finds(request.profile, request.needs):
        others = [name for name in PROFILES if finds(name, request.needs)]
        also = f" (the {others[0]} profile's has)" if others else ""
        raise GenerateError(
            f"needs: the {request.profile} profile's path has no {request.needs.value} step" + also
        )
    form = form_for(geo, request.symmetry, request.pattern)
    if request.score is not None:
        _check_score(request, form)
        return form
    _check_target(request, form)
    return form


def _check_score(request: GenerateRequest, form: Form) -> None:
    """Raise :class:`GenerateError` when a score request cannot be made (its opens: a ceiling)."""
    if not isinstance(request.score, ScoreRange):
        raise GenerateError(f"score must be a ScoreRange, got {request.score!r}")
    if request.graded:
        raise GenerateError("give a score or a difficulty (or a technique to need), not both")
    request.score.check()
    lowest = max(form.floor, len(form.fixed_given))
    if request.target_givens < lowest:
        raise GenerateError(
            f"opens {request.target_givens} is below {lowest}: with a score the opens are "
            "a ceiling, and no puzzle of this form has so few"
        )


def form_for(geometry: Geometry, symmetry: Symmetry, pattern: int | str | Pattern | None) -> Form:
    """Return the form of a pattern under a symmetry; raise :class:`GenerateError` on a misfit.

    >>> len(form_for(CLASSIC, Symmetry.ROTATE_180, None).free)
    41
    """
    fields: tuple[str, ...] = ("pattern",)
    try:
        parsed = parse_pattern(pattern)
        fields = ("pattern", "geometry")  # a pattern of the center box: 9x9 shapes only
        if parsed is None:
            fixed_given: frozenset[Cell] = frozenset()
            fixed_blank: frozenset[Cell] = frozenset()
        else:
            fixed_given = frozenset(parsed.cells(geometry))
            fixed_blank = frozenset(parsed.blank_cells(geometry))
            fields = ("pattern", "symmetry")
            parsed.check_symmetry(symmetry, geometry)
    except PatternError as exc:
        raise GenerateError(f"pattern: {exc}", fields) from None
    fixed = fixed_given | fixed_blank
    all_orbits = orbits(symmetry, geometry)
    return Form(
        parsed,
        fixed_given,
        fixed_blank,
        free=tuple(o for o in all_orbits if not fixed.intersection(o)),
        fixed_orbits=tuple(o for o in all_orbits if fixed_given.issuperset(o)),
        floor=KNOWN_FLOOR.get(geometry.name, geometry.size - 1),
    )


def _check_target(request: GenerateRequest, form: Form) -> None:
    """Raise :class:`GenerateError` when the form cannot make exactly ``request.target_givens``."""
    geo = request.geometry
    pattern, floor, base = form.pattern, form.floor, len(form.fixed_given)
    target = request.target_givens
    top = geo.cell_count - len(form.fixed_blank)
    what = "" if pattern is None else f" with {pattern.label}"
    with_pattern = ("pattern",) if pattern is not None else ()
    if target > top:
        raise GenerateError(
            f"opens {target} is above {top}, the cells a {geo.name} puzzle{what} can open",
            ("opens", "geometry", *with_pattern),
        )
    if target < max(floor, base):
        if target < floor:
            raise GenerateError(
                f"opens {target} is below {floor}, the fewest clues a {geo.name} Sudoku with "
                "one solution can have",
                ("opens", "geometry"),
            )
        raise GenerateError(f"opens {target} is below the {base} cells{what}", ("opens", "pattern"))
    totals = form.totals()
    if totals >> target & 1:
        return
    below = next((v for v in range(target - 1, base - 1, -1) if totals >> v & 1), None)
    above = next((v for v in range(target + 1, top + 1) if totals >> v & 1), None)
    tries = " or ".join(str(v) for v in (below, above) if v is not None and v >= floor)
    sizes = sorted({len(o) for o in form.free})
    # the orbits the other clues come in are the symmetry's, around the pattern's cells
    fields = ("opens", *with_pattern, "symmetry")
    if sizes == [2]:
        kind, need = ("odd", "even") if target % 2 else ("even", "odd")
        givens_what = (
            f"{pattern.short_label} opens {base} center cell{'s' if base != 1 else ''}"
            if pattern is not None
            else f"{request.symmetry.value} clues come in pairs"
        )
        raise GenerateError(
            f"opens {target} is {kind} but {givens_what}, so opens must be {need}: try {tries}",
            fields,
        )
    if not sizes:
        raise GenerateError(f"opens {target} cannot be made: no orbit is free to blank", fields)
    orbit_sizes = ", ".join(map(str, sizes[:-1])) + (" and " if len(sizes) > 1 else "")
    orbit_sizes += str(sizes[-1])
    form_what = f"{what} and" if pattern is not None else " with"
    raise GenerateError(
        f"opens {target} cannot be made{form_what} {request.symmetry.value} symmetry: the "
        f"other clues come in orbits of {orbit_sizes}, so try {tries}",
        fields,
    )


def validate_request(request: GenerateRequest) -> None:
    """Raise :class:`GenerateError`, naming the field, when *request* cannot be generated.

    >>> validate_request(GenerateRequest())
    >>> def check(**fields):
    ...     try:
    ...         validate_request(GenerateRequest(**fields))
    ...     except GenerateError as exc:
    ...         print(exc)
    >>> check(target_givens=25)
    opens 25 is odd but pattern 1 opens 4 center cells, so opens must be even: try 24 or 26
    >>> check(target_givens=16, pattern=None)
    opens 16 is below 17, the fewest clues a 9x9 Sudoku with one solution can have
    >>> check(seed=-1)
    seed -1 is negative: use a whole number from 0 up
    """
    if request.seed is not None and request.seed < 0:
        # Python's random takes a seed's absolute value: -1 would silently repeat seed 1
        raise GenerateError(f"seed {request.seed} is negative: use a whole number from 0 up")
    form_of(request)
