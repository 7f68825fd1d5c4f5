"""Puzzles made to a score (engine.generate.climb): in range, unique, symmetric, reproducible.

Every rating is checked with the grader itself (``grade`` under the request's profile), every
uniqueness with the exact solver, and the symmetry cell by cell; the strategy's cheap bound is
checked against the full rating path.
"""

from __future__ import annotations

import json
import random

import pytest
from test_cli import _run

from xlsudoku.addin import layout, params
from xlsudoku.cli import main
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate import (
    Budget,
    BudgetKind,
    GenerateError,
    GenerateRequest,
    generate,
    validate_request,
)
from xlsudoku.engine.generate.climb import Rater, singles_solve
from xlsudoku.engine.generate.descent import minimal_puzzle
from xlsudoku.engine.generate.generator import pick
from xlsudoku.engine.generate.request import ScoreRange
from xlsudoku.engine.grading import grade, grade_path, rating_path
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.ratings import profile_table
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry

WORK = Budget(60.0, BudgetKind.WORK)  # counted: the same puzzle from a seed under any load


def rotated_twin_agrees(puzzle: Grid) -> bool:
    """True when each cell and its 180-degree twin are both given or both blank."""
    n = puzzle.geometry.cell_count
    return all(bool(puzzle[c]) == bool(puzzle[n - 1 - c]) for c in range(n))


CASES = [
    ("se", "3.0-4.5", 1, 26),
    ("se", "7.0-8.0", 2, 81),
    ("se", "7.0-8.0", 5, 26),
    ("sukaku", "7.0-", 3, 81),
    ("sukaku", "4.0-5.0", 4, 81),
    ("se", "1.2-2.0", 6, 81),
]


@pytest.mark.parametrize(("profile", "text", "seed", "ceiling"), CASES)
def test_a_score_request_gives_a_puzzle_rated_in_range(profile, text, seed, ceiling):
    wanted = ScoreRange.parse(text)
    request = GenerateRequest(
        score=wanted, profile=profile, seed=seed, target_givens=ceiling, budget=WORK
    )
    result = generate(request)
    assert result.reached, result.message
    puzzle = result.puzzle
    rated = grade(puzzle, profile=profile).score  # the grader itself, uniqueness checked too
    assert wanted.low <= round(rated, 1) <= (wanted.high if wanted.high is not None else 99)
    assert f"{rated:.1f}" in result.message
    assert count_solutions(puzzle, 2) == 1
    assert all(d in (0, s) for d, s in zip(puzzle, result.solution, strict=True))
    assert 0 not in result.solution.cells
    assert rotated_twin_agrees(puzzle)
    assert puzzle.given_count <= ceiling
    assert all(puzzle[c] for c in (30, 32, 48, 50)) and not puzzle[40]  # pattern 1 kept


def test_the_same_seed_gives_the_same_puzzle():
    request = GenerateRequest(score=ScoreRange(7.0, 8.0), target_givens=81, seed=11, budget=WORK)
    first, second = generate(request), generate(request)
    assert first.reached and first.puzzle == second.puzzle and first.seed == second.seed == 11
    other = generate(
        GenerateRequest(score=ScoreRange(7.0, 8.0), target_givens=81, seed=12, budget=WORK)
    )
    assert other.puzzle != first.puzzle


def test_other_symmetries_and_no_pattern():
    request = GenerateRequest(
        score=ScoreRange(4.0, 6.5),
        target_givens=81,
        pattern=None,
        symmetry=Symmetry.DIAGONAL,
        seed=5,
        budget=WORK,
    )
    result = generate(request)
    assert result.reached, result.message
    p = result.puzzle
    assert all(bool(p[r * 9 + c]) == bool(p[c * 9 + r]) for r in range(9) for c in range(9))
    assert 4.0 <= round(grade(p).score, 1) <= 6.5


def test_the_cheap_bounds_agree_with_the_rating_path():
    """Singles bound the rating of a puzzle they solve; a stopped rating is the path's so far."""
    solved = unsolved = 0
    for profile in ("se", "sukaku"):
        rater = Rater.of(profile)
        table = profile_table(profile)
        for seed in range(25):
            puzzle = minimal_puzzle(random_grid(random.Random(seed)), random.Random(seed))
            full = grade_path(rating_path(puzzle, table), table).score
            assert rater.rate(puzzle) == (full, rater.rate(puzzle)[1], True)
            if singles_solve(puzzle):
                solved += 1
                assert full <= rater.singles
            else:
                unsolved += 1
            if full > 2.0:  # stopped at the first step rated 2.0 or more: at most the rating
                score, _, whole = rater.rate(puzzle, enough=2.0)
                assert 2.0 <= score <= full and not whole
    assert solved > 5 and unsolved > 5  # both branches were exercised


def test_a_missed_range_returns_the_closest_puzzle_and_its_rating():
    request = GenerateRequest(
        score=ScoreRange(11.5), target_givens=81, seed=1, budget=Budget(0.3, BudgetKind.WORK)
    )
    result = generate(request)
    assert not result.reached and result.stop == "time"
    rated = grade(result.puzzle).score
    assert f"closest: SE rating {rated:.1f}" in result.message
    assert result.message.startswith("Could not make a puzzle of SE rating 11.5 or more")
    assert count_solutions(result.puzzle, 2) == 1


def test_cli_exits_5_with_the_closest_puzzle(capsys):
    code, out, err = _run(
        capsys, ["generate", "--score", "11.5-", "--seed", "1", "--budget", "work:0.3"]
    )
    assert code == 5
    puzzle = Grid.parse(out.strip())
    assert f"closest: SE rating {grade(puzzle).score:.1f}" in err


def test_cli_score_json_carries_the_profile_and_rating(capsys):
    code, out, _ = _run(
        capsys,
        ["generate", "--score", "7-8", "--profile", "sukaku", "--seed", "2", "--format", "json",
         "--budget", "work:60"],
    )  # fmt: skip
    found = json.loads(out)
    assert code == 0 and found["profile"] == "sukaku" and 7.0 <= found["score"] <= 8.0
    assert found["request"]["score"] == "7.0-8.0" and found["request"]["profile"] == "sukaku"
    assert found["score"] == grade(Grid.parse(found["puzzle"]), profile="sukaku").score


BAD = ["9-7", "abc", "-1", "NaN", "1e308", "", "7-x", "inf-"]


@pytest.mark.parametrize("text", BAD)
def test_bad_ranges_get_one_message_naming_score(capsys, text):
    with pytest.raises(SystemExit) as exit_:
        main(["generate", f"--score={text}", "--seed", "1"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == ""
    problem = err.strip().splitlines()[-1]
    assert "argument --score: score" in problem and "Traceback" not in err
    with pytest.raises(GenerateError, match="^score "):
        ScoreRange.parse(text)


@pytest.mark.parametrize("text", [*(t for t in BAD if t), 12.5, -1, float("nan"), True])
def test_bad_score_cells_are_named_by_the_cell(text):
    with pytest.raises(params.ParamError) as caught:
        params.read_start(params.defaults() | {layout.SCORE: text, layout.SEED: 1})
    problems = caught.value.problems
    assert len(problems) == 1 and problems[0].startswith("Score (C15)")


def test_the_score_cell_reaches_the_request():
    checked = params.read_start(
        params.defaults() | {layout.SCORE: " 7-8 ", layout.RATING: "sukaku", layout.SEED: 1}
    )
    request = params.start_request(checked)
    assert request.score == ScoreRange(7.0, 8.0) and request.profile == "sukaku"
    assert pick(request).name == "climb"
    blank = params.start_request(params.read_start(params.defaults() | {layout.SEED: 1}))
    assert blank.score is None and pick(blank).name == "descent"


def test_a_score_with_a_level_is_refused_on_every_surface(capsys):
    with pytest.raises(params.ParamError) as caught:
        params.read_start(
            params.defaults() | {layout.SCORE: "7-8", layout.DIFFICULTY: "hard", layout.SEED: 1}
        )
    assert caught.value.problems[0].startswith("Score (C15) and Difficulty (C10)")
    with pytest.raises(SystemExit) as exit_:
        main(["generate", "--score", "7-8", "--difficulty", "hard"])
    assert exit_.value.code == 2 and "--score" in capsys.readouterr().err
    with pytest.raises(GenerateError, match="score or a difficulty"):
        validate_request(GenerateRequest(score=ScoreRange(7.0), difficulty=Level.HARD))
    with pytest.raises(GenerateError, match="^score "):
        validate_request(GenerateRequest(score=ScoreRange(9.0, 7.0)))
    with pytest.raises(GenerateError, match="^profile: unknown rating profile"):
        validate_request(GenerateRequest(score=ScoreRange(7.0), profile="hodoku"))
    with pytest.raises(GenerateError, match="ceiling"):
        validate_request(GenerateRequest(score=ScoreRange(7.0), target_givens=10))


def test_batch_and_daily_make_puzzles_to_a_score(tmp_path, capsys):
    out = tmp_path / "b.jsonl"
    argv = ["batch", "-n", "1", "--score", "7-8", "--profile", "sukaku", "--seed", "5",
            "-o", str(out), "-j", "1", "--quiet"]  # fmt: skip
    code, _, _ = _run(capsys, argv)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0 and len(records) == 1
    for record in records:
        assert record["score_range"] == "7.0-8.0" and record["profile"] == "sukaku"
        assert 7.0 <= record["score"] <= 8.0
        assert grade(Grid.parse(record["puzzle"]), profile="sukaku").score == record["score"]
    code, again, _ = _run(capsys, [*argv, "--resume"])
    assert code == 0 and out.read_text().count("\n") == 1
    day = tmp_path / "d.jsonl"
    code, _, _ = _run(
        capsys,
        ["daily", "--from", "2026-12-07", "--days", "1", "--per-day", "1", "--score", "4-5",
         "--seed", "2", "-o", str(day), "-j", "1", "--quiet"],
    )  # fmt: skip
    (record,) = [json.loads(line) for line in day.read_text().splitlines()]
    assert code == 0 and record["date"] == "2026-12-07" and 4.0 <= record["score"] <= 5.0


def test_start_makes_a_puzzle_to_the_score_cell(io):
    """START on the committed workbook: the Score and Rating cells reach the generator."""
    from xlsudoku.addin import actions
    from xlsudoku.engine.grid import CLASSIC

    for name, value in {
        layout.SCORE: "7-8",
        layout.RATING: "sukaku",
        layout.SEED: 4,
        layout.TIME_LIMIT: "work:60",
    }.items():
        io.write(name, value)
    outcome = actions.start(io)
    assert outcome.ok
    rows = io.read(layout.PUZZLE_GRID)
    puzzle = Grid(tuple(int(v or 0) for row in rows[:9] for v in row[:9]), CLASSIC)
    assert 7.0 <= grade(puzzle, profile="sukaku").score <= 8.0
    assert puzzle.given_count <= 26  # Opens is the ceiling
    status = io.read(layout.STATUS)
    assert status.startswith("Made a puzzle of SukakuExplainer rating")
    io.write(layout.SCORE, "8-7")
    assert not actions.start(io).ok
    assert io.read(layout.STATUS).startswith("Score (C15)")
