"""``xlsudoku bench WHAT``: every benchmark and the reliability soak, with their arguments.

The benchmarks live in :mod:`xlsudoku.bench`, one module per subject; this module holds the
one table of them, :data:`BENCHES`: each row names a benchmark's command word, its help, its
command-line arguments and the function of its module that runs it.  The parser is built from
the table without loading any benchmark; the benchmark modules are imported when one runs
(:func:`benchmarks`).  ``--save``
also writes what a benchmark prints to ``benchmarks/results/WHAT_MACHINE_DATE.txt``, headed by
the command line: one file per subject, machine and day, a later run of the day added to its end
(nothing is overwritten; git keeps the history).
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import io
import sys
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from xlsudoku.cli.inputs import add_geometry

if typing.TYPE_CHECKING:
    from xlsudoku.cli.shell import Subparsers

Arguments = Callable[[argparse.ArgumentParser], None]


def _processes(option: str) -> Callable[[str], int]:
    """Return the argparse type of a process count: at least 1, capped at the CPUs (said)."""
    whole = _at_least(1)

    def parse(text: str) -> int:
        from xlsudoku.cli.generate import capped_workers

        if len(text.strip()) > 4300:  # int() refuses longer digit strings
            raise argparse.ArgumentTypeError(f"{option} must be a whole number, got a huge one")
        return capped_workers(whole(text), option, "bench")

    return parse


def _at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


def _sections(known: Sequence[str]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [name for name in text.split(",") if name]
        for name in names:
            if name not in known:
                raise argparse.ArgumentTypeError(
                    f"unknown section {name!r} (known: {', '.join(known)})"
                )
        return names

    return parse


def _data(name: str) -> str:
    from xlsudoku.bench import shared_data

    return shared_data(name)


def _solve(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="puzzle file (one-line, .sdm, TSV, ...)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="use N puzzles (all)")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="with --limit: a random sample drawn with seed S (default: the first N)",
    )
    p.add_argument("--runs", type=_at_least(1), default=5, help="timed runs (default 5)")
    p.add_argument(
        "--solutions", type=_at_least(1), default=2, metavar="K", help="count up to K (2)"
    )
    p.add_argument("--qqwing", action="store_true", help="also time QQWing on the same puzzles")


def _fill(p: argparse.ArgumentParser) -> None:
    p.add_argument("--count", type=_at_least(1), default=2000, help="grids per run (2000)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--runs", type=_at_least(1), default=5, help="timed runs (default 5)")
    p.add_argument(
        "--size", type=int, default=9, choices=(4, 6, 9, 12, 16), help="grid side (default 9)"
    )


def _generate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seeds", type=_at_least(1), default=10, help="number of seeds (10)")
    p.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    p.add_argument("--count", type=int, default=100, help="minimal puzzles per seed (100)")
    p.add_argument("--qqwing", type=int, default=1000, metavar="N", help="QQWing puzzles (0 = no)")
    p.add_argument("--check", action="store_true", help="verify every minimal puzzle")
    p.add_argument(
        "--shapes", action="store_true", help="also time 6x6, 9x9-X, 12x12 and 16x16 requests"
    )


def _grade(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        nargs="?",
        default=_data("magictour_top1465_hodoku.tsv"),
        help="puzzle file (default: ../shared/data/magictour_top1465_hodoku.tsv)",
    )
    p.add_argument("--limit", type=int, default=200, help="random sample size (0 = all)")
    p.add_argument("--seed", type=int, default=7, help="sample seed (default 7)")
    p.add_argument("--hodoku", action="store_true", help="also rate them with hodoku-py")
    p.add_argument(
        "--profile", choices=("se", "sukaku"), default="se", help="rating profile (default se)"
    )


def _reglib(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        nargs="?",
        default=_data("hodoku_reglib-1.3.txt"),
        help="reglib file (default: ../shared/data/hodoku_reglib-1.3.txt)",
    )


SE_SECTIONS = ("unbiased", "sukaku", "hardest", "speed")


def _se(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--only",
        type=_sections(SE_SECTIONS),
        default=list(SE_SECTIONS),
        help="comma-separated sections (default: unbiased,sukaku,hardest,speed)",
    )
    p.add_argument("--seed", type=int, default=None, help="first sample seed (default: fresh)")
    p.add_argument("--unbiased", type=int, default=2000, help="unbiased sample size")
    p.add_argument("--repeat", type=int, default=3, help="unbiased samples drawn")
    p.add_argument("--hardest", type=int, default=375, help="hardest sample size")
    p.add_argument("--speed", type=int, default=200, help="top1465 sample size")
    p.add_argument(
        "--jobs",
        type=_processes("--jobs"),
        default=1,
        help="processes grading the agreement and hardest samples (speed: always one)",
    )
    p.add_argument("--unbiased-file", default=_data("cbg000_controlled_bias_minimal_SER.tsv"))
    p.add_argument("--sukaku-file", default=_data("sukaku_explainer_fixtures_ER_EP_ED.tsv"))
    p.add_argument("--hardest-file", default=_data("hardest_db_110626_rated.tsv"))
    p.add_argument("--speed-file", default=_data("magictour_top1465_hodoku.tsv"))


def _techniques(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        nargs="?",
        default=_data("magictour_top1465_hodoku.tsv"),
        help="puzzle file (default: ../shared/data/magictour_top1465_hodoku.tsv)",
    )
    p.add_argument("--limit", type=int, default=50, help="random sample size (0 = all)")
    p.add_argument("--seed", type=int, default=7, help="sample seed (default 7)")


def _levels(text: str) -> list[object]:
    from xlsudoku.bench.difficulty import parse_levels

    return list(parse_levels(text))


def _needs(text: str) -> list[object]:
    from xlsudoku.bench.difficulty import parse_techniques

    return list(parse_techniques(text))


def _numbers(text: str) -> list[int]:
    try:
        return [int(word) for word in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None


def _difficulty(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--levels",
        type=_levels,
        default=None,
        help="comma-separated levels (default: all, easy ... beyond); 'none' for no level",
    )
    p.add_argument("--opens", type=_numbers, default=[24, 26, 28, 30], help="comma-separated opens")
    p.add_argument(
        "--needs",
        type=_needs,
        default=[],
        help="comma-separated techniques to need (at --needs-opens), e.g. x-wing,jellyfish",
    )
    p.add_argument("--needs-opens", type=int, default=26, help="opens for --needs (26)")
    p.add_argument("--seeds", type=_at_least(1), default=5, help="seeds per target (default 5)")
    p.add_argument("--first-seed", type=int, default=1000, help="first seed (1000)")
    p.add_argument("--time-limit", type=float, default=None, help="seconds per puzzle (30)")


def _reach(p: argparse.ArgumentParser) -> None:
    p.add_argument("--targets", default="22,21,20", help="opens to time (22,21,20)")
    p.add_argument("--seeds", type=int, default=10, help="number of seeds (10; 0: QQWing alone)")
    p.add_argument("--first-seed", type=int, default=1, help="first seed (1)")
    p.add_argument(
        "--seconds", type=float, default=60.0, help="budget per run (60; work units for work)"
    )
    p.add_argument(
        "--clock",
        choices=("cpu", "wall", "work"),
        default="cpu",
        help="what the budget counts: cpu (default), wall or work (generate --budget KIND:...)",
    )
    p.add_argument(
        "--workers", type=_processes("--workers"), default=1, help="processes per run (1)"
    )
    p.add_argument("--pattern", default="none", help="pattern of the runs (none)")
    p.add_argument("--symmetry", default="rotate180", help="symmetry (rotate180)")
    add_geometry(p, "9x9")
    p.add_argument("--lowest", action="store_true", help="instead: the fewest opens")
    p.add_argument("--floors", action="store_true", help="instead: the floors table")
    p.add_argument(
        "--patterns",
        default="1,2,3,4,5,6,7,8,9,10,11,12,none",
        help="with --floors: patterns (1..12,none)",
    )
    p.add_argument("--symmetries", default="rotate180", help="with --floors: symmetries")
    p.add_argument(
        "--qqwing", type=float, default=0.0, metavar="SEC", help="QQWing for SEC seconds (0 = no)"
    )


def _target(text: str) -> object:
    from xlsudoku.bench.score import Target

    return Target.parse(text)


def _score(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--target",
        type=_target,
        action="append",
        default=None,
        metavar="RANGE[:SEEDS[:CPU]]",
        help="a score range, its seeds (10) and CPU seconds a run may spend (600); repeat for "
        "more (default 7.0-8.0:10:60)",
    )
    p.add_argument(
        "--first-seed", type=int, default=None, help="first seed (default: drawn, printed)"
    )
    p.add_argument(
        "--profile", choices=("se", "sukaku"), default="se", help="rating profile (default se)"
    )
    p.add_argument("--pattern", default="1", help="pattern of the runs: 1-12 or none (1)")
    p.add_argument(
        "--progress",
        action="store_true",
        help="print each new closest puzzle of a run as it is found (with its CPU seconds)",
    )


def _start(p: argparse.ArgumentParser) -> None:
    from xlsudoku.bench import PROJECT

    p.add_argument(
        "--workbook",
        type=Path,
        default=PROJECT / "workbooks" / "xlsudoku.xlsm",
        help="workbook to copy",
    )
    p.add_argument(
        "--runs", type=_at_least(5), default=10, help="runs (at least 5: the figures are medians)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of run 1 (run i: seed + i - 1)")
    p.add_argument(
        "--rows", type=_at_least(0), default=0, help="fill the Collection with ROWS rows first"
    )
    p.add_argument(
        "--as-excel",
        action="store_true",
        help="write the workbook's numbers as Excel does (the saved cells compared one by one)",
    )


def _whole(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--runs", type=_at_least(5), default=7, help="counted runs of each (at least 5; 7)"
    )
    p.add_argument(
        "--warmups", type=_at_least(0), default=1, help="rounds run first, not counted (1)"
    )
    p.add_argument(
        "--compile",
        action="store_true",
        help="compile xlsudoku's modules to bytecode first, as installing a wheel does",
    )


def _start_vs_openpyxl(p: argparse.ArgumentParser) -> None:
    from xlsudoku.bench import PROJECT

    p.add_argument(
        "--workbook",
        type=Path,
        default=PROJECT / "workbooks" / "xlsudoku.xlsm",
        help="workbook to copy (default: the bundled workbooks/xlsudoku.xlsm)",
    )
    p.add_argument(
        "--also",
        type=Path,
        default=None,
        metavar="WORKBOOK",
        help="also time the bare openpyxl load and save of WORKBOOK (C)",
    )
    _whole(p)


def _count_vs_qqwing(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        nargs="?",
        default=_data("magictour_top1465_hodoku.tsv"),
        help="puzzle file (default: ../shared/data/magictour_top1465_hodoku.tsv)",
    )
    _whole(p)


def _grade_vs_sukaku(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="puzzle file (one-line puzzles, TSV, ...), e.g. generated ones")
    p.add_argument(
        "--classpath",
        required=True,
        metavar="CP",
        help="SukakuExplainer built from its source: its folder of classes or its jar",
    )
    p.add_argument("--limit", type=_at_least(1), default=None, help="first N puzzles only")
    _whole(p)


def _graded_vs_main(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--main",
        required=True,
        dest="other_tree",
        metavar="TREE",
        help="the other tree (A), e.g. a git worktree of main at the commit before a change",
    )
    p.add_argument(
        "--levels",
        type=lambda text: [part for part in text.split(",") if part],
        default=["easy", "medium", "hard", "very-hard", "diabolical"],
        help="levels, comma-separated (default easy,medium,hard,very-hard,diabolical)",
    )
    p.add_argument("--seeds", type=_at_least(1), default=4, help="seeds per level (4)")
    p.add_argument("--first-seed", type=int, default=5000, help="first seed (5000)")
    p.add_argument("--opens", type=int, default=26, help="opens (26)")
    p.add_argument("--cpu", type=float, default=60.0, help="CPU seconds a run may use (60)")
    p.add_argument(
        "--compile",
        action="store_true",
        help="compile both trees' xlsudoku modules to bytecode first, as installing a wheel does",
    )


def _soak(p: argparse.ArgumentParser) -> None:
    p.add_argument("--writers", type=int, default=3, help="concurrent start;save pairs")
    p.add_argument("--rounds", type=int, default=50, help="rounds of the writers")
    p.add_argument("--kills", type=int, default=200, help="runs killed by SIGKILL")
    p.add_argument(
        "--interrupts",
        type=int,
        default=100,
        dest="interrupt_runs",  # args.interrupts is the command's own Ctrl+C handling
        help="runs given two SIGINTs",
    )
    p.add_argument("--params", type=int, default=10_000, help="fuzzed parameter values")
    p.add_argument("--whole-starts", type=int, default=100, help="of them through START")
    p.add_argument("--cli", type=int, default=1000, help="fuzzed command lines")
    p.add_argument("--files", type=int, default=500, help="hostile files through real commands")
    p.add_argument("--pipes", type=int, default=20, help="runs through a closed pipe")
    p.add_argument("--button-rounds", type=int, default=3, help="rounds of the 13 buttons")
    p.add_argument("--play", type=int, default=200, help="hostile Play sheet inputs")
    p.add_argument("--imports", type=int, default=6, help="IMPORTs of huge ranges")
    p.add_argument("--batch-kills", type=int, default=6, help="batch/daily runs killed mid-run")
    p.add_argument("--seed", type=int, default=1, help="seed of every random choice")
    p.add_argument(
        "--parts",
        default="writers,kills,interrupts,hostile,params,cli,files,buttons,play,imports,"
        "production,batch-kills",
        help="comma-separated parts to run (default: all)",
    )


def _batch(p: argparse.ArgumentParser) -> None:
    p.add_argument("--count", type=int, default=1000, help="puzzles for the scaling runs")
    p.add_argument("--big", type=int, default=10000, help="puzzles of the volume run")
    p.add_argument("--booklet", type=int, default=100, help="puzzles in the booklet (0: none)")
    p.add_argument("--seed", type=int, default=1, help="base seed of every batch")
    p.add_argument("--skip-scaling", action="store_true", help="only the volume run")
    p.add_argument("--workdir", help="keep the outputs here (default: a temporary folder)")


def _flushed(line: str) -> None:
    """Print *line* at once: a long search's progress shows while it runs, through a pipe too."""
    print(line, flush=True)


def benchmarks() -> ModuleType:
    """Return :mod:`xlsudoku.bench` with every benchmark module loaded, for a benchmark to run.

    The benchmarks load the engine, the add-in, openpyxl and data: they are imported here,
    when a benchmark runs, never when the parser is built (the command line imports only the
    standard library before a command runs).

    >>> benchmarks().solver.run_solve.__name__
    'run_solve'
    """
    import xlsudoku.bench.batch
    import xlsudoku.bench.difficulty
    import xlsudoku.bench.generator
    import xlsudoku.bench.graded
    import xlsudoku.bench.grading
    import xlsudoku.bench.lowclue
    import xlsudoku.bench.rating
    import xlsudoku.bench.score
    import xlsudoku.bench.soak_families
    import xlsudoku.bench.solver
    import xlsudoku.bench.start
    import xlsudoku.bench.techniques
    import xlsudoku.bench.whole

    return xlsudoku.bench


Runner = Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class Bench:
    """One benchmark: its command word, what it measures, its arguments and its function.

    ``function`` picks the benchmark's function out of the loaded benchmark package
    (:func:`benchmarks`); ``stem`` starts the name of its result files (default: the command
    word).
    """

    name: str
    help: str
    arguments: Arguments
    function: Callable[[ModuleType], Runner]
    stem: str = ""


# The one table of the benchmarks: each row is a command word, its help, its arguments and the
# function that runs it.
BENCHES = (
    Bench(
        "solve",
        "exact solver: count to 2 on a puzzle file",
        _solve,
        lambda bench: bench.solver.run_solve,
    ),
    Bench("fill", "random complete grids per second", _fill, lambda bench: bench.solver.run_fill),
    Bench(
        "generate",
        "puzzle generator, QQWing side by side",
        _generate,
        lambda bench: bench.generator.run,
    ),
    Bench("grade", "grader speed and agreement", _grade, lambda bench: bench.grading.run_grade),
    Bench(
        "reglib",
        "HoDoKu regression library pass counts",
        _reglib,
        lambda bench: bench.grading.run_reglib,
    ),
    Bench(
        "se",
        "Sudoku Explainer rating: agreement, the hardest, speed",
        _se,
        lambda bench: bench.rating.run_se,
    ),
    Bench(
        "techniques",
        "time spent in each finder",
        _techniques,
        lambda bench: bench.techniques.run_techniques,
    ),
    Bench(
        "reach",
        "low-clue search: time to reach 23..20 opens",
        _reach,
        lambda bench: functools.partial(bench.lowclue.run, out=_flushed),
    ),
    Bench(
        "difficulty",
        "generation to a level or technique: success per target",
        _difficulty,
        lambda bench: bench.difficulty.run,
    ),
    Bench(
        "score",
        "generation to a score range: hits and CPU time on fresh seeds",
        _score,
        lambda bench: functools.partial(bench.score.run, out=_flushed),
    ),
    Bench("start", "START end to end on the workbook file", _start, lambda bench: bench.start.run),
    Bench(
        "start-vs-openpyxl",
        "START as a whole process beside a bare openpyxl load and save, in turn",
        _start_vs_openpyxl,
        lambda bench: bench.whole.run_start,
        stem="start_vs_openpyxl",
    ),
    Bench(
        "count-vs-qqwing",
        "count as a whole process beside QQWing's, in turn",
        _count_vs_qqwing,
        lambda bench: bench.whole.run_count,
        stem="count_vs_qqwing",
    ),
    Bench(
        "grade-vs-sukaku",
        "grade --profile sukaku as a whole process beside SukakuExplainer's rater, in turn",
        _grade_vs_sukaku,
        lambda bench: bench.whole.run_sukaku,
        stem="grade_vs_sukaku",
    ),
    Bench(
        "graded-vs-main",
        "CPU per accepted graded puzzle, another tree against this one, in turn",
        _graded_vs_main,
        lambda bench: bench.graded.run,
        stem="graded_vs_main",
    ),
    Bench(
        "batch",
        "batch production and booklets, scaling and volume",
        _batch,
        lambda bench: bench.batch.run_bench,
    ),
    Bench(
        "soak",
        "reliability soak: concurrent writers, kills, Ctrl+C, hostile files",
        _soak,
        lambda bench: bench.soak_families.run_soak,
    ),
)


def _add_bench(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmarks and the reliability soak; see bench WHAT --help",
        description="Run a benchmark; each prints its data set, seed, CPU and wall time and "
        "the load.",
    )
    whats = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    for bench in BENCHES:
        q = whats.add_parser(bench.name, help=bench.help, description=bench.help)
        bench.arguments(q)
        q.add_argument(
            "--save",
            nargs="?",
            const="benchmarks/results",
            default=None,
            metavar="FOLDER",
            help="also write the report to FOLDER/WHAT_MACHINE_DATE.txt (default folder "
            "benchmarks/results)",
        )
        q.set_defaults(run=_run_bench, bench=bench)


def result_path(folder: Path, what: str, machine: str, day: dt.date) -> Path:
    """Return the result file of *what* on *machine* on *day*: one file per subject a day.

    A second run of the day is added to the end of the same file (git keeps the history).

    >>> result_path(Path("/nonexistent"), "se", "box-1", dt.date(2026, 11, 27)).name
    'se_box-1_2026-11-27.txt'
    """
    return folder / f"{what}_{machine}_{day.isoformat()}.txt"


class _Tee(io.TextIOBase):
    """Standard output that is also kept, to be written to a result file."""

    def __init__(self, stream: typing.TextIO) -> None:
        self.stream = stream
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _is_result_file(path: Path) -> bool:
    """Return True when *path* holds saved benchmark runs (a run of the day is added to it)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read(12).startswith(("$ xlsudoku ", "# "))


def _run_bench(args: argparse.Namespace) -> int:
    bench: Bench = args.bench
    if args.save is None:
        return int(bench.function(benchmarks())(args))
    from xlsudoku.cli.outputs import check_output
    from xlsudoku.errors import UnusableFile
    from xlsudoku.xlsm.files import inspect_target

    folder = Path(args.save)
    found = inspect_target(folder)
    if found.kind not in ("folder", "missing"):
        what = found.special or "a file"
        raise UnusableFile(f"--save {folder}: {what}, not a folder; the benchmark was not run")
    folder.mkdir(parents=True, exist_ok=True)
    run = bench.function(benchmarks())
    tee = _Tee(sys.stdout)
    stdout, sys.stdout = sys.stdout, typing.cast(typing.TextIO, tee)
    try:
        status = int(run(args))
    finally:
        sys.stdout = stdout
    import platform  # only a saved run names its machine: not worth loading for every command

    machine = platform.node().split(".")[0] or "machine"
    path = check_output(
        result_path(folder, bench.stem or bench.name, machine, dt.date.today()),
        option="--save",
        ours=_is_result_file,
    )
    command = " ".join(["xlsudoku", *getattr(args, "argv", ["bench", bench.name])])
    with open(path.real, "a", encoding="utf-8") as handle:  # "a": a run of the day is added
        separator = "\n" if handle.tell() else ""
        handle.write(f"{separator}$ {command}\n{tee.kept.getvalue()}")
    print(f"saved {path.path}")
    return status


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("bench",)
COMMANDS = (_add_bench,)
