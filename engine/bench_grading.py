"""Evaluation of the human-style solver against external data: HoDoKu's regression library.

HoDoKu's reglib (``hodoku_reglib-1.3.txt``) has one technique case per line::

    :<code>[-<variant>]:<digits>:<givens, '+' placed>:<deleted>:<eliminations>:<placements>:<extra>

Candidates, eliminations and placements are written ``<digit><row><col>`` separated by blanks.
A variant ``x`` is a fail case: the technique must not find those eliminations.  This module
parses the lines, builds the candidate board, runs the finder of the mapped technique and checks
that some step it yields has exactly the expected eliminations and placements.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.board import Board
from engine.grid import CLASSIC, Grid, ParseError
from engine.steps import Step, Technique
from engine.techniques import TECHNIQUES, TechniqueSpec

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
    "03111": "Siamese fish (two finned fish in one step) is not a step of its own here",
    "03121": "Siamese fish (two finned fish in one step) is not a step of its own here",
    "03211": "Siamese fish (two finned fish in one step) is not a step of its own here",
    "03221": "Siamese fish (two finned fish in one step) is not a step of its own here",
    "0330": "Franken fish (boxes as base or cover sets) not implemented",
    "0331": "Franken fish (boxes as base or cover sets) not implemented",
    "0332": "Franken fish (boxes as base or cover sets) not implemented",
    "0340": "Franken fish (boxes as base or cover sets) not implemented",
    "0341": "Franken fish (boxes as base or cover sets) not implemented",
    "03411": "Franken fish (boxes as base or cover sets) not implemented",
    "0342": "Franken fish (boxes as base or cover sets) not implemented",
    "03421": "Franken fish (boxes as base or cover sets) not implemented",
    "0362": "Mutant fish not implemented",
    "03621": "Mutant fish not implemented",
    "0363": "Mutant fish not implemented",
    "0364": "Mutant fish not implemented",
    "0400": Technique.SKYSCRAPER,
    "0401": Technique.TWO_STRING_KITE,
    "0402": Technique.EMPTY_RECTANGLE,
    "0403": Technique.X_CHAIN,
    "0404": "Dual 2-String Kite (two kites in one step) is not a step of its own here",
    "0405": "Dual Empty Rectangle (two in one step) is not a step of its own here",
    "0500": Technique.SIMPLE_COLORING,
    "0501": Technique.SIMPLE_COLORING,
    "0502": "Multi-colours not implemented",
    "0503": "Multi-colours not implemented",
    "0600": Technique.UNIQUE_RECTANGLE_1,
    "0601": Technique.UNIQUE_RECTANGLE_2,
    "0602": Technique.UNIQUE_RECTANGLE_3,
    "0603": Technique.UNIQUE_RECTANGLE_4,
    "0604": "Uniqueness test type 5 not implemented",
    "0605": "Uniqueness test type 6 not implemented",
    "0606": "Hidden rectangle not implemented",
    "0607": "Avoidable rectangles not implemented",
    "0608": "Avoidable rectangles not implemented",
    "0610": Technique.BUG_PLUS_1,
    "0701": Technique.X_CHAIN,
    "0702": Technique.XY_CHAIN,
    "0703": "Remote pairs not implemented as a step of their own",
    "0706": Technique.AIC,
    "0707": Technique.AIC,
    "0708": Technique.AIC,
    "0709": "Grouped nice loops not implemented",
    "0710": "Grouped nice loops not implemented",
    "0711": "Grouped AICs not implemented",
    "0800": Technique.XY_WING,
    "0801": Technique.XYZ_WING,
    "0802": "WXYZ-Wing not implemented",
    "0803": Technique.W_WING,
    "0901": "Almost locked sets not implemented",
    "0902": "Almost locked sets not implemented",
    "0903": "Almost locked sets not implemented",
    "0904": "Almost locked sets not implemented",
    "1101": "Sue de Coq not implemented",
    "1201": "Templates not implemented",
    "1202": "Templates not implemented",
}


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
        if len(item) != 3 or not item.isdigit() or "0" in item:
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
    for ch in fields[3].replace("+", ""):
        if ch == ".":
            values.append(0)
        elif ch.isdigit() and ch != "0":
            values.append(int(ch))
        else:
            raise ParseError(f"reglib line {line_number}: bad character {ch!r} in the givens")
    grid = Grid(tuple(values), CLASSIC)
    board = Board.from_grid(grid)
    cands = list(board.cands)
    for cell, digit in _candidates(fields[4], line_number):
        cands[cell] &= ~(1 << (digit - 1))
    return ReglibCase(
        line_number,
        code,
        variant,
        Board.from_candidates(board.values, tuple(cands)),
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

    >>> from engine.steps import Placement
    >>> case = parse_reglib_line(":0003:1:" + "." * 81 + ":::111:")
    >>> step_matches(Step(Technique.NAKED_SINGLE, (Placement(0, 1),), (), (), (), (), ""), case)
    True
    """
    return {(e.cell, e.digit) for e in step.eliminations} == case.eliminations and {
        (p.cell, p.digit) for p in step.placements
    } == case.placements


def check_case(
    case: ReglibCase, table: tuple[TechniqueSpec, ...] = TECHNIQUES, max_steps: int = 2000
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
    target = HODOKU_CODES.get(case.code)
    if target is None:
        return "skip", f"HoDoKu code {case.code} has no counterpart here"
    if isinstance(target, str):
        return "skip", target
    spec = next((s for s in table if s.technique is target), None)
    if spec is None:
        return "missing", f"{target.value} has no finder in the table"
    found = 0
    for step in spec.find(case.board):
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
