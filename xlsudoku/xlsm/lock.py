"""One writer at a time: an exclusive lock on a workbook file, held while it is rewritten.

The lock is a file beside the workbook, ``.NAME.lock``, locked with :mod:`filelock` (``flock``
on Linux and macOS, ``msvcrt`` on Windows): the operating system releases it when the process
ends, even by SIGKILL, so a killed run never leaves the workbook locked.  A run that finds
the lock taken says so and waits, up to a bound; then it gives up without writing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from xlsudoku.xlsm.errors import LockTimeout

DEFAULT_WAIT = 60.0
"""Seconds a run waits for another run to finish writing the same workbook."""


def lock_path(target: Path) -> Path:
    """Return the lock file of workbook *target*.

    >>> lock_path(Path("/data/book.xlsm")).as_posix()
    '/data/.book.xlsm.lock'
    """
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def workbook_lock(
    target: Path,
    wait: float = DEFAULT_WAIT,
    on_wait: Callable[[float], None] | None = None,
) -> Iterator[None]:
    """Hold the exclusive lock of workbook *target* for the block.

    When another process holds it, ``on_wait(wait)`` is called once and the lock is awaited
    for up to *wait* seconds.

    Raises:
        LockTimeout: the lock was not free within *wait* seconds (nothing was done).
    """
    from filelock import FileLock, Timeout

    lock = FileLock(str(lock_path(target)))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if on_wait is not None:
            on_wait(wait)
        try:
            lock.acquire(timeout=max(wait, 0.0))
        except Timeout:
            raise LockTimeout(
                f"{target} is still being written by another xlsudoku run after {wait:g} s"
            ) from None
    try:
        yield
    finally:
        lock.release()


@contextlib.contextmanager
def open_book_lock(fullname: str | None, wait: float = 10.0) -> Iterator[None]:
    """Hold the lock of the file behind a book open in Excel while Python writes into it.

    The desktop buttons write cells through Excel; holding the same lock as the command line
    makes a headless run on that file wait until the button is done.  A book never saved (or
    one in the cloud) has no local file and needs no lock.

    >>> with open_book_lock("Book1"):
    ...     pass
    """
    path = Path(fullname) if fullname else None
    if path is None or not path.is_file():
        yield
        return
    with workbook_lock(path, wait):
        yield
