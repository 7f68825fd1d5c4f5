"""Where a batch's chunks run: this process, local worker processes, or a Dask cluster.

Every executor has the same two methods: ``submit(chunk)`` returns a handle whose
``result()`` is the chunk's list of :class:`~.records.Made`, and ``close(cancel)`` ends it
(``cancel`` drops the chunks not needed any more).  :func:`ordered` keeps a window of chunks in
flight and gives their results back in submission order, so the output is the same whatever
runs the chunks, and memory stays bounded whatever the batch's size.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from xlsudoku.interrupts import Cut, cut_when
from xlsudoku.production.records import Chunk, Made, RunStopped, make_chunk


class ExecutorError(RuntimeError):
    """The executor cannot start: no such scheduler, no workers, ..."""


class Pending(Protocol):
    """A chunk in flight."""

    def result(self) -> list[Made]:
        """Wait for the chunk and return its items."""
        ...

    def done(self) -> bool:
        """Return True when :meth:`result` would not wait for another process."""
        ...


class Executor(Protocol):
    """Runs chunks; ``workers`` is how many run at once."""

    workers: int
    name: str

    def submit(self, chunk: Chunk) -> Pending:
        """Start *chunk* (or queue it)."""
        ...

    def close(self, cancel: bool) -> None:
        """Stop; with *cancel*, drop chunks not finished."""
        ...


def all_cores() -> int:
    """Return the cores this process may run on (the default of ``--jobs``).

    >>> all_cores() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Later:
    """A chunk made when its result is asked for (the in-process executor)."""

    def __init__(self, chunk: Chunk, stop: Callable[[], bool] | None) -> None:
        self.chunk = chunk
        self.stop = stop

    def result(self) -> list[Made]:
        if self.stop is None:
            return make_chunk(self.chunk)
        try:
            # the grading of an item takes no stop hook: a timer looks at it meanwhile
            with cut_when(self.stop):
                return make_chunk(self.chunk, self.stop)
        except Cut:
            raise RunStopped("stopped while a chunk was made") from None

    def done(self) -> bool:
        return True  # made here, and stopped by the stop hook while it is made


class InProcess:
    """Make every chunk in this process, one after the other (``--jobs 1``).

    *stop* (Ctrl+C, the run's time limit) is polled while an item is made: True ends the
    chunk with :class:`~.records.RunStopped` and nothing of it is kept.

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> from xlsudoku.production.spec import request_fields
    >>> chunk = Chunk((request_fields(GenerateRequest()),), 1, 0, 1)
    >>> InProcess().submit(chunk).result()[0].record["seed"]
    1
    """

    workers = 1
    name = "1 process"

    def __init__(self, stop: Callable[[], bool] | None = None) -> None:
        self.stop = stop

    def submit(self, chunk: Chunk) -> Pending:
        """Return a handle that makes *chunk* when asked."""
        return _Later(chunk, self.stop)

    def close(self, cancel: bool) -> None:
        """Nothing to stop."""


_PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h): a signal for when the parent dies


def _die_with_parent(parent: int) -> None:
    """Make this worker end when the batch process *parent* ends, even by SIGKILL.

    On Linux the kernel sends SIGKILL when the parent dies (``prctl(PR_SET_PDEATHSIG)``);
    elsewhere a thread watches the parent id and ends the process when it changes (the
    orphan is given to another parent).  Either way a killed batch leaves no worker behind
    still computing or holding its standard output open.
    """
    import sys

    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    elif os.name == "posix":
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                threading.Event().wait(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="parent watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the watch was set
        os._exit(1)


def _start_worker(parent: int) -> None:
    """Start a worker process: die with the batch, and leave Ctrl+C to it."""
    _die_with_parent(parent)
    # Ctrl+C goes to the whole process group: the main process decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _interrupt_ignored() -> Iterator[None]:
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to change
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class Processes:
    """Make chunks in *jobs* worker processes of this machine (``--jobs N``).

    Workers are spawned, not forked: they share none of the main process's state (not the
    output file nor its lock, which a worker outliving a killed batch would otherwise hold),
    start the same way on every platform, and are this process's own children (so their CPU
    time is counted with it).  They end with the main process, even when it is killed
    (:func:`_die_with_parent`).  Ctrl+C is left to the main process.  A worker
    that dies (the out-of-memory killer) makes the batch stop with :class:`ExecutorError`
    rather than wait for a chunk that will never come.
    """

    def __init__(self, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self.workers = jobs
        self.name = f"{jobs} processes"
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            jobs, context, initializer=_start_worker, initargs=(os.getpid(),)
        )

    def submit(self, chunk: Chunk) -> Pending:
        """Queue *chunk* for a worker."""
        from concurrent.futures.process import BrokenProcessPool

        died = "a worker process died (out of memory?); what was written is kept"
        try:
            # A worker is started (spawned) when a chunk is submitted: started with Ctrl+C
            # ignored, it cannot be cut by a press while Python starts up in it, before its
            # initializer runs.  The parent ignores presses only for the moment of the spawn.
            with _interrupt_ignored():
                future = self._pool.submit(make_chunk, chunk)
        except BrokenProcessPool as error:  # the pool broke before this chunk was queued
            raise ExecutorError(f"{died} ({type(error).__name__}: {error})") from None
        return _Handle(future, (BrokenProcessPool,), died)

    def close(self, cancel: bool) -> None:
        """Stop the workers (at once with *cancel*, else after their chunks)."""
        if not cancel:
            self._pool.shutdown(wait=True)
            return
        # Chunks still running are not needed: end their processes rather than wait.
        terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14+
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        if terminate is not None:
            terminate()
            return
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)


class _Handle:
    """A chunk in flight on a pool or cluster: a failure there becomes an ExecutorError."""

    def __init__(self, future: Any, failures: tuple[type[BaseException], ...], what: str) -> None:
        self._future = future
        self._failures = failures
        self._what = what

    def result(self) -> list[Made]:
        try:
            made: list[Made] = self._future.result()
        except self._failures as error:
            raise ExecutorError(f"{self._what} ({type(error).__name__}: {error})") from None
        return made

    def done(self) -> bool:
        return bool(self._future.done())


class DaskCluster:
    """Make chunks on a Dask distributed cluster (``--scheduler ADDRESS``).

    *address* is a scheduler address (``tcp://host:8786``), a scheduler file written by
    ``dask scheduler --scheduler-file``, or ``local`` for a :class:`distributed.LocalCluster`
    of *jobs* single-threaded worker processes on this machine.  Workers need ``xlsudoku``
    installed; one thread per worker process is best (the work is pure Python).
    """

    def __init__(self, address: str, jobs: int, timeout: float = 10.0) -> None:
        self._cluster: Any = None
        if address == "local":
            # The workers are this process's children: started with Ctrl+C ignored (they keep
            # that), a Ctrl+C at the terminal is the main process's to answer.  A press while
            # the cluster starts is not seen (a blocked SIGINT would be lost to the threads
            # native libraries start unblocked): it is answered once the cluster is up.
            with _interrupt_ignored():
                self._connect(address, jobs, timeout)
        else:
            self._connect(address, jobs, timeout)
        threads = self._client.nthreads()
        self.workers = max(1, sum(threads.values()))
        where = "local cluster" if address == "local" else address
        self.name = f"Dask {where} ({len(threads)} workers, {self.workers} threads)"
        self._futures: list[Any] = []

    def _connect(self, address: str, jobs: int, timeout: float) -> None:
        """Start the client (and the local cluster); raise ExecutorError when it cannot."""
        try:
            from distributed import Client, LocalCluster
        except ImportError as error:  # pragma: no cover - distributed is a dependency
            raise ExecutorError(f"Dask distributed is not installed ({error})") from None
        try:
            if address == "local":
                self._cluster = LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    # workers cut off mid-chunk at the end of a batch log it: not an error
                    silence_logs=logging.CRITICAL,
                )
                self._client = Client(self._cluster)
            elif Path(address).is_file():
                self._client = Client(scheduler_file=address, timeout=timeout)
            else:
                self._client = Client(address, timeout=timeout)
            self._client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as error:
            self._shutdown()
            raise ExecutorError(f"cannot use the Dask scheduler {address}: {error}") from None

    def submit(self, chunk: Chunk) -> Pending:
        """Send *chunk* to the scheduler."""
        future = self._client.submit(make_chunk, chunk, pure=False)
        self._futures = [f for f in self._futures if not f.done()]
        self._futures.append(future)
        # any error: a worker without xlsudoku, a lost worker, ...
        return _Handle(future, (Exception,), "a Dask task failed")

    def close(self, cancel: bool) -> None:
        """Cancel what is left (with *cancel*) and disconnect; a local cluster is stopped.

        With *cancel*, a local cluster's worker processes (this process's children) are
        killed first: a worker in the middle of a search would otherwise hold the cluster's
        close up until its chunk is done.
        """
        if cancel and self._futures:
            self._client.cancel(self._futures)
        if cancel and self._cluster is not None:
            import psutil  # a dependency of Dask distributed

            for child in psutil.Process().children():
                with contextlib.suppress(psutil.Error):
                    if "spawn_main" in " ".join(child.cmdline()):  # not the resource tracker
                        child.kill()
        self._shutdown()

    def _shutdown(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()


def capped_jobs(asked: int, chunks: int, cores: int) -> tuple[int, str]:
    """Return the worker processes to start for *asked* and why fewer ("" when not fewer).

    More workers than the CPUs available only share them, and more than the chunks to make
    have nothing to do.

    >>> capped_jobs(1_000_001, 500, 2)
    (2, 'the CPUs available')
    >>> capped_jobs(8, 3, 16), capped_jobs(2, 10, 4)
    ((3, 'the chunks to make'), (2, ''))
    """
    jobs = max(1, min(asked, cores, chunks))
    if jobs == asked:
        return jobs, ""
    return jobs, "the CPUs available" if jobs == min(cores, asked) else "the chunks to make"


def make_executor(
    jobs: int, scheduler: str | None, stop: Callable[[], bool] | None = None
) -> Executor:
    """Return the executor for ``--jobs`` and ``--scheduler``.

    *stop* is polled by the chunks this process makes itself (``--jobs 1``); other
    executors' chunks are waited for by :func:`ordered`, which polls it too.

    >>> make_executor(1, None).name
    '1 process'
    """
    if scheduler is not None:
        return DaskCluster(scheduler, jobs)
    if jobs <= 1:
        return InProcess(stop)
    return Processes(jobs)


# Seconds between two looks at the stop hook while a chunk is waited for: Ctrl+C and a time
# limit are answered within this.
POLL_SECONDS = 0.05


def _wait(pending: Pending, stop: Callable[[], bool] | None) -> list[Made]:
    """Return *pending*'s items; raise RunStopped as soon as *stop* says stop."""
    while stop is not None and not pending.done():
        if stop():
            raise RunStopped("stopped while a chunk was made")
        time.sleep(POLL_SECONDS)
    return pending.result()


def ordered(
    executor: Executor,
    chunks: Iterable[Chunk],
    window: int,
    stop: Callable[[], bool] | None = None,
) -> Iterator[list[Made]]:
    """Yield each chunk's items in the order of *chunks*, with up to *window* in flight.

    Raises:
        RunStopped: *stop* said stop while a chunk was waited for (it is polled every
            :data:`POLL_SECONDS`; the chunks in flight are the caller's to cancel).

    >>> from xlsudoku.engine.generate import GenerateRequest
    >>> from xlsudoku.production.spec import request_fields
    >>> fields = (request_fields(GenerateRequest()),)
    >>> chunks = [Chunk(fields, 1, i, i + 1) for i in range(3)]
    >>> [made[0].index for made in ordered(InProcess(), chunks, 2)]
    [0, 1, 2]
    """
    pending: deque[Pending] = deque()
    for chunk in chunks:
        pending.append(executor.submit(chunk))
        if len(pending) >= window:
            yield _wait(pending.popleft(), stop)
    while pending:
        yield _wait(pending.popleft(), stop)
