"""Generation to a difficulty (xlsudoku.engine.generate.graded), checked by independent oracles.

Uniqueness by the exact solver, symmetry by engine.symmetry, and the level by our grader and,
where installed, by QQWing's own grader (``qqwing --solve --stats``), which knows nothing of
our levels: singles-only puzzles are QQWing "simple"/"easy", puzzles needing guessing "expert".
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from xlsudoku.engine.cli import main
from xlsudoku.engine.generate import GenerateError, GenerateRequest, generate
from xlsudoku.engine.generate.graded import goal_table
from xlsudoku.engine.grading import grade
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.patterns import parse_pattern
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level, Technique
from xlsudoku.engine.symmetry import Symmetry, is_symmetric
from xlsudoku.engine.techniques import TECHNIQUES

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
    assert result.opens == puzzle.given_count


@pytest.mark.parametrize("level", LEVELS, ids=lambda lv: lv.name)
def test_level_is_reached_directly(level):
    request = GenerateRequest(difficulty=level, seed=11, time_limit=120)
    result = generate(request)
    assert result.reached, result.message
    _check_invariants(result, request)
    assert grade(result.puzzle).level is level
    assert result.opens >= request.opens or "opens" in result.message
    qq = _qqwing_level(result.puzzle)
    if qq is not None and level is Level.EASY:
        assert qq in ("simple", "easy")
    if qq is not None and level in (Level.VERY_HARD, Level.DIABOLICAL):
        assert qq != "simple" and qq != "easy"


def test_same_seed_same_puzzle():
    request = GenerateRequest(difficulty=Level.MEDIUM, seed=5, time_limit=120)
    assert generate(request).puzzle == generate(request).puzzle


@pytest.mark.parametrize("technique", [Technique.X_WING, Technique.NAKED_PAIR, Technique.POINTING])
def test_needed_technique_is_used(technique):
    request = GenerateRequest(needs=technique, seed=3, time_limit=120)
    result = generate(request)
    assert result.reached, result.message
    _check_invariants(result, request)
    # the generator targets the human-style table; SE may reach for another pattern
    assert technique in dict(grade(result.puzzle, TECHNIQUES).counts)


@pytest.mark.parametrize(
    "symmetry, pattern",
    [(Symmetry.NONE, None), (Symmetry.ROTATE_90, 3), (Symmetry.DIAGONAL, None)],
)
def test_works_with_symmetry_and_pattern(symmetry, pattern):
    request = GenerateRequest(
        difficulty=Level.HARD,
        symmetry=symmetry,
        pattern=pattern,
        seed=2,
        time_limit=120,
        opens=28 if symmetry is Symmetry.ROTATE_90 else 26,
    )
    result = generate(request)
    _check_invariants(result, request)
    assert result.reached, result.message


def test_target_not_met_returns_the_closest_and_says_so():
    request = GenerateRequest(difficulty=Level.BEYOND, seed=1, trials=2)
    result = generate(request)
    assert not result.reached and result.trials_used == 2
    assert result.message.startswith("Could not make a Beyond technique puzzle")
    assert "closest" in result.message
    _check_invariants(result, request)


def test_generator_delegates_and_reports_progress():
    seen = []
    request = GenerateRequest(difficulty=Level.MEDIUM, seed=9, time_limit=120)
    result = generate(request, progress=lambda n, opens: seen.append((n, opens)))
    assert result.reached and seen and seen[-1][0] == result.trials_used


def test_cancel_stops_after_the_first_attempt():
    request = GenerateRequest(difficulty=Level.BEYOND, seed=1, trials=50)
    result = generate(request, cancel=lambda: True)
    assert result.trials_used == 1 and "Cancelled" in result.message


def test_invalid_requests_name_the_field():
    with pytest.raises(GenerateError, match="opens 25 is odd"):
        generate(GenerateRequest(difficulty=Level.EASY, opens=25))
    with pytest.raises(ValueError, match="has no finder"):
        goal_table(None, Technique.TRIAL_AND_ERROR)


def test_cli_difficulty_option(capsys):
    assert main(["generate", "--difficulty", "medium", "--seed", "4", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"difficulty": "MEDIUM"' in out and '"reached": true' in out
