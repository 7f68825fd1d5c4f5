"""Classic desktop xlwings entry points: what the workbook's button macros call.

Each button's VBA macro runs ``RunPython "import addin.desktop; addin.desktop.<action>()"``
(see :attr:`addin.layout.Button.python_call`); xlwings starts Python on the same machine and
the function finds the calling workbook through ``xw.Book.caller()``.  The work is done by
:mod:`xlsudoku.addin.actions`, the same as for xlwings Lite and the headless runner.
"""

from __future__ import annotations

from collections.abc import Callable

from xlsudoku.addin import actions, layout
from xlsudoku.addin.cellio import CellIO, XlwingsIO, caller_io
from xlsudoku.addin.workbook_lock import LockTimeout, open_book_lock


def _io() -> XlwingsIO:
    return caller_io()


def _locked(action: Callable[[CellIO], object], status: str) -> None:
    """Run *action* holding the lock of the book's file (a headless run on it waits)."""
    io = _io()
    try:
        with open_book_lock(getattr(io.book, "fullname", None)):
            action(io)
    except LockTimeout as error:
        io.write(status, f"{error}; nothing was written: press the button again.")


def start() -> None:
    """START button."""
    _locked(actions.start, layout.STATUS)


def save_to_collection() -> None:
    """SAVE TO COLLECTION button."""
    _locked(actions.save_to_collection, layout.STATUS)


def clear() -> None:
    """CLEAR button."""
    _locked(actions.clear, layout.STATUS)


def analyze() -> None:
    """ANALYZE button."""
    _locked(actions.analyze, layout.ANALYZE_STATUS)


def hint() -> None:
    """HINT button."""
    _locked(actions.hint, layout.ANALYZE_STATUS)


def solve() -> None:
    """SOLVE button."""
    _locked(actions.solve, layout.ANALYZE_STATUS)
