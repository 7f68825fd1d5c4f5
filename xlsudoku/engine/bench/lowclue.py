"""Low-clue search benchmark: ``xlsudoku bench reach`` (or ``python -m engine.bench.lowclue``).

Two figures (issue 3), for 180° symmetry with no fixed cells, pure Python on one core:

- **time to reach** each target (default 23, 22, 21, 20 clues): one :func:`search_low` run per
  seed aimed at the lowest target, stopped by ``--time-limit``; the time each target was first
  reached is read from the run's records (the search does not depend on the target until the
  target is reached, so aiming lower does not slow the higher targets).  A seed that did not
  reach a target in time counts as slower than every seed that did, and the median is shown
  as ``> limit`` when half the seeds or more did not reach it.
- **lowest in N minutes** (``--lowest --minutes 30``): one run aimed at the 18-clue floor; each
  new record is printed (clues, seconds, grids, puzzle) as it comes.

``--qqwing SEC`` runs ``qqwing --generate N --symmetry rotate180 --one-line`` for that long and
reports the fewest clues it printed, for comparison.  Wall-clock and CPU times are printed with
the load average: on a shared machine the wall clock also counts time spent waiting for a core.

Goals: 22 clues in < 2 s, 21 in < 10 s, 20 in < 60 s (medians); lowest in 30 minutes 19.
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from xlsudoku.engine.bench.common import load_note
from xlsudoku.engine.generate.lowclue import LowClueResult, search_low
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

Print = Callable[[str], None]

GOALS: dict[int, float] = {22: 2.0, 21: 10.0, 20: 60.0}


def median_or_none(values: Sequence[float | None]) -> float | None:
    """Return the median of *values*, None standing for "not reached" (slower than any number).

    The result is None when the median falls on a seed that did not reach.

    >>> median_or_none([1.0, None, 3.0]), median_or_none([1.0, None, None]), median_or_none([])
    (3.0, None, None)
    """
    if not values:
        return None
    ordered = sorted(values, key=lambda v: math.inf if v is None else v)
    n = len(ordered)
    low, high = ordered[(n - 1) // 2], ordered[n // 2]
    if low is None or high is None:
        return None
    return (low + high) / 2


def reach_table(
    runs: Sequence[tuple[LowClueResult, float]], targets: Sequence[int], limit: float
) -> list[str]:
    """Return one summary line per target from ``(result, cpu seconds)`` of each seed's run.

    >>> from xlsudoku.engine.generate.lowclue import Record
    >>> r = LowClueResult(None, None, 21, 20, False, 4, 9.0, "time",
    ...                   (Record(22, 1.0, 1, 0.9), Record(21, 4.0, 3, 3.5)), "")
    >>> first, last = reach_table([(r, 8.0)], [22, 20], 9.0)
    >>> first[:57]
    '22 clues: reached 1/1 seeds; median 1.00 s wall, 0.90 s c'
    >>> last.endswith("none reached; goal < 60 s: NOT met")
    True
    """
    lines = []
    for t in targets:
        walls = [r.seconds_to(t) for r, _ in runs]
        firsts = [r.first(t) for r, _ in runs]
        cpus = [None if f is None else f.cpu for f in firsts]
        reached = [w for w in walls if w is not None]
        med = median_or_none(walls)
        med_cpu = median_or_none(cpus)
        med_text = f"{med:.2f}" if med is not None else f"> {limit:g}"
        cpu_text = f"{med_cpu:.2f}" if med_cpu is not None else f"> {limit:g}"
        stats = (
            f"mean/max of reached {statistics.fmean(reached):.2f}/{max(reached):.2f} s"
            if reached
            else "none reached"
        )
        goal = GOALS.get(t)
        verdict = ""
        if goal is not None:
            ok = med is not None and med < goal
            verdict = f"; goal < {goal:g} s: {'met' if ok else 'NOT met'}"
        lines.append(
            f"{t} clues: reached {len(reached)}/{len(runs)} seeds; median {med_text} s wall, "
            f"{cpu_text} s cpu; {stats}{verdict}"
        )
    return lines


def bench_targets(
    targets: Sequence[int], seeds: Sequence[int], limit: float, symmetry: Symmetry, out: Print
) -> list[tuple[LowClueResult, float]]:
    """Run one search per seed aimed at the lowest target; print a line per seed and a summary."""
    aim = min(targets)
    runs = []
    for seed in seeds:
        cpu0 = time.process_time()
        result = search_low(
            aim, symmetry, rng=random.Random(seed), deadline=time.perf_counter() + limit
        )
        cpu = time.process_time() - cpu0
        runs.append((result, cpu))
        reached = ", ".join(_reached_text(result, t) for t in targets)
        out(
            f"seed {seed}: best {result.clues} clues, {result.grids} grids, "
            f"{result.seconds:.1f} s wall, {cpu:.1f} s cpu; seconds to reach {reached} "
            f"(n: by a neighbour move)"
        )
    for line in reach_table(runs, targets, limit):
        out(line)
    return runs


def _reached_text(result: LowClueResult, clues: int) -> str:
    """Return ``clues: seconds`` (``n`` marks a neighbour move), ``clues: -`` when not reached.

    >>> from xlsudoku.engine.generate.lowclue import Record
    >>> r = LowClueResult(None, None, 21, 20, False, 4, 9.0, "time",
    ...                   (Record(21, 4.0, 3, 3.5, "neighbour"),), "")
    >>> _reached_text(r, 22), _reached_text(r, 20)
    ('22: 4.00n', '20: -')
    """
    record = result.first(clues)
    if record is None:
        return f"{clues}: -"
    mark = "n" if record.source == "neighbour" else ""
    return f"{clues}: {record.seconds:.2f}{mark}"


def bench_lowest(
    minutes: float, floor: int, seed: int, symmetry: Symmetry, out: Print
) -> LowClueResult:
    """Search for *minutes* aiming at *floor* clues; print every record and the lowest."""
    began = time.perf_counter()
    cpu0 = time.process_time()
    shown = [0]

    def progress(grids: int, clues: int) -> None:
        if shown[0] == 0 or clues < shown[0]:
            shown[0] = clues
            out(
                f"  {time.perf_counter() - began:8.1f} s wall {time.process_time() - cpu0:8.1f} s"
                f" cpu  grids {grids:6d}  {clues} clues"
            )

    result = search_low(
        floor,
        symmetry,
        rng=random.Random(seed),
        deadline=began + minutes * 60.0,
        progress=progress,
    )
    cpu = time.process_time() - cpu0
    out(
        f"lowest in {minutes:g} min (seed {seed}): {result.clues} clues after "
        f"{result.seconds_to(result.clues) or 0:.1f} s; {result.grids} grids, "
        f"{result.seconds:.0f} s wall, {cpu:.0f} s cpu"
    )
    out(
        "records: "
        + ", ".join(f"{r.clues} at {r.seconds:.1f} s ({r.source})" for r in result.records)
    )
    if result.puzzle is not None:
        assert result.solution is not None
        out(f"  puzzle   {result.puzzle}")
        out(f"  solution {result.solution}")
        pairs = zip(result.puzzle.cells, result.solution.cells, strict=True)
        out(
            f"  check: unique {count_solutions(result.puzzle) == 1}, "
            f"symmetric {is_symmetric(result.puzzle, symmetry)}, "
            f"subset of the solution {all(d in (0, s) for d, s in pairs)}"
        )
    return result


def bench_qqwing(seconds: float, out: Print, batch: int = 2000) -> int | None:
    """Run QQWing's 180° generator for *seconds*; print and return the fewest clues it made.

    Returns None when qqwing is not installed.  The fewest-clue puzzle is checked unique and
    symmetric here.
    """
    exe = shutil.which("qqwing")
    if exe is None:
        out("qqwing: not installed (apt-get install qqwing)")
        return None
    began = time.perf_counter()
    made = 0
    best: Grid | None = None
    while time.perf_counter() - began < seconds:
        proc = subprocess.run(
            [exe, "--generate", str(batch), "--symmetry", "rotate180", "--one-line"],
            capture_output=True,
            text=True,
            check=True,
        )
        for line in proc.stdout.split():
            if len(line) == 81:
                made += 1
                puzzle = Grid.parse(line)
                if best is None or puzzle.given_count < best.given_count:
                    best = puzzle
    wall = time.perf_counter() - began
    if best is None:  # pragma: no cover - qqwing printed nothing
        out("qqwing: no puzzles")
        return None
    out(
        f"qqwing --generate {batch} --symmetry rotate180 --one-line, repeated for {wall:.0f} s: "
        f"{made} puzzles, fewest clues {best.given_count} (unique "
        f"{count_solutions(best) == 1}, symmetric {is_symmetric(best, Symmetry.ROTATE_180)}): "
        f"{best}"
    )
    return best.given_count


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options to *parser*."""
    parser.add_argument(
        "--targets", default="23,22,21,20", help="clue counts to time (default 23,22,21,20)"
    )
    parser.add_argument("--seeds", type=int, default=10, help="seeds 1..N (default 10)")
    parser.add_argument(
        "--time-limit", type=float, default=60.0, metavar="SEC", help="seconds per seed (60)"
    )
    parser.add_argument("--symmetry", default="rotate180", help="clue symmetry (rotate180)")
    parser.add_argument(
        "--lowest", action="store_true", help="instead: the lowest reached in --minutes"
    )
    parser.add_argument("--minutes", type=float, default=30.0, help="with --lowest (30)")
    parser.add_argument("--floor", type=int, default=18, help="with --lowest: aim (18)")
    parser.add_argument("--seed", type=int, default=1, help="with --lowest: seed (1)")
    parser.add_argument(
        "--qqwing", type=float, default=0.0, metavar="SEC", help="QQWing for SEC seconds (0 = no)"
    )


def run(args: argparse.Namespace, out: Print = print) -> int:
    """Run the benchmark described by parsed *args*; return the exit status."""
    symmetry = Symmetry.parse(args.symmetry)
    out(
        f"low-clue search, {symmetry.value}, pure Python single core (Python "
        f"{sys.version.split()[0]}); {load_note()}"
    )
    if args.lowest:
        bench_lowest(args.minutes, args.floor, args.seed, symmetry, out)
    else:
        targets = sorted({int(t) for t in args.targets.split(",") if t.strip()}, reverse=True)
        seeds = list(range(1, args.seeds + 1))
        out(f"time to reach {targets}: seeds {seeds[0]}..{seeds[-1]}, {args.time_limit:g} s each")
        bench_targets(targets, seeds, args.time_limit, symmetry, out)
    if args.qqwing:
        bench_qqwing(args.qqwing, out)
    out(f"end: {load_note()}")
    return 0


def run_reach(argv: Sequence[str] | None = None) -> int:
    """Run ``xlsudoku bench reach`` with its own arguments *argv*; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="xlsudoku bench reach",
        description="Low-clue search: time to reach 23..20 clues (180°), or the lowest in N "
        "minutes; optionally QQWing's fewest clues in the same time.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv), lambda line: print(line, flush=True))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_reach())
