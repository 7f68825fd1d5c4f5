"""Hazards of the systems a workbook moves to, handled in code and checked on every system.

- a rename onto a file another program holds open (Windows refuses it while Excel has the
  workbook open): tried again for a bounded wait, then one message, the file left as it was;
- output names Windows cannot hold (``CON``, ``NUL``, ``COM1``..., ``<>:"|?*``): refused with a
  message on every system, since the file may be copied there;
- a console that is not UTF-8: text it cannot encode is escaped, never a ``UnicodeEncodeError``
  after the work is done;
- puzzle files with CRLF line ends read as any other.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from xlsudoku.cli import main
from xlsudoku.cli.workbook import bundled_workbook
from xlsudoku.xlsm import files
from xlsudoku.xlsm.errors import FileInUse

PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


class _HeldOpen:
    """``os.replace`` as Windows does it while another process holds the target open."""

    def __init__(self, refusals):
        self.refusals = refusals
        self.calls = 0

    def __call__(self, source, target):
        self.calls += 1
        if self.calls <= self.refusals:
            raise PermissionError(13, "The process cannot access the file", str(target))
        os.rename(source, target)


def test_a_file_held_open_for_a_moment_is_replaced_after_a_wait(tmp_path, monkeypatch):
    held = _HeldOpen(refusals=3)
    monkeypatch.setattr(files.os, "replace", held)
    (tmp_path / "new").write_text("new")
    (tmp_path / "book").write_text("old")
    files.replace_file(tmp_path / "new", tmp_path / "book", wait=5)
    assert (tmp_path / "book").read_text() == "new" and held.calls == 4


def test_a_file_held_open_past_the_wait_is_left_as_it_was(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", _HeldOpen(refusals=10**6))
    target = tmp_path / "book.xlsm"
    target.write_bytes(b"old")
    with pytest.raises(FileInUse, match="another program holds it open") as refused:
        files.replace_atomically(lambda temp: temp.write_bytes(b"new"), target, in_use_wait=0.2)
    assert isinstance(refused.value, PermissionError) and str(target) in str(refused.value)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsm"]  # no temporary left


def test_without_a_wait_a_refused_rename_is_the_permission_error_itself(tmp_path, monkeypatch):
    held = _HeldOpen(refusals=1)
    monkeypatch.setattr(files.os, "replace", held)
    with pytest.raises(PermissionError) as refused:
        files.replace_file(tmp_path / "a", tmp_path / "b", wait=0)
    assert not isinstance(refused.value, FileInUse) and held.calls == 1


def test_workbook_start_on_a_book_held_open_says_so_and_keeps_it(tmp_path, monkeypatch, capsys):
    book = tmp_path / "book.xlsm"
    shutil.copyfile(bundled_workbook(), book)
    before = book.read_bytes()
    monkeypatch.setattr(files, "IN_USE_WAIT", 0.2)  # what Windows waits, shortened
    monkeypatch.setattr(files.os, "replace", _HeldOpen(refusals=10**6))
    assert main(["workbook", "start", str(book), "--quiet"]) == 4
    err = capsys.readouterr().err
    assert "another program holds it open" in err and "close it there" in err
    assert "Traceback" not in err and book.read_bytes() == before


RESERVED = ["CON", "nul.xlsm", "Com1.jsonl", "LPT9.pdf", "aux .txt", "a<b.xlsm", "what?.pdf"]
RESERVED += ["trailing.", "trailing ", "folder\\book.xlsm"]


@pytest.mark.parametrize("name", RESERVED)
@pytest.mark.parametrize(
    "command",
    [
        ["workbook", "new", "{}"],
        ["workbook", "start", "BOOK", "--output", "{}"],
        ["batch", "-n", "1", "--format", "jsonl", "-o", "{}"],
        ["booklet", PUZZLE, "-o", "{}"],
    ],
    ids=["workbook-new", "workbook-start-output", "batch", "booklet"],
)
def test_names_windows_cannot_hold_are_refused_everywhere(tmp_path, capsys, name, command):
    book = tmp_path / "book.xlsm"
    shutil.copyfile(bundled_workbook(), book)
    target = tmp_path / name
    argv = [str(target) if a == "{}" else str(book) if a == "BOOK" else a for a in command]
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert "nothing was written" in err and "Windows" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsm"]


def test_ordinary_names_pass(tmp_path):
    from xlsudoku.cli.outputs import check_output, windows_name_problem

    for name in ("book.xlsm", "con-book.xlsm", "console.txt", "COM10.txt", "my book (2).xlsx"):
        assert windows_name_problem(name) == "", name
        check_output(tmp_path / name, option="-o")


def test_a_console_that_is_not_utf8_gets_escapes(tmp_path):
    # The button writes the status (naming the file) after the work is done: printing it
    # must not fail on a console that cannot encode the name.
    book = tmp_path / "book.xlsm"
    shutil.copyfile(bundled_workbook(), book)
    source = tmp_path / "défi.txt"
    source.write_text(PUZZLE + "\n", encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii", PYTHONUTF8="0")
    done = subprocess.run(
        [sys.executable, "-m", "xlsudoku", "workbook", "import", str(book), str(source)]
        + ["--quiet"],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    out, err = done.stdout.decode("ascii"), done.stderr.decode("ascii")
    assert done.returncode == 0, err
    assert "Traceback" not in err and "d\\xe9fi.txt" in out, out


FORMATS = ["line", "sdm", "sdk", "ss", "grid", "csv", "json"]


@pytest.mark.parametrize("form", FORMATS)
def test_puzzle_files_with_crlf_line_ends_read_as_any(tmp_path, capsys, form):
    assert main(["format", PUZZLE, "--format", form]) == 0
    text = capsys.readouterr().out
    path = Path(tmp_path / f"p.{form}")
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert b"\r\n" in path.read_bytes()
    assert main(["solve", str(path)]) == 0
    crlf = capsys.readouterr().out
    assert main(["solve", PUZZLE]) == 0
    assert crlf == capsys.readouterr().out


def test_every_linux_only_entry_names_a_test():
    import ast

    from conftest import LINUX_ONLY, ROOT

    for entry in LINUX_ONLY:
        file, _, name = entry.partition("::")
        source = (ROOT / "tests" / file).read_text(encoding="utf-8")
        tests = {node.name for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
        assert not name or name in tests, entry
