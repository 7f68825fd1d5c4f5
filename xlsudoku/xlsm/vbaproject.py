"""Read and write VBA projects (``xl/vbaProject.bin``) as MS-OVBA describes them.

A workbook's project is made from a base project (:func:`workbook_project`): its modules, its
references and protection state are kept, its ``Module1`` dropped, the caller's modules added,
plus one document module per sheet.

Every module is written as compressed source only (MODULEOFFSET 0) and ``_VBA_PROJECT`` has
version 0xFFFF and no performance cache, as MS-OVBA asks of writers: Excel then compiles the
project from source when the workbook opens (the quickstart's own project is stored the
same way).
"""

from __future__ import annotations

import enum
import io
import re
import struct
from dataclasses import dataclass, replace

from xlsudoku.xlsm.cfb import Tree, write_cfb
from xlsudoku.xlsm.errors import VbaError

CHUNK = 4096
_VBA_PROJECT_STREAM = bytes.fromhex("cc61ffff000000")  # version 0xFFFF: compile from source


# -- MS-OVBA compression (2.4.1) ---------------------------------------------------------------


def _copy_token_bits(difference: int) -> int:
    """Return how many bits of a CopyToken hold the offset, *difference* bytes into a chunk."""
    return max((difference - 1).bit_length(), 4)


def _compress_chunk(chunk: bytes) -> bytes:
    out = bytearray()
    seen: dict[bytes, list[int]] = {}
    size = len(chunk)
    pos = 0

    def remember(start: int, stop: int) -> None:
        for index in range(start, min(stop, size - 2)):
            seen.setdefault(chunk[index : index + 3], []).append(index)

    while pos < size:
        flag_at = len(out)
        out.append(0)
        flags = 0
        for bit in range(8):
            if pos >= size:
                break
            best_length, best_offset = 0, 0
            if pos > 0 and pos + 3 <= size:
                bits = _copy_token_bits(pos)
                longest = min((0xFFFF >> bits) + 3, size - pos)
                for start in reversed(seen.get(chunk[pos : pos + 3], [])[-64:]):
                    length = 3
                    while length < longest and chunk[start + length] == chunk[pos + length]:
                        length += 1
                    if length > best_length:
                        best_length, best_offset = length, pos - start
                        if length == longest:
                            break
            if best_length >= 3:
                bits = _copy_token_bits(pos)
                token = ((best_offset - 1) << (16 - bits)) | (best_length - 3)
                out += struct.pack("<H", token)
                flags |= 1 << bit
                remember(pos, pos + best_length)
                pos += best_length
            else:
                out.append(chunk[pos])
                remember(pos, pos + 1)
                pos += 1
        out[flag_at] = flags
    return bytes(out)


def compress(data: bytes) -> bytes:
    """Return *data* as an MS-OVBA CompressedContainer.

    Text without repeats is all literals: a chunk header (size 25 + 3, compressed flag),
    then a flag byte of zeros before every eight literal bytes.

    >>> compress(b"abcdefghijklmnopqrstuv.").hex(" ")
    '01 19 b0 00 61 62 63 64 65 66 67 68 00 69 6a 6b 6c 6d 6e 6f 70 00 71 72 73 74 75 76 2e'
    """
    out = bytearray(b"\x01")
    for start in range(0, len(data), CHUNK):
        chunk = data[start : start + CHUNK]
        body = _compress_chunk(chunk)
        if len(body) <= CHUNK:
            out += struct.pack("<H", 0xB000 | (len(body) + 2 - 3)) + body
        elif len(chunk) == CHUNK:
            out += struct.pack("<H", 0x3FFF) + chunk
        else:
            raise VbaError("final chunk does not compress below 4096 bytes")
    return bytes(out)


def decompress(data: bytes) -> bytes:
    """Return the bytes held in an MS-OVBA CompressedContainer.

    >>> decompress(compress(b"abcabcabcabc" * 3))
    b'abcabcabcabcabcabcabcabcabcabcabcabc'
    """
    if not data or data[0] != 1:
        raise VbaError("compressed container does not start with signature byte 0x01")
    out = bytearray()
    pos = 1
    while pos + 2 <= len(data):
        header = struct.unpack_from("<H", data, pos)[0]
        chunk_end = min(pos + (header & 0x0FFF) + 3, len(data))
        pos += 2
        chunk_start = len(out)
        if not header & 0x8000:
            out += data[pos : pos + CHUNK]
            pos += CHUNK
            continue
        while pos < chunk_end:
            flags = data[pos]
            pos += 1
            for bit in range(8):
                if pos >= chunk_end:
                    break
                if not flags & (1 << bit):
                    out.append(data[pos])
                    pos += 1
                    continue
                token = struct.unpack_from("<H", data, pos)[0]
                pos += 2
                bits = _copy_token_bits(len(out) - chunk_start)
                length = (token & (0xFFFF >> bits)) + 3
                offset = (token >> (16 - bits)) + 1
                if offset > len(out) - chunk_start:
                    raise VbaError(f"copy token at byte {pos - 2} reaches before its chunk")
                for _ in range(length):
                    out.append(out[-offset])
    return bytes(out)


# -- the project model -------------------------------------------------------------------------


class ModuleKind(enum.Enum):
    """How a module is listed in the PROJECT stream."""

    PROCEDURAL = "Module"  # a standard module (.bas)
    CLASS = "Class"  # a class module (.cls)
    DOCUMENT = "Document"  # ThisWorkbook or a sheet


@dataclass(frozen=True, slots=True)
class Module:
    """One VBA module: its name, kind, source text (with its ``Attribute`` lines), docstring."""

    name: str
    kind: ModuleKind
    source: str
    docstring: str = ""
    private: bool = False
    read_only: bool = False


@dataclass(frozen=True, slots=True)
class VbaProject:
    """A VBA project: the dir stream's information and reference records, and the modules.

    Attributes:
        info: the dir stream's bytes before its PROJECTMODULES record (project information and
            references), kept as read.
        properties: the PROJECT stream's ``key=value`` lines other than the module lines
            (ID, Name, HelpContextID, protection state ...), in order.
        host_extenders: the PROJECT stream's ``[Host Extender Info]`` lines.
        modules: the modules, in project order.
        codepage: the code page of names and source text.
    """

    info: bytes
    properties: tuple[str, ...]
    host_extenders: tuple[str, ...]
    modules: tuple[Module, ...]
    codepage: str = "cp1252"

    def module(self, name: str) -> Module:
        """Return the module called *name*."""
        for module in self.modules:
            if module.name == name:
                return module
        raise KeyError(f"no VBA module named {name!r}")


_CODEPAGES = {1252: "cp1252", 65001: "utf-8", 10000: "mac_roman"}


def _records(data: bytes, start: int = 0) -> list[tuple[int, int, bytes]]:
    """Split a dir stream into ``(offset, id, payload)`` records."""
    records = []
    pos = start
    while pos + 6 <= len(data):
        ident, size = struct.unpack_from("<HI", data, pos)
        if ident == 0x0009:  # PROJECTVERSION: its size field says 4, six bytes follow
            size = 6
        records.append((pos, ident, data[pos + 6 : pos + 6 + size]))
        pos += 6 + size
    return records


def _record(ident: int, payload: bytes) -> bytes:
    return struct.pack("<HI", ident, len(payload)) + payload


def parse_project(blob: bytes) -> VbaProject:
    """Return the project held in the compound file *blob* (a ``vbaProject.bin``)."""
    import olefile  # type: ignore[import-untyped]  # build-time only: the add-in itself never reads VBA projects

    ole = olefile.OleFileIO(io.BytesIO(blob))
    directory = decompress(ole.openstream("VBA/dir").read())
    records = _records(directory)
    codepage = "cp1252"
    for _, ident, payload in records:
        if ident == 0x0003:
            codepage = _CODEPAGES.get(struct.unpack("<H", payload)[0], "cp1252")
        if ident == 0x000F:
            break
    modules_at = next(offset for offset, ident, _ in records if ident == 0x000F)
    info = directory[:modules_at]

    kinds: dict[str, ModuleKind] = {}
    properties: list[str] = []
    host_extenders: list[str] = []
    section = ""
    for line in ole.openstream("PROJECT").read().decode(codepage).splitlines():
        if line.startswith("["):
            section = line
            continue
        if not line:
            continue
        key, _, value = line.partition("=")
        if section == "[Host Extender Info]":
            host_extenders.append(line)
        elif section:
            continue  # [Workspace]: window positions, rewritten on save
        elif key in ("Module", "Class", "Document", "BaseClass"):
            kinds[value.split("/")[0]] = ModuleKind("Class" if key == "BaseClass" else key)
        else:
            properties.append(line)

    modules = []
    current: dict[int, bytes] = {}
    flags: set[int] = set()
    for _, ident, payload in records:
        if ident in (0x0019, 0x001A, 0x001C, 0x0031):
            current[ident] = payload
        elif ident in (0x0025, 0x0028):
            flags.add(ident)
        elif ident == 0x002B:
            name = current[0x0019].decode(codepage)
            stream = current[0x001A].decode(codepage)
            offset = struct.unpack("<I", current[0x0031])[0]
            source = decompress(ole.openstream(f"VBA/{stream}").read()[offset:])
            modules.append(
                Module(
                    name=name,
                    kind=kinds.get(name, ModuleKind.PROCEDURAL),
                    source=source.decode(codepage),
                    docstring=current.get(0x001C, b"").decode(codepage),
                    private=0x0028 in flags,
                    read_only=0x0025 in flags,
                )
            )
            current, flags = {}, set()
    return VbaProject(info, tuple(properties), tuple(host_extenders), tuple(modules), codepage)


def _module_records(module: Module, codepage: str) -> bytes:
    name = module.name.encode(codepage)
    wide = module.name.encode("utf-16-le")
    doc = module.docstring.encode(codepage)
    doc_wide = module.docstring.encode("utf-16-le")
    out = _record(0x0019, name) + _record(0x0047, wide)
    out += _record(0x001A, name) + _record(0x0032, wide)
    out += _record(0x001C, doc) + _record(0x0048, doc_wide)
    out += _record(0x0031, struct.pack("<I", 0))
    out += _record(0x001E, struct.pack("<I", 0))
    out += _record(0x002C, struct.pack("<H", 0xFFFF))
    out += _record(0x0021 if module.kind is ModuleKind.PROCEDURAL else 0x0022, b"")
    if module.read_only:
        out += _record(0x0025, b"")
    if module.private:
        out += _record(0x0028, b"")
    return out + _record(0x002B, b"")


def write_project(project: VbaProject) -> bytes:
    """Return ``vbaProject.bin`` bytes for *project*.

    >>> buttons = Module("Buttons", ModuleKind.PROCEDURAL, 'Attribute VB_Name = "Buttons"')
    >>> project = VbaProject(b"", ('Name="VBAProject"',), (), (buttons,))
    >>> parse_project(write_project(project)) == project
    True
    """
    codepage = project.codepage
    directory = project.info
    directory += _record(0x000F, struct.pack("<H", len(project.modules)))
    directory += _record(0x0013, struct.pack("<H", 0xFFFF))
    for module in project.modules:
        directory += _module_records(module, codepage)
    directory += _record(0x0010, b"")

    lines = [line for line in project.properties if line.startswith("ID=")]
    for module in project.modules:
        suffix = "/&H00000000" if module.kind is ModuleKind.DOCUMENT else ""
        lines.append(f"{module.kind.value}={module.name}{suffix}")
    lines += [line for line in project.properties if not line.startswith("ID=")]
    lines += ["", "[Host Extender Info]", *project.host_extenders, "", "[Workspace]"]
    lines += [f"{module.name}=0, 0, 0, 0, C" for module in project.modules]
    text = "\r\n".join(lines) + "\r\n"

    names = b"".join(
        module.name.encode(codepage) + b"\0" + module.name.encode("utf-16-le") + b"\0\0"
        for module in project.modules
    )
    vba: Tree = {
        "dir": compress(directory),
        "_VBA_PROJECT": _VBA_PROJECT_STREAM,
    }
    for module in project.modules:
        vba[module.name] = compress(module.source.encode(codepage))
    return write_cfb({"PROJECT": text.encode(codepage), "PROJECTwm": names + b"\0\0", "VBA": vba})


# -- a workbook's project from a base project ----------------------------------------------------


def _sheet_module(template: Module, code_name: str) -> Module:
    source = re.sub(
        r'^Attribute VB_Name = "[^"]*"',
        f'Attribute VB_Name = "{code_name}"',
        template.source,
        count=1,
        flags=re.MULTILINE,
    )
    return replace(template, name=code_name, source=source)


def workbook_project(
    base: VbaProject, sheet_code_names: list[str], modules: list[Module]
) -> VbaProject:
    """Return *base* with one document module per sheet, *modules* added, ``Module1`` dropped.

    The sheet modules copy the attributes of the base project's first sheet module; the
    ``ThisWorkbook`` module, the class and procedural modules of *base* (xlwings, Dictionary)
    are kept unchanged.

    >>> def module(name, kind=ModuleKind.PROCEDURAL):
    ...     return Module(name, kind, f'Attribute VB_Name = "{name}"')
    >>> documents = [module(name, ModuleKind.DOCUMENT) for name in ("ThisWorkbook", "Sheet1")]
    >>> base = VbaProject(b"", (), (), (*documents, module("Module1"), module("Helper")))
    >>> buttons = module("Buttons")
    >>> project = workbook_project(base, ["Sheet1", "Sheet2", "Sheet3"], [buttons])
    >>> [module.name for module in project.modules]
    ['ThisWorkbook', 'Sheet1', 'Sheet2', 'Sheet3', 'Buttons', 'Helper']
    """
    documents = [module for module in base.modules if module.kind is ModuleKind.DOCUMENT]
    workbook_module = next(module for module in documents if module.name == "ThisWorkbook")
    sheet_template = next(module for module in documents if module.name != "ThisWorkbook")
    kept = [
        module
        for module in base.modules
        if module.kind is not ModuleKind.DOCUMENT and module.name != "Module1"
    ]
    sheets = [_sheet_module(sheet_template, name) for name in sheet_code_names]
    return replace(base, modules=(workbook_module, *sheets, *modules, *kept))
