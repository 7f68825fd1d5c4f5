"""Rank statistics, checked against singles computed independently here."""

from __future__ import annotations

import pytest
from conftest import TEST_DATA

from xlsudoku.engine.grid import Grid, InvalidPuzzle, geometry_for_size
from xlsudoku.engine.ranks import RankRound, Ranks, rank_statistics
from xlsudoku.engine.solver import solve


def _houses(n: int, br: int, bc: int) -> list[list[int]]:
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(r + i) * n + c + j for i in range(br) for j in range(bc)]
        for r in range(0, n, br)
        for c in range(0, n, bc)
    ]
    return rows + cols + boxes


def singles(values: list[int], n: int = 9, br: int = 3, bc: int = 3) -> set[int]:
    """Cells that a naked or hidden single fills, from the values alone."""
    houses = _houses(n, br, bc)
    peers = [set() for _ in range(n * n)]
    for h in houses:
        for c in h:
            peers[c].update(h)
    cand = {
        c: {d for d in range(1, n + 1) if all(values[p] != d for p in peers[c])}
        for c in range(n * n)
        if not values[c]
    }
    found = {c for c, ds in cand.items() if len(ds) == 1}
    for h in houses:
        for d in range(1, n + 1):
            places = [c for c in h if c in cand and d in cand[c]]
            if len(places) == 1:
                found.add(places[0])
    return found


EASY = [
    # a full grid with a few cells removed, and two puzzles from the generator's own tests
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
]


@pytest.mark.parametrize("line", EASY)
def test_each_round_is_exactly_the_singles_after_the_rounds_before(line):
    puzzle = Grid.parse(line)
    if puzzle.is_complete:
        puzzle = puzzle.with_cells({0: 0, 40: 0, 80: 0, 12: 0})
    solution = solve(puzzle)
    assert solution is not None
    ranks = rank_statistics(puzzle)
    values = list(puzzle.cells)
    for r in ranks.rounds:
        if not r.beyond_singles:
            assert set(r.cells) == singles(values), r.rank
        else:
            assert not singles(values)
        for c in r.cells:
            values[c] = solution[c]
    assert all(values)
    assert sum(ranks.cells_per_rank) == 81 - puzzle.given_count
    assert [r.rank for r in ranks.rounds] == list(range(1, ranks.count + 1))


def test_one_missing_cell_is_one_rank():
    solution = Grid.parse(EASY[0])
    ranks = rank_statistics(solution.with_cells({10: 0}), solution)
    assert ranks.count == 1 and ranks.cells_per_rank == (1,) and ranks.singles_only
    assert ranks.text() == "rank 1: 1 cell"
    assert ranks.rank_of(81)[10] == 1 and ranks.rank_of(81)[0] == 0


def _hard() -> list[str]:
    lines = (TEST_DATA / "ranks_hard_sample.txt").read_text().splitlines()
    return [ln for ln in lines if ln and not ln.startswith("#")]


@pytest.mark.parametrize("line", _hard()[:3])
def test_hard_puzzles_go_beyond_singles_and_still_fill_the_grid(line):
    puzzle = Grid.parse(line)
    ranks = rank_statistics(puzzle)
    assert not ranks.singles_only
    beyond = [r for r in ranks.rounds if r.beyond_singles]
    assert all(len(r.cells) == 1 and not r.techniques for r in beyond)  # filled from the solution
    assert sum(ranks.cells_per_rank) == 81 - puzzle.given_count
    assert "(beyond singles)" in ranks.text()


def test_next_step_plugs_in_the_human_solver():
    logic = pytest.importorskip("xlsudoku.engine.logic")
    puzzle = Grid.parse(_hard()[0])
    plain = rank_statistics(puzzle)
    ranks = rank_statistics(puzzle, next_step=logic.next_step)
    assert sum(ranks.cells_per_rank) == 81 - puzzle.given_count
    named = [r for r in ranks.rounds if r.techniques]
    assert named, "the human solver should name at least one technique"
    assert ranks.text() != plain.text()


def test_next_step_that_finds_nothing_falls_back_to_the_solution():
    puzzle = Grid.parse(_hard()[1])
    assert rank_statistics(puzzle, next_step=lambda board: None) == rank_statistics(puzzle)


def test_other_geometry():
    geo = geometry_for_size(6)
    solution = Grid.parse("123456456123214365365214531642642531", geo)
    puzzle = solution.with_cells({c: 0 for c in range(0, 36, 2)})
    ranks = rank_statistics(puzzle)
    values = list(puzzle.cells)
    first = ranks.rounds[0]
    assert set(first.cells) == singles(values, 6, 2, 3)
    assert sum(ranks.cells_per_rank) == 18


def test_errors_name_the_problem():
    with pytest.raises(InvalidPuzzle, match="no solution"):
        rank_statistics(Grid.parse("11" + "." * 79))
    solution = Grid.parse(EASY[0])
    wrong = solution.with_cells({0: 0})
    other = Grid.parse("6" + EASY[0][1:])
    with pytest.raises(InvalidPuzzle, match="r1c2"):
        rank_statistics(wrong.with_cells({1: 4}), solution)
    del other


def test_text_and_dict():
    ranks = Ranks((RankRound(1, (1, 2, 3)), RankRound(2, (4,), True, ("X-Wing",))), givens=77)
    assert ranks.text() == "rank 1: 3 cells; rank 2: 1 cell (X-Wing)"
    data = ranks.to_dict()
    assert data["count"] == 2 and data["cells_per_rank"] == [3, 1] and not data["singles_only"]
