"""``xlsudoku bench start``: START with the template's default parameters, end to end on the file.

Each run copies the workbook to a temporary folder and does what ``xlsudoku start`` does there:
load it with openpyxl (VBA kept), run START through :class:`addin.cellio.OpenpyxlIO`, and save
it safely (temporary file, VBA and buttons checked, backup, rename).  The blank Seed cell gets
its seed from ``random.Random(seed + run)``, so a benchmark is repeatable.  The figures: load,
START (generate, grade, write the cells) and save times, and the total per run, as median,
mean and max; runs per second; the goal is a median total under one second.

The save is the one ``xlsudoku workbook start`` does: when START changed only cell values (and
sizes), it writes just those cells into the file it read (:func:`xlsudoku.xlsm.patch.patch_cells`),
else openpyxl saves the workbook and every cell START did not write is put back as the file had
it.  Beside it each run also saves the same workbook the plain way, with openpyxl alone
(``save plain``), the two in turn (A B, then B A), in CPU time.  ``--rows N`` first fills the
Collection with N rows (made-up puzzles, seed 1); ``--as-excel`` writes its numbers as Excel
does (no ``t="n"``), so the cells are compared one by one rather than recognised as openpyxl's
own.
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


def run_once(workbook: Path, seed: int, plain_first: bool = False) -> dict[str, float | str | int]:
    """Run START once on a copy of *workbook*; return the phase times and what was made."""
    with tempfile.TemporaryDirectory(prefix="xlsudoku-bench-") as folder:
        target = Path(folder) / workbook.name
        shutil.copy2(workbook, target)
        t0 = time.perf_counter()
        book, data = headless.read_workbook(target)
        t1 = time.perf_counter()
        io = OpenpyxlIO(book)
        outcome = actions.start(io, rng=random.Random(seed))
        t2 = time.perf_counter()
        cpu: dict[str, float] = {}
        for kind in ("plain", "keep") if plain_first else ("keep", "plain"):
            where = target if kind == "keep" else Path(folder) / f"plain{workbook.suffix}"
            begin, clock = time.perf_counter(), time.process_time()
            if kind == "keep":  # as ``xlsudoku workbook start`` saves (addin.headless)
                save(
                    book,
                    where,
                    data,
                    changed=io.written,
                    only_values=True,
                    resized=io.resized,
                    filled=io.filled,
                )
            else:
                save(book, where, data)
            cpu[kind] = time.process_time() - clock
            if kind == "keep":
                t3 = t2 + time.perf_counter() - begin
    if not outcome.ok:
        raise RuntimeError(f"START failed on {workbook}: {outcome.status}")
    result = outcome.detail
    return {
        "load": t1 - t0,
        "start": t2 - t1,
        "generate": result.seconds,
        "save": t3 - t2,
        "total": t3 - t0,
        "save cpu": cpu["keep"],
        "save plain cpu": cpu["plain"],
        "opens": result.givens,
        "seed": result.seed,
    }


def _ms(values: Sequence[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:7.1f} ms  "
        f"mean {statistics.fmean(values) * 1000:7.1f} ms  "
        f"max {max(values) * 1000:7.1f} ms"
    )


def _with_rows(workbook: Path, folder: Path, rows: int, excel: bool) -> Path:
    """Return *workbook*, or a copy in *folder* whose Collection has *rows* made-up rows."""
    if rows == 0 and not excel:
        return workbook
    import io
    import zipfile

    import openpyxl

    from xlsudoku.addin import layout

    book = openpyxl.load_workbook(workbook, keep_vba=True)
    sheet = book[layout.COLLECTION]
    rng = random.Random(1)
    for number in range(1, rows + 1):
        puzzle = "".join(rng.choice("123456789.") for _ in range(81))
        solution = "".join(rng.choice("123456789") for _ in range(81))
        sheet.append(
            [number, "2024-01-01 10:00:00", "9x9", puzzle, solution, 26, 1, "rotate180",
             "Easy", 1.2, "8, 8", 1_234_567, "made up"]
        )  # fmt: skip
    buffer = io.BytesIO()
    book.save(buffer)
    target = folder / workbook.name
    with (
        zipfile.ZipFile(buffer) as source,
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for info in source.infolist():
            data = source.read(info.filename)
            if excel and info.filename.startswith("xl/worksheets/"):
                data = data.replace(b' t="n"', b"")
            out.writestr(info, data)
    return target


def run(args: argparse.Namespace) -> int:
    """Run the START benchmark and print its figures; return 0 when the goal is met, else 5."""
    rows = getattr(args, "rows", 0)
    excel = getattr(args, "as_excel", False)
    print(
        f"workbook: {args.workbook}  runs: {args.runs}  seeds: {args.seed}..  Collection rows: "
        f"{rows}{' (numbers as Excel writes them)' if excel else ''}"
    )
    print(f"before: {load_note()}")
    with tempfile.TemporaryDirectory(prefix="xlsudoku-bench-") as folder:
        workbook = _with_rows(args.workbook, Path(folder), rows, excel)
        run_once(workbook, args.seed - 1)  # warm-up: imports and caches
        runs = [run_once(workbook, args.seed + i, i % 2 == 1) for i in range(args.runs)]
    for phase in ("load", "start", "generate", "save", "total", "save cpu", "save plain cpu"):
        values = [float(run[phase]) for run in runs]
        print(f"{phase:>14}: {_ms(values)}")
    totals = [float(run["total"]) for run in runs]
    median = statistics.median(totals)
    print(f"runs/s: {len(runs) / sum(totals):.2f}  opens: {sorted({run['opens'] for run in runs})}")
    verdict = "met" if median < GOAL_SECONDS else "NOT met"
    print(f"goal: median total < {GOAL_SECONDS:g} s: {verdict} ({median:.3f} s)")
    return Exit.OK if median < GOAL_SECONDS else Exit.GOAL_NOT_MET
