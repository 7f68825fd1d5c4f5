"""Benchmark of the technique finders: where the human-style solver spends its time.

``xlsudoku bench techniques [FILE] [--limit N] [--seed S]`` solves a random sample of a puzzle
file step by step with the full technique table (as ``engine.logic.solve_path`` does) and times
every finder call: calls, total seconds, milliseconds per call, steps it supplied.  It also
prints puzzles per second, milliseconds per puzzle (mean / median / max) and the load average,
since other work on the machine slows every figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from xlsudoku.bench.common import load_note
from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.logic import trial_step
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Technique
from xlsudoku.engine.techniques import TECHNIQUES, TechniqueSpec


@dataclass(frozen=True, slots=True)
class FinderTiming:
    """Calls, seconds and steps supplied of one finder over a benchmark run."""

    technique: Technique
    calls: int
    seconds: float
    used: int

    @property
    def ms_per_call(self) -> float:
        """Return the mean time of one call in milliseconds."""
        return 1000 * self.seconds / self.calls if self.calls else 0.0


def time_finders(
    puzzles: list[str], table: tuple[TechniqueSpec, ...] = TECHNIQUES
) -> tuple[list[FinderTiming], list[float]]:
    """Solve *puzzles* with *table*, timing each finder call; return timings and s/puzzle.

    Trial and error (from the exact solution) stands in when no technique applies, as in
    ``xlsudoku.engine.logic``.

    >>> timings, per_puzzle = time_finders(["1" + "." * 80][:0])
    >>> timings, per_puzzle
    ([], [])
    """
    calls: Counter[Technique] = Counter()
    seconds: dict[Technique, float] = dict.fromkeys(Technique, 0.0)
    used: Counter[Technique] = Counter()
    per_puzzle = []
    clock = time.perf_counter
    for text in puzzles:
        start = clock()
        grid = Grid.parse(text)
        board = Board.from_grid(grid)
        solution = None
        while not board.is_solved:
            step = None
            for spec in table:
                t = clock()
                step = next(spec.find(board), None)
                seconds[spec.technique] += clock() - t
                calls[spec.technique] += 1
                if step is not None:
                    break
            if step is None:
                solution = solution or solve(grid)
                if solution is None:
                    break
                step = trial_step(board, solution)
            used[step.technique] += 1
            board = board.apply(step)
        per_puzzle.append(clock() - start)
    order = [spec.technique for spec in table] + [Technique.TRIAL_AND_ERROR]
    timings = [FinderTiming(t, calls[t], seconds[t], used[t]) for t in order if calls[t] or used[t]]
    return timings, per_puzzle


def report(
    source: str,
    seed: int,
    timings: list[FinderTiming],
    per_puzzle: list[float],
    load: str = "load average n/a",
) -> str:
    """Return the benchmark's printed report (*load*: the machine's load, from ``load_note``).

    >>> print(report("x.txt", 1, [FinderTiming(Technique.XY_WING, 4, 0.002, 1)], [0.5, 1.5]))
    ... # doctest: +NORMALIZE_WHITESPACE
    techniques on x.txt: 2 puzzles, seed 1, load average n/a
    2.0 s, 1.00 puzzles/s, ms per puzzle mean 1000.0 median 1000.0 max 1500.0
    technique                      calls   total s  ms/call   used
    XY-Wing                            4      0.00     0.50      1
    """
    total = sum(per_puzzle)
    lines = [
        f"techniques on {source}: {len(per_puzzle)} puzzles, seed {seed}, {load}",
        f"{total:.1f} s, {len(per_puzzle) / total if total else 0:.2f} puzzles/s, ms per puzzle "
        f"mean {1000 * statistics.mean(per_puzzle):.1f} "
        f"median {1000 * statistics.median(per_puzzle):.1f} max {1000 * max(per_puzzle):.1f}",
        f"{'technique':30s} {'calls':>5s} {'total s':>9s} {'ms/call':>8s} {'used':>6s}",
    ]
    for t in timings:
        lines.append(
            f"{t.technique.value:30s} {t.calls:5d} {t.seconds:9.2f} {t.ms_per_call:8.2f} "
            f"{t.used:6d}"
        )
    return "\n".join(lines)


def run_techniques(args: argparse.Namespace) -> int:
    """Run ``xlsudoku bench techniques``: time every finder while solving a puzzle sample."""
    from xlsudoku.bench.grading import read_rows

    try:
        puzzles = [row["puzzle"] for row in read_rows(args.file)]
    except OSError as exc:
        print(f"xlsudoku bench techniques: cannot read {args.file}: {exc.strerror}")
        return 2
    if args.limit and args.limit < len(puzzles):
        puzzles = random.Random(args.seed).sample(puzzles, args.limit)
    timings, per_puzzle = time_finders(puzzles)
    print(report(Path(args.file).name, args.seed, timings, per_puzzle, load_note()))
    return 0
