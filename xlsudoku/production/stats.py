"""What a set of puzzles is like, as a table and a chart: levels, scores, opens per level.

:func:`collect` counts the entries of any input the booklet reads (a batch, a daily set, a
workbook's Collection, a puzzle file); a puzzle without a level or score gets them from its
one analysis.  :func:`table` is the text the command prints; :func:`chart` draws the three
panels with matplotlib (the ``charts`` extra, loaded only here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xlsudoku.engine.steps import Level
from xlsudoku.production.inputs import Entry

LEVELS: tuple[str, ...] = tuple(level.label for level in Level)


class MissingExtra(RuntimeError):
    """The chart needs matplotlib, which the ``charts`` extra installs."""


@dataclass(frozen=True, slots=True)
class Stats:
    """Levels, scores and opens of a set of puzzles.

    Attributes:
        levels: Level label -> puzzles, in the order of the levels (only those present).
        scores: Every puzzle's score.
        opens: Level label -> the opens of its puzzles.
    """

    levels: dict[str, int]
    scores: tuple[float, ...]
    opens: dict[str, tuple[int, ...]]
    profiles: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        """Return the number of puzzles."""
        return len(self.scores)


def collect(entries: Sequence[Entry]) -> Stats:
    """Return the statistics of *entries*, analysing those without a level or score.

    What an entry records (its level, score and their profile) is shown as it is; an entry
    without them is analysed under its recorded profile, else the default one.

    >>> from xlsudoku.engine.grid import Grid
    >>> s = collect([Entry(Grid.parse("2....3.21.3....1"))])
    >>> s.levels, s.opens, s.profiles
    ({'Easy': 1}, {'Easy': (6,)}, ('se',))
    """
    from xlsudoku.engine.analysis import analyze
    from xlsudoku.engine.ratings import DEFAULT_PROFILE

    rows: list[tuple[str, float, int]] = []
    profiles: list[str] = []
    for entry in entries:
        level, score, profile = entry.level, entry.score, entry.profile or DEFAULT_PROFILE
        if level is None or score is None:
            graded = analyze(entry.puzzle, profile, solution=entry.solution).graded()
            level = level or graded.label
            score = graded.score if score is None else score
        rows.append((level, float(score), entry.puzzle.given_count))
        profiles.append(profile)
    order = {label: index for index, label in enumerate(LEVELS)}
    present = sorted({level for level, _, _ in rows}, key=lambda label: order.get(label, 99))
    return Stats(
        {label: sum(1 for level, _, _ in rows if level == label) for label in present},
        tuple(score for _, score, _ in rows),
        {label: tuple(o for level, _, o in rows if level == label) for label in present},
        tuple(dict.fromkeys(profiles)),
    )


def table(stats: Stats) -> str:
    """Return the table the command prints: per level, puzzles, share and opens.

    >>> from xlsudoku.engine.grid import Grid
    >>> print(table(collect([Entry(Grid.parse("2....3.21.3....1"))])))
    level               puzzles   share   opens min-median-max
    Easy                      1  100.0%   6-6-6
    all                       1  100.0%   scores 1.2-1.2, median 1.2 (se)
    """
    lines = [f"{'level':<18}{'puzzles':>9}{'share':>8}   opens min-median-max"]
    for label, count in stats.levels.items():
        opens = sorted(stats.opens[label])
        middle = opens[len(opens) // 2]
        lines.append(
            f"{label:<18}{count:>9}{count / stats.count:>8.1%}   {opens[0]}-{middle}-{opens[-1]}"
        )
    scores = sorted(stats.scores)
    lines.append(
        f"{'all':<18}{stats.count:>9}{1:>8.1%}   scores {scores[0]:.1f}-{scores[-1]:.1f}, "
        f"median {scores[len(scores) // 2]:.1f}"
        + (f" ({', '.join(stats.profiles)})" if stats.profiles else "")
    )
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
    figure, (per_level, scores, opens) = plt.subplots(1, 3, figsize=(12, 3.8))
    figure.suptitle(f"{title}: {stats.count} puzzles")
    per_level.bar(labels, [stats.levels[label] for label in labels], color="#4A90D9")
    per_level.set_title("puzzles per level")
    per_level.tick_params(axis="x", labelrotation=30)
    scores.hist(stats.scores, bins=min(20, max(5, len(set(stats.scores)))), color="#C8790F")
    scores.set_title("score")
    scores.set_xlabel("score (SE scale)")
    opens.boxplot([stats.opens[label] for label in labels], tick_labels=labels)
    opens.set_title("opens per level")
    opens.tick_params(axis="x", labelrotation=30)
    figure.tight_layout()
    figure.savefig(path, format=path.suffix.lstrip(".").lower() or "png", dpi=100)
    plt.close(figure)
