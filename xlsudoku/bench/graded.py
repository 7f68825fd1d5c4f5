"""``xlsudoku bench graded-vs-main``: CPU per accepted graded puzzle, this tree against another.

What a user pays for a graded puzzle is the whole ``xlsudoku generate --difficulty LEVEL``
process: the search, its gradings, and the analysis the command prints.  For each level and
seed, A (the other tree, e.g. a ``git worktree`` of main at the commit before a change) and B
(this tree) run the same command as whole processes, in turn (A B, then B A for the next
seed), each with the same interpreter and the other tree first on its import path; each
process's own CPU time comes from ``os.wait4`` (a shared machine slows the wall clock, hardly
the CPU time).  A puzzle is *accepted* when the command reached its target (exit 0).  The
report gives, per level and in all, each side's CPU seconds, accepted puzzles and CPU per
accepted puzzle, and the ratio A/B of the CPU per accepted puzzle: for the whole processes,
and for ``main()`` alone (the child measures its own CPU time around it, after start-up and
the engine's imports: the generator's work and the analysis the command prints).

The runs are bounded by ``--budget cpu:SEC`` (CPU time: the same search on a loaded machine)
and ``--workers 1``.  Python compiles a module's source whenever it has no cached bytecode
(every time, when ``PYTHONDONTWRITEBYTECODE`` is set); the report says which for each tree,
and ``--compile`` compiles both trees' packages first, as installing a wheel does, so that
start-up and ``main()`` measure what an installed command pays.  The goal (``GOAL``): A's
``main()`` CPU per accepted puzzle at least 1.5 times B's.
"""

from __future__ import annotations

import argparse
import compileall
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from xlsudoku.bench.common import load_note
from xlsudoku.bench.whole import Command, Finished, bytecode_note, run_process
from xlsudoku.errors import Exit

GOAL = 1.5
PACKAGE_ROOT = Path(__file__).resolve().parents[2]

# The child: the tree given first on the import path, the engine imported, then the command
# line's main(), whose own CPU time (the work, without start-up and imports) goes to a file.
CHILD = """\
import sys, time
_, tree, work, *argv = sys.argv
sys.path.insert(0, tree)
import xlsudoku
assert xlsudoku.__file__.startswith(tree), xlsudoku.__file__
import xlsudoku.engine.analysis, xlsudoku.engine.generate
from xlsudoku.cli import main
began = time.process_time()
status = main(argv)
with open(work, "w") as out:
    out.write(repr(time.process_time() - began))
sys.exit(status)
"""


def command(
    label: str, tree: Path, level: str, seed: int, args: argparse.Namespace, work: Path
) -> Command:
    """Return the generate command of one side for *level* and *seed* (its CPU to *work*).

    >>> c = command("B", Path("/t"), "hard", 3, argparse.Namespace(opens=26, cpu=60.0),
    ...             Path("w"))
    >>> c.argv[3:8]
    ('/t', 'w', 'generate', '--difficulty', 'hard')
    """
    argv = (
        sys.executable,
        "-c",
        CHILD,
        str(tree),
        str(work),
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
    # generate exits 0 when it reached the target, 5 when it missed (the closest is printed)
    return run.status == 0


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
    for label, tree in (("A", other), ("B", here)):
        if args.compile:
            compileall.compile_dir(str(tree / "xlsudoku"), quiet=1)
        say(f"{label} {bytecode_note(tree / 'xlsudoku')}")
    last = args.first_seed + args.seeds - 1
    say(f"levels {', '.join(args.levels)}; seeds {args.first_seed}-{last}; {args.opens} opens; "
        f"--budget cpu:{args.cpu:g}")  # fmt: skip
    say("per run: the process's CPU seconds (start-up and imports included), then main()'s")
    totals: dict[str, dict[str, list[float]]] = {}
    works: dict[str, dict[str, float]] = {}
    turn = 0
    with tempfile.TemporaryDirectory(prefix="xlsudoku-graded-") as folder:
        work = Path(folder) / "cpu.txt"
        for level in args.levels:
            sums = totals.setdefault(level, {"A": [0.0, 0], "B": [0.0, 0]})
            inner = works.setdefault(level, {"A": 0.0, "B": 0.0})
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                pair = [
                    command("A", other, level, seed, args, work),
                    command("B", here, level, seed, args, work),
                ]
                if turn % 2:
                    pair.reverse()
                turn += 1
                line = [f"{level} seed {seed}:"]
                for side in pair:
                    work.unlink(missing_ok=True)
                    done = run_process(side)
                    ok = _accepted(done)
                    spent = float(work.read_text()) if work.exists() else float("nan")
                    sums[side.label][0] += done.usage.cpu
                    sums[side.label][1] += ok
                    inner[side.label] += spent
                    line.append(
                        f"{side.label} {done.usage.cpu:.2f} s (main {spent:.2f} s) "
                        + ("accepted" if ok else "missed")
                    )
                say(" ".join(line))
    say("")
    say("whole processes:")
    say(f"{'level':<12}{'A cpu':>9}{'A ok':>6}{'A per':>9}{'B cpu':>9}{'B ok':>6}{'B per':>9}"
        f"{'A/B':>8}")  # fmt: skip
    all_a, all_b = [0.0, 0], [0.0, 0]
    for level, sums in totals.items():
        a, b = sums["A"], sums["B"]
        all_a = [all_a[0] + a[0], all_a[1] + a[1]]
        all_b = [all_b[0] + b[0], all_b[1] + b[1]]
        say(_row(level, a, b))
    say(_row("all", all_a, all_b))
    say("")
    say("main() only (the work, without start-up and imports):")
    in_a, in_b = 0.0, 0.0
    for level, sums in totals.items():
        a, b = works[level]["A"], works[level]["B"]
        in_a, in_b = in_a + a, in_b + b
        say(_row(level, [a, sums["A"][1]], [b, sums["B"][1]]))
    say(_row("all", [in_a, all_a[1]], [in_b, all_b[1]]))
    say(f"end: {load_note()}")
    ratio = per_accepted(*all_a) / per_accepted(*all_b) if all_b[1] else 0.0
    inner = per_accepted(in_a, int(all_a[1])) / per_accepted(in_b, int(all_b[1]))
    met = inner >= GOAL
    verdict = "met" if met else "NOT met"
    say(f"goal: the generator's CPU (main()) per accepted puzzle at least {GOAL}x lower than "
        f"A's: {verdict} ({inner:.2f}x; whole processes {ratio:.2f}x)")  # fmt: skip
    return Exit.OK if met else Exit.GOAL_NOT_MET


def _row(name: str, a: list[float], b: list[float]) -> str:
    per_a, per_b = per_accepted(a[0], int(a[1])), per_accepted(b[0], int(b[1]))
    ratio = per_a / per_b if per_b not in (0.0, float("inf")) else float("nan")
    return (
        f"{name:<12}{a[0]:>9.2f}{int(a[1]):>6}{per_a:>9.2f}{b[0]:>9.2f}{int(b[1]):>6}"
        f"{per_b:>9.2f}{ratio:>7.2f}x"
    )
