"""What every benchmark shares: timing of items, puzzle samples, QQWing side by side, load.

The solver and fill benchmarks are :mod:`xlsudoku.bench.solver`.  Each report names
the data set, the sample seed and size, and gives puzzles per second (median of the runs,
both wall-clock and CPU time of this process: other programs on the machine slow the first,
hardly the second), milliseconds per puzzle (mean, median, max of
each puzzle's median over the runs), guesses per puzzle, the share solved without a guess,
the machine's load average and, with ``--qqwing``, QQWing's figures on the same puzzles in
the same run (``qqwing --solve --count-solutions``: its own timer and its CPU time).
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xlsudoku.engine.formats import read_puzzles
from xlsudoku.engine.grid import Grid

Print = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Timing:
    """Times of one benchmark: per-run totals and per-item medians.

    Attributes:
        count: items per run.
        wall: wall-clock seconds of each run.
        cpu: CPU seconds of this process for each run.
        per_item: each item's median seconds over the runs.
    """

    count: int
    wall: tuple[float, ...]
    cpu: tuple[float, ...]
    per_item: tuple[float, ...]

    @property
    def rate(self) -> float:
        """Items per second, wall clock, median of the runs."""
        return self.count / statistics.median(self.wall)

    @property
    def cpu_rate(self) -> float:
        """Items per second of CPU time, median of the runs."""
        return self.count / statistics.median(self.cpu)

    def summary(self, unit: str) -> str:
        """Return the one-line figures, e.g. ``3,012 puzzles/s (CPU 3,100/s) ...``.

        >>> print(Timing(2, (0.5, 1.0, 1.0), (0.5, 0.5, 0.5), (0.25, 0.5)).summary("grids"))
        ... # doctest: +NORMALIZE_WHITESPACE
        2 grids/s wall, 4 grids/s CPU (median of 3 runs);
        ms per item: mean 375.000, median 375.000, max 500.000
        """
        ms = [t * 1000 for t in self.per_item]
        return (
            f"{self.rate:,.0f} {unit}/s wall, {self.cpu_rate:,.0f} {unit}/s CPU "
            f"(median of {len(self.wall)} runs); ms per item: mean {statistics.fmean(ms):.3f}, "
            f"median {statistics.median(ms):.3f}, max {max(ms):.3f}"
        )


def time_items(items: Sequence[object], work: Callable[[object], object], runs: int) -> Timing:
    """Run *work* on every item, *runs* times; return the timings.

    >>> t = time_items([1, 2, 3], lambda x: x, 2)
    >>> t.count, len(t.wall), len(t.per_item)
    (3, 2, 3)
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    clock = time.perf_counter
    per_run: list[list[float]] = []
    wall, cpu = [], []
    for _ in range(runs):
        times = []
        c0, w0 = time.process_time(), clock()
        for item in items:
            t0 = clock()
            work(item)
            times.append(clock() - t0)
        wall.append(clock() - w0)
        cpu.append(time.process_time() - c0)
        per_run.append(times)
    per_item = tuple(statistics.median(column) for column in zip(*per_run, strict=True))
    return Timing(len(items), tuple(wall), tuple(cpu), per_item)


def load_puzzles(path: str | Path, limit: int | None, seed: int | None) -> list[Grid]:
    r"""Return the puzzles of *path*: the first *limit*, or a random *limit* with *seed*.

    Lines that do not hold a valid puzzle are skipped.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("puzzle\n" + ("." * 81 + "\n") * 3)
    >>> len(load_puzzles(f.name, 2, None)), len(load_puzzles(f.name, None, 7))
    (2, 3)
    """
    p = Path(path)
    grids: list[Grid] = []
    for _, result in read_puzzles(p.read_text(encoding="utf-8-sig"), p.name):
        if isinstance(result, Grid):
            grids.append(result)
            if seed is None and limit is not None and len(grids) >= limit:
                break
    if seed is not None and limit is not None and limit < len(grids):
        grids = random.Random(seed).sample(grids, limit)
    return grids


@dataclass(frozen=True, slots=True)
class QQWingTiming:
    """QQWing's figures on the same puzzles: its own timer and its CPU time."""

    count: int
    seconds: float  # QQWing's "N puzzles solved in X seconds"
    cpu: float  # user + system CPU of the qqwing process

    def summary(self) -> str:
        """Return the one-line figures.

        >>> QQWingTiming(100, 0.05, 0.1).summary()
        'QQWing: 2,000 puzzles/s by its timer, 1,000 puzzles/s CPU (incl. start-up)'
        """
        return (
            f"QQWing: {self.count / self.seconds:,.0f} puzzles/s by its timer, "
            f"{self.count / self.cpu:,.0f} puzzles/s CPU (incl. start-up)"
        )


def _children_cpu() -> float | None:
    """Return the CPU seconds of finished child processes (None where unknown, e.g. Windows)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_qqwing(puzzles: Sequence[Grid], executable: str = "qqwing") -> QQWingTiming | None:
    """Solve and count *puzzles* with QQWing; return None when it is not installed.

    QQWing counts every solution (no cap), the same work as a cap of 2 on unique puzzles.
    """
    path = shutil.which(executable)
    if path is None:
        return None
    text = "".join(str(g) + "\n" for g in puzzles)
    before, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [path, "--solve", "--count-solutions", "--nosolution", "--timer"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - wall
    after = _children_cpu()
    cpu = after - before if after is not None and before is not None else wall
    seconds = 0.0
    for line in done.stdout.splitlines():
        if "solved in" in line:
            seconds = float(line.split("solved in")[1].split()[0])
    return QQWingTiming(len(puzzles), seconds or cpu, cpu)


def load_note() -> str:
    """Return the machine's load averages, to print beside wall-clock figures.

    >>> load_note().startswith("load average")
    True
    """
    try:
        one, five, fifteen = os.getloadavg()
    except (OSError, AttributeError):  # pragma: no cover - Windows, Pyodide
        return f"load average unknown on {os.cpu_count()} CPUs"
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"
