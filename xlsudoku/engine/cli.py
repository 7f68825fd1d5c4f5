"""The ``xlsudoku`` engine commands; the only engine module that prints.

Each command is a pair ``_add_<name>(subparsers)`` / ``_run_<name>(args) -> int`` listed in
``COMMANDS``; ``xlsudoku.addin.main`` adds the workbook commands on top of :func:`build_parser`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

AddFn = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

COMMANDS: list[AddFn] = []


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every engine subcommand."""
    parser = argparse.ArgumentParser(
        prog="xlsudoku",
        description="Sudoku generator, solver and grader (engine of the xlsudoku workbook).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the engine command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


# -- logic commands (logic engineer A): grade, hint, analyze ------------------------------------


def _read_puzzle_arg(text: str) -> str:
    """Return the puzzle text of a PUZZLE argument: the text itself, a file's contents or stdin."""
    from pathlib import Path

    if text == "-":
        return sys.stdin.read()
    if Path(text).is_file():
        return Path(text).read_text(encoding="utf-8")
    return text


def _add_grade(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grade",
        help="grade puzzles: level, SE-scale score, hardest technique, technique counts",
        description="Grade each puzzle of FILE with the human-style solver: level, score on "
        "the Sudoku Explainer scale (the hardest step), hardest technique and how often each "
        "technique was used.  Bad, unsolvable and multi-solution puzzles are reported on "
        "standard error (exit status 1).",
    )
    _add_input(p)
    p.add_argument("--format", choices=("tsv", "json"), default="tsv", help="output format")
    p.set_defaults(run=_run_grade)


def _run_grade(args: argparse.Namespace) -> int:
    import json

    from xlsudoku.engine.grading import grade
    from xlsudoku.engine.grid import Grid, SudokuError

    puzzles = _read_source(args)
    if puzzles is None:
        return 2
    status = 0
    if args.format == "tsv":
        print("line\tpuzzle\tlevel\tscore\thardest\tcounts")
    for number, item in puzzles:
        if not isinstance(item, Grid):
            _report_bad(number, item)
            status = 1
            continue
        try:
            g = grade(item)
        except SudokuError as err:
            _report_bad(number, err)
            status = 1
            continue
        hardest = g.hardest.value if g.hardest else ""
        if args.format == "json":
            record = {
                "line": number,
                "puzzle": str(item),
                "level": g.level.label,
                "score": g.score,
                "hardest": hardest,
                "solved": g.solved,
                "counts": {t.value: n for t, n in g.counts},
            }
            print(json.dumps(record), flush=True)
        else:
            counts = ", ".join(f"{t.value} x{n}" for t, n in g.counts)
            print(
                f"{number}\t{item}\t{g.level.label}\t{g.score:.1f}\t{hardest}\t{counts}",
                flush=True,
            )
    return status


def _add_hint(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "hint",
        help="the next step of the human-style solver, as a hint",
        description="Show a hint for PUZZLE: level 1 names the technique and where to look, "
        "2 adds the cells, 3 gives the full explanation and its result.",
    )
    p.add_argument("puzzle", help="81 characters (. or 0 for blanks), a file, or - for stdin")
    p.add_argument("--level", type=int, choices=(1, 2, 3), default=1, help="how much to show")
    p.set_defaults(run=_run_hint)


def _run_hint(args: argparse.Namespace) -> int:
    from xlsudoku.engine.formats import parse_puzzle
    from xlsudoku.engine.grid import SudokuError
    from xlsudoku.engine.hints import hint

    try:
        h = hint(parse_puzzle(_read_puzzle_arg(args.puzzle), validate=False), args.level)
    except SudokuError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(h.text)
    return 0


def _add_analyze(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "analyze",
        help="check a typed puzzle: invalid, no solution, unique (graded) or several solutions",
        description="Analyse PUZZLE. With several solutions, show two of them, the cells where "
        "they differ and a clue to add.",
    )
    p.add_argument("puzzle", help="81 characters (. or 0 for blanks), a file, or - for stdin")
    p.set_defaults(run=_run_analyze)


def _run_analyze(args: argparse.Namespace) -> int:
    from xlsudoku.engine.analysis import Status, analyze
    from xlsudoku.engine.formats import parse_puzzle
    from xlsudoku.engine.grid import SudokuError

    try:
        a = analyze(parse_puzzle(_read_puzzle_arg(args.puzzle), validate=False))
    except SudokuError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(a.message)
    if a.status is Status.UNIQUE and a.grade is not None:
        print(f"solution: {a.solutions[0]}")
        counts = ", ".join(f"{t.value} x{n}" for t, n in a.grade.counts)
        print(f"techniques: {counts}")
    elif a.status is Status.SEVERAL:
        geo = a.solutions[0].geometry
        print(f"solution 1: {a.solutions[0]}")
        print(f"solution 2: {a.solutions[1]}")
        print("differ in: " + ", ".join(geo.cell_name(c) for c in a.differing))
        if a.clue is not None:
            print(f"add clue: {geo.digit_char(a.clue.digit)} in {geo.cell_name(a.clue.cell)}")
    return 0 if a.status in (Status.UNIQUE, Status.SEVERAL) else 1


COMMANDS.extend([_add_grade, _add_hint, _add_analyze])
# -- end of logic commands ----------------------------------------------------------------------


# -- generator commands (generator engineer): generate (bench generate: BENCH_SUITES) ----------

# Functions that add options to ``generate`` (the grading engineer adds --difficulty/--needs
# here: each takes the generate parser; _generate_request reads ``args.difficulty`` and
# ``args.needs`` when present, already parsed to Level / Technique by their option types).
GENERATE_OPTIONS: list[Callable[[argparse.ArgumentParser], None]] = []

import typing  # noqa: E402  (kept in this section: the top of the file is shared)

if typing.TYPE_CHECKING:  # imported lazily at run time: other commands do not need them
    from xlsudoku.engine.generator import GenerateRequest
    from xlsudoku.engine.grid import Geometry, Grid
    from xlsudoku.engine.symmetry import Symmetry


def _symmetry_arg(text: str) -> Symmetry:
    from xlsudoku.engine.symmetry import Symmetry

    try:
        return Symmetry.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _geometry_arg(text: str) -> Geometry:
    from xlsudoku.engine.grid import SudokuError, geometry_for_size

    name = text.strip().lower()
    diagonals = name.endswith("-x")
    side = name.removesuffix("-x").split("x")[0]
    try:
        return geometry_for_size(int(side), diagonals)
    except (ValueError, SudokuError):
        raise argparse.ArgumentTypeError(
            f"unknown geometry {text!r}: use 4x4, 6x6, 9x9, 12x12, 16x16 or 9x9-X"
        ) from None


def _add_generate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "generate",
        help="generate unique symmetric puzzles with a target number of opens (clues)",
        description=(
            "Generate unique puzzles whose clues have the given symmetry: fill a random grid, "
            "blank symmetric orbits while the solution stays unique, stop at the target. "
            "With -n and --seed S, puzzle k uses seed S+k-1. Errors exit with status 2."
        ),
    )
    p.add_argument("--opens", type=int, default=26, help="target number of clues (default 26)")
    p.add_argument(
        "--pattern",
        default="1",
        help="center-box preset 1-12, a 9-character mask (x open, . blank), or none (default 1)",
    )
    p.add_argument("--trials", type=int, default=299, help="attempt budget (default 299)")
    p.add_argument(
        "--symmetry",
        type=_symmetry_arg,
        default="rotate180",
        help="none, rotate180 (default), rotate90, horizontal, vertical, diagonal, "
        "antidiagonal, dihedral",
    )
    p.add_argument("--seed", type=int, default=None, help="random seed (default: draw one)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SEC", help="seconds")
    p.add_argument(
        "--geometry", type=_geometry_arg, default="9x9", help="9x9 (default), 4x4, 6x6, 9x9-X ..."
    )
    p.add_argument("-n", "--count", type=int, default=1, help="number of puzzles (default 1)")
    p.add_argument(
        "--format",
        choices=("line", "grid", "json"),
        default="line",
        help="line: the 81-character puzzle; grid: a drawing with the message and ranks; "
        "json: one object per line with every result field",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="show the progress bar even when stderr is not a terminal",
    )
    for add_options in GENERATE_OPTIONS:
        add_options(p)
    p.set_defaults(run=_run_generate)


def _generate_request(args: argparse.Namespace, seed: int | None) -> GenerateRequest:
    from xlsudoku.engine.generator import GenerateRequest

    pattern: int | str | None = args.pattern
    if isinstance(pattern, str):
        text = pattern.strip()
        pattern = None if text.lower() in ("none", "") else int(text) if text.isdigit() else text
    return GenerateRequest(
        opens=args.opens,
        pattern=pattern,
        trials=args.trials,
        symmetry=args.symmetry,
        time_limit=args.time_limit,
        seed=seed,
        geometry=args.geometry,
        difficulty=getattr(args, "difficulty", None),
        needs=getattr(args, "needs", None),
    )


def _grid_drawing(grid: Grid) -> str:
    geo = grid.geometry
    lines = []
    for r in range(geo.size):
        if r and r % geo.box_rows == 0:
            lines.append(
                "+".join("-" * (2 * geo.box_cols + 1) for _ in range(geo.size // geo.box_cols))
            )
        cells = [geo.digit_char(grid[r * geo.size + c]) for c in range(geo.size)]
        parts = [
            " " + " ".join(cells[c : c + geo.box_cols]) + " "
            for c in range(0, geo.size, geo.box_cols)
        ]
        lines.append("|".join(parts).rstrip())
    return "\n".join(lines)


def _run_generate(args: argparse.Namespace) -> int:
    import json
    import signal

    from xlsudoku.engine.generator import GenerateError, generate, validate_request

    if args.count < 1:
        print("xlsudoku generate: error: -n must be at least 1", file=sys.stderr)
        return 2
    try:
        first = _generate_request(args, args.seed)
        validate_request(first)
    except (GenerateError, ValueError) as exc:
        print(f"xlsudoku generate: error: {exc}", file=sys.stderr)
        return 2
    show = args.progress or sys.stderr.isatty()
    stop = False

    def on_interrupt(signum: int, frame: object) -> None:
        nonlocal stop
        if stop:
            raise KeyboardInterrupt
        stop = True

    try:
        previous = signal.signal(signal.SIGINT, on_interrupt)
    except ValueError:  # not the main thread
        previous = None
    bar = None
    if show:
        from tqdm import tqdm  # type: ignore[import-untyped]

        many = args.count > 1
        bar = tqdm(
            total=args.count if many else args.trials,
            unit="puzzle" if many else "trial",
            delay=1.0,
            file=sys.stderr,
            leave=False,
        )
    try:
        for k in range(args.count):
            if stop:
                break
            seed = None if args.seed is None else args.seed + k
            request = _generate_request(args, seed)

            def progress(trial: int, best: int) -> None:
                if bar is not None and args.count == 1:
                    bar.n = trial
                    bar.set_postfix_str(f"best {best} opens", refresh=True)

            result = generate(request, progress=progress, cancel=lambda: stop)
            if bar is not None and args.count > 1:
                bar.update(1)
            if args.format == "json":
                print(json.dumps(result.to_dict()), flush=True)
            elif args.format == "grid":
                if k:
                    print()
                print(_grid_drawing(result.puzzle))
                print(result.message + f" (seed {result.seed})")
                print(result.ranks.text())
            else:
                print(result.puzzle, flush=True)
                if not result.reached:
                    print(result.message, file=sys.stderr)
    except GenerateError as exc:
        print(f"xlsudoku generate: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (e.g. head) stopped early: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        if bar is not None:
            bar.close()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return 0


COMMANDS.append(_add_generate)
# -- end of generator commands ------------------------------------------------------------------


# -- logic options of generate (logic engineer A): --difficulty, --needs -------------------------

# Level words accepted by --difficulty besides the level names (the seeds' "tough").
_LEVEL_ALIASES = {"tough": "VERY_HARD", "veryhard": "VERY_HARD", "beyondtechnique": "BEYOND"}


def _level_arg(text: str) -> object:
    from xlsudoku.engine.steps import Level

    key = "".join(ch for ch in text.lower() if ch.isalnum())
    for level in Level:
        if key == level.name.lower().replace("_", ""):
            return level
    if key in _LEVEL_ALIASES:
        return Level[_LEVEL_ALIASES[key]]
    names = ", ".join(level.label.lower() for level in Level)
    raise argparse.ArgumentTypeError(f"unknown difficulty {text!r}: use {names}")


def _technique_arg(text: str) -> object:
    from xlsudoku.engine.steps import Technique

    try:
        return Technique.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _generate_difficulty_options(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--difficulty",
        type=_level_arg,
        default=None,
        metavar="LEVEL",
        help="make a puzzle of this level: easy, medium, hard, very-hard (tough), diabolical, "
        "beyond (the opens become a floor left only when the level needs it)",
    )
    group.add_argument(
        "--needs",
        type=_technique_arg,
        default=None,
        metavar="TECHNIQUE",
        help="make a puzzle whose solve path needs this technique, e.g. x-wing, xy-wing",
    )


GENERATE_OPTIONS.append(_generate_difficulty_options)
# -- end of logic options of generate -----------------------------------------------------------


# -- core commands (core engineer): solve, count, format, bench ---------------------------------

# ``xlsudoku bench WHAT ...``: WHAT -> (module, function taking the remaining argv, help).
# Each engineer adds the benchmark of their module here.
BENCH_SUITES: dict[str, tuple[str, str, str]] = {
    "solve": ("xlsudoku.engine.bench", "run_solve", "exact solver: count to 2 on a puzzle file"),
    "fill": ("xlsudoku.engine.bench", "run_fill", "random complete grids per second"),
    "generate": ("xlsudoku.engine.bench_generator", "run_generate", "puzzle generator"),
    "grade": ("xlsudoku.engine.bench_grading", "run_grade", "grader speed and agreement"),
    "reglib": (
        "xlsudoku.engine.bench_grading",
        "run_reglib",
        "HoDoKu regression library pass counts",
    ),
    "techniques": (
        "xlsudoku.engine.bench_techniques",
        "run_techniques",
        "time spent in each finder",
    ),
    "reach": (
        "xlsudoku.engine.bench_lowclue",
        "run_reach",
        "low-clue search: time to reach 23..20 clues",
    ),
}

_FORMAT_NAMES = ("line", "sdm", "sdk", "ss", "grid", "csv")


def _add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "source",
        nargs="?",
        default="-",
        metavar="FILE",
        help="puzzle file, - for standard input (default), or a puzzle itself; one-line "
        "puzzles (one per line, first field), drawings, .sdk, .ss, .sdm, TSV or CSV",
    )
    p.add_argument(
        "--csv", action="store_true", help="read the input as CSV (automatic for *.csv files)"
    )


def _add_output_format(p: argparse.ArgumentParser, default: str = "line") -> None:
    p.add_argument(
        "--format",
        choices=_FORMAT_NAMES,
        default=default,
        help=f"output style (default {default}): line (81 characters, . for blanks), "
        "sdm (0 for blanks), sdk, ss (Simple Sudoku), grid (a picture), csv",
    )


def _read_source(
    args: argparse.Namespace, validate: bool = True
) -> list[tuple[int, object]] | None:
    """Return ``(line, Grid | SudokuError)`` for each puzzle of the command's input.

    Returns None (after saying why on standard error) when FILE neither exists nor is a
    puzzle.
    """
    from pathlib import Path

    from xlsudoku.engine.formats import read_puzzles

    source: str = args.source
    name = "stdin.csv" if args.csv else ""
    if source == "-":
        text = sys.stdin.read()
    elif Path(source).is_file():
        text = Path(source).read_text(encoding="utf-8-sig")
        name = source + (".csv" if args.csv else "")
    elif len(source.strip()) >= 16 and "/" not in source and "\\" not in source:
        text = source  # a puzzle given on the command line
    else:
        print(f"xlsudoku {args.command}: no such file: {source}", file=sys.stderr)
        return None
    return list(read_puzzles(text, name, validate=validate))


def _report_bad(line: int, error: object) -> None:
    print(f"line {line}: {error}", file=sys.stderr)


def _add_solve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "solve",
        help="print the solution of each puzzle",
        description="Print the solution of each puzzle of FILE (one per input puzzle, in "
        "order). Bad lines, puzzles without a solution and puzzles with more than one are "
        "reported on standard error with their line number; the exit status is 1 when any "
        "puzzle was bad or had no solution.",
    )
    _add_input(p)
    _add_output_format(p)
    p.set_defaults(run=_run_solve)


def _run_solve(args: argparse.Namespace) -> int:
    from xlsudoku.engine.formats import PuzzleFormat, format_grid
    from xlsudoku.engine.grid import Grid
    from xlsudoku.engine.solver import solutions

    found = _read_source(args)
    if found is None:
        return 1
    fmt = PuzzleFormat.parse(args.format)
    status = 0
    separate = fmt not in (PuzzleFormat.LINE, PuzzleFormat.SDM)
    printed = False
    for line, result in found:
        if not isinstance(result, Grid):
            _report_bad(line, result)
            status = 1
            continue
        sols = solutions(result, 2)
        if not sols:
            _report_bad(line, "no solution")
            status = 1
            continue
        if len(sols) > 1:
            _report_bad(line, "more than one solution; printing one")
        if separate and printed:
            print()
        print(format_grid(sols[0], fmt))
        printed = True
    return status


def _add_count(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "count",
        help="print the number of solutions of each puzzle (capped)",
        description="Print the number of solutions of each puzzle of FILE, one per line, "
        "counting up to --limit: a count that reaches the limit prints as >=N. Bad lines are "
        "reported on standard error with their line number (exit status 1).",
    )
    _add_input(p)
    p.add_argument(
        "--limit",
        type=int,
        default=2,
        metavar="N",
        help="stop counting at N solutions (default 2: enough to tell unique puzzles)",
    )
    p.add_argument(
        "--with-puzzle",
        action="store_true",
        help="print the puzzle (one line) and a tab before each count",
    )
    p.set_defaults(run=_run_count)


def _run_count(args: argparse.Namespace) -> int:
    from xlsudoku.engine.grid import Grid
    from xlsudoku.engine.solver import count_solutions

    if args.limit < 1:
        print("xlsudoku count: --limit must be at least 1", file=sys.stderr)
        return 2
    found = _read_source(args)
    if found is None:
        return 1
    status = 0
    for line, result in found:
        if not isinstance(result, Grid):
            _report_bad(line, result)
            status = 1
            continue
        n = count_solutions(result, args.limit)
        text = f">={n}" if n >= args.limit and args.limit > 1 else str(n)
        print(f"{result}\t{text}" if args.with_puzzle else text)
    return status


def _add_format(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "format",
        help="convert puzzles between file formats",
        description="Read the puzzles of FILE in any supported format and write them in "
        "--format. Bad lines are reported on standard error (exit status 1); repeated digits "
        "are kept unless --validate is given.",
    )
    _add_input(p)
    _add_output_format(p, default="grid")
    p.add_argument(
        "--validate", action="store_true", help="treat a digit repeated in a house as an error"
    )
    p.set_defaults(run=_run_format)


def _run_format(args: argparse.Namespace) -> int:
    from xlsudoku.engine.formats import PuzzleFormat, write_puzzles
    from xlsudoku.engine.grid import Grid

    found = _read_source(args, validate=args.validate)
    if found is None:
        return 1
    status = 0
    grids = []
    for line, result in found:
        if isinstance(result, Grid):
            grids.append(result)
        else:
            _report_bad(line, result)
            status = 1
    sys.stdout.write(write_puzzles(grids, PuzzleFormat.parse(args.format)))
    return status


def _add_bench(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


COMMANDS.extend([_add_solve, _add_count, _add_format, _add_bench])
# -- end of core commands -----------------------------------------------------------------------


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
