"""The bench command: each benchmark of :mod:`xlsudoku.engine.bench` by name."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from xlsudoku.engine.cli.common import Subparsers

# ``xlsudoku bench WHAT ...``: WHAT -> (runner taking the remaining argv, help). Each runner
# imports its benchmark module when it runs: they load data and other engines.


def _solve(argv: list[str]) -> int:
    from xlsudoku.engine.bench import solver

    return solver.run_solve(argv)


def _fill(argv: list[str]) -> int:
    from xlsudoku.engine.bench import solver

    return solver.run_fill(argv)


def _generate(argv: list[str]) -> int:
    from xlsudoku.engine.bench import generator

    return generator.run_generate(argv)


def _grade(argv: list[str]) -> int:
    from xlsudoku.engine.bench import grading

    return grading.run_grade(argv)


def _reglib(argv: list[str]) -> int:
    from xlsudoku.engine.bench import grading

    return grading.run_reglib(argv)


def _se(argv: list[str]) -> int:
    from xlsudoku.engine.bench import rating

    return rating.run_se(argv)


def _techniques(argv: list[str]) -> int:
    from xlsudoku.engine.bench import techniques

    return techniques.run_techniques(argv)


def _difficulty(argv: list[str]) -> int:
    from xlsudoku.engine.bench import difficulty

    return difficulty.run_difficulty(argv)


def _reach(argv: list[str]) -> int:
    from xlsudoku.engine.bench import lowclue

    return lowclue.run_reach(argv)


BENCH_SUITES: dict[str, tuple[Callable[[list[str]], int], str]] = {
    "solve": (_solve, "exact solver: count to 2 on a puzzle file"),
    "fill": (_fill, "random complete grids per second"),
    "generate": (_generate, "puzzle generator"),
    "grade": (_grade, "grader speed and agreement"),
    "reglib": (_reglib, "HoDoKu regression library pass counts"),
    "se": (_se, "Sudoku Explainer rating goals: agreement, hardest, speed side by side"),
    "techniques": (_techniques, "time spent in each finder"),
    "reach": (_reach, "low-clue search: time to reach 23..20 clues"),
    "difficulty": (_difficulty, "generation to a level or technique: success per target"),
}


def _add_bench(sub: Subparsers) -> None:
    width = max(map(len, BENCH_SUITES)) + 2
    lines = "\n".join(f"  {name:{width}s}{entry[1]}" for name, entry in BENCH_SUITES.items())
    p = sub.add_parser(
        "bench",
        help="benchmarks (solve, fill, generate, ...); see bench WHAT --help",
        description="Run a benchmark; each prints its data set, seed, items/s and ms per item."
        f"\n\nbenchmarks:\n{lines}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("what", choices=sorted(BENCH_SUITES), metavar="WHAT", help="which benchmark")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="the benchmark's own arguments")
    p.set_defaults(run=_run_bench)


def _run_bench(args: argparse.Namespace) -> int:
    run, _ = BENCH_SUITES[args.what]
    return run(list(args.rest))


COMMANDS = (_add_bench,)
