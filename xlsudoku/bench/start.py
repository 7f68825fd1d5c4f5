"""``xlsudoku bench start``: START with the template's default parameters, end to end on the file.

Each run copies the workbook to a temporary folder and does what ``xlsudoku start`` does there:
load it with openpyxl (VBA kept), run START through :class:`addin.cellio.OpenpyxlIO`, and save
it safely (temporary file, VBA and buttons checked, backup, rename).  The blank Seed cell gets
its seed from ``random.Random(seed + run)``, so a benchmark is repeatable.  The figures: load,
START (generate, grade, write the cells) and save times, and the total per run, as median,
mean and max; runs per second; the goal is a median total under one second.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from xlsudoku.addin import actions, headless
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.bench.common import load_note
from xlsudoku.errors import Exit
from xlsudoku.xlsm.workbook import save

TEMPLATE = Path(__file__).resolve().parents[2] / "workbooks" / "xlsudoku.xlsm"
GOAL_SECONDS = 1.0


def run_once(workbook: Path, seed: int) -> dict[str, float | str | int]:
    """Run START once on a copy of *workbook*; return the phase times and what was made."""
    with tempfile.TemporaryDirectory(prefix="xlsudoku-bench-") as folder:
        target = Path(folder) / workbook.name
        shutil.copy2(workbook, target)
        t0 = time.perf_counter()
        book = headless.load(target)
        t1 = time.perf_counter()
        outcome = actions.start(OpenpyxlIO(book), rng=random.Random(seed))
        t2 = time.perf_counter()
        save(book, target, target)
        t3 = time.perf_counter()
    if not outcome.ok:
        raise RuntimeError(f"START failed on {workbook}: {outcome.status}")
    result = outcome.detail
    return {
        "load": t1 - t0,
        "start": t2 - t1,
        "generate": result.seconds,
        "save": t3 - t2,
        "total": t3 - t0,
        "opens": result.opens,
        "seed": result.seed,
    }


def _ms(values: Sequence[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:7.1f} ms  "
        f"mean {statistics.fmean(values) * 1000:7.1f} ms  "
        f"max {max(values) * 1000:7.1f} ms"
    )


def run(args: argparse.Namespace) -> int:
    """Run the START benchmark and print its figures; return 0 when the goal is met, else 5."""
    print(f"workbook: {args.workbook}  runs: {args.runs}  seeds: {args.seed}..")
    print(f"before: {load_note()}")
    run_once(args.workbook, args.seed - 1)  # warm-up: imports and caches
    runs = [run_once(args.workbook, args.seed + i) for i in range(args.runs)]
    for phase in ("load", "start", "generate", "save", "total"):
        values = [float(run[phase]) for run in runs]
        print(f"{phase:>9}: {_ms(values)}")
    totals = [float(run["total"]) for run in runs]
    median = statistics.median(totals)
    print(f"runs/s: {len(runs) / sum(totals):.2f}  opens: {sorted({run['opens'] for run in runs})}")
    verdict = "met" if median < GOAL_SECONDS else "NOT met"
    print(f"goal: median total < {GOAL_SECONDS:g} s: {verdict} ({median:.3f} s)")
    return Exit.OK if median < GOAL_SECONDS else Exit.GOAL_NOT_MET
