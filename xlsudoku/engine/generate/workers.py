"""A deep search on several processes: the same search with other seeds, the best of all kept.

Loaded only when a request asks for more than one worker, and never where processes cannot
start (Pyodide: :func:`.deep.usable_workers`), so importing the engine never imports
:mod:`multiprocessing`.  This process searches too (worker 0); every other worker is a process
started with the ``spawn`` method (the same on Linux, macOS and Windows) that runs
:func:`child`: the search of :class:`.lowsearch.LowSearch` with its own seed (drawn from the plan's
random source), its share of the trials and its share of the limit: the same deadline for a
wall-clock limit, an equal part of what is left for a CPU or work budget (a budget counts the
work of every process).  Children put each new best on a queue; this process reads it whenever
its own search polls its clock, keeps the best of all, and sets a shared stop event as soon as
any worker reached the target, the limit was reached or the caller cancelled.  Which worker
finds the target first depends on timing, so a run on several processes is not reproducible
from its seed (one process is).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import queue
import random
import time
from typing import Any

from xlsudoku.engine.generate.clock import Clock
from xlsudoku.engine.generate.lowsearch import Found, LowSearch, Summary, Task
from xlsudoku.engine.generate.request import Budget, BudgetKind
from xlsudoku.engine.generate.strategy import Plan, Stop
from xlsudoku.engine.grid import Grid

# Seconds to wait for the children to say they stopped before they are terminated.
JOIN_SECONDS = 2.0

# Seconds between two reads of the queue while this process waits for the children.
WAIT_SECONDS = 0.1


def shares(total: int | None, workers: int) -> list[int | None]:
    """Return each worker's share of *total* trials (None: no limit).

    >>> shares(5, 2), shares(None, 2), shares(1, 3)
    ([3, 2], [None, None], [1, 1, 1])
    """
    if total is None:
        return [None] * workers
    return [max(1, total // workers + (k < total % workers)) for k in range(workers)]


def share(clock: Clock, limit: Budget | None, workers: int) -> Budget | None:
    """Return each worker's part of what is left of *limit* on *clock*.

    The whole time left of a wall-clock limit (the workers run side by side), an equal part of
    the CPU seconds or work units left of a budget.

    >>> share(Clock(work=400_000, count=100_000), Budget(4.0, BudgetKind.WORK), 2)
    Budget(amount=1.5, kind=<BudgetKind.WORK: 'work'>)
    """
    left = clock.remaining()
    if limit is None or left is None:
        return None
    amount = max(left, 1e-9)
    if limit.kind is not BudgetKind.WALL:
        amount /= workers
    return Budget(amount, limit.kind)


def child(
    number: int,
    task: Task,
    seed: int,
    limit: Budget | None,
    messages: Any,
    stop: Any,
) -> None:
    """Run worker *number*'s search and report to *messages* until done or *stop* is set.

    Messages: ``("record", number, puzzle cells, solution cells, source)`` for each new best,
    ``("grid", number, grids drawn, puzzles explored)`` after each fresh grid, and last
    ``("done", number, why, grids, explored)`` or ``("error", number, text)``.
    """
    try:
        clock = Clock.start(limit, stop.is_set)

        def on_record(found: Found) -> None:
            messages.put(("record", number, found.puzzle.cells, found.solution.cells, found.source))

        search = LowSearch(task, random.Random(seed), clock, on_record)
        search.on_grid = lambda grids, givens: messages.put(
            ("grid", number, grids, search.explored)
        )
        why = search.run()
        messages.put(("done", number, why, search.grids, search.explored))
    except Exception as exc:  # the parent reports it; a child has no one else to tell
        messages.put(("error", number, f"{type(exc).__name__}: {exc}"))


class Merge:
    """The best of all workers, and what each has spent."""

    def __init__(self, plan: Plan, task: Task, workers: int) -> None:
        self.plan = plan
        self.task = task
        self.best: Found | None = None
        self.grids = [0] * workers
        self.explored = [0] * workers
        self.done = [False] * workers
        self.errors: list[str] = []

    @property
    def reached(self) -> bool:
        """True when some worker met the target."""
        return self.best is not None and self.best.givens <= self.task.target

    def offer(self, puzzle: Grid, solution: Grid, source: str) -> None:
        """Keep *puzzle* when it beats the best so far, and tell the plan's progress."""
        if self.best is not None and puzzle.given_count >= self.best.givens:
            return
        self.best = Found(puzzle, solution, self.plan.elapsed(), sum(self.grids), source)
        self.report()

    def report(self) -> None:
        """Tell the plan's progress the grids so far and the best opens."""
        if self.plan.progress is not None and self.best is not None:
            self.plan.progress(sum(self.grids), self.best.givens)

    def handle(self, message: tuple[Any, ...]) -> None:
        """Take one message from a child."""
        kind, number = message[0], message[1]
        geometry = self.task.geometry
        if kind == "record":
            self.offer(Grid(message[2], geometry), Grid(message[3], geometry), message[4])
        elif kind == "grid":
            self.grids[number], self.explored[number] = message[2], message[3]
            self.report()
        elif kind == "done":
            self.grids[number], self.explored[number] = message[3], message[4]
            self.done[number] = True
        else:
            self.errors.append(f"worker {number}: {message[2]}")
            self.done[number] = True

    def check(self, processes: dict[int, Any]) -> None:
        """Count a child that ended without its last message (killed, or crashed) as done."""
        for number, process in processes.items():
            if not self.done[number] and not process.is_alive():
                self.errors.append(f"worker {number} ended (exit code {process.exitcode})")
                self.done[number] = True

    def drain(self, messages: Any) -> bool:
        """Take every waiting message; return True when some worker met the target."""
        while True:
            try:
                self.handle(messages.get_nowait())
            except queue.Empty:
                return self.reached


def search(plan: Plan, task: Task, clock: Clock, limit: Budget | None, workers: int) -> Summary:
    """Run the search on *workers* processes (this one included) until the first stop.

    *clock* is the run's (with its *limit*); this process's own search counts its ticks there.
    """
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    stop = context.Event()
    seeds = [plan.rng.getrandbits(64) for _ in range(workers - 1)]
    parts = shares(task.max_grids, workers)
    merge = Merge(plan, task, workers)
    processes: dict[int, Any] = {}
    part = share(clock, limit, workers)
    for number, seed in enumerate(seeds, start=1):
        process = context.Process(
            target=child,
            args=(number, dataclasses.replace(task, max_grids=parts[number]), seed, part),
            kwargs={"messages": messages, "stop": stop},
            daemon=True,
        )
        try:
            process.start()
        except OSError as exc:  # out of processes or memory: search without this one
            merge.errors.append(f"worker {number} did not start: {exc}")
            merge.done[number] = True
            continue
        processes[number] = process

    def own_record(found: Found) -> None:
        merge.grids[0] = own.grids
        merge.offer(found.puzzle, found.solution, found.source)

    def own_grid(grids: int, givens: int) -> None:
        merge.grids[0], merge.explored[0] = grids, own.explored
        merge.report()

    own_clock = Clock.start(
        part, lambda: plan.cancelled() or merge.drain(messages), count=clock.count
    )
    own = LowSearch(
        dataclasses.replace(task, max_grids=parts[0]),
        plan.rng,
        own_clock,
        own_record,
        own_grid,
    )
    why: Stop = own.run()
    clock.count = own_clock.count
    merge.grids[0], merge.explored[0], merge.done[0] = own.grids, own.explored, True
    try:
        while why == "trials" and not all(merge.done) and not merge.reached:
            if plan.cancelled():
                why = "cancel"
            elif own_clock.late():
                why = "time"
            else:
                try:
                    merge.handle(messages.get(timeout=WAIT_SECONDS))
                except queue.Empty:
                    merge.check(processes)
    finally:
        stop.set()
        _finish(processes, messages, merge)
    if merge.reached:
        why = "reached"
    elif why == "cancel" and not plan.cancelled():
        why = "time" if own_clock.late() else "trials"
    return Summary(
        merge.best, why, sum(merge.grids), sum(merge.explored), workers, tuple(merge.errors)
    )


def _finish(processes: dict[int, Any], messages: Any, merge: Merge) -> None:
    """Collect the children's last messages, then make sure every child has ended."""
    until = time.perf_counter() + JOIN_SECONDS
    while not all(merge.done) and time.perf_counter() < until:
        try:
            merge.handle(messages.get(timeout=WAIT_SECONDS))
        except queue.Empty:
            if not any(p.is_alive() for p in processes.values()):
                break
    for process in processes.values():
        process.join(timeout=max(0.0, until - time.perf_counter()))
        if process.is_alive():
            process.terminate()
            process.join()
    merge.check(processes)
    messages.close()
    messages.join_thread()
