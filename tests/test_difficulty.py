"""Generation to a difficulty (xlsudoku.engine.generate.graded), checked by independent oracles.

Reached means both targets: exactly the opens, and the level (or the needed technique).
Uniqueness by the exact solver, symmetry by engine.symmetry, the level by our grader and,
where installed, by QQWing's own grader (``qqwing --solve --stats``), which knows nothing of
our levels: singles-only puzzles are QQWing "simple"/"easy", puzzles needing guessing "expert".
A needed technique by the rating path itself: the default profile's path takes a step of it.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from xlsudoku.addin.render import stats_block
from xlsudoku.cli import main
from xlsudoku.cli.generate import TARGET_MISSED
from xlsudoku.engine.generate import GenerateError, GenerateRequest, generate
from xlsudoku.engine.grading import grade, rating_path
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.patterns import parse_pattern
from xlsudoku.engine.ratings import profile_table
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry, is_symmetric

LEVELS = [Level.EASY, Level.MEDIUM, Level.HARD, Level.VERY_HARD, Level.DIABOLICAL]


def _qqwing_level(puzzle: Grid) -> str | None:
    if shutil.which("qqwing") is None:
        return None
    out = subprocess.run(
        ["qqwing", "--solve", "--stats", "--nosolution"],
        input=str(puzzle) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return next(ln.split(":")[1].strip().lower() for ln in out.splitlines() if "Difficulty" in ln)


def _check_invariants(result, request):
    puzzle, solution = result.puzzle, result.solution
    assert count_solutions(puzzle, 2) == 1
    assert all(d in (0, s) for d, s in zip(puzzle, solution, strict=True))
    assert solution.is_complete and not solution.conflicts()
    assert is_symmetric(puzzle, request.symmetry)
    pattern = parse_pattern(request.pattern)
    if pattern is not None:
        assert all(puzzle[c] for c in pattern.cells())
        assert not any(puzzle[c] for c in pattern.blank_cells())
    assert result.givens == puzzle.given_count


def _needs(puzzle: Grid, technique: Technique) -> bool:
    """The oracle for "needs": the rating path of the default profile takes a step of it."""
    path = rating_path(puzzle, profile_table("se"))
    return path.solved and any(step.technique is technique for step in path.steps)


def _goal_met(puzzle: Grid, request: GenerateRequest) -> bool:
    if request.needs is not None:
        return _needs(puzzle, request.needs)
    return grade(puzzle).level is request.difficulty


@pytest.mark.parametrize("level", LEVELS, ids=lambda lv: lv.name)
@pytest.mark.parametrize("opens", [26, 30])
def test_level_is_reached_at_the_opens(level, opens):
    request = GenerateRequest(difficulty=level, target_givens=opens, seed=11, time_limit=120)
    result = generate(request)
    assert result.reached, result.message
    _check_invariants(result, request)
    assert result.givens == opens and grade(result.puzzle).level is level
    assert result.message.startswith(f"Made a{'n' if level is Level.EASY else ''} {level.label}")
    qq = _qqwing_level(result.puzzle)
    if qq is not None and level is Level.EASY:
        # SE's direct pointing and hidden pair (Easy scores) are QQWing's locked candidates
        assert qq in ("simple", "easy", "intermediate")
    if qq is not None and level in (Level.VERY_HARD, Level.DIABOLICAL):
        assert qq != "simple" and qq != "easy"


def test_same_seed_same_puzzle():
    request = GenerateRequest(difficulty=Level.MEDIUM, seed=5, time_limit=120)
    assert generate(request).puzzle == generate(request).puzzle


@pytest.mark.parametrize(
    "technique",
    [
        Technique.POINTING,
        Technique.NAKED_PAIR,
        Technique.X_WING,
        Technique.XY_WING,
        Technique.FORCING_CHAIN,
    ],
    ids=lambda t: t.name,
)
def test_needed_technique_is_needed(technique):
    request = GenerateRequest(needs=technique, seed=3, time_limit=120, trials=2000)
    result = generate(request)
    assert result.reached, result.message
    _check_invariants(result, request)
    assert result.givens == request.target_givens and _needs(result.puzzle, technique)


HONESTY_CASES = [
    GenerateRequest(difficulty=Level.HARD, seed=4, trials=1),
    GenerateRequest(difficulty=Level.HARD, seed=4, trials=30),
    GenerateRequest(difficulty=Level.EASY, target_givens=36, seed=2, trials=3),
    GenerateRequest(difficulty=Level.DIABOLICAL, target_givens=34, seed=1, trials=2),
    GenerateRequest(difficulty=Level.EASY, target_givens=20, pattern=None, seed=1, time_limit=3),
    GenerateRequest(difficulty=Level.BEYOND, seed=1, trials=2),
    GenerateRequest(needs=Technique.JELLYFISH, seed=1, trials=2),
    GenerateRequest(needs=Technique.X_WING, target_givens=30, seed=6, trials=4),
]


@pytest.mark.parametrize(
    "request_", HONESTY_CASES, ids=lambda r: f"{r.difficulty}-{r.needs}-{r.target_givens}"
)
def test_reached_means_both_targets(request_):
    result = generate(request_)
    _check_invariants(result, request_)
    goal_missed = not _goal_met(result.puzzle, request_)
    opens_missed = result.givens != request_.target_givens
    assert result.reached == (not goal_missed and not opens_missed), result.message
    if not result.reached:
        missed = result.message.split("(missed the ")[1]
        what = "technique" if request_.needs is not None else "level"
        expected = " and the ".join([what] * goal_missed + ["opens"] * opens_missed)
        assert missed == expected + ")", result.message
        assert result.message.startswith("Could not make")
        rows = {row[0]: row[1] for row in stats_block(result)}
        reached = rows["Target reached"]
        assert reached.startswith(f"No: asked {request_.target_givens} opens")
        assert ("the opens (got " in reached) == opens_missed, reached
        assert f"the {what}" in reached if goal_missed else f"the {what}" not in reached


@pytest.mark.parametrize(
    "symmetry, pattern, opens",
    [(Symmetry.NONE, None, 26), (Symmetry.ROTATE_90, 3, 28), (Symmetry.DIAGONAL, None, 26)],
)
def test_works_with_symmetry_and_pattern(symmetry, pattern, opens):
    request = GenerateRequest(
        difficulty=Level.HARD, symmetry=symmetry, pattern=pattern, seed=2, target_givens=opens
    )
    result = generate(request)
    _check_invariants(result, request)
    assert result.reached, result.message
    assert result.givens == opens and grade(result.puzzle).level is Level.HARD


def test_target_not_met_returns_the_closest_and_says_so():
    request = GenerateRequest(difficulty=Level.BEYOND, seed=1, trials=2)
    result = generate(request)
    assert not result.reached and result.trials_used == 2
    assert result.message.startswith("Could not make a Beyond technique puzzle with 26 opens")
    assert "closest" in result.message and "(missed the level)" in result.message
    _check_invariants(result, request)


def test_generator_delegates_and_reports_progress():
    seen = []
    request = GenerateRequest(difficulty=Level.MEDIUM, seed=9, time_limit=120)
    result = generate(request, progress=lambda n, opens: seen.append((n, opens)))
    assert result.reached and seen and seen[-1][0] == result.trials_used


def test_cancel_stops_after_the_first_attempt():
    request = GenerateRequest(difficulty=Level.BEYOND, seed=1, trials=50)
    result = generate(request, cancel=lambda: True)
    assert result.trials_used == 1 and result.message.startswith("Cancelled after 1 attempt;")
    assert not result.reached


def test_invalid_requests_name_the_field():
    with pytest.raises(GenerateError, match="opens 25 is odd"):
        generate(GenerateRequest(difficulty=Level.EASY, target_givens=25))
    with pytest.raises(GenerateError, match="Trial and Error has no finder"):
        generate(GenerateRequest(needs=Technique.TRIAL_AND_ERROR))


def test_cli_difficulty_option(capsys):
    assert main(["generate", "--difficulty", "medium", "--seed", "4", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"difficulty": "MEDIUM"' in out and '"reached": true' in out and '"opens": 26' in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--difficulty", "beyond", "--trials", "2"],
        ["--needs", "jellyfish", "--trials", "2"],
        ["--difficulty", "easy", "--opens", "20", "--pattern", "none", "--time-limit", "3"],
    ],
)
def test_cli_exits_5_on_an_unmet_target(capsys, argv):
    assert main(["generate", "--seed", "1", *argv]) == TARGET_MISSED == 5
    out, err = capsys.readouterr()
    assert count_solutions(Grid.parse(out.strip()), 2) == 1  # the closest puzzle is printed
    # with --time-limit the run's deadline and the search's own limit end together: either says
    assert err.startswith(("Could not make", "Cancelled after")) and "(missed the" in err


def test_cli_rejects_a_technique_without_a_finder(capsys):
    assert main(["generate", "--needs", "trial-and-error"]) == 2
    assert "Trial and Error has no finder" in capsys.readouterr().err


def test_bench_difficulty_smoke(capsys):
    """The benchmark command runs, checks what it made and prints its figures (never speed)."""
    argv = ["bench", "difficulty", "--levels", "easy", "--opens", "30", "--seeds", "2"]
    assert main([*argv, "--needs", "pointing", "--needs-opens", "30"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("xlsudoku bench difficulty; load average")
    assert out[2].split(": ")[1].startswith("2/2 (median") and "Easy" in out[2]
    assert "needs Pointing" in out[3] and "2/2" in out[3]
