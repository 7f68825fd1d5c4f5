"""The workbook file on disk: read it without trusting it, replace it in one step.

- :func:`read_bytes` opens the file without blocking and refuses anything but a regular file
  (a pipe or a device named ``.xlsm`` would hang or never end), and anything over the size limit.
- :class:`ReadableFiles` says which files a document may make the program read: those of its
  own folder, or the one the user named.
- :func:`writable_target` follows a symbolic link to the file it names (the link stays a link;
  the file it points at is what changes) and refuses a read-only file before any work is done.
- :func:`replace_atomically` writes a temporary file beside the target
  (``.NAME.PID.tmp``), flushes it to the disk, keeps the old file as ``NAME.bak``, and puts the
  new one in place with ``os.replace``: the file is always either the old one or the new one.
  The replacing itself is shielded from Ctrl+C, so what is said afterwards is true.  On
  Windows a file another program holds open (Excel keeps an open workbook so) cannot be
  replaced: the rename is tried again for :data:`IN_USE_WAIT` seconds, then
  :class:`~xlsudoku.xlsm.errors.FileInUse` says to close it (the file is left as it was).
- :func:`clean_stale_temps` removes the temporary files a killed run left behind: only names of
  that pattern, and only when the process that wrote them is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from xlsudoku.xlsm.errors import (
    FileInUse,
    FolderNotWritable,
    NotAPath,
    OutsideFolder,
    WorkbookError,
)

# How long a rename onto a file another program holds open is tried again.  Only Windows
# refuses such a rename (PermissionError); elsewhere that error means no permission, and
# waiting would not change it.
IN_USE_WAIT = 10.0 if os.name == "nt" else 0.0

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


def read_bytes(path: Path, limit: int, what: str = "a workbook file") -> bytes:
    """Return the bytes of the regular file *path*, refusing special files and big files.

    *what* names the kind of file in the messages.

    Raises:
        WorkbookError: no such file, not a regular file, or larger than *limit* bytes.

    >>> read_bytes(Path("/dev/null"), 10)
    Traceback (most recent call last):
    ...
    xlsudoku.xlsm.errors.WorkbookError: /dev/null: not a regular file (a folder, pipe or device)
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise WorkbookError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise WorkbookError(f"{path}: a folder, not {what}") from None
    except PermissionError:
        raise WorkbookError(_unreadable(path)) from None
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode) and not info.st_mode & 0o444:  # no read permission: root too
        os.close(fd)
        raise WorkbookError(_unreadable(path))
    if stat.S_ISDIR(info.st_mode) or not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise WorkbookError(f"{path}: a folder, not {what}")
        raise WorkbookError(f"{path}: not a regular file (a folder, pipe or device)")
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > limit:
            raise WorkbookError(
                f"{path}: the file is {info.st_size / 2**20:,.1f} MB, over the limit of "
                f"{limit / 2**20:,.1f} MB for {what}; it was not read"
            )
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise WorkbookError(f"{path}: the file grew past {limit / 2**20:,.1f} MB while read")
    return data


def _unreadable(path: Path | str) -> str:
    """Return the message for a file without read permission.

    >>> _unreadable("book.xlsx").split(";")[0]
    'book.xlsx: the file cannot be read (no read permission)'
    """
    return (
        f"{path}: the file cannot be read (no read permission); nothing was read or written "
        "(make it readable, e.g. chmod u+r)"
    )


@dataclass(frozen=True, slots=True)
class ReadableFiles:
    """Which files a document (a workbook's cell) may make the program read.

    Attributes:
        folder: The document's folder: a relative path is read from there, and a file outside
            it is refused (a document from elsewhere must not make the program read any file
            on the computer).  None when the document has no folder: only *named* is read.
        named: A file the user named explicitly, read wherever it is.
        limit: The most bytes a file may have.
    """

    folder: Path | None
    named: Path | None = None
    limit: int = 16 * 2**20

    def read(self, path: Path, what: str) -> bytes:
        """Return the bytes of the file at *path* (a relative one in :attr:`folder`), if allowed.

        Raises:
            NotAPath: *path* cannot name a file here.
            OutsideFolder: the file is neither in :attr:`folder` nor :attr:`named`.
            WorkbookError: no such file, not a regular file, or over :attr:`limit` bytes.
        """
        if not path.is_absolute() and self.folder is not None:
            path = self.folder / path
        try:
            real = os.path.realpath(path)
            named = self.named is not None and real == os.path.realpath(self.named)
            folder = None if self.folder is None else os.path.realpath(self.folder)
            inside = folder is not None and os.path.commonpath([folder, real]) == folder
        except (ValueError, OSError):  # a NUL byte, another drive, a name too long
            raise NotAPath(f"{path}: not a file's path") from None
        if not (named or inside):
            raise OutsideFolder(f"{path}: outside the folder {self.folder}")
        return read_bytes(Path(real), self.limit, what)


@dataclass(frozen=True, slots=True)
class Target:
    """What is at a path a command is about to write (see :func:`inspect_target`).

    Attributes:
        path: The path as given.
        real: The file that would be written: symbolic links followed.
        kind: ``"missing"``, ``"file"`` (a regular file), ``"folder"`` or ``"special"`` (a
            device, FIFO or socket).
        size: The file's size in bytes (0 unless a regular file).
        workbook: True when the file is an Excel workbook by its content (a zip package
            holding ``xl/workbook.xml``), whatever its name.
    """

    path: Path
    real: Path
    kind: str
    size: int = 0
    workbook: bool = False

    @property
    def special(self) -> str:
        """Return what a special file is, in words (``"a FIFO"``), or ``""``.

        >>> inspect_target(Path("/dev/null")).special
        'a device'
        """
        if self.kind == "folder":
            return "a folder"
        if self.kind != "special":
            return ""
        mode = os.stat(self.real).st_mode
        if stat.S_ISFIFO(mode):
            return "a FIFO (named pipe)"
        if stat.S_ISSOCK(mode):
            return "a socket"
        return "a device"


def inspect_target(path: Path) -> Target:
    """Return what is at *path* now, without opening anything that is not a regular file.

    >>> inspect_target(Path("/dev/full")).kind, inspect_target(Path("/nonexistent/x")).kind
    ('special', 'missing')
    """
    real = Path(os.path.realpath(path))
    try:
        info = os.stat(real)
    except (OSError, ValueError):
        return Target(path, real, "missing")
    if stat.S_ISDIR(info.st_mode):
        return Target(path, real, "folder")
    if not stat.S_ISREG(info.st_mode):
        return Target(path, real, "special")
    return Target(path, real, "file", info.st_size, is_workbook_file(real))


def is_workbook_file(path: Path) -> bool:
    """Return True when the regular file *path* is a workbook by its content.

    Only the zip directory is read: a workbook is a zip package with ``xl/workbook.xml``.

    >>> is_workbook_file(Path(__file__))
    False
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or handle.read(4) != b"PK\x03\x04":
            return False
        import zipfile  # here, not at the top: reading a puzzle file needs no zip

        try:
            with zipfile.ZipFile(handle) as archive:
                names = archive.namelist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
            return False
    return "xl/workbook.xml" in names


def free_backup_name(target: Path) -> Path:
    """Return a name for keeping *target* that no file has yet: ``NAME.bak``, ``NAME.2.bak``...

    >>> free_backup_name(Path("/nonexistent/book.xlsm")).name
    'book.xlsm.bak'
    """
    path, number = backup_name(target), 2
    while path.exists() or path.is_symlink():
        path = target.with_name(f"{target.name}.{number}.bak")
        number += 1
    return path


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
        if not os.access(real, os.R_OK) or not real.stat().st_mode & 0o444:  # root too
            raise WorkbookError(_unreadable(target))
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


def replace_file(source: Path, target: Path, wait: float | None = None) -> None:
    """Rename *source* onto *target* (``os.replace``), waiting while *target* is held open.

    Windows refuses to replace a file another process holds open without sharing its deletion
    (``PermissionError``; Excel holds an open workbook so).  The rename is tried again, with
    growing pauses, until *wait* seconds have passed (default :data:`IN_USE_WAIT`); with
    *wait* 0 the error passes on as is.

    Raises:
        FileInUse: the file was still held open after *wait* seconds; it was not replaced.
    """
    wait = IN_USE_WAIT if wait is None else wait
    deadline = time.monotonic() + wait
    pause = 0.05
    while True:
        try:
            os.replace(source, target)
            return
        except PermissionError as error:
            left = deadline - time.monotonic()
            if wait <= 0:
                raise
            if left <= 0:
                raise FileInUse(
                    f"{target}: another program holds it open (Excel?) and it could not be "
                    f"replaced within {wait:g} s: close it there and run again"
                ) from error
            time.sleep(min(pause, left))
            pause = min(pause * 2, 1.0)


def replace_atomically(
    write: Callable[[Path], None],
    target: Path,
    *,
    backup: bool | Path = True,
    interrupts: Shield | None = None,
    on_commit: Callable[[], None] | None = None,
    in_use_wait: float | None = None,
) -> None:
    """Write *target* through ``write(temporary_path)`` and put it in place in one step.

    *target* is the real file (see :func:`writable_target`).  With *backup*, the file it
    replaces is kept as ``TARGET.bak`` (or as the path *backup* names).  The rename and
    *on_commit* run shielded from Ctrl+C (``interrupts.shielded()``): a press there is raised
    once the new file is in place.  Temporary files are removed whatever happens.  A rename
    refused because another program holds the file open is tried again for *in_use_wait*
    seconds (see :func:`replace_file`).
    """
    temp = temp_name(target, os.getpid())
    backup_temp = temp_name(target, os.getpid(), backup=True)
    try:
        write(temp)
        os.chmod(temp, _file_mode(target))
        _fsync(temp)
        keep = backup and target.exists()
        if keep:
            import shutil  # here, not at the top: reading a file needs no copying

            shutil.copy2(target, backup_temp)
            _fsync(backup_temp)
        with _shield(interrupts):
            if keep:
                kept = backup if isinstance(backup, Path) else backup_name(target)
                replace_file(backup_temp, kept, in_use_wait)
            replace_file(temp, target, in_use_wait)
            if on_commit is not None:
                on_commit()
        _fsync(target.parent)
    finally:
        for leftover in (temp, backup_temp):
            with contextlib.suppress(OSError):
                leftover.unlink()
