"""One message each: what a user reads names the sheet, the cell, the file or the cells at odds."""

import os
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlsudoku.addin import headless, layout, params
from xlsudoku.cli import main
from xlsudoku.errors import Exit, UnusableFile

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"


def _rewrite(source: Path, target: Path, part: str, change) -> None:
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == part:
                changed = change(data)
                assert changed != data
                data = changed
            new.writestr(info, data)


def test_text_in_a_number_cell_names_the_sheet_and_the_cell(tmp_path, capsys):
    book = tmp_path / "book.xlsm"
    _rewrite(
        TEMPLATE,
        book,
        "xl/worksheets/sheet1.xml",
        lambda data: re.sub(rb'(<c r="C6"[^>]*?)(?: t="n")?><v>26</v>', rb"\1><v>abc</v>", data),
    )
    before = book.read_bytes()
    assert main(["workbook", "start", str(book), "--quiet"]) == Exit.UNUSABLE_FILE
    err = capsys.readouterr().err
    assert "the cell Generator!C6 holds 'abc' where the file says a number" in err
    assert "invalid XML" not in err and "Traceback" not in err
    assert book.read_bytes() == before


def test_a_target_the_other_parameters_rule_out_names_every_cell_at_odds(tmp_path):
    book = tmp_path / "book.xlsm"
    shutil.copy2(TEMPLATE, book)
    outcome = headless.run("start", book, inputs={layout.OPENS: 27, layout.PATTERN: 1}).outcome
    assert not outcome.ok
    assert outcome.status.startswith("Opens (C6), Pattern (C5) and Symmetry (C9): opens 27 is odd")
    # the engine's other conflicts name their cells too
    assert params.engine_problem(
        "opens 30 cannot be made with pattern 2 (x) and rotate90 symmetry: the other clues "
        "come in orbits of 4, so try 29"
    ).startswith("Opens (C6), Pattern (C5) and Symmetry (C9): ")
    assert params.engine_problem(
        "opens 10 is below 17, the fewest clues a 9x9 Sudoku with one solution can have"
    ).startswith("Opens (C6) and Geometry (C4): ")


@pytest.mark.skipif(not hasattr(os, "chmod") or os.name == "nt", reason="POSIX permissions")
def test_a_file_without_read_permission_is_called_unreadable_not_read_only(tmp_path, capsys):
    book = tmp_path / "book.xlsm"
    shutil.copy2(TEMPLATE, book)
    book.chmod(0)
    try:
        assert main(["workbook", "start", str(book), "--quiet"]) == Exit.UNUSABLE_FILE
        err = capsys.readouterr().err
        assert f"{book}: the file cannot be read (no read permission)" in err
        assert "read-only" not in err
        with pytest.raises(UnusableFile, match="cannot be read"):
            headless.read_workbook(book)
    finally:
        book.chmod(0o644)


@pytest.mark.parametrize("command", ["analyze", "hint"])
@pytest.mark.parametrize(
    ("name", "content"), [("notes.xlsx", b"hello world\n"), ("empty.xlsx", b""), ("a.txt", b"hi")]
)
def test_a_file_without_a_puzzle_is_named(tmp_path, capsys, command, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    assert main([command, str(path)]) == Exit.BAD_INPUT
    err = capsys.readouterr().err
    assert f"{path}" in err and "no puzzle found" in err
    assert ("not a zip package" in err) == name.endswith(".xlsx")


def test_openpyxl_warnings_do_not_reach_the_user(tmp_path, capsys):
    book = tmp_path / "book.xlsx"
    wb = openpyxl.Workbook()
    wb.save(book)
    source = tmp_path / "lite.xlsx"
    shutil.copy2(ROOT / "workbooks" / "xlsudoku-lite.xlsx", source)
    # an extension openpyxl does not model: it warns that it "will be removed" when it reads it
    extension = (
        b'<extLst><ext uri="{78C0D931-6437-407d-A8EE-F0AAD7539E65}" '
        b'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
        b"<x14:conditionalFormattings/></ext></extLst></worksheet>"
    )
    _rewrite(
        source,
        book,
        "xl/worksheets/sheet1.xml",
        lambda data: data.replace(b"</worksheet>", extension),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with pytest.warns(UserWarning, match="not supported"):
            openpyxl.load_workbook(book)  # what the user would have seen
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["workbook", "clear", str(book)]) == 0
    assert [str(warning.message) for warning in caught] == []
    assert "warn" not in capsys.readouterr().err.lower()
    with zipfile.ZipFile(book) as saved:  # and the extension openpyxl would drop is kept
        assert extension[:-12] in saved.read("xl/worksheets/sheet1.xml")
