"""The core commands solve, count, format, bench: through engine.cli.main, once as a process."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT, TEST_DATA

from xlsudoku.cli import build_parser, main
from xlsudoku.cli.bench import BENCHES, benchmarks
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
    # no solution and no clash in the givens (r1c9 can only be 9, which r2c9 holds): counted 0
    code, out, err = _run(capsys, ["count", "12345678." + "........9" + "." * 63])
    assert (code, out, err) == (0, "0\n", "")


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
    flat = " ".join(out.split())  # argparse wraps to the terminal's width
    for bench in BENCHES:
        # the name stands apart from its description (a long name once ran into it)
        assert f" {bench.name} {bench.help} " in flat, bench.name


@pytest.mark.parametrize("suite", ["solve", "fill"])
def test_bench_suite_help(capsys, suite):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", suite, "--help"])
    assert exit_.value.code == 0
    assert f"usage: xlsudoku bench {suite}" in capsys.readouterr().out


@pytest.mark.parametrize("bench", BENCHES, ids=lambda bench: bench.name)
def test_bench_suites_resolve(capsys, bench):
    # Each benchmark's arguments are the one parser's; its runner is a function of its module.
    with pytest.raises(SystemExit) as exit_:
        main(["bench", bench.name, "--help"])
    assert exit_.value.code == 0
    assert f"usage: xlsudoku bench {bench.name}" in capsys.readouterr().out
    run = bench.function(benchmarks())
    assert callable(run)
    assert getattr(run, "func", run).__module__.startswith("xlsudoku.bench.")


def test_parser_has_the_core_commands():
    parser = build_parser()
    lines = {
        "solve": ["p.txt"],
        "count": ["p.txt"],
        "format": ["p.txt"],
        "bench": ["fill"],
        "workbook": ["start", "b.xlsm"],
    }
    for name, rest in lines.items():
        assert parser.parse_args([name, *rest]).command == name


def test_command_words_name_the_modules_that_add_them():
    # main() builds only the module a command line starts with: the table must say truly
    # which words each module adds, or a command would be missing from its own parser
    import argparse

    from xlsudoku.cli import command_modules

    for module in command_modules():
        sub = argparse.ArgumentParser().add_subparsers()
        for add in module.COMMANDS:
            add(sub)
        assert tuple(sub.choices) == module.WORDS
    assert list(build_parser()._subparsers._group_actions[0].choices) == [  # type: ignore[union-attr]
        word for module in command_modules() for word in module.WORDS
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "p.txt", "--limit", "5"],
        ["grade", "p.txt", "--format", "json"],
        ["workbook", "start", "b.xlsm", "--output", "o.xlsm"],
        ["generate", "--opens", "24", "--seed", "3"],
        ["daily", "--help"],
        ["bench", "fill", "--help"],
        ["count", "--limit", "zero", "p.txt"],
        ["counts", "p.txt"],
        ["--help"],
        [],
    ],
)
def test_the_one_command_parser_reads_a_line_as_the_whole_parser_does(capsys, argv):
    # same namespace, or the same exit and the same message on stdout and stderr
    outcomes = []
    for parser in (build_parser(), build_parser(argv)):
        try:
            args = vars(parser.parse_args(argv))
            outcomes.append(("args", {k: v for k, v in args.items() if not callable(v)}))
        except SystemExit as exit_:
            captured = capsys.readouterr()
            outcomes.append(("exit", exit_.code, captured.out, captured.err))
    assert outcomes[0] == outcomes[1]


def test_console_process_reads_stdin():
    done = subprocess.run(
        [sys.executable, "-m", "xlsudoku", "count", "-"],
        input=f"{PUZZLE}\n{'.' * 81}\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", ">=2"]


# ------------------------------------------------------------------ geometry and long arguments


def _x_puzzle() -> str:
    """Return a 9x9-X puzzle (made by the generator) that has several classic solutions."""
    from xlsudoku.engine.formats import geometry_named
    from xlsudoku.engine.generate import GenerateRequest, generate
    from xlsudoku.engine.solver import count_solutions

    x_geo = geometry_named("9x9-X")
    for seed in range(1, 50):
        puzzle = generate(GenerateRequest(seed=seed, geometry=x_geo, target_givens=24)).puzzle
        if count_solutions(Grid(puzzle.cells), 2) > 1:
            return str(puzzle)
    raise AssertionError("no X-Sudoku with several classic solutions in 49 seeds")


def _is_x_solution(text: str, puzzle: str) -> bool:
    """Check a 9x9-X solution independently: rows, columns, boxes, both diagonals, givens."""
    d = [int(ch) for ch in text]
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    units += [[i * 10 for i in range(9)], [i * 8 + 8 for i in range(9)]]
    fits = all(p in ".0" or p == t for p, t in zip(puzzle, text, strict=True))
    return fits and all(sorted(d[c] for c in unit) == list(range(1, 10)) for unit in units)


def test_geometry_option_reads_x_sudoku(capsys):
    puzzle = _x_puzzle()
    code, out, _ = _run(capsys, ["count", puzzle])
    assert code == 0 and out == ">=2\n"  # read as classic, several solutions
    code, out, _ = _run(capsys, ["count", puzzle, "--geometry", "9x9-X"])
    assert code == 0 and out == "1\n"
    code, out, err = _run(capsys, ["solve", puzzle, "--geometry", "9x9-X"])
    assert code == 0 and err == "" and _is_x_solution(out.strip(), puzzle)
    code, out, _ = _run(capsys, ["grade", puzzle, "--geometry", "x", "--format", "json"])
    assert code == 0 and '"geometry": "9x9-X"' in out and '"solved": true' in out
    code, out, err = _run(capsys, ["grade", puzzle])
    assert code == 1 and "more than one solution" in err
    code, out, _ = _run(capsys, ["format", puzzle, "--geometry", "9x9-X", "--format", "json"])
    assert code == 0 and '"geometry": "9x9-X"' in out
    code, out, _ = _run(capsys, ["count", out])  # the JSON carries the geometry
    assert code == 0 and out == "1\n"
    code, out, _ = _run(capsys, ["analyze", puzzle, "--geometry", "9x9-X"])
    assert code == 0 and out.startswith("unique solution")
    code, out, _ = _run(capsys, ["hint", puzzle, "--geometry", "9x9-X"])
    assert code == 0 and out.startswith("Look for")


def test_bad_geometry_option_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["count", PUZZLE, "--geometry", "7x7"])
    assert exit_.value.code == 2 and "unknown geometry '7x7'" in capsys.readouterr().err


def _puzzle_16() -> tuple[str, str]:
    from xlsudoku.engine.formats import geometry_named
    from xlsudoku.engine.generate import GenerateRequest, generate

    geo16 = geometry_named("16x16")
    result = generate(GenerateRequest(seed=2, geometry=geo16, pattern=None, target_givens=160))
    return str(result.puzzle), str(result.solution)


@pytest.mark.parametrize("drawn", [False, True], ids=["line", "drawing"])
def test_long_puzzles_as_arguments(capsys, drawn):
    from xlsudoku.engine.formats import PuzzleFormat, format_grid

    puzzle, solution = _puzzle_16()
    arg = format_grid(Grid.parse(puzzle), PuzzleFormat.GRID) if drawn else puzzle
    assert len(arg) >= 256
    assert _run(capsys, ["count", arg])[:2] == (0, "1\n")
    assert _run(capsys, ["solve", arg])[:2] == (0, solution + "\n")
    code, out, _ = _run(capsys, ["grade", arg, "--format", "json"])
    assert code == 0 and '"geometry": "16x16"' in out
    code, out, _ = _run(capsys, ["analyze", arg])
    assert code == 0 and f"solution: {solution}" in out
    assert _run(capsys, ["hint", arg])[0] == 0
    assert _run(capsys, ["format", arg, "--format", "line"])[:2] == (0, puzzle + "\n")


@pytest.mark.parametrize(
    "arg", ["no-such-file.txt", "x" * 300, "dir/" + "a" * 5000, "../nowhere/p.sdk"]
)
def test_missing_files_are_named_not_crashed_on(capsys, arg):
    code, out, err = _run(capsys, ["count", arg])
    assert code == 3 and out == "" and "no such file (and not a puzzle)" in err  # unusable file
    code, out, err = _run(capsys, ["hint", arg])
    assert code == 1 and f"no such file, and not a puzzle: {arg}" in err  # a bad PUZZLE


def test_a_file_wins_over_a_puzzle_of_the_same_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / PUZZLE).write_text("." * 81 + "\n")  # a file named like a puzzle
    assert _run(capsys, ["count", PUZZLE])[:2] == (0, ">=2\n")


# ------------------------------------------------------------------ info lines and JSON input

SDK = "#ARuud\n#LEasy\n#CJust start plugging in the numbers\n" + "\n".join(
    PUZZLE[r * 9 : r * 9 + 9] for r in range(9)
)


def test_format_keeps_sdk_info_in_sdk_and_json(tmp_path, capsys):
    path = tmp_path / "p.sdk"
    path.write_text(SDK + "\n")
    code, out, err = _run(capsys, ["format", str(path), "--format", "sdk"])
    assert code == 0 and err == ""  # written in SudoCue's letter order: A D C B S L U
    info = ["#ARuud", "#CJust start plugging in the numbers", "#LEasy"]
    assert out.splitlines() == info + SDK.splitlines()[3:]
    code, out, err = _run(capsys, ["format", str(path), "--format", "json"])
    assert code == 0 and err == ""
    import json

    record = json.loads(out)
    assert record == {
        "puzzle": PUZZLE,
        "geometry": "9x9",
        "author": "Ruud",
        "comment": "Just start plugging in the numbers",
        "level": "Easy",
    }
    back = tmp_path / "p.json"
    back.write_text(out)
    code, out, _ = _run(capsys, ["format", str(back), "--format", "sdk"])
    assert out.splitlines()[:4] == [
        "#ARuud",
        "#CJust start plugging in the numbers",
        "#LEasy",
        PUZZLE[:9],
    ]
    code, out, err = _run(capsys, ["format", str(path), "--format", "line"])
    assert code == 0 and out == PUZZLE + "\n"
    assert "info lines (#A, #D, ...) of 1 puzzle are not kept in line output" in err


def test_grade_json_keeps_the_info_and_reads_back(capsys):
    import json

    code, out, _ = _run(capsys, ["grade", SDK, "--format", "json"])
    record = json.loads(out)
    assert code == 0 and record["author"] == "Ruud" and record["level"] == "Easy"
    code, out, _ = _run(capsys, ["count", out, "--with-puzzle"])
    assert code == 0 and out == f"{PUZZLE}\t1\n"


# ------------------------------------------------------------------ generate's output formats


@pytest.mark.parametrize("fmt", ["sdk", "ss", "csv", "sdm", "json"])  # grid adds text for people
def test_generate_writes_every_format_readably(capsys, fmt):
    from xlsudoku.engine.formats import read_records

    argv = ["generate", "--seed", "8", "-n", "2", "--opens", "28"]
    code, lines, _ = _run(capsys, argv)
    assert code == 0
    code, out, err = _run(capsys, [*argv, "--format", fmt])
    assert code == 0 and err == ""
    records = list(read_records(out, "out.csv" if fmt == "csv" else ""))
    assert [str(r.result) for r in records] == lines.split()
    if fmt == "sdk":
        assert records[0].info["source"] == "xlsudoku"
        assert records[0].info["description"].startswith("9x9, 28 opens, rotate180 symmetry")
        assert records[1].info["comment"].startswith("Reached 28 opens")


def test_generate_json_of_x_sudoku_reads_back_as_x_sudoku(capsys):
    argv = ["generate", "--seed", "3", "--geometry", "9x9-X", "--opens", "28", "--format", "json"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    code, counted, _ = _run(capsys, ["count", out])
    assert code == 0 and counted == "1\n"
    code, solved, _ = _run(capsys, ["solve", out])
    import json

    assert _is_x_solution(solved.strip(), json.loads(out)["puzzle"])


def test_generate_exits_5_when_a_target_is_missed(capsys):
    code, out, err = _run(
        capsys,
        ["generate", "--seed", "1", "--opens", "20", "--trials", "1", "--time-limit", "3600"],
    )
    assert code == 5 and Grid.parse(out.strip()).given_count > 20
    assert err.startswith("Could not reach 20 opens in 1 trial")


def test_the_parser_choices_are_the_rooms_own():
    """The parser is built without the engine, openpyxl or fpdf2: its lists mirror theirs."""
    from xlsudoku.cli import inputs, production
    from xlsudoku.engine.ratings import DEFAULT_PROFILE, PROFILES
    from xlsudoku.production import booklet, workbook_input

    assert inputs.PROFILES == tuple(PROFILES) and inputs.PROFILES[0] == DEFAULT_PROFILE
    assert inputs.SHEETS == workbook_input.PARTS
    assert production.PER_PAGE == tuple(sorted(booklet.LAYOUTS))
    assert set(production.PAPERS) == set(booklet.PAPERS)
