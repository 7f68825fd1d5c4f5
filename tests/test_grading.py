"""Grading (engine.grading) against independent graders: SE ratings, QQWing and HoDoKu levels.

Samples in tests/data keep the checks meaningful in a fresh clone; the shared data files give
the bigger samples (``XLSUDOKU_SAMPLE=all`` for every line; the full figures are printed by
``xlsudoku bench grade FILE``).
"""

from __future__ import annotations

import pytest
from conftest import TEST_DATA, sample_lines

from xlsudoku.bench.grading import spearman
from xlsudoku.bench.hodoku import HODOKU_STEPS, hodoku_grade
from xlsudoku.engine.grading import NotUnique, grade, grade_path
from xlsudoku.engine.grid import ConflictError, Grid
from xlsudoku.engine.logic import NoSolution, solve_path
from xlsudoku.engine.ratings.se import TRIAL_SCORE, chain_length_increment, step_score
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.techniques import TECHNIQUES


def _tsv(path, default=None):
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    header = lines[0].split("\t")
    body = lines[1:] if default is None else sample_lines(lines[1:], default)
    return [dict(zip(header, ln.split("\t"), strict=False)) for ln in body]


SE_SAMPLE = _tsv(TEST_DATA / "se_rated_sample.tsv")
QQWING_SAMPLE = _tsv(TEST_DATA / "qqwing_hodoku_sample.tsv")

# QQWing grades by the techniques its own solver needed: simple and easy need only singles,
# intermediate needs locked candidates or pairs, expert needs guessing.
QQWING_ALLOWED = {
    "simple": {Level.EASY},
    "easy": {Level.EASY},
    # SE's direct pointing and direct hidden pair (1.7, 2.0: the Easy band) place the digit
    # that QQWing's locked candidates and pairs lead to
    "intermediate": {Level.EASY, Level.MEDIUM, Level.HARD},
    "expert": {Level.MEDIUM, Level.HARD, Level.VERY_HARD, Level.DIABOLICAL, Level.BEYOND},
}


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_se_rank_agreement_on_the_sample():
    se = [float(r["se_rating"]) for r in SE_SAMPLE]
    ours = [grade(Grid.parse(r["puzzle"])).score for r in SE_SAMPLE]
    assert spearman(se, ours) >= 0.88


def test_se_scores_match_where_se_uses_our_basic_techniques():
    # SE ratings of the techniques both graders know (SE's own scale, not ours)
    basic = {2.6, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8, 4.2, 4.4, 5.0, 5.2}
    rows = [r for r in SE_SAMPLE if float(r["se_rating"]) in basic]
    same = sum(1 for r in rows if grade(Grid.parse(r["puzzle"])).score == float(r["se_rating"]))
    assert len(rows) >= 8 and same >= 0.8 * len(rows)


@pytest.mark.parametrize(
    "row", QQWING_SAMPLE, ids=lambda r: f"{r['qqwing_level']}-{r['puzzle'][:8]}"
)
def test_level_is_consistent_with_qqwing(row):
    assert grade(Grid.parse(row["puzzle"])).level in QQWING_ALLOWED[row["qqwing_level"]]


def test_hodoku_level_agreement_on_the_sample():
    agree = sum(
        1
        for r in QQWING_SAMPLE
        if hodoku_grade(Grid.parse(r["puzzle"]))[0].name == r["hodoku_level"]
    )
    assert agree >= 0.9 * len(QQWING_SAMPLE)


def test_hodoku_level_agreement_on_shared_data(shared_data):
    rows = _tsv(shared_data / "qqwing_graded_hodoku.tsv", 150)
    agree = sum(
        1 for r in rows if hodoku_grade(Grid.parse(r["puzzle"]))[0].name == r["hodoku_level"]
    )
    assert agree >= 0.9 * len(rows)


def test_qqwing_levels_on_shared_data(shared_data):
    rows = _tsv(shared_data / "qqwing_graded_hodoku.tsv", 150)
    ok = sum(
        1 for r in rows if grade(Grid.parse(r["puzzle"])).level in QQWING_ALLOWED[r["qqwing_level"]]
    )
    assert ok >= 0.97 * len(rows)


def test_grade_summarises_its_path():
    grid = Grid.parse(SE_SAMPLE[20]["puzzle"])
    path = solve_path(grid)
    g = grade(grid, TECHNIQUES)  # an explicit table: its own path gives score and level
    assert g == grade_path(path)
    assert sum(n for _, n in g.counts) == len(path.steps)
    scores = [step_score(s, spec) for s, spec in zip(path.steps, path.specs, strict=True)]
    assert g.score == max(scores)
    assert g.hardest is path.steps[scores.index(max(scores))].technique
    assert g.level == max(spec.level for spec in path.specs)
    assert g.solved


def test_trial_and_error_is_beyond_technique():
    grid = Grid.parse(SE_SAMPLE[-1]["puzzle"])
    g = grade_path(solve_path(grid, table=TECHNIQUES[:3]))
    assert g.level is Level.BEYOND and g.score == TRIAL_SCORE
    assert g.hardest is Technique.TRIAL_AND_ERROR


def test_hidden_single_in_a_line_rates_above_one_in_a_box():
    spec = next(s for s in TECHNIQUES if s.technique is Technique.HIDDEN_SINGLE)
    box = next(spec.find(solve_path(Grid.parse(SE_SAMPLE[0]["puzzle"]), max_steps=0).board))
    assert box.houses[0] >= 18 and step_score(box, spec) == 1.2


# SE's chain length ladder: +0.1 each time the length passes 4, 6, 8, 12, 16, 24, ...
@pytest.mark.parametrize(
    "length, added",
    [
        (2, 0.0),
        (4, 0.0),
        (5, 0.1),
        (6, 0.1),
        (7, 0.2),
        (8, 0.2),
        (9, 0.3),
        (12, 0.3),
        (13, 0.4),
        (16, 0.4),
        (17, 0.5),
        (24, 0.5),
        (25, 0.6),
    ],
)
def test_chain_length_increment(length, added):
    assert chain_length_increment(length) == added


def test_every_technique_has_a_hodoku_row():
    assert {spec.technique for spec in TECHNIQUES} <= set(HODOKU_STEPS)


def test_invalid_puzzles_raise_typed_errors():
    rows = _tsv(TEST_DATA / "uniqueness_sample.tsv")
    multiple = next(r["puzzle"] for r in rows if r["category"] == "multiple")
    none = next(r["puzzle"] for r in rows if r["category"] == "no_solution")
    duplicate = next(r["puzzle"] for r in rows if r["category"] == "no_solution_duplicate_givens")
    with pytest.raises(NotUnique):
        grade(Grid.parse(multiple))
    with pytest.raises((NoSolution, ConflictError)):
        grade(Grid.parse(none))
    with pytest.raises(ConflictError, match=r"r\dc\d and r\dc\d"):
        grade(Grid.parse(duplicate))


def test_cli_grade_tsv_and_json(tmp_path, capsys):
    import json

    from xlsudoku.cli import main

    path = tmp_path / "p.txt"
    path.write_text(SE_SAMPLE[3]["puzzle"] + "\n" + "11" + "." * 79 + "\n")
    assert main(["grade", str(path)]) == 1  # the second line is reported, the first graded
    out, err = capsys.readouterr()
    header, row = out.splitlines()
    assert header.split("\t") == [
        "line", "puzzle", "level", "score", "profile", "hardest", "counts"
    ]  # fmt: skip
    g = grade(Grid.parse(SE_SAMPLE[3]["puzzle"]))
    assert row.split("\t")[2:6] == [g.level.label, f"{g.score:.1f}", "se", g.hardest.value]
    assert "line 2" in err and "r1c1 and r1c2" in err
    assert main(["grade", str(path), "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["score"] == g.score and sum(record["counts"].values()) > 0


def test_bench_grade_smoke(capsys):
    from xlsudoku.cli import main

    path = str(TEST_DATA / "qqwing_hodoku_sample.tsv")
    assert main(["bench", "grade", path, "--limit", "6", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "qqwing_hodoku_sample.tsv (40 puzzles; 6 graded, sample seed 1, profile se)" in out
    assert "puzzles/s, ms mean" in out and "HoDoKu level agreement" in out
    path = str(TEST_DATA / "se_rated_sample.tsv")
    assert main(["bench", "grade", path, "--limit", "5", "--seed", "2"]) == 0
    assert "SE agreement: Spearman" in capsys.readouterr().out


def test_bench_reglib_smoke(capsys):
    from xlsudoku.cli import main

    assert main(["bench", "reglib", str(TEST_DATA / "reglib_sample.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    total = lines[-1].split()
    assert total[0] == "total" and int(total[1]) >= 40 and int(total[2]) == 0
    assert any(line.startswith("Naked Pair") for line in lines)


def test_hodoku_promotes_by_total_score():
    from xlsudoku.bench.hodoku import HodokuLevel, hodoku_rating
    from xlsudoku.engine.board import Board
    from xlsudoku.engine.logic import SolvePath
    from xlsudoku.engine.steps import Placement, Step

    single = Step(Technique.HIDDEN_SINGLE, (Placement(0, 1),), (), (0,), (0,), (1,), "")
    board = Board.from_grid(Grid.parse(SE_SAMPLE[0]["puzzle"]))
    # HoDoKu: a hidden single scores 14; EASY ends at 800 points
    assert hodoku_rating(SolvePath((single,) * 57, board, True)) == (HodokuLevel.EASY, 798)
    assert hodoku_rating(SolvePath((single,) * 58, board, True)) == (HodokuLevel.MEDIUM, 812)
    assert hodoku_rating(SolvePath((single,), board, False))[0] is HodokuLevel.EXTREME
