"""Classic desktop xlwings entry points: what the workbook's button macros call.

Each button's VBA macro runs ``RunPython "import addin.desktop; addin.desktop.<action>()"``
(see :attr:`addin.layout.Button.python_call`); xlwings starts Python on the same machine and
the function finds the calling workbook through ``xw.Book.caller()``.  The work is done by
:mod:`xlsudoku.addin.actions`, the same as for xlwings Lite and the headless runner.
"""

from __future__ import annotations

from xlsudoku.addin import actions
from xlsudoku.addin.cellio import XlwingsIO, caller_io


def _io() -> XlwingsIO:
    return caller_io()


def start() -> None:
    """START button."""
    actions.start(_io())


def save_to_collection() -> None:
    """SAVE TO COLLECTION button."""
    actions.save_to_collection(_io())


def clear() -> None:
    """CLEAR button."""
    actions.clear(_io())


def import_puzzles() -> None:
    """IMPORT button (Collection tools)."""
    actions.import_puzzles(_io())


def delete_from_collection() -> None:
    """DELETE button (Collection tools)."""
    actions.delete_from_collection(_io())


def sort_collection() -> None:
    """SORT button (Collection tools)."""
    actions.sort_collection(_io())


def analyze() -> None:
    """ANALYZE button."""
    actions.analyze(_io())


def hint() -> None:
    """HINT button."""
    actions.hint(_io())


def solve() -> None:
    """SOLVE button."""
    actions.solve(_io())
