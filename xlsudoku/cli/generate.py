"""The generate command: unique symmetric puzzles, to a number of opens or a difficulty."""

from __future__ import annotations

import argparse
import sys
import typing
from collections.abc import Callable

from xlsudoku.cli.inputs import FORMAT_NAMES, add_geometry, add_profile
from xlsudoku.errors import Exit
from xlsudoku.interrupts import Interrupts

if typing.TYPE_CHECKING:  # imported lazily at run time: other commands do not need them
    from xlsudoku.cli.shell import Subparsers
    from xlsudoku.engine.generate import Budget, GenerateRequest, GenerateResult
    from xlsudoku.engine.generate.request import ScoreRange
    from xlsudoku.engine.symmetry import Symmetry


def symmetry_arg(text: str) -> Symmetry:
    """Return the symmetry named by a ``--symmetry`` argument (argparse type).

    >>> symmetry_arg("rotate90").value
    'rotate90'
    """
    from xlsudoku.engine.symmetry import Symmetry

    try:
        return Symmetry.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def budget_arg(text: str) -> Budget:
    """Return the budget of a ``--budget`` argument (argparse type): ``cpu:60``, ``work:5``.

    >>> str(budget_arg("cpu:60")), str(budget_arg("90"))
    ('cpu:60', 'wall:90')
    """
    from xlsudoku.engine.generate import Budget, GenerateError

    try:
        return Budget.parse(text)
    except GenerateError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def score_arg(text: str) -> ScoreRange:
    """Return the score range of a ``--score`` argument (argparse type): ``7.0-8.0``, ``9-``.

    >>> str(score_arg("7-8")), str(score_arg("9-"))
    ('7.0-8.0', '9.0-')
    >>> score_arg("9-7")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: score '9-7': the lowest score 9 is above the highest 7
    """
    from xlsudoku.engine.generate import GenerateError
    from xlsudoku.engine.generate.request import ScoreRange

    try:
        return ScoreRange.parse(text)
    except GenerateError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_score_options(p: argparse.ArgumentParser, add: Callable[..., object]) -> None:
    """Add ``--score`` with *add* (its group's ``add_argument``); ``--profile`` is its scale."""
    add(
        "--score",
        type=score_arg,
        default=None,
        metavar="MIN-MAX",
        help="make puzzles rated MIN to MAX (MIN- : MIN or more) under --profile, e.g. 7.0-8.0 "
        "or 9-; the opens are then a ceiling (default: none); high scores take minutes: "
        "give a --budget",
    )


def target_givens_of(args: argparse.Namespace) -> int:
    """Return the opens of a command line: ``--opens``, else the shape's default.

    With a score and no ``--opens`` the opens are no ceiling: every cell of the shape.

    >>> from xlsudoku.engine.grid import CLASSIC
    >>> target_givens_of(argparse.Namespace(opens=None, score=None, geometry=CLASSIC))
    26
    """
    from xlsudoku.engine.generate.request import default_givens

    if args.opens is not None:
        return int(args.opens)
    if getattr(args, "score", None) is not None:
        return int(args.geometry.cell_count)
    return default_givens(args.geometry)


def seed_arg(text: str) -> int:
    """Return a ``--seed`` (argparse type): a whole number from 0 up.

    >>> seed_arg("7")
    7
    >>> seed_arg("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: seed -1 is negative: use a whole number from 0 up
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None
    if value < 0:
        # Python's random takes a seed's absolute value: -1 would silently repeat seed 1
        raise argparse.ArgumentTypeError(f"seed {value} is negative: use a whole number from 0 up")
    return value


# Seconds a whole run of each command may take unless --time-limit says otherwise: every run
# has a deadline, and the message when it is reached says so and how to change it.
RUN_SECONDS = {"generate": 300.0, "batch": 3600.0, "daily": 3600.0, "stats": 60.0}


def seconds_arg(text: str) -> float:
    """Return the seconds of a ``--time-limit`` (argparse type): a positive finite number.

    >>> seconds_arg("2.5")
    2.5
    >>> seconds_arg("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --time-limit must be a positive number of seconds, got 'inf'
    """
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(
            f"--time-limit must be a positive number of seconds, got {text!r}"
        )
    return value


def add_time_limit(p: argparse.ArgumentParser, command: str, what: str) -> None:
    """Add ``--time-limit SEC``: the whole run's wall-clock deadline, with its default."""
    default = RUN_SECONDS[command]
    p.add_argument(
        "--time-limit",
        type=seconds_arg,
        default=None,
        metavar="SEC",
        help=f"seconds of wall-clock time for the whole run (default {default:g}): when they "
        f"run out {what}, and the exit status is 5",
    )


def run_seconds(args: argparse.Namespace, command: str) -> tuple[float, str]:
    """Return the whole run's seconds and how to say them (``300 s, the default``).

    >>> run_seconds(argparse.Namespace(time_limit=None), "generate")
    (300.0, '300 s, the default: raise it with --time-limit')
    >>> run_seconds(argparse.Namespace(time_limit=2.0), "batch")
    (2.0, '--time-limit 2')
    """
    if args.time_limit is None:
        default = RUN_SECONDS[command]
        return default, f"{default:g} s, the default: raise it with --time-limit"
    return args.time_limit, f"--time-limit {args.time_limit:g}"


def capped_workers(asked: int, option: str, command: str, tasks: int | None = None) -> int:
    """Return the processes to start for *asked*: at most the CPUs (and *tasks*); say so.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     capped_workers(10**31, "--workers", "generate") <= 10**31
    True
    >>> "capped at" in err.getvalue()
    True
    """
    from xlsudoku.engine.generate.deep import available_workers

    cores = available_workers()
    jobs = max(1, min(asked, cores, asked if tasks is None else tasks))
    if jobs < asked:
        why = "the CPUs available" if jobs == min(cores, asked) else "the tasks to do"
        print(f"xlsudoku {command}: {option} {number_text(asked)} capped at {jobs} ({why})",
              file=sys.stderr)  # fmt: skip
    return jobs


def number_text(number: int) -> str:
    """Return *number* for a message: with thousands separators, or its size when huge.

    >>> number_text(1_000_001), number_text(10**50)
    ('1,000,001', 'a 51-digit number')
    """
    text = str(number)
    return f"{number:,}" if len(text) <= 40 else f"a {len(text)}-digit number"


# Exit status when a puzzle misses its target (the closest puzzle is still printed; 1 means bad
# input, 2 a request that cannot be made).
TARGET_MISSED = Exit.GOAL_NOT_MET


def _ascii_digits(text: str) -> bool:
    """Return True when *text* is made of the digits 0-9 only (``int`` reads no other "digit").

    >>> _ascii_digits("12"), _ascii_digits("①"), _ascii_digits("²")
    (True, False, False)
    """
    return text.isascii() and text.isdigit()


def _workers_arg(text: str) -> int | None:
    if text.strip().lower() == "auto":
        return None  # decided per request: see _generate_request
    if not _ascii_digits(text.strip()) or len(text.strip()) > 4300 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"--workers must be a whole number >= 1 or auto: {text!r}")
    return int(text)


def _add_generate(sub: Subparsers) -> None:
    p = sub.add_parser(
        "generate",
        help="generate unique symmetric puzzles with a target number of opens (clues)",
        description=(
            "Generate unique puzzles whose clues have the given symmetry: fill a random grid, "
            "blank symmetric orbits while the solution stays unique, stop at the target. "
            "With -n and --seed S, puzzle k uses seed S+k-1. Exit status: 0 when every "
            "puzzle met its target (opens, and the level, technique or score when asked), 5 "
            "when one did not or the whole run's --time-limit ran out (the closest puzzle is "
            "printed and the message says what was missed: for --score, the closest rating), 2 "
            "for a request that cannot be made, 130 for Ctrl+C (the best puzzle so far is "
            "printed)."
        ),
    )
    p.add_argument(
        "--opens",
        type=int,
        default=None,
        help=f"target number of clues (default per shape: {DEFAULT_OPENS_HELP}); with --score, "
        "the most clues allowed (default: no ceiling)",
    )
    p.add_argument(
        "--pattern",
        default=None,
        help="center-box preset 1-12, a 9-character mask (x open, . blank), or none (default "
        "1 on 9x9 and 9x9-X, none on the shapes without a center box)",
    )
    p.add_argument("--trials", type=int, default=299, help="attempt budget (default 299)")
    p.add_argument(
        "--symmetry",
        type=symmetry_arg,
        default="rotate180",
        help="none, rotate180 (default), rotate90, horizontal, vertical, diagonal, "
        "antidiagonal, dihedral",
    )
    p.add_argument(
        "--seed", type=seed_arg, default=None, help="random seed, 0 or more (default: draw one)"
    )
    add_time_limit(
        p,
        "generate",
        "the search stops, the best puzzle so far is printed and the puzzles not started are "
        "not made; a puzzle gets what is left of it (deep targets: at most 60 s unless "
        "--time-limit is given)",
    )
    p.add_argument(
        "--budget",
        type=budget_arg,
        default=None,
        metavar="KIND:AMOUNT",
        help="a limit for each puzzle as wall:SEC, cpu:SEC (CPU time of the "
        "searching processes: the same search on a busy machine) or work:UNITS (counted work, "
        "about a second of CPU each: the same puzzle from a seed on every machine); the "
        "--time-limit of the whole run still holds",
    )
    add_geometry(p, default="9x9")
    p.add_argument(
        "--workers",
        type=_workers_arg,
        default="auto",
        metavar="N",
        help="processes a deep search (23 opens or fewer) may use: a number (at most the "
        "CPUs this process may run on), or auto (the "
        "default): every CPU this process may run on, or 1 with --seed (a seeded run on one "
        "process is reproducible)",
    )
    p.add_argument("-n", "--count", type=int, default=1, help="number of puzzles (default 1)")
    p.add_argument(
        "--format",
        choices=FORMAT_NAMES,
        default="line",
        help="line: the 81-character puzzle (sdm: 0 for blanks); grid: a drawing with the "
        "message and ranks; json: one object per line with every result field; sdk (with "
        "#D/#C/#L info lines), ss, csv: the puzzle files of those names",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="show the progress bar even when stderr is not a terminal",
    )
    _difficulty_options(p)
    add_profile(p)
    p.set_defaults(run=_run_generate)


# The engine's default opens per shape (engine.generate.DEFAULT_GIVENS) for the help text: the
# parser is built without loading the engine, and a test holds the two equal.
DEFAULT_OPENS_HELP = "4x4 6, 6x6 14, 9x9 26, 9x9-X 26, 9x9-windoku 26, 12x12 70, 16x16 140"


def _generate_request(
    args: argparse.Namespace, seed: int | None, seconds: float | None = None
) -> GenerateRequest:
    """Return the request of one puzzle; *seconds* is its wall-clock limit (None: its default)."""
    from xlsudoku.engine.generate import GenerateRequest, default_pattern
    from xlsudoku.engine.generate.deep import default_workers

    pattern: int | str | None = args.pattern
    if pattern is None:
        pattern = default_pattern(args.geometry)
    elif isinstance(pattern, str):
        text = pattern.strip()
        pattern = (
            None if text.lower() in ("none", "") else int(text) if _ascii_digits(text) else text
        )
    return GenerateRequest(
        target_givens=target_givens_of(args),
        pattern=pattern,
        trials=args.trials,
        symmetry=args.symmetry,
        time_limit=seconds,
        budget=getattr(args, "budget", None),
        seed=seed,
        geometry=args.geometry,
        difficulty=getattr(args, "difficulty", None),
        needs=getattr(args, "needs", None),
        workers=default_workers(seed) if args.workers is None else args.workers,
        score=getattr(args, "score", None),
        profile=getattr(args, "profile", "se"),
    )


def _puzzle_seconds(args: argparse.Namespace, left: float) -> float | None:
    """Return a puzzle's own wall-clock limit when the whole run has *left* seconds.

    With ``--time-limit`` given (and no ``--budget``) a puzzle may use what is left of it;
    otherwise it keeps its strategy's default (a deep target's 60 s) and the whole run's
    deadline cuts it when that comes first.
    """
    if args.budget is not None or args.time_limit is None:
        return None
    return round(max(left, 0.001), 3)


def _info(result: GenerateResult) -> dict[str, str]:
    """Return the .sdk info of a generated puzzle: what was asked, what came out, the level."""
    req = result.request
    asked = [f"{req.geometry.name}, {result.givens} opens", f"{req.symmetry.value} symmetry"]
    if req.pattern is not None:
        asked.append(f"pattern {req.pattern}")
    if req.needs is not None:
        asked.append(f"needs {req.needs.value}")
    if req.score is not None:
        asked.append(f"score {req.score} ({req.profile})")
    info = {
        "description": ", ".join(asked) + f", seed {result.seed}",
        "comment": result.message,
        "source": "xlsudoku",
    }
    if req.difficulty is not None and result.reached:
        info["level"] = req.difficulty.label
    return info


# The analysis fields a JSON line carries beside the result's.
_ANALYSIS_FIELDS = ("level", "score", "hardest", "profile", "ranks")
# What a result says when Ctrl+C or the time limit stopped its grading.
_NOT_GRADED = "not graded: the time limit or Ctrl+C stopped the grading"


def _write(result: GenerateResult, fmt: str, first: bool, stop: typing.Callable[[], bool]) -> None:
    """Print one result in *fmt*; multi-line formats are separated by a blank line.

    JSON and the grid drawing carry the puzzle's analysis (level, score, hardest technique,
    ranks): the generator's own, or one made with the solution it proved unique; when *stop*
    says stop while it is made (Ctrl+C, the run's deadline) the puzzle is printed without it,
    and says so.
    """
    import json

    from xlsudoku.engine.formats import PuzzleFormat, format_grid
    from xlsudoku.engine.generate import result_analysis
    from xlsudoku.interrupts import Cut, cut_when

    style = None if fmt == "json" else PuzzleFormat.parse(fmt)
    analysis = None
    if style in (None, PuzzleFormat.GRID):
        try:
            with cut_when(stop):
                analysis = result_analysis(result, ranks=True)
        except Cut:
            analysis = None
    if style is None:
        found = dict.fromkeys(_ANALYSIS_FIELDS) if analysis is None else analysis.to_dict()
        fields = result.to_dict() | {key: found[key] for key in _ANALYSIS_FIELDS}
        if analysis is None:
            fields["message"] = f"{result.message}; {_NOT_GRADED}"
        print(json.dumps(fields), flush=True)
        return
    if not first and style not in (PuzzleFormat.LINE, PuzzleFormat.SDM):
        print()
    print(format_grid(result.puzzle, style, _info(result)))
    if analysis is not None and analysis.ranks is not None:
        print(result.message + f" (seed {result.seed})")
        print(analysis.summary())
        print(analysis.ranks.text())
    elif style is PuzzleFormat.GRID:
        print(result.message + f" (seed {result.seed}); {_NOT_GRADED}")
    elif not result.reached:
        print(result.message, file=sys.stderr)
    sys.stdout.flush()


def _run_generate(args: argparse.Namespace) -> int:

    from xlsudoku.engine.generate import GenerateError, generate, validate_request

    if args.count < 1:
        print("xlsudoku generate: error: -n must be at least 1", file=sys.stderr)
        return 2
    import time

    seconds, said = run_seconds(args, "generate")
    deadline = time.monotonic() + seconds
    try:
        first = _generate_request(args, args.seed, _puzzle_seconds(args, seconds))
        validate_request(first)
    except (GenerateError, ValueError) as exc:
        print(f"xlsudoku generate: error: {exc}", file=sys.stderr)
        return 2
    if args.workers is not None:
        args.workers = capped_workers(args.workers, "--workers", "generate")
    from xlsudoku.progress import wanted

    show = wanted(args.progress, False)
    # Ctrl+C (the command line's one mechanism, common.Interrupts): a first press stops the
    # search and prints the best puzzle so far, a second abandons; either way the exit is 130.
    interrupts: Interrupts = getattr(args, "interrupts", None) or Interrupts()
    stopping = interrupts.cooperative()
    stopping.__enter__()
    interrupts.state = "no puzzle was printed"
    bar = None
    status = 0  # TARGET_MISSED once a puzzle misses its target (opens, level or technique)
    if show:
        from xlsudoku.engine.generate.generator import pick
        from xlsudoku.progress import RunBar

        limit = first.time_limit if first.time_limit is not None else pick(first).default_seconds
        limit = seconds if limit is None else min(limit, seconds)
        if args.count > 1:  # a puzzle a step: the pace tells, each puzzle within its limit
            bar = RunBar(args.count, None if limit is None else limit * args.count, "puzzle")
        else:
            bar = RunBar(args.trials, limit)

    def late() -> bool:
        return time.monotonic() > deadline

    def cancel() -> bool:
        return interrupts.requested() or late()

    printed = 0
    cut = False  # the run's deadline stopped a search or left puzzles unmade
    try:
        for k in range(args.count):
            interrupts.state = (
                f"stopped after {k} of {args.count} puzzles (those printed are whole)"
            )
            if interrupts.requested():
                break
            if late():
                cut = True
                break
            seed = None if args.seed is None else args.seed + k
            left = deadline - time.monotonic()
            request = _generate_request(args, seed, _puzzle_seconds(args, left))

            def progress(trial: int, best: int) -> None:
                if bar is not None and args.count == 1:
                    bar(trial, best)

            result = generate(request, progress=progress, cancel=cancel)
            if result.stop == "cancel" and not interrupts.requested():
                cut = True
            if bar is not None and args.count > 1:
                bar(k + 1)
            interrupts.state = f"{k + 1} of {args.count} puzzles printed" + (
                "; the last is the best found before Ctrl+C" if interrupts.requested() else ""
            )
            _write(result, args.format, first=k == 0, stop=cancel)
            printed += 1
            if not result.reached:
                status = TARGET_MISSED
            if cut:
                break
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
        stopping.__exit__(None, None, None)
    if cut or (printed < args.count and late() and not interrupts.requested()):
        last = "; the last is the best found before the limit" if cut and printed else ""
        print(
            f"xlsudoku generate: the time limit of the whole run ran out ({said}): "
            f"{printed} of {args.count} puzzles printed{last}",
            file=sys.stderr,
        )
        status = TARGET_MISSED
    return status


# Level words accepted by --difficulty besides the level names (the seeds' "tough").
_LEVEL_ALIASES = {"tough": "VERY_HARD", "veryhard": "VERY_HARD", "beyondtechnique": "BEYOND"}


def level_arg(text: str) -> object:
    """Return the level named by a ``--difficulty`` argument (argparse type; "tough" too).

    >>> level_arg("Very hard")
    <Level.VERY_HARD: 4>
    """
    from xlsudoku.engine.steps import Level

    key = "".join(ch for ch in text.lower() if ch.isalnum())
    for level in Level:
        if key == level.name.lower().replace("_", ""):
            return level
    if key in _LEVEL_ALIASES:
        return Level[_LEVEL_ALIASES[key]]
    names = ", ".join(level.label.lower() for level in Level)
    raise argparse.ArgumentTypeError(f"unknown difficulty {text!r}: use {names}")


def technique_arg(text: str) -> object:
    """Return the technique named by a ``--needs`` argument (argparse type).

    >>> technique_arg("x-wing").value
    'X-Wing'
    """
    from xlsudoku.engine.steps import Technique

    try:
        return Technique.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _difficulty_options(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    add_score_options(p, group.add_argument)
    group.add_argument(
        "--difficulty",
        type=level_arg,
        default=None,
        metavar="LEVEL",
        help="make a puzzle of this level: easy, medium, hard, very-hard (tough), diabolical, "
        "beyond (the opens become a floor left only when the level needs it)",
    )
    group.add_argument(
        "--needs",
        type=technique_arg,
        default=None,
        metavar="TECHNIQUE",
        help="make a puzzle whose path (the --profile's) uses this technique, e.g. x-wing, xy-wing",
    )


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("generate",)
COMMANDS = (_add_generate,)
