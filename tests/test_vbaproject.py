"""VBA project files: MS-OVBA compression, the compound-file writer and project round trips.

Independent oracles: oletools' decompressor and VBA parser, and olefile's compound-file reader.
"""

from __future__ import annotations

import io
import random
import warnings
import zipfile

import olefile
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():  # oletools still uses pyparsing names deprecated since 3.0
    warnings.simplefilter("ignore", DeprecationWarning)
    from oletools.olevba import VBA_Parser, decompress_stream

from xlsudoku.template.xlwings_vba import xlwings_project, xlwings_quickstart
from xlsudoku.xlsm.cfb import NOSTREAM, name_key, write_cfb
from xlsudoku.xlsm.errors import CfbError, VbaError
from xlsudoku.xlsm.vbaproject import (
    Module,
    ModuleKind,
    compress,
    decompress,
    parse_project,
    workbook_project,
    write_project,
)

# Text with long and short repeats, near-repeats and chunk-crossing runs.
pieces = [b"Sub ", b"End Sub\r\n", b"RunPython ", b"a", b"ab", b"\x00", b"xyz"]
texts = st.one_of(
    st.binary(max_size=9000),
    st.lists(st.sampled_from(pieces), max_size=2500).map(b"".join),
)


@settings(max_examples=60, deadline=None)
@given(texts)
def test_compress_round_trips_through_oletools(data: bytes) -> None:
    packed = compress(data)
    assert bytes(decompress_stream(bytearray(packed))) == data
    assert decompress(packed) == data


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 4097, 8192, 12289])
def test_compress_chunk_boundaries(size: int) -> None:
    data = (b'Attribute VB_Name = "Buttons"\r\n' * 400)[:size]
    packed = compress(data)
    assert bytes(decompress_stream(bytearray(packed))) == data
    chunks = [data[start : start + 4096] for start in range(0, size, 4096)]
    assert len(packed) <= 1 + sum(2 + len(chunk) + -(-len(chunk) // 8) for chunk in chunks)


def test_compress_shrinks_repetitive_text() -> None:
    data = b'RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.start()"\r\n' * 100
    assert len(compress(data)) < len(data) // 5


def test_incompressible_full_chunk_is_stored_raw() -> None:
    data = random.Random(5).randbytes(4096)
    packed = compress(data)
    assert packed[1:3] == b"\xff\x3f"  # raw chunk header: size 4095, flag 0
    assert bytes(decompress_stream(bytearray(packed))) == data


def test_decompress_matches_oletools_on_shipped_modules() -> None:
    with zipfile.ZipFile(xlwings_quickstart()) as archive:
        ole = olefile.OleFileIO(io.BytesIO(archive.read("xl/vbaProject.bin")))
    packed = ole.openstream("VBA/dir").read()
    assert decompress(packed) == bytes(decompress_stream(bytearray(packed)))


@pytest.mark.parametrize("bad", [b"", b"\x02\x00\xb0", b"\x01\x03\xb0\x01\x61\x20\x00"])
def test_decompress_rejects_bad_containers(bad: bytes) -> None:
    with pytest.raises(VbaError):
        decompress(bad)


# -- compound files ---------------------------------------------------------------------------

names = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789",
                min_size=1, max_size=31)  # fmt: skip
streams = st.binary(max_size=6000)
trees = st.recursive(
    st.dictionaries(names, streams, max_size=6),
    lambda children: st.dictionaries(names, st.one_of(streams, children), max_size=6),
    max_leaves=20,
)


def flatten(tree: dict, prefix: str = "") -> dict[str, bytes]:  # type: ignore[type-arg]
    out: dict[str, bytes] = {}
    for name, value in tree.items():
        if isinstance(value, dict):
            out |= flatten(value, f"{prefix}{name}/")
        else:
            out[f"{prefix}{name}"] = value
    return out


def unique_names(tree: dict) -> bool:  # type: ignore[type-arg]
    keys = [name.upper() for name in tree]
    return len(keys) == len(set(keys)) and all(
        unique_names(value) for value in tree.values() if isinstance(value, dict)
    )


def check_red_black(ole: olefile.OleFileIO, root: int) -> list[str]:
    """Return the in-order names of the sibling tree at *root*; assert the red-black rules."""
    entries = ole.direntries

    def walk(index: int, parent_red: bool) -> tuple[list[str], int]:
        if index == NOSTREAM:
            return [], 1
        entry = entries[index]
        red = entry.color == 0
        assert not (red and parent_red), f"red entry {entry.name!r} under a red parent"
        left, left_black = walk(entry.sid_left, red)
        right, right_black = walk(entry.sid_right, red)
        assert left_black == right_black, f"unequal black heights below {entry.name!r}"
        return [*left, entry.name, *right], left_black + (0 if red else 1)

    assert root == NOSTREAM or entries[root].color == 1, "a sibling tree's root must be black"
    order, _ = walk(root, False)
    return order


@settings(max_examples=40, deadline=None)
@given(trees.filter(unique_names))
def test_compound_file_round_trips_through_olefile(tree: dict) -> None:  # type: ignore[type-arg]
    ole = olefile.OleFileIO(io.BytesIO(write_cfb(tree)))
    for path, data in flatten(tree).items():
        assert ole.openstream(path).read() == data
    stored = {"/".join(parts) for parts in ole.listdir(streams=True, storages=False)}
    assert stored == set(flatten(tree))
    for entry in ole.direntries:
        if entry is not None and entry.entry_type in (olefile.STGTY_ROOT, olefile.STGTY_STORAGE):
            order = check_red_black(ole, entry.sid_child)
            assert order == sorted(order, key=name_key)


@pytest.mark.parametrize("bad", ["", "a/b", "x" * 32, "a:b"])
def test_compound_file_rejects_bad_names(bad: str) -> None:
    with pytest.raises(CfbError):
        write_cfb({bad: b"data"})


def test_name_order_is_length_then_upper_case() -> None:
    assert sorted(["ab", "B", "a", "AA", "_VBA_PROJECT", "dir"], key=name_key) == [
        "a", "B", "AA", "ab", "dir", "_VBA_PROJECT"
    ]  # fmt: skip


# -- projects ---------------------------------------------------------------------------------


def test_xlwings_project_as_shipped() -> None:
    project = xlwings_project()
    kinds = {module.name: module.kind for module in project.modules}
    assert kinds == {
        "ThisWorkbook": ModuleKind.DOCUMENT, "Sheet1": ModuleKind.DOCUMENT,
        "Sheet2": ModuleKind.DOCUMENT, "Module1": ModuleKind.PROCEDURAL,
        "xlwings": ModuleKind.PROCEDURAL, "Dictionary": ModuleKind.CLASS,
    }  # fmt: skip
    assert "Function RunPython(" in project.module("xlwings").source
    assert project.module("Dictionary").docstring.startswith("Drop-in replacement")
    with pytest.raises(KeyError, match="no VBA module named 'Nope'"):
        project.module("Nope")


def test_workbook_project_round_trip_and_olevba() -> None:
    source = 'Attribute VB_Name = "Buttons"\r\nPublic Sub StartClick()\r\n    RunPython "x"\r\n'
    source += "End Sub\r\n"
    buttons = Module("Buttons", ModuleKind.PROCEDURAL, source)
    project = workbook_project(xlwings_project(), ["Sheet1", "Sheet2", "Sheet3"], [buttons])
    blob = write_project(project)
    assert parse_project(blob) == project

    parser = VBA_Parser("vbaProject.bin", data=blob)
    found = {stream.split("/")[-1]: code for _, stream, _, code in parser.extract_macros()}
    parser.close()
    assert set(found) == {
        "ThisWorkbook",
        "Sheet1",
        "Sheet2",
        "Sheet3",
        "Buttons",
        "xlwings",
        "Dictionary",
    }
    assert "Public Sub StartClick()" in found["Buttons"]
    assert 'Attribute VB_Name = "Sheet3"' in project.module("Sheet3").source
    assert (
        project.module("Sheet3").source.replace("Sheet3", "Sheet1")
        == project.module("Sheet1").source
    )

    ole = olefile.OleFileIO(io.BytesIO(blob))
    assert ole.openstream("VBA/_VBA_PROJECT").read() == bytes.fromhex("cc61ffff000000")
    text = ole.openstream("PROJECT").read().decode("cp1252")
    assert "Module=Buttons\r\n" in text and "Document=Sheet3/&H00000000\r\n" in text
    assert "Class=Dictionary\r\n" in text and "Module1" not in text
