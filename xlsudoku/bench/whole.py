"""Whole processes side by side: START against a bare openpyxl, ``count`` against QQWing.

What a user pays for one click of classic desktop Excel (RunPython starts a Python process per
click) or one command is the whole process: start-up, imports, the work and the exit.  Each
comparison here runs the commands in turn (A B A B ..., after warm-up runs that are not
counted), reads each process's own user and system CPU time from ``os.wait4`` (other programs
on a shared machine slow the wall clock, hardly the CPU time) and prints, per command, the
min, median and max of user, system and CPU seconds, wall seconds and peak memory, then the
ratio of each command to the peer run beside it (A/B of run i with B of run i).

- ``xlsudoku bench start-vs-openpyxl``: A = ``xlsudoku workbook start BOOK --output OUT`` on
  a copy of the workbook, B = a Python that only loads the same copy with openpyxl
  (``keep_vba=True``) and saves it (:data:`BARE_OPENPYXL`); ``--also WORKBOOK`` adds C, the
  same bare load and save of another workbook (say the template as it was before a change).
  The goal: A's median CPU at most 1.25 times B's.
- ``xlsudoku bench count-vs-qqwing``: A = ``xlsudoku count FILE``, B = ``qqwing --solve
  --count-solutions --nosolution < FILE``, on the same puzzles written one per line.  The goal:
  A ahead of B (a ratio below 1).
- ``xlsudoku bench grade-vs-sukaku --classpath CP``: A = ``xlsudoku grade --profile sukaku
  FILE``, B = SukakuExplainer's own rater (``java -cp CP diuf.sudoku.test.serate --format=%r
  --input=FILE``; *CP* is the folder of classes or the jar the user built from its source), on
  the same puzzles written one per line; the CPU time counts every thread of the Java virtual
  machine.  The report also says how many scores agree.  The goal: A's CPU at most B's.

Python reads a module's cached bytecode when there is one and compiles the source otherwise
(every time, when ``PYTHONDONTWRITEBYTECODE`` is set and nothing was cached); the report says
which, and ``--compile`` compiles the package first, as pip does when it installs a wheel.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xlsudoku.bench.common import load_note, load_puzzles
from xlsudoku.errors import Exit

BARE_OPENPYXL = """\
import sys, openpyxl
_, source, target = sys.argv
wb = openpyxl.load_workbook(source, keep_vba=True)
wb.save(target)
"""
"""The peer of START: a Python that only loads and saves the workbook with openpyxl."""

START_GOAL = 1.25
COUNT_GOAL = 1.0
SUKAKU_GOAL = 1.0
SUKAKU_RATER = "diuf.sudoku.test.serate"
PACKAGE = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Usage:
    """What one finished process cost.

    Attributes:
        user: user CPU seconds.
        system: system CPU seconds.
        wall: wall-clock seconds from start to exit.
        peak_mib: peak resident memory, MiB.
    """

    user: float
    system: float
    wall: float
    peak_mib: float

    @property
    def cpu(self) -> float:
        """User plus system CPU seconds."""
        return self.user + self.system


@dataclass(frozen=True, slots=True)
class Command:
    """One side of a comparison.

    Attributes:
        label: its letter in the table (A, B, ...).
        argv: the program and its arguments.
        cwd: the folder it runs in.
        stdin: a file given as its standard input, or None.
        before: what to do before each run (e.g. remove the previous output), or None.
        keep: characters of its output kept (the start of it).
    """

    label: str
    argv: tuple[str, ...]
    cwd: Path
    stdin: Path | None = None
    before: Callable[[], None] | None = None
    keep: int = 4096

    def shown(self) -> str:
        """Return the command as a shell line.

        >>> Command("B", ("qqwing", "--solve"), Path("."), Path("p.txt")).shown()
        'qqwing --solve < p.txt'
        """
        line = " ".join(self.argv)
        return line if self.stdin is None else f"{line} < {self.stdin.name}"


@dataclass(frozen=True, slots=True)
class Finished:
    """One run of a command: its exit status, its cost and the start of what it printed."""

    status: int
    usage: Usage
    output: str


def run_process(command: Command) -> Finished:
    """Run *command* to its end; return its exit status, its own CPU time and its output.

    >>> done = run_process(Command("A", (sys.executable, "-c", "print(6 * 7)"), Path(".")))
    >>> done.status, done.output.strip(), done.usage.cpu > 0
    (0, '42', True)
    """
    if command.before is not None:
        command.before()
    with (
        tempfile.TemporaryFile() as output,
        open(command.stdin or os.devnull, "rb") as given,
    ):
        started = time.perf_counter()
        process = subprocess.Popen(
            command.argv, cwd=command.cwd, stdin=given, stdout=output, stderr=subprocess.STDOUT
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read(command.keep).decode("utf-8", "replace")
    peak = usage.ru_maxrss / 1024  # kilobytes on Linux
    return Finished(process.returncode, Usage(usage.ru_utime, usage.ru_stime, wall, peak), text)


def side_by_side(
    commands: Sequence[Command], runs: int, warmups: int, say: Callable[[str], None]
) -> dict[str, list[Finished]]:
    """Run *commands* in turn, *warmups* rounds not counted, then *runs* counted rounds."""
    done: dict[str, list[Finished]] = {command.label: [] for command in commands}
    for round_ in range(warmups + runs):
        for command in commands:
            finished = run_process(command)
            if finished.status != 0:
                say(f"{command.label} exit {finished.status}: {finished.output.strip()[:400]}")
            if round_ >= warmups:
                done[command.label].append(finished)
    return done


def _row(name: str, values: Sequence[float], digits: int = 3) -> str:
    low, middle, high = min(values), statistics.median(values), max(values)
    return f"{name:<14}{low:>12.{digits}f}{middle:>12.{digits}f}{high:>12.{digits}f}"


def table(done: dict[str, list[Finished]], peer: str) -> list[str]:
    r"""Return the lines of the figures: each command's costs, then its ratios to *peer*.

    >>> one = Finished(0, Usage(0.5, 0.1, 1.0, 20.0), "")
    >>> two = Finished(0, Usage(0.2, 0.1, 0.5, 20.0), "")
    >>> print("\n".join(table({"A": [one], "B": [two]}, "B")[-1:]))
    A/B cpu             2.0000      2.0000      2.0000
    """
    counts = ", ".join(f"{label} {len(runs)}" for label, runs in done.items())
    lines = [f"{'':<14}{'min':>12}{'median':>12}{'max':>12}   n: {counts}; whole process"]
    for label, runs in done.items():
        usages = [run.usage for run in runs]
        lines.append(_row(f"{label} user s", [u.user for u in usages]))
        lines.append(_row(f"{label} sys s", [u.system for u in usages]))
        lines.append(_row(f"{label} cpu s", [u.cpu for u in usages]))
        lines.append(_row(f"{label} wall s", [u.wall for u in usages]))
        lines.append(_row(f"{label} peak MiB", [u.peak_mib for u in usages], 1))
    for label, runs in done.items():
        if label == peer:
            continue
        pairs = list(zip(runs, done[peer], strict=True))
        lines.append(
            _row(f"{label}/{peer} wall", [a.usage.wall / b.usage.wall for a, b in pairs], 4)
        )
        lines.append(_row(f"{label}/{peer} cpu", [a.usage.cpu / b.usage.cpu for a, b in pairs], 4))
    return lines


def median_ratio(done: dict[str, list[Finished]], label: str, peer: str) -> float:
    """Return the median of *label*'s CPU over *peer*'s, run by run.

    >>> one = Finished(0, Usage(0.5, 0.1, 1.0, 20.0), "")
    >>> two = Finished(0, Usage(0.2, 0.1, 0.5, 20.0), "")
    >>> round(median_ratio({"A": [one, one, two], "B": [two, two, two]}, "A", "B"), 6)
    2.0
    """
    pairs = zip(done[label], done[peer], strict=True)
    return statistics.median(a.usage.cpu / b.usage.cpu for a, b in pairs)


def bytecode_note(package: Path = PACKAGE) -> str:
    """Return whether *package*'s modules start from cached bytecode or are compiled each time.

    >>> bytecode_note().startswith("bytecode:")
    True
    """
    sources = sorted(package.rglob("*.py"))
    cached = sum(
        1 for source in sources if Path(importlib.util.cache_from_source(str(source))).exists()
    )
    flag = os.environ.get("PYTHONDONTWRITEBYTECODE")
    writes = "not written (PYTHONDONTWRITEBYTECODE set)" if flag else "written when missing"
    return f"bytecode: {cached} of {len(sources)} xlsudoku modules cached; new caches {writes}"


def _header(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    if args.compile:
        compileall.compile_dir(str(PACKAGE), quiet=1)
    say(f"python {sys.version.split()[0]} ({sys.executable}); {os.cpu_count()} CPUs")
    say(bytecode_note())
    say(f"before: {load_note()}")


def _runs_line(commands: Sequence[Command], args: argparse.Namespace) -> str:
    order = " ".join(command.label for command in commands)
    return (
        f"runs counted: {args.runs} each, in turn ({order} {order} ...); warm-up rounds, not "
        f"counted: {args.warmups}"
    )


def _seeds(done: Sequence[Finished]) -> str:
    seeds = [m[1] for run in done if (m := re.search(r"Seed (\d+)", run.output))]
    return ", ".join(seeds) or "none printed"


def _remove(path: Path) -> Callable[[], None]:
    def remove() -> None:
        path.unlink(missing_ok=True)
        for stale in path.parent.glob(f"{path.name}.bak*"):
            stale.unlink()

    return remove


def _xlsudoku() -> str:
    found = Path(sys.executable).with_name("xlsudoku")
    return str(found) if found.exists() else shutil.which("xlsudoku") or "xlsudoku"


def run_start(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Compare START as a whole process with a bare openpyxl load and save; 0 if the goal is met."""
    say("xlsudoku bench start-vs-openpyxl: START as a whole process beside a bare openpyxl")
    _header(args, say)
    with tempfile.TemporaryDirectory(prefix="xlsudoku-whole-") as name:
        folder = Path(name)
        book = folder / f"book{args.workbook.suffix}"
        shutil.copyfile(args.workbook, book)
        (folder / "bare.py").write_text(BARE_OPENPYXL, encoding="utf-8")
        start_out, bare_out = folder / f"out{book.suffix}", folder / f"bare{book.suffix}"
        commands = [
            Command(
                "A",
                (_xlsudoku(), "workbook", "start", book.name, "--output", start_out.name),
                folder,
                before=_remove(start_out),
            ),
            Command("B", (sys.executable, "bare.py", book.name, bare_out.name), folder),
        ]
        say(f"workbook: {args.workbook} ({args.workbook.stat().st_size:,} bytes) as {book.name}")
        if args.also is not None:
            other = folder / f"also{args.also.suffix}"
            shutil.copyfile(args.also, other)
            commands.append(
                Command("C", (sys.executable, "bare.py", other.name, f"c{other.suffix}"), folder)
            )
            say(f"also: {args.also} ({args.also.stat().st_size:,} bytes) as {other.name}")
        say("bare.py: " + BARE_OPENPYXL.replace("\n", "; ").rstrip("; "))
        for command in commands:
            say(f"{command.label} = {command.shown()}")
        say(_runs_line(commands, args))
        done = side_by_side(commands, args.runs, args.warmups, say)
    say(f"START's seeds (blank Seed cell: drawn by each run): {_seeds(done['A'])}")
    for line in table(done, "B"):
        say(line)
    say(f"end: {load_note()}")
    ratio = median_ratio(done, "A", "B")
    failed = any(run.status != 0 for runs in done.values() for run in runs)
    met = ratio <= START_GOAL and not failed
    say(f"goal: START's CPU at most {START_GOAL}x the bare openpyxl's (median of the pairs): "
        f"{'met' if met else 'NOT met'} ({ratio:.3f}x)")  # fmt: skip
    return Exit.OK if met else Exit.GOAL_NOT_MET


def run_count(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Compare ``xlsudoku count`` with QQWing as whole processes; 0 if it is ahead."""
    say("xlsudoku bench count-vs-qqwing: count as a whole process beside QQWing's")
    qqwing = shutil.which("qqwing")
    if qqwing is None:
        say("qqwing is not installed: nothing to compare")
        return Exit.GOAL_NOT_MET
    _header(args, say)
    puzzles = load_puzzles(args.file, None, None)
    with tempfile.TemporaryDirectory(prefix="xlsudoku-whole-") as name:
        folder = Path(name)
        lines = folder / "puzzles.txt"
        lines.write_text("".join(f"{grid}\n" for grid in puzzles), encoding="ascii")
        commands = [
            Command("A", (_xlsudoku(), "count", lines.name), folder),
            Command("B", (qqwing, "--solve", "--count-solutions", "--nosolution"), folder, lines),
        ]
        say(f"puzzles: {args.file}: {len(puzzles)}, written one per line to {lines.name}")
        for command in commands:
            say(f"{command.label} = {command.shown()}")
        say(_runs_line(commands, args))
        done = side_by_side(commands, args.runs, args.warmups, say)
    for line in table(done, "B"):
        say(line)
    say(f"end: {load_note()}")
    ratio = median_ratio(done, "A", "B")
    met = ratio < COUNT_GOAL and all(run.status == 0 for runs in done.values() for run in runs)
    say(f"goal: count's CPU below QQWing's (median of the pairs): "
        f"{'met' if met else 'NOT met'} ({ratio:.3f}x)")  # fmt: skip
    return Exit.OK if met else Exit.GOAL_NOT_MET


def agreement(ours: str, theirs: str) -> tuple[int, int, list[int]]:
    r"""Return (puzzles compared, equal scores, lines that differ) of the two outputs.

    *ours* is ``xlsudoku grade``'s TSV (a header, then ``line puzzle level score ...``),
    *theirs* SukakuExplainer's ratings one per line.

    >>> agreement("line\tpuzzle\tlevel\tscore\n1\tp\tEasy\t1.5\n2\tq\tHard\t3.0\n",
    ...           "1.5\n3.2\n")
    (2, 1, [2])
    """
    rows = [line.split("\t") for line in ours.splitlines()[1:] if line.strip()]
    rated = [line.strip() for line in theirs.splitlines() if line.strip()]
    differ = [
        i + 1
        for i, (row, score) in enumerate(zip(rows, rated, strict=False))
        if round(float(row[3]), 1) != round(float(score), 1)
    ]
    compared = min(len(rows), len(rated))
    return compared, compared - len(differ), differ


def run_sukaku(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Compare ``grade --profile sukaku`` with SukakuExplainer's rater; 0 if no more CPU."""
    say("xlsudoku bench grade-vs-sukaku: grade --profile sukaku beside SukakuExplainer's serate")
    java = shutil.which("java")
    if java is None:
        say("java is not installed: nothing to compare")
        return Exit.GOAL_NOT_MET
    _header(args, say)
    puzzles = load_puzzles(args.file, args.limit, None)
    with tempfile.TemporaryDirectory(prefix="xlsudoku-sukaku-") as name:
        folder = Path(name)
        lines = folder / "puzzles.txt"
        lines.write_text("".join(f"{grid}\n" for grid in puzzles), encoding="ascii")
        keep = 400 * (len(puzzles) + 1)
        commands = [
            Command(
                "A", (_xlsudoku(), "grade", "--profile", "sukaku", lines.name), folder, keep=keep
            ),
            Command(
                "B",
                (
                    java,
                    "-cp",
                    str(Path(args.classpath).resolve()),
                    SUKAKU_RATER,
                    "--format=%r",
                    f"--input={lines.name}",
                ),
                folder,
                keep=keep,
            ),
        ]
        say(f"puzzles: {args.file}: {len(puzzles)}, written one per line to {lines.name}")
        for command in commands:
            say(f"{command.label} = {command.shown()}")
        say(_runs_line(commands, args))
        done = side_by_side(commands, args.runs, args.warmups, say)
    for line in table(done, "B"):
        say(line)
    compared, equal, differ = agreement(done["A"][-1].output, done["B"][-1].output)
    say(
        f"scores: {equal} of {compared} equal"
        + (f"; lines that differ: {differ}" if differ else "")
    )
    say(f"end: {load_note()}")
    ratio = median_ratio(done, "A", "B")
    met = ratio <= SUKAKU_GOAL and all(run.status == 0 for runs in done.values() for run in runs)
    say(f"goal: the sukaku profile's CPU at most SukakuExplainer's (median of the pairs): "
        f"{'met' if met else 'NOT met'} ({ratio:.3f}x)")  # fmt: skip
    return Exit.OK if met else Exit.GOAL_NOT_MET
