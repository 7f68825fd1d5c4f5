"""The Sudoku Explainer rating goals: agreement, the hardest puzzles, and speed side by side.

``xlsudoku bench se`` measures, in one run:

- *unbiased*: fresh random samples of an unbiased rated set (Berthier's cbg-000, SE's ER per
  puzzle) graded with the ``se`` profile: share of exact scores, within 0.1 and within 0.2,
  and Spearman's rank correlation, for each sample and as the spread over the samples;
- *sukaku*: SukakuExplainer's own fixtures (ER up to 9) graded with the ``sukaku`` profile;
- *hardest*: the forum's hardest 375 (or a sample): how many get a numeric rating without
  trial and error, Spearman with the published ER, seconds per puzzle (wall and CPU);
- *speed*: a sample of top1465 graded by xlsudoku (``se`` profile), larsdoku and hodoku-py,
  one after the other in the same run, wall and CPU seconds (the other graders are optional
  installs; a missing one is reported, not faked).

Every section prints the machine's load average, since the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from xlsudoku.bench.common import load_note
from xlsudoku.bench.grading import read_rows, spearman
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.steps import Technique

# one puzzle graded: score, wall and CPU seconds, whether it needed trial and error
Rated = tuple[float, float, float, bool]


@dataclass(frozen=True, slots=True)
class Agreement:
    """How a sample of our scores compares with reference ratings."""

    count: int
    exact: float
    within_01: float
    within_02: float
    spearman: float
    cpu_s: float
    wall_s: float

    def line(self) -> str:
        """Return the figures as one printable line.

        >>> print(Agreement(10, 0.8, 0.9, 0.95, 0.99, 1.0, 2.0).line())
        ... # doctest: +NORMALIZE_WHITESPACE
        10 puzzles: exact 80.0%, within 0.1 90.0%, within 0.2 95.0%, Spearman 0.9900
        (CPU 1.0 s, wall 2.0 s)
        """
        return (
            f"{self.count} puzzles: exact {100 * self.exact:.1f}%, within 0.1 "
            f"{100 * self.within_01:.1f}%, within 0.2 {100 * self.within_02:.1f}%, "
            f"Spearman {self.spearman:.4f} (CPU {self.cpu_s:.1f} s, wall {self.wall_s:.1f} s)"
        )


def agreement(
    pairs: list[tuple[float, float]], cpu_s: float = 0.0, wall_s: float = 0.0
) -> Agreement:
    """Return the agreement of ``(reference, ours)`` score *pairs*.

    >>> a = agreement([(1.2, 1.2), (2.0, 2.1), (7.1, 7.4)])
    >>> a.exact, round(a.within_01, 3), a.spearman
    (0.3333333333333333, 0.667, 1.0)
    """
    n = len(pairs)
    close = [abs(a - b) for a, b in pairs]
    return Agreement(
        n,
        sum(1 for d in close if d < 0.05) / n,
        sum(1 for d in close if d < 0.15) / n,
        sum(1 for d in close if d < 0.25) / n,
        spearman([a for a, _ in pairs], [b for _, b in pairs]) if n >= 2 else 1.0,
        cpu_s,
        wall_s,
    )


def rate_rows(
    rows: list[dict[str, str]], column: str, profile: str, jobs: int = 1
) -> tuple[list[tuple[float, float]], list[float], list[float], int]:
    """Grade every row; return ``(reference, ours)`` pairs, wall and CPU seconds, trials.

    With *jobs* above 1 the rows are graded by that many processes (the seconds stay each
    puzzle's own; the scores do not depend on the machine, see ``se_chains.NESTED_WORK``).

    >>> pairs, wall, cpu, trials = rate_rows([{"puzzle": "..3.2.6..9..3.5..1..18.64....81."
    ...     "29..7.......8..67.82....26.95..8..2.3..9..5.1.3..", "SER": "1.2"}], "SER", "se")
    >>> pairs, trials
    ([(1.2, 1.2)], 0)
    """
    puzzles = [row["puzzle"] for row in rows]
    profiles = [profile] * len(rows)
    from tqdm import tqdm  # type: ignore[import-untyped]

    def shown(results: Iterator[Rated]) -> list[Rated]:
        # a progress bar on a terminal (stderr) only: long runs say how far they are
        return list(tqdm(results, total=len(rows), unit="puzzle", leave=False, disable=None))

    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rated = shown(pool.map(_rate, puzzles, profiles))
    else:
        rated = shown(map(_rate, puzzles, profiles))
    pairs = [
        (float(row[column]), r[0]) for row, r in zip(rows, rated, strict=True) if row.get(column)
    ]
    walls = [r[1] for r in rated]
    cpus = [r[2] for r in rated]
    return pairs, walls, cpus, sum(r[3] for r in rated)


def _rate(puzzle: str, profile: str) -> Rated:
    """Return one puzzle's score, wall and CPU seconds, and whether it needed trial and error."""
    grid = Grid.parse(puzzle)
    wall, cpu = time.perf_counter(), time.process_time()
    g = grade(grid, profile=profile)
    trial = bool(dict(g.counts).get(Technique.TRIAL_AND_ERROR))
    return g.score, time.perf_counter() - wall, time.process_time() - cpu, trial


def _unbiased(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    rows = [r for r in read_rows(args.unbiased_file) if r.get("SER")]
    say(f"== unbiased set, profile se: {args.unbiased_file.rsplit('/', 1)[-1]} ({len(rows)})")
    say(f"   goals: >= 90% within 0.2, >= 75% exact, Spearman >= 0.99; {load_note()}")
    results = []
    for k in range(args.repeat):
        seed = args.seed + k
        chosen = random.Random(seed).sample(rows, min(args.unbiased, len(rows)))
        pairs, walls, cpus, _ = rate_rows(chosen, "SER", "se", args.jobs)
        a = agreement(pairs, sum(cpus), sum(walls))
        results.append(a)
        say(f"   sample seed {seed}: {a.line()}")
    if len(results) > 1:
        for name in ("exact", "within_02", "spearman"):
            values = [getattr(a, name) for a in results]
            say(f"   spread of {name}: min {min(values):.4f}, max {max(values):.4f}")
    say(f"   {load_note()}")


def _sukaku(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    rows = [
        r
        for r in read_rows(args.sukaku_file)
        if r.get("set") != "invalid" and r.get("ER") and float(r["ER"]) <= 9.0
    ]
    say(f"== SukakuExplainer fixtures (ER <= 9), profile sukaku: {len(rows)} puzzles")
    say(f"   goal: >= 85% within 0.1; {load_note()}")
    pairs, walls, cpus, _ = rate_rows(rows, "ER", "sukaku", args.jobs)
    say(f"   {agreement(pairs, sum(cpus), sum(walls)).line()}")
    say(f"   {load_note()}")


def _hardest(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    rows = read_rows(args.hardest_file)
    if args.hardest < len(rows):
        rows = random.Random(args.seed).sample(rows, args.hardest)
    say(f"== forum hardest, profile se: {len(rows)} puzzles (sample seed {args.seed})")
    say(
        f"   goals: a rating for every puzzle, Spearman >= 0.6 with ER, median < 10 s; "
        f"{load_note()}"
    )
    wall = time.perf_counter()
    pairs, walls, cpus, trials = rate_rows(rows, "ER", "se", args.jobs)
    wall = time.perf_counter() - wall
    say(
        f"   rated without trial and error: {len(rows) - trials}/{len(rows)}; "
        f"with a published ER: {len(pairs)}"
    )
    if len(pairs) >= 2:
        rho = spearman([a for a, _ in pairs], [b for _, b in pairs])
        say(
            f"   Spearman with ER {rho:.4f}; our scores {min(b for _, b in pairs):.1f}-"
            f"{max(b for _, b in pairs):.1f}"
        )
    say(
        f"   seconds per puzzle: wall median {statistics.median(walls):.1f} (max "
        f"{max(walls):.1f}), CPU median {statistics.median(cpus):.1f} (max {max(cpus):.1f}); "
        f"{wall:.0f} s in all on {args.jobs} process{'es' if args.jobs > 1 else ''}"
    )
    say(f"   {load_note()}")


def _timed(name: str, puzzles: list[str], work: Callable[[str], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for p in puzzles:
        work(p)
    return time.perf_counter() - wall, time.process_time() - cpu


def _speed(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    rows = read_rows(args.speed_file)
    puzzles = [
        r["puzzle"] for r in random.Random(args.seed).sample(rows, min(args.speed, len(rows)))
    ]
    say(
        f"== speed: {len(puzzles)} puzzles of {args.speed_file.rsplit('/', 1)[-1]} "
        f"(sample seed {args.seed}), one grader after the other; {load_note()}"
    )
    graders: list[tuple[str, Callable[[str], object] | None, str]] = [
        ("xlsudoku grade (se)", lambda p: grade(Grid.parse(p)), "")
    ]
    try:
        import larsdoku  # optional benchmark dependency (AGPL), never used by grading

        graders.append(("larsdoku solve", larsdoku.solve, ""))
    except ImportError:
        graders.append(("larsdoku", None, "not installed (pip install larsdoku)"))
    try:
        from hodoku import Solver  # optional benchmark dependency (GPL), never used by grading

        solver = Solver()
        graders.append(("hodoku-py Solver.rate", solver.rate, ""))
    except ImportError:
        graders.append(("hodoku-py", None, "not installed (pip install hodoku-py)"))
    ours_cpu = None
    for name, work, note in graders:
        if work is None:
            say(f"   {name}: {note}")
            continue
        wall, cpu = _timed(name, puzzles, work)
        line = (
            f"   {name}: {len(puzzles) / wall:.2f} puzzles/s wall ({wall:.1f} s), "
            f"{len(puzzles) / cpu:.2f} puzzles/s CPU ({cpu:.1f} s)"
        )
        if ours_cpu is None:
            ours_cpu = cpu
        else:
            line += f"; speed ratio xlsudoku / {name.split()[0]} (CPU): {cpu / ours_cpu:.2f}"
        say(line)
    say(f"   {load_note()}")


SECTIONS = {"unbiased": _unbiased, "sukaku": _sukaku, "hardest": _hardest, "speed": _speed}


def run_se(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Run ``xlsudoku bench se``: the SE rating goals (see the module docstring)."""
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1_000_000)
    say(f"sample seed {args.seed} (pass --seed to repeat this run)")
    for name in args.only:
        SECTIONS[name](args, say)
    return 0
