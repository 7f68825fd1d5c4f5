"""No command destroys a file it did not make: the one output check, command by command."""

import os
import shutil

import pytest
from conftest import ROOT

from xlsudoku.cli import main
from xlsudoku.cli.outputs import check_output
from xlsudoku.errors import Exit, UnusableFile
from xlsudoku.xlsm.files import inspect_target

TEMPLATE = ROOT / "workbooks" / "xlsudoku.xlsm"
PUZZLES = "6....54.....28.73.9.....8..1..8.3.7...........8.9.4..6..5.....7.36.58.....24....8\n"


@pytest.fixture
def folder(tmp_path):
    shutil.copy2(TEMPLATE, tmp_path / "A.xlsm")
    shutil.copy2(TEMPLATE, tmp_path / "B.xlsm")
    (tmp_path / "p.txt").write_text(PUZZLES)
    return tmp_path


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_workbook_is_known_by_its_content_not_its_name(folder):
    renamed = folder / "puzzles.jsonl"
    shutil.copy2(TEMPLATE, renamed)
    assert inspect_target(renamed).workbook and not inspect_target(folder / "p.txt").workbook
    with pytest.raises(UnusableFile, match="is a workbook"):
        check_output(renamed, option="-o", ours=lambda _: True)


@pytest.mark.parametrize("special", ["/dev/full", "/dev/null", "fifo", "folder", "socket"])
def test_special_files_are_refused_before_anything_is_written(folder, special):
    if special == "fifo":
        special = folder / "fifo"
        os.mkfifo(special)
    elif special == "folder":
        special = folder / "sub"
        special.mkdir()
    elif special == "socket":
        import socket

        special = folder / "s.sock"
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(special))
    with pytest.raises(UnusableFile, match="not a file; nothing was written"):
        check_output(special, option="-o")


def test_workbook_output_onto_another_workbook_needs_replace_and_names_the_backup(folder, capsys):
    before = _snapshot(folder)
    argv = ["workbook", "start", str(folder / "A.xlsm"), "--output", str(folder / "B.xlsm")]
    assert main([*argv, "--quiet"]) == Exit.UNUSABLE_FILE
    assert (
        "is another workbook, which may hold puzzles of its own; nothing was written"
        in capsys.readouterr().err
    )
    assert _snapshot(folder) == before
    for backup in ("B.xlsm.bak", "B.xlsm.2.bak"):  # a second run keeps the first backup
        assert main([*argv, "--quiet", "--replace"]) == 0
        assert f"(the file it replaced is kept as {folder / backup})" in capsys.readouterr().out
    assert (folder / "B.xlsm.bak").read_bytes() == before["B.xlsm"]
    assert (folder / "A.xlsm").read_bytes() == before["A.xlsm"]


def test_workbook_in_place_keeps_the_previous_version(folder, capsys):
    before = (folder / "A.xlsm").read_bytes()
    assert (
        main(["workbook", "clear", str(folder / "A.xlsm"), "--output", str(folder / "A.xlsm")]) == 0
    )
    assert "(the previous version is kept as" in capsys.readouterr().out
    assert (folder / "A.xlsm.bak").read_bytes() == before


def test_workbook_output_through_a_link_changes_the_file_it_names(folder, capsys):
    (folder / "C.xlsm").symlink_to(folder / "new.xlsm")
    assert (
        main(["workbook", "clear", str(folder / "A.xlsm"), "--output", str(folder / "C.xlsm")]) == 0
    )
    assert (folder / "C.xlsm").is_symlink() and inspect_target(folder / "new.xlsm").workbook


@pytest.mark.parametrize("output", ["A.xlsm", "p.txt", "link-to-input.pdf"])
def test_booklet_never_writes_over_its_input_or_a_workbook(folder, capsys, output):
    (folder / "link-to-input.pdf").symlink_to(folder / "p.txt")
    before = _snapshot(folder)
    source = "A.xlsm" if output == "A.xlsm" else "p.txt"
    assert main(["booklet", str(folder / source), "-o", str(folder / output)]) == Exit.UNUSABLE_FILE
    assert "is also the input" in capsys.readouterr().err
    assert _snapshot(folder) == before


def test_booklet_replaces_its_own_pdf_but_not_another_file(folder, capsys):
    argv = ["booklet", str(folder / "p.txt")]
    assert main(argv) == 0 and main(argv) == 0  # an earlier booklet is replaced
    (folder / "other.pdf").write_bytes(b"%PDF-1.4 someone else's document")
    assert main([*argv, "-o", str(folder / "other.pdf")]) == Exit.UNUSABLE_FILE
    assert "add --replace to replace it, or" in capsys.readouterr().err
    assert (folder / "other.pdf").read_bytes().startswith(b"%PDF-1.4 someone")
    assert main([*argv, "-o", str(folder / "other.pdf"), "--replace"]) == 0


def test_booklet_through_a_link_to_a_device_is_refused(folder, capsys):
    (folder / "LINK.pdf").symlink_to("/dev/full")
    assert main(["booklet", str(folder / "p.txt"), "-o", str(folder / "LINK.pdf")]) == 3
    assert "a device, not a file" in capsys.readouterr().err
    assert os.readlink(folder / "LINK.pdf") == "/dev/full"


def test_batch_puzzles_never_replace_a_workbook_or_another_file(folder, capsys):
    before = _snapshot(folder)
    base = ["batch", "-n", "2", "-j", "1", "--seed", "5", "--quiet"]
    out = str(folder / "b.jsonl")
    assert main([*base, "-o", out, "--puzzles", str(folder / "A.xlsm")]) == 3
    assert "--puzzles" in capsys.readouterr().err
    assert main([*base, "-o", out, "--puzzles", str(folder / "p.txt")]) == 3
    assert "is an existing file this command did not make" in capsys.readouterr().err
    assert main([*base, "-o", out, "--puzzles", out]) == 3
    assert "name the same file" in capsys.readouterr().err
    assert main([*base, "-o", str(folder / "A.xlsm"), "--format", "jsonl"]) == 3
    assert _snapshot(folder) == before


def test_batch_output_to_a_fifo_is_refused_at_once(folder, capsys):
    os.mkfifo(folder / "fifo.jsonl")
    assert main(["batch", "-n", "2", "-j", "1", "-o", str(folder / "fifo.jsonl")]) == 3
    assert "a FIFO (named pipe), not a file" in capsys.readouterr().err


def test_batch_resume_may_rewrite_its_own_puzzles_file(folder):
    base = ["batch", "-j", "1", "--seed", "5", "--quiet", "-o", str(folder / "b.jsonl")]
    puzzles = ["--puzzles", str(folder / "b.txt")]
    assert main([*base, "-n", "2", *puzzles]) == 0
    assert main([*base, "-n", "3", *puzzles, "--resume"]) == 0
    assert len((folder / "b.txt").read_text().splitlines()) == 3


def test_bench_save_refuses_a_file_as_its_folder(folder, capsys):
    argv = ["bench", "se", "--save", str(folder / "p.txt")]
    assert main(argv) == Exit.UNUSABLE_FILE
    assert "not a folder; the benchmark was not run" in capsys.readouterr().err
