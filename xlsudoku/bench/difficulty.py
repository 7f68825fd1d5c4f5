"""Difficulty benchmark: how often a level (or a needed technique) is reached at the opens.

Run ``xlsudoku bench difficulty``.  For every level and number of opens asked, and for every
technique asked with ``--needs``, it generates one puzzle per seed with the default time limit
(or ``--time-limit``) and reports how many reached both targets, the median and largest
seconds of those, and, for the others, what was missed.  Every reached puzzle is checked
independently of the generator: unique (exact solver), exactly the opens, and graded at the
level by :func:`xlsudoku.engine.grading.grade` -- for a technique, the path uses it and the
solver with the techniques before it in the registry's solve order stalls.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlsudoku.bench.common import load_note
from xlsudoku.engine.generate import GenerateRequest, GenerateResult, generate
from xlsudoku.engine.grading import grade
from xlsudoku.engine.logic import solve_path
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import TECHNIQUES

Print = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Cell:
    """The runs of one target (a level at some opens, or a technique): one per seed."""

    reached_seconds: tuple[float, ...]
    runs: int
    missed_goal: int  # runs that missed the level or technique
    missed_givens: int  # runs that missed the opens
    bad: int  # runs the independent check contradicts (a wrong "reached", or a missed "met")

    def text(self) -> str:
        """Return ``reached/runs median s`` and what the others missed.

        >>> Cell((0.5, 1.5), 3, 1, 0, 0).text()
        '2/3 (median 1.0 s, max 1.5 s; missed: goal 1)'
        """
        n = len(self.reached_seconds)
        parts = []
        if n:
            times = self.reached_seconds
            parts.append(f"median {statistics.median(times):.1f} s, max {max(times):.1f} s")
        pairs = (("goal", self.missed_goal), ("opens", self.missed_givens))
        missed = [f"{name} {k}" for name, k in pairs if k]
        if missed:
            parts.append("missed: " + ", ".join(missed))
        if self.bad:
            parts.append(f"CHECK FAILED {self.bad}")
        return f"{n}/{self.runs}" + (f" ({'; '.join(parts)})" if parts else "")


def needs_checked(puzzle_result: GenerateResult, technique: Technique) -> bool:
    """Return True when the puzzle needs *technique*, checked from the table directly.

    The path of the grader uses the technique, and the solver with the techniques before it in
    the registry's solve order (ties included) stalls.
    """
    puzzle = puzzle_result.puzzle
    if technique not in dict(grade(puzzle, TECHNIQUES).counts):  # the human table, not SE's
        return False
    last = max(i for i, spec in enumerate(TECHNIQUES) if spec.technique is technique)
    without = tuple(s for s in TECHNIQUES[: last + 1] if s.technique is not technique)
    return not solve_path(puzzle, without, max_level=Level.DIABOLICAL).solved


def _goal_met(result: GenerateResult, level: Level | None, technique: Technique | None) -> bool:
    if technique is not None:
        return needs_checked(result, technique)
    return grade(result.puzzle).level is level


def measure(
    make: Callable[[int], GenerateRequest],
    seeds: Sequence[int],
    level: Level | None,
    technique: Technique | None,
) -> Cell:
    """Generate one puzzle per seed from ``make(seed)``; return the figures."""
    reached: list[float] = []
    missed_goal = missed_givens = bad = 0
    for seed in seeds:
        t0 = time.perf_counter()
        result = generate(make(seed))
        seconds = time.perf_counter() - t0
        unique = count_solutions(result.puzzle, 2) == 1
        givens_met = result.puzzle.given_count == result.target
        goal_met = _goal_met(result, level, technique)
        if result.reached:
            reached.append(seconds)
            bad += not (unique and givens_met and goal_met)
            continue
        bad += not unique or (givens_met and goal_met)  # a met target must say so
        missed_givens += not givens_met
        missed_goal += not goal_met
    return Cell(tuple(reached), len(seeds), missed_goal, missed_givens, bad)


def parse_levels(text: str) -> list[Level]:
    """Return the levels a ``--levels`` argument names (``none``: no level).

    >>> [level.name for level in parse_levels("easy,hard")]
    ['EASY', 'HARD']
    """
    names = {level.name.lower().replace("_", "-"): level for level in Level}
    out: list[Level] = []
    if text.strip().lower() == "none":
        return out
    for word in text.split(","):
        key = word.strip().lower()
        if key not in names:
            raise argparse.ArgumentTypeError(f"unknown level {word!r}: use {', '.join(names)}")
        out.append(names[key])
    return out


def parse_techniques(text: str) -> list[Technique]:
    """Return the techniques a ``--needs`` argument names.

    >>> [technique.name for technique in parse_techniques("x-wing,jellyfish")]
    ['X_WING', 'JELLYFISH']
    """
    try:
        return [Technique.parse(word) for word in text.split(",") if word.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace, out: Print = print) -> int:
    """Run the benchmark described by *args*; return the exit status (1 if a check failed)."""
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    levels = list(Level) if args.levels is None else args.levels
    limit = "default" if args.time_limit is None else f"{args.time_limit:g} s"
    out(
        f"xlsudoku bench difficulty; {load_note()}; seeds {seeds[0]}-{seeds[-1]}, "
        f"time limit {limit} per puzzle, pattern 1, rotate180"
    )
    failed = 0
    if levels:
        out("reached (level and opens) / seeds, per level and opens:")
        for level in levels:
            for target_givens in args.opens:

                def make(
                    seed: int, level: Level = level, target_givens: int = target_givens
                ) -> GenerateRequest:
                    return GenerateRequest(
                        target_givens=target_givens,
                        difficulty=level,
                        seed=seed,
                        time_limit=args.time_limit,
                    )

                cell = measure(make, seeds, level, None)
                failed += cell.bad
                out(f"  {level.label:17s} {target_givens:3d} opens: {cell.text()}")
    for technique in args.needs:

        def make_needs(seed: int, technique: Technique = technique) -> GenerateRequest:
            return GenerateRequest(
                target_givens=args.needs_opens,
                needs=technique,
                seed=seed,
                time_limit=args.time_limit,
            )

        cell = measure(make_needs, seeds, None, technique)
        failed += cell.bad
        out(f"  needs {technique.value:22s} {args.needs_opens:3d} opens: {cell.text()}")
    return 1 if failed else 0
