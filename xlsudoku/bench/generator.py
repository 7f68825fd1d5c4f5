"""Generator benchmark: default request time, minimal-puzzle throughput, QQWing side by side.

Run ``xlsudoku bench generate`` (or ``python -m engine.bench.generator``).  Every figure names its
seeds; figures are medians over seeds (one run per seed), single core, pure Python.  Wall-clock
and CPU figures are both printed, with the machine's load average: on a shared machine the wall
clock also counts time spent waiting for a core, the CPU time does not (QQWing's CPU time is
read from the finished child process).

Goals: the default request (26 opens, pattern 1, 299 trials) in < 50 ms; minimal
180°-symmetric puzzles at >= 350/s (QQWing makes about 163/s); deep targets are the low-clue
search's figures (``xlsudoku bench reach``).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlsudoku.bench.common import load_note
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate import GenerateRequest, generate, minimal_puzzle
from xlsudoku.engine.generate.oracle import Oracle
from xlsudoku.engine.grid import CLASSIC, Grid, geometry_for_size
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric, orbits

Print = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Timing:
    """Times of one measured task over several seeds, in milliseconds.

    >>> Timing.of([0.010, 0.030, 0.020]).median_ms
    20.0
    """

    samples_ms: tuple[float, ...]

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Timing:
        """Return the timing of *seconds* samples."""
        return cls(tuple(s * 1000.0 for s in seconds))

    @property
    def median_ms(self) -> float:
        """Median in milliseconds."""
        return statistics.median(self.samples_ms)

    @property
    def mean_ms(self) -> float:
        """Mean in milliseconds."""
        return statistics.fmean(self.samples_ms)

    @property
    def max_ms(self) -> float:
        """Largest sample in milliseconds."""
        return max(self.samples_ms)

    def text(self) -> str:
        """Return ``ms mean/median/max``.

        >>> Timing.of([0.001, 0.002]).text()
        'ms mean/median/max 1.50/1.50/2.00'
        """
        return f"ms mean/median/max {self.mean_ms:.2f}/{self.median_ms:.2f}/{self.max_ms:.2f}"


def bench_default(seeds: Sequence[int], out: Print) -> Timing:
    """Time the default request once per seed; print and return the timing.

    >>> t = bench_default([1, 2], lambda line: None)
    >>> len(t.samples_ms)
    2
    """
    generate(GenerateRequest(seed=0))  # warm the tables so the first seed is not penalised
    times = []
    cpu = []
    reached = trials = 0
    for seed in seeds:
        start, cpu_start = time.perf_counter(), time.process_time()
        result = generate(GenerateRequest(seed=seed))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
        reached += result.reached
        trials += result.trials_used
    timing = Timing.of(times)
    out(
        f"default request (26 opens, pattern 1, 299 trials), seeds {_seeds(seeds)}: "
        f"wall {timing.text()}; cpu {Timing.of(cpu).text()}; reached {reached}/{len(seeds)}; "
        f"trials/puzzle {trials / len(seeds):.1f}; goal median < 50 ms"
    )
    return timing


# Other shapes: a target near each one's usual minimal puzzle, no pattern, 180° symmetry.
SHAPE_TARGETS = (("6x6", 14), ("9x9-X", 26), ("12x12", 70), ("16x16", 140))


def bench_shapes(seeds: Sequence[int], out: Print) -> dict[str, Timing]:
    """Time one request per seed on each shape of ``SHAPE_TARGETS``; print and return them.

    >>> sorted(bench_shapes([1], lambda line: None))
    ['12x12', '16x16', '6x6', '9x9-X']
    """
    found = {}
    for name, target_givens in SHAPE_TARGETS:
        side = int(name.split("x")[0])
        geo = geometry_for_size(side, diagonals=name.endswith("-X"))
        times = []
        for seed in seeds:
            start = time.perf_counter()
            generate(
                GenerateRequest(target_givens=target_givens, pattern=None, seed=seed, geometry=geo)
            )
            times.append(time.perf_counter() - start)
        found[name] = timing = Timing.of(times)
        what = f"{name}, {target_givens} opens, no pattern, seeds {_seeds(seeds)}"
        out(f"{what}: wall {timing.text()}")
    return found


def bench_minimal(seeds: Sequence[int], count: int, out: Print, check: bool = False) -> float:
    """Make *count* minimal 180° puzzles per seed (fill + one descent each); return the rate.

    Prints puzzles/s (median over seeds), ms per puzzle and the clue counts.  With *check*,
    every puzzle is then verified (unique, symmetric) outside the timing.

    >>> rate = bench_minimal([1], 2, lambda line: None, check=True)
    >>> rate > 0
    True
    """
    rates = []
    per_puzzle = []
    givens: list[int] = []
    made: list[Grid] = []
    minimal_puzzle(random_grid(random.Random(0)), random.Random(0))  # warm the tables
    cpu_rates = []
    for seed in seeds:
        rng = random.Random(seed)
        start, cpu_start = time.perf_counter(), time.process_time()
        for _ in range(count):
            t0 = time.perf_counter()
            puzzle = minimal_puzzle(random_grid(rng), rng)
            per_puzzle.append(time.perf_counter() - t0)
            givens.append(puzzle.given_count)
            if check:
                made.append(puzzle)
        rates.append(count / (time.perf_counter() - start))
        cpu_rates.append(count / max(time.process_time() - cpu_start, 1e-9))
    rate = statistics.median(rates)
    timing = Timing.of(per_puzzle)
    out(
        f"minimal 180° puzzles (random grid + one descent), seeds {_seeds(seeds)} x {count}: "
        f"{rate:.0f} puzzles/s wall, {statistics.median(cpu_rates):.0f}/s cpu (medians over "
        f"seeds); wall {timing.text()}; clues mean {statistics.fmean(givens):.2f} "
        f"min {min(givens)} max {max(givens)}; goal >= 350/s"
    )
    if check:
        unique = sum(count_solutions(p) == 1 for p in made)
        symmetric = sum(is_symmetric(p, Symmetry.ROTATE_180) for p in made)
        out(f"  check: unique {unique}/{len(made)}, symmetric {symmetric}/{len(made)}")
    return rate


def bench_qqwing(count: int, out: Print) -> float | None:
    """Run ``qqwing --generate COUNT --symmetry rotate180 --one-line``; report rate and output.

    Returns puzzles/s, or None when qqwing is not installed.  The output is checked here:
    clue counts, how many puzzles are unique, 180°-symmetric, and minimal (no clue orbit can be
    blanked keeping one solution).
    """
    exe = shutil.which("qqwing")
    if exe is None:
        out("qqwing: not installed (apt-get install qqwing)")
        return None
    start, cpu_start = time.perf_counter(), _children_cpu()
    proc = subprocess.run(
        [exe, "--generate", str(count), "--symmetry", "rotate180", "--one-line"],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - start
    cpu = _children_cpu() - cpu_start
    puzzles = [Grid.parse(line) for line in proc.stdout.split() if len(line) == 81]
    rate = len(puzzles) / seconds
    cpu_rate = len(puzzles) / max(cpu, 1e-9)
    unique = symmetric = minimal = 0
    pairs = orbits(Symmetry.ROTATE_180, CLASSIC)
    for p in puzzles:
        if count_solutions(p) != 1:
            continue
        unique += 1
        symmetric += is_symmetric(p, Symmetry.ROTATE_180)
        solution = _solve(p)
        oracle = Oracle(solution)
        oracle.reset(frozenset(c for c, d in enumerate(p.cells) if not d))
        minimal += not any(
            oracle.is_given(o[0]) and oracle.is_given(o[-1]) and oracle.can_remove(o) for o in pairs
        )
    givens = [p.given_count for p in puzzles]
    out(
        f"qqwing --generate {count} --symmetry rotate180 --one-line: {rate:.0f} puzzles/s wall, "
        f"{cpu_rate:.0f}/s cpu (one process, {seconds:.2f} s); "
        f"clues mean {statistics.fmean(givens):.2f} min {min(givens)} max {max(givens)}; "
        f"unique {unique}/{len(puzzles)}, "
        f"symmetric {symmetric}/{len(puzzles)}, minimal {minimal}/{len(puzzles)}"
    )
    return rate


def _children_cpu() -> float:
    """Return the CPU seconds used by finished child processes (0 where unknown)."""
    times = os.times()
    return times.children_user + times.children_system


def _solve(puzzle: Grid) -> Grid:
    from xlsudoku.engine.solver import solve

    solution = solve(puzzle)
    assert solution is not None
    return solution


def _seeds(seeds: Sequence[int]) -> str:
    seeds = list(seeds)
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"{seeds[0]}-{seeds[-1]}"
    return ",".join(map(str, seeds))


def run(args: argparse.Namespace, out: Print = print) -> int:
    """Run the benchmark described by parsed *args*; return the exit status."""
    seeds = list(range(args.seed, args.seed + args.seeds))
    out(f"xlsudoku bench generate; {load_note()}; python {sys.version.split()[0]}")
    bench_default(seeds, out)
    bench_minimal(seeds, args.count, out, check=args.check)
    if args.shapes:
        bench_shapes(seeds, out)
    if args.qqwing:
        bench_qqwing(args.qqwing, out)
    out(f"done; {load_note()}")
    return 0
