"""The workbook without Excel: run a button's action on the file and save it safely.

``xlsudoku start WORKBOOK`` loads the file with openpyxl (formulas as text, the VBA project
kept), runs the same :mod:`xlsudoku.addin.actions` function the button runs in Excel through
:class:`xlsudoku.addin.cellio.OpenpyxlIO`, and saves:

1. to a temporary file in the target's folder, through :func:`addin.package.save_preserving`
   for a macro-enabled file (which checks the saved copy still holds the VBA project and every
   button);
2. the file it replaces is first copied to ``TARGET.bak``;
3. ``os.replace`` puts the new file in place in one step.

So an error or Ctrl+C at any moment leaves the workbook either as it was or fully written.
During START, the first Ctrl+C asks the generator to stop and keeps the best puzzle found so far
(written with a status saying so); a second Ctrl+C abandons the run without touching the file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from xlsudoku.addin import actions
from xlsudoku.addin.actions import Outcome
from xlsudoku.addin.cellio import OpenpyxlIO

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
ACTIONS: dict[str, str] = {
    "start": "start",
    "save": "save_to_collection",
    "clear": "clear",
    "import": "import_puzzles",
    "delete": "delete_from_collection",
    "sort": "sort_collection",
    "analyze": "analyze",
    "hint": "hint",
    "solve": "solve",
}


class WorkbookError(RuntimeError):
    """The file cannot be used: missing, not a workbook, or unreadable."""


def is_workbook_path(text: str) -> bool:
    """Return True when *text* names an Excel workbook (by its extension).

    >>> is_workbook_path("book.XLSM"), is_workbook_path("puzzle.txt")
    (True, False)
    """
    return Path(text).suffix.lower() in WORKBOOK_SUFFIXES


def load(path: Path) -> Any:
    """Load the workbook at *path* with formulas as text and, for .xlsm, its VBA project."""
    import openpyxl

    if not path.exists():
        raise WorkbookError(f"{path}: no such file")
    if not is_workbook_path(str(path)):
        raise WorkbookError(f"{path}: not an .xlsx or .xlsm workbook")
    try:
        return openpyxl.load_workbook(path, keep_vba=path.suffix.lower() == ".xlsm")
    except Exception as error:  # openpyxl raises many types for a damaged file
        raise WorkbookError(f"{path}: cannot be read as a workbook ({error})") from error


def save_safely(workbook: Any, target: Path, template: Path) -> None:
    """Save *workbook* to *target* atomically, keeping the old file as ``TARGET.bak``.

    A macro-enabled *target* is saved through :func:`xlsudoku.addin.package.save_preserving` with
    *template* (the file the workbook was loaded from) as the source of the VBA project and
    buttons.
    """
    from xlsudoku.addin.package import save_preserving

    target = Path(target)
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        if target.suffix.lower() == ".xlsm":
            save_preserving(workbook, temp, template)
        else:
            workbook.save(temp)
        os.chmod(temp, _file_mode(target))
        if target.exists():
            backup = target.with_name(target.name + ".bak")
            backup_temp = temp.with_suffix(".bak.tmp")
            shutil.copy2(target, backup_temp)
            os.replace(backup_temp, backup)
        os.replace(temp, target)
    finally:
        for leftover in (temp, temp.with_suffix(".bak.tmp")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def _file_mode(target: Path) -> int:
    """Return the permission bits the saved file gets: the old file's, or the umask default."""
    if target.exists():
        return target.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class Interrupt:
    """Ctrl+C handling for a long run: the first press asks to stop, the second aborts.

    Use as a context manager around the run and pass :meth:`requested` as the cancel hook.
    Outside the main thread (where signals cannot be caught) it does nothing.
    """

    def __init__(self) -> None:
        self.pressed = 0
        self._previous: Any = None

    def requested(self) -> bool:
        """Return True once Ctrl+C was pressed."""
        return self.pressed > 0

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.pressed += 1
        if self.pressed > 1:
            raise KeyboardInterrupt

    def __enter__(self) -> Interrupt:
        with contextlib.suppress(ValueError):
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


@dataclass(frozen=True)
class RunResult:
    """What a headless run did: the action's outcome and where the workbook was saved."""

    outcome: Outcome
    saved_to: Path


@contextlib.contextmanager
def _progress_bar(total: int | None, enabled: bool) -> Iterator[Callable[..., None] | None]:
    """Yield a generator progress callback that drives a tqdm bar (shown after one second)."""
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=total, unit="trial", delay=1.0, leave=False) as bar:

        def update(trial: int, best: int | None = None, *rest: Any) -> None:
            if best is not None:
                bar.set_postfix(best_opens=best, refresh=False)
            bar.update(trial - bar.n)

        yield update


def run(
    command: str,
    workbook_path: str | Path,
    output: str | Path | None = None,
    *,
    progress: bool = False,
    rng: Any = None,
    inputs: dict[str, Any] | None = None,
) -> RunResult:
    """Run a workbook command (``start``, ``save``, ``clear``, ``import``, ..., ``solve``).

    The result is saved to *output* (default: the workbook itself; missing folders are made),
    also when the input was bad: the status cell then holds the message, as in Excel.
    *inputs* (defined name -> value) are typed into the workbook first.

    Raises:
        WorkbookError: the file cannot be read.
        xlsudoku.addin.cellio.MissingPart: the workbook lacks the sheet holding the status cell.
        KeyboardInterrupt: Ctrl+C pressed twice; nothing was written.
    """
    if command not in ACTIONS:
        raise ValueError(f"unknown workbook command {command!r}; choose from {', '.join(ACTIONS)}")
    source = Path(workbook_path)
    target = Path(output) if output is not None else source
    if output is not None and not is_workbook_path(str(target)):
        raise WorkbookError(f"{target}: the output must be an .xlsx or .xlsm file")
    workbook = load(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    io = OpenpyxlIO(workbook)
    for name, value in (inputs or {}).items():
        io.write(name, value)
    if command != "start":
        outcome = getattr(actions, ACTIONS[command])(io)
        save_safely(workbook, target, source)
        return RunResult(outcome, target)
    # The handler stays through the save: a first Ctrl+C there changes nothing (the best puzzle
    # is being written), a second abandons the save and the file stays as it was.
    with Interrupt() as interrupt:
        with _progress_bar(_trials(io), progress) as update:
            outcome = actions.start(io, progress=update, cancel=interrupt.requested, rng=rng)
        save_safely(workbook, target, source)
    return RunResult(outcome, target)


def _trials(io: OpenpyxlIO) -> int | None:
    """Return the Trials cell as a number for the progress bar's length (None if not one)."""
    from xlsudoku.addin import layout

    try:
        value = io.read(layout.TRIALS)
    except (KeyError, ValueError):
        return None
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
