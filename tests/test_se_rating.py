"""Sudoku Explainer rating: profiles, direct techniques, SE's chains, the SE bench command."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import pytest
from conftest import bench_args, rating_path_boards, sample_lines

from xlsudoku.bench.grading import read_rows
from xlsudoku.bench.rating import agreement, rate_rows, run_se
from xlsudoku.cli import main
from xlsudoku.engine.board import Board
from xlsudoku.engine.grading import grade, grade_path, rating_path
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.hints import hint
from xlsudoku.engine.logic import next_found, next_step, solve_path
from xlsudoku.engine.ratings import PROFILES, SE_TABLE, SUKAKU_TABLE, level_of, profile_table
from xlsudoku.engine.ratings.se import SE_PATTERNS, nested_finder
from xlsudoku.engine.solver import solve
from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques.chaining import implication, nested
from xlsudoku.engine.techniques.chaining.dynamic import find_dynamic_forcing_chains
from xlsudoku.engine.techniques.chaining.forcing import find_se_forcing_chains
from xlsudoku.engine.techniques.chaining.implication import DYNAMIC_CHAINS, Implications
from xlsudoku.engine.techniques.chaining.links import Links, digit_tables, se_geometry
from xlsudoku.engine.techniques.chaining.multiple import find_multiple_forcing_chains
from xlsudoku.engine.techniques.chaining.nishio import find_nishio
from xlsudoku.engine.techniques.chaining.rating import length_increment
from xlsudoku.engine.techniques.direct import find_direct_hidden_pair, find_direct_pointing
from xlsudoku.engine.techniques.exclusion import (
    find_aligned_pair_exclusion,
    find_aligned_triplet_exclusion,
)
from xlsudoku.engine.techniques.strong_links import find_strong_links, links_rating

DATA = Path(__file__).parent / "data"
SAMPLE = read_rows(str(DATA / "sukaku_fixtures_sample.tsv"))
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def _sound(step: Step, solution: Grid) -> bool:
    """True when *step* places only solution digits and removes none."""
    return all(solution[p.cell] == p.digit for p in step.placements) and all(
        solution[e.cell] != e.digit for e in step.eliminations
    )


def test_length_increment_follows_se_ceilings():
    # length = complexity - 2; +0.1 past 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128
    lengths = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 32, 33, 48, 49, 128, 129]
    got = [length_increment(n + 2) for n in lengths]
    assert got == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 10, 11]


def test_profiles_follow_se_order_and_a_row_adds_a_technique():
    order = [spec.technique for spec in SE_TABLE]
    assert order.index(Technique.DIRECT_HIDDEN_PAIR) < order.index(Technique.NAKED_SINGLE)
    assert order.index(Technique.NAKED_SINGLE) < order.index(Technique.DIRECT_HIDDEN_TRIPLE)
    assert order.index(Technique.X_WING) < order.index(Technique.HIDDEN_PAIR)
    assert order.index(Technique.UNIQUE_LOOP) < order.index(Technique.NAKED_QUAD)
    assert order.index(Technique.ALIGNED_PAIR_EXCLUSION) < order.index(
        Technique.BIDIRECTIONAL_CYCLE
    )
    # SE asks the aligned triplet exclusion after its cycles, before Nishio; SukakuExplainer
    # asks its TUVWXYZ-Wing just before it
    at = order.index(Technique.ALIGNED_TRIPLET_EXCLUSION)
    assert (
        order.index(Technique.BIDIRECTIONAL_CYCLE)
        < at
        < order.index(Technique.NISHIO_FORCING_CHAIN)
    )
    sukaku = [spec.technique for spec in SUKAKU_TABLE]
    assert sukaku.index(Technique.TUVWXYZ_WING) + 1 == sukaku.index(
        Technique.ALIGNED_TRIPLET_EXCLUSION
    )
    assert Technique.SKYSCRAPER not in order and Technique.FINNED_X_WING not in order
    assert Technique.W_WING not in order and Technique.EMPTY_RECTANGLE not in order
    assert set(SE_TABLE) <= set(SUKAKU_TABLE)
    assert Technique.SKYSCRAPER in [spec.technique for spec in SUKAKU_TABLE]
    assert profile_table("SE") is PROFILES["se"]
    with pytest.raises(ValueError, match="unknown rating profile"):
        profile_table("hodoku")
    with pytest.raises(ValueError):
        grade(Grid.parse(HARD), profile="nope")


def test_direct_hidden_pair_places_the_single_it_uncovers():
    grid = Grid.parse(
        "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"
    )
    step = next(find_direct_hidden_pair(Board.from_grid(grid)))
    assert step.technique is Technique.DIRECT_HIDDEN_PAIR
    assert [(p.cell, p.digit) for p in step.placements] == [(45, 3)]
    assert _sound(step, solve(grid))
    assert "hidden pair" in step.explanation and "only place left" in step.explanation
    g = grade(grid)
    assert (g.score, g.hardest, g.level) == (2.0, Technique.DIRECT_HIDDEN_PAIR, Level.EASY)


def test_direct_pointing_rates_1_7():
    grid = Grid.parse(
        ".34...9179.73.1..6.619.73..3...74168146.9.573.781....97.26.9.3.4..7.56.16..4..79."
    )
    step = next(find_direct_pointing(Board.from_grid(grid)))
    assert _sound(step, solve(grid))
    assert grade(grid).score == 1.7


@pytest.mark.parametrize("row", SAMPLE, ids=lambda r: r["ER_technique"])
def test_every_step_of_the_se_profile_is_sound(row):
    grid = Grid.parse(row["puzzle"])
    solution = Grid.parse(row["solution"])
    path = solve_path(grid, SE_TABLE)
    assert path.solved
    assert all(_sound(step, solution) for step in path.steps)


def test_se_profile_agrees_with_sukaku_explainer_on_classic_techniques():
    # SukakuExplainer rates these the way SE 1.2.1 does (no technique of its own is needed)
    pairs = [(float(r["ER"]), grade(Grid.parse(r["puzzle"])).score) for r in SAMPLE]
    a = agreement(pairs)
    assert a.within_01 >= 0.85, a.line()
    assert a.spearman >= 0.97, a.line()


def test_chain_finders_are_sound_and_rated_from_their_base():
    grid = Grid.parse(HARD)
    board = Board.from_grid(grid)
    solution = solve(grid)
    for find, base in (
        (find_se_forcing_chains, 6.5),
        (find_nishio, 7.5),
        (find_multiple_forcing_chains, 8.0),
        (find_dynamic_forcing_chains, 8.5),
    ):
        step = next(find(board))
        assert _sound(step, solution)
        assert step.rating >= base


def test_aligned_pair_exclusion_and_strong_links_are_sound():
    for row in SAMPLE[:30]:
        grid = Grid.parse(row["puzzle"])
        solution = Grid.parse(row["solution"])
        board = Board.from_grid(grid)
        for step in find_aligned_pair_exclusion(board):
            assert _sound(step, solution)
        for count in (2, 3):
            for step in find_strong_links(board, count):
                assert _sound(step, solution)
                assert step.rating >= 4.0


CORNERS = read_rows(str(DATA / "rating_corners.tsv"))


def test_aligned_triplet_exclusion_is_sound_along_rating_paths():
    # a given leaves naked singles beside every cell, so look along the paths, not at the start
    puzzles = [r["puzzle"] for r in CORNERS if r["reference"] == "Aligned Triplet Exclusion"]
    found = 0
    for puzzle in puzzles:
        grid = Grid.parse(puzzle)
        solution = solve(grid)
        assert solution is not None
        board = Board.from_grid(grid)
        for step in rating_path(grid, profile_table("sukaku")).steps:
            for exclusion in find_aligned_triplet_exclusion(board):
                assert _sound(exclusion, solution), exclusion.explanation
                assert len(set(exclusion.cells[:3])) == 3
                found += 1
            board = board.apply(step)
    assert found > 0


@pytest.mark.parametrize("row", CORNERS, ids=lambda r: f"{r['profile']}-{r['reference']}")
def test_corner_cases_rate_as_the_reference(row):
    # each once missed SukakuExplainer's or SE's rating (see the file's header for the sources)
    g = grade(Grid.parse(row["puzzle"]), profile=row["profile"])
    assert g.score == float(row["expected"]), (row["case"], g.hardest)


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_se_uniqueness_and_strong_link_steps_are_sound_along_rating_paths():
    from xlsudoku.engine.techniques.unique_loops import find_unique_loops
    from xlsudoku.engine.techniques.uniqueness import find_bug

    finders = (find_unique_loops, find_bug, *(partial(find_strong_links, count=k) for k in (2, 3)))
    checked = 0
    rows = CORNERS + [r for r in SAMPLE if 3.8 <= float(r["ER"]) < 7]
    for row in sample_lines(rows, default=10, seed=153):  # XLSUDOKU_SAMPLE=all: every row
        grid = Grid.parse(row["puzzle"])
        solution = solve(grid)
        assert solution is not None
        board = Board.from_grid(grid)
        for step in rating_path(grid, profile_table("sukaku")).steps:
            for find in finders:
                for found in find(board):
                    assert _sound(found, solution), found.explanation
                    checked += 1
            board = board.apply(step)
    assert checked > 50


def test_strong_link_ratings():
    board = Board.from_grid(Grid.empty())
    assert links_rating(board, (0, 8)) == 4.0  # two rows: Skyscraper
    assert links_rating(board, (0, 9)) == 4.1  # a row and a column: 2-String Kite
    assert links_rating(board, (18, 0, 9)) == 5.6  # a box, a row, a column
    assert links_rating(board, (0, 9, 10, 1), grouped=True) == 6.1


def test_hardest_puzzle_gets_a_numeric_rating_above_nine():
    grid = Grid.parse(
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
    )
    g = grade(grid)
    assert g.solved and g.score >= 9.5
    assert Technique.NESTED_FORCING_CHAINS in dict(g.counts)


# HardestDatabase110626 (the forum's hardest, see ../shared/data/SOURCES.md), line 212, ER 11.8:
# no forcing chain nested in SE's level 2 sense finds anything on the puzzle itself; with the
# multiple forcing chains SE's level 3 nests, one does.
HARDEST_11_8 = "1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6."


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_level_three_nests_multiple_forcing_chains(monkeypatch):
    board = Board.from_grid(Grid.parse(HARDEST_11_8))
    solution = solve(Grid.parse(HARDEST_11_8))
    assert solution is not None
    assert not list(nested_finder(2, None)(board))
    (step,) = nested_finder(3, None)(board)
    assert _sound(step, solution) and step.technique is Technique.NESTED_FORCING_CHAINS
    assert "(+ Multiple Forcing Chains)" in step.explanation
    assert 10.0 <= step.rating <= 11.8
    # what the searches skip changes nothing: the inner outcomes that see nothing the outer
    # assumption removed (the puzzle's own), the inner starts too far from a new link, the
    # facts an earlier inner search exhausted
    unpruned = _without_pruning(monkeypatch, nested_finder(3, None), board)
    assert unpruned == [step]


# HardestDatabase110626, ER 11.0, and a board of its rating path where level 4 took the step
# while level 3 nested forcing chains only (it now finds a 10.9 chain there).
ER_11_0 = "1..4..7....71.9...6...7....2......5...1.6.4.....3....8..6.4.9..5......2..8......3"
ER_11_0_VALUES = "1..4.67....71.9...6...7....2......5...1.6.4.....3....8..6.4.9..5......2..8......3"
ER_11_0_CANDIDATES = (
    0, 278, 406, 0, 150, 0, 0, 388, 274, 140, 30, 0, 0, 150, 0, 182, 172, 58, 0, 286, 414,
    146, 0, 150, 151, 397, 283, 0, 108, 396, 448, 385, 201, 37, 0, 353, 388, 340, 0, 466, 0,
    210, 0, 324, 322, 328, 120, 280, 0, 275, 91, 35, 353, 0, 68, 71, 0, 210, 0, 215, 0, 193,
    81, 0, 329, 268, 480, 389, 197, 161, 0, 105, 328, 0, 266, 370, 275, 83, 49, 105, 0,
)  # fmt: skip


def test_level_four_nests_dynamic_forcing_chains(monkeypatch):
    values = Grid.parse(ER_11_0_VALUES).cells
    board = Board.from_candidates(values, ER_11_0_CANDIDATES)
    solution = solve(Grid.parse(ER_11_0))
    assert solution is not None and all(v in (0, solution[c]) for c, v in enumerate(values))
    (step,) = nested_finder(4, 50_000)(board)
    assert _sound(step, solution) and step.technique is Technique.NESTED_FORCING_CHAINS
    assert step.explanation.startswith("Dynamic") and 10.5 <= step.rating <= 11.9
    # the inner dynamic chains that see nothing the outer assumption removed are the
    # puzzle's own, taken from its search: computing them again changes nothing
    assert _without_pruning(monkeypatch, nested_finder(4, 50_000), board) == [step]


def test_nested_work_budget_keeps_the_easiest_chain_found():
    board = Board.from_grid(Grid.parse(HARD))
    solution = solve(Grid.parse(HARD))
    assert solution is not None
    (full,) = nested_finder(2, None)(board)
    (starved,) = nested_finder(2, 1)(board)  # out of work at once: the first chain found
    assert _sound(full, solution) and _sound(starved, solution)
    assert full.rating < starved.rating  # 9.5 against 9.8: the budget bounds the search
    assert list(nested_finder(2, 1)(board)) == [starved]  # counted work: the same every time


def _without_pruning(monkeypatch, search, *args):
    """Return ``list(search(*args))`` with the nested searches' exact prunings switched off."""

    class Everything:
        def __contains__(self, fact):
            return True

    forcing = nested.shortest_forcing_chain
    with monkeypatch.context() as patch:
        patch.setattr(implication, "footprint", lambda links, outcome: (-1, -1))
        patch.setattr(nested, "_near_links", lambda *args: Everything())
        patch.setattr(nested, "shortest_forcing_chain", lambda *args: forcing(*args[:5]))
        return list(search(*args))


def test_nested_prunings_skip_only_chains_left_out(monkeypatch):
    # the inner forcing chains on the candidates each outer assumption leaves (the plain
    # dynamic rules followed until dry, as where the nested rules are applied), pruned and not
    for puzzle, level in ((HARDEST_11_8, 3), (HARD, 2)):
        board = Board.from_grid(Grid.parse(puzzle))
        n = board.geometry.size
        links = Links.of(board)
        plain = Implications(links, DYNAMIC_CHAINS)
        engine = Implications(links, nested.nested_kind(level, SE_PATTERNS))
        rule = nested.NestedForcing(nested.INNER_LIMIT + 2 * (level - 2))
        source = links.cands
        found = 0
        for first in range(0, len(source) * n * 2, 5):
            cell, d = divmod(first >> 1, n)
            outcome = plain.outcome(first)
            if not source[cell] >> d & 1 or outcome.contradiction is not None:
                continue
            cands = list(source)
            for f in outcome.facts:
                if not f & 1:
                    cands[(f >> 1) // n] &= ~(1 << (f >> 1) % n)
            left = Board(board.values, tuple(cands), board.geometry)
            pruned = rule(engine, left)
            assert pruned == _without_pruning(monkeypatch, rule, engine, left)
            found += bool(pruned)
        assert found >= 3


def test_level_is_the_band_of_the_score():
    for row in SAMPLE[::4]:
        rated = grade(Grid.parse(row["puzzle"]))
        assert rated.level == (level_of(rated.score) if rated.solved else Level.BEYOND)


def test_cli_grade_profile(capsys):
    assert main(["grade", "--profile", "sukaku", HARD]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("line\tpuzzle") and len(out) == 2


def test_bench_se_prints_every_section(tmp_path):
    unbiased = tmp_path / "unbiased.tsv"
    unbiased.write_text(
        "puzzle\tSER\n"
        + "".join(f"{r['puzzle']}\t{r['ER']}\n" for r in SAMPLE if float(r["ER"]) < 3)
    )
    fixtures = tmp_path / "fixtures.tsv"
    fixtures.write_text(
        "puzzle\tER\tset\n" + "".join(f"{r['puzzle']}\t{r['ER']}\tgenerated\n" for r in SAMPLE[:3])
    )
    hardest = tmp_path / "hardest.tsv"
    hardest.write_text("puzzle\tER\n" + f"{SAMPLE[0]['puzzle']}\t7.1\n{SAMPLE[1]['puzzle']}\t\n")
    lines: list[str] = []
    args = [
        "--seed", "3", "--unbiased", "3", "--repeat", "2", "--hardest", "2",
        "--unbiased-file", str(unbiased), "--sukaku-file", str(fixtures),
        "--hardest-file", str(hardest), "--only", "unbiased,sukaku,hardest",
    ]  # fmt: skip
    assert run_se(bench_args("se", *args), lines.append) == 0
    text = "\n".join(lines)
    assert "sample seed 3:" in text and "sample seed 4:" in text and "spread of" in text
    assert "SukakuExplainer fixtures" in text and "within 0.1" in text
    assert "rated without trial and error: 2/2" in text and "load average" in text
    assert "on 1 process" in text


def test_rate_rows_in_processes_gives_the_same_scores():
    rows = [{"puzzle": r["puzzle"], "ER": r["ER"]} for r in SAMPLE[:6]]
    alone, _, cpus, trials = rate_rows(rows, "ER", "se")
    shared, walls, shared_cpus, shared_trials = rate_rows(rows, "ER", "se", jobs=2)
    assert shared == alone and shared_trials == trials
    assert len(walls) == len(shared_cpus) == len(cpus) == 6
    with pytest.raises(SystemExit):
        bench_args("se", "--jobs", "0", "--only", "hardest")


@pytest.mark.skipif(
    not os.environ.get("XLSUDOKU_SLOW"), reason="set XLSUDOKU_SLOW=1 (speed section, graders)"
)
def test_bench_se_speed_section():
    lines: list[str] = []
    assert (
        run_se(bench_args("se", "--seed", "1", "--speed", "2", "--only", "speed"), lines.append)
        == 0
    )
    assert any("xlsudoku grade (se)" in line for line in lines)


# -- the rating path: chain searches bounded by the rating so far (issue 12 speed) -------------

SE_RATED = read_rows(str(DATA / "se_rated_sample.tsv"))


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_rating_path_rates_like_the_easiest_first_path():
    # the ceiling lets the rating path take other steps; its score seldom moves (one puzzle of
    # the 117 here: 8.4 -> 8.3, the easiest-first path meeting its 8.4 step later); the level
    # is the band of the rating path's score
    scores = []
    for row in sample_lines(SE_RATED + SAMPLE, default=40, seed=371):  # all: XLSUDOKU_SAMPLE=all
        grid = Grid.parse(row["puzzle"])
        rated = grade(grid)
        plain = grade_path(solve_path(grid, SE_TABLE), SE_TABLE)
        assert rated.level == level_of(rated.score)
        scores.append((plain.score, rated.score))
    assert all(abs(a - b) < 0.15 for a, b in scores)
    assert sum(a == b for a, b in scores) >= 0.97 * len(scores)


def test_rating_path_takes_other_steps_than_hints_and_the_plain_path():
    # a puzzle whose rating path leaves the easiest-first one: the ceiling did something there
    grid = Grid.parse(HARD)
    plain = solve_path(grid, SE_TABLE)
    rated = rating_path(grid, SE_TABLE)
    assert rated.solved and grade_path(rated, SE_TABLE).score == grade_path(plain, SE_TABLE).score
    k = next(i for i, (a, b) in enumerate(zip(plain.steps, rated.steps, strict=False)) if a != b)
    board = Board.from_grid(grid)
    for step in plain.steps[:k]:
        board = board.apply(step)
    # the next step and solve_path stay easiest first; the hint follows the rating path
    assert plain.steps[k] == next_step(board, SE_TABLE)
    assert hint(board, 3, profile="se").step == rated.steps[k]
    assert plain.steps[k].rating <= rated.steps[k].rating
    score_so_far = grade_path(solve_path(grid, SE_TABLE, max_steps=k), SE_TABLE).score
    assert rated.steps[k].rating <= score_so_far


def test_chain_finders_under_a_ceiling():
    grid = Grid.parse(HARD)
    board = Board.from_grid(grid)
    solution = solve(grid)
    for find in (
        find_se_forcing_chains,
        find_nishio,
        find_multiple_forcing_chains,
        find_dynamic_forcing_chains,
    ):
        easiest = next(find(board))
        # below the easiest chain's rating nothing is within: the search is the plain one
        assert next(find(board, easiest.rating - 0.1)) == easiest
        # a high ceiling takes the first chain found: sound, within, not easier than the easiest
        first = next(find(board, 20.0))
        assert _sound(first, solution) and easiest.rating <= first.rating <= 20.0


def test_early_rows_are_asked_first_only_under_a_ceiling():
    grid = Grid.parse(HARD)
    plain = solve_path(grid, SE_TABLE)
    # the first board where the easiest-first path needs one of SE's chains
    k = next(i for i, spec in enumerate(plain.specs) if spec and spec.find_within)
    board = Board.from_grid(grid)
    for step in plain.steps[:k]:
        board = board.apply(step)
    assert next_found(board, SE_TABLE) == (plain.specs[k], plain.steps[k])
    early = next_found(board, SE_TABLE, ceiling=8.9)
    assert early is not None and early[0].early and early[1].rating <= 8.9
    assert early[0].score > plain.specs[k].score
    # both early rows find a chain within 8.9 here: table order, the multiple chains first
    assert early[0].technique is Technique.MULTIPLE_FORCING_CHAINS
    # from 9.0 the dynamic chains lead
    led = next_found(board, SE_TABLE, ceiling=9.0)
    assert led is not None and led[0].technique is Technique.DYNAMIC_FORCING_CHAINS
    assert led[0].lead == 9.0 and led[1].rating <= 9.0
    # a ceiling below every early row's score keeps the table order
    low = next_found(board, SE_TABLE, ceiling=plain.specs[k].score)
    assert low is not None and low[0] == plain.specs[k] and not low[0].early


def _rating_path_boards(count: int = 12) -> list[Board]:
    """Return every board along the SE rating paths of the first sukaku fixtures (tests/data)."""
    return rating_path_boards([row["puzzle"] for row in SAMPLE[:count]])


def test_chain_tables_cached_per_digit_match_a_plain_computation():
    """SE's chain tables (links both ways, places) from per-digit caches are the plain ones."""
    boards = _rating_path_boards()
    assert len(boards) > 200
    hits = digit_tables.cache_info().hits
    for board in boards:
        geo, cands, n = board.geometry, board.cands, board.geometry.size
        se_peers = se_geometry(geo)[1]
        x_off, y_off = [()] * (81 * n), [()] * (81 * n)
        for cell, m in enumerate(cands):
            own = [cell * n + e for e in range(n) if m >> e & 1]
            for p in own:
                d = p % n
                x_off[p] = tuple(c * n + d for c in se_peers[cell] if cands[c] >> d & 1)
                y_off[p] = tuple(q for q in own if q != p)
        places = [
            sum(1 << i for i, c in enumerate(geo.houses[h]) if cands[c] >> d & 1)
            for h in range(27)
            for d in range(n)
        ]
        t = Links.of(board)
        assert t.x_off == x_off and t.y_off == y_off and t.places == places
        assert t.counts == [m.bit_count() for m in places]
        assert t.xy_off == [a + b for a, b in zip(y_off, x_off, strict=True)]
        for y, x in ((False, True), (True, False), (True, True)):
            off_on = []
            for p in range(81 * n):
                cell, d = divmod(p, n)
                m = cands[cell]
                made = []
                if m >> d & 1:
                    if y and m.bit_count() == 2:
                        made.append(cell * n + (m & ~(1 << d)).bit_length() - 1)
                    for h in (geo.houses_of[cell][2], *geo.houses_of[cell][:2]):
                        two = [c for c in geo.houses[h] if cands[c] >> d & 1]
                        if x and len(two) == 2:
                            other = two[1] if two[0] == cell else two[0]
                            if other * n + d not in made:
                                made.append(other * n + d)
                off_on.append(tuple(made))
            assert t.off_on(y, x) == off_on
    assert digit_tables.cache_info().hits > hits


def test_unique_rectangles_cached_per_board_match_fresh_searches():
    """The unique rectangle finders give the same steps with the board's rectangles cached."""
    from xlsudoku.engine.techniques import uniqueness

    finders = [getattr(uniqueness, f"find_unique_rectangle_{k}") for k in range(1, 7)]
    found = 0
    for board in _rating_path_boards():
        warm = [list(find(board)) for find in finders]
        uniqueness._rectangles.cache_clear()
        fresh = [list(find(board)) for find in finders]
        assert warm == fresh
        found += sum(map(len, fresh))
    assert found > 0
