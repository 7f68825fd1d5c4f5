"""HoDoKu's regression library run against our technique finders (the shared harness).

Every reglib line whose HoDoKu code maps to one of our techniques (``HODOKU_CODES`` in
engine/bench_grading.py) is a case: the finder of that technique must yield a step with exactly
the listed eliminations / placements (``x`` variants: must not find them).  Codes without a
counterpart skip with the reason; techniques without a finder yet skip as "missing".

Known failures are listed in tests/data/reglib_known_failures.tsv (line number, reason) and
run as strict xfails, so a fix shows up as an unexpected pass.

The full library: ``XLSUDOKU_SAMPLE=all python -m pytest tests/test_reglib.py -q``
(the default samples 600 lines); the per-technique summary: ``xlsudoku bench reglib``.
"""

from __future__ import annotations

import pytest
from conftest import SHARED_DATA, TEST_DATA, sample_lines

from xlsudoku.bench.grading import ReglibCase, check_case, parse_reglib_line

REGLIB = SHARED_DATA / "hodoku_reglib-1.3.txt"


def _known_failures() -> dict[int, str]:
    path = TEST_DATA / "reglib_known_failures.tsv"
    known: dict[int, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                number, _, reason = line.partition("\t")
                known[int(number)] = reason
    return known


def _cases(lines: list[tuple[int, str]], prefix: str) -> list[object]:
    known = _known_failures() if prefix == "reglib" else {}
    params = []
    for number, line in lines:
        case = parse_reglib_line(line, number)
        if case is None:
            continue
        marks = []
        if number in known:
            marks.append(pytest.mark.xfail(reason=known[number], strict=True))
        params.append(
            pytest.param(case, id=f"{prefix}{number}-{case.code}-{case.variant}", marks=marks)
        )
    return params


def _numbered(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


_FULL = _numbered(REGLIB.read_text(encoding="utf-8")) if REGLIB.exists() else []
_FULL_CASES = [(n, ln) for n, ln in _FULL if ln.startswith(":")]
_SAMPLED = sorted(
    sample_lines([f"{n}\t{ln}" for n, ln in _FULL_CASES], default=200),
    key=lambda s: int(s.split("\t")[0]),
)


def _run(case: ReglibCase) -> None:
    status, detail = check_case(case)
    if status in ("skip", "missing"):
        pytest.skip(detail)
    assert status == "pass", f"line {case.line_number} {case.text}\n{detail}"


@pytest.mark.parametrize(
    "case",
    _cases([(int(s.split("\t")[0]), s.split("\t", 1)[1]) for s in _SAMPLED], "reglib"),
)
def test_reglib_case(case: ReglibCase) -> None:
    _run(case)


@pytest.mark.parametrize(
    "case",
    _cases(_numbered((TEST_DATA / "reglib_sample.txt").read_text(encoding="utf-8")), "sample"),
)
def test_reglib_sample_case(case: ReglibCase) -> None:
    _run(case)


def test_reglib_file_present_when_shared_data_is(shared_data) -> None:
    assert len(_FULL_CASES) > 1000, "hodoku_reglib-1.3.txt looks truncated"


# -- HoDoKu's exemplar library: each puzzle needs its labelled technique or a harder one -------

# HoDoKu's solve-order index of each labelled code (HoDoKu 2.2 default options).  Codes that
# map onto a broader technique of ours keep HoDoKu's own place: a locked pair or triple comes
# before pointing, a turbot fish among the single-digit patterns, remote pairs before them.
OWN_INDEX = {"0110": 1000, "0111": 1100, "0403": 3120, "0703": 2800}
EXEMPLARS = SHARED_DATA / "hodoku_exemplars_techniques.tsv"


def _exemplar_rows() -> list[list[str]]:
    if not EXEMPLARS.exists():
        return []
    lines = EXEMPLARS.read_text(encoding="utf-8").splitlines()[1:]
    return [ln.split("\t") for ln in sample_lines(lines, 120)]


@pytest.mark.slow
def test_exemplars_need_their_technique_or_a_harder_one(shared_data):
    from xlsudoku.bench.grading import HODOKU_CODES
    from xlsudoku.bench.hodoku import HODOKU_STEPS, hodoku_table
    from xlsudoku.engine.grid import Grid
    from xlsudoku.engine.logic import solve_path
    from xlsudoku.engine.steps import Technique

    table = hodoku_table()
    checked = passed = 0
    failures = []
    for puzzle, code, name, *_ in _exemplar_rows():
        technique = HODOKU_CODES.get(code)
        if not isinstance(technique, Technique) or technique not in HODOKU_STEPS:
            continue
        wanted = OWN_INDEX.get(code, HODOKU_STEPS[technique][0])
        path = solve_path(Grid.parse(puzzle), table)
        checked += 1
        if any(HODOKU_STEPS[s.technique][0] >= wanted for s in path.steps):
            passed += 1
        else:
            failures.append(f"{name}: {puzzle}")
    assert checked >= 60
    assert passed >= 0.9 * checked, "\n".join(failures)
