"""Check a workbook package before openpyxl reads it: limits, damage, unsafe XML.

An ``.xlsx``/``.xlsm`` file is a zip of XML parts.  openpyxl trusts it: a zip bomb, a 2 GB part
or a sheet with a cell on row 1,000,000 costs gigabytes of memory before anything can be said,
and a missing or corrupt part surfaces as a ``KeyError`` or an I/O error.  :func:`check_package`
looks first, with bounded memory and time:

1. the zip directory: how many parts, their declared sizes and compression ratios, encrypted
   or unknown compression, names given twice (every limit is in :class:`Limits`);
2. every part, streamed in small chunks: its real size (the directory can lie), its checksum
   (a bad CRC is damage), no DTD or entity declaration in XML (Office files never have one;
   they are how entity-expansion attacks work), and in worksheets the highest row and column
   any cell names and how many cells there are;
3. the package's structure: the workbook part, its sheets and every part a relationship points
   at must be there (parsed with :mod:`defusedxml`).

Each refusal is a :class:`~xlsudoku.xlsm.errors.WorkbookError` whose message names the
file, the part and the limit or the damage.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from xlsudoku.xlsm.cells import column_number
from xlsudoku.xlsm.errors import DamagedWorkbook, UnsafeWorkbook

_MIB = 1024 * 1024
_CHUNK = 64 * 1024
_OVERLAP = 512  # bytes kept between chunks: a pattern cut in two is seen whole in the next
_XML_SUFFIXES = (".xml", ".rels", ".vml")
_WORKSHEET = re.compile(r"^xl/worksheets/[^/]+\.xml$")
_DECLARATION = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_CELL_OR_ROW = re.compile(rb'<(c|row)\b[^>]{0,400}?\sr="([A-Z]{0,3})([0-9]{1,12})"')
_REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_MAIN_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_DOC_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


@dataclass(frozen=True, slots=True)
class Limits:
    """What a workbook may hold before it is refused unread.

    The defaults leave room for a Collection of about 15,000 puzzles and keep the memory a
    command on an accepted file needs under 500 MB (measured: docs/reliability.md).

    Attributes:
        file_bytes: the size of the file itself.
        part_bytes: the uncompressed size of one part.
        total_bytes: the uncompressed size of all parts together.
        ratio: the highest compression ratio of a part larger than *ratio_floor*
            (XML compresses 5-30 times; a zip bomb thousands of times).
        ratio_floor: parts this small are never refused for their ratio.
        parts: how many parts the package may have.
        rows: the highest row number a worksheet cell may have.
        columns: the highest column number a worksheet cell may have.
        cells: how many cells all worksheets together may have (what openpyxl's memory
            grows with: about 2 KB a cell).
    """

    file_bytes: int = 64 * _MIB
    part_bytes: int = 48 * _MIB
    total_bytes: int = 128 * _MIB
    ratio: float = 200.0
    ratio_floor: int = 1 * _MIB
    parts: int = 2000
    rows: int = 100_000
    columns: int = 1024
    cells: int = 200_000


DEFAULT_LIMITS = Limits()


def _megabytes(size: int) -> str:
    return f"{size / _MIB:,.1f} MB"


def check_package(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """Raise :class:`UnsafeWorkbook` or :class:`DamagedWorkbook` unless *data* is a sound package.

    *name* is the file's name for the messages.

    >>> check_package(b"not a zip", "book.xlsm")
    Traceback (most recent call last):
    ...
    xlsudoku.xlsm.errors.DamagedWorkbook: book.xlsm: not a workbook (not a zip package, \
or one cut short)
    """
    if len(data) > limits.file_bytes:
        raise UnsafeWorkbook(
            f"{name}: the file is {_megabytes(len(data))}, over the limit of "
            f"{_megabytes(limits.file_bytes)} for a workbook; it was not read"
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise DamagedWorkbook(
            f"{name}: not a workbook (not a zip package, or one cut short)"
        ) from None
    with archive:
        infos = archive.infolist()
        _check_directory(infos, name, limits)
        cells = 0
        for info in infos:
            cells += _check_part(archive, info, name, limits, cells)
        _check_structure(archive, name)


def _check_directory(infos: list[zipfile.ZipInfo], name: str, limits: Limits) -> None:
    """Check the zip directory alone: counts, declared sizes and ratios, encryption, names."""
    if len(infos) > limits.parts:
        raise UnsafeWorkbook(
            f"{name}: {len(infos):,} parts, over the limit of {limits.parts:,}; it was not read"
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        part = info.filename
        if part in seen:
            raise DamagedWorkbook(f"{name}: the part {part} is in the package twice")
        seen.add(part)
        if info.flag_bits & 0x1:
            raise UnsafeWorkbook(f"{name}: the part {part} is encrypted; it was not read")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise UnsafeWorkbook(
                f"{name}: the part {part} uses compression method {info.compress_type}, "
                "which workbooks do not use; it was not read"
            )
        _check_size(name, part, info.file_size, info.compress_size, limits)
        total += info.file_size
        if total > limits.total_bytes:
            raise UnsafeWorkbook(
                f"{name}: the parts unpack to more than {_megabytes(limits.total_bytes)} "
                "(the limit for a workbook); it was not read"
            )


def _check_size(name: str, part: str, size: int, packed: int, limits: Limits) -> None:
    """Refuse a part whose (declared or real) *size* or ratio goes over the limits."""
    if size > limits.part_bytes:
        raise UnsafeWorkbook(
            f"{name}: the part {part} unpacks to {_megabytes(size)}, over the limit of "
            f"{_megabytes(limits.part_bytes)} for one part; it was not read"
        )
    if size > limits.ratio_floor and size > limits.ratio * max(packed, 1):
        raise UnsafeWorkbook(
            f"{name}: the part {part} is compressed {size / max(packed, 1):,.0f} to 1, over "
            f"the limit of {limits.ratio:g} to 1 (a zip bomb); it was not read"
        )


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> Iterator[bytes]:
    """Yield the part's bytes in chunks, turning every decoding failure into damage."""
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                yield chunk
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as error:
        what = "fails its checksum" if "CRC" in str(error) else f"cannot be unpacked ({error})"
        raise DamagedWorkbook(f"{name}: damaged: the part {info.filename} {what}") from None


def _check_part(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, limits: Limits, before: int = 0
) -> int:
    """Stream one part: real size and ratio, checksum, DTDs, and a worksheet's extent.

    *before* is how many cells the worksheets checked so far hold; returns this part's cells.
    """
    part = info.filename
    xml = part.lower().endswith(_XML_SUFFIXES)
    worksheet = bool(_WORKSHEET.match(part))
    size = rows = columns = cells = 0
    tail = b""
    for chunk in _chunks(archive, info, name):
        size += len(chunk)
        _check_size(name, part, size, info.compress_size, limits)
        if not xml:
            continue
        window = tail + chunk
        if _DECLARATION.search(window):
            raise UnsafeWorkbook(
                f"{name}: the part {part} declares a DTD or XML entities, which workbooks "
                "never do (an entity-expansion attack); it was not read"
            )
        if worksheet:
            for match in _CELL_OR_ROW.finditer(window):
                if match.end() <= len(tail):
                    continue  # seen whole in the previous window
                rows = max(rows, int(match.group(3)))
                columns = max(columns, column_number(match.group(2).decode()))
                cells += match.group(1) == b"c"
            _check_extent(name, part, rows, columns, cells, before, limits)
        tail = window[-_OVERLAP:]
    return cells


def _check_extent(
    name: str, part: str, rows: int, columns: int, cells: int, before: int, limits: Limits
) -> None:
    """Refuse a worksheet that reaches past the row or column limit, or the cell limit."""
    for what, value, limit in (
        ("a cell on row", rows, limits.rows),
        ("a cell in column", columns, limits.columns),
    ):
        if value > limit:
            raise UnsafeWorkbook(
                f"{name}: the sheet part {part} has {what} {value:,}, over the limit of "
                f"{limit:,}; it was not read"
            )
    if before + cells > limits.cells:
        raise UnsafeWorkbook(
            f"{name}: the sheets hold more than {limits.cells:,} cells (the limit for a "
            f"workbook; {part} alone {cells:,}): move puzzles to another workbook; it was not read"
        )


def _xml(archive: zipfile.ZipFile, part: str, name: str) -> object:
    """Return the parsed root of *part* (defusedxml), naming a missing or broken part."""
    from defusedxml import ElementTree

    try:
        data = archive.read(part)
    except KeyError:
        raise DamagedWorkbook(f"{name}: damaged: the part {part} is missing") from None
    try:
        return ElementTree.fromstring(data)
    except Exception as error:  # defusedxml and expat raise several types for bad XML
        raise DamagedWorkbook(f"{name}: damaged: the part {part} is not sound XML ({error})") from (
            None
        )


def _relationships(archive: zipfile.ZipFile, rels: str, name: str) -> dict[str, str]:
    """Return relationship id -> internal target part of the ``.rels`` part *rels*."""
    folder = posixpath.dirname(posixpath.dirname(rels))
    root = _xml(archive, rels, name)
    targets = {}
    for rel in root.iter(f"{_REL_NS}Relationship"):  # type: ignore[attr-defined]
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        path = target[1:] if target.startswith("/") else posixpath.join(folder, target)
        targets[rel.get("Id", "")] = posixpath.normpath(path)
    return targets


def _check_structure(archive: zipfile.ZipFile, name: str) -> None:
    """Check the workbook part, its sheets and every relationship's target part are there."""
    names = set(archive.namelist())
    for required in ("[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels"):
        if required not in names:
            raise DamagedWorkbook(f"{name}: damaged: the part {required} is missing")
    for rels in sorted(part for part in names if part.endswith(".rels")):
        owner = posixpath.join(
            posixpath.dirname(posixpath.dirname(rels)), posixpath.basename(rels)[: -len(".rels")]
        )
        for target in _relationships(archive, rels, name).values():
            if target not in names:
                raise DamagedWorkbook(
                    f"{name}: damaged: {owner or 'the package'} refers to the part {target}, "
                    "which is missing"
                )
    sheets = _relationships(archive, "xl/_rels/workbook.xml.rels", name)
    workbook = _xml(archive, "xl/workbook.xml", name)
    for sheet in workbook.iter(f"{_MAIN_NS}sheet"):  # type: ignore[attr-defined]
        if sheet.get(_DOC_REL) not in sheets:
            raise DamagedWorkbook(
                f"{name}: damaged: the sheet {sheet.get('name')!r} has no part in the package"
            )
