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

from xlsudoku.engine.ratings.se import SE_TABLE
from xlsudoku.engine.ratings.sukaku import SUKAKU_TABLE
from xlsudoku.engine.techniques import TechniqueSpec

PROFILES: dict[str, tuple[TechniqueSpec, ...]] = {"se": SE_TABLE, "sukaku": SUKAKU_TABLE}
"""Rating profiles by name; ``se`` (classic Sudoku Explainer 1.2.1) is the default."""

DEFAULT_PROFILE = "se"

__all__ = ["DEFAULT_PROFILE", "PROFILES", "SE_TABLE", "SUKAKU_TABLE", "profile_table"]


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
