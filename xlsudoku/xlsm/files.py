"""The workbook file on disk: read it without trusting it, replace it in one step.

- :func:`read_bytes` opens the file without blocking and refuses anything but a regular file
  (a pipe or a device named ``.xlsm`` would hang or never end), and anything over the size limit.
- :func:`writable_target` follows a symbolic link to the file it names (the link stays a link;
  the file it points at is what changes) and refuses a read-only file before any work is done.
- :func:`replace_atomically` writes a temporary file beside the target
  (``.NAME.PID.tmp``), flushes it to the disk, keeps the old file as ``NAME.bak``, and puts the
  new one in place with ``os.replace``: the file is always either the old one or the new one.
  The replacing itself is shielded from Ctrl+C, so what is said afterwards is true.
- :func:`clean_stale_temps` removes the temporary files a killed run left behind: only names of
  that pattern, and only when the process that wrote them is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from xlsudoku.xlsm.errors import FolderNotWritable, WorkbookError

_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})\.(?:bak\.)?tmp$")


def temp_name(target: Path, pid: int, backup: bool = False) -> Path:
    """Return the temporary file of process *pid* for *target* (its backup's with *backup*).

    >>> temp_name(Path("/data/book.xlsm"), 42).name, temp_name(Path("book.xlsm"), 42, True).name
    ('.book.xlsm.42.tmp', '.book.xlsm.42.bak.tmp')
    """
    return target.with_name(f".{target.name}.{pid}.{'bak.' if backup else ''}tmp")


def backup_name(target: Path) -> Path:
    """Return where the previous version of *target* is kept.

    >>> backup_name(Path("book.xlsm")).name
    'book.xlsm.bak'
    """
    return target.with_name(target.name + ".bak")


def read_bytes(path: Path, limit: int) -> bytes:
    """Return the bytes of the regular file *path*, refusing special files and big files.

    Raises:
        WorkbookError: no such file, not a regular file, or larger than *limit* bytes.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise WorkbookError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise WorkbookError(f"{path}: a folder, not a workbook file") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise WorkbookError(f"{path}: not a regular file (a folder, pipe or device)")
        if info.st_size > limit:
            raise WorkbookError(
                f"{path}: the file is {info.st_size / 2**20:,.1f} MB, over the limit of "
                f"{limit / 2**20:,.1f} MB for a workbook; it was not read"
            )
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise WorkbookError(f"{path}: the file grew past {limit / 2**20:,.1f} MB while read")
    return data


def writable_target(target: Path) -> Path:
    """Return the file *target* names (symbolic links followed), checked to be writable.

    A new file is fine when its folder can be written.

    Raises:
        WorkbookError: the file is read-only or not a regular file.
        FolderNotWritable: the folder cannot be written.
    """
    real = Path(os.path.realpath(target))
    if real.exists():
        if not real.is_file():
            raise WorkbookError(f"{target}: not a regular file (a folder, pipe or device)")
        if not os.access(real, os.W_OK) or not real.stat().st_mode & 0o222:  # root too
            raise WorkbookError(
                f"{target}: the file is read-only; nothing was written (make it writable, or "
                "write the result elsewhere with --output)"
            )
    folder = real.parent
    if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise FolderNotWritable(f"{folder}: permission denied: cannot write in this folder")
    return real


STALE_SECONDS_WITHOUT_PIDS = 24 * 3600.0
"""Where a process cannot be asked about (Windows), a temporary file this old is stale."""


def _pid_alive(pid: int) -> bool:
    """Return True when a process *pid* exists (or may: one we may not signal).

    >>> _pid_alive(os.getpid())
    True
    """
    if os.name == "nt":  # os.kill(pid, 0) would send Ctrl+C there: age decides instead
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def clean_stale_temps(target: Path) -> list[Path]:
    """Remove ``.NAME.PID.tmp`` files of *target* left by a run that is gone; return them."""
    removed = []
    with contextlib.suppress(OSError):
        for entry in target.parent.iterdir():
            match = _TEMP.match(entry.name)
            if match is None or match["name"] != target.name:
                continue
            pid = int(match["pid"])
            old = time.time() - entry.stat().st_mtime > STALE_SECONDS_WITHOUT_PIDS
            if pid == os.getpid() or (_pid_alive(pid) and not (os.name == "nt" and old)):
                continue
            with contextlib.suppress(OSError):
                entry.unlink()
                removed.append(entry)
    return removed


def _file_mode(target: Path) -> int:
    """Return the permission bits the saved file gets: the old file's, or the umask default."""
    if target.exists():
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync(path: Path) -> None:
    """Flush *path* (a file or a folder) to the disk."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) if path.is_dir() else os.O_RDONLY
    try:
        fd = os.open(path, flags)
    except OSError:
        return  # some systems cannot open a folder: the rename is still atomic
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


class Shield(Protocol):
    """What keeps Ctrl+C away while a file is replaced (``xlsudoku.interrupts.Interrupts``)."""

    def shielded(self) -> AbstractContextManager[object]:
        """Return a context in which an interrupt waits until the block is over."""
        ...


@contextlib.contextmanager
def _shield(interrupts: Shield | None) -> Iterator[None]:
    if interrupts is None:
        yield
    else:
        with interrupts.shielded():
            yield


def replace_atomically(
    write: Callable[[Path], None],
    target: Path,
    *,
    backup: bool = True,
    interrupts: Shield | None = None,
    on_commit: Callable[[], None] | None = None,
) -> None:
    """Write *target* through ``write(temporary_path)`` and put it in place in one step.

    *target* is the real file (see :func:`writable_target`).  With *backup*, the file it
    replaces is kept as ``TARGET.bak``.  The rename and *on_commit* run shielded from Ctrl+C
    (``interrupts.shielded()``): a press there is raised once the new file is in place.
    Temporary files are removed whatever happens.
    """
    temp = temp_name(target, os.getpid())
    backup_temp = temp_name(target, os.getpid(), backup=True)
    try:
        write(temp)
        os.chmod(temp, _file_mode(target))
        _fsync(temp)
        keep = backup and target.exists()
        if keep:
            shutil.copy2(target, backup_temp)
            _fsync(backup_temp)
        with _shield(interrupts):
            if keep:
                os.replace(backup_temp, backup_name(target))
            os.replace(temp, target)
            if on_commit is not None:
                on_commit()
        _fsync(target.parent)
    finally:
        for leftover in (temp, backup_temp):
            with contextlib.suppress(OSError):
                leftover.unlink()
