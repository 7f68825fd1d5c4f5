"""One path per puzzle: every surface tells the story of the rating profile's one path.

The level is the band of the score under the profile (monotone in the score), and the level,
score and hardest step every surface shows are the analysis's; the first hint of every surface
is the path's first step; a generated puzzle is analysed once (the generator's goal, or once
after an ungraded run), never again by START, ``generate``, ``batch`` or ``daily``.

The puzzles: the tests' samples (9x9, every level) and puzzles of other shapes made here (4x4,
6x6, 9x9-X, 12x12), under both profiles; a quick part runs by default, the whole set (at least
500 puzzles) is marked ``slow``.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter

import pytest
from conftest import TEST_DATA
from sheets import load_template

from xlsudoku.addin import actions, layout, render, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.cli import main
from xlsudoku.engine import analysis as analysis_module
from xlsudoku.engine.analysis import Analysis, analyze
from xlsudoku.engine.formats import geometry_named
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.generate import generator as generator_module
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.ratings import LEVEL_BANDS, PROFILES, level_of
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.steps import Level
from xlsudoku.production.daily import DailySpec, batch_spec
from xlsudoku.production.inputs import Entry, read_entries
from xlsudoku.production.records import make_record
from xlsudoku.production.spec import request_fields
from xlsudoku.production.stats import collect

SAMPLES = (
    "se_rated_sample.tsv",
    "qqwing_hodoku_sample.tsv",
    "sukaku_fixtures_sample.tsv",
    "solver_17clue_sample.txt",
    "solutions_sample.tsv",
    "addin_puzzles.tsv",
    "reglib_sample.txt",
    "techniques_basic.txt",
)
# shape -> (puzzles made here for the whole set, opens)
SHAPES = {"4x4": (40, 6), "6x6": (40, 14), "9x9-X": (30, 30), "12x12": (10, 70)}
# 9x9 puzzles made here at these opens (quick to rate), for the whole set
MADE_9X9 = (150, 32)


def _sample_9x9() -> list[Grid]:
    found: dict[str, Grid] = {}
    for name in SAMPLES:
        for line in (TEST_DATA / name).read_text(encoding="utf-8").splitlines():
            text = line.split("\t")[0].split(":")[0].strip()
            if line.startswith(("#", "puzzle")) or len(text) != 81:
                continue
            try:
                grid = Grid.parse(text)
            except ValueError:
                continue
            if str(grid) not in found and count_solutions(grid, 2) == 1:
                found[str(grid)] = grid
    return list(found.values())


def _made(count: int, shape: str, opens: int, seed: int) -> list[Grid]:
    rng = random.Random(seed)
    geometry = geometry_named(shape)
    pattern = 1 if shape == "9x9" else None
    made = []
    for _ in range(count):
        request = GenerateRequest(target_givens=opens, pattern=pattern, geometry=geometry)
        made.append(generate(request.with_seed(rng.randrange(10**6))).puzzle)
    return made


def _whole_set() -> list[Grid]:
    puzzles = _sample_9x9()
    puzzles += _made(*MADE_9X9[:1], "9x9", MADE_9X9[1], 37)
    for shape, (count, opens) in SHAPES.items():
        puzzles += _made(count, shape, opens, 2026)
    return puzzles


def _quick_set() -> list[Grid]:
    # the SE-rated sample spreads its scores over 2.5-9.2: every fourth, and a few easy ones
    sample = _sample_9x9()
    picked = sample[:45:4] + sample[50:60:3]
    for shape, (_, opens) in SHAPES.items():
        picked += _made(2, shape, opens, 2026)
    return picked


# -- level(score) ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_level_is_a_monotone_function_of_the_score(profile):
    scores = [tenth / 10 for tenth in range(0, 121)]
    levels = [level_of(score, profile) for score in scores]
    assert levels == sorted(levels)  # a higher score never shows a lower level
    assert set(levels) == set(Level)  # every level has scores
    bands = LEVEL_BANDS[profile]
    assert [band.level for band in bands] == sorted(Level)
    for band in bands:
        assert level_of(band.lowest, profile) is band.level
        if band.lowest:
            assert level_of(round(band.lowest - 0.1, 1), profile) < band.level


def test_the_bands_are_the_documented_ones():
    from conftest import ROOT

    text = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and " | " in line]
    for band in LEVEL_BANDS["se"]:
        row = next(r for r in rows if r.startswith(f"| {band.level.label} |"))
        shown = row.split(" | ")[1]
        assert (f"{band.lowest:.1f}" in shown) or (band.lowest == 0 and "up to" in shown), row


# -- every surface ---------------------------------------------------------------------------


def _facts(a: Analysis) -> tuple[str, float, str]:
    g = a.graded()
    return g.label, round(g.score, 1), g.hardest.value if g.hardest else "none"


def _surfaces(puzzles: list[Grid], profile: str, tmp_path, capsys) -> Counter[str]:
    """Check every surface against the analysis of each puzzle; return the levels seen."""
    reference = {(p.geometry.name, str(p)): analyze(p, profile) for p in puzzles}
    # the command line's grade, and stats reading what grade wrote (nothing graded again)
    source = tmp_path / f"{profile}.jsonl"
    lines = [json.dumps({"puzzle": str(p), "geometry": p.geometry.name}) for p in puzzles]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["grade", str(source), "--format", "json", "--profile", profile]) == 0
    graded = tmp_path / f"{profile}-graded.jsonl"
    graded.write_text(capsys.readouterr().out, encoding="utf-8")
    rows = [json.loads(line) for line in graded.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(puzzles)
    for row in rows:
        a = reference[(row["geometry"], row["puzzle"])]
        assert (row["level"], row["score"], row["hardest"] or "none") == _facts(a), row
        assert row["profile"] == profile
    entries = [e for _, e in read_entries(str(graded))]
    assert all(isinstance(e, Entry) and e.profile == profile for e in entries)
    stats = collect([e for e in entries if isinstance(e, Entry)])
    levels = Counter(a.graded().label for a in reference.values())
    assert stats.levels == dict(levels) and stats.profiles == (profile,)

    workbook = load_template()
    io = OpenpyxlIO(workbook)
    io.write(layout.RATING, profile)
    for grid in puzzles:
        a = reference[(grid.geometry.name, str(grid))]
        level, score, hardest = _facts(a)
        first = a.steps[0]
        assert a.level is level_of(a.graded().score, profile) or a.level is Level.BEYOND
        # the command line: hint, explain
        argv = ["--geometry", grid.geometry.name, "--profile", profile]
        assert main(["hint", str(grid), "--level", "3", *argv]) == 0
        said = capsys.readouterr().out.strip()
        assert said == a.hint(3).text
        assert main(["explain", str(grid), "--format", "json", *argv]) == 0
        explained = json.loads(capsys.readouterr().out)
        assert (explained["level"], explained["score"], explained["hardest"] or "none") == (
            level,
            score,
            hardest,
        )
        assert len(explained["steps"]) == len(a.steps)
        assert explained["steps"][0]["technique"] == first.technique.value
        assert explained["profile"] == profile
        # the workbook: ANALYZE, then HINT and the Play sheet's HINT from the puzzle itself
        io.write(layout.ANALYZE_STRING, str(grid))
        io.write(layout.ANALYZE_GEOMETRY, grid.geometry.name)
        outcome = actions.analyze(io)
        assert outcome.ok, outcome.status
        assert _facts(outcome.detail) == (level, score, hardest)
        assert outcome.detail.profile == profile
        hinted = actions.hint(io)
        assert hinted.ok and hinted.detail.step == first, (grid, hinted.status)
        io.write(layout.PLAY_SOURCE, "Analyze")
        assert actions.play(io).ok
        played = actions.play_hint(io)
        assert played.ok and played.detail.step == first, (grid, played.status)
        # SUDOKU_GRADE
        size = grid.geometry.size
        cells = [[grid[r * size + c] or None for c in range(size)] for r in range(size)]
        # a generous limit: the answer is checked here, not its speed on a loaded machine
        assert xl.sudoku_grade(cells, grid.geometry.name, profile, 300) == [[level, score, profile]]
    return levels


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_surface_tells_the_one_path_quick(profile, tmp_path, capsys):
    levels = _surfaces(_quick_set(), profile, tmp_path, capsys)
    assert {"Easy", "Medium", "Hard", "Very hard", "Diabolical"} <= set(levels), levels


@pytest.mark.slow
@pytest.mark.timeout(4 * 3600)
def test_every_surface_tells_the_one_path_on_500_puzzles(tmp_path, capsys):
    puzzles = _whole_set()
    assert len(puzzles) >= 500
    assert {p.geometry.name for p in puzzles} == {"9x9", *SHAPES}
    seen: Counter[str] = Counter()
    for profile in sorted(PROFILES):
        seen += _surfaces(puzzles, profile, tmp_path, capsys)
    assert {level.label for level in Level} <= set(seen), seen


# -- one analysis per generated puzzle -----------------------------------------------------------


@pytest.fixture
def analyses(monkeypatch):
    """Count the analyses (rating paths) made, and those made after the generator returned."""
    counts = {"all": 0, "at_return": 0}
    rate = analysis_module.rating_path
    minimal = generator_module.is_minimal

    def counted(*args, **kwargs):
        counts["all"] += 1
        return rate(*args, **kwargs)

    def returning(*args, **kwargs):
        counts["at_return"] = counts["all"]  # the generator's last act before it returns
        return minimal(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "rating_path", counted)
    monkeypatch.setattr(generator_module, "is_minimal", returning)

    def after() -> int:
        return counts["all"] - counts["at_return"]

    return after


@pytest.mark.parametrize("graded", [False, True], ids=["plain", "graded"])
def test_start_analyses_its_puzzle_once(analyses, graded):
    workbook = load_template()
    io = OpenpyxlIO(workbook)
    io.write(layout.SEED, 5)
    if graded:
        io.write(layout.DIFFICULTY, "Hard")
    outcome = actions.start(io)
    assert outcome.ok, outcome.status
    # a graded goal analysed the puzzle it kept; a plain one is analysed once, after
    assert analyses() == (0 if graded else 1)
    stats = {row[0]: row[1] for row in io.read(layout.STATS)}
    level, score, _ = _facts(analyze(outcome.detail.puzzle))
    assert (stats["Level"], stats["Score"]) == (level, score)


@pytest.mark.parametrize("graded", [False, True], ids=["plain", "graded"])
def test_generate_analyses_its_puzzle_once(analyses, graded, capsys):
    argv = ["generate", "--seed", "5", "--format", "json"]
    assert main(argv + (["--difficulty", "hard"] if graded else [])) == 0
    assert analyses() == (0 if graded else 1)
    row = json.loads(capsys.readouterr().out)
    assert (row["level"], row["score"]) == _facts(analyze(Grid.parse(row["puzzle"])))[:2]


def test_batch_and_daily_records_analyse_their_puzzle_once(analyses):
    fields = request_fields(GenerateRequest(difficulty=Level.MEDIUM))
    made = make_record(0, fields, 5)  # what a batch worker runs
    assert made.record is not None and analyses() == 0
    assert made.record["profile"] == "se" and made.record["level"] == "Medium"
    # a daily set of graded levels: its items are the batch's records
    daily = DailySpec(dt.date(2026, 12, 1), 1, 1)
    spec = batch_spec(daily, GenerateRequest(), [Level.EASY], 5)
    day = make_record(0, request_fields(spec.variants[0]), spec.seed)
    assert day.record is not None and analyses() == 0 and day.record["level"] == "Easy"


def test_a_missed_goal_says_what_and_keeps_its_analysis():
    result = generate(GenerateRequest(difficulty=Level.BEYOND, seed=3, trials=1))
    assert not result.reached and result.missed == ("level",)
    assert result.analysis is not None and result.analysis.puzzle == result.puzzle
    text = render.target_text(result, result.analysis)
    assert text.endswith(f"missed the level (got {result.analysis.graded().label})")


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_goals_bound_path_is_the_rating_path(profile):
    # the graded goal keeps the path of a chain-free head of the table as the rating path
    from xlsudoku.engine.generate.graded import _bound_table
    from xlsudoku.engine.grading import rating_path
    from xlsudoku.engine.logic import solve_path
    from xlsudoku.engine.ratings import band_of, profile_table

    table = profile_table(profile)
    checked = 0
    for grid in _sample_9x9()[45:105]:  # past the SE-rated sample's chains
        rated = None
        for level in (Level.EASY, Level.MEDIUM, Level.HARD, Level.VERY_HARD):
            head = _bound_table(table, band_of(level, profile)[1])
            assert head is not None
            path = solve_path(grid, head, max_level=Level.DIABOLICAL)
            if path.solved:
                rated = rated or rating_path(grid, table)
                assert path.steps == rated.steps
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("graded", [False, True], ids=["plain", "graded"])
def test_save_keeps_the_analysis_start_made(analyses, graded):
    workbook = load_template()
    io = OpenpyxlIO(workbook)
    io.write(layout.SEED, 5)
    if graded:
        io.write(layout.DIFFICULTY, "Hard")
    assert actions.start(io).ok
    after_start = analyses()
    outcome = actions.save_to_collection(io)
    assert outcome.ok, outcome.status
    assert analyses() == after_start  # SAVE analysed nothing: START's facts were kept
    assert "not analysed again" in outcome.status
    stats = {row[0]: row[1] for row in io.read(layout.STATS)}
    saved = [cell.value for cell in workbook[layout.COLLECTION][2]]
    record = dict(zip(layout.COLLECTION_COLUMNS, saved, strict=False))
    assert (record["level"], record["score"]) == (stats["Level"], stats["Score"])
    assert record["profile"] == "se"
    # what was kept is what an analysis of the saved puzzle finds
    again = analyze(Grid.parse(record["puzzle"]), ranks=True)
    assert (record["level"], record["score"]) == _facts(again)[:2]
    assert record["solution"] == str(again.solution)
    assert record["ranks"] == render.ranks_text(again.ranks)


def test_save_analyses_a_puzzle_edited_or_graded_under_another_profile(analyses):
    workbook = load_template()
    io = OpenpyxlIO(workbook)
    io.write(layout.SEED, 5)
    assert actions.start(io).ok
    io.write(layout.RATING, "sukaku")
    counted = analyses()
    outcome = actions.save_to_collection(io)
    assert outcome.ok and analyses() == counted + 1
    assert "START graded it under se; Rating is sukaku" in outcome.status
    assert [c.value for c in workbook[layout.COLLECTION][2]][-1] == "sukaku"
