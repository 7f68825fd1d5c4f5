"""``xlsudoku workbook BUTTON BOOK``: a button of the workbook, run on the file without Excel.

The buttons are :mod:`xlsudoku.addin.actions`' workflows, run by the headless runner
(:mod:`xlsudoku.addin.headless`) on a copy of the file read safely, and saved in one step under
the workbook's lock:

- ``workbook start BOOK [--output PATH]``: START with the parameters in the file;
- ``workbook save BOOK``: SAVE TO COLLECTION; ``workbook clear BOOK``: CLEAR;
- ``workbook import BOOK [FILE]``, ``workbook delete BOOK``, ``workbook sort BOOK``,
  ``workbook restore BOOK``: the Collection's tools (with FILE, IMPORT first puts its path
  into the Import from cell);
- ``workbook analyze|hint|solve|explain BOOK``: the Analyze sheet's buttons;
- ``workbook image BOOK``: the Print sheet's IMAGE (a PNG beside the workbook);
- ``workbook play|check|play-hint|play-solve|undo|fill-candidates BOOK``: the Play sheet's
  buttons;
- ``workbook stats BOOK``: the Stats sheet's STATS (the tables its charts draw);
- ``workbook new PATH [--lite]``: a fresh copy of the workbook the package carries (the
  desktop ``.xlsm``, or with ``--lite`` the xlwings Lite ``.xlsx``), never over an existing file.

The status cell gets the message, as in Excel; the command prints it, and exits 1 when the
button refused its input, 5 when START missed its target (the closest puzzle is written, as
``generate`` prints it).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlsudoku.cli.shell import Subparsers


BUTTONS: dict[str, str] = {
    "start": "START: generate a puzzle with the parameters in the workbook",
    "save": "SAVE TO COLLECTION: append the puzzle on the Generator sheet to the Collection",
    "clear": "CLEAR: blank the puzzle, solution and statistics",
    "import": "IMPORT: add the puzzles of the file (or text) in Import from to the Collection",
    "delete": "DELETE: move the Collection rows listed in Delete ids to the Removed sheet",
    "sort": "SORT: reorder the Collection's rows by the Sort by column",
    "restore": "RESTORE: move the Removed sheet's rows listed in Restore ids back to the "
    "Collection, under the same ids",
    "analyze": "ANALYZE: check, count and grade the puzzle on the Analyze sheet",
    "hint": "HINT: the next hint for the puzzle on the Analyze sheet",
    "solve": "SOLVE: write the solution of the puzzle on the Analyze sheet",
    "explain": "EXPLAIN: write every step of the Analyze puzzle's rating path, numbered, under "
    "its solutions",
    "image": "IMAGE on the Print sheet: draw the Generator's puzzle to BOOK-puzzle.png beside "
    "the workbook (never over a file IMAGE did not write)",
    "play": "PLAY: put the puzzle Play from names (Generator, Analyze or a Collection id) on "
    "the Play sheet, givens locked",
    "check": "CHECK: mark the wrong entries on the Play sheet, say how many cells are left",
    "play-hint": "HINT on the Play sheet: the next step from your entries and pencil marks",
    "play-solve": "SOLVE on the Play sheet: fill the rest of the grid",
    "undo": "UNDO on the Play sheet: step back one move (your typing since the last button, "
    "or the last button's change)",
    "fill-candidates": "FILL CANDIDATES on the Play sheet: every empty cell's candidates as "
    "pencil marks",
    "stats": "STATS: count the Collection per level, score and opens for the Stats sheet's charts",
}


def _add_workbook(sub: Subparsers) -> None:
    p = sub.add_parser(
        "workbook",
        help="press a button of the workbook on its file, without Excel (start, save, ...)",
        description="Run a button of the xlsudoku workbook on the .xlsm/.xlsx file, without "
        "Excel: the same workflow the button runs in Excel, saved in one step (the previous "
        "version kept as .bak).",
    )
    buttons = p.add_subparsers(dest="button", metavar="BUTTON", required=True)
    _add_new(buttons)
    for name, text in BUTTONS.items():
        _add_button(buttons, name, text)


# The workbooks the package carries: the .xlsm of classic desktop Excel (VBA buttons) and the
# .xlsx of xlwings Lite (no macros; its code stored in it).  Excel opens a file by its
# extension, so each copy keeps its own.
BUNDLED = {False: ("xlsudoku.xlsm", ".xlsm"), True: ("xlsudoku-lite.xlsx", ".xlsx")}


def bundled_workbook(lite: bool = False) -> Path:
    """Return the path of the workbook the installed package carries (*lite*: the Lite copy).

    An installed distribution carries them in ``xlsudoku/workbooks/``; a checkout of the
    repository has them in its ``workbooks/`` folder, where the template build writes them.

    >>> bundled_workbook(lite=True).name
    'xlsudoku-lite.xlsx'
    """
    name = BUNDLED[lite][0]
    package = Path(__file__).resolve().parents[1]
    installed = package / "workbooks" / name
    return installed if installed.is_file() else package.parent / "workbooks" / name


def _add_new(buttons: Subparsers) -> None:
    text = "write a fresh copy of the xlsudoku workbook (--lite: the xlwings Lite copy) to PATH"
    p = buttons.add_parser("new", help=text, description=text + "; an existing file is kept.")
    p.add_argument("path", metavar="PATH", help="the new workbook: .xlsm (or .xlsx with --lite)")
    p.add_argument(
        "--lite",
        action="store_true",
        help="the xlwings Lite copy (.xlsx, no macros; its main.py and requirements.txt in it)",
    )
    p.set_defaults(run=_run_new, first_state=lambda args: f"nothing was written to {args.path}")


def _run_new(args: argparse.Namespace) -> int:
    import shutil

    from xlsudoku import __version__
    from xlsudoku.cli.outputs import check_output
    from xlsudoku.errors import Exit, UnusableFile
    from xlsudoku.xlsm.files import replace_atomically

    name, extension = BUNDLED[args.lite]
    output = check_output(args.path, option="PATH", workbook=True)
    if Path(args.path).suffix.lower() != extension:
        kind = "the xlwings Lite copy" if args.lite else "the desktop workbook (with macros)"
        print(
            f"xlsudoku workbook new: PATH {args.path} must end in {extension} for {kind}: "
            "Excel opens a workbook by its extension; nothing was written",
            file=sys.stderr,
        )
        return Exit.USAGE
    source = bundled_workbook(args.lite)
    if not source.is_file():
        raise UnusableFile(f"{source}: the package's {name} is missing; reinstall xlsudoku")
    if output.existing:
        raise UnusableFile(f"PATH {args.path} exists; nothing was written: choose another PATH")
    output.real.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(
        lambda temp: shutil.copyfile(source, temp),
        output.real,
        backup=False,
        interrupts=args.interrupts,
    )
    print(f"wrote {args.path}: the xlsudoku {__version__} workbook ({name})")
    if args.lite:
        print("  open it in Excel with the xlwings Lite add-in; its requirements.txt installs")
        print(f"  xlsudoku=={__version__} (docs/workbook.md, xlwings Lite)")
    else:
        print(f"  next: xlsudoku workbook start {args.path}, or open it in Excel")
    return Exit.OK


def _add_button(buttons: Subparsers, name: str, text: str) -> None:
    p = buttons.add_parser(name, help=text, description=text)
    p.add_argument("workbook", metavar="BOOK", help="the .xlsm (or .xlsx) workbook file")
    if name == "import":
        p.add_argument(
            "source",
            metavar="FILE",
            nargs="?",
            help="a puzzle file to import (default: what the Import from cell names)",
        )
    p.add_argument(
        "--output",
        metavar="PATH",
        help="write the result to PATH (.xlsm/.xlsx) and leave BOOK unchanged",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="let --output replace another existing workbook (it is kept as a backup)",
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument(
        "--progress",
        action="store_true",
        help="draw START's progress bar even when stderr is not a terminal",
    )
    shown.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for another xlsudoku run writing the same file (default 60)",
    )
    p.set_defaults(run=_run_button, first_state=_first_state)


def _first_state(args: argparse.Namespace) -> str:
    """Return what the button's file is before it runs (said if Ctrl+C comes first).

    >>> _first_state(argparse.Namespace(workbook="b.xlsm", output=None))
    'b.xlsm was not changed'
    """
    if args.output:
        return f"nothing was written to {args.output}"
    return f"{args.workbook} was not changed"


def _run_button(args: argparse.Namespace) -> int:
    from xlsudoku.addin import headless
    from xlsudoku.cli.outputs import check_output

    target = args.output or args.workbook
    if args.output:
        check_output(
            args.output,
            option="--output",
            workbook=True,
            inputs=[args.workbook],
            in_place=True,
            replace=args.replace,
        )

    def say_waiting(seconds: float) -> None:
        print(
            f"xlsudoku workbook {args.button}: {target} is being written by another xlsudoku "
            f"run; waiting for it (up to {seconds:g} s)",
            file=sys.stderr,
            flush=True,
        )

    source = getattr(args, "source", None)
    named = None if source is None else Path(source).resolve()
    inputs = {} if named is None else {"ImportSource": str(named)}
    from xlsudoku.errors import Exit
    from xlsudoku.progress import wanted

    done = headless.run(
        args.button,
        args.workbook,
        args.output,
        progress=wanted(args.progress, args.quiet),
        interrupts=args.interrupts,
        wait=args.wait,
        on_wait=say_waiting,
        inputs=inputs,
        import_file=named,
    )
    outcome = done.outcome
    print(outcome.status)
    if outcome.ok and args.button == "start":
        print(f"puzzle: {outcome.detail.puzzle}")
    kept = ""
    if done.backup is not None:
        in_place = os.path.realpath(target) == os.path.realpath(args.workbook)
        what = "the previous version" if in_place else "the file it replaced"
        kept = f" ({what} is kept as {done.backup})"
    print(f"saved {done.saved_to}{kept}")
    if not outcome.ok:
        print(f"xlsudoku workbook {args.button}: {outcome.status}", file=sys.stderr)
        return Exit.BAD_INPUT
    if args.button == "start" and not outcome.detail.reached:
        # the same status as generate's for the same miss: the closest puzzle is in the file
        print(
            f"xlsudoku workbook start: the target was missed ({outcome.detail.message}); the "
            "closest puzzle was written",
            file=sys.stderr,
        )
        return Exit.GOAL_NOT_MET
    return Exit.OK


# The command words COMMANDS adds, in order (xlsudoku.cli builds only the module a command
# line starts with).
WORDS = ("workbook",)
COMMANDS = (_add_workbook,)
