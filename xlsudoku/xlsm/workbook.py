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
import re
import warnings
import zipfile
from collections.abc import Callable, Mapping, Set
from pathlib import Path
from textwrap import shorten
from typing import TYPE_CHECKING, Any

from xlsudoku.xlsm.errors import WorkbookError
from xlsudoku.xlsm.files import read_bytes, replace_atomically, writable_target
from xlsudoku.xlsm.keep import check_parts_kept, clear_unwritable, keep_cells
from xlsudoku.xlsm.patch import Sizes, patch_cells
from xlsudoku.xlsm.safe_zip import DEFAULT_LIMITS, Limits, check_package
from xlsudoku.xlsm.sheetxml import Cells, bad_value

if TYPE_CHECKING:
    from xlsudoku.xlsm.files import Shield

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
        # openpyxl warns about what it does not model (extensions, unknown parts); a save
        # keeps those parts, so its warnings would only alarm (and leak onto the terminal)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if values_only:
                workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            else:
                keep_vba = path.suffix.lower() == ".xlsm"
                workbook = openpyxl.load_workbook(io.BytesIO(data), keep_vba=keep_vba)
    except MemoryError:
        raise
    except Exception as error:  # openpyxl raises many types for a file it cannot make sense of
        found = bad_value(data)
        if found is not None:
            sheet, address, text = found
            raise WorkbookError(
                f"{path}: the cell {sheet}!{address} holds {shorten(text, 40)!r} where the file "
                "says a number; it cannot be read as a workbook (type the cell again in Excel)"
            ) from error
        raise WorkbookError(f"{path}: cannot be read as a workbook ({error})") from error
    return workbook, data


def save(
    workbook: Any,
    target: Path,
    template: Path | bytes,
    *,
    interrupts: Shield | None = None,
    on_commit: Callable[[], None] | None = None,
    backup: bool | Path = True,
    changed: Cells | None = None,
    only_values: bool = False,
    resized: Mapping[str, tuple[Set[int], Set[int]]] | None = None,
    filled: Mapping[str, Mapping[tuple[int, int], str | None]] | None = None,
) -> None:
    """Save *workbook* to *target* in one step, keeping the old file as ``TARGET.bak``.

    A macro-enabled *target* is saved with *template* (the file, or the bytes, the workbook was
    read from) as the source of the VBA project and buttons; the check that the saved copy
    still has them runs before anything is written.  *backup* is where the old file is kept
    (a path), ``TARGET.bak`` (True) or nowhere (False).  With *changed* (sheet title -> the
    cells the run wrote), every other cell openpyxl would not write back as it was is put
    back from *template* (:mod:`xlsudoku.xlsm.keep`).  With *only_values* as well (the run
    changed nothing but the values of those cells, the sizes of the columns and rows
    *resized* names: sheet title -> (columns, rows), and the fills *filled* names: sheet
    title -> cell -> ``"FFRRGGBB"`` or None), only those are written into *template* and
    every other part is kept byte for byte (:func:`~xlsudoku.xlsm.patch.patch_cells`); where
    that cannot be done, openpyxl saves the whole workbook as above.

    The package is made in memory and written to the temporary file in one call, so a full
    disk fails there, cleanly, before anything is replaced.
    """
    from xlsudoku.xlsm.package import save_preserving

    real = writable_target(Path(target))
    if isinstance(template, Path):
        template = template.read_bytes()

    def write(temp: Path) -> None:
        macros = real.suffix.lower() == ".xlsm"
        data = None
        if only_values and changed:
            data = _patched(workbook, template, changed, resized or {}, filled or {}, macros)
        if data is not None:
            with open(temp, "wb") as handle:
                handle.write(data)
            return
        if changed is not None:
            clear_unwritable(workbook, changed)
        buffer = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # what openpyxl warns it drops, the checks below name
            if real.suffix.lower() == ".xlsm":
                save_preserving(workbook, buffer, template)
            else:
                workbook.save(buffer)
        data = buffer.getvalue()
        if changed is not None:
            check_parts_kept(template, data)
            data = keep_cells(template, data, changed)
        with open(temp, "wb") as handle:
            handle.write(data)

    replace_atomically(write, real, backup=backup, interrupts=interrupts, on_commit=on_commit)


def _patched(
    workbook: Any,
    template: bytes,
    changed: Cells,
    resized: Mapping[str, tuple[Set[int], Set[int]]],
    filled: Mapping[str, Mapping[tuple[int, int], str | None]],
    macros: bool,
) -> bytes | None:
    """Return *template* with the *changed* cells of *workbook* written (None: cannot be).

    The target's kind (*macros*: .xlsm) must be the template's: a workbook saved under the
    other extension is openpyxl's to convert (and to refuse, when there is no VBA project).
    """
    if _macro_enabled(template) != macros:
        return None
    if macros:
        from xlsudoku.xlsm.package import package_contents

        # the parts the patch copies must be what the whole save checks they are: the VBA
        # project there and every button drawing readable (a PackageError names what is not)
        if not package_contents(template).has_vba:
            return None
    values = {
        title: {(row, column): workbook[title].cell(row, column).value for row, column in cells}
        for title, cells in changed.items()
        if title in workbook.sheetnames
    }
    if len(values) != len(changed) or any(
        title not in workbook.sheetnames for title in [*resized, *filled]
    ):
        return None
    sizes = {title: _sizes(workbook[title], *lines) for title, lines in resized.items()}
    return patch_cells(template, values, sizes, filled)


def _sizes(sheet: Any, columns: Set[int], rows: Set[int]) -> Sizes:
    """Return the sizes of *columns* and *rows* of *sheet* as openpyxl holds them."""
    from openpyxl.utils.cell import get_column_letter

    widths = {}
    for column in columns:
        dimension = sheet.column_dimensions[get_column_letter(column)]
        widths[column] = (dimension.width, bool(dimension.hidden))
    heights = {}
    for row in rows:
        dimension = sheet.row_dimensions[row]
        heights[row] = (dimension.height, bool(dimension.hidden))
    return Sizes(widths, heights)


def _macro_enabled(package: bytes) -> bool | None:
    """Return whether *package* is a macro-enabled workbook with its VBA project (None: unknown).

    >>> import openpyxl
    >>> buffer = io.BytesIO()
    >>> openpyxl.Workbook().save(buffer)
    >>> _macro_enabled(buffer.getvalue())
    False
    """
    try:
        with zipfile.ZipFile(io.BytesIO(package)) as archive:
            types = archive.read("[Content_Types].xml")
            has_project = "xl/vbaProject.bin" in archive.namelist()
    except (zipfile.BadZipFile, KeyError):
        return None
    found = re.search(rb'PartName="/xl/workbook\.xml"\s+ContentType="([^"]*)"', types)
    if found is None:
        return None
    return b"macroEnabled" in found.group(1) and has_project
