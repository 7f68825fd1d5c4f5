"""The soak's families for what users and attackers found: parts, bounds, deadlines, kills.

:mod:`xlsudoku.bench.soak` adds these parts (``xlsudoku bench soak --parts ...``):

- **buttons**: fresh copies of the Lite workbook (with its xlwings Lite add-in) and of the
  .xlsm, each of the 13 buttons pressed in turn with hostile text typed into the cells a user
  types in (Unicode text and digits, huge numbers, long strings).  After each press: no
  traceback, and every package part the button does not change is as it was, byte for byte
  (the add-in's web extension and task pane above all), and the sheets it writes keep what
  is not their cells.
- **play**: hostile Play from values and play grid entries through PLAY, CHECK, play HINT and
  play SOLVE: no traceback, no lost part.
- **imports**: IMPORT of huge ranges (a whole sheet, a whole column, ``A1:XFD1048576``) in a
  process with a deadline: no traceback, done in time.
- **production**: ``daily``, ``stats`` and ``booklet`` with hostile arguments and records
  (dates past 9999, ``-j`` in the millions, shapes without ``--opens``, text, NaN and huge
  scores, a million-character level, Unicode titles) in processes with a deadline.
- **batch kills**: ``batch -j 2`` and ``daily -j 2`` killed by SIGKILL mid-run: no process of
  theirs left, the output whole lines only, and ``--resume`` finishes it.

Each family counts its inputs and reports tracebacks, lost parts, processes left and runs past
their deadline by more than 10% as problems.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from xlsudoku.addin import headless, layout
from xlsudoku.bench.soak import Run, Tally, cli, default_sigint
from xlsudoku.bench.soak import run as run_parts
from xlsudoku.errors import CommandError

ROOT = Path(__file__).resolve().parents[2]
WORKBOOKS = (ROOT / "workbooks" / "xlsudoku-lite.xlsx", ROOT / "workbooks" / "xlsudoku.xlsm")
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
LATE = 1.1  # a run past its deadline by more than 10% is a problem
# what a button may rewrite: the sheets it writes (cells, sizes, dimension), the styles (the
# fills it adds) and the workbook (calculate formulas on load)
_CHANGEABLE = re.compile(r"xl/worksheets/sheet\d+\.xml|xl/styles\.xml|xl/workbook\.xml")
_CELLS_AND_SIZES = re.compile(
    rb"<sheetData\s*/>|<sheetData\b.*?</sheetData>|<cols>.*?</cols>|<dimension\b[^>]*/>",
    re.DOTALL,
)
_UNICODE = ["Судоку", "数独", "²", "①", "١٧", "𝟗", "é\u0301", "\u202e26", "🧩" * 50, "ß" * 3000]


def _hostile_text(rng: random.Random) -> Any:
    """Return text or a number a user might type or paste into a cell."""
    pool: list[Callable[[], Any]] = [
        lambda: rng.choice(_UNICODE),
        lambda: "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(1, 40))),
        lambda: "9" * rng.choice([20, 400, 5001]),
        lambda: rng.choice([10**400, -(10**30), 2**63, 1e308, -0.0]),
        lambda: rng.choice(["1,2,3", "1-99999999999", " 1 ; 2 ", "0", "-1", "1e9", "", " "]),
        lambda: PUZZLE.replace(".", rng.choice(["0", "-", "_", "·"])),
        lambda: rng.choice(["Generator!A1:XFD1048576", "Collection!A:A", "Play!1:1048576"]),
        lambda: "x" * rng.choice([255, 32_767, 40_000]),
    ]
    return rng.choice(pool)()


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def lost_parts(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Return the parts of *before* missing or changed in *after* that a button may not change.

    A sheet may change only in its cells, column sizes and dimension.

    >>> lost_parts({"a.xml": b"1", "xl/styles.xml": b"2"}, {"xl/styles.xml": b"3"})
    ['a.xml (missing)']
    """
    lost = []
    for name, data in before.items():
        if name not in after:
            lost.append(f"{name} (missing)")
        elif not _CHANGEABLE.fullmatch(name):
            if after[name] != data:
                lost.append(f"{name} (changed)")
        elif name.startswith("xl/worksheets/"):
            if _CELLS_AND_SIZES.sub(b"", after[name]) != _CELLS_AND_SIZES.sub(b"", data):
                lost.append(f"{name} (more than its cells changed)")
    return lost


def _press(path: Path, button: str, inputs: dict[str, Any], tally: Tally, what: str) -> None:
    """Press *button* on *path* in-process; count a traceback or a lost part as a problem."""
    before = _parts(path)
    started = time.perf_counter()
    try:
        outcome = headless.run(button, path, inputs=inputs).outcome
        tally.add("presses")
        tally.add("refused with a message", not outcome.ok)
    except CommandError:
        tally.add("presses")
        tally.add("file refused with a message")
    except Exception as error:  # a traceback: what is being counted
        tally.add("tracebacks")
        tally.problem(f"{what} {button} {_shown(inputs)}: {type(error).__name__}: {error}"[:300])
        return
    seconds = time.perf_counter() - started
    if seconds > 60 * LATE:
        tally.add("past the deadline")
        tally.problem(f"{what} {button} {_shown(inputs)}: {seconds:.0f} s, past 60 s")
    lost = lost_parts(before, _parts(path))
    if lost:
        tally.add("lost parts", len(lost))
        tally.problem(f"{what} {button} {_shown(inputs)}: lost {', '.join(lost[:4])}")


def _shown(inputs: dict[str, Any]) -> str:
    return ", ".join(f"{name}={str(value)[:30]!r}" for name, value in inputs.items())


_TYPED = {
    "start": (layout.SEED, layout.CAPTION),
    "import": (layout.IMPORT_SOURCE,),
    "delete": (layout.DELETE_IDS,),
    "analyze": (layout.ANALYZE_STRING,),
    "play": (layout.PLAY_SOURCE,),
}


def buttons(folder: Path, rounds: int, rng: random.Random) -> Tally:
    """Press all 13 buttons, *rounds* times, on fresh copies of both workbooks."""
    tally = Tally({"presses": 0, "tracebacks": 0, "lost parts": 0})
    for source in WORKBOOKS:
        for round_ in range(rounds):
            path = folder / f"buttons-{round_}{source.suffix}"
            shutil.copy2(source, path)
            for button in headless.COMMANDS:
                inputs: dict[str, Any] = {}
                if round_ == 0:  # a clean round: each button does its work
                    inputs = {
                        "import": {layout.IMPORT_SOURCE: PUZZLE},
                        "delete": {layout.DELETE_IDS: "1"},
                        "analyze": {layout.ANALYZE_STRING: PUZZLE},
                    }.get(button, {})
                else:
                    inputs = {name: _hostile_text(rng) for name in _TYPED.get(button, ())}
                _press(path, button, inputs, tally, source.name)
            path.unlink()
    return tally


def play(folder: Path, count: int, rng: random.Random) -> Tally:
    """Type *count* hostile Play from values and grid entries, then CHECK, HINT and SOLVE."""
    tally = Tally({"presses": 0, "tracebacks": 0, "lost parts": 0})
    path = folder / "play.xlsx"
    shutil.copy2(WORKBOOKS[0], path)
    _press(path, "start", {}, tally, path.name)
    for index in range(count):
        if index % 4 == 0:
            source = rng.choice([_hostile_text(rng), "Generator", "Analyze", "1"])
            _press(path, "play", {layout.PLAY_SOURCE: source}, tally, path.name)
            continue
        grid: list[list[Any]] = [[None] * 9 for _ in range(9)]
        for _ in range(rng.randrange(1, 4)):
            grid[rng.randrange(9)][rng.randrange(9)] = _hostile_text(rng)
        button = rng.choice(["check", "play-hint", "play-solve"])
        _press(path, button, {layout.PLAY_GRID: grid}, tally, path.name)
    return tally


def _process(tally: Tally, argv: list[str], deadline: float, what: str) -> Run:
    """Run ``xlsudoku ARGV`` with *deadline*; count a traceback, a silence or lateness."""
    run = cli(argv, timeout=deadline * 2)
    tally.add("runs")
    stopped = run.status == -signal.SIGKILL and run.seconds >= deadline * 2
    tally.add("stopped by the soak at twice the deadline" if stopped else f"exit {run.status}")
    if "Traceback (most recent call last)" in run.err:
        tally.add("tracebacks")
        tally.problem(f"{what}: traceback: {run.err.strip().splitlines()[-1][:200]}")
    elif run.status not in (0, 130) and not run.err.strip() and not stopped:
        tally.problem(f"{what}: exit {run.status} with nothing on standard error")
    if run.seconds > deadline * LATE:
        tally.add("past the deadline")
        how = ", stopped by the soak" if stopped else ""
        tally.problem(f"{what}: {run.seconds:.0f} s{how}, past its deadline of {deadline:g} s")
    return run


def imports(folder: Path, count: int, rng: random.Random) -> Tally:
    """IMPORT *count* huge ranges, each in a process with a deadline."""
    tally = Tally({"runs": 0, "tracebacks": 0, "past the deadline": 0})
    ranges = [
        "Generator!A1:XFD1048576",
        "Collection!A:A",
        "Generator!1:1048576",
        "'Generator'!A1:XFD1048576",
        "Play!A1:ZZ100000",
        "Collection!A1:XFD1",
    ]
    for index in range(count):
        path = folder / f"import-{index}{WORKBOOKS[index % 2].suffix}"
        shutil.copy2(WORKBOOKS[index % 2], path)
        source = ranges[index % len(ranges)] if index < len(ranges) else rng.choice(ranges)
        typed = {layout.IMPORT_SOURCE: source}
        headless.run("clear", path, inputs=typed)  # Import from holds the range now
        before = _parts(path)
        _process(tally, ["workbook", "import", str(path)], 30.0, f"IMPORT of {source}")
        lost = lost_parts(before, _parts(path))
        if lost:
            tally.add("lost parts", len(lost))
            tally.problem(f"IMPORT of {source}: lost {', '.join(lost[:4])}")
        path.unlink()
    return tally


def _records(folder: Path, name: str, lines: list[dict[str, Any]]) -> str:
    path = folder / name
    with open(path, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False, allow_nan=True) + "\n")
    return str(path)


def production(folder: Path, rng: random.Random) -> Tally:
    """Run ``daily``, ``stats`` and ``booklet`` with hostile arguments and records."""
    tally = Tally({"runs": 0, "tracebacks": 0, "past the deadline": 0})
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    record = {"puzzle": PUZZLE, "solution": solved, "level": "easy", "score": 1.5}
    files = {
        "text score": [record | {"score": "hard"}],
        "NaN score": [record | {"score": float("nan")}],
        "huge score": [record | {"score": 1e308}],
        "long level": [record | {"level": "x" * 1_000_000}],
        "Unicode level": [record | {"level": "Судоку 数独"}],
        "ungraded": [{"puzzle": PUZZLE}] * 20_000,
    }
    out = folder / "daily"
    out.mkdir(exist_ok=True)
    cases: list[tuple[list[str], float, str]] = []
    for name, lines in files.items():
        path = _records(out, f"{name.replace(' ', '-')}.jsonl", lines)
        cases.append((["stats", path, "--no-chart"], 60.0, f"stats of a {name}"))
        cases.append((["stats", path, "-o", str(out / "chart.svg")], 60.0, f"chart of {name}"))
        if len(lines) < 100:  # a booklet of thousands of puzzles is long work, not hostile
            pdf = str(out / "book.pdf")
            cases.append((["booklet", path, "-o", pdf, "--replace"], 60.0, f"booklet of {name}"))
    for title in ["Судоку", "数独 🧩", "ß" * 500, "\u202eright to left"]:
        path = _records(out, "one.jsonl", [record])
        argv = ["booklet", path, "-o", str(out / "t.pdf"), "--replace", "--title", title]
        cases.append((argv, 60.0, f"booklet --title {title[:12]!r}"))
    daily = ["daily", "--days", "1", "--per-day", "1", "--seed", "1"]
    for extra, deadline in [
        (["--from", "9999-12-31", "--days", "2"], 30.0),
        (["--from", "2026-13-45"], 30.0),
        (["--from", "2026-01-01", "-j", "1000001"], 60.0),
        (["--from", "2026-01-01", "-j", str(10**31)], 30.0),
        (["--from", "2026-01-01", "--days", str(10**30)], 30.0),
        (["--from", "2026-01-01", "--per-day", "-1"], 30.0),
        (["--from", "2026-01-01", "--mix", "Судоку"], 30.0),
        (["--from", "2026-01-01", "--opens", "١٧"], 30.0),
        (["--from", "2026-01-01", "--geometry", "16x16"], 120.0),
        (["--from", "2026-01-01", "--geometry", "12x12"], 120.0),
    ]:
        output = out / f"daily-{rng.randrange(10**9)}.jsonl"
        cases.append(([*daily, *extra, "-o", str(output), "--quiet"], deadline, f"daily {extra}"))
    for argv, deadline, what in cases:
        run = _process(tally, argv, deadline, what)
        if argv[0] == "daily" and run.status != 0:
            output = Path(argv[argv.index("-o") + 1])
            if output.exists() and output.stat().st_size == 0:
                tally.problem(f"{what}: exit {run.status} left an empty {output.name}")
    return tally


def _left_in_session(session: int) -> list[int]:
    """Return the processes of *session* still running (not zombies) (Linux /proc)."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            left.append(int(entry.name))
    return left


def batch_kills(folder: Path, count: int, rng: random.Random) -> Tally:
    """Kill *count* ``batch -j 2`` and ``daily -j 2`` runs mid-run; then check and resume."""
    tally = Tally({"kills": 0, "processes left": 0, "broken outputs": 0})
    if not Path("/proc").is_dir():
        tally.lines.append("  (no /proc: the processes left cannot be counted here)")
        return tally
    for index in range(count):
        output = folder / f"killed-{index}.jsonl"
        output.unlink(missing_ok=True)
        if index % 2:
            argv = ["daily", "--from", "2026-01-01", "--days", "4", "--per-day", "2"]
            argv += ["--seed", str(index), "-j", "2", "-o", str(output), "--quiet"]
            expected = 8
        else:
            argv = ["batch", "-n", "12", "--seed", str(index), "-j", "2"]
            argv += ["-o", str(output), "--quiet"]
            expected = 12
        process = subprocess.Popen(
            [sys.executable, "-m", "xlsudoku", *argv],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=default_sigint,
        )
        time.sleep(rng.uniform(0.5, 3.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        tally.add("kills")
        left: list[int] = []
        for _ in range(50):  # the workers see their parent gone within a few seconds
            left = _left_in_session(process.pid)
            if not left:
                break
            time.sleep(0.1)
        if left:
            tally.add("processes left", len(left))
            tally.problem(f"{argv[0]} killed: {len(left)} processes left ({left[:4]})")
            for pid in left:  # end what this soak started, by id
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if _whole_lines(output) is None:
            # a record cut by the kill is expected only last, and --resume must mend it
            if _whole_lines(output, but_last=True) is None:
                tally.add("broken outputs")
                tally.problem(f"{argv[0]} killed: {output.name} holds a broken record")
            else:
                tally.add("last record cut by the kill")
        resumed = cli([*argv, "--resume"], timeout=300)
        lines = _whole_lines(output)
        if resumed.status != 0 or lines is None or len(lines) != expected:
            tally.add("broken outputs")
            count_text = "unreadable" if lines is None else f"{len(lines)} records"
            tally.problem(
                f"{argv[0]} --resume after a kill: exit {resumed.status}, {count_text} "
                f"(expected {expected}): {resumed.err.strip()[-150:]!r}"
            )
        output.unlink(missing_ok=True)
    return tally


def _whole_lines(path: Path, but_last: bool = False) -> list[dict[str, Any]] | None:
    """Return the records of a JSON-lines *path* (none when missing); None when one is cut.

    With *but_last*, a last line without its end of line is left out, not counted as cut.
    """
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    if but_last and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    records = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            return None
    return records


def parts(
    args: argparse.Namespace, rng: random.Random
) -> list[tuple[str, Callable[[Path], Tally], str]]:
    """Return these families as soak parts: (name, run in a folder, goal)."""
    return [
        (
            "buttons",
            lambda folder: buttons(folder, args.button_rounds, rng),
            f"{args.button_rounds} rounds of 13 buttons on the Lite workbook and the .xlsm: "
            "0 tracebacks, 0 lost parts",
        ),
        (
            "play",
            lambda folder: play(folder, args.play, rng),
            "0 tracebacks, 0 lost parts",
        ),
        (
            "imports",
            lambda folder: imports(folder, args.imports, rng),
            "0 tracebacks, 0 lost parts, 0 runs past 30 s + 10%",
        ),
        (
            "production",
            lambda folder: production(folder, rng),
            "daily, stats, booklet: 0 tracebacks, 0 runs past their deadline + 10%, "
            "no empty set left",
        ),
        (
            "batch-kills",
            lambda folder: batch_kills(folder, args.batch_kills, rng),
            "0 processes left, 0 partial records, every --resume completes",
        ),
    ]


def run_soak(args: argparse.Namespace) -> int:
    """Run the soak with these families' parts beside :mod:`xlsudoku.bench.soak`'s own.

    *args* carries the command line's entry (``args.main``), which the parts run command lines
    through in-process.
    """
    return run_parts(args, args.main, more=parts)
