"""Analysis of typed puzzles (xlsudoku.engine.analysis) against labelled vectors.

tests/data/uniqueness_sample.tsv (and the full ../shared/data/uniqueness_test_vectors.tsv) give
each puzzle's category and solution count from independent solvers.
"""

from __future__ import annotations

import pytest
from conftest import TEST_DATA, sample_lines

from xlsudoku.engine.analysis import COUNT_LIMIT, Status, analyze
from xlsudoku.engine.grid import Grid
from xlsudoku.engine.solver import count_solutions
from xlsudoku.engine.techniques import TECHNIQUES

EXPECTED = {
    "unique": Status.UNIQUE,
    "multiple": Status.SEVERAL,
    "no_solution": Status.NO_SOLUTION,
    "no_solution_duplicate_givens": Status.INVALID,
}


def _tsv(path, default=None):
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    header = lines[0].split("\t")
    body = lines[1:] if default is None else sample_lines(lines[1:], default)
    return [dict(zip(header, ln.split("\t"), strict=False)) for ln in body]


def _is_solution(puzzle: Grid, solution: Grid) -> bool:
    """Independent check: complete, no clash, and keeps every given."""
    return (
        solution.is_complete
        and not solution.conflicts()
        and all(g in (0, s) for g, s in zip(puzzle, solution, strict=True))
    )


def _check(row):
    grid = Grid.parse(row["puzzle"])
    # the human-style table's own path grades these (the profile's chains on tdoku's hardest
    # would take minutes); what is checked is the status, the solutions and the clue
    a = analyze(grid, table=TECHNIQUES)
    assert a.status is EXPECTED[row["category"]], a.message
    if a.status is Status.INVALID:
        assert "repeated" in a.message and a.message.count("r") >= 2
    elif a.status is Status.UNIQUE:
        assert str(a.solutions[0]) == row["solution_if_unique"]
        assert a.grade is not None and a.grade.solved
    elif a.status is Status.SEVERAL:
        first, second = a.solutions
        assert first != second and _is_solution(grid, first) and _is_solution(grid, second)
        assert a.differing == tuple(c for c in range(81) if first[c] != second[c])
        assert a.suggested_given is not None and a.suggested_given.cell in a.differing
        assert (
            first[a.suggested_given.cell] == a.suggested_given.digit
            and grid[a.suggested_given.cell] == 0
        )
        left = count_solutions(
            grid.with_cells({a.suggested_given.cell: a.suggested_given.digit}), COUNT_LIMIT
        )
        assert a.suggested_given_solutions == left and a.suggested_given_makes_unique == (left == 1)
        # closer to unique: fewer solutions than before (when the count is below the bound)
        total = _count(row)
        assert left < total if total < COUNT_LIMIT else left <= COUNT_LIMIT
        assert "r" in a.message and "solutions" in a.message


def _count(row) -> int:
    text = row["solution_count"]
    return 10**9 if text.startswith(">") else int(text)


SAMPLE = _tsv(TEST_DATA / "uniqueness_sample.tsv")


@pytest.mark.parametrize("row", SAMPLE, ids=lambda r: f"{r['category']}-{r['name'][:20]}")
def test_sample_vector(row):
    _check(row)


@pytest.mark.slow
def test_shared_vectors_beyond_the_sample(shared_data):
    seen = {r["puzzle"] for r in SAMPLE}
    rows = [r for r in _tsv(shared_data / "uniqueness_test_vectors.tsv") if r["puzzle"] not in seen]
    assert rows
    for row in rows:
        _check(row)


def test_deadly_rectangle_gets_a_clue_that_makes_it_unique():
    # a solved grid with a 2x2 deadly pattern blanked (rows 1 and 4, columns 1 and 2)
    grid = Grid.parse(
        "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"
    )
    a = analyze(grid)
    assert a.status is Status.SEVERAL and a.differing == (0, 1, 27, 28)
    assert a.suggested_given_makes_unique and "makes the solution unique" in a.message


def test_cli_analyze(capsys):
    from xlsudoku.cli import main

    deadly = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"
    assert main(["analyze", deadly]) == 0
    out = capsys.readouterr().out
    assert "differ in: r1c1, r1c2, r4c1, r4c2" in out and "add clue:" in out
    assert main(["analyze", "11" + "." * 79]) == 1
    assert "invalid" in capsys.readouterr().out
