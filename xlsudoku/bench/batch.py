"""``xlsudoku bench batch``: scaling over cores, Dask against processes, memory, booklet time.

Each figure comes from running the real commands (``xlsudoku batch``, ``xlsudoku booklet``) as
child processes on the default request:

1. **scaling**: the same batch with ``--jobs 1`` and ``--jobs 2`` (byte-equal outputs
   checked); wall time, puzzles/s, and CPU time per puzzle of the whole process tree (from
   ``wait4``), since on a shared machine the wall-clock ratio measures the other jobs too;
2. **Dask**: ``--scheduler local`` with 2 workers against ``--jobs 2``;
3. **volume**: one large batch on every core; the process tree's resident memory sampled
   while it runs, reported as the peak up to 1,000 / 5,000 / 10,000 puzzles written, and the
   level histogram;
4. **booklet**: 100 of those puzzles, 4 per page with the answer key.

The load average is printed with every figure: with other work on the machine the scaling
figure is not a fair one, and the report says so; it also projects the 2-core speed-up from
the CPU time per puzzle, labelled as the estimate it is.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]
MB = 1024 * 1024


@dataclass
class Run:
    """One command run: wall seconds, CPU seconds of its process tree, memory samples."""

    wall: float
    cpu: float
    peak: int  # bytes: the largest total resident memory of the tree seen
    load: tuple[float, float, float]  # load average at the end
    # (seconds since start, lines written, tree RSS) every sampling period
    samples: list[tuple[float, int, int]] = field(default_factory=list)

    def steady(self) -> float:
        """Return puzzles/s from the first line written to the end (start-up left out)."""
        first = next(((t, n) for t, n, _ in self.samples if n), None)
        end, total = self.wall, self.samples[-1][1] if self.samples else 0
        if first is None or end <= first[0]:
            return 0.0
        return (total - first[1]) / (end - first[0])


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        total = root.memory_info().rss
        for child in root.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                continue
        return int(total)
    except psutil.Error:
        return 0


def _lines(path: Path | None) -> int:
    if path is None or not path.exists():
        return 0
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def run(command: list[str], watch: Path | None = None, every: float = 0.25) -> Run:
    """Run *command*, sampling its tree's memory (and the lines of *watch*) while it runs."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    samples: list[tuple[float, int, int]] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(every):
            now = time.perf_counter() - started
            samples.append((now, _lines(watch), _tree_rss(proc.pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stderr is not None
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    sampler.join()
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({proc.returncode}): {errors.decode()}")
    samples.append((wall, _lines(watch), 0))
    peak = max((rss for _, _, rss in samples), default=0)
    return Run(wall, usage.ru_utime + usage.ru_stime, peak, os.getloadavg(), samples)


def _autogroups() -> bool:
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def _load() -> str:
    return " ".join(f"{v:.1f}" for v in os.getloadavg())


def _batch(work: Path, name: str, count: int, seed: int, *where: str) -> tuple[Run, Path]:
    out = work / name
    command = [*XLSUDOKU, "batch", "--quiet", "-n", str(count), "--seed", str(seed), "-o", str(out)]
    return run([*command, *where], watch=out), out


def _line(label: str, count: int, r: Run) -> str:
    return (
        f"  {label:<22} {count} puzzles in {r.wall:6.1f} s = {count / r.wall:5.1f}/s "
        f"(after start-up {r.steady():5.1f}/s); CPU {1000 * r.cpu / count:5.1f} ms/puzzle, "
        f"{r.cpu / r.wall:.2f} cores busy; peak RSS {r.peak / MB:4.0f} MB; "
        f"load {' '.join(f'{v:.1f}' for v in r.load)}"
    )


def scaling(work: Path, count: int, seed: int) -> list[str]:
    """Return the report of ``--jobs 1`` against ``--jobs 2`` and Dask against ``--jobs 2``."""
    lines = [f"scaling: {count} puzzles of the default request, seed {seed}; load {_load()}"]
    one, one_out = _batch(work, "j1.jsonl", count, seed, "-j", "1")
    lines.append(_line("--jobs 1", count, one))
    two, two_out = _batch(work, "j2.jsonl", count, seed, "-j", "2")
    lines.append(_line("--jobs 2", count, two))
    dask, dask_out = _batch(work, "dask.jsonl", count, seed, "-j", "2", "--scheduler", "local")
    lines.append(_line("--scheduler local (2)", count, dask))
    same = one_out.read_bytes() == two_out.read_bytes() == dask_out.read_bytes()
    lines.append(f"  outputs byte-equal (1 process, 2 processes, Dask): {'yes' if same else 'NO'}")
    speedup = one.wall / two.wall
    lines.append(
        f"  1 -> 2 cores: {speedup:.2f}x puzzles/s whole command, "
        f"{two.steady() / max(one.steady(), 1e-9):.2f}x after start-up (goal >= 1.8x: "
        f"{'met' if speedup >= 1.8 else 'not met'}); CPU per puzzle 2 processes / 1 process "
        f"{two.cpu / one.cpu:.2f} (1.00: no parallel overhead)"
    )
    lines.append(
        f"  projected on 2 free cores from CPU per puzzle: {2 * one.cpu / two.cpu:.2f}x "
        "(an estimate: assumes both cores free and no slowdown from sharing them)"
    )
    if max(one.load[0], two.load[0]) > 1.5:
        lines.append(
            "  the machine was busy (1-minute load above 1.5 on 2 cores): other work took CPU "
            "from these runs (see 'cores busy'), so the wall-clock scaling is not a fair figure"
        )
        if _autogroups():
            lines.append(
                "  (this kernel shares CPU fairly between sessions (sched_autogroup): while "
                "other sessions are busy, a batch gets about the same CPU with 1 process or 2)"
            )
    gap = dask.wall / two.wall - 1
    steady_gap = two.steady() / max(dask.steady(), 1e-9) - 1
    lines.append(
        f"  Dask local / --jobs 2 time: {gap:+.0%} whole command, {steady_gap:+.0%} after "
        f"start-up (goal within 15%: {'met' if abs(gap) <= 0.15 else 'not met'})"
    )
    return lines


def volume(work: Path, count: int, seed: int, marks: list[int], booklet: int) -> list[str]:
    """Return the report of one large batch (memory as it grows, levels) and the booklet."""
    lines = [f"volume: {count} graded puzzles on every core, seed {seed}; load {_load()}"]
    big, out = _batch(work, "big.jsonl", count, seed)
    lines.append(_line("batch (all cores)", count, big))
    peaks = []
    for mark in marks:
        seen = [rss for _, written, rss in big.samples if written <= mark and rss]
        peaks.append(f"{mark}: {max(seen, default=0) / MB:.0f} MB")
    lines.append("  peak RSS of the process tree up to " + ", ".join(peaks))
    levels = Counter(json.loads(line)["level"] for line in out.read_text().splitlines())
    order = ("Easy", "Medium", "Hard", "Very hard", "Diabolical", "Beyond technique")
    shown = [f"{level} {levels[level]} ({100 * levels[level] / count:.1f}%)" for level in order]
    lines.append("  levels: " + ", ".join(shown))
    if booklet:
        first = work / "first.jsonl"
        first.write_text("".join(out.read_text().splitlines(keepends=True)[:booklet]))
        pdf = work / "book.pdf"
        made = run([*XLSUDOKU, "booklet", str(first), "-o", str(pdf), "--per-page", "4"])
        lines.append(
            f"booklet: {booklet} puzzles, 4 per page with answers: {made.wall:.1f} s "
            f"(whole command; goal < 10 s: {'met' if made.wall < 10 else 'not met'}), "
            f"{pdf.stat().st_size / 1024:.0f} KiB; load {' '.join(f'{v:.1f}' for v in made.load)}"
        )
    return lines


def run_bench(args: argparse.Namespace) -> int:
    """Run the benchmark and print its report."""
    marks = sorted({m for m in (1000, 5000, 10000, args.big) if m <= args.big})
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"bench batch: {cores} cores; python {sys.version.split()[0]}; load {_load()}")
    with tempfile.TemporaryDirectory() as temp:
        work = Path(args.workdir or temp)
        work.mkdir(parents=True, exist_ok=True)
        for name in ("j1.jsonl", "j2.jsonl", "dask.jsonl", "big.jsonl"):
            (work / name).unlink(missing_ok=True)
            (work / f"{name}.state").unlink(missing_ok=True)
        report = [] if args.skip_scaling else scaling(work, args.count, args.seed)
        for line in report:
            print(line, flush=True)
        for line in volume(work, args.big, args.seed, marks, min(args.booklet, args.big)):
            print(line, flush=True)
    return 0
