"""Low-clue benchmark: ``xlsudoku bench reach`` — ``generate`` on deep targets, QQWing beside it.

Every run is one call of :func:`xlsudoku.engine.generate.generate`, the code path of
``xlsudoku generate`` and START, with the run's budget as the request's limit (a
:class:`~xlsudoku.engine.generate.Budget`, the mechanism of ``generate --budget``); the
benchmark only watches the progress callback (each new fewest opens, with the CPU and wall time
it came).  The budget is CPU time by default (``--clock cpu``): the machine is shared, and
wall-clock time also counts the time spent waiting for a core; ``--clock wall`` budgets
wall-clock time instead (and runs with ``--workers`` above 1 always do), ``--clock work``
counted work units (the same run on every machine; times are then shown in CPU seconds).  A
target below a pattern's measured floor is searched for the whole budget, not the short search
``generate`` gives it.  Every line names its seeds; the load average is printed at the start
and the end.

- **time to reach** (default): on deep 9x9 targets, one run per seed aimed at the lowest of
  ``--targets``; the time each target was first reached is read from the progress (the search
  does not depend on the target until the target is reached, so aiming lower does not slow the
  higher targets).  Elsewhere (other shapes, 9x9 above the deep targets) a random descent
  reports only whole attempts, each aimed at the target, so each target gets a run of its own.
  A seed that misses a target in its budget counts as slower than every seed that reached it;
  the median shows ``> budget`` when half the seeds or more missed.
- **lowest** (``--lowest``): one run per seed aimed at the fewest opens the form allows,
  printing each new best as it comes.
- **floors** (``--floors``): the fewest opens reached per pattern (``--patterns``, presets 1-12
  and ``none`` by default) and symmetry (``--symmetries``) in ``--seconds`` per seed, beside
  the old macro's record (23 odd, 24 even) and the goal of two opens below it.

``--qqwing SEC`` runs ``qqwing --generate 200 --one-line`` with the runs' symmetries (those
QQWing knows) for SEC seconds of QQWing's CPU time (``--clock wall``: wall-clock time) and
reports the fewest clues it printed.

``--geometry`` times another shape (``16x16``: ``--targets 100,92``).

Goals (CPU time, one process, fresh seeds): 20 opens (no pattern, 180°) at a median < 5 s;
19 on 10 of 10 seeds within 300 s each, median < 60 s; 18 on 3 of 5 seeds within 30 minutes
each; every preset two opens below the old macro (21 odd, 22 even) within 60 s; 16x16 to 100
opens at a median < 2 s.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xlsudoku.bench.common import load_note
from xlsudoku.engine.generate import (
    Budget,
    BudgetKind,
    GenerateError,
    GenerateRequest,
    GenerateResult,
    generate,
)
from xlsudoku.engine.generate.deep import is_deep
from xlsudoku.engine.generate.request import form_for
from xlsudoku.engine.grid import CLASSIC, Geometry, Grid
from xlsudoku.engine.patterns import parse_pattern
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

Print = Callable[[str], None]

# Median seconds to reach each target (no pattern, 180°) of a shape: the goals.
GOALS: dict[tuple[str, int], float] = {("9x9", 20): 5.0, ("9x9", 19): 60.0, ("16x16", 100): 2.0}

# The old macro's fewest opens: odd patterns 23, even 24; the goal is two below.
MACRO_ODD, MACRO_EVEN = 23, 24

# QQWing's names of the symmetries it knows.
QQWING_SYMMETRY: dict[Symmetry, str] = {
    Symmetry.NONE: "none",
    Symmetry.ROTATE_180: "rotate180",
    Symmetry.ROTATE_90: "rotate90",
    Symmetry.VERTICAL: "mirror",
    Symmetry.HORIZONTAL: "flip",
}


@dataclass(slots=True)
class Run:
    """One ``generate`` run watched by the benchmark.

    Attributes:
        seed: Its seed.
        firsts: Fewest opens -> (CPU seconds, wall seconds) when first reached.
        result: What ``generate`` returned.
        cpu: CPU seconds of the whole run (this process).
        wall: Wall seconds of the whole run.
    """

    seed: int
    firsts: dict[int, tuple[float, float]] = field(default_factory=dict)
    result: GenerateResult | None = None
    cpu: float = 0.0
    wall: float = 0.0

    def first(self, givens: int, clock: str) -> float | None:
        """Return the seconds (of *clock*) when *givens* or fewer was first reached, or None.

        >>> r = Run(1, {22: (1.0, 2.0), 20: (5.0, 9.0)})
        >>> r.first(21, "cpu"), r.first(22, "wall"), r.first(19, "cpu")
        (5.0, 2.0, None)
        """
        times = [t for o, t in self.firsts.items() if o <= givens]
        if not times:
            return None
        return min(t[0] if clock == "cpu" else t[1] for t in times)

    @property
    def fewest(self) -> int:
        """Fewest opens reached (the result's, which may be lower after minimizing)."""
        assert self.result is not None
        return min([self.result.givens, *self.firsts])


def watch(request: GenerateRequest, out: Print | None = None) -> Run:
    """Run ``generate(request)`` (its budget the limit); return what it did and when.

    >>> budget = Budget(30, BudgetKind.CPU)
    >>> r = watch(GenerateRequest(target_givens=23, pattern=None, seed=1, trials=5, budget=budget))
    >>> r.result.reached, r.fewest, r.first(23, "cpu") is not None
    (True, 23, True)
    """
    assert request.seed is not None
    run = Run(request.seed)
    cpu0, wall0 = time.process_time(), time.perf_counter()

    def progress(trial: int, givens: int) -> None:
        if givens not in run.firsts and all(givens < o for o in run.firsts):
            run.firsts[givens] = (time.process_time() - cpu0, time.perf_counter() - wall0)
            if out is not None:
                cpu, wall = run.firsts[givens]
                out(f"  {cpu:8.1f} s cpu {wall:8.1f} s wall  trial {trial:5d}  {givens} opens")

    run.result = generate(request, progress=progress)
    run.cpu, run.wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return run


def request_for(
    target_givens: int,
    pattern: int | str | None,
    symmetry: Symmetry,
    seed: int,
    budget: Budget,
    workers: int,
    geometry: Geometry = CLASSIC,
) -> GenerateRequest:
    """Return the request of one benchmark run: no trial limit, the run's budget as its limit.

    A target below the measured floor of its pattern is searched for the whole budget
    (:mod:`xlsudoku.engine.generate.floors`).

    >>> request_for(20, None, Symmetry.ROTATE_180, 3, Budget(60.0, BudgetKind.CPU), 1).budget
    Budget(amount=60.0, kind=<BudgetKind.CPU: 'cpu'>)
    """
    return GenerateRequest(
        target_givens=target_givens,
        pattern=pattern,
        symmetry=symmetry,
        trials=1_000_000,
        seed=seed,
        budget=budget,
        workers=workers,
        short_when_unlikely=False,
        geometry=geometry,
    )


def _budget(args: argparse.Namespace) -> Budget:
    return Budget(args.seconds, BudgetKind(args.clock))


def _shown(clock: str) -> str:
    """Return the clock the times are shown in: CPU for a work budget."""
    return "cpu" if clock == "work" else clock


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


def reach_lines(
    runs: Sequence[Run], targets: Sequence[int], seconds: float, clock: str, shape: str = "9x9"
) -> list[str]:
    """Return one summary line per target (with its goal on the *shape* named).

    >>> runs = [Run(1, {22: (1.0, 2.0), 21: (4.0, 8.0)}), Run(2, {22: (3.0, 3.5)})]
    >>> for line in reach_lines(runs, [22, 20], 60, "cpu"): print(line)
    22 opens: reached 2/2 seeds; median 2.00 s cpu (2.75 s wall); max 3.00 s cpu
    20 opens: reached 0/2 seeds; median > 60 s cpu (> 60 s wall); goal median < 5 s: NOT met
    >>> reach_lines([Run(1, {100: (1.5, 1.6)})], [100], 60, "cpu", "16x16")[0].split("; ")[-1]
    'goal median < 2 s: met'
    """
    lines = []
    for t in targets:
        main = [r.first(t, clock) for r in runs]
        other = [r.first(t, "wall" if clock == "cpu" else "cpu") for r in runs]
        reached = [v for v in main if v is not None]
        med, med_other = median_or_none(main), median_or_none(other)
        other_name = "wall" if clock == "cpu" else "cpu"
        med_text = f"{med:.2f} s" if med is not None else f"> {seconds:g} s"
        other_text = f"{med_other:.2f} s" if med_other is not None else f"> {seconds:g} s"
        line = (
            f"{t} opens: reached {len(reached)}/{len(runs)} seeds; median {med_text} {clock} "
            f"({other_text} {other_name})"
        )
        if reached:
            line += f"; max {max(reached):.2f} s {clock}"
        goal = GOALS.get((shape, t))
        if goal is not None:
            ok = med is not None and med < goal
            line += f"; goal median < {goal:g} s: {'met' if ok else 'NOT met'}"
        lines.append(line)
    return lines


def bench_reach(args: argparse.Namespace, out: Print) -> list[Run]:
    """Time reaching each target, one run per seed aimed at the lowest; print the summary."""
    targets = sorted({int(t) for t in args.targets.split(",") if t.strip()}, reverse=True)
    seeds = _seeds(args)
    symmetry = Symmetry.parse(args.symmetry)
    pattern = _pattern(args.pattern)
    geometry: Geometry = args.geometry
    out(
        f"time to reach {targets} opens, {geometry.name}, pattern {args.pattern}, "
        f"{symmetry.value}, seeds {seeds[0]}..{seeds[-1]}, {args.seconds:g} s {args.clock} each, "
        f"{args.workers} process(es)"
    )
    runs = []
    for seed in seeds:

        def request(aim: int, seed: int = seed) -> GenerateRequest:
            return request_for(aim, pattern, symmetry, seed, _budget(args), args.workers, geometry)

        aims = [min(targets)] if is_deep(request(min(targets))) else targets
        run = Run(seed)
        for aim in aims:
            one = watch(request(aim))
            if len(aims) == 1:
                run.firsts = one.firsts
            elif reached := [t for o, t in one.firsts.items() if o <= aim]:
                run.firsts[aim] = min(reached)  # (cpu, wall) when this run first got there
            run.result, run.cpu, run.wall = one.result, run.cpu + one.cpu, run.wall + one.wall
        runs.append(run)
        shown = _shown(args.clock)
        firsts = ", ".join(
            f"{t}: {v:.2f}" if (v := run.first(t, shown)) is not None else f"{t}: -"
            for t in targets
        )
        out(
            f"seed {seed}: fewest {run.fewest} opens, {run.result.grids_tried if run.result else 0}"
            f" grids, {run.cpu:.1f} s cpu, {run.wall:.1f} s wall; {shown} seconds to reach "
            f"{firsts}"
        )
    for line in reach_lines(runs, targets, args.seconds, _shown(args.clock), geometry.name):
        out(line)
    return runs


def bench_lowest(args: argparse.Namespace, out: Print) -> list[Run]:
    """Aim at the fewest opens the form allows for ``--seconds``; print every new best."""
    symmetry = Symmetry.parse(args.symmetry)
    pattern = _pattern(args.pattern)
    runs = []
    for seed in _seeds(args):
        geometry: Geometry = args.geometry
        lowest = form_for(geometry, symmetry, pattern).lowest()
        out(
            f"lowest in {args.seconds:g} s {args.clock} ({geometry.name}, pattern "
            f"{args.pattern}, {symmetry.value}, seed {seed}, aiming at {lowest}):"
        )
        request = request_for(
            lowest, pattern, symmetry, seed, _budget(args), args.workers, geometry
        )
        run = watch(request, out)
        runs.append(run)
        result = run.result
        assert result is not None
        after = run.first(run.fewest, _shown(args.clock)) or 0.0
        out(
            f"seed {seed}: fewest {run.fewest} opens after {after:.1f} s {_shown(args.clock)}; "
            f"{result.grids_tried} grids, {run.cpu:.0f} s cpu, "
            f"{run.wall:.0f} s wall"
        )
        out(f"  puzzle   {result.puzzle}")
        out(f"  solution {result.solution}")
        pairs = zip(result.puzzle.cells, result.solution.cells, strict=True)
        out(
            f"  check: unique {count_solutions(result.puzzle) == 1}, "
            f"symmetric {is_symmetric(result.puzzle, symmetry)}, "
            f"subset of the solution {all(d in (0, s) for d, s in pairs)}"
        )
    return runs


def bench_floors(args: argparse.Namespace, out: Print) -> None:
    """Print the fewest opens reached per pattern and symmetry in ``--seconds`` per seed."""
    seeds = _seeds(args)
    out(
        f"floors: fewest opens in {args.seconds:g} s {args.clock} per seed, seeds "
        f"{seeds[0]}..{seeds[-1]}, {args.workers} process(es)"
    )
    for name in args.symmetries.split(","):
        symmetry = Symmetry.parse(name)
        for text in args.patterns.split(","):
            pattern = _pattern(text)
            try:
                form = form_for(CLASSIC, symmetry, pattern)
            except GenerateError as exc:
                out(f"{symmetry.value:12s} pattern {text:5s} skipped: {exc}")
                continue
            lowest = form.lowest()
            runs = []
            for seed in seeds:
                request = request_for(lowest, pattern, symmetry, seed, _budget(args), args.workers)
                runs.append(watch(request))
            fewest = [r.fewest for r in runs]
            best = min(fewest)
            shown = _shown(args.clock)
            first = min(r.first(best, shown) or 0.0 for r in runs if r.fewest == best)
            opened = len(form.fixed_given)
            line = (
                f"{symmetry.value:12s} pattern {text:5s} ({opened} open): fewest {best} "
                f"(per seed {' '.join(map(str, fewest))}; first after {first:.1f} s {shown})"
            )
            if pattern is not None:
                macro = MACRO_ODD if opened % 2 else MACRO_EVEN
                ok = best <= macro - 2
                line += f"; old macro {macro}, goal <= {macro - 2}: {'met' if ok else 'NOT met'}"
            out(line)


def bench_qqwing(
    seconds: float, symmetry: Symmetry, clock: str, out: Print, batch: int = 200
) -> int | None:
    """Run QQWing's generator with *symmetry* for *seconds*; print and return its fewest clues.

    With *clock* ``cpu`` the budget is QQWing's own CPU time (its finished processes), as the
    budget of our runs is ours.  Returns None when qqwing is not installed or does not know the
    symmetry.  The fewest-clue puzzle is checked unique and symmetric here.
    """
    exe = shutil.which("qqwing")
    name = QQWING_SYMMETRY.get(symmetry)
    if exe is None or name is None:
        out(f"qqwing {symmetry.value}: {'not installed' if exe is None else 'no such symmetry'}")
        return None

    def children_cpu() -> float:
        times = os.times()
        return times.children_user + times.children_system

    read = time.perf_counter if clock == "wall" else children_cpu
    began, cpu0, wall0 = read(), children_cpu(), time.perf_counter()
    made = 0
    best: Grid | None = None
    while read() - began < seconds:
        proc = subprocess.run(
            [exe, "--generate", str(batch), "--symmetry", name, "--one-line"],
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
    cpu, wall = children_cpu() - cpu0, time.perf_counter() - wall0
    if best is None:  # pragma: no cover - qqwing printed nothing
        out("qqwing: no puzzles")
        return None
    out(
        f"qqwing --generate {batch} --symmetry {name} --one-line, repeated for {cpu:.0f} s cpu, "
        f"{wall:.0f} s wall: {made} puzzles, fewest clues {best.given_count} (unique "
        f"{count_solutions(best) == 1}, {symmetry.value} {is_symmetric(best, symmetry)}): {best}"
    )
    return best.given_count


def _seeds(args: argparse.Namespace) -> list[int]:
    return list(range(args.first_seed, args.first_seed + args.seeds))


def _pattern(text: str) -> int | str | None:
    """Return the request's pattern for ``none``, a preset number or a mask.

    >>> _pattern("none"), _pattern("3"), _pattern("x.x.x.x.x"), _pattern("xx..x..xx")
    (None, 3, 8, 'xx..x..xx')
    """
    parsed = parse_pattern(text)
    if parsed is None:
        return None
    return parsed.number if parsed.number is not None else parsed.mask


def run(args: argparse.Namespace, out: Print = print) -> int:
    """Run the benchmark described by parsed *args*; return the exit status."""
    if args.geometry != CLASSIC and (args.floors or args.qqwing):
        print(
            "xlsudoku bench reach: --floors and --qqwing are 9x9 only (the presets and QQWing);"
            f" drop them with --geometry {args.geometry.name}",
            file=sys.stderr,
        )
        return 2
    if args.workers > 1 and args.clock == "cpu":
        args.clock = "wall"  # the CPU time of this process says nothing of the others
    out(
        f"xlsudoku bench reach: generate() on deep targets, pure Python (Python "
        f"{sys.version.split()[0]}); {load_note()}"
    )
    if args.seeds < 1:
        pass  # QQWing alone
    elif args.floors:
        bench_floors(args, out)
    elif args.lowest:
        bench_lowest(args, out)
    else:
        bench_reach(args, out)
    if args.qqwing:
        names = args.symmetries if args.floors else args.symmetry
        for name in names.split(","):
            bench_qqwing(args.qqwing, Symmetry.parse(name), args.clock, out)
    out(f"end: {load_note()}")
    return 0
