"""Low-clue search: unique (independent counter), symmetric, fixed cells kept, exhaustive, bounded.

The uniqueness oracle here is ``independent_count`` from ``test_unavoidable`` (plain
backtracking, no code shared with ``engine.solver``).  Exhaustiveness is checked against brute
force over every symmetric clue set of small grids, and on the 9x9 grids of known low-clue
puzzles (the search must reach their clue count).
"""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

import pytest
from test_unavoidable import independent_count

from xlsudoku.engine.fill import random_grid
from xlsudoku.engine.generate.clock import WORK_TICKS
from xlsudoku.engine.generate.low_givens import Clock, LowGivensError, OrbitSpace, descend
from xlsudoku.engine.generate.lowsearch import Found, LowSearch, Task
from xlsudoku.engine.generate.neighbours import KINDS, _plan, neighbours
from xlsudoku.engine.grid import CLASSIC, Geometry, Grid, geometry
from xlsudoku.engine.solver import count_solutions, solve
from xlsudoku.engine.symmetry import Symmetry, is_symmetric, orbits

DATA = Path(__file__).resolve().parent / "data"
CENTER_BOX = frozenset(r * 9 + c for r in range(3, 6) for c in range(3, 6))
NONE: frozenset[int] = frozenset()


def check_puzzle(
    puzzle: Grid,
    solution: Grid,
    symmetry: Symmetry,
    fixed_given: frozenset[int] = NONE,
    fixed_blank: frozenset[int] = NONE,
) -> None:
    """Assert the invariants of every low-clue result."""
    assert puzzle.geometry == solution.geometry
    assert all(d in (0, s) for d, s in zip(puzzle.cells, solution.cells, strict=True))
    assert is_symmetric(puzzle, symmetry)
    assert all(puzzle[c] for c in fixed_given)
    assert not any(puzzle[c] for c in fixed_blank)
    assert independent_count(puzzle) == 1


def brute_force_minimum(
    solution: Grid, symmetry: Symmetry, fixed_given: frozenset[int], fixed_blank: frozenset[int]
) -> int:
    """Return the fewest clues of a unique symmetric puzzle of *solution*, trying every set."""
    orbs = orbits(symmetry, solution.geometry)
    forced = [o for o in orbs if set(o) & fixed_given]
    free = [o for o in orbs if not set(o) & (fixed_given | fixed_blank)]
    best = solution.geometry.cell_count
    for k in range(len(free) + 1):
        for chosen in itertools.combinations(free, k):
            cells = {c for o in forced + list(chosen) for c in o}
            if len(cells) >= best:
                continue
            puzzle = Grid(
                tuple(d if c in cells else 0 for c, d in enumerate(solution.cells)),
                solution.geometry,
            )
            if independent_count(puzzle) == 1:
                best = len(cells)
    return best


SMALL = [(geometry(2, 2), Symmetry.ROTATE_180, seed, NONE, NONE) for seed in (1, 2, 3, 4, 5, 6)] + [
    (geometry(2, 2), Symmetry.NONE, 7, NONE, NONE),
    (geometry(2, 2), Symmetry.DIAGONAL, 8, NONE, NONE),
    (geometry(2, 2), Symmetry.ROTATE_180, 9, frozenset({0, 15}), NONE),
    (geometry(2, 2), Symmetry.ROTATE_180, 10, NONE, frozenset({5, 10})),
    (geometry(2, 3), Symmetry.ROTATE_90, 11, NONE, NONE),
    (geometry(2, 3), Symmetry.DIHEDRAL, 12, NONE, NONE),
    (geometry(2, 3), Symmetry.HORIZONTAL, 13, NONE, NONE),
]


@pytest.mark.parametrize(
    ("geo", "symmetry", "seed", "fixed_given", "fixed_blank"),
    SMALL,
    ids=[f"{g.name}-{s.value}-{seed}" for g, s, seed, _, _ in SMALL],
)
def test_descend_reaches_the_true_minimum_and_no_lower(
    geo: Geometry,
    symmetry: Symmetry,
    seed: int,
    fixed_given: frozenset[int],
    fixed_blank: frozenset[int],
) -> None:
    solution = random_grid(random.Random(seed), geo)
    start = Grid(tuple(0 if c in fixed_blank else d for c, d in enumerate(solution.cells)), geo)
    low = brute_force_minimum(solution, symmetry, fixed_given, fixed_blank)
    found = descend(solution, start, low, symmetry, fixed_given, fixed_blank, random.Random(seed))
    check_puzzle(found, solution, symmetry, fixed_given, fixed_blank)
    assert found.given_count == low
    # one clue fewer does not exist, so the search gives the start back
    below = descend(
        solution, start, low - 1, symmetry, fixed_given, fixed_blank, random.Random(seed)
    )
    assert below == start


def _low_clue_rows() -> list[tuple[Grid, int]]:
    rows = []
    for line in (DATA / "lowclue_symmetric_sample.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, clues, _ = line.split("\t")
            rows.append((Grid.parse(puzzle), int(clues)))
    return rows


@pytest.mark.parametrize(("known", "clues"), _low_clue_rows(), ids=lambda v: str(v))
def test_descend_reaches_the_clue_count_of_a_known_puzzle(known: Grid, clues: int) -> None:
    solution = solve(known)
    assert solution is not None
    found = descend(solution, solution, clues, Symmetry.ROTATE_180, NONE, NONE, random.Random(1))
    check_puzzle(found, solution, Symmetry.ROTATE_180)
    assert found.given_count == clues


PATTERNS = [
    # (fixed open cells of the center box, row-major within it)
    frozenset({30, 32, 40, 48, 50}),
    frozenset({31, 39, 41, 49}),
    frozenset({40}),
    frozenset(),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("pattern", PATTERNS, ids=["x5", "plus4", "center", "empty"])
def test_descend_keeps_the_pattern_and_pads_to_the_target(
    seed: int, pattern: frozenset[int]
) -> None:
    rng = random.Random(seed)
    solution = random_grid(rng)
    fixed_blank = CENTER_BOX - pattern
    start = Grid(tuple(0 if c in fixed_blank else d for c, d in enumerate(solution.cells)))
    target = 26 + len(pattern) % 2
    found = descend(solution, start, target, Symmetry.ROTATE_180, pattern, fixed_blank, rng)
    check_puzzle(found, solution, Symmetry.ROTATE_180, pattern, fixed_blank)
    assert found.given_count == target


@pytest.mark.parametrize("symmetry", [Symmetry.ROTATE_90, Symmetry.DIAGONAL, Symmetry.NONE])
def test_descend_on_other_symmetries(symmetry: Symmetry) -> None:
    rng = random.Random(4)
    solution = random_grid(rng)
    target = {Symmetry.ROTATE_90: 33, Symmetry.DIAGONAL: 27, Symmetry.NONE: 25}[symmetry]
    found = descend(solution, solution, target, symmetry, NONE, NONE, rng)
    check_puzzle(found, solution, symmetry)
    assert found.given_count == target


def test_descend_is_deterministic_for_a_seed() -> None:
    solution = random_grid(random.Random(5))
    runs = [
        descend(solution, solution, 23, Symmetry.ROTATE_180, NONE, NONE, random.Random(9))
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    check_puzzle(runs[0], solution, Symmetry.ROTATE_180)


def test_descend_gives_the_start_back_when_already_low_enough() -> None:
    known, clues = _low_clue_rows()[0]
    solution = solve(known)
    assert solution is not None
    assert (
        descend(solution, known, clues + 2, Symmetry.ROTATE_180, NONE, NONE, random.Random(1))
        == known
    )


def test_descend_honours_a_past_deadline_and_cancel() -> None:
    solution = random_grid(random.Random(6))
    start = solution
    rng = random.Random(1)
    past = time.perf_counter() - 1.0
    found = descend(solution, start, 19, Symmetry.ROTATE_180, NONE, NONE, rng, deadline=past)
    assert found == start
    polls = []

    def cancel() -> bool:
        polls.append(1)
        return len(polls) >= 3

    found = descend(solution, start, 17, Symmetry.ROTATE_180, NONE, NONE, rng, cancel=cancel)
    assert found == start
    assert len(polls) == 3


def test_descend_reports_progress() -> None:
    solution = random_grid(random.Random(7))
    seen: list[int] = []
    found = descend(
        solution,
        solution,
        24,
        Symmetry.ROTATE_180,
        NONE,
        NONE,
        random.Random(2),
        progress=seen.append,
    )
    assert seen == [found.given_count] == [24]


def _corrupt(solution: Grid, cell: int) -> Grid:
    cells = list(solution.cells)
    cells[cell] = cells[cell] % 9 + 1
    return Grid(tuple(cells))


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("not_subset", "start gives .* at r1c1, the solution has"),
        ("not_symmetric", "start is not rotate180-symmetric: orbit r1c1, r9c9"),
        ("open_blank", "fixed_given cell r5c5 is blank in start"),
        ("blank_open", "fixed_blank cell r5c4 is a clue in start"),
        ("both", "fixed_given and fixed_blank meet in the rotate180 orbit r5c4, r5c6"),
        ("not_unique", "start has more than one solution"),
        ("bad_solution", "not complete: r1c1 is empty"),
        ("outside", "fixed_given: cell 81 is outside the 9x9 grid"),
    ],
)
def test_descend_errors_name_the_place(case: str, message: str) -> None:
    solution = random_grid(random.Random(8))
    start = solution
    fixed_given: frozenset[int] = NONE
    fixed_blank: frozenset[int] = NONE
    if case == "not_subset":
        start = _corrupt(solution, 0)
    elif case == "not_symmetric":
        start = Grid((0,) + solution.cells[1:])
    elif case == "open_blank":
        start = Grid(tuple(0 if c == 40 else d for c, d in enumerate(solution.cells)))
        fixed_given = frozenset({40})
    elif case == "blank_open":
        fixed_blank = frozenset({39, 41})
    elif case == "both":
        start = Grid(tuple(0 if c in (39, 41) else d for c, d in enumerate(solution.cells)))
        fixed_given, fixed_blank = frozenset({39}), frozenset({41})
    elif case == "not_unique":
        start = Grid.empty()
    elif case == "bad_solution":
        solution = Grid((0,) + solution.cells[1:])
    elif case == "outside":
        fixed_given = frozenset({81})
    with pytest.raises(LowGivensError, match=message):
        descend(
            solution, start, 20, Symmetry.ROTATE_180, fixed_given, fixed_blank, random.Random(1)
        )


def _search(target: int, seed: int, max_grids: int, **fixed: frozenset[int]) -> LowSearch:
    task = Task(
        target,
        Symmetry.ROTATE_180,
        fixed.get("fixed_given", NONE),
        fixed.get("fixed_blank", NONE),
        max_grids,
    )
    return LowSearch(task, random.Random(seed), Clock(None, None))


def test_low_search_reaches_a_target_with_records() -> None:
    records: list[Found] = []
    search = _search(22, 3, 20)
    search.on_record = records.append
    assert search.run() == "reached"
    best = search.best
    assert best is not None and best.givens == 22 == best.puzzle.given_count
    check_puzzle(best.puzzle, best.solution, Symmetry.ROTATE_180)
    clues = [r.givens for r in records]
    assert clues == sorted(clues, reverse=True) and len(set(clues)) == len(clues)
    assert records[-1] == best
    assert [r.seconds for r in records] == sorted(r.seconds for r in records)
    assert {r.source for r in records} <= {"grid", "neighbour"}


def test_low_search_is_deterministic_for_a_seed() -> None:
    a, b = _search(23, 11, 3), _search(23, 11, 3)
    assert a.run() == b.run()
    assert a.best is not None and b.best is not None
    assert a.best.puzzle == b.best.puzzle and a.grids == b.grids


def test_low_search_with_a_pattern_keeps_it() -> None:
    pattern = frozenset({30, 32, 40, 48, 50})
    search = _search(23, 12, 10, fixed_given=pattern, fixed_blank=CENTER_BOX - pattern)
    search.run()
    assert search.best is not None
    best = search.best
    check_puzzle(best.puzzle, best.solution, Symmetry.ROTATE_180, pattern, CENTER_BOX - pattern)
    assert best.givens % 2 == 1


@pytest.mark.parametrize(
    ("pattern", "seed"),
    [(frozenset({30, 32, 40, 48, 50}), 401), (frozenset({31, 39, 40, 41, 49}), 401)],
    ids=["saltire", "cross"],
)
def test_low_search_lowers_a_pattern_with_pairs_only(pattern: frozenset[int], seed: int) -> None:
    # a pattern fixes the center cell, so every orbit left is a pair: the move that lowers a
    # puzzle (blank two pairs, give one) must come first, not after every equal move of the
    # pool (then 21 took minutes to never; now a few thousand checks): ten work units, counted
    # and not timed, are plenty
    task = Task(21, Symmetry.ROTATE_180, pattern, CENTER_BOX - pattern)
    search = LowSearch(task, random.Random(seed), Clock(work=10 * WORK_TICKS))
    assert search.run() == "reached", f"best {search.best and search.best.givens}"
    best = search.best
    assert best is not None and best.givens == 21
    check_puzzle(best.puzzle, best.solution, Symmetry.ROTATE_180, pattern, CENTER_BOX - pattern)


def test_low_search_stops_at_the_deadline_and_on_cancel() -> None:
    task = Task(17, Symmetry.ROTATE_180, NONE, NONE)
    search = LowSearch(task, random.Random(13), Clock(time.perf_counter() + 0.5, None))
    assert search.run() == "time"
    if search.best is not None:
        check_puzzle(search.best.puzzle, search.best.solution, Symmetry.ROTATE_180)
    polls = []

    def cancel() -> bool:
        polls.append(1)
        return len(polls) > 40

    search = LowSearch(task, random.Random(13), Clock(None, cancel))
    assert search.run() == "cancel" and len(polls) == 41


def test_a_stuck_low_search_gives_the_pool_spares(monkeypatch: pytest.MonkeyPatch) -> None:
    # stuck at a 19 (the sample's): a fresh grid with nothing as low gives a spare one or two
    # opens above, whose lowering moves only are tried; every puzzle met stays valid
    from xlsudoku.engine.generate import lowsearch

    known = next(p for p, clues in _low_clue_rows() if clues == 19)
    solution = solve(known)
    assert solution is not None
    monkeypatch.setattr(lowsearch, "STUCK_TICKS", 1)
    records: list[Found] = []
    search = _search(17, 3, 0)  # its first grid has a 21: most grids have none at 21 or less
    search.on_record = records.append
    search.record(known, solution, "grid")
    search.explore()  # the record's first turn: it stays at stage 0
    search.clock.tick(2)
    assert search.stuck
    search.fresh()
    spares = [(number, cells) for _, _, number, cells in search.pool if number in search.spares]
    assert len(spares) == 1 and Grid(spares[0][1]).given_count - 19 in (1, 2)
    while spares[0][0] in search.spares and search.level == 19:
        search.explore()
    assert all(number != spares[0][0] for _, _, number, _ in search.pool)  # stage 0 only
    for found in records:
        check_puzzle(found.puzzle, found.solution, Symmetry.ROTATE_180)


def test_low_search_on_a_small_geometry_stops_after_its_grids() -> None:
    task = Task(3, Symmetry.ROTATE_180, NONE, NONE, 4, geometry(2, 2))
    search = LowSearch(task, random.Random(14), Clock(None, None))
    assert search.run() == "trials" and search.grids == 4
    assert search.best is not None
    check_puzzle(search.best.puzzle, search.best.solution, Symmetry.ROTATE_180)
    assert search.best.givens >= 4  # no 4x4 puzzle has fewer than 4 clues


def test_low_search_rejects_conflicting_fixed_cells() -> None:
    with pytest.raises(LowGivensError, match="meet in the rotate180 orbit r1c1, r9c9"):
        _search(20, 1, 1, fixed_given=frozenset({0}), fixed_blank=frozenset({80}))


def test_a_neighbour_below_the_target_is_padded_to_it() -> None:
    # a 19 met while aiming at 20 (no pattern): the centre cannot be given back, a pair can't
    # make one clue, so it is dropped; aiming at 21 it gets a pair back
    known = next(p for p, clues in _low_clue_rows() if clues == 19)
    solution = solve(known)
    assert solution is not None
    for target, kept_as in ((20, None), (21, 21)):
        search = _search(target, 1, 0)
        search.found_lower(known.cells)
        if kept_as is None:
            assert search.best is None
        else:
            assert search.best is not None and search.best.givens == kept_as
            check_puzzle(search.best.puzzle, solution, Symmetry.ROTATE_180)
            assert all(
                d in (0, k) for d, k in zip(known.cells, search.best.puzzle.cells, strict=True)
            )


@pytest.mark.parametrize("stage", [0, 1])
def test_neighbour_moves_give_unique_symmetric_puzzles(stage: int) -> None:
    # the third 21-clue puzzle of the sample has 20-clue neighbours (found by this search)
    known = [p for p, clues in _low_clue_rows() if clues == 21][2]
    space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, NONE, NONE, random.Random(0))
    moves = neighbours(space, known.cells, stage, Clock())
    found = list(itertools.islice(((n, cells) for n, cells in moves if cells), 4))
    assert found, "a 21-clue puzzle has neighbours"
    for clues, cells in found:
        puzzle = Grid(cells)
        solution = solve(puzzle)
        assert solution is not None
        check_puzzle(puzzle, solution, Symmetry.ROTATE_180)
        assert puzzle.given_count == clues
        assert clues < 21 if stage == 0 else clues == 21
        changed = sum(1 for a, b in zip(puzzle.cells, known.cells, strict=True) if a != b)
        assert changed <= 6  # two orbits blanked and one given at most


@pytest.mark.slow  # a long data run: `pytest -m slow` (CI runs it)
def test_the_head_and_tail_of_a_kind_of_moves_give_every_unique_neighbour() -> None:
    # stages 0 and KINDS (the ranked head and the rest of the lowering moves) against every
    # digit choice of every blanking, each counted from scratch
    known = [p for p, clues in _low_clue_rows() if clues == 21][2]
    space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, NONE, NONE, random.Random(0))
    cells = known.cells
    found = [c for stage in (0, KINDS) for _, c in neighbours(space, cells, stage, Clock()) if c]
    every: set[tuple[int, ...]] = set()
    for removed, weight, same in _plan(space, cells, 0):
        base = list(cells)
        for r in removed:
            for c in space.orbits[r]:
                base[c] = 0
        for x, orbit in enumerate(space.orbits):
            lighter = space.weight[x] == weight if same else space.weight[x] < weight
            if base[orbit[0]] or not lighter:
                continue
            for digits in itertools.product(range(1, 10), repeat=len(orbit)):
                trial = base[:]
                for c, d in zip(orbit, digits, strict=True):
                    trial[c] = d
                if tuple(trial) != cells and count_solutions(trial, 2, geometry=CLASSIC) == 1:
                    every.add(tuple(trial))
    assert len(found) == len(set(found)) and set(found) == every and len(every) == 4


def test_neighbour_moves_keep_the_fixed_cells() -> None:
    known = [p for p, clues in _low_clue_rows() if clues == 22][1]
    fixed_given = frozenset(c for c in CENTER_BOX if known[c])
    fixed_blank = CENTER_BOX - fixed_given
    space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, fixed_given, fixed_blank, random.Random(0))
    moves = (cells for _, cells in neighbours(space, known.cells, 1, Clock()) if cells)
    found = list(itertools.islice(moves, 6))
    assert found
    for cells in found:
        assert all(cells[c] == known[c] for c in CENTER_BOX)


def test_bench_reach_runs_generate_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The benchmark command runs (shape only, never speed): reach, lowest and floors."""
    from conftest import bench_args

    from xlsudoku.bench.lowclue import run

    def run_reach(argv: list[str]) -> int:
        return run(bench_args("reach", *argv))

    assert run_reach(["--targets", "24,23", "--seeds", "1", "--seconds", "10"]) == 0
    out = capsys.readouterr().out
    assert "time to reach [24, 23] opens, 9x9, pattern none, rotate180, seeds 1..1" in out
    assert "23 opens: reached 1/1 seeds; median " in out and out.rstrip().splitlines()[
        -1
    ].startswith("end: load average")
    assert run_reach(["--lowest", "--pattern", "10", "--seeds", "1", "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "check: unique True, symmetric True, subset of the solution True" in out
    argv = ["--floors", "--patterns", "10,11", "--symmetries", "rotate90", "--seeds", "1"]
    assert run_reach([*argv, "--seconds", "0.5"]) == 0
    out = capsys.readouterr().out
    assert (
        "rotate90     pattern 10    (9 open): fewest " in out and "old macro 23, goal <= 21" in out
    )
    assert "pattern 11    skipped: pattern: " in out
    # a work budget: the same figures of opens on every run
    argv = ["--targets", "24,23", "--seeds", "1", "--seconds", "0.5", "--clock", "work"]
    lines = []
    for _ in range(2):
        assert run_reach(argv) == 0
        out = capsys.readouterr().out
        assert "0.5 s work each" in out
        lines.append(next(line for line in out.splitlines() if line.startswith("seed 1:")))
    assert lines[0].split(",")[0] == lines[1].split(",")[0]  # "seed 1: fewest N opens"
    # another shape: the request is made on it, its goal named; 9x9-only modes refused
    argv = ["--geometry", "16x16", "--targets", "150,120", "--seeds", "1", "--seconds", "5"]
    assert run_reach(argv) == 0
    out = capsys.readouterr().out
    assert "time to reach [150, 120] opens, 16x16, pattern none" in out
    assert "120 opens: reached 1/1 seeds" in out and "goal" not in out
    fewest = int(next(x for x in out.splitlines() if x.startswith("seed 1:")).split()[3])
    assert fewest <= 120  # 9x9 has 81 cells: only a 16x16 run can stop at 120 or fewer
    assert run_reach(["--geometry", "16x16", "--floors", "--seeds", "1"]) == 2
    assert "--floors and --qqwing are 9x9 only" in capsys.readouterr().err


def test_bench_reach_runs_qqwing_alone_when_installed(capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from conftest import bench_args

    from xlsudoku.bench.lowclue import run

    if shutil.which("qqwing") is None:
        pytest.skip("qqwing is not installed (apt-get install qqwing)")
    assert (
        run(bench_args("reach", "--seeds", "0", "--qqwing", "0.2", "--symmetry", "vertical")) == 0
    )
    out = capsys.readouterr().out
    assert "qqwing --generate 200 --symmetry mirror --one-line, repeated for " in out
    assert "(unique True, vertical True)" in out


def test_a_new_best_keeps_the_puzzles_one_open_above_as_the_reserve() -> None:
    # a pool of 21s (the sample's) and a spare (a 22); a 20 met by a neighbour move of one of
    # them is the new best: the 21s stay (tier 1) after it, the spare goes; the reserve's walk
    # goes on (its equal neighbours join it) while the pool's 20s come first at each step
    twenty_ones = [p for p, clues in _low_clue_rows() if clues == 21]
    space = OrbitSpace(CLASSIC, Symmetry.ROTATE_180, NONE, NONE, random.Random(0))
    lower = next(c for n, c in neighbours(space, twenty_ones[2].cells, 0, Clock()) if c)
    assert Grid(lower).given_count == 20
    search = _search(17, 3, 0)
    first = solve(twenty_ones[0])
    assert first is not None
    search.record(twenty_ones[0], first, "grid")
    for puzzle in twenty_ones[1:]:
        assert search.add_to_pool(puzzle.cells)
    spare = next(p for p, clues in _low_clue_rows() if clues == 22)
    assert search.add_to_pool(spare.cells, spare=True)
    search.found_lower(lower)
    assert search.level == 20
    assert search.pool[0][1:] == (0, -search.numbered, lower)
    assert sorted(cells for _, tier, _, cells in search.pool if tier == 1) == sorted(
        p.cells for p in twenty_ones
    )
    assert len(search.pool) == 6 and not search.spares and not search.stuck
    # with no puzzle as good left (the 20 dropped here), the search is stuck and the reserve
    # goes on with its equal moves (step 1)
    search.pool = [(1, 1, number, cells) for _, tier, number, cells in search.pool if tier == 1]
    assert search.stuck
    before = {p.cells for p in twenty_ones}
    for _ in range(40):
        if search.level < 20 or any(c not in before for _, t, _, c in search.pool if t == 1):
            break
        search.explore()
    grown = [c for _, tier, _, c in search.pool if tier == 1 and c not in before]
    assert search.level < 20 or grown, "the reserve's walk found no equal neighbour"
    for _, tier, _, cells in search.pool:
        assert Grid(cells).given_count == search.level + tier
    for cells in grown[:3]:
        solution = solve(Grid(cells))
        assert solution is not None
        check_puzzle(Grid(cells), solution, Symmetry.ROTATE_180)
