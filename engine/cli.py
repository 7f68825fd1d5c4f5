"""The ``xlsudoku`` engine commands; the only engine module that prints.

Each command is a pair ``_add_<name>(subparsers)`` / ``_run_<name>(args) -> int`` listed in
``COMMANDS``; ``addin.main`` adds the workbook commands on top of :func:`build_parser`.
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


def _puzzle_lines(source: str) -> list[tuple[int, str]]:
    """Return ``(line number, first field)`` of each puzzle line of FILE or ``-`` (stdin)."""
    from pathlib import Path

    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        field = line.strip().split("\t")[0].split(" ")[0] if line.strip() else ""
        if field and not field.startswith("#") and field.lower() != "puzzle":
            found.append((number, field))
    return found


def _add_grade(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grade",
        help="grade puzzles: level, SE-scale score, hardest technique, technique counts",
        description="Grade each puzzle (one per line; the first tab- or space-separated field) "
        "with the human-style solver.",
    )
    p.add_argument("file", nargs="?", default="-", help="puzzle file, or - for stdin (default)")
    p.add_argument("--format", choices=("tsv", "json"), default="tsv", help="output format")
    p.set_defaults(run=_run_grade)


def _run_grade(args: argparse.Namespace) -> int:
    import json

    from engine.grading import grade
    from engine.grid import Grid, SudokuError

    status = 0
    if args.format == "tsv":
        print("line\tpuzzle\tlevel\tscore\thardest\tcounts")
    for number, text in _puzzle_lines(args.file):
        try:
            g = grade(Grid.parse(text))
        except SudokuError as err:
            print(f"line {number}: {err}", file=sys.stderr)
            status = 1
            continue
        hardest = g.hardest.value if g.hardest else ""
        if args.format == "json":
            record = {
                "line": number,
                "puzzle": text,
                "level": g.level.label,
                "score": g.score,
                "hardest": hardest,
                "solved": g.solved,
                "counts": {t.value: n for t, n in g.counts},
            }
            print(json.dumps(record))
        else:
            counts = ", ".join(f"{t.value} x{n}" for t, n in g.counts)
            print(f"{number}\t{text}\t{g.level.label}\t{g.score:.1f}\t{hardest}\t{counts}")
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
    from engine.grid import Grid, SudokuError
    from engine.hints import hint

    try:
        h = hint(Grid.parse(_read_puzzle_arg(args.puzzle)), args.level)
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
    from engine.analysis import Status, analyze
    from engine.grid import Grid, SudokuError

    try:
        a = analyze(Grid.parse(_read_puzzle_arg(args.puzzle)))
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
