"""The errors of the file library, one per thing that can go wrong with a workbook file.

The library knows no Sudoku and no command line: a caller that does (the add-in's headless
runner, the command line) turns these into its own messages and exit statuses.
"""

from __future__ import annotations


class XlsmError(Exception):
    """Something about a workbook file; the message names the file and what is wrong."""


class WorkbookError(XlsmError):
    """The file cannot be used: missing, special, damaged, over a limit, or read-only."""


class UnsafeWorkbook(WorkbookError):
    """The package goes over a limit or holds XML a workbook never has; it was not read."""


class DamagedWorkbook(WorkbookError):
    """The package is damaged: a bad checksum, a cut or corrupt part, a missing part."""


class OutsideFolder(WorkbookError):
    """A document named a file outside the folder it may read from."""


class NotAPath(WorkbookError):
    """A document named a file by text that is no path (a NUL byte, another drive, too long)."""


class FolderNotWritable(XlsmError):
    """The folder a file would be written in cannot be written (permissions)."""


class FileInUse(XlsmError, PermissionError):
    """Another program (Excel, on Windows) kept the file open past the wait: it was not replaced.

    A ``PermissionError`` too, so a caller that says what an ``OSError`` means says its message.
    """


class LockTimeout(XlsmError):
    """Another run kept the workbook locked longer than the wait allowed."""


class PackageError(XlsmError):
    """A saved workbook lost its VBA project or buttons, or a template lacks them."""


class CfbError(XlsmError, ValueError):
    """The tree cannot be written as a compound file (bad name, file too large)."""


class VbaError(XlsmError, ValueError):
    """A VBA project or compressed container that cannot be read or written."""
