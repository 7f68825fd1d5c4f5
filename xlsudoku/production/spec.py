"""What a batch makes: the request of each item, its seed, and the request's plain fields.

Item *i* of a batch asks :func:`~xlsudoku.engine.generate.generate` for variant ``i mod k`` of
the batch's *k* variants (one per opens value and difficulty or technique asked for) with seed
``base + i``.  So item *i* is the same puzzle whichever process, machine or run makes it, and a
one-variant batch with seed *S* repeats ``xlsudoku generate -n N --seed S`` (puzzle *k* there
uses seed ``S + k - 1``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlsudoku.engine import formats
from xlsudoku.engine.generate import GenerateError, GenerateRequest, validate_request
from xlsudoku.engine.generate.request import ScoreRange, form_of
from xlsudoku.engine.grid import Geometry
from xlsudoku.engine.ratings import DEFAULT_PROFILE
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry

# Plain value of a request field: what JSON lines, CSV cells and the state file hold.
Plain = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """A batch: its variants, base seed, how many puzzles to keep and how many seeds to try.

    Attributes:
        variants: Requests without a seed; item *i* uses ``variants[i % len(variants)]``.
        seed: Base seed; item *i* uses ``seed + i``.
        count: Distinct puzzles wanted.
        attempts: Items (seeds) tried at most: items 0 to ``attempts - 1``.

    >>> spec = BatchSpec((GenerateRequest(target_givens=24), GenerateRequest()), 100, 3, 10)
    >>> [(r.target_givens, r.seed) for r in map(spec.request, range(3))]
    [(24, 100), (26, 101), (24, 102)]
    """

    variants: tuple[GenerateRequest, ...]
    seed: int
    count: int
    attempts: int

    def request(self, index: int) -> GenerateRequest:
        """Return the request of item *index*, its seed filled in."""
        return self.variants[index % len(self.variants)].with_seed(self.seed + index)

    def fields(self) -> dict[str, object]:
        """Return the spec as plain data (the state file keeps it).

        >>> BatchSpec((GenerateRequest(),), 7, 2, 4).fields()["variants"][0]["target"]
        26
        """
        return {
            "seed": self.seed,
            "count": self.count,
            "attempts": self.attempts,
            "variants": [request_fields(v) for v in self.variants],
        }


def parse_target_givens(text: str) -> list[tuple[int, bool]]:
    """Return ``(opens, from a range)`` for ``26``, ``24-28`` or ``22,24-26``.

    >>> parse_target_givens("22,24-26")
    [(22, False), (24, True), (25, True), (26, True)]
    >>> parse_target_givens("3-1")
    Traceback (most recent call last):
    ...
    ValueError: opens range '3-1' runs backwards
    """
    values: list[tuple[int, bool]] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not dash:
            values.append((int(low), False))
            continue
        first, last = int(low), int(high)
        if last < first:
            raise ValueError(f"opens range {part.strip()!r} runs backwards")
        values.extend((value, True) for value in range(first, last + 1))
    return values


def make_variants(
    base: GenerateRequest,
    target_givens: Sequence[tuple[int, bool]],
    difficulties: Sequence[Level] = (),
    needs: Sequence[Technique] = (),
) -> tuple[GenerateRequest, ...]:
    """Return the variants of a batch: each opens value with each difficulty or technique.

    Values from a range that the pattern and symmetry cannot make are left out (``24-28``
    with 180-degree symmetry and pattern 1 gives 24, 26, 28); a value asked for by itself
    must be valid.

    Raises:
        GenerateError: A variant cannot be made (the message names the field), or a range
            holds no reachable value.

    >>> [v.target_givens for v in make_variants(GenerateRequest(), parse_target_givens("24-28"))]
    [24, 26, 28]
    >>> vs = make_variants(GenerateRequest(), [(26, False)], difficulties=(Level.EASY, Level.HARD))
    >>> [v.difficulty.label for v in vs]
    ['Easy', 'Hard']
    """
    if difficulties and needs:
        raise GenerateError("ask for difficulties or techniques, not both")
    targets: list[tuple[Level | None, Technique | None]] = [(None, None)]
    if difficulties:
        targets = [(level, None) for level in difficulties]
    elif needs:
        targets = [(None, technique) for technique in needs]
    totals = form_of(base).totals()
    # with a score the opens are a ceiling: any value is one
    kept = [
        value
        for value, ranged in target_givens
        if not ranged or base.score is not None or totals >> value & 1
    ]
    if not kept:
        first, last = target_givens[0][0], target_givens[-1][0]
        raise GenerateError(f"no opens between {first} and {last} can be made with this pattern")
    variants = []
    for value, (level, technique) in itertools.product(kept, targets):
        request = GenerateRequest(
            target_givens=value,
            pattern=base.pattern,
            trials=base.trials,
            symmetry=base.symmetry,
            time_limit=base.time_limit,
            seed=None,
            geometry=base.geometry,
            difficulty=level,
            needs=technique,
            score=base.score,
            profile=base.profile,
        )
        validate_request(request)
        variants.append(request)
    return tuple(variants)


def geometry_named(name: str) -> Geometry:
    """Return the geometry called *name* (``9x9``, ``6x6``, ``9x9-X``, ``9x9-windoku`` ...).

    >>> geometry_named("9x9-X").diagonals, geometry_named("12x12").box_cols
    (True, 4)
    """
    return formats.geometry_named(name)


def level_named(text: str) -> Level:
    """Return the level whose label or name is *text* (``Very hard``, ``VERY_HARD``).

    >>> level_named("Very hard") is level_named("VERY_HARD") is Level.VERY_HARD
    True
    """

    def key(words: str) -> str:
        return "".join(ch for ch in words.lower() if ch.isalnum())

    for level in Level:
        if key(text) in (key(level.label), key(level.name)):
            return level
    raise ValueError(f"unknown level {text!r}")


def request_fields(request: GenerateRequest) -> dict[str, Plain]:
    """Return the fields of *request* that a record keeps, as plain values (no seed).

    A request made to a score also keeps its range and rating profile (``score_range``,
    ``profile``); other requests leave them out.

    >>> wanted = GenerateRequest(target_givens=24)
    >>> request_fields(wanted)["target"], request_fields(GenerateRequest())
    ... # doctest: +NORMALIZE_WHITESPACE
    (24, {'target': 26, 'pattern': 1, 'symmetry': 'rotate180', 'geometry': '9x9',
          'difficulty': None, 'needs': None, 'trials': 299, 'time_limit': None,
          'profile': 'se'})
    """
    fields: dict[str, Plain] = {
        "target": request.target_givens,
        "pattern": request.pattern,
        "symmetry": request.symmetry.value,
        "geometry": request.geometry.name,
        "difficulty": None if request.difficulty is None else request.difficulty.label,
        "needs": None if request.needs is None else request.needs.value,
        "trials": request.trials,
        "time_limit": request.time_limit,
        "profile": request.profile,
    }
    if request.score is not None:
        fields |= {"score_range": str(request.score), "profile": request.profile}
    return fields


def request_from_fields(fields: Mapping[str, Plain], seed: int | None = None) -> GenerateRequest:
    """Return the request whose plain fields are *fields* (the inverse of :func:`request_fields`).

    >>> r = GenerateRequest(target_givens=24, difficulty=Level.HARD, seed=3)
    >>> request_from_fields(request_fields(r), seed=3) == r
    True
    >>> s = GenerateRequest(target_givens=81, score=ScoreRange(7.0, 8.0), profile="sukaku", seed=3)
    >>> request_from_fields(request_fields(s), seed=3) == s
    True
    """
    pattern = fields["pattern"]
    score = fields.get("score_range")
    difficulty, needs, limit = fields["difficulty"], fields["needs"], fields["time_limit"]
    return GenerateRequest(
        target_givens=int(str(fields["target"])),
        pattern=pattern if pattern is None or isinstance(pattern, int) else str(pattern),
        trials=int(str(fields["trials"])),
        symmetry=Symmetry.parse(str(fields["symmetry"])),
        time_limit=None if limit is None else float(limit),
        seed=seed,
        geometry=geometry_named(str(fields["geometry"])),
        difficulty=None if difficulty is None else level_named(str(difficulty)),
        needs=None if needs is None else Technique.parse(str(needs)),
        score=None if score is None else ScoreRange.parse(str(score)),
        profile=str(fields.get("profile") or DEFAULT_PROFILE),
    )
