"""Write a Compound File Binary (MS-CFB, version 3) from a tree of storages and streams.

A VBA project (``xl/vbaProject.bin``) is a compound file.  ``olefile`` reads them well but
cannot create one or grow a stream, so this module writes the whole file in one go:
512-byte sectors, streams under 4096 bytes in the mini stream, a red-black directory tree
per storage in the order MS-CFB prescribes (shorter names first, then by upper-case name).

Only what a VBA project needs is supported: at most 109 FAT sectors (files up to ~7 MB), no
timestamps, no CLSIDs.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from xlsudoku.xlsm.errors import CfbError

SECTOR = 512
MINI_SECTOR = 64
MINI_CUTOFF = 4096
FREESECT = 0xFFFFFFFF
ENDOFCHAIN = 0xFFFFFFFE
FATSECT = 0xFFFFFFFD
NOSTREAM = 0xFFFFFFFF
_STORAGE, _STREAM, _ROOT = 1, 2, 5
_RED, _BLACK = 0, 1
_HEADER_DIFAT = 109

Tree = dict[str, "bytes | Tree"]


def name_key(name: str) -> tuple[int, str]:
    """Return the MS-CFB sort key of a directory entry name: length first, then upper case.

    >>> sorted(["dir", "Sheet1", "_VBA_PROJECT", "ThisWorkbook"], key=name_key)
    ['dir', 'Sheet1', 'ThisWorkbook', '_VBA_PROJECT']
    """
    return len(name.encode("utf-16-le")) // 2, name.upper()


@dataclass(slots=True)
class _Entry:
    name: str
    kind: int
    data: bytes = b""
    children: list[int] = field(default_factory=list)
    left: int = NOSTREAM
    right: int = NOSTREAM
    child: int = NOSTREAM
    color: int = _BLACK
    start: int = ENDOFCHAIN
    size: int = 0


def _flatten(tree: Tree) -> list[_Entry]:
    """Return the directory entries, root first, each storage's children listed by index."""
    entries = [_Entry("Root Entry", _ROOT)]

    def add(node: Tree, parent: int) -> None:
        for name in sorted(node, key=name_key):
            if not 0 < len(name) <= 31 or any(ch in name for ch in "/\\:!"):
                raise CfbError(f"invalid compound-file entry name {name!r}")
            value = node[name]
            index = len(entries)
            entries[parent].children.append(index)
            if isinstance(value, dict):
                entries.append(_Entry(name, _STORAGE, start=0))
                add(value, index)
            else:
                entries.append(_Entry(name, _STREAM, data=bytes(value), size=len(value)))

    add(tree, 0)
    return entries


def _link_tree(entries: list[_Entry], members: list[int], depth: int, deepest: int) -> int:
    """Link *members* (sorted) as a balanced binary tree; return the index of its root.

    Nodes on the deepest level of an incomplete tree are red, every other node black: each
    path from the root to a leaf then crosses the same number of black nodes.
    """
    if not members:
        return NOSTREAM
    middle = (len(members) - 1) // 2
    node = entries[members[middle]]
    node.color = _RED if depth == deepest else _BLACK
    node.left = _link_tree(entries, members[:middle], depth + 1, deepest)
    node.right = _link_tree(entries, members[middle + 1 :], depth + 1, deepest)
    return members[middle]


def _sibling_tree(entries: list[_Entry], members: list[int]) -> int:
    count = len(members)
    if count == 0:
        return NOSTREAM
    complete = (count + 1) & count == 0  # 1, 3, 7, 15 ... members fill every level
    deepest = -1 if complete else count.bit_length() - 1
    return _link_tree(entries, members, 0, deepest)


def _chain(fat: list[int], first: int, count: int) -> None:
    for offset in range(count):
        fat[first + offset] = first + offset + 1 if offset < count - 1 else ENDOFCHAIN


def _sectors(size: int, unit: int) -> int:
    return -(-size // unit)


def _directory_entry(entry: _Entry) -> bytes:
    encoded = entry.name.encode("utf-16-le") + b"\0\0"
    return struct.pack(
        "<64sHBBIII16sIQQIQ",
        encoded,
        len(encoded),
        entry.kind,
        entry.color,
        entry.left,
        entry.right,
        entry.child,
        b"\0" * 16,
        0,
        0,
        0,
        entry.start,
        entry.size,
    )


def write_cfb(tree: Tree) -> bytes:
    """Return the bytes of a compound file holding *tree* (dicts are storages, bytes streams).

    >>> import io, olefile
    >>> blob = write_cfb({"PROJECT": b"Name=x", "VBA": {"dir": b"x" * 5000}})
    >>> ole = olefile.OleFileIO(io.BytesIO(blob))
    >>> ole.openstream("PROJECT").read(), len(ole.openstream("VBA/dir").read())
    (b'Name=x', 5000)
    """
    entries = _flatten(tree)
    for entry in entries:
        if entry.kind in (_STORAGE, _ROOT):
            entry.child = _sibling_tree(entries, entry.children)

    streams = [entry for entry in entries if entry.kind == _STREAM and entry.size]
    small = [entry for entry in streams if entry.size < MINI_CUTOFF]
    large = [entry for entry in streams if entry.size >= MINI_CUTOFF]

    mini_fat: list[int] = []
    mini_stream = bytearray()
    for entry in small:
        entry.start = len(mini_fat)
        count = _sectors(entry.size, MINI_SECTOR)
        mini_fat.extend([0] * count)
        _chain(mini_fat, entry.start, count)
        mini_stream += entry.data + b"\0" * (count * MINI_SECTOR - entry.size)

    large_count = sum(_sectors(entry.size, SECTOR) for entry in large)
    mini_stream_count = _sectors(len(mini_stream), SECTOR)
    mini_fat_count = _sectors(len(mini_fat) * 4, SECTOR)
    directory_count = _sectors(len(entries) * 128, SECTOR)
    body = large_count + mini_stream_count + mini_fat_count + directory_count
    fat_count = 1
    while fat_count * (SECTOR // 4) < body + fat_count:
        fat_count += 1
    if fat_count > _HEADER_DIFAT:
        raise CfbError(f"compound file too large: {fat_count} FAT sectors, at most 109")

    total = body + fat_count
    fat = [FREESECT] * (fat_count * SECTOR // 4)
    next_sector = 0
    for entry in large:
        count = _sectors(entry.size, SECTOR)
        entry.start = next_sector
        _chain(fat, next_sector, count)
        next_sector += count
    root = entries[0]
    root.size = len(mini_stream)
    if mini_stream_count:
        root.start = next_sector
        _chain(fat, next_sector, mini_stream_count)
        next_sector += mini_stream_count
    mini_fat_start = next_sector if mini_fat_count else ENDOFCHAIN
    _chain(fat, next_sector, mini_fat_count)
    next_sector += mini_fat_count
    directory_start = next_sector
    _chain(fat, next_sector, directory_count)
    next_sector += directory_count
    fat_sectors = list(range(next_sector, total))
    for sector in fat_sectors:
        fat[sector] = FATSECT

    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        bytes.fromhex("D0CF11E0A1B11AE1"),
        b"\0" * 16,
        0x003E,
        0x0003,
        0xFFFE,
        9,
        6,
        b"\0" * 6,
        0,
        fat_count,
        directory_start,
        0,
        MINI_CUTOFF,
        mini_fat_start,
        mini_fat_count,
        ENDOFCHAIN,
        0,
    )
    difat = fat_sectors + [FREESECT] * (_HEADER_DIFAT - fat_count)
    header += struct.pack(f"<{_HEADER_DIFAT}I", *difat)

    out = bytearray(header)
    for entry in large:
        out += entry.data + b"\0" * (_sectors(entry.size, SECTOR) * SECTOR - entry.size)
    out += mini_stream + b"\0" * (mini_stream_count * SECTOR - len(mini_stream))
    table = struct.pack(f"<{len(mini_fat)}I", *mini_fat)
    out += table + b"\xff" * (mini_fat_count * SECTOR - len(table))
    directory = b"".join(_directory_entry(entry) for entry in entries)
    free_entry = struct.pack(
        "<64sHBBIII16sIQQIQ", b"", 0, 0, 0, NOSTREAM, NOSTREAM, NOSTREAM, b"\0" * 16, 0, 0, 0, 0, 0
    )
    directory += free_entry * (directory_count * 4 - len(entries))
    out += directory
    out += struct.pack(f"<{len(fat)}I", *fat)
    return bytes(out)
