"""The bench command: each benchmark of :mod:`xlsudoku.engine.bench` by name."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from xlsudoku.engine.cli.common import Subparsers

# ``xlsudoku bench WHAT ...``: WHAT -> (module, function taking the remaining argv, help).
# Modules are imported when their benchmark runs (they load data and other engines).
BENCH_SUITES: dict[str, tuple[str, str, str]] = {
    "solve": (
        "xlsudoku.engine.bench.solver",
        "run_solve",
        "exact solver: count to 2 on a puzzle file",
    ),
    "fill": ("xlsudoku.engine.bench.solver", "run_fill", "random complete grids per second"),
    "generate": ("xlsudoku.engine.bench.generator", "run_generate", "puzzle generator"),
    "grade": ("xlsudoku.engine.bench.grading", "run_grade", "grader speed and agreement"),
    "reglib": (
        "xlsudoku.engine.bench.grading",
        "run_reglib",
        "HoDoKu regression library pass counts",
    ),
    "techniques": (
        "xlsudoku.engine.bench.techniques",
        "run_techniques",
        "time spent in each finder",
    ),
    "reach": (
        "xlsudoku.engine.bench.lowclue",
        "run_reach",
        "low-clue search: time to reach 23..20 clues",
    ),
}


def _add_bench(sub: Subparsers) -> None:
    lines = "\n".join(f"  {name:10s}{entry[2]}" for name, entry in BENCH_SUITES.items())
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
    import importlib

    module, function, _ = BENCH_SUITES[args.what]
    run: Callable[[list[str]], int] = getattr(importlib.import_module(module), function)
    return run(list(args.rest))


COMMANDS = (_add_bench,)
