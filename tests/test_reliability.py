"""Nothing lost, nothing crashes: hostile files, concurrent writers, kills, Ctrl+C, exits.

A small, fast version of each part of ``xlsudoku bench soak`` (xlsudoku.bench.soak), on real
processes and real files, plus the single behaviours behind them.
"""

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile

import openpyxl
import pytest
from filelock import FileLock
from hypothesis import given, settings
from hypothesis import strategies as st
from test_headless import set_cells

from xlsudoku.addin import layout, params
from xlsudoku.bench import hostile, soak, soak_families
from xlsudoku.cli import main
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions
from xlsudoku.errors import Exit
from xlsudoku.xlsm.files import temp_name
from xlsudoku.xlsm.lock import lock_path

TEMPLATE = soak.TEMPLATE


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "book.xlsm"
    shutil.copy2(TEMPLATE, path)
    return path


def xlsudoku(*args, stdout=subprocess.PIPE):
    return subprocess.run(
        [sys.executable, "-m", "xlsudoku", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )


# -- hostile and damaged workbooks ---------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return hostile.make_corpus(tmp_path_factory.mktemp("hostile"), TEMPLATE)


def test_the_corpus_has_every_kind_the_issue_names(corpus):
    assert len(corpus) >= 20
    kinds = " ".join(case.kind for case in corpus)
    for kind in (
        "zip bomb",
        "2 GB",
        "1,000,000-row",
        "entity",
        "CRC",
        "missing sheet",
        "missing drawing",
        "merged",
        "too narrow",
        "whole sheet",
        "FIFO",
    ):
        assert kind in kinds


def test_hostile_files_are_refused_untouched_without_traceback(corpus, capsys):
    for case in corpus:
        before = case.path.read_bytes() if case.path.is_file() else None
        status = main(["workbook", case.command, str(case.path), "--quiet"])
        err = capsys.readouterr().err
        assert status == Exit.UNUSABLE_FILE, (case.kind, err)
        assert case.expect in err and "Traceback" not in err, (case.kind, err)
        assert len(err.strip().splitlines()) == 1, (case.kind, err)
        assert before is None or case.path.read_bytes() == before, case.kind


# -- writing: lock, symlinks, read-only files, stale temporary files ----------------------------


def test_three_writers_lose_nothing(tmp_path):
    tally = soak.writers(tmp_path, count=3, rounds=1)
    assert tally.problems == []
    assert tally.counts["reported saves"] >= 1
    assert tally.counts["rows in the file"] == tally.counts["reported saves"]


def test_a_second_run_waits_for_the_lock_then_gives_up(book, capsys):
    before = book.read_bytes()
    with FileLock(str(lock_path(book))):
        assert main(["workbook", "save", str(book), "--wait", "0.2", "--quiet"]) == Exit.ENVIRONMENT
    err = capsys.readouterr().err
    assert "is being written by another xlsudoku run; waiting for it (up to 0.2 s)" in err
    assert "still being written by another xlsudoku run after 0.2 s" in err
    assert f"{book} was not changed" in err and book.read_bytes() == before


def test_a_second_run_waits_for_the_lock_then_writes(book, capsys):
    lock = FileLock(str(lock_path(book)), thread_local=False)  # released by the timer thread
    lock.acquire()
    threading.Timer(0.3, lock.release).start()
    assert main(["workbook", "clear", str(book), "--wait", "30", "--quiet"]) == Exit.OK
    assert "waiting for it" in capsys.readouterr().err


def test_a_symbolic_link_is_written_through(book, tmp_path):
    link = tmp_path / "link.xlsm"
    link.symlink_to(book)
    assert main(["workbook", "start", str(link), "--quiet"]) == 0
    assert link.is_symlink() and link.resolve() == book
    puzzle = openpyxl.load_workbook(book)["Generator"]["F4:N12"]
    assert Grid.from_rows([[c.value for c in row] for row in puzzle]).given_count == 26
    assert (tmp_path / "book.xlsm.bak").exists() and not (tmp_path / "link.xlsm.bak").exists()


def test_a_read_only_workbook_is_refused(book, capsys):
    before = book.read_bytes()
    book.chmod(0o444)
    assert main(["workbook", "start", str(book), "--quiet"]) == Exit.UNUSABLE_FILE
    assert "the file is read-only" in capsys.readouterr().err
    assert book.read_bytes() == before and oct(book.stat().st_mode & 0o777) == "0o444"


def test_stale_temporary_files_of_dead_runs_are_cleaned(book):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [temp_name(book, dead.pid), temp_name(book, dead.pid, backup=True)]
    alive = temp_name(book, os.getppid())  # a live process: not ours to remove
    other = book.with_name(f".other.xlsm.{dead.pid}.tmp")
    for path in (*stale, alive, other):
        path.write_bytes(b"partial")
    assert main(["workbook", "clear", str(book), "--quiet"]) == 0
    assert not any(path.exists() for path in stale)
    assert alive.exists() and other.exists()


# -- signals -------------------------------------------------------------------------------------


def test_sigkills_and_double_sigints_keep_files_sound_and_messages_true(tmp_path):
    rng = random.Random(13)
    length = {"start": 1.5, "save": 1.5}
    kills = soak.signalled(tmp_path, 3, rng, double_interrupt=False, length=length)
    assert kills.problems == [] and kills.counts.get("corrupt files", 0) == 0
    interrupts = soak.signalled(tmp_path, 3, rng, double_interrupt=True, length=length)
    assert interrupts.problems == []


def interrupt_the_search(*args):
    """Run xlsudoku ARGS, press Ctrl+C once its progress bar shows; return status, out, err."""
    process = subprocess.Popen(
        [sys.executable, "-m", "xlsudoku", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=soak.default_sigint,  # even when this suite runs with Ctrl+C ignored
    )
    process.stderr.read(1)  # the progress bar: the search is on
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


def test_first_ctrl_c_during_start_saves_the_best_puzzle_and_exits_130(book):
    set_cells(book, Opens=18, Pattern=4, Trials=99999, TimeLimit=60, Seed=3)
    status, out, err = interrupt_the_search("workbook", "start", "--progress", str(book))
    assert status == 130
    assert out.startswith("Interrupted:")
    assert err.strip().splitlines()[-1] == (
        "xlsudoku workbook start: interrupted; the best puzzle found before Ctrl+C was saved to "
        f"{book} (the previous version is book.xlsm.bak)"
    )
    rows = openpyxl.load_workbook(book)["Generator"]["F4:N12"]
    puzzle = Grid.from_rows([[cell.value for cell in row] for row in rows])
    assert count_solutions(puzzle, 2) == 1


def test_ctrl_c_in_an_engine_command_is_one_line_and_130(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(
        ("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n")
        * 5000
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "xlsudoku", "grade", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=soak.default_sigint,
    )
    process.stdout.readline()  # the header: grading is under way
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err == "xlsudoku grade: interrupted\n"


def test_ctrl_c_in_generate_prints_the_best_puzzle_and_exits_130():
    status, out, err = interrupt_the_search(
        "generate",
        "--opens",
        "18",
        "--pattern",
        "4",
        "--trials",
        "99999",
        "--time-limit",
        "60",
        "--seed",
        "3",
        "--progress",
    )
    assert status == 130
    assert count_solutions(Grid.parse(out.splitlines()[0]), 2) == 1
    assert err.strip().splitlines()[-1] == (
        "xlsudoku generate: interrupted; 1 of 1 puzzles printed; the last is the best found "
        "before Ctrl+C"
    )


# -- exits and messages -------------------------------------------------------------------------


def test_a_closed_pipe_is_quiet():
    tally = soak.fuzz_cli(0, random.Random(1), soak.Path(os.devnull).parent, piped=1, main=main)
    assert tally.problems == [] and tally.counts["closed pipes"] == 1


def test_a_full_disk_is_a_message():
    with open("/dev/full", "w") as full:
        run = xlsudoku("generate", "-n", "3", "--seed", "1", stdout=full)
    assert run.returncode == Exit.ENVIRONMENT
    assert (
        run.stderr == "xlsudoku generate: no space left on the device; nothing more was written\n"
    )


def test_puzzle_files_that_are_not_text_name_the_line(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_bytes(b"." * 81 + b"\n..3\xff\n")
    assert main(["solve", str(path)]) == Exit.BAD_INPUT
    assert capsys.readouterr().err == (
        f"xlsudoku solve: {path} line 2, column 4: byte 0xff is not UTF-8 text (a puzzle file "
        "is text)\n"
    )


@pytest.mark.parametrize("length", [256, 4096, 100_000])
def test_long_arguments_are_messages(capsys, length):
    assert main(["count", "x" * length]) != 0
    err = capsys.readouterr().err
    assert err and "Traceback" not in err


def test_count_limit_is_bounded(capsys):
    assert main(["count", "." * 81, "--limit", "1000000000"]) == Exit.USAGE
    assert "would run for hours; the most is 1,000,000" in capsys.readouterr().err


def test_every_failure_says_why(capsys):
    assert main(["analyze", "11" + "." * 79]) == Exit.BAD_INPUT
    assert capsys.readouterr().err.strip()


def test_fuzzed_command_lines(tmp_path):
    tally = soak.fuzz_cli(60, random.Random(7), tmp_path, piped=0, main=main)
    assert tally.problems == [] and tally.counts["command lines"] == 60


def test_hostile_files_through_real_commands(tmp_path):
    tally = soak.fuzz_files(40, random.Random(5), tmp_path, main)
    assert tally.problems == [] and tally.counts["inputs"] == 40
    assert tally.counts["tracebacks"] == 0 and tally.counts["changed files"] == 0


def test_fuzzed_parameter_sets_give_no_traceback():
    # seed 2 puts a 5001-digit number into Pattern at its 74th set (a traceback once)
    tally = soak.fuzz_params(100, random.Random(2), whole_runs=0)
    assert tally.counts["values"] == 100
    assert tally.counts["tracebacks"] == 0, tally.problems


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.sampled_from([1.7976931348623157e308, "1e308", "9" * 400, "=A1", "#N/A", "١٧"]),
)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from([param.name for param in layout.PARAMS]), value=_values)
def test_fuzzed_parameter_values_are_checked_or_refused(name, value):
    param = layout.PARAMS_BY_NAME[name]
    try:
        params.parse_param(param, value)
    except params.ParamError as error:
        assert param.label in str(error)


def test_a_desktop_button_holds_the_same_lock(book, capsys):
    from xlsudoku.xlsm.lock import open_book_lock

    with open_book_lock(str(book)):
        assert (
            main(["workbook", "clear", str(book), "--wait", "0.1", "--quiet"]) == Exit.ENVIRONMENT
        )
    assert "still being written" in capsys.readouterr().err


# -- every input bounded, one message each -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("deep.json", "[" * 100_000, "bad JSON: nested deeper than 32 levels"),
        ("long.jsonl", '{"puzzle": ' + "1" * 5001 + "}", "a number of 5001 digits (at most 100)"),
        ("wide.csv", "1,2\n" + "x" * 200_000, "CSV line 2: a field longer than 131,072 characters"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "booklet"])
def test_hostile_json_and_csv_files_are_one_message(tmp_path, capsys, name, text, message, command):
    path = tmp_path / name
    path.write_text(text)
    argv = [command, str(path)] + (["-o", str(tmp_path / "b.pdf")] if command == "booklet" else [])
    assert main(argv) == Exit.BAD_INPUT
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert path.read_text() == text


def test_a_puzzle_file_over_the_limit_is_refused_unread(tmp_path, capsys, monkeypatch):
    from xlsudoku.engine import formats

    monkeypatch.setattr(formats, "MAX_TEXT_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text(("." * 81 + "\n") * 20)
    assert main(["solve", str(path)]) == Exit.UNUSABLE_FILE
    assert "over the limit of 0.0 MB for a puzzle file" in capsys.readouterr().err


def test_a_damaged_batch_state_file_is_a_message(tmp_path, capsys):
    out = tmp_path / "b.jsonl"
    assert main(["batch", "-n", "2", "-j", "1", "--seed", "3", "--quiet", "-o", str(out)]) == 0
    out.with_name("b.jsonl.state").write_text('{"next_index": "x"}')
    argv = ["batch", "-n", "3", "-j", "1", "--quiet", "-o", str(out), "--resume"]
    assert main(argv) == Exit.UNUSABLE_FILE
    assert "not a batch state file" in capsys.readouterr().err


def test_batch_attempts_running_out_is_a_goal_not_met_with_a_message(tmp_path, capsys):
    out = tmp_path / "a.jsonl"
    argv = ["batch", "-n", "2", "--attempts", "1", "-j", "1", "--seed", "5", "--quiet"]
    assert main([*argv, "-o", str(out)]) == Exit.GOAL_NOT_MET
    err = capsys.readouterr().err
    assert "1 of 2 puzzles: --attempts 1 ran out first (next seed 6); raise --attempts" in err


@pytest.mark.parametrize("pattern", ["①", "²", "₂"])
def test_unicode_digits_in_a_pattern_are_refused_by_name(pattern, book, capsys):
    assert main(["generate", "--pattern", pattern, "--seed", "1"]) == Exit.USAGE
    assert f"bad character {pattern!r}" in capsys.readouterr().err
    set_cells(book, **{layout.PATTERN: pattern})
    assert main(["workbook", "start", str(book), "--quiet"]) == Exit.BAD_INPUT
    err = capsys.readouterr().err
    assert f"Pattern (C5): bad character {pattern!r}" in err and "Traceback" not in err
    assert openpyxl.load_workbook(book)["Generator"]["C5"].value == pattern


# -- no orphans ----------------------------------------------------------------------------------


def _children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_a_two_process_batch_leaves_no_process_and_releases_stdout():
    command = [sys.executable, "-m", "xlsudoku", "batch", "-n", "100000", "-j", "2"]
    batch = subprocess.Popen(
        [*command, "--seed", "1", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    workers = []
    try:
        assert batch.stdout.readline()  # the workers are making puzzles
        workers = _children(batch.pid)
        assert len(workers) >= 2
        batch.kill()
        batch.wait()
        ended = threading.Event()
        threading.Thread(target=lambda: (batch.stdout.read(), ended.set()), daemon=True).start()
        assert ended.wait(5), "a process of the killed batch still holds its standard output"
        deadline = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, workers))
    finally:
        for pid in [batch.pid, *workers]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_jobs_are_capped_at_the_cpus_and_the_chunks(capsys):
    from xlsudoku.production.executors import all_cores

    argv = ["batch", "-n", "2", "--attempts", "2", "--seed", "1", "-j", str(10**31)]
    assert main(argv) == 0
    assert f"-j {10**31:,} capped at {min(all_cores(), 1)} " in capsys.readouterr().err


# -- the layout check covers positions -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "refers_to"), [("Status", "Generator!$C$6"), ("Stats", "Generator!$B$4:$C$14")]
)
def test_an_output_moved_onto_the_parameters_is_refused_untouched(book, capsys, name, refers_to):
    from openpyxl.workbook.defined_name import DefinedName

    wb = openpyxl.load_workbook(book, keep_vba=True)
    wb.defined_names[name] = DefinedName(name, attr_text=refers_to)
    wb.save(book)
    before = book.read_bytes()
    assert main(["workbook", "start", str(book), "--quiet"]) == Exit.UNUSABLE_FILE
    err = capsys.readouterr().err
    assert f"the defined name '{name}' points at {refers_to}, over the cells of" in err
    assert "'Opens' ($C$6)" in err
    assert book.read_bytes() == before


def test_a_full_disk_while_saving_is_one_message_and_the_file_is_untouched(
    book, capsys, monkeypatch
):
    import errno

    from xlsudoku.xlsm import workbook as workbook_file

    class Full:
        def __init__(self, path, mode):
            self.path = path

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device", str(self.path))

    monkeypatch.setattr(workbook_file, "open", Full, raising=False)
    before = book.read_bytes()
    assert main(["workbook", "start", str(book), "--quiet"]) == Exit.ENVIRONMENT
    err = capsys.readouterr().err
    assert "no space left on the device; nothing more was written" in err
    assert f"{book} was not changed" in err and "Traceback" not in err
    assert book.read_bytes() == before and not list(book.parent.glob(".*.tmp"))


# -- IMPORT reads only what it may ---------------------------------------------------------------


def test_import_of_a_missing_path_says_file_not_found(book, capsys):
    set_cells(book, ImportSource="missing.txt")
    assert main(["workbook", "import", str(book)]) == Exit.BAD_INPUT
    assert "Import from (C32): file not found: 'missing.txt'" in capsys.readouterr().err
    assert main(["workbook", "import", str(book), str(book.parent / "gone.txt")]) == 1
    assert "file not found" in capsys.readouterr().err


def test_import_of_a_binary_file_named_on_the_command_line_names_the_byte(book, capsys):
    binary = book.parent.parent / "ls"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe" * 10)
    assert main(["workbook", "import", str(book), str(binary)]) == Exit.BAD_INPUT
    assert "ls line 1, column 9: byte 0xff is not UTF-8 text" in capsys.readouterr().err


def test_import_from_a_cell_naming_a_file_elsewhere_is_refused(book, capsys):
    elsewhere = book.parent.parent / "elsewhere.txt"
    elsewhere.write_text("." * 81 + "\n")
    set_cells(book, ImportSource=str(elsewhere))
    assert main(["workbook", "import", str(book)]) == Exit.BAD_INPUT
    assert "is outside the workbook's folder" in capsys.readouterr().err


def test_the_soak_s_interrupts_option_is_not_the_command_s_ctrl_c():
    from xlsudoku.cli import build_parser

    args = build_parser().parse_args(["bench", "soak", "--interrupts", "7"])
    assert args.interrupt_runs == 7 and not hasattr(args, "interrupts")


def test_the_soak_s_button_family_reports_a_lost_part(tmp_path, monkeypatch):
    lite = tmp_path / "lite.xlsx"
    shutil.copy2(soak_families.WORKBOOKS[0], lite)
    real_run = soak_families.headless.run

    def run_and_drop_the_add_in(command, path, **kwargs):
        result = real_run(command, path, **kwargs)
        kept = soak_families._parts(path)
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in kept.items():
                if "webextension" not in name:
                    archive.writestr(name, data)
        return result

    tally = soak.Tally({"presses": 0, "tracebacks": 0, "lost parts": 0})
    soak_families._press(lite, "clear", {}, tally, lite.name)
    assert tally.counts == {
        "presses": 1,
        "tracebacks": 0,
        "lost parts": 0,
        "refused with a message": 0,
    }
    monkeypatch.setattr(soak_families.headless, "run", run_and_drop_the_add_in)
    soak_families._press(lite, "clear", {}, tally, lite.name)
    assert tally.counts["lost parts"] == 3
    assert "xl/webextensions/webextension1.xml (missing)" in tally.problems[0]


def test_the_soak_s_play_family_counts_each_press(tmp_path):
    tally = soak_families.play(tmp_path, 2, random.Random(3))
    assert tally.counts["presses"] == 3 and tally.counts["lost parts"] == 0  # START, then 2


def test_the_soak_s_kill_check_sees_a_process_left_in_the_session():
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True
    )
    try:
        assert soak_families._left_in_session(sleeper.pid) == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()
    assert soak_families._left_in_session(sleeper.pid) == []
