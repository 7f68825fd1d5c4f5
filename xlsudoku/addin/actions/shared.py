"""What every sheet's actions share: the :class:`Changes` list, :class:`Outcome`, the run.

Every action works in two phases: it reads and checks everything and computes its results into
a :class:`Changes` list, and only then applies the list (:func:`run_action`).  So a bad input,
a puzzle with a clash or any engine error writes the message to the sheet's status cell and
nothing else; a workbook missing a sheet or a defined name is reported before anything is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlsudoku.addin import layout, params
from xlsudoku.addin.cellio import CellIO, MissingPart
from xlsudoku.engine.grid import SudokuError


def names_on(sheet: str) -> tuple[str, ...]:
    """Return the defined names the layout puts on *sheet*.

    >>> names_on("Print")
    ('PrintTitle', 'PrintGrid', 'PrintRules', 'PrintKeyTitle', 'PrintKey', 'PrintStatus')
    """
    return tuple(name for name, ref in layout.NAMES.items() if ref.sheet == sheet)


GENERATOR_NAMES = names_on(layout.GENERATOR)
ANALYZE_NAMES = names_on(layout.ANALYZE)
PRINT_NAMES = names_on(layout.PRINT)
PARAM_NAMES = tuple(param.name for param in layout.PARAMS)
COLLECTION_NAMES = (layout.COLLECTION_HEADER, layout.REMOVED_HEADER, layout.HIGHEST_ID)


@dataclass
class Changes:
    """Writes an action has decided on, applied together at the end (or not at all)."""

    operations: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def write(self, name: str, value: Any) -> None:
        """Queue ``io.write(name, value)``."""
        self.operations.append(("write", (name, value)))

    def clear(self, name: str) -> None:
        """Queue ``io.clear(name)``."""
        self.operations.append(("clear", (name,)))

    def fill(self, name: str, colour: str | None, cells: Iterable[tuple[int, int]] | None) -> None:
        """Queue ``io.fill(name, colour, cells)``."""
        self.operations.append(("fill", (name, colour, None if cells is None else list(cells))))

    def append_rows(
        self, name: str, rows: Sequence[Sequence[Any]], heights: Sequence[float] | None = None
    ) -> None:
        """Queue ``io.append_rows(name, rows, heights)``."""
        self.operations.append(("append_rows", (name, [list(row) for row in rows], heights)))

    def replace_rows(
        self, name: str, rows: Sequence[Sequence[Any]], heights: Sequence[float] | None = None
    ) -> None:
        """Queue ``io.replace_rows(name, rows, heights)``."""
        self.operations.append(("replace_rows", (name, [list(row) for row in rows], heights)))

    def set_sizes(
        self, name: str, widths: Sequence[float] | None, heights: Sequence[float] | None
    ) -> None:
        """Queue ``io.set_sizes(name, widths, heights)``."""
        self.operations.append(("set_sizes", (name, widths, heights)))

    def apply(self, io: CellIO) -> None:
        """Run the queued operations on *io*, in order."""
        for method, args in self.operations:
            getattr(io, method)(*args)


@dataclass(frozen=True)
class Outcome:
    """What an action did: the status text written, and whether it succeeded.

    Attributes:
        action: the action's name (``start``, ``analyze``, ...).
        status: the text written to the sheet's status cell.
        ok: False when the input was bad (only the status cell changed).
        detail: the engine result behind the action, when there is one.
        changes: every write made, the status first, to replay on another copy of the book.
    """

    action: str
    status: str
    ok: bool
    detail: Any = None
    changes: Changes = field(default_factory=Changes)


Body = Callable[[CellIO, Changes], tuple[str, Any]]


def run_action(
    io: CellIO, action: str, status_name: str, names: Sequence[str], body: Body
) -> Outcome:
    """Check the workbook, run *body*, then apply its changes or write only the error.

    The status is written first: a client that fails on a later write (a size or a colour it
    cannot set) still shows what the run did, never the status of the run before.

    Raises:
        MissingPart: when even the status cell cannot be found.
    """
    changes, detail = Changes(), None
    try:
        io.require(names)
        status, detail = body(io, changes)
        ok = True
    except SudokuError as error:
        if isinstance(error, MissingPart) and not has_part(io, status_name):
            raise
        changes, status, ok = Changes(), str(error), False
    changes.operations.insert(0, ("write", (status_name, status)))
    changes.apply(io)
    return Outcome(action, status, ok, detail, changes)


def has_part(io: CellIO, name: str) -> bool:
    """Return True when the workbook has defined *name* where the layout puts it."""
    try:
        io.require([name])
    except MissingPart:
        return False
    return True


def as_rows(value: Any) -> list[list[Any]]:
    """Return a read block (a single value only when the range is one cell) as rows."""
    return value if isinstance(value, list) else [[value]]


def is_whole(value: Any) -> bool:
    """Return True for a number with no fraction (as a cell gives ids and counts), not a bool.

    >>> is_whole(7.0), is_whole(7.5), is_whole(True), is_whole("7")
    (True, False, False, False)
    """
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


def is_number(value: Any) -> bool:
    """Return True for a number a cell holds (a logical value is not one).

    >>> is_number(2.5), is_number(False), is_number("2.5")
    (True, False, False)
    """
    return isinstance(value, int | float) and not isinstance(value, bool)


def rating_profile(io: CellIO) -> str:
    """Return the rating profile the Rating cell names (a bad value is named by its cell)."""
    return str(params.parse_param(layout.PARAMS_BY_NAME[layout.RATING], io.read(layout.RATING)))
