"""Deep targets: the low-clue search behind every pattern and symmetry (9x9, few opens).

Random descent rarely goes below 23 opens on 9x9, so at or below ``LOW_GIVENS_TARGET`` one search
takes over, with the pattern's fixed cells and the request's symmetry: fresh grids searched
exhaustively and neighbour moves, time-shared (:mod:`.lowsearch`).  Every
puzzle the search meets with fewer opens than the best is kept: when the target is missed that
best comes back, made minimal; when it is met the puzzle has exactly the target (a puzzle found
below it gets orbits back).  The run ends at the target, after ``request.trials`` fresh grids,
at the time limit (``DEFAULT_SECONDS`` when the request has none) or on cancel.  Targets that
the pattern's fixed center box makes very unlikely (:mod:`.floors`) get a short search and a
message saying so.  With ``request.workers`` above 1 the search also runs in other processes
(:mod:`.workers`, loaded only then).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate import floors
from xlsudoku.engine.generate.descent import attempt, is_minimal, minimize
from xlsudoku.engine.generate.lowsearch import Found, Summary, Task, search_here
from xlsudoku.engine.generate.oracle import Oracle
from xlsudoku.engine.generate.request import Budget, BudgetKind, Form, GenerateRequest
from xlsudoku.engine.generate.strategy import Outcome, Plan, Stop, plural
from xlsudoku.engine.grid import CLASSIC, Grid
from xlsudoku.engine.solver import count_solutions

# Targets at or below this many opens (9x9) are deep.
LOW_GIVENS_TARGET = 23

# Without a time limit, a deep run gets this many seconds in all, so an unreachable target
# ends with a message instead of running for hours.
DEFAULT_SECONDS = 60.0

# Platforms whose Python cannot start processes (Pyodide in xlwings Lite; WASI).
NO_PROCESSES = frozenset({"emscripten", "wasi"})


def is_deep(request: GenerateRequest) -> bool:
    """Return True when the request's opens are a deep target (9x9, ``LOW_GIVENS_TARGET`` or less).

    >>> is_deep(GenerateRequest(target_givens=22)), is_deep(GenerateRequest(target_givens=26))
    (True, False)
    """
    return request.target_givens <= LOW_GIVENS_TARGET and request.geometry == CLASSIC


def run(plan: Plan) -> Outcome:
    """Run the low-clue search on the plan's form; the best puzzle and a message come back."""
    request, form = plan.request, plan.form
    task = Task(
        request.target_givens,
        request.symmetry,
        form.fixed_given,
        form.fixed_blank,
        request.trials,
        request.geometry,
    )
    floor = floors.unlikely(request, form, plan.limit)
    limit = plan.limit if floor is None else floors.quick_limit(plan.limit)
    clock = plan.clock if floor is None else plan.narrowed(limit)
    workers = usable_workers(request.workers)
    if workers > 1:
        from xlsudoku.engine.generate import workers as processes  # only when asked for

        summary = processes.search(plan, task, clock, limit, workers)
    else:
        summary = search_here(plan, task, clock)
    plan.absorb(clock)
    best = summary.best if summary.best is not None else _any_puzzle(plan)
    puzzle, solution = best.puzzle, best.solution
    # the target met counts however the run ended (a stop can come just after the find)
    reached = puzzle.given_count == request.target_givens
    if not reached:
        puzzle = minimize(puzzle, solution, form, request.target_givens, plan.rng)
        if plan.progress is not None and puzzle.given_count < best.givens:
            plan.progress(max(summary.grids, 1), puzzle.given_count)
    _check(puzzle, solution, form)
    stop: Stop = "reached" if reached else summary.stop
    if floor is not None and stop == "time":
        stop = "unlikely"  # a very unlikely target ends at its short limit: say why
    given_orbits = tuple(o for o in form.free if puzzle[o[0]])
    minimal = is_minimal(puzzle, solution, (*given_orbits, *form.fixed_orbits))
    words = Words(plan, summary, stop, limit, puzzle.given_count, minimal, best)
    return Outcome(
        puzzle=puzzle,
        solution=solution,
        stop=stop,
        trials=max(summary.grids, 1),
        grids=max(summary.grids, 1),
        message=words.message(floor),
        untested=given_orbits,
        limit=limit,
        workers=summary.workers,
    )


def _check(puzzle: Grid, solution: Grid, form: Form) -> None:
    """Check what the user gets: a unique puzzle of *solution* with the form's cells.

    The boundary between the search (and other processes) and the result; a failure is a bug.
    """
    cells = puzzle.cells
    if (
        any(d and d != s for d, s in zip(cells, solution.cells, strict=True))
        or any(not cells[c] for c in form.fixed_given)
        or any(cells[c] for c in form.fixed_blank)
        or any(bool(cells[o[0]]) != bool(cells[c]) for o in form.free for c in o)
        or count_solutions(puzzle, 2) != 1
    ):  # pragma: no cover - every puzzle of the search is checked unique as it is found
        raise AssertionError(f"the low-clue search gave a bad puzzle: {puzzle}")


def usable_workers(asked: int) -> int:
    """Return the processes a search may use: *asked*, or 1 where processes cannot start.

    >>> usable_workers(1), usable_workers(2) in (1, 2)
    (1, True)
    """
    if asked <= 1 or sys.platform in NO_PROCESSES:
        return 1
    return asked


def default_workers(seed: int | None) -> int:
    """Return the processes a deep search gets unless told: 1 for a seeded (reproducible) run.

    Without a seed, every CPU this process may run on (:func:`available_workers`): a run on
    several processes is not reproducible, so a seed keeps it to one.

    >>> default_workers(7), default_workers(None) == available_workers()
    (1, True)
    """
    return 1 if seed is not None else available_workers()


def available_workers() -> int:
    """Return the CPUs this process may run on where processes can start, else 1.

    >>> available_workers() >= 1
    True
    """
    if sys.platform in NO_PROCESSES:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def _any_puzzle(plan: Plan) -> Found:
    """Return a plain descent's puzzle: the search was stopped before its first grid ended."""
    solution = random_grid(plan.rng, plan.request.geometry)
    oracle = Oracle(solution)
    attempt(oracle, plan.form, plan.request.target_givens, plan.rng, None)
    return Found(oracle.puzzle(), solution, plan.elapsed(), 1, "descent")


# How a message names each kind of limit, and its unit.
_KIND_WORDS = {
    BudgetKind.WALL: "time limit",
    BudgetKind.CPU: "CPU-time limit",
    BudgetKind.WORK: "work limit",
}
_UNIT = {BudgetKind.WALL: "s", BudgetKind.CPU: "s", BudgetKind.WORK: "units"}


@dataclass(frozen=True, slots=True)
class Words:
    """The facts of a finished deep run, and the sentence that tells them."""

    plan: Plan
    summary: Summary
    stop: Stop
    limit: Budget | None
    givens: int
    minimal: bool
    best: Found

    def limit_words(self) -> str:
        """Return the limit for "of a ...": ``60 s time limit``, ``30 s CPU-time limit``."""
        assert self.limit is not None
        return f"{self.limit.amount:g} {_UNIT[self.limit.kind]} {_KIND_WORDS[self.limit.kind]}"

    def message(self, floor: floors.Floor | None) -> str:
        """Return the sentence for the user (see the module notes and README)."""
        failed = "; ".join(self.summary.errors)
        text = self.sentence(floor)
        return text if not failed else f"{text} (a process failed: {failed})"

    def sentence(self, floor: floors.Floor | None) -> str:
        """Return the sentence without the failures of other processes."""
        plan, summary = self.plan, self.summary
        target = plan.request.target_givens
        grids = plural(summary.grids, "grid")
        on = f" on {summary.workers} processes" if summary.workers > 1 else ""
        elapsed = plan.elapsed()
        if self.stop == "reached":
            if self.limit is None:
                return f"Reached {target} opens in {grids}{on} ({elapsed:.2f} s)"
            which = "the default" if plan.request.limit is None else "a"
            return (
                f"Reached {target} opens in {grids}{on} ({elapsed:.2f} s of {which} "
                f"{self.limit_words()})"
            )
        best = f"best is {self.givens} opens{' (minimal)' if self.minimal else ''}"
        if self.best.givens == self.givens and self.best.source != "descent":
            best += f", found after {self.best.seconds:.1f} s"
        if self.stop == "unlikely" and floor is not None:
            return (
                f"{floor.sentence(target)}; searched {elapsed:.1f} s{on}: {best}. Ask for "
                f"{floor.givens} or more, or give a time limit over {floor.seconds:g} s to "
                "search longer"
            )
        if self.stop == "cancel":
            return f"Cancelled after {elapsed:.1f} s ({grids}{on}); {best} (target {target})"
        if self.stop == "time" and self.limit is not None:
            which = "the default" if plan.request.limit is None else "the"
            return (
                f"Could not reach {target} opens in {self.limit.text()} ({which} "
                f"{_KIND_WORDS[self.limit.kind]}; {grids} searched{on}); {best}"
            )
        trials = plural(plan.request.trials, "trial")
        return f"Could not reach {target} opens in {trials} ({grids}{on}, {elapsed:.1f} s); {best}"
