"""The batch loop: items in order on any executor, deduplicated, written as they are done.

:func:`run_batch` sends chunks of consecutive items to an executor, takes their results back
in item order (:func:`~.executors.ordered`) and hands each group of new records to the sink
(:class:`~.store.BatchFile`) before it looks at the next.  An item gives no record when its
target was not reached (a time limit, or a deep target the search did not find) or when its
puzzle is already in the output: **deduplication is by the exact puzzle string** (two puzzles
that differ only by a relabelling or a rotation both stay).  The batch stops when it has
``count`` puzzles, when ``attempts`` items were tried, or when ``stop()`` says so; the output
is then a prefix of what an uninterrupted run writes, and resuming at ``next_index`` with the
same ``seen`` puzzles gives the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from xlsudoku.production.executors import Executor, ordered
from xlsudoku.production.records import Chunk, Record, RunStopped
from xlsudoku.production.spec import BatchSpec, request_fields

# Items per chunk for requests that take milliseconds (the default request); slow ones (deep
# targets, difficulty) go one per chunk so each find is written as soon as it is made.
FAST_CHUNK = 8


class Sink(Protocol):
    """Where records go: :class:`~.store.BatchFile`, or a list."""

    def append(self, records: list[Record], next_index: int) -> None:
        """Take *records*; *next_index* is the first item not looked at yet."""
        ...


@dataclass
class Summary:
    """What a run did.

    Attributes:
        have: Puzzles in the output (those kept from before included).
        added: Puzzles this run added.
        tried: Items this run looked at.
        duplicates: Items whose puzzle was already there.
        missed: Items whose target was not reached; ``misses`` the first reasons.
        next_index: The first item not looked at.
        levels: Puzzles added, by level.
    """

    have: int = 0
    added: int = 0
    tried: int = 0
    duplicates: int = 0
    missed: int = 0
    next_index: int = 0
    levels: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)


def is_slow(spec: BatchSpec) -> bool:
    """Return True when an item takes seconds: a deep 9x9 target, a difficulty or technique.

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> is_slow(BatchSpec((GenerateRequest(),), 1, 1, 1))
    False
    >>> is_slow(BatchSpec((GenerateRequest(target_givens=20, pattern=None),), 1, 1, 1))
    True
    """
    from xlsudoku.engine.generate.generator import DESCENT, pick

    return any(pick(request) is not DESCENT for request in spec.variants)


def chunks(spec: BatchSpec, start: int, size: int) -> Iterator[Chunk]:
    """Yield the chunks of items *start* to ``spec.attempts - 1``, *size* items each.

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> spec = BatchSpec((GenerateRequest(),), 1, 5, 5)
    >>> [(c.start, c.stop) for c in chunks(spec, 1, 3)]
    [(1, 4), (4, 5)]
    """
    variants = tuple(request_fields(v) for v in spec.variants)
    for first in range(start, spec.attempts, size):
        yield Chunk(variants, spec.seed, first, min(first + size, spec.attempts))


def run_batch(
    spec: BatchSpec,
    executor: Executor,
    sink: Sink,
    *,
    start: int = 0,
    seen: set[str] | None = None,
    key: Callable[[str], str] | None = None,
    chunk_size: int | None = None,
    progress: Callable[[Summary], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> Summary:
    """Make the puzzles of *spec* from item *start* on; *seen* holds the puzzles already out.

    Args:
        spec: The batch.
        executor: Where chunks run (:func:`~.executors.make_executor`).
        sink: Takes each group of new records, in item order.
        start: First item to make (items before it are done).
        seen: Puzzle keys already in the output (their puzzles are not written again).
        key: The key a puzzle string is compared by (default: the string itself; a daily set
            passes its canonical form, so a symmetric copy is a repeat).
        chunk_size: Items per chunk (default: :data:`FAST_CHUNK`, 1 for slow requests).
        progress: Called after each group with the summary so far.
        stop: Polled while chunks are waited for (and, on ``--jobs 1``, while an item is
            made); True ends the run at once: what is written stays, the chunks in flight
            are cancelled and made again on resume.

    Returns:
        The summary; ``have`` counts the *seen* puzzles too.

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> from xlsudoku.production.executors import InProcess
    >>> class Listed:
    ...     def __init__(self): self.records = []
    ...     def append(self, records, next_index): self.records += records
    >>> out = Listed()
    >>> s = run_batch(BatchSpec((GenerateRequest(),), 1, 3, 10), InProcess(), out)
    >>> s.have, [r["seed"] for r in out.records]
    (3, [1, 2, 3])
    """
    seen = set() if seen is None else seen
    summary = Summary(have=len(seen), next_index=start)
    if chunk_size is None:
        chunk_size = 1 if is_slow(spec) else FAST_CHUNK
    window = 2 * executor.workers + 2
    try:
        for made in ordered(executor, chunks(spec, start, chunk_size), window, stop):
            new: list[Record] = []
            for item in made:
                if summary.have >= spec.count:
                    break
                summary.tried += 1
                summary.next_index = item.index + 1
                if item.record is None:
                    summary.missed += 1
                    if len(summary.misses) < 3:
                        summary.misses.append(f"seed {spec.seed + item.index}: {item.miss}")
                    continue
                puzzle = str(item.record["puzzle"])
                if key is not None:
                    puzzle = key(puzzle)
                if puzzle in seen:
                    summary.duplicates += 1
                    continue
                seen.add(puzzle)
                new.append(item.record)
                summary.have += 1
                summary.added += 1
                summary.levels[str(item.record["level"])] += 1
            sink.append(new, summary.next_index)
            if progress is not None:
                progress(summary)
            if summary.have >= spec.count or (stop is not None and stop()):
                break
    except RunStopped:
        pass  # the chunk cut short is not written: resuming at next_index makes it again
    finally:
        executor.close(cancel=True)
    return summary
