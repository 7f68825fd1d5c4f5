"""Windoku and Jigsaw: generated puzzles checked by an independent counter written here.

The houses are rebuilt below from the rules (rows, columns, the layout's regions, Windoku's
four extra boxes), not taken from the engine's geometry, and a plain backtracking counter
checks that each generated puzzle has one solution, the generator's, with 1-9 in every house.
"""

from __future__ import annotations

import pytest

from xlsudoku.cli import main
from xlsudoku.engine.analysis import analyze
from xlsudoku.engine.formats import geometry_named
from xlsudoku.engine.generate import GenerateRequest, generate
from xlsudoku.engine.grid import JIGSAW_LAYOUTS, ParseError
from xlsudoku.engine.logic import solve_path

USER_LAYOUT = "122223333121122263111152663144556663774555633744455669744859999748889989777788889"


def _rule_houses(name: str) -> list[list[int]]:
    """Return the houses of the shape *name*, written from the rules."""
    houses = [[r * 9 + c for c in range(9)] for r in range(9)]
    houses += [[r * 9 + c for r in range(9)] for c in range(9)]
    if name.startswith("9x9-jigsaw:"):
        layout = name.removeprefix("9x9-jigsaw:")
        regions = JIGSAW_LAYOUTS.get(layout, layout)
        for key in sorted(set(regions)):
            houses.append([c for c in range(81) if regions[c] == key])
        return houses
    for br in (0, 3, 6):
        for bc in (0, 3, 6):
            houses.append([(br + i) * 9 + bc + j for i in range(3) for j in range(3)])
    for r0, c0 in ((1, 1), (1, 5), (5, 1), (5, 5)):
        houses.append([(r0 + i) * 9 + c0 + j for i in range(3) for j in range(3)])
    return houses


def _count(cells: list[int], houses: list[list[int]], limit: int = 2) -> list[list[int]]:
    """Return up to *limit* solutions by plain backtracking (fewest candidates first)."""
    peers = [set() for _ in range(81)]
    for house in houses:
        for c in house:
            peers[c].update(house)
    found: list[list[int]] = []

    def search() -> None:
        best, best_digits = -1, []
        for c in range(81):
            if cells[c]:
                continue
            digits = [d for d in range(1, 10) if all(cells[p] != d for p in peers[c])]
            if best < 0 or len(digits) < len(best_digits):
                best, best_digits = c, digits
                if len(digits) < 2:
                    break
        if best < 0:
            found.append(list(cells))
            return
        for d in best_digits:
            cells[best] = d
            search()
            cells[best] = 0
            if len(found) >= limit:
                return

    search()
    return found


SHAPES = ["9x9-windoku", *(f"9x9-jigsaw:{name}" for name in JIGSAW_LAYOUTS)]
SHAPES.append("9x9-jigsaw:" + USER_LAYOUT)


@pytest.mark.parametrize("name", SHAPES)
@pytest.mark.parametrize("seed", [1, 2])
def test_generated_variant_has_one_solution_by_an_independent_counter(name, seed):
    geo = geometry_named(name)
    result = generate(GenerateRequest(geometry=geo, seed=seed))
    houses = _rule_houses(name)
    givens = list(result.puzzle.cells)
    found = _count(list(givens), houses)
    assert len(found) == 1
    assert found[0] == list(result.solution.cells)
    for house in houses:
        assert sorted(found[0][c] for c in house) == list(range(1, 10))


def test_a_windoku_puzzle_needs_its_extra_boxes():
    geo = geometry_named("9x9-windoku")
    result = generate(GenerateRequest(geometry=geo, seed=4, target_givens=22))
    plain = _rule_houses("9x9-windoku")[:27]
    assert len(_count(list(result.puzzle.cells), plain)) == 2


@pytest.mark.parametrize(
    "layout, message",
    [
        ("1" * 80, "needs 81 characters (one region name per cell), got 80"),
        ("12345678" * 10 + "1", "needs 9 regions, found 8"),
        (USER_LAYOUT[:80] + "1", "region '1' has 10 cells, each needs 9"),
        (
            "7" + USER_LAYOUT[1:72] + "1" + USER_LAYOUT[73:],
            "region '1' is not connected: r2c1 cannot reach r9c1",
        ),
    ],
)
def test_a_bad_user_layout_gets_one_message_naming_the_fault(layout, message):
    with pytest.raises(ParseError, match="jigsaw layout") as caught:
        geometry_named("9x9-jigsaw:" + layout)
    assert message in str(caught.value)


def test_the_cli_names_the_geometry_argument(capsys):
    with pytest.raises(SystemExit):
        main(["count", "--geometry", "9x9-jigsaw:nosuch", "-"])
    err = capsys.readouterr().err
    assert "--geometry" in err and "jigsaw layout" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["9x9-windoku", "9x9-jigsaw:steps", "9x9-jigsaw:comb"])
def test_every_step_of_the_human_path_agrees_with_the_solution(name):
    geo = geometry_named(name)
    result = generate(GenerateRequest(geometry=geo, seed=7, target_givens=22))
    path = solve_path(result.puzzle)
    solution = result.solution
    assert path.solved
    for step in path.steps:
        assert all(solution[p.cell] == p.digit for p in step.placements), step.explanation
        assert all(solution[e.cell] != e.digit for e in step.eliminations), step.explanation
    assert analyze(result.puzzle).solution == solution


def test_generate_json_records_keep_their_variant_for_booklet_and_image(tmp_path, capsys):
    from xlsudoku.production.inputs import read_entries

    path = tmp_path / "j.jsonl"
    assert (
        main(["generate", "--geometry", "9x9-jigsaw:spiral", "--seed", "5", "--format", "json"])
        == 0
    )
    path.write_text(capsys.readouterr().out)
    ((label, entry),) = read_entries(str(path))
    assert label == "line 1" and entry.puzzle.geometry.name == "9x9-jigsaw:spiral"
