"""The generate command: unique symmetric puzzles, to a number of opens or a difficulty."""

from __future__ import annotations

import argparse
import sys
import typing

from xlsudoku.cli.inputs import FORMAT_NAMES, add_geometry, add_profile
from xlsudoku.errors import Exit
from xlsudoku.interrupts import Interrupts

if typing.TYPE_CHECKING:  # imported lazily at run time: other commands do not need them
    from xlsudoku.cli.shell import Subparsers
    from xlsudoku.engine.generate import Budget, GenerateRequest, GenerateResult
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
    if not _ascii_digits(text.strip()) or int(text) < 1:
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
            "puzzle met its target (opens, and the level or technique when asked), 5 when one "
            "did not (the closest puzzle is printed and the message says what was missed), 2 "
            "for a request that cannot be made."
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
        type=symmetry_arg,
        default="rotate180",
        help="none, rotate180 (default), rotate90, horizontal, vertical, diagonal, "
        "antidiagonal, dihedral",
    )
    p.add_argument(
        "--seed", type=seed_arg, default=None, help="random seed, 0 or more (default: draw one)"
    )
    limits = p.add_mutually_exclusive_group()
    limits.add_argument(
        "--time-limit", type=float, default=None, metavar="SEC", help="seconds of wall-clock time"
    )
    limits.add_argument(
        "--budget",
        type=budget_arg,
        default=None,
        metavar="KIND:AMOUNT",
        help="the limit as wall:SEC (the same as --time-limit), cpu:SEC (CPU time of the "
        "searching processes: the same search on a busy machine) or work:UNITS (counted work, "
        "about a second of CPU each: the same puzzle from a seed on every machine)",
    )
    add_geometry(p, default="9x9")
    p.add_argument(
        "--workers",
        type=_workers_arg,
        default="auto",
        metavar="N",
        help="processes a deep search (23 opens or fewer) may use: a number, or auto (the "
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


def _generate_request(args: argparse.Namespace, seed: int | None) -> GenerateRequest:
    from xlsudoku.engine.generate import GenerateRequest
    from xlsudoku.engine.generate.deep import default_workers

    pattern: int | str | None = args.pattern
    if isinstance(pattern, str):
        text = pattern.strip()
        pattern = (
            None if text.lower() in ("none", "") else int(text) if _ascii_digits(text) else text
        )
    return GenerateRequest(
        opens=args.opens,
        pattern=pattern,
        trials=args.trials,
        symmetry=args.symmetry,
        time_limit=args.time_limit,
        budget=getattr(args, "budget", None),
        seed=seed,
        geometry=args.geometry,
        difficulty=getattr(args, "difficulty", None),
        needs=getattr(args, "needs", None),
        workers=default_workers(seed) if args.workers is None else args.workers,
        profile=getattr(args, "profile", "se"),
    )


def _info(result: GenerateResult) -> dict[str, str]:
    """Return the .sdk info of a generated puzzle: what was asked, what came out, the level."""
    req = result.request
    asked = [f"{req.geometry.name}, {result.opens} opens", f"{req.symmetry.value} symmetry"]
    if req.pattern is not None:
        asked.append(f"pattern {req.pattern}")
    if req.needs is not None:
        asked.append(f"needs {req.needs.value}")
    info = {
        "description": ", ".join(asked) + f", seed {result.seed}",
        "comment": result.message,
        "source": "xlsudoku",
    }
    if req.difficulty is not None and result.reached:
        info["level"] = req.difficulty.label
    return info


def _write(result: GenerateResult, fmt: str, first: bool) -> None:
    """Print one result in *fmt*; multi-line formats are separated by a blank line.

    JSON and the grid drawing carry the puzzle's analysis (level, score, hardest technique,
    ranks): the generator's own, or one made with the solution it proved unique.
    """
    import json

    from xlsudoku.engine.formats import PuzzleFormat, format_grid
    from xlsudoku.engine.generate import result_analysis

    style = None if fmt == "json" else PuzzleFormat.parse(fmt)
    analysis = None
    if style in (None, PuzzleFormat.GRID):
        analysis = result_analysis(result, ranks=True)
    if style is None:
        assert analysis is not None
        found = analysis.to_dict()
        fields = result.to_dict() | {
            key: found[key] for key in ("level", "score", "hardest", "profile", "ranks")
        }
        print(json.dumps(fields), flush=True)
        return
    if not first and style not in (PuzzleFormat.LINE, PuzzleFormat.SDM):
        print()
    print(format_grid(result.puzzle, style, _info(result)))
    if analysis is not None and analysis.ranks is not None:
        print(result.message + f" (seed {result.seed})")
        print(analysis.summary())
        print(analysis.ranks.text())
    elif not result.reached:
        print(result.message, file=sys.stderr)
    sys.stdout.flush()


def _run_generate(args: argparse.Namespace) -> int:

    from xlsudoku.engine.generate import GenerateError, generate, validate_request

    if args.count < 1:
        print("xlsudoku generate: error: -n must be at least 1", file=sys.stderr)
        return 2
    try:
        first = _generate_request(args, args.seed)
        validate_request(first)
    except (GenerateError, ValueError) as exc:
        print(f"xlsudoku generate: error: {exc}", file=sys.stderr)
        return 2
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
        if args.count > 1:  # a puzzle a step: the pace tells, each puzzle within its limit
            bar = RunBar(args.count, None if limit is None else limit * args.count, "puzzle")
        else:
            bar = RunBar(args.trials, limit)
    try:
        for k in range(args.count):
            interrupts.state = (
                f"stopped after {k} of {args.count} puzzles (those printed are whole)"
            )
            if interrupts.requested():
                break
            seed = None if args.seed is None else args.seed + k
            request = _generate_request(args, seed)

            def progress(trial: int, best: int) -> None:
                if bar is not None and args.count == 1:
                    bar(trial, best)

            result = generate(request, progress=progress, cancel=interrupts.requested)
            if bar is not None and args.count > 1:
                bar(k + 1)
            interrupts.state = f"{k + 1} of {args.count} puzzles printed" + (
                "; the last is the best found before Ctrl+C" if interrupts.requested() else ""
            )
            _write(result, args.format, first=k == 0)
            if not result.reached:
                status = TARGET_MISSED
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


COMMANDS = (_add_generate,)
