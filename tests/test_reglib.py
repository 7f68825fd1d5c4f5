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

from engine.bench_grading import ReglibCase, check_case, parse_reglib_line

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
    sample_lines([f"{n}\t{ln}" for n, ln in _FULL_CASES], default=600),
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
