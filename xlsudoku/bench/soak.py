"""``xlsudoku bench soak``: the reliability goals, measured on real processes and real files.

Every part works on copies of the committed workbook in a temporary folder and drives the
real ``xlsudoku`` command (``python -m xlsudoku``) in separate processes:

- **writers**: N ``start; save`` pairs at once on one workbook, M rounds.  After each round
  every row seen before must still be there unchanged and every id a SAVE reported must be in
  the file.
- **kills**: K runs of ``start`` or ``save`` killed by SIGKILL at a random moment of a normal
  run's length.  After each: the file must read (limits, checksums, layout) with its VBA
  project and buttons, no row lost or changed; the next run must clean the temporary file.
- **interrupts**: K runs given two SIGINTs at random moments.  The exit must be 130 with one
  line that says what happened to the file, and the file must be what the line says.  A
  signal that lands while Python itself starts (before the first line of xlsudoku runs) cannot
  be handled by any program; such runs are counted apart (the file is untouched in them).
- **hostile**: every file of :mod:`xlsudoku.bench.hostile`: exit 3, the expected message, no
  traceback, the file untouched, peak memory and time per file.
- **params** and **cli**: fuzzed parameter cells (through the parameter checks, and some
  through a whole START) and fuzzed command lines (in-process, some through a closed pipe):
  no traceback and no non-zero exit without a message.
- **files**: hostile inputs and outputs, each a real file through a real command (in-process):
  JSON nested deeper than the limit or with a number of thousands of digits, CSV fields over
  the limit, bytes that are not UTF-8, outputs that are a workbook, the input, a device, a FIFO,
  a folder or a link to a device, parameter cells holding Unicode digits, 309-digit numbers or
  numbers past a float's range (written into the file as Excel would), IMPORT of missing,
  outside, binary or special paths, ``--pattern`` of Unicode digits, a batch out of
  ``--attempts``.  Each must end with its exit status and a message, no traceback, and every
  file it must not change (the input, the target, the workbook's other cells) unchanged.

Randomness comes from ``--seed``; the figures and the goal of each part are printed, and the
exit status is 5 when a goal is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlsudoku.addin import layout
from xlsudoku.bench import hostile
from xlsudoku.bench.common import load_note
from xlsudoku.errors import Exit

TEMPLATE = Path(__file__).resolve().parents[2] / "workbooks" / "xlsudoku.xlsm"
SAVED = re.compile(r"Saved to the Collection as id (\d+)")
MEMORY_GOAL_MB = 200.0
SECONDS_GOAL = 2.0


@dataclass(frozen=True, slots=True)
class Run:
    """One finished process: exit status, output, wall and CPU time, peak memory."""

    status: int
    out: str
    err: str
    seconds: float
    peak_mb: float
    cpu: float = 0.0


def cli(
    args: Sequence[str], signals: Sequence[tuple[float, int]] = (), timeout: float = 300
) -> Run:
    """Run ``xlsudoku ARGS`` in a new process; send each ``(delay, signal)`` after *delay* s."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "xlsudoku", *args],
            stdout=out,
            stderr=err,
            preexec_fn=default_sigint,
        )
        pending = sorted(signals)
        usage: Any = None
        status = 0
        while usage is None:
            now = time.perf_counter() - started
            pid, wait_status, rusage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                usage, status = rusage, os.waitstatus_to_exitcode(wait_status)
                break
            if pending and now >= pending[0][0]:
                os.kill(process.pid, pending.pop(0)[1])
                continue
            if now > timeout:
                os.kill(process.pid, signal.SIGKILL)
            time.sleep(0.002)
        process.returncode = status
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        return Run(
            status,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            seconds,
            usage.ru_maxrss / 1024,
            usage.ru_utime + usage.ru_stime,
        )


def collection(book: Path) -> dict[Any, tuple[Any, ...]]:
    """Return the Collection's rows by id, read with the same checks as every run."""
    from xlsudoku.addin import headless
    from xlsudoku.addin.cellio import OpenpyxlIO

    rows = OpenpyxlIO(headless.read_workbook(book)[0]).table_rows(layout.COLLECTION_HEADER)
    return {row[0]: tuple(row) for row in rows}


def sound(book: Path) -> str | None:
    """Return why *book* is corrupt (unreadable, or lost its VBA project or buttons), or None."""
    from xlsudoku.xlsm import package

    try:
        rows = collection(book)
        contents = package.package_contents(book)
    except Exception as error:  # any failure to read is what is being counted
        return f"{type(error).__name__}: {error}"
    expected = package.package_contents(TEMPLATE)
    if contents.vba_project != expected.vba_project or contents.buttons != expected.buttons:
        return "lost its VBA project or buttons"
    return None if isinstance(rows, dict) else "no Collection"


def _traceback(run: Run) -> bool:
    return "Traceback (most recent call last)" in run.err


@dataclass
class Tally:
    """Counts of one part, the problems found (each described) and lines to print after."""

    counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def add(self, key: str, amount: int = 1) -> None:
        """Add *amount* to the count *key*."""
        self.counts[key] = self.counts.get(key, 0) + amount

    def problem(self, text: str) -> None:
        """Record a problem (a missed goal)."""
        self.problems.append(text)


def default_sigint() -> None:
    """Give a child process the default Ctrl+C, whatever its parent ignores.

    A run started with SIGINT ignored (a job started with ``&`` by a script, a suite under
    ``nohup``) would pass that on, and the runs would never see the SIGINTs sent to them.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lost_or_changed(before: dict[Any, tuple[Any, ...]], after: dict[Any, tuple[Any, ...]]) -> int:
    return sum(1 for key, row in before.items() if after.get(key) != row)


# -- writers -------------------------------------------------------------------------------------


def _pair(book: Path, runs: list[Run], reported: list[int]) -> None:
    """Run ``start`` then ``save`` on *book*; append the runs and the id SAVE reported."""
    for command in ("start", "save"):
        run = cli(["workbook", command, str(book), "--quiet"])
        runs.append(run)  # list.append is atomic: the threads only append
        if command == "save" and (match := SAVED.search(run.out)):
            reported.append(int(match.group(1)))


def writers(folder: Path, count: int, rounds: int) -> Tally:
    """Run *count* ``start; save`` pairs at once on one workbook, *rounds* times."""
    tally = Tally()
    book = folder / "writers.xlsm"
    shutil.copy2(TEMPLATE, book)
    seen: dict[Any, tuple[Any, ...]] = {}
    for round_ in range(rounds):
        reported: list[int] = []
        runs: list[Run] = []
        threads = [
            threading.Thread(target=_pair, args=(book, runs, reported)) for _ in range(count)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for run in runs:
            tally.add("runs")
            if _traceback(run) or run.status not in (0, 1):
                tally.problem(f"round {round_ + 1}: exit {run.status}: {run.err.strip()[-200:]}")
            if run.status and not run.err.strip():
                tally.problem(f"round {round_ + 1}: exit {run.status} without a message")
        rows = collection(book)
        tally.add("reported saves", len(reported))
        missing = [id_ for id_ in reported if id_ not in rows]
        tally.add("reported but missing", len(missing))
        tally.add("lost or changed rows", _lost_or_changed(seen, rows))
        seen = rows
    tally.add("rows in the file", len(seen))
    if tally.counts.get("reported but missing") or tally.counts.get("lost or changed rows"):
        tally.problem("a reported save is missing or a row was lost or changed")
    if len(seen) != tally.counts.get("reported saves", 0):
        tally.problem(f"{len(seen)} rows in the file for {tally.counts['reported saves']} saves")
    return tally


# -- kills and interrupts -----------------------------------------------------------------------


def _temps(book: Path) -> list[Path]:
    return [
        p for p in book.parent.iterdir() if p.name.startswith(f".{book.name}.") and ".tmp" in p.name
    ]


def _durations(book: Path) -> dict[str, float]:
    """Return the median length of an uninterrupted run of each command on a copy of *book*."""
    copy = book.with_name("timing.xlsm")
    shutil.copy2(book, copy)
    times: dict[str, list[float]] = {"start": [], "save": []}
    for _ in range(3):
        for command in times:
            times[command].append(cli(["workbook", command, str(copy), "--quiet"]).seconds)
    return {command: statistics.median(values) for command, values in times.items()}


_STARTUP = "Python start-up"
_SITE_NOISE = "Remainder of file ignored"  # site.py, when a .pth line is interrupted


def _started(run: Run) -> bool:
    """Return False when the run ended before ``xlsudoku.cli.main`` could handle Ctrl+C.

    Then Python itself was still starting (its own modules, ``site``, ``runpy``, the imports
    that lead to ``main``): it dies by the signal (-2), printing nothing or its own
    KeyboardInterrupt traceback, and no line of xlsudoku's.
    """
    ours = any(line.startswith("xlsudoku ") for line in run.err.splitlines())
    in_main = re.search(r"cli[/\\]__init__\.py\", line \d+, in main\b", run.err) is not None
    interrupted = run.status == -signal.SIGINT or "KeyboardInterrupt" in run.err
    return ours or in_main or not interrupted


def _check_message(run: Run, command: str, before: bytes, book: Path, tally: Tally) -> None:
    """Check the one line after an interrupt says what happened to *book*."""
    err = run.err
    if _SITE_NOISE in err:  # a first SIGINT that Python's start-up (site) caught and printed
        tally.add("Python start-up noise before the line")
        err = err.split(_SITE_NOISE, 1)[1]
    lines = err.strip().splitlines()
    last = lines[-1] if lines else ""
    prefix = f"xlsudoku workbook {command}: interrupted; "
    if not last.startswith(prefix) or len(lines) != 1:
        tally.problem(f"{command}: exit 130 but the message was {run.err.strip()[-200:]!r}")
        return
    changed = book.read_bytes() != before
    said_saved = " saved to " in last
    said_unchanged = last.endswith("was not changed")
    if said_saved != changed or said_unchanged == changed:
        tally.problem(
            f"{command}: said {last!r} but the file {'changed' if changed else 'did not'}"
        )
    else:
        tally.add("messages true")


def signalled(
    folder: Path,
    count: int,
    rng: random.Random,
    double_interrupt: bool,
    length: dict[str, float] | None = None,
) -> Tally:
    """Run ``start``/``save`` *count* times, each killed (SIGKILL) or given two SIGINTs.

    The moments are drawn over *length* (seconds of an uninterrupted run of each command;
    measured first when not given).
    """
    tally = Tally({"corrupt files": 0, "lost or changed rows": 0})
    book = folder / ("interrupts.xlsm" if double_interrupt else "kills.xlsm")
    shutil.copy2(TEMPLATE, book)
    recent = {command: [seconds] for command, seconds in (length or _durations(book)).items()}
    rows = collection(book)
    for index in range(count):
        command = rng.choice(("start", "save"))
        # The moments follow the load: the run's length is the median of the last runs that
        # finished before their signal (the first estimate measured uninterrupted).
        moment = rng.uniform(0, statistics.median(recent[command][-5:]) * 1.1)
        if double_interrupt:
            signals = [(moment, signal.SIGINT), (moment + rng.uniform(0, 0.3), signal.SIGINT)]
        else:
            signals = [(moment, signal.SIGKILL)]
        before = book.read_bytes()
        run = cli(["workbook", command, str(book), "--quiet"], signals)
        tally.add("runs")
        problem = sound(book)
        if problem is not None:
            tally.add("corrupt files")
            tally.problem(f"run {index + 1} ({command} at {moment:.3f} s): corrupt: {problem}")
            shutil.copy2(TEMPLATE, book)
            rows = collection(book)
            continue
        now = collection(book)
        lost = _lost_or_changed(rows, now)
        tally.add("lost or changed rows", lost)
        tally.add("rows saved", len(now) - len(rows) + lost)
        if lost:
            tally.problem(f"run {index + 1}: {lost} rows lost or changed")
        if (match := SAVED.search(run.out)) and int(match.group(1)) not in now:
            tally.problem(f"run {index + 1}: reported id {match.group(1)} is not in the file")
        rows = now
        if run.status == -signal.SIGKILL:
            tally.add("killed")
            if _temps(book):
                tally.add("temporary files left by a kill")
        elif double_interrupt and not _started(run):
            tally.add(_STARTUP)
            if book.read_bytes() != before:
                tally.problem(f"run {index + 1}: interrupted in start-up but the file changed")
        elif run.status == Exit.INTERRUPTED:
            tally.add("interrupted (130)")
            _check_message(run, command, before, book, tally)
        elif run.status in (0, 1) and not _traceback(run):
            tally.add("finished before the signal")
            recent[command].append(run.seconds)
        else:
            tally.problem(f"run {index + 1} ({command}): exit {run.status}: {run.err[-300:]!r}")
    cleanup = cli(["workbook", "clear", str(book), "--quiet"])
    leftover = [p.name for p in _temps(book)]
    tally.add("temporary files left after the next run", len(leftover))
    if leftover or cleanup.status:
        tally.problem(f"the next run left {leftover} (exit {cleanup.status})")
    return tally


# -- hostile corpus --------------------------------------------------------------------------------


def hostile_files(folder: Path) -> Tally:
    """Run every hostile file through the command line; the tally has a line per file."""
    tally = Tally()
    lines = tally.lines
    for case in hostile.make_corpus(folder / "hostile", TEMPLATE):
        before = case.path.read_bytes() if case.path.is_file() else None
        run = cli(["workbook", case.command, str(case.path), "--quiet"], timeout=60)
        tally.add("files")
        ok = run.status == Exit.UNUSABLE_FILE and case.expect in run.err and not _traceback(run)
        untouched = before is None or case.path.read_bytes() == before
        tally.counts["peak MB"] = max(tally.counts.get("peak MB", 0), math.ceil(run.peak_mb))
        slowest = max(tally.counts.get("slowest CPU ms", 0), round(run.cpu * 1000))
        tally.counts["slowest CPU ms"] = slowest
        slow = run.cpu >= SECONDS_GOAL  # CPU time: wall time is the machine's load too
        tally.add("tracebacks", _traceback(run))
        if not ok or not untouched or run.peak_mb >= MEMORY_GOAL_MB or slow:
            tally.problem(
                f"{case.kind}: exit {run.status}, {run.seconds:.2f} s ({run.cpu:.2f} s CPU), "
                f"{run.peak_mb:.0f} MB, untouched {untouched}: {run.err.strip()[-200:]}"
            )
        message = run.err.strip().splitlines()[-1] if run.err.strip() else ""
        lines.append(
            f"  {case.kind:34s} {run.seconds:5.2f} s ({run.cpu:4.2f} s CPU) {run.peak_mb:4.0f} MB  "
            f"{message[:90]}"
        )
    return tally


# -- fuzzing ---------------------------------------------------------------------------------------


def _fuzzed_value(rng: random.Random) -> Any:
    import datetime as dt

    pool: list[Callable[[], Any]] = [
        lambda: None,
        lambda: "",
        lambda: rng.choice([True, False]),
        lambda: rng.randint(-(10**6), 10**6),
        lambda: rng.uniform(-1e6, 1e6),
        lambda: rng.choice([1.7976931348623157e308, -1e308, 5e-324, float("inf"), float("nan")]),
        lambda: rng.choice([10**400, -(10**400), 10**5000]),
        lambda: rng.choice(["9" * 400, "1e308", "-0", "0x1A", "  17 ", "١٧", "1,5", "26.0"]),
        lambda: "".join(rng.choice(_UNICODE_DIGITS) for _ in range(rng.randrange(1, 4))),
        lambda: rng.choice([10**308, -(10**308), 10**309 + 7]),
        lambda: rng.choice(["Yes", "No", "any", "none", "=A1", "#N/A", "rotate-180", "x" * 300]),
        lambda: "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 12))),
        lambda: dt.datetime(2020, 1, 1) + dt.timedelta(days=rng.randrange(-1000, 1000)),
        lambda: rng.randint(0, 100),
    ]
    return rng.choice(pool)()


def fuzz_params(count: int, rng: random.Random, whole_runs: int) -> Tally:
    """Check *count* fuzzed parameter values; *whole_runs* of them through a whole START."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    from xlsudoku.addin import actions, headless, params
    from xlsudoku.addin.cellio import OpenpyxlIO
    from xlsudoku.engine.generate import GenerateError
    from xlsudoku.engine.grid import SudokuError

    tally = Tally({"tracebacks": 0})
    workbook = headless.read_workbook(TEMPLATE)[0]
    io_ = OpenpyxlIO(workbook)
    defaults = {param.name: param.default for param in layout.PARAMS}
    for index in range(count):
        values = dict(defaults)
        for name in rng.sample(sorted(values), rng.randint(1, 3)):
            values[name] = _fuzzed_value(rng)
        tally.add("values")
        # openpyxl cannot put control characters in a cell (Excel stores them escaped): such a
        # value is checked as read from Excel, without the file round trip of a whole START
        typeable = not any(
            isinstance(value, str) and ILLEGAL_CHARACTERS_RE.search(value)
            for value in values.values()
        )
        try:
            if index < whole_runs and typeable:
                for name, value in values.items():
                    io_.write(name, value)
                if values[layout.TIME_LIMIT] == defaults[layout.TIME_LIMIT]:
                    io_.write(layout.TIME_LIMIT, 0.3)
                outcome = actions.start(io_, rng=random.Random(index))
                tally.add("whole STARTs")
                tally.add("refused with a message", not outcome.ok)
                continue
            checked = params.read_start(values, rng=random.Random(index))
            params.start_request(checked)
        except (SudokuError, GenerateError):
            tally.add("refused with a message")
        except Exception as error:  # a traceback in the add-in: what is being counted
            tally.add("tracebacks")
            if len(tally.problems) < 10:
                quoted = {name: params.shown(value) for name, value in values.items()}
                tally.problem(f"{quoted}: {type(error).__name__}: {error}")
    return tally


_PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _fuzzed_source(rng: random.Random, folder: Path) -> tuple[str, bytes | None]:
    """Return a FILE/PUZZLE argument and the bytes of standard input (when it is ``-``)."""
    junk = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
    mutated = list(_PUZZLE)
    for _ in range(rng.randrange(0, 4)):
        mutated[rng.randrange(81)] = chr(rng.randrange(32, 0x2000))
    pool: list[Callable[[], tuple[str, bytes | None]]] = [
        lambda: (_PUZZLE, None),
        lambda: ("".join(mutated), None),
        lambda: ("11" + "." * 79, None),
        lambda: ("." * rng.choice([16, 80, 81, 82, 256, 300, 5000]), None),
        lambda: ("-", junk),
        lambda: ("-", (_PUZZLE + "\n").encode() * rng.randrange(0, 5)),
        lambda: (str(_file(folder, junk)), None),
        lambda: (str(_file(folder, b"\xef\xbb\xbf" + _PUZZLE.encode() + b"\n\xff\xfe")), None),
        lambda: (str(folder), None),
        lambda: ("/dev/null", None),
        lambda: (str(folder / "missing.txt"), None),
        lambda: ("x" * rng.choice([255, 256, 4096, 100_000]), None),
        lambda: ("".join(chr(rng.randrange(32, 0x10FFFF)) for _ in range(20)), None),
    ]
    return rng.choice(pool)()


def _file(folder: Path, data: bytes) -> Path:
    path = folder / f"input{len(list(folder.iterdir()))}.txt"
    path.write_bytes(data)
    return path


_NUMBERS = ["0", "1", "2", "-1", "17", "26", "99999", "1e308", "nan", "x", "9" * 400, "1000000000"]
_OPTIONS: dict[str, list[tuple[str, list[str]]]] = {
    "solve": [("--format", ["line", "sdk", "grid", "csv", "bogus"]), ("--csv", [])],
    "count": [("--limit", _NUMBERS), ("--with-puzzle", []), ("--csv", [])],
    "format": [("--format", ["line", "sdm", "ss", "grid", "x"]), ("--validate", [])],
    "grade": [("--format", ["tsv", "json", "x"]), ("--csv", [])],
    "hint": [("--level", ["1", "2", "3", "4", "x"])],
    "analyze": [],
    "generate": [
        ("--opens", _NUMBERS),
        ("--pattern", ["1", "13", "none", "x.x.x.x.x", "abc"]),
        ("--trials", ["1", "5", "0", "x"]),
        ("--symmetry", ["none", "rotate90", "sideways"]),
        ("--seed", _NUMBERS),
        ("--geometry", ["4x4", "6x6", "9x9-X", "7x7"]),
        ("-n", ["0", "1", "2", "-3", "x"]),
        ("--format", ["line", "json", "grid"]),
        ("--difficulty", ["easy", "hard", "x"]),
    ],
}


def _fuzzed_argv(rng: random.Random, folder: Path) -> tuple[list[str], bytes | None]:
    command = rng.choice(sorted(_OPTIONS))
    argv = [command]
    stdin: bytes | None = None
    if command != "generate":
        source, stdin = _fuzzed_source(rng, folder)
        argv.append(source)
    for option, values in rng.sample(_OPTIONS[command], rng.randint(0, len(_OPTIONS[command]))):
        argv += [option, rng.choice(values)] if values else [option]
    if command == "generate":
        argv += ["--time-limit", "0.3"]
    if rng.random() < 0.05:
        argv.insert(rng.randrange(len(argv) + 1), rng.choice(["--bogus", "-", "--", "x"]))
    return argv, stdin


def fuzz_cli(
    count: int, rng: random.Random, folder: Path, piped: int, main: Callable[[list[str]], int]
) -> Tally:
    """Run *count* fuzzed command lines in-process, and *piped* more through a closed pipe.

    *main* is the command line's entry (``xlsudoku.cli.main``), passed in by the command that
    runs the soak: the tools import no command line.
    """
    tally = Tally({"tracebacks": 0, "silent non-zero exits": 0})
    inputs = folder / "cli"
    inputs.mkdir(exist_ok=True)
    for _ in range(count):
        argv, stdin = _fuzzed_argv(rng, inputs)
        out, err = io.StringIO(), io.StringIO()
        saved = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(argv)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 2
        except BaseException as error:  # a traceback: what is being counted
            tally.add("tracebacks")
            tally.problem(f"{argv[:4]}: {type(error).__name__}: {str(error)[:150]}")
            continue
        finally:
            sys.stdin = saved
        tally.add("command lines")
        tally.add(f"exit {status}")
        if status and not err.getvalue().strip():
            tally.add("silent non-zero exits")
            tally.problem(f"{argv[:4]}: exit {status} with nothing on standard error")
    for index in range(piped):
        reader = subprocess.Popen(
            [sys.executable, "-m", "xlsudoku", "generate", "-n", "50", "--seed", str(index)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert reader.stdout is not None and reader.stderr is not None
        reader.stdout.readline()
        reader.stdout.close()  # the reader stops, as ``| head -1`` does
        error_text = reader.stderr.read().decode("utf-8", "replace")
        reader.wait()
        tally.add("closed pipes")
        if reader.returncode != 0 or error_text.strip():
            tally.problem(f"closed pipe: exit {reader.returncode}: {error_text[-200:]!r}")
    return tally


# -- hostile files through real commands ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileCase:
    """A command on hostile files: what it must exit with, say, and leave as it was.

    Attributes:
        family: What kind of input it is (for the counts).
        argv: The command line.
        statuses: The exit statuses it may end with.
        says: A piece of the message a non-zero exit must print ("" for any message).
        watched: Files that must not change, with how to read them (bytes, or a description
            of a special file).
    """

    family: str
    argv: list[str]
    statuses: frozenset[int]
    says: str
    watched: dict[Path, Callable[[], object]]


def _bytes(path: Path) -> Callable[[], object]:
    return lambda: path.read_bytes() if path.is_file() else ("missing" if not path.exists() else "")


def _kind(path: Path) -> Callable[[], object]:
    import stat as stat_

    def kind() -> object:
        try:
            info = os.lstat(path)
        except OSError:
            return "missing"
        link = os.readlink(path) if stat_.S_ISLNK(info.st_mode) else ""
        return stat_.S_IFMT(info.st_mode), link

    return kind


def _cells_of(path: Path, part: str, skip: frozenset[str] = frozenset()) -> Callable[[], object]:
    """Return a reader of the cells (values, not styles) of worksheet *part* of workbook *path*."""
    import zipfile

    def cells() -> object:
        text = zipfile.ZipFile(path).read(part).decode("utf-8")
        found = re.findall(r'(<c r="([A-Z]+[0-9]+)"[^>]*?(?:/>|>.*?</c>))', text, re.DOTALL)
        return {
            address: re.sub(r' (s|t)="(n|[0-9]+)"', "", cell)
            for cell, address in found
            if address not in skip and not cell.endswith("/>")
        }

    return cells


_GENERATOR_PART, _COLLECTION_PART = "xl/worksheets/sheet1.xml", "xl/worksheets/sheet4.xml"
_UNICODE_DIGITS = "①②③⑨²³¹₂₃٣߃०௧"


def _set_cell(book: Path, address: str, cell_xml: bytes) -> None:
    """Put *cell_xml* at *address* of the Generator sheet of *book* (as Excel would write it)."""
    import zipfile

    with zipfile.ZipFile(book) as source:
        members = [(info, source.read(info.filename)) for info in source.infolist()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in members:
            if info.filename == _GENERATOR_PART:
                data = re.sub(
                    rb'<c r="%s"[^>]*?(?:/>|>.*?</c>)' % address.encode(),
                    lambda match: cell_xml,
                    data,
                    count=1,
                    flags=re.DOTALL,
                )
            out.writestr(info, data)
    book.write_bytes(buffer.getvalue())


def _hostile_text(rng: random.Random) -> tuple[str, bytes, str]:
    """Return a file name, hostile puzzle-file bytes and what the message must say."""
    kind = rng.randrange(5)
    if kind == 0:
        depth = rng.choice([34, 100, 1000, 100_000, rng.randrange(34, 300_000)])  # one is the list
        # closed, so that only the depth is wrong (an unclosed one is bad JSON, and says so)
        return "deep.json", ("[" * depth + "]" * depth).encode(), "nested deeper than 32 levels"
    if kind == 1:
        digits = rng.randrange(101, 6000)
        body = '{"puzzle": ' + "7" * digits + "}\n"
        return "long.jsonl", body.encode(), f"a number of {digits} digits"
    if kind == 2:
        size = rng.randrange(131_073, 400_000)
        return "wide.csv", b"1,2\n" + b"x" * size + b"\n", "a field longer than 131,072"
    if kind == 3:
        junk = bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 50)))
        return "bytes.txt", b"." * 81 + b"\n" + junk, "is not UTF-8 text"
    depth = rng.randrange(33, 5000)
    deep = '{"puzzle": ' + '{"a": ' * depth + "1" + "}" * depth + "}\n"
    return "deep.jsonl", deep.encode(), "nested deeper than 32 levels"


def _file_case(rng: random.Random, folder: Path, number: int) -> FileCase:
    """Return one hostile case, its files made in a folder of its own."""
    home = folder / f"case{number}"
    home.mkdir()
    book = home / "book.xlsm"
    puzzles = home / "p.txt"
    puzzles.write_text(_PUZZLE + "\n")
    family = rng.choice(
        ["puzzle file", "output", "output", "parameter cell", "import", "pattern", "attempts"]
    )
    bad_input = frozenset({Exit.BAD_INPUT})
    if family == "puzzle file":
        name, data, says = _hostile_text(rng)
        path = home / name
        path.write_bytes(data)
        command = rng.choice(["solve", "count", "grade", "format", "booklet"])
        argv = [command, str(path)] + (["-o", str(home / "b.pdf")] if command == "booklet" else [])
        return FileCase(family, argv, bad_input, says, {path: _bytes(path)})
    if family == "output":
        return _output_case(rng, home, book, puzzles)
    if family == "parameter cell":
        shutil.copy2(TEMPLATE, book)
        param = rng.choice(layout.PARAMS)
        address = param.ref.address
        value = rng.choice(
            [
                "".join(rng.choice(_UNICODE_DIGITS) for _ in range(rng.randrange(1, 4))),
                "9" * rng.choice([309, 400, 4000]),
                rng.choice(["1.7976931348623157E+308", "1E+999", "-1E+999", "4.9E-324"]),
            ]
        )
        is_text = (
            not value[-1].isascii()
            or not value.replace(".", "")
            .replace("E", "")
            .replace("+", "")
            .replace("-", "")
            .isdigit()
        )
        cell = (
            b'<c r="%s" t="inlineStr"><is><t>%s</t></is></c>' % (address.encode(), value.encode())
            if is_text
            else b'<c r="%s"><v>%s</v></c>' % (address.encode(), value.encode())
        )
        _set_cell(book, address, cell)
        status = layout.NAMES[layout.STATUS].top_left  # the refusal is written there
        watched = {book: _cells_of(book, _GENERATOR_PART, frozenset({status}))}
        argv = ["workbook", "start", str(book), "--quiet"]
        return FileCase(family, argv, frozenset({0, 1, 5}), param.label, watched)
    if family == "import":
        shutil.copy2(TEMPLATE, book)
        (folder / "outside.txt").write_text(_PUZZLE + "\n")
        binary = home / "binary"
        binary.write_bytes(bytes(rng.randrange(256) for _ in range(2000)) + b"\xff")
        fifo = home / "fifo"
        if hasattr(os, "mkfifo"):
            os.mkfifo(fifo)
        source, says = rng.choice(
            [
                (str(home / "missing.txt"), "file not found"),
                ("missing.txt", "file not found"),
                (str(folder / "outside.txt"), "outside the workbook's folder"),
                ("../outside.txt", "outside the workbook's folder"),
                ("/etc/passwd", "outside the workbook's folder"),
                ("/dev/zero", "outside the workbook's folder"),
                ("binary", "is not UTF-8 text"),
                (str(home), "a folder, not a puzzle file"),
                ("fifo" if fifo.exists() else "missing.txt", ""),
            ]
        )
        set_import = [("ImportSource", source)]
        _write_values(book, set_import)
        watched = {
            book: _cells_of(book, _COLLECTION_PART),
            binary: _bytes(binary),
            fifo: _kind(fifo),
        }
        return FileCase(family, ["workbook", "import", str(book)], bad_input, says, watched)
    if family == "pattern":
        digits = "".join(rng.choice(_UNICODE_DIGITS) for _ in range(rng.randrange(1, 4)))
        command = rng.choice(["generate", "batch"])
        argv = [command, "--pattern", digits, "--seed", "1"]
        if command == "batch":
            argv += ["-n", "1", "-j", "1", "--quiet", "-o", str(home / "b.jsonl")]
        return FileCase(family, argv, frozenset({Exit.USAGE}), "bad character", {})
    count = rng.randrange(2, 5)
    argv = ["batch", "-n", str(count), "--attempts", "1", "-j", "1", "--quiet"]
    argv += ["--seed", str(rng.randrange(10**6)), "-o", str(home / "a.jsonl")]
    return FileCase(
        "attempts", argv, frozenset({Exit.GOAL_NOT_MET}), "--attempts 1 ran out first", {}
    )


def _write_values(book: Path, cells: Sequence[tuple[str, object]]) -> None:
    import openpyxl

    workbook = openpyxl.load_workbook(book, keep_vba=True)
    for name, value in cells:
        ref = layout.NAMES[name]
        workbook[ref.sheet][ref.address] = value
    workbook.save(book)


def _output_case(rng: random.Random, home: Path, book: Path, puzzles: Path) -> FileCase:
    """Return a command writing onto a target it must refuse, the target watched."""
    shutil.copy2(TEMPLATE, book)
    target_kind = rng.choice(
        ["workbook", "input", "device", "null", "fifo", "folder", "link", "other file"]
    )
    suffix = rng.choice([".pdf", ".jsonl", ".txt", ".xlsm", ""])
    target = home / f"target{suffix}"
    says = {
        "workbook": "",
        "input": "is also the input",
        "device": "a device, not a file",
        "null": "a device, not a file",
        "fifo": "a FIFO (named pipe), not a file",
        "folder": "a folder, not a file",
        "link": "a device, not a file",
        "other file": "",
    }[target_kind]
    if target_kind == "workbook":
        shutil.copy2(TEMPLATE, target)
    elif target_kind == "device":
        target = Path("/dev/full")
    elif target_kind == "null":
        target = Path(os.devnull)
    elif target_kind == "fifo" and hasattr(os, "mkfifo"):
        os.mkfifo(target)
    elif target_kind == "folder":
        target.mkdir()
    elif target_kind == "link" and Path("/dev/full").exists():
        target.symlink_to("/dev/full")
    else:
        target_kind = "other file" if target_kind != "input" else "input"
        target.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 500))))
        says = ""
    command = rng.choice(["booklet", "batch -o", "batch --puzzles", "workbook --output"])
    if target_kind == "input":
        target = book if command == "workbook --output" else puzzles
        if command == "workbook --output":
            command = "booklet"  # a workbook edits itself in place: no refusal to test
    if command == "booklet":
        source = book if target == book else puzzles
        argv = ["booklet", str(source), "-o", str(target)]
    elif command == "batch -o":
        argv = ["batch", "-n", "1", "-j", "1", "--seed", "1", "--quiet", "--format", "jsonl"]
        argv += ["-o", str(target)]
    elif command == "batch --puzzles":
        argv = ["batch", "-n", "1", "-j", "1", "--seed", "1", "--quiet", "--puzzles", str(target)]
    else:
        wanted = target if target.suffix in (".xlsm", ".xlsx") else target.with_suffix(".xlsm")
        if target_kind in ("workbook", "other file") and target != wanted:
            shutil.move(target, wanted)
            target = wanted
        argv = ["workbook", "start", str(book), "--output", str(target), "--quiet"]
    if target_kind == "input" and command == "batch --puzzles":
        says = ""  # a puzzle file that exists: refused as another file
    watched = {book: _bytes(book), puzzles: _bytes(puzzles)}
    watched[target] = _kind(target) if not target.is_file() else _bytes(target)
    if command == "batch -o" and target_kind == "other file":
        says = "already exists"  # the batch file's own refusal: not its records
    return FileCase("output", argv, frozenset({Exit.UNUSABLE_FILE}), says, watched)


def fuzz_files(
    count: int, rng: random.Random, folder: Path, main: Callable[[list[str]], int]
) -> Tally:
    """Run *count* hostile file cases in-process (see :class:`FileCase`)."""
    tally = Tally({"tracebacks": 0, "changed files": 0})
    root = folder / "files"
    root.mkdir(exist_ok=True)
    for number in range(count):
        case = _file_case(rng, root, number)
        before = {path: read() for path, read in case.watched.items()}
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(case.argv)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 2
        except BaseException as error:  # a traceback: what is being counted
            tally.add("tracebacks")
            tally.problem(f"{case.argv[:6]}: {type(error).__name__}: {str(error)[:150]}")
            continue
        tally.add("inputs")
        tally.add(f"{case.family}: exit {status}")
        message = err.getvalue()
        changed = [path.name for path, read in case.watched.items() if read() != before[path]]
        if changed and (status != 0 or case.family != "parameter cell"):
            tally.add("changed files")
            tally.problem(f"{case.argv[:6]}: exit {status}: changed {changed}")
        if status not in case.statuses or (status and not message.strip()):
            tally.problem(f"{case.argv[:6]}: exit {status}: {message.strip()[-200:]!r}")
        elif status and case.says and case.says not in message:
            tally.problem(f"{case.argv[:6]}: says {message.strip()[-200:]!r}, not {case.says!r}")
    return tally


# -- the command -------------------------------------------------------------------------------


# the counts that are inputs fed to the program (each part names its own)
_INPUT_COUNTS = frozenset(
    {"values", "command lines", "closed pipes", "inputs", "presses", "runs", "kills", "files"}
)


def _report(name: str, tally: Tally, goal: str, seconds: float) -> bool:
    counts = ", ".join(f"{key} {value:,}" for key, value in tally.counts.items())
    verdict = "met" if not tally.problems else "NOT met"
    print(f"{name}: {counts}  ({seconds:.0f} s)")
    print(f"  goal: {goal}: {verdict}")
    for problem in tally.problems[:20]:
        print(f"  problem: {problem}")
    if len(tally.problems) > 20:
        print(f"  ... and {len(tally.problems) - 20} more problems")
    for line in tally.lines:
        print(line)
    sys.stdout.flush()
    return not tally.problems


Parts = list[tuple[str, Callable[[Path], Tally], str]]
"""The parts of a soak: (name, what runs it in a folder, its goal)."""


def run(
    args: argparse.Namespace,
    main: Callable[[list[str]], int],
    more: Callable[[argparse.Namespace, random.Random], Parts] | None = None,
) -> int:
    """Run the soak; print each part's figures and goal; return 5 when a goal is missed.

    *more* adds parts (:func:`xlsudoku.bench.soak_families.parts`).
    """
    chosen = set(args.parts.split(","))
    rng = random.Random(args.seed)
    print(f"workbook: {TEMPLATE}  seed: {args.seed}")
    print(f"before: {load_note()}")
    rounds = f"{args.writers} writers x {args.rounds} rounds"
    parts: Parts = [
        (
            "writers",
            lambda folder: writers(folder, args.writers, args.rounds),
            f"{rounds}: 0 lost or changed rows, every reported save present",
        ),
        (
            "kills",
            lambda folder: signalled(folder, args.kills, rng, double_interrupt=False),
            f"{args.kills} SIGKILLs: 0 corrupt files, 0 lost rows, temp files cleaned",
        ),
        (
            "interrupts",
            lambda folder: signalled(folder, args.interrupt_runs, rng, double_interrupt=True),
            f"{args.interrupt_runs} double SIGINTs: 0 corrupt files, 0 lost rows, every message "
            "true, exit 130",
        ),
        (
            "hostile",
            hostile_files,
            f"0 tracebacks, exit 3 naming the fault, peak < {MEMORY_GOAL_MB:g} MB, "
            f"< {SECONDS_GOAL:g} s of CPU each, files untouched",
        ),
        (
            "params",
            lambda folder: fuzz_params(args.params, rng, args.whole_starts),
            "0 tracebacks",
        ),
        (
            "cli",
            lambda folder: fuzz_cli(args.cli, rng, folder, args.pipes, main),
            "0 tracebacks, 0 silent non-zero exits, closed pipes quiet",
        ),
        (
            "files",
            lambda folder: fuzz_files(args.files, rng, folder, main),
            "0 tracebacks, every exit its documented status with its message, 0 changed files "
            "that should be untouched",
        ),
    ]
    if more is not None:
        parts += more(args, rng)
    met = True
    inputs = 0
    with tempfile.TemporaryDirectory(prefix="xlsudoku-soak-") as name:
        for part, run, goal in parts:
            if part in chosen:
                started = time.perf_counter()
                tally = run(Path(name))
                met &= _report(part, tally, goal, time.perf_counter() - started)
                inputs += sum(value for key, value in tally.counts.items() if key in _INPUT_COUNTS)
    print(f"inputs: {inputs:,}")
    print(f"after: {load_note()}")
    print(f"goals: {'all met' if met else 'NOT all met'}")
    return Exit.OK if met else Exit.GOAL_NOT_MET
