"""Floors: the fewest opens the low-clue search has reached with a pattern, and what lower gets.

A pattern fixes the whole center box, and the fewer free cells it leaves the higher the fewest
opens any unique puzzle can have. No proof is known for these floors: they are *measured*, the
fewest opens that ``xlsudoku bench reach --floors`` reached with each pattern and symmetry in
its runs (docs/benchmarks.md#floors-per-pattern-and-symmetry; the runs are a data file beside
the other results), all with the same length of search behind them. A target below the floor
is very unlikely in a run no longer than that, so instead of spending the whole time limit the
deep search (:mod:`.deep`) runs ``QUICK_SECONDS`` and says so; a time limit longer than the
measurement searches in full (a CPU or work budget is compared the same way: a work unit is
about a second of CPU, :mod:`.clock`). (The one floor that is proven,
17 clues for any 9x9 Sudoku, is refused earlier: :func:`.request.form_of`.)

Two presets are one puzzle family: pattern 10 (full) is pattern 3 (ring) with the center cell
given too, and the other eight cells of its box already decide that cell.  So a full-box puzzle
of *n* opens is a ring puzzle of *n* - 1 with one clue more, and the floor of 10 is the floor of 3
plus one: 21 opens with the full box is a ring of 20, two below the ring's own goal of 22.
The table keeps each one's own measurement.
"""

from __future__ import annotations

from dataclasses import dataclass

from xlsudoku.engine.generate.request import Budget, Form, GenerateRequest
from xlsudoku.engine.grid import CLASSIC
from xlsudoku.engine.patterns import Pattern
from xlsudoku.engine.symmetry import Symmetry

# A target below the floor gets this many seconds (or work units) of search, or the run's
# limit if that is less.
QUICK_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Floor:
    """The fewest opens reached with one pattern and symmetry, and how long was searched.

    Attributes:
        givens: Fewest opens reached.
        seconds: Seconds of the longest search behind it.
        seeds: Searches (seeds) behind it, the longest and shorter ones.
        label: What it is the floor of, e.g. ``pattern 10 (full), rotate180``.
    """

    givens: int
    seconds: float
    seeds: int
    label: str

    def sentence(self, target: int) -> str:
        """Return why *target* is very unlikely.

        >>> Floor(23, 600, 2, "pattern 10 (full), rotate180").sentence(21)[:58]
        '21 opens with pattern 10 (full), rotate180 is very unlikel'
        >>> Floor(23, 600, 3, "pattern 10 (full), rotate180").sentence(21)[58:]
        'y: 3 searches of up to 10 min reached 23 at best'
        >>> Floor(23, 600, 1, "pattern 10 (full), rotate180").sentence(21)[58:]
        'y: a search of 10 min reached 23 at best'
        """
        runs = "a search" if self.seeds == 1 else f"{self.seeds} searches"
        up_to = "" if self.seeds == 1 else "up to "
        return (
            f"{target} opens with {self.label} is very unlikely: {runs} of "
            f"{up_to}{self.seconds / 60:g} min reached {self.givens} at best"
        )


# The fewest opens the low-clue search has reached with each preset under rotate180, keyed by
# (symmetry, center box mask).  The runs behind them, what each reached and how long it ran, are
# a data file beside the other results (benchmarks/results/floors_vm_2026-11-26.tsv; see
# docs/benchmarks.md#floors-per-pattern-and-symmetry), which a test holds this table to.
FLOORS: dict[tuple[Symmetry, str | None], int] = {
    (Symmetry.ROTATE_180, "x.x...x.x"): 20,  # pattern 1 (corners)
    (Symmetry.ROTATE_180, ".x.x.x.x."): 20,  # pattern 2 (diamond)
    (Symmetry.ROTATE_180, "xxxx.xxxx"): 22,  # pattern 3 (ring)
    (Symmetry.ROTATE_180, "........."): 20,  # pattern 4 (empty)
    (Symmetry.ROTATE_180, "x.......x"): 20,  # pattern 5 (diagonal ends)
    (Symmetry.ROTATE_180, "...x.x..."): 20,  # pattern 6 (sides)
    (Symmetry.ROTATE_180, "....x...."): 21,  # pattern 7 (center)
    (Symmetry.ROTATE_180, "x.x.x.x.x"): 21,  # pattern 8 (saltire)
    (Symmetry.ROTATE_180, ".x.xxx.x."): 21,  # pattern 9 (cross)
    (Symmetry.ROTATE_180, "xxxxxxxxx"): 23,  # pattern 10 (full)
    (Symmetry.ROTATE_180, "x...x...x"): 19,  # pattern 11 (diagonal)
    (Symmetry.ROTATE_180, "...xxx..."): 19,  # pattern 12 (bar)
}
# Each floor stands on this many searches, the longest of FLOOR_SECONDS: a time limit longer
# than that searches in full, and the message says what the floor stands on.
FLOOR_SEARCHES = 3
FLOOR_SECONDS = 600.0


def floor_of(symmetry: Symmetry, pattern: Pattern | None) -> Floor | None:
    """Return the measured floor of *pattern* (None: no pattern) under *symmetry*, or None.

    >>> from xlsudoku.engine.patterns import preset
    >>> floor = floor_of(Symmetry.ROTATE_180, preset(10))
    >>> floor is None or floor.givens > 17
    True
    """
    givens = FLOORS.get((symmetry, None if pattern is None else pattern.mask))
    if givens is None:
        return None
    what = "no pattern" if pattern is None else pattern.label
    return Floor(givens, FLOOR_SECONDS, FLOOR_SEARCHES, f"{what}, {symmetry.value}")


def unlikely(request: GenerateRequest, form: Form, limit: Budget | None) -> Floor | None:
    """Return the floor that makes *request*'s target very unlikely within *limit*, or None.

    >>> from xlsudoku.engine.generate.request import form_of
    >>> r = GenerateRequest(target_givens=22)
    >>> unlikely(r, form_of(r), Budget(60.0)) is None
    True
    >>> r = GenerateRequest(target_givens=19, pattern=10)
    >>> unlikely(r, form_of(r), Budget(60.0)).givens > 19
    True
    >>> r = GenerateRequest(target_givens=19, pattern=10, short_when_unlikely=False)
    >>> unlikely(r, form_of(r), Budget(60.0)) is None
    True
    """
    if request.geometry != CLASSIC or not request.short_when_unlikely:
        return None
    floor = floor_of(request.symmetry, form.pattern)
    if floor is None or request.target_givens >= floor.givens:
        return None
    if limit is not None and limit.amount > floor.seconds:
        return None
    return floor


def quick_limit(limit: Budget | None) -> Budget:
    """Return the limit a very unlikely target gets: ``QUICK_SECONDS`` or *limit* if less.

    >>> str(quick_limit(Budget(60.0))), str(quick_limit(Budget(2.0))), str(quick_limit(None))
    ('wall:5', 'wall:2', 'wall:5')
    """
    if limit is None:
        return Budget(QUICK_SECONDS)
    return Budget(min(limit.amount, QUICK_SECONDS), limit.kind)
