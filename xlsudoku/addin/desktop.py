"""Classic desktop xlwings entry points: what the workbook's button macros call.

Each button's VBA macro runs ``RunPython "import xlsudoku.addin.desktop;
xlsudoku.addin.desktop.<action>()"`` (see :attr:`xlsudoku.addin.layout.Button.python_call`);
xlwings starts Python on the same machine and the function finds the calling workbook through
``xw.Book.caller()``.  The work is done by :mod:`xlsudoku.addin.actions`, the same as for
xlwings Lite and the headless runner.

Two things only the desktop has:

- **The VBA must match the Python package.** The workbook carries the VBA project of xlwings
  :data:`VBA_XLWINGS` (``template/vba/``); on macOS RunPython only finds the AppleScript of that
  same version.  A click with another xlwings installed writes, instead of running, the one
  command that fixes it to the sheet's status cell (:func:`version_problem`).
- **Long START runs show progress and can be stopped.**  Excel's status bar shows the trial and
  the best opens so far; pressing Esc (Windows: RunPython waits for Python, so Excel takes no
  input, but Python sees the key) or typing anything into the status cell (macOS: RunPython
  returns at once and Excel stays usable) stops the run, and the best puzzle so far is written
  with a status starting ``Interrupted:``.  See :class:`LongRun`.

Every click holds the lock of the workbook's file (:mod:`xlsudoku.xlsm.lock`), so a
headless run on the same file waits for it.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from typing import Any

from xlsudoku.addin import actions, drawing, layout
from xlsudoku.addin.cellio import CellIO, MissingPart, XlwingsIO
from xlsudoku.xlsm.errors import LockTimeout
from xlsudoku.xlsm.lock import open_book_lock

VBA_XLWINGS = "0.37.8"
"""xlwings version of the VBA project in the workbook (tests hold it equal to ``template/vba/``)."""

RUNNING = (
    "Running START... to stop and keep the best puzzle so far: press Esc (Windows) or type "
    "anything into this cell (macOS)."
)
VK_ESCAPE = 0x1B


def version_problem(installed: str, python: str = sys.executable) -> str | None:
    """Return the status text when xlwings *installed* differs from the workbook's VBA, or None.

    The text gives the one command that fixes it, for the Python Excel started (*python*).

    >>> version_problem(VBA_XLWINGS) is None
    True
    >>> text = version_problem("0.37.9", "/v/bin/python")
    >>> print(text[: text.index(" Run")])
    This workbook's xlwings VBA is 0.37.8 but its Python (/v/bin/python) has xlwings 0.37.9.
    >>> print(text[text.index("Run") : text.index(" (macOS")])
    Run in a terminal: "/v/bin/python" -m pip install "xlwings==0.37.8"
    """
    if installed == VBA_XLWINGS:
        return None
    return (
        f"This workbook's xlwings VBA is {VBA_XLWINGS} but its Python ({python}) has xlwings "
        f'{installed}. Run in a terminal: "{python}" -m pip install "xlwings=={VBA_XLWINGS}" '
        f'(macOS, then: "{python}" -m xlwings.cli runpython install), and click again.'
    )


def status_name(action: str) -> str:
    """Return the defined name of the status cell on the sheet of *action*'s button.

    >>> status_name("start"), status_name("hint"), status_name("check")
    ('Status', 'AnalyzeStatus', 'PlayStatus')
    """
    (button,) = (button for button in layout.BUTTONS if button.action == action)
    return STATUS_CELLS[button.anchor.sheet]


# The status cell of each sheet with buttons.
STATUS_CELLS = {
    layout.GENERATOR: layout.STATUS,
    layout.ANALYZE: layout.ANALYZE_STATUS,
    layout.PLAY: layout.PLAY_STATUS,
    layout.STATS_SHEET: layout.STATS_STATUS,
    layout.PRINT: layout.PRINT_STATUS,
}


def _escape_pressed() -> bool:
    """Return True when Esc is down or was pressed since the last look (Windows only)."""
    if not sys.platform.startswith("win"):
        return False
    import win32api  # pywin32: an xlwings dependency on Windows

    return bool(win32api.GetAsyncKeyState(VK_ESCAPE) & 0x8001)


class LongRun:
    """Progress in Excel's status bar and a stop request, for START on the desktop.

    Excel is asked at most every *interval* seconds (each look is a round trip to Excel).
    *show* sets the status bar text (``False`` gives it back to Excel); *escape* says whether
    the user pressed Esc.
    """

    def __init__(
        self,
        io: CellIO,
        show: Callable[[str | bool], None],
        escape: Callable[[], bool] = _escape_pressed,
        interval: float = 0.3,
    ) -> None:
        self.io, self.show, self.escape, self.interval = io, show, escape, interval
        self.io.write(layout.STATUS, RUNNING)
        self.last_shown = self.last_asked = 0.0
        self.stopped = False

    def progress(self, trial: int, best: int) -> None:
        """Show the trial and the best opens so far in the status bar."""
        now = time.monotonic()
        if now - self.last_shown >= self.interval:
            self.last_shown = now
            self.show(f"xlsudoku START: trial {trial}, best so far {best} opens. Esc stops.")

    def cancel(self) -> bool:
        """Return True once the user pressed Esc or typed into the status cell."""
        now = time.monotonic()
        if not self.stopped and now - self.last_asked >= self.interval:
            self.last_asked = now
            self.stopped = self.escape() or self.io.read(layout.STATUS) != RUNNING
        return self.stopped

    def close(self) -> None:
        """Give the status bar back to Excel."""
        self.show(False)


def run(action: str, book: Any, installed: str | None = None) -> None:
    """Run the button *action* on the xlwings *book* (desktop: the caller).

    *installed* is the xlwings version to check against the VBA (default: the imported one).
    A workbook without the status cell gets the action's own message naming what is missing.
    """
    io = XlwingsIO(book)
    problem = version_problem(installed or _installed_xlwings())
    if problem is not None:
        if not actions.has_part(io, status_name(action)):
            raise MissingPart(problem)  # xlwings shows it in a message box
        io.write(status_name(action), problem)
        return
    try:
        # the lock of the book's file: a headless run on the same file waits for this click
        with open_book_lock(getattr(book, "fullname", None)):
            if action == "start" and actions.has_part(io, layout.STATUS):
                _start_with_progress(io, book)
            elif action == "import_puzzles":
                actions.import_puzzles(io, files=_import_files(book))
            elif action == "image":
                actions.image(io, draw=functools.partial(drawing.into_sheet, io))
            else:
                actions.ACTIONS[action](io)
    except LockTimeout as error:
        io.write(status_name(action), f"{error}; nothing was written: press the button again.")


def _import_files(book: Any) -> actions.ImportFiles | None:
    """Return the files IMPORT may read for *book*: its folder's (none for a book never saved)."""
    from pathlib import Path

    fullname = getattr(book, "fullname", None)
    path = Path(fullname) if fullname else None
    return actions.ImportFiles(path.parent) if path is not None and path.is_file() else None


def _start_with_progress(io: CellIO, book: Any) -> None:
    def show(text: str | bool) -> None:
        try:
            book.app.status_bar = text
        except NotImplementedError:  # an engine without a status bar (xlwings' remote one)
            pass

    watch = LongRun(io, show)
    try:
        actions.start(io, progress=watch.progress, cancel=watch.cancel)
    finally:
        watch.close()


def _installed_xlwings() -> str:
    import xlwings

    return str(xlwings.__version__)


def press(action: str) -> None:
    """Run the button *action* on the workbook whose macro called Python (``xw.Book.caller``)."""
    import xlwings as xw

    run(action, xw.Book.caller())


# The entry points the buttons' macros call (:attr:`xlsudoku.addin.layout.Button.python_call`),
# one per action of :data:`xlsudoku.addin.actions.ACTIONS`, written out so a search finds them.


def start() -> None:
    """Run START on the Generator sheet of the calling workbook."""
    press("start")


def clear() -> None:
    """Run CLEAR on the Generator sheet of the calling workbook."""
    press("clear")


def save_to_collection() -> None:
    """Run SAVE TO COLLECTION on the Generator sheet of the calling workbook."""
    press("save_to_collection")


def import_puzzles() -> None:
    """Run IMPORT on the Generator sheet of the calling workbook."""
    press("import_puzzles")


def delete_from_collection() -> None:
    """Run DELETE on the Generator sheet of the calling workbook."""
    press("delete_from_collection")


def sort_collection() -> None:
    """Run SORT on the Generator sheet of the calling workbook."""
    press("sort_collection")


def restore_to_collection() -> None:
    """Run RESTORE on the Generator sheet of the calling workbook."""
    press("restore_to_collection")


def analyze() -> None:
    """Run ANALYZE on the Analyze sheet of the calling workbook."""
    press("analyze")


def hint() -> None:
    """Run HINT on the Analyze sheet of the calling workbook."""
    press("hint")


def solve() -> None:
    """Run SOLVE on the Analyze sheet of the calling workbook."""
    press("solve")


def explain() -> None:
    """Run EXPLAIN on the Analyze sheet of the calling workbook."""
    press("explain")


def image() -> None:
    """Run IMAGE on the Print sheet of the calling workbook (the picture goes into the sheet)."""
    press("image")


def play() -> None:
    """Run PLAY on the Play sheet of the calling workbook."""
    press("play")


def check() -> None:
    """Run CHECK on the Play sheet of the calling workbook."""
    press("check")


def play_hint() -> None:
    """Run HINT on the Play sheet of the calling workbook."""
    press("play_hint")


def play_solve() -> None:
    """Run SOLVE on the Play sheet of the calling workbook."""
    press("play_solve")


def stats() -> None:
    """Run STATS on the Stats sheet of the calling workbook."""
    press("stats")


def undo() -> None:
    """Run UNDO on the Play sheet of the calling workbook."""
    press("undo")


def fill_candidates() -> None:
    """Run FILL CANDIDATES on the Play sheet of the calling workbook."""
    press("fill_candidates")
