"""Score benchmark: how often, and in how much CPU time, a puzzle is made to a score range.

Run ``xlsudoku bench score --target 7.0-8.0:10:60 --target 9.0-:5:600``: for each target
(a range, the number of seeds, the CPU seconds each run may spend) it runs ``generate`` with
``--score`` on consecutive seeds from ``--first-seed`` (drawn afresh and printed when not
given), one process, with a CPU budget, and reports every run (seed, hit, CPU and wall
seconds, rating, opens, puzzle), then the hits and the CPU time (median and max over the runs,
a miss counting its whole budget) with the load before and after.  With ``--progress`` each
run also prints each start of its climb and every new closest puzzle as it is found (its
rating, opens, CPU seconds so far): a long run stopped before its end still tells how far it
got.  A hit is checked independently of the generator: the grader rates the puzzle in range
under the profile, and the exact solver finds one solution.  The goals of the issue that
asked for scores are printed beside the figures of the targets they name.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from xlsudoku.bench.common import load_note
from xlsudoku.engine.generate import Budget, BudgetKind, GenerateRequest, climb, generate
from xlsudoku.engine.generate.request import ScoreRange
from xlsudoku.engine.grading import grade
from xlsudoku.engine.solver import count_solutions
from xlsudoku.errors import Exit

Print = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Target:
    """A range to reach, on how many seeds, each run within so many CPU seconds."""

    score: ScoreRange
    seeds: int
    cap: float

    @classmethod
    def parse(cls, text: str) -> Target:
        """Return the target written ``RANGE[:SEEDS[:CPU_SECONDS]]`` (10 seeds, 600 s).

        >>> Target.parse("9-:5:600")
        Target(score=ScoreRange(low=9.0, high=None), seeds=5, cap=600.0)
        """
        score, _, rest = text.partition(":")
        seeds, _, cap = rest.partition(":")
        try:
            found = cls(ScoreRange.parse(score), int(seeds or 10), float(cap or 600))
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"target {text!r}: {error}") from None
        if found.seeds < 1 or not found.cap > 0:
            raise argparse.ArgumentTypeError(f"target {text!r}: seeds and seconds must be > 0")
        return found


@dataclass(frozen=True, slots=True)
class Goal:
    """A goal on a target: so many hits of the seeds, the median CPU time under a bound."""

    hits: int
    of: int
    median: float | None
    text: str


# The goals asked for (CPU time, fresh seeds), by the target's range as printed.
GOALS: dict[str, Goal] = {
    "7.0-8.0": Goal(10, 10, 5.0, "SE 7.0-8.0: 10 of 10 seeds, median < 5 s"),
    "9.0-": Goal(10, 10, 120.0, "SE >= 9.0: 10 of 10 within 10 min, median < 2 min"),
    "10.0-": Goal(1, 5, None, "SE >= 10.0: at least 1 of 5 seeds within 1 hour"),
}


@dataclass(frozen=True, slots=True)
class Run:
    """One seed's run: whether it hit (checked), its CPU and wall seconds, what it made."""

    seed: int
    hit: bool
    cpu: float
    wall: float
    score: float
    givens: int
    puzzle: str
    said_reached: bool


class _Progress(logging.Handler):
    """Prints the climb's news (each start, each new closest puzzle) with its CPU seconds."""

    def __init__(self, seed: int, out: Print) -> None:
        super().__init__(logging.INFO)
        self.seed, self.out, self.cpu = seed, out, time.process_time()

    def emit(self, record: logging.LogRecord) -> None:
        cpu = time.process_time() - self.cpu
        self.out(f"    seed {self.seed} at CPU {cpu:7.2f} s: {record.getMessage()}")


def run_one(
    target: Target, seed: int, profile: str, pattern: int | None, out: Print | None = None
) -> Run:
    """Make one puzzle to *target* with *seed*; check it with the grader and the solver.

    With *out*, each start of the climb and each new closest puzzle of the run is printed as
    it comes (the progress of a long run, meaningful when it is stopped).
    """
    request = GenerateRequest(
        target_givens=81,
        pattern=pattern,
        score=target.score,
        profile=profile,
        seed=seed,
        budget=Budget(target.cap, BudgetKind.CPU),
    )
    news = logging.getLogger(climb.__name__)
    progress = None if out is None else _Progress(seed, out)
    level = news.level
    if progress is not None:
        news.addHandler(progress)
        news.setLevel(logging.INFO)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        result = generate(request)
    finally:
        if progress is not None:
            news.removeHandler(progress)
            news.setLevel(level)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rated = grade(result.puzzle, profile=profile).score
    hit = target.score.contains(rated) and count_solutions(result.puzzle, 2) == 1
    return Run(
        seed, hit, cpu, wall, rated, result.puzzle.given_count, str(result.puzzle), result.reached
    )


def report(target: Target, runs: list[Run], profile: str, out: Print) -> bool:
    """Print the figures of *target*'s runs; return False when its known goal is missed."""
    hits = [r for r in runs if r.hit]
    cpu = [r.cpu if r.hit else max(r.cpu, target.cap) for r in runs]
    out(
        f"  {profile} {target.score}: {len(hits)}/{len(runs)} hits; CPU median "
        f"{statistics.median(cpu):.2f} s, max {max(cpu):.2f} s (a miss counts its budget); "
        f"wall median {statistics.median(r.wall for r in runs):.2f} s"
    )
    bad = [r.seed for r in runs if r.hit != r.said_reached]
    if bad:
        out(f"  CHECK FAILED: the generator's 'reached' disagrees on seeds {bad}")
    goal = GOALS.get(str(target.score)) if profile == "se" else None
    if goal is None:
        return not bad
    if len(runs) < goal.of:
        out(f"  goal ({goal.text}): not judged, {len(runs)} of its {goal.of} seeds run")
        return not bad
    met = len(hits) >= goal.hits and (goal.median is None or statistics.median(cpu) < goal.median)
    out(f"  goal ({goal.text}): {'met' if met else 'NOT met'}")
    return met and not bad


def run(args: argparse.Namespace, out: Print = print) -> int:
    """Run every target of ``args.target`` and print the report (see the module notes)."""
    first = args.first_seed
    if first is None:
        first = random.SystemRandom().randrange(1, 1 << 30)
    pattern = None if str(args.pattern).lower() == "none" else int(args.pattern)
    targets = args.target or [Target.parse("7.0-8.0:10:60")]
    out(
        f"bench score: profile {args.profile}, pattern {pattern or 'none'}, rotate180, one "
        f"process, CPU budget per run; fresh seeds from {first}; {load_note()}"
    )
    ok = True
    seed = first
    for target in targets:
        cap = f"cap {target.cap:g} s CPU"
        out(f"target {target.score} ({args.profile}): {target.seeds} seeds, {cap}")
        runs = []
        for _ in range(target.seeds):
            found = run_one(target, seed, args.profile, pattern, out if args.progress else None)
            runs.append(found)
            out(
                f"  seed {seed}: {'hit ' if found.hit else 'miss'} CPU {found.cpu:7.2f} s, "
                f"wall {found.wall:7.2f} s, rating {found.score:.1f}, {found.givens} opens, "
                f"{found.puzzle}; {load_note()}"
            )
            seed += 1
        ok = report(target, runs, args.profile, out) and ok
    out(f"done; {load_note()}")
    return 0 if ok else int(Exit.GOAL_NOT_MET)
