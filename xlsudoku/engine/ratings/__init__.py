"""Rating profiles: the technique tables and scoring rules a rating follows, one module each.

A rating profile is a table of technique rows (``TechniqueSpec``) in the profile's solve order,
with its levels and scores on Sudoku Explainer's scale; :func:`xlsudoku.engine.grading.grade`
rates a puzzle along the profile's rating path.

- ``se`` (module :mod:`~xlsudoku.engine.ratings.se`, the default): classic Sudoku Explainer
  1.2.1, its technique set, order and ratings, and SE's rules for a step's score
  (``step_score``), which every table on SE's scale follows;
- ``sukaku`` (module :mod:`~xlsudoku.engine.ratings.sukaku`): SukakuExplainer, SE's table plus
  its strong-link chains and big wings.

The HoDoKu imitation (HoDoKu's order, levels and summed score) rates on another scale and
serves the benchmarks only, so it lives beside them (:mod:`xlsudoku.bench.hodoku`); it is not a
profile of ``grade``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xlsudoku.engine.ratings.se import SE_TABLE
from xlsudoku.engine.ratings.sukaku import SUKAKU_TABLE
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import TechniqueSpec

PROFILES: dict[str, tuple[TechniqueSpec, ...]] = {"se": SE_TABLE, "sukaku": SUKAKU_TABLE}
"""Rating profiles by name; ``se`` (classic Sudoku Explainer 1.2.1) is the default."""

DEFAULT_PROFILE = "se"

__all__ = [
    "DEFAULT_PROFILE",
    "LEVEL_BANDS",
    "PROFILES",
    "SE_TABLE",
    "SUKAKU_TABLE",
    "ALSO_FOUND",
    "Band",
    "band_of",
    "finds",
    "row_technique",
    "level_of",
    "profile_table",
    "score_band",
]


@dataclass(frozen=True, slots=True)
class Band:
    """The scores of one level: from *lowest* up to the next band's lowest (excluded).

    Attributes:
        level: the level of these scores.
        lowest: the lowest score of the band.
        meaning: what a puzzle of the band asks of a solver.
    """

    level: Level
    lowest: float
    meaning: str


# Both profiles rate on Sudoku Explainer's scale, so they share the bands; a band starts at the
# score of the first technique it brings (SE's table: pointing 2.6, naked pair 3.0, hidden
# triple 4.0, aligned pair exclusion 6.2, dynamic forcing chains (+) 9.0).
_SE_BANDS: tuple[Band, ...] = (
    Band(Level.EASY, 0.0, "singles: full houses, hidden and naked singles"),
    Band(Level.MEDIUM, 2.4, "locked candidates: pointing, claiming, a direct hidden triple"),
    Band(Level.HARD, 2.9, "pairs, naked triples, X-Wing and Swordfish"),
    Band(
        Level.VERY_HARD,
        4.0,
        "hidden triples, XY- and XYZ-Wings, uniqueness, quads, Jellyfish, BUG, "
        "short single-digit chains (sukaku)",
    ),
    Band(
        Level.DIABOLICAL,
        6.2,
        "aligned pair and triplet exclusion, forcing chains and cycles, Nishio, multiple and "
        "dynamic "
        "forcing chains",
    ),
    Band(
        Level.BEYOND,
        9.0,
        "chains of chains: dynamic forcing chains with patterns inside, nested forcing "
        "chains, or trial and error",
    ),
)

LEVEL_BANDS: dict[str, tuple[Band, ...]] = {"se": _SE_BANDS, "sukaku": _SE_BANDS}
"""The score bands of each level by profile, easiest first (docs/grading.md shows them)."""


def level_of(score: float, profile: str = DEFAULT_PROFILE) -> Level:
    """Return the level of *score* under *profile*: the band it falls in (monotone in score).

    >>> [level_of(s).label for s in (1.2, 2.3, 2.6, 3.2, 4.2, 6.6, 9.0, 11.0)]
    ['Easy', 'Easy', 'Medium', 'Hard', 'Very hard', 'Diabolical', 'Beyond technique', \
'Beyond technique']
    """
    return score_band(score, profile).level


def score_band(score: float, profile: str = DEFAULT_PROFILE) -> Band:
    """Return the band of *score* under *profile*.

    Raises:
        ValueError: *profile* is not a known profile.

    >>> score_band(3.0).meaning
    'pairs, naked triples, X-Wing and Swordfish'
    """
    profile_table(profile)  # the one message for an unknown profile
    bands = LEVEL_BANDS[profile.lower()]
    # a score is rounded to a tenth where people read it: compare at that precision
    tenths = round(score * 10)
    found = bands[0]
    for band in bands:
        if tenths >= round(band.lowest * 10):
            found = band
    return found


def band_of(level: Level, profile: str = DEFAULT_PROFILE) -> tuple[float, float | None]:
    """Return the scores of *level* under *profile*: lowest, and the next band's lowest.

    >>> band_of(Level.HARD), band_of(Level.BEYOND)
    ((2.9, 4.0), (9.0, None))
    """
    bands = LEVEL_BANDS[profile.lower()]
    at = next(i for i, band in enumerate(bands) if band.level is level)
    return bands[at].lowest, bands[at + 1].lowest if at + 1 < len(bands) else None


# Techniques some rows' finders name their steps by, beside the row's own: SE's forcing chain
# search finds forcing X-chains and forcing chains as well as cycles.
ALSO_FOUND: dict[Technique, Technique] = {
    Technique.FORCING_X_CHAIN: Technique.BIDIRECTIONAL_CYCLE,
    Technique.FORCING_CHAIN: Technique.BIDIRECTIONAL_CYCLE,
}


def row_technique(technique: Technique) -> Technique:
    """Return the technique of the rows whose finders find steps of *technique*.

    >>> row_technique(Technique.FORCING_CHAIN).value, row_technique(Technique.X_WING).value
    ('Bidirectional Cycle', 'X-Wing')
    """
    return ALSO_FOUND.get(technique, technique)


def finds(profile: str, technique: Technique) -> bool:
    """Return True when the path of *profile* can take a step of *technique*.

    >>> finds("se", Technique.SKYSCRAPER), finds("sukaku", Technique.SKYSCRAPER)
    (False, True)
    """
    row = row_technique(technique)
    return any(spec.technique is row for spec in profile_table(profile))


def profile_table(name: str) -> tuple[TechniqueSpec, ...]:
    """Return the table of the rating profile *name* (``se`` or ``sukaku``).

    >>> profile_table("se")[0].technique.value
    'Full House'
    >>> profile_table("hodoku")
    Traceback (most recent call last):
    ...
    ValueError: unknown rating profile 'hodoku' (known: se, sukaku)
    """
    try:
        return PROFILES[name.lower()]
    except KeyError:
        raise ValueError(
            f"unknown rating profile {name!r} (known: {', '.join(PROFILES)})"
        ) from None
