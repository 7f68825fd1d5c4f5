"""What reading and patching a workbook package's sheets both need.

The sheets of a package by title, the defined names and the sheets their formulas read,
whether a part can be read with patterns, and when a formula's cached value is still current
after a run changed some sheets.  :mod:`xlsudoku.xlsm.keep` and :mod:`xlsudoku.xlsm.patch`
build on it.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Mapping, Set
from dataclasses import dataclass

from defusedxml.ElementTree import fromstring as parse_xml

from xlsudoku.xlsm.xmltext import escape, unescape

MAIN_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DOC_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"

Cells = Mapping[str, Set[tuple[int, int]]]
"""Sheet title -> the ``(row, column)`` cells (1-based) a run wrote."""

# A row's number, a cell's address, a formula's attributes and text, an empty sheet.
ROW_NUMBER = re.compile(rb'\br="([0-9]+)"')
CELL_ADDRESS = re.compile(rb'\br="([A-Z]{1,3})([0-9]+)"')
FORMULA_PARTS = re.compile(rb"<f\b(?P<attrs>[^>]*?)(?:/>|>(?P<text>.*?)</f>)", re.DOTALL)
EMPTY_SHEET_DATA = re.compile(rb"<sheetData\b[^>]*?/>")
_ATTRIBUTE = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')


@dataclass(frozen=True, slots=True)
class SheetContext:
    """What deciding about one sheet's cells needs."""

    title: str
    written: Set[tuple[int, int]]
    changed_sheets: Set[str]
    names: Mapping[str, frozenset[str]]

    def where(self, address: str) -> str:
        """Return *address* on this sheet, as a message names it."""
        return f"{self.title}!{address}"

    def cache_is_fresh(self, formula: str) -> bool:
        """Return True when *formula* reads no sheet the run changed."""
        if not self.changed_sheets:
            return True
        if _VOLATILE.search(formula):
            return False
        read = {self.title.casefold()}
        for quoted, plain in _SHEET_REF.findall(formula):
            read.add((quoted.replace("''", "'") if quoted else plain).casefold())
        for word in _WORD.findall(formula):
            read |= self.names.get(word.casefold(), frozenset())
        return not read & self.changed_sheets


_SHEET_REF = re.compile(r"(?:'((?:[^']|'')+)'|([^\s'!(),;:=+\-*/&^<>\"{}]+))!")
_WORD = re.compile(r"[A-Za-z_\\][\w.]*")
_VOLATILE = re.compile(r"\b(?:INDIRECT|OFFSET)\s*\(|\[", re.IGNORECASE)


def relationships(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """Return relationship id -> (type, target part) of *part*."""
    folder, _, name = part.rpartition("/")
    rels = f"{folder}/_rels/{name}.rels"
    if rels not in archive.namelist():
        return {}
    found = {}
    for rel in parse_xml(archive.read(rels)).iter(f"{_REL_NS}Relationship"):
        target = rel.get("Target", "")
        path = target[1:] if target.startswith("/") else posixpath.join(folder, target)
        found[rel.get("Id", "")] = (rel.get("Type", ""), posixpath.normpath(path))
    return found


def sheet_parts(archive: zipfile.ZipFile) -> dict[str, str]:
    """Return sheet title -> worksheet part of the package."""
    rels = relationships(archive, "xl/workbook.xml")
    parts = {}
    for sheet in parse_xml(archive.read("xl/workbook.xml")).iter(f"{MAIN_NS}sheet"):
        kind, part = rels.get(sheet.get(_DOC_REL, ""), ("", ""))
        if kind.endswith("/worksheet") and part in archive.namelist():
            parts[sheet.get("name", "")] = part
    return parts


def defined_names(archive: zipfile.ZipFile) -> dict[str, frozenset[str]]:
    """Return defined name (casefolded) -> the sheets (casefolded) its formula names."""
    found = {}
    for defined in parse_xml(archive.read("xl/workbook.xml")).iter(f"{MAIN_NS}definedName"):
        text = defined.text or ""
        sheets = {
            (q.replace("''", "'") if q else p).casefold() for q, p in _SHEET_REF.findall(text)
        }
        found[defined.get("name", "").casefold()] = frozenset(sheets)
    return found


def plain_xml(data: bytes, root: bytes) -> bool:
    """Return True when *data* can be read with patterns.

    That is: its elements are in the default namespace (*root* has no prefix), and it holds
    no comment, CDATA section or processing instruction after the declaration.
    """
    head = data.find(root)
    return (
        head >= 0 and b"<!--" not in data and b"<![CDATA[" not in data and b"<?" not in data[head:]
    )


def xml_text(text: str) -> str:
    """Return *text* escaped for an XML element's text (a carriage return kept).

    >>> xml_text("a<b") + xml_text(chr(13))
    'a&lt;b&#13;'
    """
    return escape(text).replace("\r", "&#13;")


def xml_attributes(text: bytes) -> dict[bytes, bytes]:
    """Return the attributes of an opening tag's *text* (double-quoted values).

    >>> xml_attributes(b' r="A1" s="3"')
    {b'r': b'A1', b's': b'3'}
    """
    return dict(_ATTRIBUTE.findall(text))


_VALUE_CELL = re.compile(rb"<c\b(?P<attrs>[^>]*?)>(?P<body>.*?)</c>", re.DOTALL)
_VALUE = re.compile(rb"<v(?:\s[^>]*)?>(.*?)</v>", re.DOTALL)


def bad_value(package: bytes) -> tuple[str, str, str] | None:
    """Return (sheet, cell, text) of the first number or TRUE/FALSE cell whose text is neither.

    openpyxl stops on such a cell with a message about invalid XML that names neither; this
    names it.  None when there is none (or the package is damaged some other way).

    >>> import openpyxl
    >>> buffer = io.BytesIO()
    >>> book = openpyxl.Workbook()
    >>> book.active["B3"] = 7
    >>> book.save(buffer)
    >>> bad_value(buffer.getvalue()) is None
    True
    >>> with zipfile.ZipFile(buffer) as archive:
    ...     parts = {name: archive.read(name) for name in archive.namelist()}
    >>> sheet = "xl/worksheets/sheet1.xml"
    >>> parts[sheet] = parts[sheet].replace(b"<v>7</v>", b"<v>seven</v>")
    >>> broken = io.BytesIO()
    >>> with zipfile.ZipFile(broken, "w") as archive:
    ...     for name, data in parts.items():
    ...         archive.writestr(name, data)
    >>> bad_value(broken.getvalue())
    ('Sheet', 'B3', 'seven')
    """
    try:
        with zipfile.ZipFile(io.BytesIO(package)) as archive:
            for title, part in sheet_parts(archive).items():
                found = _bad_value_in(archive.read(part))
                if found is not None:
                    return (title, *found)
    except Exception:  # damaged some other way: openpyxl's own message says how
        return None
    return None


def _bad_value_in(data: bytes) -> tuple[str, str] | None:
    """Return (cell, text) of the first number or truth value in sheet XML that is neither."""
    for cell in _VALUE_CELL.finditer(data):
        attrs = xml_attributes(cell.group("attrs"))
        kind = attrs.get(b"t", b"n")
        if kind not in (b"n", b"b"):
            continue
        value = _VALUE.search(cell.group("body"))
        if value is None:
            continue
        text = unescape(value.group(1).decode("utf-8", "replace"))
        try:  # as openpyxl reads them
            if kind == b"b":
                int(text)
            elif any(mark in text for mark in ".Ee"):
                float(text)
            else:
                int(text)
        except ValueError:
            return attrs.get(b"r", b"?").decode("utf-8", "replace"), text
    return None
