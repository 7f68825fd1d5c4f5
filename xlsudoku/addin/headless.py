"""The workbook without Excel: run a button's action on the file and save it safely.

``xlsudoku workbook start BOOK`` reads the file, runs the same :mod:`xlsudoku.addin.actions`
function the button runs in Excel through :class:`xlsudoku.addin.cellio.OpenpyxlIO`, and saves.
Nothing is lost, whoever else writes the file and whenever the run is stopped:

- **Reading** trusts nothing (:func:`read_workbook`): special files, files over the limits,
  zip bombs, unsafe XML and damaged packages are refused with a message before openpyxl reads
  anything (:func:`xlsudoku.xlsm.workbook.load`).
- **Writing** holds the workbook's lock (:mod:`xlsudoku.xlsm.lock`), so runs on the
  same file take turns.  Under the lock the file is read again and the action applied to what
  is there now; so two SAVEs at once both land, each with its own id.  START generates
  outside the lock (it may take minutes) and replays its writes on the file read again under
  the lock.  The file is replaced in one step, the old one kept as ``.bak``
  (:func:`xlsudoku.xlsm.files.replace_atomically`); a symbolic link is written
  through, a read-only file refused.
- **Ctrl+C**: during START the first press asks the generator to stop and the best puzzle
  found so far is saved; a second press (or the first, in any other command) abandons the run.
  The replacing of the file is shielded, and :attr:`Interrupts.state` always says what
  happened to the file: it is what the message after an interrupt prints.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlsudoku.addin import actions, drawing, layout, params
from xlsudoku.addin.actions import Outcome
from xlsudoku.addin.cellio import CellIO, MissingPart, OpenpyxlIO
from xlsudoku.engine.grid import SudokuError
from xlsudoku.errors import CommandError, EnvironmentFault, Exit, UnusableFile, os_error_message
from xlsudoku.interrupts import Interrupts, handled
from xlsudoku.xlsm import workbook as workbook_file
from xlsudoku.xlsm.errors import (
    FileInUse,
    FolderNotWritable,
    LockTimeout,
    PackageError,
    WorkbookError,
)
from xlsudoku.xlsm.files import (
    backup_name,
    clean_stale_temps,
    free_backup_name,
    read_bytes,
    writable_target,
)
from xlsudoku.xlsm.lock import DEFAULT_WAIT, workbook_lock
from xlsudoku.xlsm.safe_zip import DEFAULT_LIMITS, Limits

# Each command: the action it runs and the sheets it works on.  Every defined name on those
# sheets must keep the layout's contract before the command runs, or the file is refused
# untouched (a name moved onto the Collection would make START overwrite saved puzzles).
_TOOLS = (layout.GENERATOR, layout.COLLECTION, layout.REMOVED)
COMMANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "start": ("start", (layout.GENERATOR, layout.PRINT)),
    "save": ("save_to_collection", _TOOLS),
    "clear": ("clear", (layout.GENERATOR, layout.PRINT)),
    "import": ("import_puzzles", _TOOLS),
    "delete": ("delete_from_collection", _TOOLS),
    "sort": ("sort_collection", _TOOLS),
    "restore": ("restore_to_collection", _TOOLS),
    "analyze": ("analyze", (layout.ANALYZE,)),
    "hint": ("hint", (layout.ANALYZE,)),
    "solve": ("solve", (layout.ANALYZE,)),
    "explain": ("explain", (layout.ANALYZE,)),
    "image": ("image", (layout.GENERATOR, layout.PRINT)),
    "play": ("play", (layout.PLAY,)),
    "check": ("check", (layout.PLAY,)),
    "play-hint": ("play_hint", (layout.PLAY,)),
    "play-solve": ("play_solve", (layout.PLAY,)),
    "undo": ("undo", (layout.PLAY,)),
    "fill-candidates": ("fill_candidates", (layout.PLAY,)),
    "stats": ("stats", (layout.STATS_SHEET, layout.COLLECTION)),
}

__all__ = ["COMMANDS", "RunResult", "read_workbook", "run"]


def read_workbook(path: Path, limits: Limits = DEFAULT_LIMITS) -> tuple[Any, bytes]:
    """Return the workbook at *path* and its bytes, read without trusting the file.

    Raises:
        UnusableFile: the file is missing, special, over a limit, damaged or not a workbook.
    """
    try:
        return workbook_file.load(path, limits)
    except WorkbookError as error:
        raise UnusableFile(str(error)) from None


def check_contract(workbook: Any, command: str) -> OpenpyxlIO:
    """Return an OpenpyxlIO on *workbook* once the names *command* works with keep the contract.

    Raises:
        MissingPart: a sheet or a defined name is missing, or a name is misplaced.
    """
    io = OpenpyxlIO(workbook)
    sheets = COMMANDS[command][1]
    io.require(name for name, ref in layout.NAMES.items() if ref.sheet in sheets)
    return io


@dataclass(frozen=True)
class RunResult:
    """What a headless run did: the action's outcome and where the workbook was saved.

    ``backup`` is where the file the output replaced was kept (None when nothing was).
    """

    outcome: Outcome
    saved_to: Path
    backup: Path | None = None


def _progress_bar(io: CellIO, enabled: bool) -> contextlib.AbstractContextManager[Any]:
    """Return a bar of START's trials (shown after one second) as a context, or no bar.

    Its estimate is the sooner of the time limit's rest and the trials left at the pace so
    far; parameters START refuses leave it the default time limit and no count.
    """
    if not enabled:
        return contextlib.nullcontext()
    from xlsudoku.progress import RunBar

    try:
        checked = params.read_start({name: io.read(name) for name in actions.PARAM_NAMES})
        total, limit = checked.trials, checked.time_limit
    except SudokuError:
        total, limit = None, layout.DEFAULT_TIME_LIMIT
    return contextlib.closing(RunBar(total, limit))


def as_typed(value: Any) -> Any:
    """Return *value* as Excel keeps it when typed: a whole number past a double's range as text.

    >>> as_typed([[10**400, 7]])[0][0][:5], as_typed(7)
    ('10000', 7)
    """
    if isinstance(value, list | tuple):
        return [as_typed(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**1023:
        return str(value)
    return value


def run(
    command: str,
    workbook_path: str | Path,
    output: str | Path | None = None,
    *,
    progress: bool = False,
    rng: Any = None,
    interrupts: Interrupts | None = None,
    wait: float = DEFAULT_WAIT,
    on_wait: Callable[[float], None] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    inputs: dict[str, Any] | None = None,
    import_file: Path | None = None,
) -> RunResult:
    """Run a workbook command (``start``, ``save``, ``clear``, ``import``, ..., ``solve``).

    The result is saved to *output* (default: the workbook itself; missing folders are made),
    also when the input was bad: the status cell then holds the message, as in Excel.
    *interrupts* is the command line's Ctrl+C handling (see the module notes); its ``state``
    says what happened to the file at every moment.  *wait* bounds the wait for another run
    writing the same file; *on_wait* is told when a run has to wait.
    *inputs* (defined name -> value) are typed into the workbook first.  IMPORT reads a file
    the Import from cell names only from the workbook's folder, or *import_file* (a file the
    user named) wherever it is.

    Raises:
        UnusableFile: the file cannot be read or written (missing, damaged, read-only...), or
            breaks the layout's contract (a sheet or a defined name missing or misplaced).
        KeyboardInterrupt: Ctrl+C abandoned the run (``interrupts.state`` says where).
        EnvironmentFault: the disk, the permissions or another run got in the way.

    Each message ends with what happened to the file.
    """
    if command not in COMMANDS:
        raise ValueError(f"unknown workbook command {command!r}; choose from {', '.join(COMMANDS)}")
    source = Path(workbook_path)
    target = Path(output) if output is not None else source
    if output is not None and not workbook_file.is_workbook_path(str(target)):
        raise UnusableFile(f"{target}: the output must be an .xlsx or .xlsm file")
    with handled(interrupts) as guard:
        guard.state = (
            f"{target} was not changed" if target.exists() else f"{target} was not written"
        )
        with _saying(guard, target):
            real = writable_target(target)
            in_place = os.path.realpath(source) == str(real)
            real.parent.mkdir(parents=True, exist_ok=True)
            # In place the previous version is NAME.bak (one, replaced each run); another file
            # the output replaces is kept under a name no file has, so no backup is lost.
            backup = backup_name(real) if in_place else None
            if not in_place and real.exists():
                backup = free_backup_name(real)
            early = [False]  # START stopped by a first Ctrl+C: its best puzzle so far is saved

            def committed() -> None:
                kept = f" (the previous version is {backup.name})" if backup is not None else ""
                what = "the best puzzle found before Ctrl+C" if early[0] else "the result"
                guard.state = f"{what} was saved to {target}{kept}"

            def save(workbook: Any, data: bytes, io: OpenpyxlIO) -> None:
                workbook_file.save(
                    workbook,
                    real,
                    data,
                    interrupts=guard,
                    on_commit=committed,
                    backup=backup if backup is not None else False,
                    changed=io.written,  # every other cell is kept as the file had it
                    only_values=True,
                    resized=io.resized,
                    filled=io.filled,
                )

            def typed(io: OpenpyxlIO) -> OpenpyxlIO:
                for name, value in (inputs or {}).items():
                    io.write(name, as_typed(value))
                return io

            action = actions.ACTIONS[COMMANDS[command][0]]
            if command == "import":
                files = actions.ImportFiles(source.resolve().parent, import_file)
                action = functools.partial(actions.import_puzzles, files=files)
            if command == "image":
                beside = functools.partial(drawing.beside_workbook, Path(target))
                action = functools.partial(actions.image, draw=beside)
            if command != "start":
                with workbook_lock(real, wait, on_wait):
                    clean_stale_temps(real)
                    workbook, data = read_workbook(source, limits)
                    io = check_contract(workbook, command)
                    outcome = action(typed(io))
                    save(workbook, data, io)
                return RunResult(outcome, target, backup)
            workbook, data = read_workbook(source, limits)
            first = typed(check_contract(workbook, command))
            with guard.cooperative():
                with _progress_bar(first, progress) as update:
                    outcome = actions.start(first, progress=update, cancel=guard.requested, rng=rng)
                early[0] = guard.requested()
                with workbook_lock(real, wait, on_wait):
                    clean_stale_temps(real)
                    if in_place and _changed_since(source, data, limits):
                        # another run wrote the file while START searched: replay on its version
                        workbook, data = read_workbook(source, limits)
                        first = typed(check_contract(workbook, command))
                        outcome.changes.apply(first)
                    save(workbook, data, first)
            return RunResult(outcome, target, backup)


@contextlib.contextmanager
def _saying(guard: Interrupts, target: Path) -> Iterator[None]:
    """Turn what fails in the block into a typed error ending with what happened to the file."""
    try:
        yield
    except OSError as error:
        message, status = os_error_message(error)
        fault = UnusableFile if status == Exit.UNUSABLE_FILE else EnvironmentFault
        raise fault(f"{message}; {guard.state}") from error
    except (MissingPart, PackageError) as error:
        raise UnusableFile(f"{target}: {str(error).rstrip('.')}; {guard.state}") from error
    except WorkbookError as error:
        raise UnusableFile(f"{error}; {guard.state}") from error
    except (LockTimeout, FolderNotWritable, FileInUse) as error:
        raise EnvironmentFault(f"{error}; {guard.state}") from error
    except CommandError as error:
        raise type(error)(f"{error}; {guard.state}") from error


def _changed_since(path: Path, data: bytes, limits: Limits) -> bool:
    """Return True unless the file at *path* still holds exactly *data* (what was loaded)."""
    try:
        return read_bytes(path, limits.file_bytes) != data
    except WorkbookError:
        return True  # gone or unusable now: reading it again says what happened
