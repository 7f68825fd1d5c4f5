"""Reproducible benchmarks of the exact solver and the random fill (``xlsudoku bench solve|fill``).

Each report names the data set, the sample seed and size, and gives puzzles per second
(median of the runs, both wall-clock and CPU time of this process), milliseconds per puzzle,
guesses per puzzle, the share solved without a guess, the machine's load average and, with
``--qqwing``, QQWing's figures on the same puzzles in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from functools import partial

from xlsudoku.bench.common import (
    Print,
    Timing,
    load_note,
    load_puzzles,
    run_qqwing,
    time_items,
)
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.grid import CLASSIC, Geometry, Grid, SudokuError, geometry_for_size
from xlsudoku.engine.solver import SearchOptions, count_solutions, search


def bench_solve(
    puzzles: Sequence[Grid], cap: int = 2, runs: int = 5, qqwing: bool = False
) -> list[str]:
    """Count the solutions of *puzzles* up to *cap*, *runs* times; return the report lines.

    >>> lines = bench_solve([Grid.empty()] * 3, runs=2)
    >>> lines[0]
    'solutions (capped at 2): 2 x3'
    """
    counts: Counter[int] = Counter()
    guesses = []
    for g in puzzles:
        stats = search(g, cap, SearchOptions(keep=False)).stats
        counts[stats.solutions] += 1
        guesses.append(stats.guesses)
    timing = time_items(puzzles, lambda g: count_solutions(g, cap), runs)  # type: ignore[arg-type]
    n = max(len(puzzles), 1)
    no_guess = 100.0 * sum(1 for k in guesses if k == 0) / n
    lines = [
        f"solutions (capped at {cap}): "
        + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())),
        f"count to {cap}: " + timing.summary("puzzles"),
        f"guesses/puzzle {sum(guesses) / n:.2f}, no-guess {no_guess:.1f}%",
    ]
    if qqwing:
        qq = run_qqwing(puzzles)
        lines.append(qq.summary() if qq else "QQWing: not installed (apt-get install qqwing)")
    return lines


def _draw(rng: random.Random, geo: Geometry, _item: object) -> Grid:
    return random_grid(rng, geo)


def bench_fill(count: int, seed: int, runs: int = 5, size: int = 9) -> list[str]:
    """Draw *count* random complete grids from ``random.Random(seed)``, *runs* times.

    >>> bench_fill(3, 1, runs=1, size=4)[0].startswith("fill 4x4:")
    True
    """
    geo = geometry_for_size(size) if size != 9 else CLASSIC
    per_run = [
        time_items(range(count), partial(_draw, random.Random(seed), geo), 1) for _ in range(runs)
    ]
    per_item = tuple(
        statistics.median(column) for column in zip(*(t.per_item for t in per_run), strict=True)
    )
    wall = tuple(t.wall[0] for t in per_run)
    timing = Timing(count, wall, tuple(t.cpu[0] for t in per_run), per_item)
    return [f"fill {geo.name}: " + timing.summary("grids")]


# --------------------------------------------------------------------------------------------
# Command line: ``xlsudoku bench solve`` and ``xlsudoku bench fill``
# --------------------------------------------------------------------------------------------


def run_solve(args: argparse.Namespace, out: Print = print) -> int:
    """Run ``xlsudoku bench solve FILE`` (arguments parsed by the command line)."""
    try:
        puzzles = load_puzzles(args.file, args.limit, args.seed)
    except (OSError, SudokuError) as err:
        print(f"xlsudoku bench solve: {err}", file=sys.stderr)
        return 2
    sample = f"random sample, seed {args.seed}" if args.seed is not None else "first lines"
    out(f"data set {args.file}: {len(puzzles)} puzzles ({sample})")
    out(load_note())
    for line in bench_solve(puzzles, args.solutions, args.runs, args.qqwing):
        out(line)
    return 0


def run_fill(args: argparse.Namespace, out: Print = print) -> int:
    """Run ``xlsudoku bench fill`` (arguments parsed by the command line)."""
    out(f"random grids: {args.count} per run, seed {args.seed}")
    out(load_note())
    for line in bench_fill(args.count, args.seed, args.runs, args.size):
        out(line)
    return 0
