"""Where a command may write: one check of every output path, before anything is written.

Every command that writes a file (``workbook BUTTON --output``, ``batch -o`` and
``--puzzles``, ``booklet -o``, ``bench --save``) asks :func:`check_output` first, so no command
destroys a file it did not make:

- a device, FIFO, socket or folder is refused: it is never opened and never renamed over;
- a name Windows cannot hold (``CON``, ``NUL``, ``COM1``... with any extension, a trailing dot
  or space, one of ``<>:"|?*`` or a backslash) is refused on every system: a workbook or a
  batch file moves between systems, and on Windows such a name is a device or no file at all;
- a symbolic link is written through: the file it names is checked and written, the link
  stays a link (the same for every command);
- the output may not be one of the command's input files (unless the command edits in place);
- an existing workbook (by its content, whatever its name) is never replaced by a file that is
  not a workbook;
- any other existing file with content is replaced only when it is the command's own kind of
  file (an earlier booklet, a batch file being resumed), or when the user says so with
  ``--replace`` (a workbook replaced this way is kept as a backup the message names).

The file library (:func:`xlsudoku.xlsm.files.inspect_target`) says what is at a path; this
module is the command line's policy about it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xlsudoku.errors import UnusableFile, shorten


@dataclass(frozen=True, slots=True)
class Output:
    """An output path that passed :func:`check_output`.

    Attributes:
        path: The path as the user gave it.
        real: The file to write (symbolic links followed): writers write this one.
        existing: The file holds something that will be replaced.
    """

    path: Path
    real: Path
    existing: bool


def check_output(
    path: str | Path,
    *,
    option: str,
    workbook: bool = False,
    inputs: Sequence[str | Path] = (),
    in_place: bool = False,
    replace: bool | None = None,
    ours: Callable[[Path], bool] | None = None,
) -> Output:
    """Return *path* as an :class:`Output` once writing it destroys nothing it should not.

    Args:
        path: The output path.
        option: How the user named it, for the messages (``-o``, ``--puzzles``).
        workbook: The command writes a workbook there.
        inputs: The command's input files.
        in_place: The command edits its input in place (the output may be the input).
        replace: The user asked to replace an existing file (``--replace``); None when the
            command has no such option.
        ours: Says whether an existing file is the command's own kind of file, which it may
            replace (or append to) without ``--replace``.

    Raises:
        UnusableFile: the path is special, one of the inputs, a workbook the command would
            replace by something else, or a file the command did not make.

    >>> check_output("/dev/full", option="-o")
    Traceback (most recent call last):
    ...
    xlsudoku.errors.UnusableFile: -o /dev/full: a device, not a file; nothing was written
    """
    from xlsudoku.xlsm.files import inspect_target

    shown = shorten(str(path))
    problem = windows_name_problem(Path(path).name)
    if problem:
        raise UnusableFile(
            f"{option} {shown}: {problem}; nothing was written (choose another name)"
        )
    target = inspect_target(Path(path))
    if target.kind in ("special", "folder"):
        raise UnusableFile(f"{option} {shown}: {target.special}, not a file; nothing was written")
    same_as_input = any(_same_file(target.real, Path(source)) for source in inputs)
    if same_as_input and not in_place:
        raise UnusableFile(
            f"{option} {shown} is also the input: writing it would destroy what is read; "
            f"nothing was written (choose another {option})"
        )
    if target.kind == "missing" or target.size == 0 or same_as_input:
        return Output(Path(path), target.real, target.kind == "file" and target.size > 0)
    if target.workbook and not workbook:
        raise UnusableFile(
            f"{option} {shown} is a workbook: this command would replace it by another kind "
            f"of file; nothing was written (choose another {option})"
        )
    if replace or (ours is not None and ours(target.real)):
        return Output(Path(path), target.real, True)
    # A workbook may hold a Collection, whoever wrote it last: only --replace lets it go.
    what = (
        "another workbook, which may hold puzzles of its own"
        if target.workbook
        else "an existing file this command did not make"
    )
    hint = ""
    if replace is not None:
        kept = " (it is then kept as a backup)" if workbook else ""
        hint = f" add --replace to replace it{kept}, or"
    raise UnusableFile(
        f"{option} {shown} is {what}; nothing was written:{hint} choose another {option}"
    )


# The device names of Windows: a file named so (whatever its extension) opens the device.
_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{port}{n}" for port in ("COM", "LPT") for n in (*"123456789", "¹", "²", "³")]
)
# A backslash is a folder separator there: a name holding one would land somewhere else.
_NOT_IN_NAMES = frozenset('<>:"|?*\\') | {chr(code) for code in range(32)}


def windows_name_problem(name: str) -> str:
    """Return why Windows cannot hold a file called *name* ("" when it can).

    >>> windows_name_problem("book.xlsm"), windows_name_problem("nul.xlsm")
    ('', "the name 'nul.xlsm' is the device NUL on Windows")
    >>> windows_name_problem("a?.txt")
    "the name 'a?.txt' has '?', which Windows does not allow in a file name"
    """
    if name in ("", ".", ".."):
        return ""
    stem = name.split(".", 1)[0].rstrip(" ").upper()
    if stem in _DEVICES:
        return f"the name {name!r} is the device {stem} on Windows"
    bad = sorted(set(name) & _NOT_IN_NAMES)
    if bad:
        return f"the name {name!r} has {bad[0]!r}, which Windows does not allow in a file name"
    if name.endswith((" ", ".")):
        return f"the name {name!r} ends in a dot or a space, which Windows drops"
    return ""


def _same_file(real: Path, source: Path) -> bool:
    """Return True when *real* and *source* are the same file (links and hard links too)."""
    try:
        return real.exists() and source.exists() and real.samefile(source)
    except OSError:
        return False
