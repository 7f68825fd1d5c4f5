"""The xlwings VBA project the workbook's buttons run on (classic desktop ``RunPython``).

The workbook's VBA project is built from what the xlwings package ships: its standalone
quickstart workbook (``xlwings/quickstart_standalone.xlsm``) holds a project with the
``xlwings`` module (``RunPython``) and the ``Dictionary`` class it needs on macOS.  The build
(:mod:`xlsudoku.template.build`) keeps those modules, drops the quickstart's ``Module1``
and adds our ``Buttons`` module plus one document module per sheet
(:func:`xlsudoku.xlsm.vbaproject.workbook_project`).
"""

from __future__ import annotations

import re
from pathlib import Path

from xlsudoku.xlsm.errors import VbaError
from xlsudoku.xlsm.vbaproject import VbaProject, parse_project

VENDORED_PROJECT = Path(__file__).resolve().parent / "vba" / "xlwings_project.bin"
"""The VBA project of the quickstart workbook the pinned xlwings ships, kept in the repository."""


def xlwings_quickstart() -> Path:
    """Return the path of the standalone quickstart workbook the installed xlwings ships."""
    import importlib.util

    spec = importlib.util.find_spec("xlwings")
    if spec is None or spec.origin is None:
        raise VbaError("the xlwings package is not installed")
    return Path(spec.origin).parent / "quickstart_standalone.xlsm"


def quickstart_project_bytes(quickstart: Path | None = None) -> bytes:
    """Return the ``vbaProject.bin`` of xlwings' standalone quickstart workbook."""
    import zipfile

    with zipfile.ZipFile(quickstart or xlwings_quickstart()) as archive:
        return archive.read("xl/vbaProject.bin")


def refresh_vendored_project(quickstart: Path | None = None) -> Path:
    """Copy the installed xlwings' quickstart VBA project to ``template/vba/``; return the path."""
    VENDORED_PROJECT.write_bytes(quickstart_project_bytes(quickstart))
    return VENDORED_PROJECT


def xlwings_version(project: VbaProject) -> str:
    """Return the xlwings version written in the project's ``xlwings`` module.

    >>> xlwings_version(xlwings_project()).count(".")
    2
    """
    match = re.search(r"^'Version: (\S+)", project.module("xlwings").source, re.MULTILINE)
    if match is None:
        raise VbaError("the xlwings module does not say its version")
    return match.group(1)


def xlwings_project(blob: bytes | None = None) -> VbaProject:
    """Return xlwings' standalone VBA project: the vendored copy, or *blob* when given.

    ``template/vba/xlwings_project.bin`` is the ``xl/vbaProject.bin`` of the quickstart workbook
    the xlwings package ships (``xlwings/quickstart_standalone.xlsm``), kept in the repository
    so the workbook build does not change with the installed xlwings version; refresh it with
    ``python -m xlsudoku.template.build --refresh-xlwings``.

    >>> sorted(module.name for module in xlwings_project().modules)
    ['Dictionary', 'Module1', 'Sheet1', 'Sheet2', 'ThisWorkbook', 'xlwings']
    """
    return parse_project(VENDORED_PROJECT.read_bytes() if blob is None else blob)
