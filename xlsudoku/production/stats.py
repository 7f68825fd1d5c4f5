"""What a set of puzzles is like, as a table and a chart: levels, scores, opens per level.

:func:`collect` counts the entries of any input the booklet reads (a batch, a daily set, a
workbook's Collection, a puzzle file); a puzzle without a level or score gets them from its
one analysis.  :func:`table` is the text the command prints; :func:`chart` draws the three
panels with matplotlib (the ``charts`` extra, loaded only here).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xlsudoku.engine.steps import Level
from xlsudoku.errors import MissingExtra
from xlsudoku.production.inputs import Entry

LEVELS: tuple[str, ...] = tuple(level.label for level in Level)


# Level labels shown apart, at most: the known levels first, then the most frequent other
# labels a file holds; the rest are counted together under OTHER.
MAX_CATEGORIES = 12
OTHER = "other"
NOT_GRADED = "not graded"


@dataclass(frozen=True, slots=True)
class Stats:
    """Levels, scores and opens of a set of puzzles.

    Attributes:
        levels: Level label -> puzzles, in the order of the levels (only those present).
        scores: The score of every puzzle that has one.
        givens: Level label -> the opens of its puzzles.
        ungraded: Puzzles whose grading the stop hook (time limit, Ctrl+C) left undone: they
            are counted under :data:`NOT_GRADED`, without a score.
        level_scores: Level label -> the scores of its puzzles.
        days: A daily set's date -> the (level, score) of each of its graded puzzles, in order;
            empty unless every puzzle is dated.
    """

    levels: dict[str, int]
    scores: tuple[float, ...]
    givens: dict[str, tuple[int, ...]]
    ungraded: int = 0
    level_scores: dict[str, tuple[float, ...]] = field(default_factory=dict)
    days: dict[str, tuple[tuple[str, float], ...]] = field(default_factory=dict)
    profiles: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        """Return the number of puzzles."""
        return sum(self.levels.values())


def collect(entries: Sequence[Entry], stop: Callable[[], bool] | None = None) -> Stats:
    """Return the statistics of *entries*, analysing those without a level or score.

    Once *stop* says stop (the command's time limit, Ctrl+C) no more puzzles are analysed:
    those left are counted as not graded.  What an entry records (its level, score and their
    profile) is shown as it is; an entry without them is analysed under its recorded profile,
    else the default one.

    >>> from xlsudoku.engine.grid import Grid
    >>> s = collect([Entry(Grid.parse("2....3.21.3....1"))])
    >>> s.levels, s.givens, s.profiles
    ({'Easy': 1}, {'Easy': (6,)}, ('se',))
    >>> collect([Entry(Grid.parse("2....3.21.3....1"))], stop=lambda: True).levels
    {'not graded': 1}
    """
    from xlsudoku.engine.analysis import analyze
    from xlsudoku.engine.ratings import DEFAULT_PROFILE
    from xlsudoku.interrupts import Cut, cut_when

    rows: list[tuple[str, float | None, int]] = []
    dates: list[str] = []
    profiles: list[str] = []
    for entry in entries:
        dates.append(entry.day)
        level, score, profile = entry.level, entry.score, entry.profile or DEFAULT_PROFILE
        profiles.append(profile)
        if level is None or score is None:
            graded = None
            if stop is None:
                graded = analyze(entry.puzzle, profile, solution=entry.solution).graded()
            elif not stop():
                try:
                    with cut_when(stop):
                        graded = analyze(entry.puzzle, profile, solution=entry.solution).graded()
                except Cut:
                    graded = None
            if graded is None:
                rows.append((level or NOT_GRADED, score, entry.puzzle.given_count))
                continue
            level = level or graded.label
            score = graded.score if score is None else score
        rows.append((level, float(score), entry.puzzle.given_count))
    return dataclasses.replace(_grouped(rows, dates), profiles=tuple(dict.fromkeys(profiles)))


def _grouped(rows: Sequence[tuple[str, float | None, int]], dates: Sequence[str]) -> Stats:
    """Return the statistics of ``(level, score or None, opens)`` rows, levels capped.

    *dates* holds each row's date ("" for a puzzle of no daily set).
    """
    counts = Counter(level for level, _, _ in rows)
    known = [label for label in LEVELS if label in counts]
    others = sorted(
        (label for label in counts if label not in LEVELS and label != NOT_GRADED),
        key=lambda label: (-counts[label], label),
    )
    room = max(0, MAX_CATEGORIES - len(known) - (NOT_GRADED in counts))
    shown = set(known) | set(others[:room]) | {NOT_GRADED}
    if len(others) > room:
        room = max(0, room - 1)  # OTHER takes a place of its own
        shown = set(known) | set(others[:room]) | {NOT_GRADED}
    labels = [label if label in shown else OTHER for label, _, _ in rows]
    grouped = Counter(labels)
    order = {label: index for index, label in enumerate(LEVELS)}
    last = {OTHER: len(LEVELS) + 1, NOT_GRADED: len(LEVELS) + 2}

    def place(label: str) -> tuple[int, int, str]:
        return (order.get(label, last.get(label, len(LEVELS))), -grouped[label], label)

    present = sorted(grouped, key=place)
    by_label: dict[str, list[int]] = {label: [] for label in present}
    scored: dict[str, list[float]] = {label: [] for label in present}
    by_day: dict[str, list[tuple[str, float]]] = {}
    for label, (_, score, givens), day in zip(labels, rows, dates, strict=True):
        by_label[label].append(givens)
        if score is not None:
            scored[label].append(score)
            by_day.setdefault(day, []).append((label, score))
    return Stats(
        {label: len(by_label[label]) for label in present},
        tuple(score for _, score, _ in rows if score is not None),
        {label: tuple(by_label[label]) for label in present},
        sum(1 for level, _, _ in rows if level == NOT_GRADED),
        {label: tuple(found) for label, found in scored.items()},
        {} if "" in dates else {day: tuple(found) for day, found in by_day.items()},
    )


def table(stats: Stats) -> str:
    """Return the table the command prints: per level, puzzles, share, opens and scores.

    A daily set gets a second table: per day, its puzzles, their levels and scores.

    >>> from xlsudoku.engine.grid import Grid
    >>> print(table(collect([Entry(Grid.parse("2....3.21.3....1"), day="2026-12-01")])))
    level               puzzles   share   opens min-median-max   scores min-max
    Easy                      1  100.0%   6-6-6                  1.2-1.2
    all                       1  100.0%   scores 1.2-1.2, median 1.2 (se)
    <BLANKLINE>
    day               puzzles   scores min-max   levels
    2026-12-01              1   1.2-1.2          Easy 1
    """
    lines = [
        f"{'level':<18}{'puzzles':>9}{'share':>8}   {'opens min-median-max':<23}scores min-max"
    ]
    for label, count in stats.levels.items():
        givens = sorted(stats.givens[label])
        middle = givens[len(givens) // 2]
        spread = f"{givens[0]}-{middle}-{givens[-1]}"
        scored = stats.level_scores.get(label, ())
        scores_text = f"{min(scored):.1f}-{max(scored):.1f}" if scored else ""
        lines.append(
            f"{label:<18}{count:>9}{count / stats.count:>8.1%}   {spread:<23}{scores_text}"
        )
    scores = sorted(stats.scores)
    spread = (
        f"scores {scores[0]:.1f}-{scores[-1]:.1f}, median {scores[len(scores) // 2]:.1f}"
        + (f" ({', '.join(stats.profiles)})" if stats.profiles else "")
        if scores
        else "no scores"
    )
    lines.append(f"{'all':<18}{stats.count:>9}{1:>8.1%}   {spread}")
    if stats.days:
        order = {label: index for index, label in enumerate(LEVELS)}
        lines += ["", f"{'day':<18}{'puzzles':>7}   {'scores min-max':<17}levels"]
        for day, found in stats.days.items():
            day_scores = [score for _, score in found]
            counts: dict[str, int] = {}
            for level, _ in sorted(found, key=lambda item: order.get(item[0], 99)):
                counts[level] = counts.get(level, 0) + 1
            levels = ", ".join(f"{level} {count}" for level, count in counts.items())
            spread = f"{min(day_scores):.1f}-{max(day_scores):.1f}"
            lines.append(f"{day:<18}{len(found):>7}   {spread:<17}{levels}")
    return "\n".join(lines)


def chart(stats: Stats, path: Path, title: str) -> None:
    """Draw puzzles per level, the score histogram and opens per level to *path* (PNG, SVG).

    Raises:
        MissingExtra: matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("the chart needs matplotlib: pip install 'xlsudoku[charts]'") from None
    labels = list(stats.levels)
    figure, (per_level, scores, givens) = plt.subplots(1, 3, figsize=(12, 3.8))
    figure.suptitle(f"{title}: {stats.count} puzzles")
    per_level.bar(labels, [stats.levels[label] for label in labels], color="#4A90D9")
    per_level.set_title("puzzles per level")
    per_level.tick_params(axis="x", labelrotation=30)
    if stats.scores:
        scores.hist(stats.scores, bins=min(20, max(5, len(set(stats.scores)))), color="#C8790F")
    scores.set_title("score")
    scores.set_xlabel("score (SE scale)")
    givens.boxplot([stats.givens[label] for label in labels], tick_labels=labels)
    givens.set_title("opens per level")
    givens.tick_params(axis="x", labelrotation=30)
    figure.tight_layout()
    figure.savefig(path, format=path.suffix.lstrip(".").lower() or "png", dpi=100)
    plt.close(figure)
