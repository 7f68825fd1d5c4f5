"""The generate command: unique symmetric puzzles, to a number of opens or a difficulty."""

from __future__ import annotations

import argparse
import sys
import typing

from xlsudoku.engine.cli.common import Subparsers

if typing.TYPE_CHECKING:  # imported lazily at run time: other commands do not need them
    from xlsudoku.engine.generate import GenerateRequest
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


def _workers_arg(text: str) -> int | None:
    if text.strip().lower() == "auto":
        return None  # decided per request: see _generate_request
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"--workers must be a whole number >= 1 or auto: {text!r}")
    return int(text)


def _add_generate(sub: Subparsers) -> None:
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
    _difficulty_options(p)
    p.set_defaults(run=_run_generate)


def _generate_request(args: argparse.Namespace, seed: int | None) -> GenerateRequest:
    from xlsudoku.engine.generate import GenerateRequest
    from xlsudoku.engine.generate.deep import default_workers

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
        workers=default_workers(seed) if args.workers is None else args.workers,
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


def _difficulty_options(p: argparse.ArgumentParser) -> None:
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


COMMANDS = (_add_generate,)
