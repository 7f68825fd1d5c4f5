"""A corpus of hostile and damaged workbooks, made on demand from the committed template.

Never committed (some are zip bombs): :func:`make_corpus` writes them into a folder for the
reliability tests and ``xlsudoku bench soak``.  Each :class:`Case` names what is wrong and a
piece of the message the refusal must contain; every case must be refused with exit status 3
(a file that cannot be used), without a traceback, and leave the file as it was.
"""

from __future__ import annotations

import io
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Parts = dict[str, bytes]
SHEET = "xl/worksheets/sheet1.xml"  # the Generator sheet
WORKBOOK = "xl/workbook.xml"


@dataclass(frozen=True, slots=True)
class Case:
    """One hostile file: its kind, its path, and what the refusal must say."""

    kind: str
    path: Path
    expect: str
    command: str = "start"


def _parts(template: Path) -> Parts:
    with zipfile.ZipFile(template) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def _zip(parts: Parts, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _edit(part: str, old: bytes, new: bytes) -> Callable[[Parts], Parts]:
    def edit(parts: Parts) -> Parts:
        if old not in parts[part]:
            raise ValueError(f"{old!r} not in {part}")
        return parts | {part: parts[part].replace(old, new, 1)}

    return edit


def _without(part: str) -> Callable[[Parts], Parts]:
    return lambda parts: {name: data for name, data in parts.items() if name != part}


def _inside_merged_status() -> str:
    """Return a cell inside the Status cell's merged block, not its top-left one."""
    from xlsudoku.addin import layout
    from xlsudoku.xlsm.cells import absolute

    block = layout.MERGED[layout.STATUS]
    first_row, first_col, _, _ = block.bounds
    return f"{block.sheet}!{absolute(layout.cell_address(first_row + 1, first_col + 1))}"


def _name(name: str, refers_to: str) -> Callable[[Parts], Parts]:
    """Point the defined name *name* at *refers_to*."""

    def edit(parts: Parts) -> Parts:
        pattern = re.compile(rf'(<definedName name="{name}">)[^<]*(</definedName>)'.encode())
        text, count = pattern.subn(rb"\g<1>" + refers_to.encode() + rb"\g<2>", parts[WORKBOOK])
        if count != 1:
            raise ValueError(f"no defined name {name}")
        return parts | {WORKBOOK: text}

    return edit


def _sheet_with(cells: bytes) -> Callable[[Parts], Parts]:
    """Put *cells* (``<row>`` elements) at the start of the Generator sheet's data."""
    return _edit(SHEET, b"<sheetData>", b"<sheetData>" + cells)


_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'.encode()
        for i in range(1, 10)
    )
    + b"]>"
)


def _entity_bomb(parts: Parts) -> Parts:
    sheet = parts[SHEET].split(b"?>", 1)[-1]
    return parts | {SHEET: _LAUGHS + sheet.replace(b"<sheetData>", b"<sheetData>&lol9;", 1)}


def _external_entity(parts: Parts) -> Parts:
    doctype = b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    workbook = parts[WORKBOOK].split(b"?>", 1)[-1]
    return parts | {WORKBOOK: b'<?xml version="1.0"?>' + doctype + workbook}


def _bomb_bytes(size: int) -> bytes:
    """Return a deflated sheet of *size* bytes of blanks inside a valid element."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = b'<?xml version="1.0"?><worksheet><sheetData>'
    chunk = b" " * (1 << 20)
    out = [compressor.compress(head)]
    for _ in range(size >> 20):
        out.append(compressor.compress(chunk))
    out.append(compressor.compress(b"</sheetData></worksheet>"))
    out.append(compressor.flush())
    return b"".join(out)


def _raw_deflated_zip(parts: Parts, part: str, deflated: bytes, size: int, crc: int) -> bytes:
    """Return the package with *part* replaced by raw *deflated* data of *size* bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            if name != part:
                archive.writestr(name, data)
        info = zipfile.ZipInfo(part, date_time=(2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, b"")
    data = buffer.getvalue()
    # Rebuild: local header + data of the last entry patched by hand.
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        last = archive.getinfo(part)
    offset = last.header_offset
    name = part.encode()
    local = struct.pack(
        "<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(deflated), size, len(name), 0
    )
    central = struct.pack(
        "<4s6H3L5H2L",
        b"PK\x01\x02",
        20,
        20,
        0,
        8,
        0,
        0x21,
        crc,
        len(deflated),
        size,
        len(name),
        0,
        0,
        0,
        0,
        0o644 << 16,
        offset,
    )
    head = data[:offset]
    # central directory of the other entries: find it from the end record
    end = data.rfind(b"PK\x05\x06")
    count, cd_size, cd_offset = struct.unpack("<HLL", data[end + 10 : end + 20])
    others = data[cd_offset : cd_offset + cd_size]
    others = others[: others.rfind(b"PK\x01\x02")]  # drop the placeholder entry
    new_cd_offset = offset + len(local) + len(name) + len(deflated)
    directory = others + central + name
    end_record = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(directory), new_cd_offset, 0
    )
    return head + local + name + deflated + directory + end_record


def _zip_bomb(size: int) -> Callable[[Parts], bytes]:
    def make(parts: Parts) -> bytes:
        deflated = _bomb_bytes(size)
        return _raw_deflated_zip(parts, SHEET, deflated, size, 0)

    return make


def _lying_size(parts: Parts) -> bytes:
    """A sheet whose directory says 2 GB (the real part is small)."""
    data = parts[SHEET]
    deflated = zlib.compress(data, 9)[2:-4]
    return _raw_deflated_zip(parts, SHEET, deflated, 2**31, zlib.crc32(data))


def _lying_small(parts: Parts) -> bytes:
    """A sheet whose directory says 16 KB but which unpacks to 64 MB."""
    return _raw_deflated_zip(parts, SHEET, _bomb_bytes(64 << 20), 16_000, 0)


def _bad_crc(parts: Parts) -> bytes:
    data = parts[SHEET]
    deflated = zlib.compress(data, 9)[2:-4]
    return _raw_deflated_zip(parts, SHEET, deflated, len(data), zlib.crc32(data) ^ 0xFFFF)


def _corrupt_stream(parts: Parts) -> bytes:
    data = parts[SHEET]
    deflated = bytearray(zlib.compress(data, 9)[2:-4])
    for index in range(10, len(deflated), 7):
        deflated[index] ^= 0x5A
    return _raw_deflated_zip(parts, SHEET, bytes(deflated), len(data), zlib.crc32(data))


def _flag(bit: int, method: int | None = None) -> Callable[[Parts], bytes]:
    """Set a general-purpose flag bit (or the method) of the sheet's entry in both headers."""

    def make(parts: Parts) -> bytes:
        data = bytearray(_zip(parts))
        with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
            info = archive.getinfo(SHEET)
        local = info.header_offset
        central = data.find(b"PK\x01\x02")
        while data[central + 46 : central + 46 + len(SHEET)] != SHEET.encode():
            central = data.find(b"PK\x01\x02", central + 4)
        for flags_at in (local + 6, central + 8):
            flags = struct.unpack_from("<H", data, flags_at)[0] | bit
            struct.pack_into("<H", data, flags_at, flags)
            if method is not None:
                struct.pack_into("<H", data, flags_at + 2, method)
        return bytes(data)

    return make


def _duplicate(parts: Parts) -> bytes:
    buffer = io.BytesIO()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in parts.items():
                archive.writestr(name, data)
            archive.writestr(SHEET, parts[SHEET])
    return buffer.getvalue()


def _many_parts(parts: Parts) -> Parts:
    return parts | {f"customXml/item{i}.xml": b"<a/>" for i in range(2500)}


def _many_rows(parts: Parts) -> Parts:
    rows = b"".join(
        b'<row r="%d"><c r="Z%d"><v>1</v></c></row>' % (r, r) for r in range(40, 150_040)
    )
    sheet = parts[SHEET]
    tail = sheet.index(b"</sheetData>")
    return parts | {SHEET: sheet[:tail] + rows + sheet[tail:]}


def _many_cells(parts: Parts) -> Parts:
    """Return *parts* with 70,000 rows of 3 cells in the Collection: 210,000 cells in all."""
    part = "xl/worksheets/sheet4.xml"
    rows = b"".join(
        b'<row r="%d"><c r="A%d"><v>1</v></c><c r="B%d"><v>2</v></c><c r="C%d"><v>3</v></c></row>'
        % (r, r, r, r)
        for r in range(2, 70_002)
    )
    sheet = re.sub(rb'<row r="2"\s*(/>|></row>)', b"", parts[part], count=1)
    tail = sheet.index(b"</sheetData>")
    return parts | {part: sheet[:tail] + rows + sheet[tail:]}


def _far_cell(parts: Parts) -> Parts:
    sheet = parts[SHEET]
    tail = sheet.index(b"</sheetData>")
    far = b'<row r="1000000"><c r="A1000000"><v>1</v></c></row>'
    return parts | {SHEET: sheet[:tail] + far + sheet[tail:]}


def _far_column(parts: Parts) -> Parts:
    sheet = parts[SHEET]
    tail = sheet.index(b"</sheetData>")
    far = b'<row r="900"><c r="XFD900"><v>1</v></c></row>'
    return parts | {SHEET: sheet[:tail] + far + sheet[tail:]}


def _out_of_order(parts: Parts) -> Parts:
    sheet = parts[SHEET]
    tail = sheet.index(b"</sheetData>")
    row = b'<row r="900"><c r="B900"><v>2</v></c><c r="A900"><v>1</v></c></row>'
    return parts | {SHEET: sheet[:tail] + row + sheet[tail:]}


Make = Callable[[Parts], Parts | bytes]

KINDS: dict[str, tuple[Make | bytes, str]] = {
    "zip bomb (60 MB sheet, 1000:1)": (_zip_bomb(60 << 20), "over the limit"),
    "ratio bomb (40 MB sheet)": (_zip_bomb(40 << 20), "zip bomb"),
    "2 GB part (declared)": (_lying_size, "2,048.0 MB"),
    "part bigger than declared": (_lying_small, "damaged"),
    "1,000,000-row sheet": (_far_cell, "row 1,000,000"),
    "150,000 rows of cells": (_many_rows, "over the limit of 100,000"),
    "cell in column XFD": (_far_column, "column 16,384"),
    "210,000 cells": (_many_cells, "the sheets hold more than 200,000 cells"),
    "entity expansion (billion laughs)": (_entity_bomb, "entity"),
    "external entity (XXE)": (_external_entity, "DTD"),
    "bad CRC": (_bad_crc, "checksum"),
    "corrupt deflate stream": (_corrupt_stream, "damaged"),
    "truncated file": (lambda parts: _zip(parts)[: len(_zip(parts)) // 2], "not a workbook"),
    "empty file": (b"", "not a workbook"),
    "not a zip": (b"This is not a workbook.\n" * 20, "not a workbook"),
    "missing sheet part": (_without(SHEET), "is missing"),
    "missing drawing part": (_without("xl/drawings/vmlDrawing1.vml"), "vmlDrawing1.vml"),
    "missing workbook part": (_without(WORKBOOK), "xl/workbook.xml is missing"),
    "malformed workbook XML": (_edit(WORKBOOK, b"<sheets>", b"<sheets><<"), "not sound XML"),
    "encrypted part": (_flag(0x1), "encrypted"),
    "unknown compression": (_flag(0, method=99), "compression method"),
    "part twice": (_duplicate, "twice"),
    "2,500 parts": (_many_parts, "parts, over the limit"),
    "name on merged cells": (_name("Status", _inside_merged_status()), "merged"),
    "name too narrow": (_name("PuzzleGrid", "Generator!$F$4:$M$12"), "9x8 cells, not 16x16"),
    "name spanning a whole sheet": (
        _name("CollectionHeader", "Collection!$1:$1048576"),
        "'CollectionHeader' points at Collection!$1:$1048576, 1048576x16384 cells",
    ),
    "name moved onto Collection": (_name("Status", "Collection!$C$13"), "not at the sheet"),
    "grid moved onto Collection": (_name("PuzzleGrid", "Collection!$A$2:$I$10"), "PuzzleGrid"),
    "name with two ranges": (_name("Opens", "Generator!$C$5,Generator!$C$6"), "one block"),
    "status moved onto Opens": (_name("Status", "Generator!$C$6"), "over the cells of 'Opens'"),
    "statistics over the parameters": (
        _name("Stats", "Generator!$B$4:$C$14"),
        "'Stats' points at Generator!$B$4:$C$14, over the cells of",
    ),
    "button drawing that is not XML": (
        lambda parts: parts | {"xl/drawings/vmlDrawing1.vml": b"<xml><v:shape <<< & "},
        "vmlDrawing1.vml is not XML",
    ),
    "cells out of order": (_out_of_order, "the sheet's cells are out of order"),
}
"""kind -> (how to make it from the template's parts, or its bytes; what the message says)."""


def make_corpus(folder: Path, template: Path) -> list[Case]:
    """Write every hostile workbook of :data:`KINDS` (plus special files) into *folder*."""
    folder.mkdir(parents=True, exist_ok=True)
    parts = _parts(template)
    cases = []
    for index, (kind, (make, expect)) in enumerate(KINDS.items()):
        path = folder / f"hostile{index:02d}.xlsm"
        made = make if isinstance(make, bytes) else make(dict(parts))
        path.write_bytes(made if isinstance(made, bytes) else _zip(made))
        cases.append(Case(kind, path, expect, "save" if "Header" in expect else "start"))
    fifo = folder / "fifo.xlsm"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        cases.append(Case("FIFO named .xlsm", fifo, "not a regular file"))
    directory = folder / "folder.xlsm"
    directory.mkdir()
    cases.append(Case("folder named .xlsm", directory, "not a regular file"))
    device = folder / "device.xlsm"
    if Path("/dev/zero").exists():
        device.symlink_to("/dev/zero")
        cases.append(Case("link to a device", device, "not a regular file"))
    return cases
