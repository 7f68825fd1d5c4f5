"""The core commands solve, count, format, bench: through engine.cli.main, once as a process."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT, TEST_DATA

from xlsudoku.engine.cli import BENCH_SUITES, build_parser, main
from xlsudoku.engine.grid import Grid

PUZZLE = "2..1.5..3.54...71..1.2.3.8.6.28.73.4.........1.53.98.6.2.7.1.6..81...24.7..4.2..1"


def _solutions_sample() -> list[tuple[str, str]]:
    rows = []
    for line in (TEST_DATA / "solver_solutions_sample.tsv").read_text().splitlines():
        if line and not line.startswith(("#", "puzzle")):
            puzzle, solution = line.split("\t")[:2]
            rows.append((puzzle, solution))
    return rows


def _run(capsys, argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_one_solution_per_puzzle(tmp_path, capsys):
    rows = _solutions_sample()[:5]
    path = tmp_path / "p.txt"
    path.write_text("".join(p + "\n" for p, _ in rows))
    code, out, err = _run(capsys, ["solve", str(path)])
    assert code == 0 and err == ""
    assert out.splitlines() == [s for _, s in rows]


def test_solve_reports_bad_lines_and_goes_on(tmp_path, capsys):
    (puzzle, solution), (p2, s2) = _solutions_sample()[:2]
    path = tmp_path / "p.txt"
    lines = [
        puzzle,
        puzzle[:10] + "x" + puzzle[11:],
        "11" + "." * 79,
        "12345678." + "........9" + "." * 63,
        p2,
    ]
    path.write_text("\n".join(lines) + "\n")
    code, out, err = _run(capsys, ["solve", str(path)])
    assert code == 1
    assert out.splitlines() == [solution, s2]
    assert err.splitlines() == [
        "line 2: bad character 'x' at row 2, column 2",
        "line 3: digit 1 repeated in row 1: r1c1 and r1c2 (and 1 more clash)",
        "line 4: no solution",
    ]


def test_solve_warns_about_several_solutions(capsys):
    code, out, err = _run(capsys, ["solve", "." * 81])
    assert code == 0
    assert Grid.parse(out.strip()).is_complete
    assert err.strip() == "line 1: more than one solution; printing one"


@pytest.mark.parametrize("fmt", ["sdk", "ss", "grid", "csv", "sdm"])
def test_solve_output_formats(capsys, fmt):
    from xlsudoku.engine.formats import parse_puzzle

    puzzle, solution = _solutions_sample()[0]
    code, out, _ = _run(capsys, ["solve", puzzle, "--format", fmt])
    assert code == 0
    assert parse_puzzle(out) == Grid.parse(solution)


def test_count_with_limit_from_stdin(capsys, monkeypatch):
    rows = []
    for line in (TEST_DATA / "solver_multisolution_sample.tsv").read_text().splitlines():
        if line and not line.startswith(("#", "puzzle")):
            rows.append(line.split("\t"))
    stdin = "".join(p + "\n" for p, _ in rows[:6])
    code, out, _ = _run(capsys, ["count", "--limit", "100000"], stdin, monkeypatch)
    assert code == 0
    assert out.split() == [c for _, c in rows[:6]]  # exact counts made by QQWing
    code, out, _ = _run(capsys, ["count", "-"], stdin, monkeypatch)
    assert out.split() == [">=2"] * 6
    code, out, _ = _run(capsys, ["count", "--with-puzzle", PUZZLE])
    assert out == f"{PUZZLE}\t1\n"


def test_count_errors(tmp_path, capsys):
    path = tmp_path / "p.tsv"
    path.write_text(f"puzzle\tnote\n{PUZZLE}\tok\n{PUZZLE[:-2]}\tshort\n{'1' * 81}\tclash\n")
    code, out, err = _run(capsys, ["count", str(path)])
    assert code == 1
    assert out.split() == ["1"]
    assert (
        err.splitlines()[0]
        == "line 3: wrong length: 79 cells, a puzzle line has 16, 36, 81, 144, 256"
    )
    assert err.splitlines()[1].startswith("line 4: digit 1 repeated in row 1: r1c1 and r1c2")
    code, _, err = _run(capsys, ["count", str(tmp_path / "missing.txt")])
    assert code == 3 and "no such file" in err  # a file that cannot be used
    code, _, err = _run(capsys, ["count", PUZZLE, "--limit", "0"])
    assert code == 2 and "--limit must be at least 1" in err


def test_format_converts(tmp_path, capsys):
    path = tmp_path / "p.ss"
    from xlsudoku.engine.formats import PuzzleFormat, format_grid

    path.write_text(format_grid(Grid.parse(PUZZLE), PuzzleFormat.SS) + "\n")
    code, out, _ = _run(capsys, ["format", str(path), "--format", "line"])
    assert code == 0 and out == PUZZLE + "\n"
    code, out, _ = _run(capsys, ["format", PUZZLE])
    assert out.splitlines()[1] == "| 2 . . | 1 . 5 | . . 3 |"
    csv_path = tmp_path / "grid.csv"
    csv_path.write_text(format_grid(Grid.parse(PUZZLE), PuzzleFormat.CSV))
    code, out, _ = _run(capsys, ["format", str(csv_path), "--format", "line"])
    assert out == PUZZLE + "\n"
    clash = "11" + "." * 79
    code, out, err = _run(capsys, ["format", clash, "--format", "line"])
    assert code == 0 and out == clash + "\n"  # repeated digits kept unless --validate
    code, out, err = _run(capsys, ["format", clash, "--validate"])
    assert code == 1 and out == "" and err.startswith("line 1: digit 1 repeated")


@pytest.mark.parametrize("command", ["solve", "count", "format", "bench"])
def test_help(capsys, command):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert "usage: xlsudoku " + command in capsys.readouterr().out


def test_bench_help_lists_every_suite(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = capsys.readouterr().out
    for name in BENCH_SUITES:
        assert name in out


@pytest.mark.parametrize("suite", ["solve", "fill"])
def test_bench_suite_help(capsys, suite):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", suite, "--help"])
    assert exit_.value.code == 0
    assert f"usage: xlsudoku bench {suite}" in capsys.readouterr().out


@pytest.mark.parametrize("suite", sorted(BENCH_SUITES))
def test_bench_suites_resolve(capsys, suite):
    # Each runner imports its benchmark module and parses its own arguments.
    with pytest.raises(SystemExit) as exit_:
        main(["bench", suite, "--help"])
    assert exit_.value.code == 0
    assert f"usage: xlsudoku bench {suite}" in capsys.readouterr().out


def test_parser_has_the_core_commands():
    parser = build_parser()
    names = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    assert {"solve", "count", "format", "bench"} <= names


def test_console_process_reads_stdin():
    done = subprocess.run(
        [sys.executable, "-m", "xlsudoku.engine", "count", "-"],
        input=f"{PUZZLE}\n{'.' * 81}\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", ">=2"]
