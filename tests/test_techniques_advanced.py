"""Advanced technique finders: hand-made cases, and soundness on real puzzles.

- ``tests/data/techniques_advanced.txt``: one hand-made case per line (format in its header),
  with eliminations worked out by hand, including must-not-fire cases.
- Soundness: real puzzles (and random unique 6x6 puzzles) are solved with the full technique
  table; at every board where an advanced technique is needed, every advanced finder's first
  steps are checked against the exact solution (from ``xlsudoku.engine.solver``): no elimination may
  remove the solution's digit or a candidate that is not there, no placement may differ from
  the solution.  The puzzles come from ``tests/data/advanced_sample.txt`` and a sample of
  ``magictour_top1465_hodoku.tsv``; ``XLSUDOKU_SAMPLE=200 python -m pytest
  tests/test_techniques_advanced.py -q`` checks 200 of them (``all`` for the whole file).

The HoDoKu regression library cases for these techniques run in tests/test_reglib.py.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import TEST_DATA, sample_lines

from xlsudoku.engine.board import Board
from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.grid import CLASSIC, Geometry, Grid, geometry
from xlsudoku.engine.masks import mask_of
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques import TECHNIQUES
from xlsudoku.engine.techniques.chaining.aic import find_aic, find_x_chain, find_xy_chain
from xlsudoku.engine.techniques.chaining.human_forcing import find_forcing_chain
from xlsudoku.engine.techniques.coloring import find_simple_coloring
from xlsudoku.engine.techniques.single_digit import (
    find_empty_rectangle,
    find_skyscraper,
    find_two_string_kite,
)
from xlsudoku.engine.techniques.uniqueness import (
    find_bug_plus_1,
    find_unique_rectangle_1,
    find_unique_rectangle_2,
    find_unique_rectangle_3,
    find_unique_rectangle_4,
)
from xlsudoku.engine.techniques.wings import find_w_wing, find_xy_wing, find_xyz_wing

FINDERS = {
    Technique.SKYSCRAPER: find_skyscraper,
    Technique.TWO_STRING_KITE: find_two_string_kite,
    Technique.EMPTY_RECTANGLE: find_empty_rectangle,
    Technique.XY_WING: find_xy_wing,
    Technique.XYZ_WING: find_xyz_wing,
    Technique.W_WING: find_w_wing,
    Technique.UNIQUE_RECTANGLE_1: find_unique_rectangle_1,
    Technique.UNIQUE_RECTANGLE_2: find_unique_rectangle_2,
    Technique.UNIQUE_RECTANGLE_3: find_unique_rectangle_3,
    Technique.UNIQUE_RECTANGLE_4: find_unique_rectangle_4,
    Technique.BUG_PLUS_1: find_bug_plus_1,
    Technique.SIMPLE_COLORING: find_simple_coloring,
    Technique.X_CHAIN: find_x_chain,
    Technique.XY_CHAIN: find_xy_chain,
    Technique.AIC: find_aic,
    Technique.FORCING_CHAIN: find_forcing_chain,
}

_CELL = re.compile(r"r([1-9])c([1-9])")


def _cell(name: str) -> int:
    m = _CELL.fullmatch(name)
    assert m, f"bad cell name {name!r}"
    return CLASSIC.cell_at(int(m.group(1)) - 1, int(m.group(2)) - 1)


def _candidate(text: str) -> tuple[int, int]:
    """``5r3c2`` -> (cell, digit)."""
    return _cell(text[1:]), int(text[0])


def build_board(spec: str) -> Board:
    """Build a board from the case format of tests/data/techniques_advanced.txt."""
    items = spec.split()
    if len(items) == 1 and items[0].startswith("givens:"):
        return Board.from_grid(Grid.parse(items[0][len("givens:") :]))
    cands = [CLASSIC.all_digits] * 81
    fixed: dict[int, int] = {}
    for item in items:
        if "@" in item:
            digit_text, cells_text = item.split("@")
            bit = 1 << (int(digit_text) - 1)
            keep = {_cell(c) for c in cells_text.split(",")}
            cands = [m if i in keep else m & ~bit for i, m in enumerate(cands)]
        else:
            name, digits = item.split("=")
            fixed[_cell(name)] = mask_of(int(ch) for ch in digits)
    for cell, mask in fixed.items():
        cands[cell] = mask
    return Board.from_candidates((0,) * 81, tuple(cands))


@dataclass(frozen=True)
class Case:
    technique: Technique
    board: str
    mode: str  # first, some or none
    expected: frozenset[tuple[int, int]]
    line: int


def _load_cases(name: str = "techniques_advanced.txt") -> list[Case]:
    cases = []
    path = TEST_DATA / name
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        name, board, expect = (part.strip() for part in line.split("|"))
        mode, _, rest = expect.partition(":")
        assert mode in ("first", "some", "none"), f"line {number}: bad expectation {expect!r}"
        expected = frozenset(_candidate(t) for t in rest.split())
        cases.append(Case(Technique.parse(name), board, mode, expected, number))
    return cases


CASES = _load_cases()


def _eliminated(step: Step) -> frozenset[tuple[int, int]]:
    return frozenset((e.cell, e.digit) for e in step.eliminations)


@pytest.mark.parametrize(
    "case", CASES, ids=[f"line{c.line}-{c.technique.name}-{c.mode}" for c in CASES]
)
def test_hand_made_case(case: Case) -> None:
    check_hand_made(case, FINDERS[case.technique], build_board(case.board))


def check_hand_made(case: Case, find: Callable[[Board], Iterator[Step]], board: Board) -> None:
    """Run *find* on *board* and hold its steps to the expectation of *case*."""
    steps = []
    for step in find(board):
        steps.append(step)
        if len(steps) >= 500:
            break
    if case.mode == "none":
        assert not steps, f"expected no step, found: {steps[0].explanation}"
        return
    assert steps, "no step found"
    for step in steps:
        assert step.technique is case.technique
        assert _CELL.search(step.explanation), step.explanation
        for e in step.eliminations:
            assert board.has_candidate(e.cell, e.digit), f"{e} is not a candidate"
    if case.mode == "first":
        assert _eliminated(steps[0]) == case.expected, steps[0].explanation
    else:
        assert any(_eliminated(s) == case.expected for s in steps), [s.explanation for s in steps]


def test_every_technique_has_hand_made_cases() -> None:
    assert {c.technique for c in CASES} == set(FINDERS)


def test_registry_rows() -> None:
    specs = {spec.technique: spec for spec in TECHNIQUES}
    for technique in FINDERS:
        assert technique in specs, f"{technique.value} missing from the registry"
    chains = {Technique.X_CHAIN, Technique.XY_CHAIN, Technique.AIC, Technique.FORCING_CHAIN}
    for technique in FINDERS:
        level = specs[technique].level
        assert level == (Level.DIABOLICAL if technique in chains else Level.VERY_HARD)
    # chains come after the patterns they generalise
    assert specs[Technique.X_CHAIN].score > specs[Technique.SKYSCRAPER].score
    assert specs[Technique.XY_CHAIN].score > specs[Technique.XY_WING].score
    assert specs[Technique.FORCING_CHAIN].score > specs[Technique.AIC].score


# -- soundness on real puzzles ----------------------------------------------------------------

_ADVANCED = set(FINDERS)


def _check_sound(board: Board, solution: Grid, step: Step) -> None:
    geo = board.geometry
    for e in step.eliminations:
        assert board.has_candidate(e.cell, e.digit), f"not a candidate: {e} in {step.explanation}"
        assert solution[e.cell] != e.digit, (
            f"{step.technique.value} removes the solution's {e.digit} from "
            f"{geo.cell_name(e.cell)}: {step.explanation}"
        )
    for p in step.placements:
        assert not board.values[p.cell]
        assert solution[p.cell] == p.digit, f"wrong placement: {step.explanation}"


def _check_puzzle(
    text: str,
    steps_per_finder: int = 3,
    finders: dict[Technique, Callable[[Board], Iterator[Step]]] | None = None,
) -> set[Technique]:
    """Solve *text* with the full table; check every advanced finder wherever one is needed.

    *finders* (default: the advanced ones above) are checked at every board where a step of
    theirs or of an advanced technique is needed.  Return the techniques of *finders* that found
    a step at some checked board.
    """
    finders = FINDERS if finders is None else finders
    needed = _ADVANCED | set(finders)
    grid = Grid.parse(text)
    solution = solve(grid)
    assert solution is not None
    board = Board.from_grid(grid)
    fired: set[Technique] = set()
    while not board.is_solved:
        step = None
        for spec in TECHNIQUES:
            step = next(spec.find(board), None)
            if step is not None:
                break
        if step is None:
            break  # beyond technique: trial and error is not checked here
        _check_sound(board, solution, step)
        if step.technique in needed:
            for technique, find in finders.items():
                for i, other in enumerate(find(board)):
                    fired.add(technique)
                    _check_sound(board, solution, other)
                    if i + 1 >= steps_per_finder:
                        break
        board = board.apply(step)
    return fired


def _local_sample() -> list[str]:
    text = (TEST_DATA / "advanced_sample.txt").read_text(encoding="utf-8")
    return [ln.split("\t")[0] for ln in text.splitlines() if ln and not ln.startswith("#")]


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_sound_on_local_sample() -> None:
    fired: set[Technique] = set()
    for puzzle in _local_sample():
        fired |= _check_puzzle(puzzle)
    # the sample exercises every advanced finder on real boards, except the Skyscraper: one that
    # eliminates anything is also a sashimi finned X-Wing, found earlier in the solve order
    missing = _ADVANCED - {Technique.SKYSCRAPER} - fired
    assert not missing, sorted(t.value for t in missing)


@pytest.mark.slow
def test_sound_on_top1465_sample(shared_data) -> None:
    lines = (shared_data / "magictour_top1465_hodoku.tsv").read_text().splitlines()[1:]
    for line in sample_lines(lines, default=6, seed=41):
        _check_puzzle(line.split("\t")[0], steps_per_finder=2)


def _minimal_puzzle(seed: int, geo: Geometry) -> tuple[Grid, Grid]:
    """Return a random unique puzzle of *geo* (clues removed while unique) and its solution."""
    rng = random.Random(seed)
    solution = random_grid(rng, geo)
    cells = list(solution.cells)
    order = list(range(geo.cell_count))
    rng.shuffle(order)
    for cell in order:
        kept, cells[cell] = cells[cell], 0
        if count_solutions(Grid(tuple(cells), geo), 2) != 1:
            cells[cell] = kept
    return Grid(tuple(cells), geo), solution


@pytest.mark.parametrize("seed", range(3))
def test_sound_on_6x6(seed: int) -> None:
    puzzle, solution = _minimal_puzzle(seed, geometry(2, 3))
    assert solve(puzzle) == solution
    _check_puzzle(str(puzzle), steps_per_finder=2)


# -- grouped AIC (off in the table, HoDoKu's grouped nice loops and AICs) -----------------------


def test_grouped_aic_hand_made() -> None:
    # (1)r7c8=(1)r3c8 (column 8) - (1)r3c46 (row 3) = (1)r1c5 (box 2 holds 1 in rows 1 and 3
    # only): one of r7c8 and r1c5 is 1, so r7c5, which sees both, is not
    board = build_board("1@r7c8,r3c8,r3c4,r3c6,r1c5,r7c5,r1c2,r5c5")
    steps = list(find_aic(board, grouped=True))
    assert any(_eliminated(s) == {(_cell("r7c5"), 1)} for s in steps)
    grouped = next(s for s in steps if "r3c46" in s.explanation)
    assert set(grouped.cells) >= {_cell("r3c4"), _cell("r3c6")}


def test_grouped_aic_on_reglib(shared_data) -> None:
    from xlsudoku.bench.grading import parse_reglib_line

    known = {1247}  # HoDoKu's loop differs from the ones the shortest-first search finds
    text = (shared_data / "hodoku_reglib-1.3.txt").read_text(encoding="utf-8").splitlines()
    passed = total = 0
    for number, line in enumerate(text, start=1):
        case = parse_reglib_line(line, number)
        if case is None or f"{case.code}-{case.variant}" not in GROUPED_CODES:
            continue
        total += 1
        steps = itertools.islice(find_aic(case.board, grouped=True), 2000)
        if any(_eliminated(s) == case.eliminations for s in steps):
            passed += 1
            assert number not in known, f"line {number} passes now: update the test"
        else:
            assert number in known, f"reglib line {number}: no grouped AIC step matches"
    assert total == 50 and passed == total - len(known)


GROUPED_CODES = {"0709-1", "0710-1", "0710-2", "0711-1", "0711-2"}


def test_bench_techniques_counts_every_step() -> None:
    from xlsudoku.bench.techniques import report, time_finders

    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    timings, per_puzzle = time_finders([easy])
    singles = {Technique.FULL_HOUSE, Technique.HIDDEN_SINGLE, Technique.NAKED_SINGLE}
    assert sum(t.used for t in timings if t.technique in singles) == easy.count(".")
    assert all(t.calls >= t.used for t in timings) and len(per_puzzle) == 1
    assert "1 puzzles, seed 3" in report("easy", 3, timings, per_puzzle)


def test_bench_techniques_names_the_file_not_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import bench_args

    from xlsudoku.bench.techniques import run_techniques

    sample = Path(__file__).parent / "data" / "se_rated_sample.tsv"
    assert run_techniques(bench_args("techniques", str(sample), "--limit", "2", "--seed", "1")) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("techniques on se_rated_sample.tsv: 2 puzzles, seed 1, ")
    assert str(sample.parent) not in first
