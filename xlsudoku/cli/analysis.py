"""Commands of the one analysis of a puzzle: grade, hint, analyze, explain."""

from __future__ import annotations

import argparse
import sys
import typing
from pathlib import Path

from xlsudoku.cli.inputs import (
    add_geometry,
    add_input,
    add_profile,
    looks_like_puzzle,
    read_puzzle_arg,
    read_records,
    report_bad,
)

if typing.TYPE_CHECKING:
    from xlsudoku.cli.shell import Subparsers
    from xlsudoku.engine.grid import Grid


def _add_grade(sub: Subparsers) -> None:
    p = sub.add_parser(
        "grade",
        help="grade puzzles: level, SE-scale score, hardest technique, technique counts",
        description="Grade each puzzle of FILE with the human-style solver: level, score on "
        "the Sudoku Explainer scale (the hardest step), hardest technique and how often each "
        "technique was used.  Bad, unsolvable and multi-solution puzzles are reported on "
        "standard error (exit status 1).",
    )
    add_input(p)
    p.add_argument(
        "--format",
        choices=("tsv", "json"),
        default="tsv",
        help="output format: tsv (a header line, then one line per puzzle) or json (one object "
        "per line: puzzle, geometry, level, score, hardest, solved, counts; readable as input)",
    )
    add_profile(p)
    p.set_defaults(run=_run_grade)


def _run_grade(args: argparse.Namespace) -> int:
    import json

    from xlsudoku.engine.analysis import analyze
    from xlsudoku.engine.grid import Grid, SudokuError

    records = read_records(args)
    status = 0
    if args.format == "tsv":
        print("line\tpuzzle\tlevel\tscore\tprofile\thardest\tcounts")
    for record in records:
        number, item = record.line, record.result
        if not isinstance(item, Grid):
            report_bad(number, item)
            status = 1
            continue
        analysis = analyze(item, args.profile, suggest_given=False)
        try:
            g = analysis.graded()
        except SudokuError as err:
            report_bad(number, err)
            status = 1
            continue
        hardest = g.hardest.value if g.hardest else ""
        if args.format == "json":
            fields: dict[str, object] = {"line": number, **analysis.to_dict()}
            # the input's .sdk info (author, source ...) goes along; the grade's level wins
            fields.update((k, v) for k, v in record.info.items() if k not in fields)
            print(json.dumps(fields, ensure_ascii=False), flush=True)
        else:
            counts = ", ".join(f"{t.value} x{n}" for t, n in g.counts)
            print(
                f"{number}\t{item}\t{g.level.label}\t{g.score:.1f}\t{analysis.profile}\t"
                f"{hardest}\t{counts}",
                flush=True,
            )
    return status


def _add_hint(sub: Subparsers) -> None:
    p = sub.add_parser(
        "hint",
        help="the next step of the rating profile's path, as a hint",
        description="Show a hint for PUZZLE: level 1 names the technique and where to look, "
        "2 adds the cells, 3 gives the full explanation and its result.",
    )
    _add_puzzle(p)
    p.add_argument("--level", type=int, choices=(1, 2, 3), default=1, help="how much to show")
    add_profile(p)
    p.set_defaults(run=_run_hint)


def _add_puzzle(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "puzzle",
        help="the puzzle (one line, . or 0 for blanks, or a drawing), a file, or - for stdin",
    )
    add_geometry(p)


def _read_puzzle(args: argparse.Namespace) -> Grid:
    """Return the one puzzle of the PUZZLE argument; raise ``ParseError`` when there is none."""
    from xlsudoku.engine.formats import parse_puzzle
    from xlsudoku.engine.grid import ParseError

    text = read_puzzle_arg(args.puzzle)
    if text == args.puzzle and not looks_like_puzzle(text):
        raise ParseError(f"no such file, and not a puzzle: {args.puzzle}")
    try:
        return parse_puzzle(text, geometry=args.geometry, validate=False)
    except ParseError as error:
        if text == args.puzzle:
            raise
        source = "standard input" if args.puzzle == "-" else args.puzzle
        workbook = Path(args.puzzle).suffix.lower() in (".xlsx", ".xlsm")
        kind = " (named like a workbook, but not one: not a zip package)" if workbook else ""
        raise ParseError(f"{source}{kind}: {error}") from None


def _run_hint(args: argparse.Namespace) -> int:
    from xlsudoku.engine.grid import SudokuError
    from xlsudoku.engine.hints import hint

    try:
        h = hint(_read_puzzle(args), args.level, profile=args.profile)
    except SudokuError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1  # bad input (common.Exit.BAD_INPUT)
    print(h.text)
    return 0


def _add_analyze(sub: Subparsers) -> None:
    p = sub.add_parser(
        "analyze",
        help="check a typed puzzle: invalid, no solution, unique (graded) or several solutions",
        description="Analyse PUZZLE. With several solutions, show two of them, the cells where "
        "they differ and a clue to add.",
    )
    _add_puzzle(p)
    add_profile(p)
    p.set_defaults(run=_run_analyze)


def _run_analyze(args: argparse.Namespace) -> int:
    from xlsudoku.engine.analysis import Status, analyze
    from xlsudoku.engine.grid import SudokuError

    try:
        a = analyze(_read_puzzle(args), args.profile)
    except SudokuError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1  # bad input (common.Exit.BAD_INPUT)
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
        if a.suggested_given is not None:
            added = a.suggested_given
            print(f"add clue: {geo.digit_char(added.digit)} in {geo.cell_name(added.cell)}")
    return 0 if a.status in (Status.UNIQUE, Status.SEVERAL) else 1


def _add_explain(sub: Subparsers) -> None:
    p = sub.add_parser(
        "explain",
        help="the whole solution in words: every step of the rating path, numbered",
        description="Print every step of PUZZLE's path under the rating profile, numbered, "
        "with its score, in the words the hints use (level 3): the path that gives the "
        "puzzle its score, level and hardest step.",
    )
    _add_puzzle(p)
    add_profile(p)
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (the grade, then one numbered line per step) or json (one object: the "
        "grade and a list of steps with technique, score, explanation, result and cells)",
    )
    p.set_defaults(run=_run_explain)


def _run_explain(args: argparse.Namespace) -> int:
    import json

    from xlsudoku.engine.analysis import analyze
    from xlsudoku.engine.grid import SudokuError

    try:
        a = analyze(_read_puzzle(args), args.profile, suggest_given=False)
        a.graded()
    except SudokuError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1  # bad input (common.Exit.BAD_INPUT)
    if args.format == "json":
        print(json.dumps(a.to_dict() | {"steps": a.explained()}, ensure_ascii=False))
        return 0
    print(f"{a.puzzle}: {a.summary()}")
    for line in a.explain():
        print(line)
    return 0


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("grade", "hint", "analyze", "explain")
COMMANDS = (_add_grade, _add_hint, _add_analyze, _add_explain)
