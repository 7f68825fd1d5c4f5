"""The ``batch``, ``daily``, ``booklet`` and ``stats`` commands of the ``xlsudoku`` command line.

``xlsudoku batch`` makes many graded puzzles on every core (``--jobs``) or a Dask cluster
(``--scheduler``), written as they are done to JSON lines or CSV (and optionally a puzzle file
in one of the engine's formats); ``--resume`` continues a killed or cancelled run.
``xlsudoku booklet`` prints puzzles to a PDF.  Exit status: 0 done, 1 bad input lines (booklet),
2 a bad option, 3 a file that cannot be used, 5 fewer puzzles than asked (batch: ``--attempts``
ran out first), 130 interrupted.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
import typing
from collections.abc import Callable

from xlsudoku.cli.generate import (
    add_score_options,
    add_time_limit,
    level_arg,
    number_text,
    run_seconds,
    seconds_arg,
    seed_arg,
    symmetry_arg,
    target_givens_of,
    technique_arg,
)
from xlsudoku.cli.inputs import SHEETS, add_profile, geometry_arg, ids_arg

if typing.TYPE_CHECKING:
    from xlsudoku.cli.shell import Subparsers
    from xlsudoku.interrupts import Interrupts
    from xlsudoku.production.batch import Sink, Summary
    from xlsudoku.production.executors import Executor
    from xlsudoku.production.spec import BatchSpec
    from xlsudoku.production.store import BatchFile, Kept


def _list_of(parse: Callable[[str], object]) -> Callable[[str], list[object]]:
    def parse_list(text: str) -> list[object]:
        return [parse(part) for part in text.split(",") if part.strip()]

    return parse_list


def _opens_arg(text: str) -> list[tuple[int, bool]]:
    from xlsudoku.production.spec import parse_target_givens

    try:
        return parse_target_givens(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"opens: {error} (use 26, 24-28 or 22,24,26)") from None


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _add_batch(sub: Subparsers) -> None:
    p = sub.add_parser(
        "batch",
        help="many graded puzzles on every core or a Dask cluster, resumable",
        description=(
            "Generate COUNT distinct graded puzzles: item i uses seed S+i and the request's "
            "variant i mod k (one per opens value and difficulty).  Records (puzzle, "
            "solution, index, seed, opens, level, score, hardest technique and the request) "
            "are appended to --output as they are done, in item order, the same on any "
            "number of processes or a Dask cluster.  Duplicates (same puzzle string) are "
            "skipped.  --resume continues a killed or cancelled run without repeating a seed. "
            "Ctrl+C, or the whole run's --time-limit, stops at once: the puzzles written are "
            "kept, those in progress are made again by --resume.  Exit status: 0 done, 5 fewer "
            "puzzles than asked (--attempts or --time-limit ran out), 130 Ctrl+C."
        ),
    )
    p.add_argument("-n", "--count", type=_positive, default=100, help="puzzles (default 100)")
    p.add_argument(
        "--opens",
        type=_opens_arg,
        default=None,
        help="clues: 26, a range 24-28 (the reachable values, in turn) or a list (default per "
        "shape, as generate's); with --score, the most clues allowed (default: no ceiling)",
    )
    p.add_argument(
        "--pattern",
        default=None,
        help="center-box preset 1-12, a mask, or none (default 1 on 9x9 and 9x9-X, else none)",
    )
    p.add_argument("--symmetry", type=symmetry_arg, default="rotate180", help="clue symmetry")
    p.add_argument("--trials", type=int, default=299, help="attempts per puzzle (default 299)")
    add_time_limit(
        p, "batch", "the puzzles in progress are stopped and those written are kept (--resume)"
    )
    p.add_argument(
        "--item-time-limit",
        type=seconds_arg,
        default=None,
        metavar="SEC",
        help="seconds each puzzle's search may take (default: the generator's, 60 s for deep "
        "targets, else none)",
    )
    p.add_argument(
        "--geometry", type=geometry_arg, default="9x9", help="9x9, 9x9-X, 4x4, 6x6, 12x12, 16x16"
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--difficulty",
        type=_list_of(level_arg),
        default=[],
        metavar="LEVELS",
        help="levels in turn, e.g. easy,medium,hard,very-hard,diabolical",
    )
    group.add_argument(
        "--needs",
        type=_list_of(technique_arg),
        default=[],
        metavar="TECHNIQUES",
        help="techniques in turn, e.g. x-wing,xy-wing",
    )
    add_score_options(p, group.add_argument)
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=None,
        help="base seed, 0 or more (default: drawn, reported)",
    )
    p.add_argument(
        "--attempts",
        type=_positive,
        default=None,
        metavar="N",
        help="seeds to try at most (default 10 x COUNT + 100): duplicates and misses use seeds",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        default=None,
        help="worker processes, also of --scheduler local (default: all cores)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="Dask scheduler (tcp://host:8786, a scheduler file) or 'local' for a local cluster",
    )
    p.add_argument("-o", "--output", metavar="PATH", help="records file (.jsonl or .csv); stdout")
    p.add_argument("--format", choices=("jsonl", "csv"), default=None, help="records format")
    p.add_argument("--puzzles", metavar="PATH", help="also write the puzzles alone to PATH")
    p.add_argument(
        "--puzzle-format",
        choices=("line", "sdm", "sdk", "ss", "grid"),
        default=None,
        help="format of --puzzles (default: from its extension, else line)",
    )
    p.add_argument("--resume", action="store_true", help="continue the batch in --output")
    p.add_argument("--chunk", type=_positive, default=None, help="items per task (default auto)")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", help="progress bar even without a tty")
    shown.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    add_profile(p)
    p.set_defaults(run=_run_batch)


def _pattern(text: str) -> int | str | None:
    text = text.strip()
    if text.lower() in ("none", ""):
        return None
    return int(text) if text.isascii() and text.isdigit() else text


def _spec(args: argparse.Namespace, seed: int) -> BatchSpec:
    from xlsudoku.engine.generate import GenerateRequest, default_givens, default_pattern
    from xlsudoku.production.spec import BatchSpec, make_variants

    # with a score the opens are a ceiling, none unless asked for
    ceiling = default_givens(args.geometry) if args.score is None else args.geometry.cell_count
    target_givens = args.opens or [(ceiling, False)]
    base = GenerateRequest(
        target_givens=target_givens[0][0],
        pattern=default_pattern(args.geometry) if args.pattern is None else _pattern(args.pattern),
        trials=args.trials,
        symmetry=args.symmetry,
        time_limit=args.item_time_limit,
        geometry=args.geometry,
        score=args.score,
        profile=args.profile,
    )
    variants = make_variants(base, target_givens, args.difficulty, args.needs)
    attempts = args.attempts if args.attempts is not None else 10 * args.count + 100
    return BatchSpec(variants, seed, args.count, attempts)


def _check_kept(spec: BatchSpec, kept: Kept, path: str) -> None:
    """Raise StoreError when the file was made by another request or seed."""
    from xlsudoku.production.spec import request_fields
    from xlsudoku.production.store import StoreError

    for record in kept.records:
        index = int(str(record["index"]))
        expected = {"seed": spec.seed + index, **request_fields(spec.request(index))}
        for name, value in expected.items():
            if record.get(name) != value:
                raise StoreError(
                    f"{path}: item {index} was made with {name} {record.get(name)!r}, this run "
                    f"asks for {value!r}: resume with the options that made the file"
                )


def _base_seed(args: argparse.Namespace, kept: Kept) -> tuple[int, bool]:
    """Return the batch's base seed and whether it was drawn now."""
    import random

    from xlsudoku.production.store import StoreError

    found = None
    if kept.spec is not None:
        found = int(kept.spec["seed"])
    elif kept.records:
        first = kept.records[0]
        found = int(str(first["seed"])) - int(str(first["index"]))
    if found is not None and args.seed is not None and args.seed != found:
        raise StoreError(f"the file was made with --seed {found}, not {args.seed}")
    if found is not None:
        return found, False
    if args.seed is not None:
        return args.seed, False
    return random.SystemRandom().randrange(1 << 32), True


def _open_output(args: argparse.Namespace) -> BatchFile:
    """Return the batch's output files, once their paths are checked (nothing written yet).

    Raises:
        UnusableFile: an output is a special file, a workbook, a file the batch did not make,
            or ``-o`` and ``--puzzles`` name the same file.
    """
    from pathlib import Path

    from xlsudoku.cli.outputs import check_output
    from xlsudoku.engine.formats import PuzzleFormat
    from xlsudoku.errors import UnusableFile
    from xlsudoku.production.store import BatchFile, PuzzleFile, format_of

    fmt = format_of(args.output, args.format) if args.output else (args.format or "jsonl")
    records = None
    if args.output:
        # an existing records file is the store's to judge: --resume continues it, else refused
        records = check_output(args.output, option="-o", ours=lambda _: True).real
    puzzles = None
    if args.puzzles:
        out = check_output(args.puzzles, option="--puzzles", ours=lambda _: args.resume)
        if records is not None and out.real == records:
            raise UnusableFile(f"-o and --puzzles name the same file {args.puzzles}")
        name = args.puzzle_format or Path(args.puzzles).suffix or "line"
        try:
            puzzle_format = PuzzleFormat.parse(name)
        except ValueError:
            puzzle_format = PuzzleFormat.LINE
        puzzles = PuzzleFile(str(out.real), puzzle_format)
    return BatchFile(None if records is None else str(records), fmt, puzzles)


def _run_batch(args: argparse.Namespace) -> int:
    from xlsudoku.engine.generate import GenerateError
    from xlsudoku.errors import Exit
    from xlsudoku.interrupts import Interrupts
    from xlsudoku.production.executors import ExecutorError, make_executor
    from xlsudoku.production.store import StoreError

    stop = _Deadline(args, "batch", getattr(args, "interrupts", None) or Interrupts())
    try:
        spec = _spec(args, 0)  # checked before any file is touched; the seed comes next
        output = _open_output(args)
        kept = output.open(args.resume)
    except (GenerateError, ValueError) as error:
        print(f"xlsudoku batch: {error}", file=sys.stderr)
        return Exit.USAGE
    except (StoreError, OSError) as error:
        print(f"xlsudoku batch: {error}", file=sys.stderr)
        return Exit.UNUSABLE_FILE
    try:
        seed, drawn = _base_seed(args, kept)
        spec = dataclasses.replace(spec, seed=seed)
        _check_kept(spec, kept, str(args.output))
        output.set_spec(spec.fields())
        if drawn and not args.quiet:
            print(f"xlsudoku batch: seed {seed}", file=sys.stderr)
        if len(kept.records) >= spec.count:
            if not args.quiet:
                print(f"xlsudoku batch: {args.output} already has {len(kept.records)} puzzles")
            return 0
        jobs = _jobs(args, spec, kept.next_index)
        executor = make_executor(jobs, args.scheduler, stop)
    except KeyboardInterrupt:
        output.discard()  # Ctrl+C before the first puzzle: no file of this run is left
        raise
    except (StoreError, GenerateError, ExecutorError, ValueError) as error:
        output.discard()
        print(f"xlsudoku batch: {error}", file=sys.stderr)
        if isinstance(error, StoreError):
            return Exit.UNUSABLE_FILE
        return Exit.ENVIRONMENT if isinstance(error, ExecutorError) else Exit.USAGE
    seen = {str(r["puzzle"]) for r in kept.records}
    return _produce(args, "batch", spec, executor, stop, output, output, kept.next_index, seen)


class _Deadline:
    """The stop hook of a batch or daily run: Ctrl+C, or the whole run's time limit."""

    def __init__(self, args: argparse.Namespace, command: str, interrupts: Interrupts) -> None:
        seconds, self.said = run_seconds(args, command)
        self.at = time.monotonic() + seconds
        self.interrupts = interrupts

    def late(self) -> bool:
        return time.monotonic() > self.at

    def __call__(self) -> bool:
        return bool(self.interrupts.requested()) or self.late()


def _produce(
    args: argparse.Namespace,
    command: str,
    spec: BatchSpec,
    executor: Executor,
    stop: _Deadline,
    sink: Sink,
    output: BatchFile,
    start: int,
    seen: set[str],
    key: Callable[[str], str] | None = None,
) -> int:
    """Run the batch of a ``batch`` or ``daily`` command to its end, Ctrl+C or deadline.

    *seen* holds the puzzles already written, as *key* reads them (a repeat is refused).

    Returns:
        The exit status: 0 done, 5 fewer puzzles than asked (attempts or the time limit ran
        out), 4 the executor failed, 130 Ctrl+C.
    """
    from xlsudoku.errors import Exit
    from xlsudoku.production.batch import run_batch
    from xlsudoku.production.executors import ExecutorError

    started = time.perf_counter()
    bar, progress = _progress(args, spec.count, len(seen))
    summary = None
    interrupts = stop.interrupts
    where = args.output or "standard output"
    interrupts.state = f"{where} keeps every puzzle written so far"
    resume = "continue with the same command and --resume"
    try:
        # a first Ctrl+C stops the run at once (what is written stays); a second raises
        with interrupts.cooperative():
            summary = run_batch(
                spec,
                executor,
                sink,
                start=start,
                seen=seen,
                key=key,
                chunk_size=getattr(args, "chunk", None),
                progress=progress,
                stop=stop,
            )
        stopped = interrupts.requested()
    except KeyboardInterrupt:
        stopped = True
    except ExecutorError as error:
        print(f"xlsudoku {command}: {error}", file=sys.stderr)
        if args.output:
            print(f"  {resume}", file=sys.stderr)
        return Exit.ENVIRONMENT
    finally:
        if bar is not None:
            bar.close()
        output.discard()  # closes; a file this run made and wrote nothing to is not left
    if summary is None or stopped:
        done = "the puzzles written" if summary is None else f"{summary.have} puzzles"
        print(f"xlsudoku {command}: interrupted; {where} keeps {done}", file=sys.stderr)
        if args.output:
            print(f"  {resume}", file=sys.stderr)
        return Exit.INTERRUPTED
    if not args.quiet:
        report = _report(summary, spec, where, executor.name, time.perf_counter() - started)
        print(report.replace("xlsudoku batch:", f"xlsudoku {command}:", 1), file=sys.stderr)
    if summary.have >= spec.count:
        return 0
    if stop.late():
        print(
            f"xlsudoku {command}: the time limit of the whole run ran out ({stop.said}): "
            f"{summary.have} of {spec.count} puzzles in {where}, the rest not made"
            + (f"; {resume}" if args.output else ""),
            file=sys.stderr,
        )
        return Exit.GOAL_NOT_MET
    print(
        f"xlsudoku {command}: {summary.have} of {spec.count} puzzles: --attempts "
        f"{spec.attempts} ran out first (next seed {spec.seed + summary.next_index}); raise "
        "--attempts" + (" and continue with --resume" if args.output else ""),
        file=sys.stderr,
    )
    return Exit.GOAL_NOT_MET


def _jobs(args: argparse.Namespace, spec: BatchSpec, start: int, command: str = "batch") -> int:
    """Return the worker processes for ``-j``: at most the CPUs and the chunks (say so)."""
    from xlsudoku.production.batch import FAST_CHUNK, is_slow
    from xlsudoku.production.executors import all_cores, capped_jobs

    size = args.chunk or (1 if is_slow(spec) else FAST_CHUNK)
    chunks = -(-max(spec.attempts - start, 0) // size)
    asked = args.jobs or all_cores()
    if args.scheduler is not None and args.scheduler != "local":
        return asked  # the cluster's workers, not this machine's processes
    jobs, why = capped_jobs(asked, chunks, all_cores())
    if why and args.jobs is not None and not args.quiet:
        print(f"xlsudoku {command}: -j {number_text(args.jobs)} capped at {jobs} ({why})",
              file=sys.stderr)  # fmt: skip
    return jobs


def _progress(
    args: argparse.Namespace, total: int, initial: int
) -> tuple[typing.Any, Callable[[Summary], None] | None]:
    if args.quiet or not (args.progress or sys.stderr.isatty()):
        return None, None
    from tqdm import tqdm  # type: ignore[import-untyped]

    bar = tqdm(total=total, initial=initial, unit="puzzle", file=sys.stderr, dynamic_ncols=True)

    def update(summary: Summary) -> None:
        bar.update(summary.have - bar.n)
        if summary.duplicates or summary.missed:
            bar.set_postfix_str(f"{summary.duplicates} dup, {summary.missed} missed", refresh=False)

    return bar, update


def _report(summary: Summary, spec: BatchSpec, where: str, name: str, seconds: float) -> str:
    rate = summary.added / seconds if seconds > 0 else 0.0
    levels = ", ".join(f"{level} {n}" for level, n in sorted(summary.levels.items()))
    lines = [
        f"xlsudoku batch: {summary.have} of {spec.count} puzzles in {where}: {summary.added} "
        f"added in {seconds:.1f} s ({rate:.1f} puzzles/s, {name}); {summary.tried} seeds "
        f"tried ({summary.duplicates} duplicates, {summary.missed} not reached)",
    ]
    if levels:
        lines.append(f"  levels added: {levels}")
    if summary.have < spec.count and summary.next_index >= spec.attempts:
        lines.append(
            f"  stopped at --attempts {spec.attempts} (next seed {spec.seed + summary.next_index})"
        )
    lines.extend(f"  not reached: {miss}" for miss in summary.misses)
    return "\n".join(lines)


def _date_arg(text: str) -> object:
    import datetime as dt

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _add_daily(sub: Subparsers) -> None:
    p = sub.add_parser(
        "daily",
        help="dated puzzle sets: so many a day, a mix of levels, none repeated",
        description=(
            "Make a daily set: --per-day puzzles for each of --days days from --from, the "
            "levels of --mix in turn, written as JSON lines (date, number, level, score, "
            "puzzle, solution and what batch records carry).  It is a batch underneath: the "
            "same seed gives the same set on any number of processes or a Dask cluster, no "
            "puzzle repeats in the set, and --resume continues it or extends it by more days "
            "without repeating a puzzle already in the file.  Ctrl+C, or the whole run's "
            "--time-limit, stops at once and keeps the puzzles written.  Exit status: 0 done, "
            "5 fewer puzzles than asked (--time-limit ran out), 130 Ctrl+C."
        ),
    )
    p.add_argument("--from", dest="first", type=_date_arg, required=True, metavar="DATE")
    p.add_argument("--days", type=_positive, required=True, help="days in the set")
    p.add_argument("--per-day", type=_positive, required=True, help="puzzles a day")
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--mix",
        type=_list_of(level_arg),
        default=[],
        metavar="LEVELS",
        help="levels in turn, e.g. easy,medium,hard (default: any level)",
    )
    add_score_options(p, group.add_argument)
    p.add_argument(
        "--opens",
        type=int,
        default=None,
        help="clues (default per shape, as generate's); with --score, the most allowed (default: "
        "no ceiling)",
    )
    p.add_argument(
        "--geometry", type=geometry_arg, default="9x9", help="9x9, 9x9-X, 4x4, 6x6, 12x12, 16x16"
    )
    add_time_limit(
        p, "daily", "the puzzles in progress are stopped and those written are kept (--resume)"
    )
    p.add_argument(
        "--seed", type=seed_arg, default=None, help="base seed, 0 or more (default: drawn)"
    )
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="the set (.jsonl)")
    p.add_argument("--resume", action="store_true", help="continue or extend --output")
    p.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        default=None,
        help="worker processes, also of --scheduler local (default and most: all cores)",
    )
    p.add_argument("--scheduler", metavar="ADDRESS", default=None, help="a Dask scheduler")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", help="progress bar even without a tty")
    shown.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    add_profile(p)
    p.set_defaults(run=_run_daily, format="jsonl", puzzles=None, puzzle_format=None)


def _run_daily(args: argparse.Namespace) -> int:
    import functools
    from pathlib import Path

    from xlsudoku.engine.generate import (
        GenerateError,
        GenerateRequest,
        default_pattern,
    )
    from xlsudoku.errors import Exit
    from xlsudoku.interrupts import Interrupts
    from xlsudoku.production.daily import (
        DailySpec,
        DatedSink,
        batch_spec,
        check_dates,
        repeat_key,
    )
    from xlsudoku.production.executors import ExecutorError, make_executor
    from xlsudoku.production.store import StoreError

    stop = _Deadline(args, "daily", getattr(args, "interrupts", None) or Interrupts())
    daily = DailySpec(args.first, args.days, args.per_day)
    base = GenerateRequest(
        target_givens=target_givens_of(args),
        pattern=default_pattern(args.geometry),
        geometry=args.geometry,
        score=args.score,
        profile=args.profile,
    )
    if Path(args.output).suffix.lower() not in (".jsonl", ".ndjson"):
        print("xlsudoku daily: --output must be a .jsonl file (JSON lines)", file=sys.stderr)
        return Exit.USAGE
    try:
        daily.check()
        batch_spec(daily, base, args.mix, 0)  # checked before any file is touched
        output = _open_output(args)
        kept = output.open(args.resume)
    except (GenerateError, ValueError) as error:
        print(f"xlsudoku daily: {error}", file=sys.stderr)
        return Exit.USAGE
    except (StoreError, OSError) as error:
        print(f"xlsudoku daily: {error}", file=sys.stderr)
        return Exit.UNUSABLE_FILE
    try:
        check_dates(kept.records, daily, args.output)
        seed, drawn = _base_seed(args, kept)
        spec = batch_spec(daily, base, args.mix, seed)
        _check_kept(spec, kept, args.output)
        output.set_spec(spec.fields())
        if drawn and not args.quiet:
            print(f"xlsudoku daily: seed {seed}", file=sys.stderr)
        if len(kept.records) >= spec.count:
            output.close()
            print(f"xlsudoku daily: {args.output} already holds the {spec.count} puzzles")
            return 0
        args.chunk = None
        jobs = _jobs(args, spec, kept.next_index, "daily")
        executor = make_executor(jobs, args.scheduler, stop)
    except KeyboardInterrupt:
        output.discard()  # Ctrl+C before the first puzzle: no file of this run is left
        raise
    except (StoreError, ExecutorError, ValueError) as error:
        output.discard()
        print(f"xlsudoku daily: {error}", file=sys.stderr)
        if isinstance(error, StoreError | ValueError):
            return Exit.UNUSABLE_FILE
        return Exit.ENVIRONMENT
    sink = DatedSink(output, daily, have=len(kept.records))
    # a repeat is the same puzzle up to the Sudoku symmetries, not only the same string
    key = functools.partial(repeat_key, geometry=args.geometry)
    seen = {key(str(r["puzzle"])) for r in kept.records}
    return _produce(
        args, "daily", spec, executor, stop, sink, output, kept.next_index, seen, key=key
    )


def _add_stats(sub: Subparsers) -> None:
    p = sub.add_parser(
        "stats",
        help="a table and a chart of a set: puzzles per level, scores, opens per level",
        description=(
            "Print what the puzzles of FILE are like (a batch, a daily set, a workbook's "
            "Collection, a puzzle file: puzzles per level, their opens, the scores) and draw "
            "it to a PNG or SVG (matplotlib: pip install 'xlsudoku[charts]')."
        ),
    )
    p.add_argument("source", metavar="FILE", help="a batch, daily set, workbook or puzzle file")
    p.add_argument(
        "-o", "--output", metavar="CHART", help="the chart, .png or .svg (default FILE.png)"
    )
    p.add_argument("--no-chart", action="store_true", help="print the table only")
    p.add_argument("--sheet", choices=SHEETS, default="all", help="which puzzles of a workbook")
    add_time_limit(
        p,
        "stats",
        "the puzzles without a level or score not graded yet are counted as not graded",
    )
    p.set_defaults(run=_run_stats)


def _run_stats(args: argparse.Namespace) -> int:
    from pathlib import Path

    from xlsudoku.cli.inputs import report_bad
    from xlsudoku.engine.grid import SudokuError
    from xlsudoku.errors import EnvironmentFault, Exit, UnusableFile
    from xlsudoku.interrupts import Interrupts
    from xlsudoku.production.inputs import Entry, read_entries
    from xlsudoku.production.stats import MissingExtra, chart, collect, table

    stop = _Deadline(args, "stats", getattr(args, "interrupts", None) or Interrupts())
    try:
        found = read_entries(args.source, args.sheet)
    except SudokuError as error:
        raise UnusableFile(f"{error}") from None
    entries: list[Entry] = []
    for label, item in found:
        if isinstance(item, SudokuError):
            report_bad(f"{args.source} {label}", item)
        else:
            entries.append(item)
    if not entries:
        print(f"xlsudoku stats: no puzzle in {args.source}", file=sys.stderr)
        return 1
    # a first Ctrl+C stops the grading: the table and chart show what was graded
    with stop.interrupts.cooperative():
        stats = collect(entries, stop)
    print(table(stats))
    status = Exit.OK
    if stats.ungraded:
        why = "Ctrl+C" if stop.interrupts.requested() else f"the time limit ({stop.said})"
        print(
            f"xlsudoku stats: {stats.ungraded:,} of {stats.count:,} puzzles without a level "
            f"were not graded: {why} stopped the grading; they are counted as not graded",
            file=sys.stderr,
        )
        status = Exit.INTERRUPTED if stop.interrupts.requested() else Exit.GOAL_NOT_MET
    if args.no_chart:
        return status
    target = Path(args.output or Path(args.source).with_suffix(".png"))
    if target.suffix.lower() not in (".png", ".svg"):
        print("xlsudoku stats: the chart is a .png or .svg file", file=sys.stderr)
        return 2
    if target.exists():  # never over a file this command did not make in this run
        raise UnusableFile(f"{target} exists: remove it or choose another --output")
    try:
        chart(stats, target, Path(args.source).name)
    except MissingExtra as error:
        raise EnvironmentFault(str(error)) from None
    print(f"chart: {target}")
    return status


# The booklet's layouts and papers (xlsudoku.production.booklet; a test holds them equal): the
# parser is built without loading fpdf2.
PER_PAGE = (1, 2, 4, 6, 9, 12)
PAPERS = ("a4", "letter")


def _add_booklet(sub: Subparsers) -> None:
    p = sub.add_parser(
        "booklet",
        help="print puzzles to a PDF booklet with an answer key",
        description=(
            "Make a print-ready PDF of the puzzles of INPUT: a batch file (.jsonl, or .csv with "
            "a header), any puzzle file the engine reads, or a workbook's Collection (.xlsx, "
            ".xlsm).  N puzzles per page with title, level and id under each, page numbers, "
            "and the answer key at the back.  Missing solutions are solved and missing levels "
            "graded; bad or non-unique puzzles are reported by line or cell and left out."
        ),
    )
    p.add_argument("source", nargs="?", default="-", metavar="INPUT", help="input file, - stdin")
    p.add_argument("-o", "--output", metavar="PDF", help="the PDF (default: INPUT with .pdf)")
    p.add_argument("--per-page", type=int, choices=PER_PAGE, default=4, help="puzzles per page")
    p.add_argument(
        "--answers-per-page", type=int, choices=PER_PAGE, default=9, help="answers per page"
    )
    p.add_argument("--no-answers", action="store_true", help="leave out the answer key")
    p.add_argument("--paper", choices=PAPERS, default="a4", help="a4 (default), letter")
    p.add_argument("--title", default="Sudoku", help="title on each page and caption")
    p.add_argument("--sheet", choices=SHEETS, default="all", help="which puzzles of a workbook")
    p.add_argument("--csv", action="store_true", help="read the input as CSV")
    p.add_argument("--no-grade", action="store_true", help="do not grade puzzles without a level")
    p.add_argument(
        "--ids",
        type=ids_arg,
        metavar="IDS",
        help="print only these, such as 3,7-12: a workbook's Collection ids, or the record "
        "numbers of a batch or puzzle file (1 = the first)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="after the answer key, print every step of each puzzle's path in words (the "
        "recorded profile's, else --profile's; what `xlsudoku explain` prints)",
    )
    add_profile(p)
    p.add_argument(
        "--replace",
        action="store_true",
        help="replace an existing PDF that is not an earlier xlsudoku booklet",
    )
    p.set_defaults(run=_run_booklet)


def _run_booklet(args: argparse.Namespace) -> int:
    from pathlib import Path

    from xlsudoku.cli.inputs import report_bad
    from xlsudoku.cli.outputs import check_output
    from xlsudoku.engine.grid import ParseError, SudokuError
    from xlsudoku.errors import Exit, os_error_message
    from xlsudoku.production.booklet import (
        BookletOptions,
        made_by_booklet,
        page_count,
        require_fpdf,
        write_booklet,
    )
    from xlsudoku.production.inputs import Entry, chosen, complete, read_entries

    require_fpdf()  # before any puzzle is read or graded
    from xlsudoku.production.booklet import BookletError

    options = BookletOptions(
        title=args.title,
        per_page=args.per_page,
        answers_per_page=args.answers_per_page,
        paper=args.paper,
        answers=not args.no_answers,
        explain=args.explain,
    )
    try:
        options.check()
    except BookletError as error:
        print(f"xlsudoku booklet: --title: {error}", file=sys.stderr)
        return Exit.USAGE
    source = "booklet" if args.source == "-" else args.source
    output = args.output or str(Path(source).with_suffix(".pdf"))
    out = check_output(
        output,
        option="-o",
        inputs=[] if args.source == "-" else [args.source],
        replace=args.replace,
        ours=made_by_booklet,
    )
    try:
        found = read_entries(args.source, args.sheet, args.csv)
    except SudokuError as error:
        print(f"xlsudoku booklet: {error}", file=sys.stderr)
        # bytes that are not UTF-8 are bad input (named by line), as for every command
        return Exit.BAD_INPUT if isinstance(error, ParseError) else Exit.UNUSABLE_FILE
    if args.ids is not None:
        found = chosen(found, args.ids)
        if not found:
            print(
                f"xlsudoku booklet: --ids: none of those ids is in {args.source}", file=sys.stderr
            )
            return Exit.BAD_INPUT
    entries: list[Entry] = []
    status = 0
    for label, item in found:
        try:
            if isinstance(item, SudokuError):
                raise item
            entries.append(
                complete(
                    item,
                    grade_missing=not args.no_grade,
                    explain=args.explain,
                    profile=args.profile,
                )
            )
        except SudokuError as error:
            report_bad(label if args.source == "-" else f"{args.source} {label}", error)
            status = 1
    if not entries:
        print(f"xlsudoku booklet: no puzzle to print in {args.source}", file=sys.stderr)
        return Exit.BAD_INPUT
    try:
        write_booklet(out.real, entries, options)
    except OSError as error:
        print(f"xlsudoku booklet: cannot write {output}: {error}", file=sys.stderr)
        return os_error_message(error)[1]
    from xlsudoku.production.booklet import by_day

    pages = page_count(len(entries), options, len(by_day(entries)))
    more = " and the solutions in words" if options.explain else ""
    print(f"{output}: {len(entries)} puzzles, {pages} pages{more} ({options.paper})")
    return status


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("batch", "daily", "booklet", "stats")
COMMANDS = (_add_batch, _add_daily, _add_booklet, _add_stats)
