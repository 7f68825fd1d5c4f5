"""``xlsudoku bench graded-vs-main``: CPU per accepted graded puzzle, this tree against another.

What a user pays for a graded puzzle is the whole ``xlsudoku generate --difficulty LEVEL``
process: the search, its gradings, and the analysis the command prints.  For each level and
seed, A (the other tree, e.g. a ``git worktree`` of main at the commit before a change) and B
(this tree) run the same command as whole processes, in turn (A B, then B A for the next
seed), each with the same interpreter and the other tree first on its import path; each
process's own CPU time comes from ``os.wait4`` (a shared machine slows the wall clock, hardly
the CPU time).  A puzzle is *accepted* when the command reached its target (exit 0).  The
report gives, per level and in all, each side's CPU seconds, accepted puzzles and CPU per
accepted puzzle, and the ratio A/B of the CPU per accepted puzzle.

The runs are bounded by ``--budget cpu:SEC`` (CPU time: the same search on a loaded machine)
and ``--workers 1``.  The goal (``GOAL``): A's CPU per accepted puzzle at least 1.5 times B's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from xlsudoku.bench.common import load_note
from xlsudoku.bench.whole import Command, Finished, run_process
from xlsudoku.errors import Exit

GOAL = 1.5
PACKAGE_ROOT = Path(__file__).resolve().parents[2]

# The child: the tree given first on the import path, then the command line's main().
CHILD = """\
import sys
sys.path.insert(0, sys.argv[1])
import xlsudoku
assert xlsudoku.__file__.startswith(sys.argv[1]), xlsudoku.__file__
from xlsudoku.cli import main
sys.exit(main(sys.argv[2:]))
"""


def command(label: str, tree: Path, level: str, seed: int, args: argparse.Namespace) -> Command:
    """Return the generate command of one side for *level* and *seed*.

    >>> c = command("B", Path("/t"), "hard", 3, argparse.Namespace(opens=26, cpu=60.0))
    >>> c.argv[3:7]
    ('/t', 'generate', '--difficulty', 'hard')
    """
    argv = (
        sys.executable,
        "-c",
        CHILD,
        str(tree),
        "generate",
        "--difficulty",
        level,
        "--opens",
        str(args.opens),
        "--seed",
        str(seed),
        "--budget",
        f"cpu:{args.cpu:g}",
        "--workers",
        "1",
        "--format",
        "json",
    )
    return Command(label, argv, tree)


def _accepted(run: Finished) -> bool:
    if run.status != 0:
        return False
    try:
        return bool(json.loads(run.output.splitlines()[0]).get("reached"))
    except (ValueError, IndexError, AttributeError):
        return False


def per_accepted(cpu: float, accepted: int) -> float:
    """Return CPU seconds per accepted puzzle (infinite when none was accepted).

    >>> per_accepted(6.0, 3), per_accepted(1.0, 0)
    (2.0, inf)
    """
    return cpu / accepted if accepted else float("inf")


def run(args: argparse.Namespace, say: Callable[[str], None] = print) -> int:
    """Run the comparison; 0 when B's CPU per accepted puzzle is ``GOAL`` times below A's."""
    other = Path(args.other_tree).resolve()
    here = PACKAGE_ROOT
    say("xlsudoku bench graded-vs-main: CPU per accepted graded puzzle, another tree (A) "
        "against this one (B)")  # fmt: skip
    say(f"start: {load_note()}")
    say(f"A = {other}; B = {here}; interpreter {sys.executable}")
    last = args.first_seed + args.seeds - 1
    say(f"levels {', '.join(args.levels)}; seeds {args.first_seed}-{last}; {args.opens} opens; "
        f"--budget cpu:{args.cpu:g}")  # fmt: skip
    totals: dict[str, dict[str, list[float]]] = {}
    turn = 0
    for level in args.levels:
        sums = totals.setdefault(level, {"A": [0.0, 0], "B": [0.0, 0]})
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            pair = [command("A", other, level, seed, args), command("B", here, level, seed, args)]
            if turn % 2:
                pair.reverse()
            turn += 1
            line = [f"{level} seed {seed}:"]
            for side in pair:
                done = run_process(side)
                ok = _accepted(done)
                sums[side.label][0] += done.usage.cpu
                sums[side.label][1] += ok
                line.append(f"{side.label} {done.usage.cpu:.2f} s {'accepted' if ok else 'missed'}")
            say(" ".join(line))
    say("")
    say(f"{'level':<12}{'A cpu':>9}{'A ok':>6}{'A per':>9}{'B cpu':>9}{'B ok':>6}{'B per':>9}"
        f"{'A/B':>8}")  # fmt: skip
    all_a, all_b = [0.0, 0], [0.0, 0]
    for level, sums in totals.items():
        a, b = sums["A"], sums["B"]
        all_a = [all_a[0] + a[0], all_a[1] + a[1]]
        all_b = [all_b[0] + b[0], all_b[1] + b[1]]
        say(_row(level, a, b))
    say(_row("all", all_a, all_b))
    say(f"end: {load_note()}")
    ratio = per_accepted(*all_a) / per_accepted(*all_b) if all_b[1] else 0.0
    met = ratio >= GOAL
    say(f"goal: CPU per accepted puzzle at least {GOAL}x lower than A's: "
        f"{'met' if met else 'NOT met'} ({ratio:.2f}x)")  # fmt: skip
    return Exit.OK if met else Exit.GOAL_NOT_MET


def _row(name: str, a: list[float], b: list[float]) -> str:
    per_a, per_b = per_accepted(a[0], int(a[1])), per_accepted(b[0], int(b[1]))
    ratio = per_a / per_b if per_b not in (0.0, float("inf")) else float("nan")
    return (
        f"{name:<12}{a[0]:>9.2f}{int(a[1]):>6}{per_a:>9.2f}{b[0]:>9.2f}{int(b[1]):>6}"
        f"{per_b:>9.2f}{ratio:>7.2f}x"
    )
