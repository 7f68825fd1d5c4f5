"""One puzzle, one analysis: every surface shows the same level, score and hardest technique.

About 200 puzzles of every level (the tests' samples, 9x9) and of other shapes (4x4, 6x6, 9x9-X,
12x12, generated here) go through each surface that shows a grade: the command line's
``grade --format json`` and ``analyze``, the workbook's ANALYZE and IMPORT (its Collection rows),
the SUDOKU_GRADE custom function and the booklet's completion of a missing level; generated
puzzles through START's statistics and a batch record.  Each must agree with
:func:`xlsudoku.engine.analysis.analyze` on the default profile.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import TEST_DATA
from sheets import load_template

from xlsudoku.addin import actions, layout, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.cli import main
from xlsudoku.engine.analysis import Analysis, analyze
from xlsudoku.engine.formats import geometry_named
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import CLASSIC, Grid
from xlsudoku.production.inputs import Entry, complete
from xlsudoku.production.records import make_record
from xlsudoku.production.spec import request_fields

SAMPLES = {
    "qqwing_hodoku_sample.tsv": 40,
    "solver_17clue_sample.txt": 40,
    "solutions_sample.tsv": 20,
    "sukaku_fixtures_sample.tsv": 50,
    "se_rated_sample.tsv": 30,
}
SHAPES = {"4x4": 4, "6x6": 6, "9x9-X": 6, "12x12": 4}


def _sample() -> list[Grid]:
    puzzles: list[Grid] = []
    for name, count in SAMPLES.items():
        taken = 0
        for line in (TEST_DATA / name).read_text(encoding="utf-8").splitlines():
            if taken == count:
                break
            text = line.split("\t")[0].split(":")[0].strip()
            if not line or line.startswith(("#", "puzzle")) or len(text) != 81:
                continue
            grid = Grid.parse(text)
            if analyze(grid, suggest_given=False).unique:
                puzzles.append(grid)
                taken += 1
    rng = random.Random(2026)
    for name, count in SHAPES.items():
        for _ in range(count):
            shape = geometry_named(name)
            opens = {4: 6, 6: 14, 9: 28, 12: 64}[shape.size]
            request = GenerateRequest(target_givens=opens, pattern=None, geometry=shape)
            puzzles.append(generate(request.with_seed(rng.randrange(10**6))).puzzle)
    return puzzles


PUZZLES = _sample()


@pytest.fixture(scope="module")
def reference() -> dict[tuple[str, str], Analysis]:
    return {(p.geometry.name, str(p)): analyze(p) for p in PUZZLES}


def _key(grid: Grid) -> tuple[str, str]:
    return grid.geometry.name, str(grid)


def _facts(analysis: Analysis) -> tuple[str, float, str]:
    grade = analysis.graded()
    return grade.label, round(grade.score, 1), grade.hardest.value if grade.hardest else "none"


def test_the_sample_covers_every_level_and_shape(reference):
    assert len(PUZZLES) >= 200
    levels = {analysis.graded().label for analysis in reference.values()}
    assert {"Easy", "Medium", "Hard", "Very hard", "Diabolical"} <= levels, levels
    assert {grid.geometry.name for grid in PUZZLES} == {"9x9", *SHAPES}


def test_grade_json_is_the_analysis(reference, tmp_path, capsys):
    source = tmp_path / "puzzles.json"
    lines = [json.dumps({"puzzle": str(p), "geometry": p.geometry.name}) for p in PUZZLES]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["grade", str(source), "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == len(PUZZLES)
    for row in rows:
        expected = _facts(reference[(row["geometry"], row["puzzle"])])
        assert (row["level"], row["score"], row["hardest"] or "none") == expected, row


def test_analyze_command_is_the_analysis(reference, capsys):
    for grid in PUZZLES:
        argv = ["analyze", str(grid), "--geometry", grid.geometry.name]
        assert main(argv) == 0
        first = capsys.readouterr().out.splitlines()[0]
        level, score, hardest = _facts(reference[_key(grid)])
        assert first == f"unique solution; {level}; SE rating {score:.1f} (hardest step: {hardest})"


def test_the_analyze_sheet_is_the_analysis(reference):
    workbook = load_template()
    io = OpenpyxlIO(workbook)
    string = layout.NAMES[layout.ANALYZE_STRING]
    shape = layout.NAMES[layout.ANALYZE_GEOMETRY]
    for grid in PUZZLES:
        workbook[shape.sheet][shape.top_left] = grid.geometry.name
        workbook[string.sheet][string.top_left] = str(grid)
        outcome = actions.analyze(io)
        assert outcome.ok, outcome.status
        report = [row[0] for row in io.read(layout.ANALYZE_REPORT) if row[0]]
        level, score, hardest = _facts(reference[_key(grid)])
        summary = f"{level}; SE rating {score:.1f} (hardest step: {hardest})"
        assert f"Grade: {summary}" in report, report
        assert summary in outcome.status


def test_collection_rows_of_an_import_are_the_analysis(reference):
    workbook = load_template()
    io = OpenpyxlIO(workbook)
    source = layout.NAMES[layout.IMPORT_SOURCE]
    lines = [json.dumps({"puzzle": str(p), "geometry": p.geometry.name}) for p in PUZZLES]
    workbook[source.sheet][source.top_left] = "\n".join(lines)
    outcome = actions.import_puzzles(io)
    assert outcome.ok, outcome.status
    columns = layout.COLLECTION_COLUMNS
    rows = [dict(zip(columns, row, strict=True)) for row in io.table_rows(layout.COLLECTION_HEADER)]
    assert len(rows) == len(PUZZLES)
    for row in rows:
        level, score, _ = _facts(reference[(row["geometry"], row["puzzle"])])
        assert (row["level"], row["score"]) == (level, score), row


def test_the_custom_function_and_the_booklet_are_the_analysis(reference):
    for grid in PUZZLES:
        level, score, _ = _facts(reference[_key(grid)])
        if grid.geometry.name != "9x9":
            continue  # SUDOKU_GRADE reads a 9x9 range
        size = grid.geometry.size
        rows = [[grid[r * size + c] or None for c in range(size)] for r in range(size)]
        assert xl.sudoku_grade(rows) == [[level, score, "se"]], grid
    for grid in PUZZLES[::5]:
        level, _, _ = _facts(reference[_key(grid)])
        assert complete(Entry(grid)).level == level


@pytest.mark.parametrize("seed", [3, 11, 26])
def test_start_statistics_and_batch_records_are_the_analysis(seed):
    workbook = load_template()
    io = OpenpyxlIO(workbook)
    seed_ref = layout.PARAMS_BY_NAME[layout.SEED].ref
    workbook[seed_ref.sheet][seed_ref.top_left] = seed
    outcome = actions.start(io)
    assert outcome.ok, outcome.status
    puzzle = outcome.detail.puzzle
    stats = {row[0]: row[1] for row in io.read(layout.STATS)}
    level, score, hardest = _facts(analyze(puzzle))
    assert (stats["Level"], stats["Score"], stats["Hardest technique"]) == (level, score, hardest)
    assert re.search(
        rf"{level}; SE rating {score:.1f} \(hardest step: {re.escape(hardest)}\)", outcome.status
    )
    made = make_record(0, request_fields(GenerateRequest()), seed)
    assert made.record is not None
    record = made.record
    facts = _facts(analyze(Grid.parse(record["puzzle"], CLASSIC)))
    assert (record["level"], round(record["score"], 1), record["hardest"] or "none") == facts
