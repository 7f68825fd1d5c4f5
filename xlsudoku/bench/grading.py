"""Evaluation of the human-style solver against external data: HoDoKu's regression library.

HoDoKu's reglib (``hodoku_reglib-1.3.txt``) has one technique case per line::

    :<code>[-<variant>]:<digits>:<givens, '+' placed>:<deleted>:<eliminations>:<placements>:<extra>

Candidates, eliminations and placements are written ``<digit><row><col>`` separated by blanks.
A variant ``x`` is a fail case: the technique must not find those eliminations.  This module
parses the lines, builds the candidate board, runs the finder of the mapped technique and checks
that some step it yields has exactly the expected eliminations and placements.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from xlsudoku.bench.common import load_note
from xlsudoku.engine.board import Board
from xlsudoku.engine.grid import CLASSIC, Grid, ParseError
from xlsudoku.engine.steps import Step, Technique
from xlsudoku.engine.techniques import EXTENDED_TECHNIQUES, FULL_FINDERS, TechniqueSpec

# HoDoKu technique code -> our technique (None: no counterpart, skipped with the reason given).
# Several HoDoKu names share one of our techniques: a locked pair is a naked pair inside a
# box-line intersection, sashimi fish are finned fish whose base cell is missing, colour traps
# and wraps are both simple colouring, and nice loops are alternating inference chains.
HODOKU_CODES: dict[str, Technique | str] = {
    "0000": Technique.FULL_HOUSE,
    "0002": Technique.HIDDEN_SINGLE,
    "0003": Technique.NAKED_SINGLE,
    "0100": Technique.POINTING,
    "0101": Technique.CLAIMING,
    "0110": Technique.NAKED_PAIR,
    "0111": Technique.NAKED_TRIPLE,
    "0200": Technique.NAKED_PAIR,
    "0201": Technique.NAKED_TRIPLE,
    "0202": Technique.NAKED_QUAD,
    "0210": Technique.HIDDEN_PAIR,
    "0211": Technique.HIDDEN_TRIPLE,
    "0212": Technique.HIDDEN_QUAD,
    "0300": Technique.X_WING,
    "0301": Technique.SWORDFISH,
    "0302": Technique.JELLYFISH,
    "0310": Technique.FINNED_X_WING,
    "0311": Technique.FINNED_SWORDFISH,
    "0312": Technique.FINNED_JELLYFISH,
    "0320": Technique.FINNED_X_WING,
    "0321": Technique.FINNED_SWORDFISH,
    "0322": Technique.FINNED_JELLYFISH,
    "03111": Technique.FINNED_SWORDFISH,  # Siamese: see SIAMESE_CODES
    "03121": Technique.FINNED_JELLYFISH,
    "03211": Technique.FINNED_SWORDFISH,
    "03221": Technique.FINNED_JELLYFISH,
    "0330": Technique.FRANKEN_FISH,
    "0331": Technique.FRANKEN_FISH,
    "0332": Technique.FRANKEN_FISH,
    "0340": Technique.FINNED_FRANKEN_FISH,
    "0341": Technique.FINNED_FRANKEN_FISH,
    "03411": Technique.FINNED_FRANKEN_FISH,
    "0342": Technique.FINNED_FRANKEN_FISH,
    "03421": Technique.FINNED_FRANKEN_FISH,
    "0362": Technique.FINNED_MUTANT_FISH,
    "03621": Technique.FINNED_MUTANT_FISH,
    "0363": Technique.FINNED_MUTANT_FISH,
    "0364": Technique.FINNED_MUTANT_FISH,
    "0400": Technique.SKYSCRAPER,
    "0401": Technique.TWO_STRING_KITE,
    "0402": Technique.EMPTY_RECTANGLE,
    "0403": Technique.X_CHAIN,
    "0404": Technique.TWO_STRING_KITE,  # dual kites are yielded as one step first
    "0405": Technique.EMPTY_RECTANGLE,  # dual empty rectangles likewise
    "0500": Technique.SIMPLE_COLORING,
    "0501": Technique.SIMPLE_COLORING,
    "0502": Technique.MULTI_COLORING,
    "0503": Technique.MULTI_COLORING,
    "0600": Technique.UNIQUE_RECTANGLE_1,
    "0601": Technique.UNIQUE_RECTANGLE_2,
    "0602": Technique.UNIQUE_RECTANGLE_3,
    "0603": Technique.UNIQUE_RECTANGLE_4,
    "0604": Technique.UNIQUE_RECTANGLE_5,
    "0605": Technique.UNIQUE_RECTANGLE_6,
    "0606": Technique.HIDDEN_RECTANGLE,
    "0607": Technique.AVOIDABLE_RECTANGLE_1,
    "0608": Technique.AVOIDABLE_RECTANGLE_2,
    "0610": Technique.BUG_PLUS_1,
    "0701": Technique.X_CHAIN,
    "0702": Technique.XY_CHAIN,
    "0703": Technique.XY_CHAIN,  # remote pairs are found by the XY-Chain finder
    "0706": Technique.AIC,
    "0707": Technique.AIC,
    "0708": Technique.AIC,
    "0709": Technique.GROUPED_AIC,
    "0709-2": Technique.ALS_AIC,
    "0710": Technique.GROUPED_AIC,
    "0710-3": Technique.ALS_AIC,
    "0710-4": Technique.ALS_AIC,
    "0711": Technique.GROUPED_AIC,
    "0711-3": Technique.ALS_AIC,
    "0711-4": Technique.ALS_AIC,
    "0800": Technique.XY_WING,
    "0801": Technique.XYZ_WING,
    "0802": Technique.WXYZ_WING,
    "0803": Technique.W_WING,
    "0901": Technique.ALS_XZ,
    "0902": Technique.ALS_XY_WING,
    "0903": Technique.ALS_CHAIN,
    "0904": Technique.DEATH_BLOSSOM,
    "1101": Technique.SUE_DE_COQ,
    "1201": "Templates (placing a digit by the patterns its nine places can form) have no "
    "counterpart: a brute-force enumeration, not a technique a person uses",
    "1202": "Templates (placing a digit by the patterns its nine places can form) have no "
    "counterpart: a brute-force enumeration, not a technique a person uses",
}

# HoDoKu's Siamese fish: two finned fish on the same digit and base houses, their eliminations
# reported as one step.  Ours stay two steps; a case passes when two steps of the finder with the
# same digit and base houses eliminate exactly the listed candidates together.
SIAMESE_CODES = frozenset({"03111", "03121", "03211", "03221", "03411", "03421", "03621"})


@dataclass(frozen=True, slots=True)
class ReglibCase:
    """One line of HoDoKu's regression library, decoded.

    *eliminations* and *placements* are ``(cell, digit)`` pairs; *fail_case* is True for an
    ``x`` variant (the technique must not find the eliminations).
    """

    line_number: int
    code: str
    variant: str
    board: Board
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]
    text: str

    @property
    def fail_case(self) -> bool:
        """True when the technique must not find the case's eliminations."""
        return self.variant == "x"


def _candidates(field: str, line_number: int) -> frozenset[tuple[int, int]]:
    """Decode ``<digit><row><col>`` items separated by blanks into ``(cell, digit)`` pairs."""
    found = set()
    for item in field.split():
        if len(item) != 3 or not (item.isascii() and item.isdigit()) or "0" in item:
            raise ParseError(f"reglib line {line_number}: bad candidate {item!r}")
        digit, row, col = int(item[0]), int(item[1]) - 1, int(item[2]) - 1
        found.add((row * 9 + col, digit))
    return frozenset(found)


def parse_reglib_line(line: str, line_number: int = 1) -> ReglibCase | None:
    """Decode one reglib line; return None for comments and blank lines.

    >>> case = parse_reglib_line(
    ...     ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3.."
    ...     "+1+4.+5....42193..1.+57...+44+2.6+3.+1+75:::829:")
    >>> case.code, sorted(case.placements), case.board.values[0], case.board.cands[17]
    ('0003', [(17, 8)], 6, 128)
    >>> case.board.placed >> 4 & 1, case.board.placed & 1  # r1c5 was placed, r1c1 given
    (1, 0)
    """
    line = line.strip()
    if not line.startswith(":"):
        return None
    fields = line.split(":")
    if len(fields) < 5:
        raise ParseError(f"reglib line {line_number}: expected 7 fields, found {len(fields) - 1}")
    fields += [""] * (8 - len(fields))  # trailing empty fields may be left out
    code, _, variant = fields[1].partition("-")
    values = []
    placed = 0  # '+' marks a digit placed by solving, not a given
    plus = False
    for ch in fields[3]:
        if ch == "+":
            plus = True
            continue
        if ch == ".":
            values.append(0)
        elif "1" <= ch <= "9":
            if plus:
                placed |= 1 << len(values)
            values.append(int(ch))
        else:
            raise ParseError(f"reglib line {line_number}: bad character {ch!r} in the givens")
        plus = False
    grid = Grid(tuple(values), CLASSIC)
    board = Board.from_grid(grid)
    cands = list(board.cands)
    for cell, digit in _candidates(fields[4], line_number):
        cands[cell] &= ~(1 << (digit - 1))
    return ReglibCase(
        line_number,
        code,
        variant,
        Board.from_candidates(board.values, tuple(cands), CLASSIC, placed),
        _candidates(fields[5], line_number),
        _candidates(fields[6], line_number),
        line,
    )


def parse_reglib(lines: Iterable[str]) -> list[ReglibCase]:
    """Decode every case line of the library (comments and blank lines are skipped).

    >>> len(parse_reglib(["# comment", "", ":0000:1:" + "." * 81 + "::::"]))
    1
    """
    cases = []
    for number, line in enumerate(lines, start=1):
        case = parse_reglib_line(line, number)
        if case is not None:
            cases.append(case)
    return cases


def step_matches(step: Step, case: ReglibCase) -> bool:
    """Return True when *step* has exactly the case's eliminations and placements.

    >>> from xlsudoku.engine.steps import Placement
    >>> case = parse_reglib_line(":0003:1:" + "." * 81 + ":::111:")
    >>> step_matches(Step(Technique.NAKED_SINGLE, (Placement(0, 1),), (), (), (), (), ""), case)
    True
    """
    return {(e.cell, e.digit) for e in step.eliminations} == case.eliminations and {
        (p.cell, p.digit) for p in step.placements
    } == case.placements


def check_case(
    case: ReglibCase, table: tuple[TechniqueSpec, ...] = EXTENDED_TECHNIQUES, max_steps: int = 2000
) -> tuple[str, str]:
    """Run the mapped finder on *case*; return ``(status, detail)``.

    Status is ``pass``, ``fail``, ``skip`` (no counterpart: detail gives the reason) or
    ``missing`` (the technique has no finder in *table* yet).  A fail case passes when no step
    eliminates any of its listed candidates (or, with none listed, when no step is found).
    At most *max_steps* steps are examined.

    >>> case = parse_reglib_line(":0003:1:" + "1" + "." * 80 + ":::211:")
    >>> check_case(case)[0]
    'fail'
    """
    target = HODOKU_CODES.get(f"{case.code}-{case.variant}", HODOKU_CODES.get(case.code))
    if target is None:
        return "skip", f"HoDoKu code {case.code} has no counterpart here"
    if isinstance(target, str):
        return "skip", target
    spec = next((s for s in table if s.technique is target), None)
    if spec is None:
        return "missing", f"{target.value} has no finder in the table"
    find = FULL_FINDERS.get(target, spec.find)
    if case.code in SIAMESE_CODES:
        return _check_siamese(case, find, max_steps)
    found = 0
    for step in find(case.board):
        found += 1
        if case.fail_case:
            hit = {(e.cell, e.digit) for e in step.eliminations} & case.eliminations
            if hit or not case.eliminations:
                return "fail", f"fail case found: {step.explanation}"
        elif step_matches(step, case):
            return "pass", step.explanation
        if found >= max_steps:
            break
    if case.fail_case:
        return "pass", "no step, as expected"
    return "fail", f"{found} step(s) of {target.value}, none with the expected result"


def _check_siamese(
    case: ReglibCase, find: Callable[[Board], Iterable[Step]], max_steps: int
) -> tuple[str, str]:
    """Pass when two fish steps with the same digit and base houses together match the case."""
    groups: dict[tuple[object, ...], list[frozenset[tuple[int, int]]]] = {}
    for i, step in enumerate(find(case.board)):
        if i >= max_steps:
            break
        base = step.houses[: len(step.houses) // 2]
        elims = frozenset((e.cell, e.digit) for e in step.eliminations)
        others = groups.setdefault((step.digits, base), [])
        if any(elims | other == case.eliminations for other in others):
            return "pass", f"Siamese: {step.explanation} (with another fish on the same base)"
        others.append(elims)
    return "fail", "no two fish on the same base houses give the listed eliminations"


def reglib_summary(
    cases: Iterable[ReglibCase], table: tuple[TechniqueSpec, ...] = EXTENDED_TECHNIQUES
) -> list[tuple[str, int, int, int, str]]:
    """Return ``(technique, passed, failed, skipped, first failing line)`` per mapped technique.

    Rows follow HoDoKu's code order; unmapped codes are summed under their reason.

    >>> case = parse_reglib_line(":0003:1:" + "." * 80 + "1" + ":::111:")
    >>> reglib_summary([case])
    [('Naked Single', 0, 1, 0, 'line 1')]
    """
    rows: dict[str, list[int | str]] = {}
    for case in cases:
        status, detail = check_case(case, table)
        target = HODOKU_CODES.get(f"{case.code}-{case.variant}", HODOKU_CODES.get(case.code))
        key = target.value if isinstance(target, Technique) else f"[{detail}]"
        row = rows.setdefault(key, [0, 0, 0, ""])
        if status == "pass":
            row[0] = int(row[0]) + 1
        elif status == "fail":
            row[1] = int(row[1]) + 1
            if not row[3]:
                row[3] = f"line {case.line_number}"
        else:
            row[2] = int(row[2]) + 1
    return [(key, int(r[0]), int(r[1]), int(r[2]), str(r[3])) for key, r in rows.items()]


def _ranks(values: list[float]) -> list[float]:
    """Return the ranks of *values* (1-based), ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float:
    """Return Spearman's rank correlation of *xs* and *ys* (ties get average ranks).

    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40]), spearman([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 3)
    0.8
    """
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("spearman needs two lists of the same length, at least 2")
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


@dataclass(frozen=True, slots=True)
class Timing:
    """Wall-clock figures of one grader over a set of puzzles (milliseconds)."""

    name: str
    count: int
    total_s: float
    mean_ms: float
    median_ms: float
    max_ms: float

    @property
    def per_second(self) -> float:
        """Puzzles per second."""
        return self.count / self.total_s if self.total_s else 0.0

    def line(self) -> str:
        """Return the figures as one printable line.

        >>> Timing("x", 2, 0.5, 250.0, 250.0, 300.0).line()
        'x: 2 puzzles, 4.0 puzzles/s, ms mean 250.0 / median 250.0 / max 300.0'
        """
        return (
            f"{self.name}: {self.count} puzzles, {self.per_second:.1f} puzzles/s, "
            f"ms mean {self.mean_ms:.1f} / median {self.median_ms:.1f} / max {self.max_ms:.1f}"
        )


def timing(name: str, seconds: list[float]) -> Timing:
    """Summarise per-puzzle *seconds* as a :class:`Timing`.

    >>> timing("x", [0.001, 0.003, 0.002]).median_ms
    2.0
    """
    ms = sorted(s * 1000 for s in seconds)
    n = len(ms)
    median = (ms[n // 2] if n % 2 else (ms[n // 2 - 1] + ms[n // 2]) / 2) if n else 0.0
    return Timing(name, n, sum(seconds), sum(ms) / n if n else 0.0, median, ms[-1] if n else 0.0)


SE_COLUMNS = ("se_rating", "SER", "ER")


def read_rows(path: str) -> list[dict[str, str]]:
    r"""Read a puzzle file: a TSV with a header naming a ``puzzle`` column, or one per line.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
    ...     _ = f.write("puzzle\tSER\n" + "." * 81 + "\t1.2\n")
    >>> read_rows(f.name)[0]["SER"]
    '1.2'
    >>> os.unlink(f.name)
    """
    with open(path, encoding="utf-8") as handle:
        lines = [ln.rstrip("\r\n") for ln in handle if ln.strip() and not ln.startswith("#")]
    if lines and lines[0].split("\t")[0] == "puzzle":
        header = lines[0].split("\t")
        return [dict(zip(header, ln.split("\t"), strict=False)) for ln in lines[1:]]
    return [{"puzzle": ln.split()[0]} for ln in lines]


@dataclass(frozen=True, slots=True)
class GradingBench:
    """What :func:`bench_grading` measured; :meth:`report` formats it."""

    source: str
    rows: int
    seed: int
    ours: Timing
    trials: tuple[int, ...]
    hodoku_py: Timing | None
    se_pairs: tuple[tuple[float, float], ...]
    level_pairs: tuple[tuple[str, str], ...]
    qqwing_pairs: tuple[tuple[str, str], ...]
    profile: str = "se"
    level_scores: tuple[tuple[str, float], ...] = ()

    def report(self) -> list[str]:
        """Return the figures as printable lines."""
        n = self.ours.count
        lines = [
            f"data set: {self.source} ({self.rows} puzzles; {n} graded, sample seed {self.seed}, "
            f"profile {self.profile})",
            load_note(),
            self.ours.line(),
        ]
        guessed = sum(1 for t in self.trials if t)
        lines.append(
            f"  trial-and-error steps/puzzle {sum(self.trials) / max(n, 1):.2f}; "
            f"no-guess {100 * (n - guessed) / max(n, 1):.1f}% ({n - guessed}/{n})"
        )
        if self.hodoku_py is not None:
            lines.append(self.hodoku_py.line())
            if self.hodoku_py.per_second:
                ratio = self.ours.per_second / self.hodoku_py.per_second
                lines.append(f"  speed ratio xlsudoku / hodoku-py: {ratio:.2f}")
        if len(self.se_pairs) >= 2:
            se = [a for a, _ in self.se_pairs]
            ours = [b for _, b in self.se_pairs]
            lines.append(f"SE agreement: Spearman {spearman(se, ours):.4f} over {len(se)} puzzles")
            close = [abs(a - b) for a, b in self.se_pairs]
            shares = [100 * sum(1 for d in close if d < lim) / len(close) for lim in _LIMITS]
            lines.append(
                f"  exact {shares[0]:.1f}%, within 0.1 {shares[1]:.1f}%, within 0.2 "
                f"{shares[2]:.1f}%, within 0.5 {shares[3]:.1f}%"
            )
            buckets: dict[float, list[float]] = {}
            for a, b in self.se_pairs:
                buckets.setdefault(a, []).append(b)
            lines.append(
                "  SE rating -> our mean score (count): "
                + ", ".join(
                    f"{k:.1f}->{sum(v) / len(v):.2f}({len(v)})" for k, v in sorted(buckets.items())
                )
            )
        by_level: dict[str, list[float]] = {}
        for label, score in self.level_scores:
            by_level.setdefault(label, []).append(score)
        if by_level:
            lines.append(
                "our level -> score range (count): "
                + ", ".join(
                    f"{k} {min(v):.1f}-{max(v):.1f} ({len(v)})"
                    for k, v in sorted(by_level.items(), key=lambda kv: _level_order(kv[0]))
                )
            )
        for name, pairs in (("HoDoKu", self.level_pairs), ("QQWing", self.qqwing_pairs)):
            if not pairs:
                continue
            if name == "HoDoKu":
                agree = sum(1 for a, b in pairs if a == b)
                lines.append(
                    f"HoDoKu level agreement: {100 * agree / len(pairs):.1f}% "
                    f"({agree}/{len(pairs)}); rows = HoDoKu, columns = ours (HoDoKu scale)"
                )
            else:
                lines.append("QQWing level (rows) against our level (columns)")
            cols = sorted({b for _, b in pairs}, key=_level_order)
            lines.append("  " + "".join(f"{c:>18}" for c in [""] + cols))
            for r in sorted({a for a, _ in pairs}, key=_level_order):
                counts = [sum(1 for a, b in pairs if a == r and b == c) for c in cols]
                lines.append("  " + f"{r:>18}" + "".join(f"{x:>18}" for x in counts))
        return lines


# |ours - SE| below these counts as exact, within 0.1, 0.2 and 0.5 (scores are in tenths)
_LIMITS = (0.05, 0.15, 0.25, 0.55)

_ORDER = (
    "simple easy intermediate expert EASY MEDIUM HARD UNFAIR EXTREME "
    "Easy Medium Hard Very_hard Diabolical Beyond_technique"
).split()


def _level_order(name: str) -> int:
    key = name.replace(" ", "_")
    return _ORDER.index(key) if key in _ORDER else len(_ORDER)


def bench_grading(
    path: str,
    limit: int | None = None,
    seed: int = 7,
    hodoku_py: bool = False,
    progress: Callable[[int], None] | None = None,
    profile: str = "se",
) -> GradingBench:
    r"""Grade the puzzles of *path* (a random sample of *limit* with *seed*), timing each.

    The SE score is compared with an ``se_rating`` / ``SER`` / ``ER`` column (Spearman), the
    HoDoKu-scale level (:func:`xlsudoku.bench.hodoku.hodoku_grade`) with a ``hodoku_level``
    column and our level with a ``qqwing_level`` column.  With *hodoku_py*, the same puzzles are
    also rated by hodoku-py's ``Solver.rate`` (installed separately) for the speed comparison.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95.."
    ...                 "8..2.3..9..5.1.3..\n")
    >>> bench_grading(f.name).ours.count
    1
    >>> os.unlink(f.name)
    """
    import random
    import time

    from xlsudoku.bench.hodoku import hodoku_grade
    from xlsudoku.engine.grading import grade

    rows = read_rows(path)
    chosen = (
        rows if limit is None or limit >= len(rows) else random.Random(seed).sample(rows, limit)
    )
    se_column = next((c for c in SE_COLUMNS if chosen and c in chosen[0]), None)
    seconds: list[float] = []
    trials: list[int] = []
    se_pairs: list[tuple[float, float]] = []
    level_pairs: list[tuple[str, str]] = []
    qqwing_pairs: list[tuple[str, str]] = []
    level_scores: list[tuple[str, float]] = []
    for i, row in enumerate(chosen):
        grid = Grid.parse(row["puzzle"])
        start = time.perf_counter()
        g = grade(grid, profile=profile)
        seconds.append(time.perf_counter() - start)
        trials.append(dict(g.counts).get(Technique.TRIAL_AND_ERROR, 0))
        level_scores.append((g.level.label, g.score))
        if se_column and row.get(se_column):
            se_pairs.append((float(row[se_column]), g.score))
        if row.get("hodoku_level"):
            level_pairs.append((row["hodoku_level"], hodoku_grade(grid)[0].name))
        if row.get("qqwing_level"):
            qqwing_pairs.append((row["qqwing_level"], g.level.label))
        if progress is not None:
            progress(i + 1)
    other = None
    if hodoku_py:
        from hodoku import Solver  # optional benchmark dependency (GPL), never used by grading

        solver = Solver()
        other_seconds = []
        for row in chosen:
            start = time.perf_counter()
            solver.rate(row["puzzle"])
            other_seconds.append(time.perf_counter() - start)
        other = timing("hodoku-py Solver.rate", other_seconds)
    return GradingBench(
        path.rsplit("/", 1)[-1],
        len(rows),
        seed,
        timing("xlsudoku grade", seconds),
        tuple(trials),
        other,
        tuple(se_pairs),
        tuple(level_pairs),
        tuple(qqwing_pairs),
        profile,
        tuple(level_scores),
    )


def run_grade(args: argparse.Namespace) -> int:
    """Run ``xlsudoku bench grade``: grade a puzzle file, print speed and agreement figures."""
    bar = None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]

        rows = len(read_rows(args.file))
        total = rows if not args.limit or args.limit >= rows else args.limit
        bar = tqdm(total=total, unit="puzzle", leave=False, disable=None)
    except ImportError:  # pragma: no cover - tqdm is a dependency of the distribution
        pass

    def tick(done: int) -> None:
        if bar is not None:
            bar.update(done - bar.n)

    result = bench_grading(
        args.file, args.limit or None, args.seed, args.hodoku, tick, args.profile
    )
    if bar is not None:
        bar.close()
    print("\n".join(result.report()))
    return 0


def run_reglib(args: argparse.Namespace) -> int:
    """Run ``xlsudoku bench reglib``: pass counts per technique on HoDoKu's regression library."""
    with open(args.file, encoding="utf-8") as handle:
        cases = parse_reglib(handle.read().splitlines())
    rows = reglib_summary(cases)
    techniques = [r for r in rows if not r[0].startswith("[")]
    width = max(len(r[0]) for r in techniques)
    print(f"{'technique':<{width}}  pass  fail  skip  first failure")
    totals = [0, 0, 0]
    for name, passed, failed, skipped, first in techniques:
        print(f"{name:<{width}}  {passed:>4}  {failed:>4}  {skipped:>4}  {first}")
        totals = [totals[0] + passed, totals[1] + failed, totals[2] + skipped]
    for name, _, _, skipped, _ in rows:
        if name.startswith("["):
            print(f"{'  skipped':<{width}}  {'':>4}  {'':>4}  {skipped:>4}  {name.strip('[]')}")
            totals[2] += skipped
    print(f"{'total':<{width}}  {totals[0]:>4}  {totals[1]:>4}  {totals[2]:>4}")
    return 0
