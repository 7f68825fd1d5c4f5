"""A workbook file opened without trusting it, and saved without losing what it holds.

:func:`load` reads the bytes of a regular file within the size limit
(:func:`~xlsudoku.xlsm.files.read_bytes`), checks the package against the limits, damage and
unsafe XML (:func:`~xlsudoku.xlsm.safe_zip.check_package`), and only then hands it to openpyxl.
:func:`save` writes through a temporary file and replaces the target in one step, keeping the
old file as ``NAME.bak`` (:func:`~xlsudoku.xlsm.files.replace_atomically`); a macro-enabled
workbook keeps its VBA project and buttons (:func:`~xlsudoku.xlsm.package.save_preserving`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from xlsudoku.xlsm.errors import WorkbookError
from xlsudoku.xlsm.files import Shield, read_bytes, replace_atomically, writable_target
from xlsudoku.xlsm.safe_zip import DEFAULT_LIMITS, Limits, check_package

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def is_workbook_path(text: str) -> bool:
    """Return True when *text* names an Excel workbook (by its extension).

    >>> is_workbook_path("book.XLSM"), is_workbook_path("puzzle.txt")
    (True, False)
    """
    return Path(text).suffix.lower() in WORKBOOK_SUFFIXES


def load(
    path: Path, limits: Limits = DEFAULT_LIMITS, *, values_only: bool = False
) -> tuple[Any, bytes]:
    """Return the workbook at *path* (its VBA project kept) and the bytes it was read from.

    Formulas are read as text; with *values_only* the workbook is opened read-only (rows read
    as they are asked for, the workbook closed by the caller) and formulas give their cached
    values.

    Raises:
        WorkbookError: the file is missing, special, over a limit, damaged or not a workbook.
    """
    import openpyxl

    path = Path(path)
    if not is_workbook_path(str(path)):
        raise WorkbookError(f"{path}: not an .xlsx or .xlsm workbook")
    data = read_bytes(path, limits.file_bytes)
    check_package(data, str(path), limits)
    try:
        if values_only:
            workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        else:
            keep_vba = path.suffix.lower() == ".xlsm"
            workbook = openpyxl.load_workbook(io.BytesIO(data), keep_vba=keep_vba)
    except MemoryError:
        raise
    except Exception as error:  # openpyxl raises many types for a file it cannot make sense of
        raise WorkbookError(f"{path}: cannot be read as a workbook ({error})") from error
    return workbook, data


def save(
    workbook: Any,
    target: Path,
    template: Path | bytes,
    *,
    interrupts: Shield | None = None,
    on_commit: Callable[[], None] | None = None,
) -> None:
    """Save *workbook* to *target* in one step, keeping the old file as ``TARGET.bak``.

    A macro-enabled *target* is saved with *template* (the file, or the bytes, the workbook was
    read from) as the source of the VBA project and buttons; the check that the saved copy
    still has them runs on the temporary file, before it replaces anything.
    """
    from xlsudoku.xlsm.package import save_preserving

    real = writable_target(Path(target))
    if isinstance(template, Path):
        template = template.read_bytes()

    def write(temp: Path) -> None:
        if real.suffix.lower() == ".xlsm":
            save_preserving(workbook, temp, template)
        else:
            workbook.save(temp)

    replace_atomically(write, real, interrupts=interrupts, on_commit=on_commit)
