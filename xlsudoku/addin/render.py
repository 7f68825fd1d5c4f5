"""Engine results -> the values written into cells: grids, statistics, rank rows, report lines.

Every function returns plain Python values (blocks are lists of rows, ``""`` for an empty
cell) shaped like the defined name it is written to, so :mod:`addin.actions` only moves them.
Cells are named both ways in messages: the Sudoku name ``r3c5`` and the Excel address.
"""

from __future__ import annotations

import datetime as dt
import json
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from xlsudoku.addin import layout
from xlsudoku.engine.generate.request import Budget, BudgetKind
from xlsudoku.engine.grid import CLASSIC, Cell, Geometry, Grid

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from xlsudoku.engine.analysis import Analysis
    from xlsudoku.engine.generate import GenerateResult
    from xlsudoku.engine.grading import Grade
    from xlsudoku.engine.hints import Hint
    from xlsudoku.engine.ranks import Ranks
    from xlsudoku.engine.symmetry import Symmetry

Block = list[list[Any]]

# Fill colours of the Analyze and Play grids.  GRID_FILL is the Analyze puzzle's normal (input)
# fill, as the template has it, PLAY_FILL the Play grid's; while a hint is shown: the house of a
# first-level hint, the cells of the pattern (the cause) and the cells the step changes (the
# effect); after ANALYZE of a puzzle with several solutions: the cells where two solutions
# differ and the clue to add; on the Play sheet, the entries CHECK found wrong, and (drawn by
# the sheet's own conditional formats) a digit twice in a house and the highlighted digit.
# Every text the sheets draw on them (black givens, the player's blue entries, the dark red of
# a clash, the gray pencil marks and legends) reads at 4.5:1 or more (WCAG AA for normal text;
# tests/test_render_play.py measures it on LibreOffice's render), so they are light, told apart
# from the ground and from one another by their hue.  The sheets' legends show each with its
# meaning (LEGEND, PLAY_LEGEND, in order).
GRID_FILL = "#FFF7D6"
PLAY_FILL = "#FFFFFF"
DIAGONAL_COLOUR = "#EDE7F6"
HINT_REGION_COLOUR = "#FFD8A8"
HINT_CAUSE_COLOUR = "#C6E0FA"
HINT_EFFECT_COLOUR = "#FCD5E8"
DIFFER_COLOUR = "#EBD6FA"
SUGGESTED_GIVEN_COLOUR = "#BFEAA9"
WRONG_COLOUR = "#FFD6D6"
CLASH_COLOUR = "#FFDA6B"
CLASH_INK = "#9C0006"
HIGHLIGHT_COLOUR = "#A9EADF"
# The Play grid's digits: a given bold black, an entry of the player's blue.
GIVEN_INK = "#000000"
ENTRY_INK = "#1155CC"
LEGEND: tuple[tuple[str, str], ...] = (
    (HINT_REGION_COLOUR, "hint: where to look"),
    (HINT_CAUSE_COLOUR, "hint: the pattern (cause)"),
    (HINT_EFFECT_COLOUR, "hint: what it changes"),
    (DIFFER_COLOUR, "two solutions differ"),
    (SUGGESTED_GIVEN_COLOUR, "clue to add"),
)
PLAY_LEGEND: tuple[tuple[str, str], ...] = (
    (HINT_REGION_COLOUR, "hint: where to look"),
    (HINT_CAUSE_COLOUR, "hint: the pattern (cause)"),
    (HINT_EFFECT_COLOUR, "hint: what it changes"),
    (WRONG_COLOUR, "a wrong entry (CHECK)"),
    (CLASH_COLOUR, "a digit twice in a house"),
)


def grid_rows(grid: Grid | None) -> Block:
    """Return *grid* as rows of digits, ``""`` for a blank cell (9x9 all blank for None).

    >>> grid_rows(Grid.parse("5" + "." * 80))[0][:3]
    [5, '', '']
    >>> grid_rows(None)[8][8]
    ''
    """
    if grid is None:
        return [[""] * CLASSIC.size for _ in range(CLASSIC.size)]
    return [[digit or "" for digit in row] for row in grid.rows()]


def block_rows(grid: Grid | None) -> Block:
    """Return a full-size block with *grid* in its top-left corner (all blank for None).

    Digits above 9 are written as numbers (10-16).

    >>> block = block_rows(Grid.parse("1234" + "." * 12))
    >>> len(block), len(block[0]), block[0][:5], block[4][0]
    (16, 16, [1, 2, 3, 4, ''], '')
    """
    if grid is None:
        return block_rows_of([], 1)
    return block_rows_of([digit or "" for digit in grid.cells], grid.geometry.size)


def cell_label(name: str, cell: Cell, geometry: Geometry = CLASSIC) -> str:
    """Return ``rXcY (ADDRESS)`` for *cell* of a *geometry* puzzle in the block at *name*.

    >>> cell_label("AnalyzeGrid", 80)
    'r9c9 (K14)'
    """
    row, column = divmod(cell, geometry.size)
    return f"{geometry.cell_name(cell)} ({layout.NAMES[name].cell(row, column)})"


def cells_text(
    name: str, cells: Sequence[Cell], most: int = 8, geometry: Geometry = CLASSIC
) -> str:
    """Return a list of cell labels, cut after *most* with the number left out.

    >>> cells_text("AnalyzeGrid", [0, 1, 2], most=2)
    'r1c1 (C6), r1c2 (D6) and 1 more'
    """
    shown = ", ".join(cell_label(name, cell, geometry) for cell in cells[:most])
    return shown + (f" and {len(cells) - most} more" if len(cells) > most else "")


def offsets(cells: Iterable[Cell], geometry: Geometry = CLASSIC) -> list[tuple[int, int]]:
    """Return 0-based (row, column) offsets of *cells* of a *geometry* puzzle in its block.

    >>> offsets([0, 10, 80])
    [(0, 0), (1, 1), (8, 8)]
    """
    return [divmod(cell, geometry.size) for cell in cells]


def counts_text(grade: Grade) -> str:
    """Return the techniques used with their counts, e.g. ``Full House 20, Hidden Single 29``.

    >>> from xlsudoku.engine.grading import Grade
    >>> from xlsudoku.engine.steps import Level, Technique
    >>> counts_text(Grade(Level.EASY, 1.2, ((Technique.FULL_HOUSE, 3),), None, True))
    'Full House 3'
    """
    return ", ".join(f"{technique.value} {times}" for technique, times in grade.counts) or "none"


def report_lines(grid: Grid, analysis: Analysis) -> Block:
    """Return the Analyze report: one text per row of ``AnalyzeReport`` (padded with ``""``).

    Lines: the puzzle, givens, validity, solution count, then the grade (unique) or the
    differing cells and the clue to add (several solutions).  A line longer than the sheet
    shows (``layout.REPORT_WIDTH`` characters) goes on in the next row, indented.
    """
    from xlsudoku.engine.analysis import COUNT_LIMIT, Status

    name = layout.ANALYZE_GRID
    geo = grid.geometry
    lines = [
        f"Puzzle ({geo.name}): {grid}",
        f"Givens: {grid.given_count}",
        f"Valid: {'no' if analysis.status is Status.INVALID else 'yes (no digit repeats)'}",
    ]
    if analysis.status is Status.INVALID:
        lines.append(f"Problem: {analysis.message}")
    elif analysis.status is Status.NO_SOLUTION:
        lines.append("Solutions: none (the givens cannot all be kept)")
    elif analysis.status is Status.UNIQUE:
        grade = analysis.grade
        lines.append("Solutions: exactly one")
        if grade is not None:
            lines += [
                f"Grade: {analysis.summary()}",
                f"Techniques used ({analysis.profile} rating path): {counts_text(grade)}",
            ]
    else:
        lines.append("Solutions: two or more; two of them are shown below, side by side")
        lines.append(
            f"They differ in {len(analysis.differing)} cells (coloured): "
            + cells_text(name, analysis.differing, geometry=geo)
        )
        suggested_given = analysis.suggested_given
        if suggested_given is not None:
            left = analysis.suggested_given_solutions
            outcome = (
                "makes the solution unique"
                if analysis.suggested_given_makes_unique
                else f"leaves {left if left < COUNT_LIMIT else f'{COUNT_LIMIT} or more'} solutions"
            )
            lines.append(
                f"Clue to add (marked): {geo.digit_char(suggested_given.digit)} in "
                f"{cell_label(name, suggested_given.cell, geo)} {outcome}"
            )
    return pad_lines(wrap_lines(lines), layout.NAMES[layout.ANALYZE_REPORT].shape[0])


def wrap_lines(lines: Sequence[str], width: int = layout.REPORT_WIDTH) -> list[str]:
    """Return *lines* with each longer than *width* broken into indented continuation lines.

    >>> wrap_lines(["a b c d", "e"], width=3)
    ['a b', '  c', '  d', 'e']
    """
    wrapped: list[str] = []
    for line in lines:
        wrapped += textwrap.wrap(
            line, width, subsequent_indent="  ", break_long_words=True, break_on_hyphens=False
        ) or [""]
    return wrapped


def pad_lines(lines: Sequence[str], rows: int) -> Block:
    """Return *lines* as a one-column block of exactly *rows* rows (cut or padded with "").

    A cut block ends with a line saying how many lines were left out.

    >>> pad_lines(["a"], 3)
    [['a'], [''], ['']]
    >>> pad_lines(["a", "b", "c"], 2)
    [['a'], ['(2 more lines)']]
    """
    kept = list(lines[:rows])
    if len(lines) > rows:
        kept[-1] = f"({len(lines) - rows + 1} more lines)"
    return [[line] for line in kept] + [[""] for _ in range(rows - len(kept))]


def steps_block(lines: Sequence[str], rows: int = layout.EXPLAIN_ROWS) -> Block:
    """Return the path's numbered steps as the one-column block EXPLAIN writes.

    A path longer than *rows* keeps its first steps; the last row says how many are left
    out and where to read them all.

    >>> steps_block(["1. a", "2. b"], 3)
    [['1. a'], ['2. b'], ['']]
    >>> steps_block(["1. a", "2. b", "3. c"], 2)
    [['1. a'], ['Steps 2-3 (2 of 3) are not shown: xlsudoku explain prints them all.']]
    """
    if len(lines) <= rows:
        return pad_lines(lines, rows)
    shown = rows - 1
    note = (
        f"Steps {shown + 1}-{len(lines)} ({len(lines) - shown} of {len(lines)}) are not shown: "
        "xlsudoku explain prints them all."
    )
    return [[line] for line in lines[:shown]] + [[note]]


def hint_text(hint: Hint) -> str:
    """Return the text written to ``HintText``: the level and the engine's sentence.

    >>> from xlsudoku.engine.hints import hint
    >>> hint_text(hint(Grid.parse("12345678." + "." * 72), 2))
    'Hint 2 of 3: Look for a Full House in row 1, at r1c9.'
    """
    if hint.step is None:
        return hint.text
    return f"Hint {hint.level} of 3: {hint.text}"


def saved_at(now: dt.datetime) -> dt.datetime:
    """Return the Collection's "saved at" date-time: *now* to the second, without a time zone.

    >>> saved_at(dt.datetime(2024, 5, 1, 9, 30, 5, 123))
    datetime.datetime(2024, 5, 1, 9, 30, 5)
    """
    return now.replace(microsecond=0, tzinfo=None)


def analysis_status(analysis: Analysis) -> str:
    """Return the Analyze status line: the engine's one-sentence verdict, capitalised.

    >>> from xlsudoku.engine.analysis import Analysis, Status
    >>> analysis_status(Analysis(Grid.empty(), Status.NO_SOLUTION, "no solution: the givens clash"))
    'No solution: the givens clash.'
    """
    text = analysis.message
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def stats_block(
    result: GenerateResult | None,
    analysis: Analysis | None = None,
    shape: str = layout.CLASSIC_NAME,
) -> Block:
    """Return the Stats block: one ``[label, value]`` row per :data:`layout.STATS_LABELS`.

    For None (CLEAR) the labels stay and the values are blank.

    The Geometry row names the grid's shape: for None, *shape* (what CLEAR shapes the grid to).

    >>> stats_block(None)[:2], len(stats_block(None))
    ([['Geometry', '9x9'], ['Opens', '']], 11)
    """
    if result is None:
        return [[label, shape if label == "Geometry" else ""] for label in layout.STATS_LABELS]
    reached = target_text(result, analysis)
    grade = None if analysis is None else analysis.grade
    hardest = "" if grade is None else grade.hardest.value if grade.hardest else "none"
    values = {
        "Geometry": result.puzzle.geometry.name,
        "Opens": result.givens,
        "Target reached": reached,
        "Minimal": layout.YES if result.minimal else layout.NO,
        "Trials used": result.trials_used,
        "Grids tried": result.grids_tried,
        "Seconds": round(result.seconds, 3),
        "Seed": result.seed,
        "Level": "" if grade is None else grade.label,
        "Score": "" if grade is None else round(grade.score, 1),
        "Hardest technique": hardest,
    }
    return [[label, values[label]] for label in layout.STATS_LABELS]


def target_text(result: GenerateResult, analysis: Analysis | None = None) -> str:
    """Return the Target reached value: what was asked and, on a miss, which part was missed.

    What was missed is the generator's own judgement (``result.missed``); *analysis* (the
    result's, see ``result_analysis``) names the level the puzzle got.

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> target_text(generate(GenerateRequest(seed=7)))
    'Yes: 26 opens'
    >>> from xlsudoku.engine.steps import Level
    >>> r = generate(GenerateRequest(seed=3, difficulty=Level.BEYOND, trials=1))
    >>> target_text(r, r.analysis)
    'No: asked 26 opens, Beyond technique; missed the level (got Diabolical)'
    """
    request = result.request
    asked = [f"{result.target} opens"]
    if request.difficulty is not None:
        asked.append(request.difficulty.label)
    if request.needs is not None:
        asked.append(f"needs {request.needs.value}")
    if result.reached:
        return "Yes: " + ", ".join(asked)
    missed = []
    if result.givens != result.target:
        missed.append(f"the opens (got {result.givens})")
    for what in result.missed:
        if what == "level":
            got = "" if analysis is None else f" (got {analysis.graded().label})"
            missed.append(f"the level{got}")
        elif what != "opens":
            missed.append(f"the {what}")
    return f"No: asked {', '.join(asked)}; missed {' and '.join(missed) or 'the target'}"


def rank_block(ranks: Ranks | None, rows: int = layout.RANK_ROWS) -> Block:
    """Return the RankTable: ``["rank n", cells]`` per round, blank rows after the last.

    Rounds that went beyond singles name the techniques used.  When there are more rounds
    than rows, the last row sums the rest (``ranks 20-23``).

    >>> from xlsudoku.engine.ranks import RankRound, Ranks
    >>> r = Ranks((RankRound(1, (0, 1)), RankRound(2, (5,), True, ("X-Wing",))), givens=78)
    >>> rank_block(r, rows=3)
    [['rank 1', 2], ['rank 2 (X-Wing)', 1], ['', '']]
    >>> many = Ranks(tuple(RankRound(n, (n,)) for n in range(1, 6)), givens=76)
    >>> rank_block(many, rows=3)
    [['rank 1', 1], ['rank 2', 1], ['ranks 3-5', 3]]
    """
    block: Block = [["", ""] for _ in range(rows)]
    if ranks is None:
        return block
    rounds = ranks.rounds
    for index, rnd in enumerate(rounds[:rows]):
        beyond = f" ({', '.join(rnd.techniques) or 'beyond singles'})" if rnd.beyond_singles else ""
        block[index] = [f"rank {rnd.rank}{beyond}", len(rnd.cells)]
    if len(rounds) > rows:
        rest = rounds[rows - 1 :]
        block[rows - 1] = [
            f"ranks {rest[0].rank}-{rest[-1].rank}",
            sum(len(rnd.cells) for rnd in rest),
        ]
    return block


def ranks_text(ranks: Ranks | None) -> str:
    """Return the Collection's compact ranks: cells per round, ``*`` marking beyond singles.

    >>> from xlsudoku.engine.ranks import RankRound, Ranks
    >>> ranks_text(Ranks((RankRound(1, (0, 1)), RankRound(2, (5,), True)), givens=78))
    '2, 1*'
    """
    if ranks is None:
        return ""
    return ", ".join(f"{len(rnd.cells)}{'*' if rnd.beyond_singles else ''}" for rnd in ranks.rounds)


@dataclass(frozen=True, slots=True)
class Facts:
    """What one analysis found that the Collection keeps: START stores it beside its puzzle.

    SAVE TO COLLECTION reads it back (:meth:`read`) instead of analysing the puzzle again, when
    the grid still holds :attr:`puzzle` and the Rating cell still names :attr:`profile`.

    >>> facts = Facts("1.", "12", "Easy", 1.2, "se", "1, 1")
    >>> Facts.read(facts.text()) == facts, Facts.read("edited by hand"), Facts.read(None)
    (True, None, None)
    """

    puzzle: str
    solution: str
    level: str
    score: float
    profile: str
    ranks: str

    @classmethod
    def of(cls, analysis: Analysis) -> Facts:
        """Return the facts of a unique puzzle's analysis (its graded level and score)."""
        solution = analysis.solution
        assert solution is not None, "only a unique puzzle has facts to keep"
        graded = analysis.graded()
        return cls(
            str(analysis.puzzle),
            str(solution),
            graded.label,
            round(graded.score, 1),
            analysis.profile,
            ranks_text(analysis.ranks),
        )

    def text(self) -> str:
        """Return the facts as the one line of JSON the hidden cell holds."""
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def read(cls, value: Any) -> Facts | None:
        """Return the facts a hidden cell holds, or None for anything else (blank, edited)."""
        try:
            data = json.loads(str(value))
            facts = cls(**data)
        except (TypeError, ValueError):
            return None
        texts = (facts.puzzle, facts.solution, facts.level, facts.profile, facts.ranks)
        if not all(isinstance(item, str) for item in texts):
            return None
        if isinstance(facts.score, bool) or not isinstance(facts.score, int | float):
            return None
        return facts


def collection_row(
    *,
    id_: int,
    when: dt.datetime,
    puzzle: Grid,
    solution: Grid,
    pattern: int | str | None,
    symmetry: Symmetry,
    facts: Facts,
    seed: int | None,
    notes: str = "",
) -> list[Any]:
    """Return one Collection row, in the order of :data:`layout.COLLECTION_COLUMNS`.

    Puzzle and solution are one-line strings ('.' for a blank, A-G above 9); a blank pattern
    or seed means the puzzle was not made by START with these (typed or edited by hand).  The
    level, score, profile and ranks are *facts*' (one analysis's, :meth:`Facts.of`).
    """
    values = {
        "id": id_,
        "saved at": saved_at(when),
        "geometry": puzzle.geometry.name,
        "puzzle": str(puzzle),
        "solution": str(solution),
        "opens": puzzle.given_count,
        "pattern": "" if pattern is None else pattern,
        "symmetry": symmetry.value,
        "level": facts.level,
        "score": facts.score,
        "ranks": facts.ranks,
        "seed": "" if seed is None else seed,
        "notes": notes,
        "profile": facts.profile,
    }
    return [values[column] for column in layout.COLLECTION_COLUMNS]


def time_limit_text(result: GenerateResult, cancelled: bool) -> str:
    """Return the sentence saying that the time limit stopped the run, or "" when it did not.

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(target_givens=17, pattern=None, seed=1, time_limit=0.2))
    >>> time_limit_text(r, False)
    ' Stopped by the time limit (0.2 s, Time limit (s) in C13).'
    >>> time_limit_text(generate(GenerateRequest(seed=1, time_limit=60)), False)
    ''
    >>> budget = Budget(0.2, BudgetKind.CPU)
    >>> cpu = GenerateRequest(target_givens=17, pattern=None, seed=1, budget=budget)
    >>> time_limit_text(generate(cpu), False)
    ' Stopped by the time limit (0.2 s of CPU, Time limit (s) in C13).'
    """
    limit = result.request.limit
    stopped = result.stop in ("time", "unlikely") and result.limit == limit
    if result.reached or cancelled or limit is None or not stopped:
        return ""
    where = layout.PARAMS_BY_NAME[layout.TIME_LIMIT]
    return f" Stopped by the time limit ({limit.text()}, {where.label} in {where.ref.top_left})."


def ungraded_text(limit: Budget | None) -> str:
    """Return the sentence for a START whose grading did not finish within the time limit.

    >>> ungraded_text(Budget(3.0))[:73]
    ' Not graded: grading did not finish within the time limit (3 s, Time limi'
    """
    where = layout.PARAMS_BY_NAME[layout.TIME_LIMIT]
    within = "" if limit is None else f" ({limit.text()}, {where.label} in {where.ref.top_left})"
    return (
        f" Not graded: grading did not finish within the time limit{within}; the puzzle is "
        "unique all the same. Raise the Time limit, or paste it into the Analyze sheet and "
        "press ANALYZE to grade it."
    )


def import_stopped_text(limit: Budget, line: int) -> str:
    """Return the sentence for an IMPORT the time limit stopped before source line *line*.

    >>> import_stopped_text(Budget(60.0), 812)[:78]
    ' Stopped by the time limit (60 s, Time limit (s) in C13) at line 812 of the so'
    """
    where = layout.PARAMS_BY_NAME[layout.TIME_LIMIT]
    return (
        f" Stopped by the time limit ({limit.text()}, {where.label} in {where.ref.top_left}) at "
        f"line {line} of the source: press IMPORT again to add the rest (the puzzles already "
        "added are skipped)."
    )


def may_take_text(limit: Budget) -> str:
    """Return what the status says before a long START: it may take up to the time limit.

    >>> may_take_text(Budget(60.0))[:64]
    'Running START: a long search, which may take up to 60 s (Time li'
    >>> may_take_text(Budget(30.0, BudgetKind.WORK))[:70]
    'Running START: a long search, which may take up to 30 work units (Time'
    """
    where = layout.PARAMS_BY_NAME[layout.TIME_LIMIT]
    return (
        f"Running START: a long search, which may take up to {limit.text()} ({where.label} in "
        f"{where.ref.top_left}). When it ends, this cell says how long it took."
    )


def took_text(result: GenerateResult) -> str:
    """Return how long a long run took, against its limit ("" for a quick descent).

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> took_text(generate(GenerateRequest(seed=7)))
    ''
    """
    from xlsudoku.engine.generate.generator import DESCENT, pick

    if pick(result.request) is DESCENT or result.limit is None:
        return ""
    if result.limit.kind is BudgetKind.WALL:
        return f" It took {result.seconds:.1f} s of the {result.limit.text()} allowed."
    return f" It took {result.seconds:.1f} s."  # the limit's own sentence names CPU or work


# Grading shorter than this goes unsaid: the click feels instant, and the status stays short.
GRADING_SAID_FROM = 1.0


def start_status(
    result: GenerateResult, analysis: Analysis | None, cancelled: bool, grading: float = 0.0
) -> str:
    """Return START's status line: the generator's message, the puzzle's grade and the seed.

    The generator's message times the search only; *grading* is how many seconds the grade and
    statistics took after it (wall time, what the person waited), said when it is long enough
    to notice, so the status accounts for the whole click.

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(seed=7))
    >>> start_status(r, None, False).endswith("Seed 7.")
    True
    >>> start_status(r, None, False, grading=6.04).endswith("Grading took 6.0 s. Seed 7.")
    True
    >>> "Grading" in start_status(r, None, False, grading=0.3)
    False
    """
    text = result.message.rstrip(".") + "."
    if cancelled:
        text = "Interrupted: " + text[:1].lower() + text[1:]
    text += time_limit_text(result, cancelled)
    text += took_text(result)
    if analysis is not None and analysis.grade is not None:
        text += f" {analysis.summary()}."
    if grading >= GRADING_SAID_FROM:
        text += f" Grading took {grading:.1f} s."
    return text + f" Seed {result.seed}."


# -- pencil marks, printed sizes, Collection rows ----------------------------------------------

MARK_SPACE = "\u00a0"  # a no-break space holds a missing candidate's place


def candidates_text(mask: int, geometry: Geometry) -> str:
    """Return a cell's candidates as pencil marks: each digit in its place, a space if gone.

    The marks stand in rows as wide as a box (3 for 9x9, 4 for 12x12 and 16x16), in a
    fixed-width font on the sheet, so a digit is always in the same spot; the spaces are
    no-break spaces, which a centred line keeps.

    >>> print(candidates_text(0b101010001, CLASSIC).replace(MARK_SPACE, "_"))
    1__
    _5_
    7_9
    """
    width = geometry.box_cols
    chars = [
        geometry.digit_char(digit) if mask >> (digit - 1) & 1 else MARK_SPACE
        for digit in range(1, geometry.size + 1)
    ]
    return "\n".join("".join(chars[i : i + width]) for i in range(0, len(chars), width))


def candidates_block(values: Sequence[int], cands: Sequence[int], geometry: Geometry) -> Block:
    r"""Return the Candidates block: pencil marks of the empty cells, ``""`` for filled ones.

    >>> from xlsudoku.engine.board import Board
    >>> board = Board.from_grid(Grid.parse("12345678." + "." * 72))
    >>> candidates_block(board.values, board.cands, CLASSIC)[0][8].replace(MARK_SPACE, " ")
    '   \n   \n  9'
    """
    texts = [
        "" if value else candidates_text(mask, geometry)
        for value, mask in zip(values, cands, strict=True)
    ]
    return block_rows_of(texts, geometry.size)


def block_rows_of(values: Sequence[Any], side: int) -> Block:
    """Return row-major *values* of a *side* x *side* puzzle as a full-size block.

    >>> block_rows_of([1, 2, 3, 4], 2)[1][:3]
    [3, 4, '']
    """
    block: Block = [[""] * layout.MAX_SIDE for _ in range(layout.MAX_SIDE)]
    for index, value in enumerate(values):
        block[index // side][index % side] = value
    return block


def print_sizes(geometry: Geometry | None) -> list[float]:
    """Return the Print sheet's column widths (= row heights) in points for *geometry*.

    The puzzle's columns share :data:`layout.PRINT_SQUARE`; the others are hidden (0).
    None hides every row and column (an answer key that is not printed).

    >>> print_sizes(CLASSIC)[:2], print_sizes(CLASSIC)[9:11], len(print_sizes(None))
    ([56.0, 56.0], [0.0, 0.0], 16)
    """
    side = 0 if geometry is None else geometry.size
    cell = 0.0 if side == 0 else round(layout.PRINT_SQUARE / side, 2)
    return [cell] * side + [0.0] * (layout.MAX_SIDE - side)


# Height of one line of the Collection's puzzle text (9-point fixed-width font), in points.
COLLECTION_LINE_POINTS = 12.0


def collection_row_height(row: Sequence[Any]) -> float:
    """Return the height (points) a Collection row needs to show its puzzle and solution.

    They wrap at :data:`layout.PUZZLE_COLUMN_WIDTH` - 1 characters (three rows of a 9x9
    puzzle per line).

    >>> collection_row_height([1, None, "9x9", "." * 81])
    39.0
    """
    per_line = layout.PUZZLE_COLUMN_WIDTH - 1
    longest = max(
        len(str(value or ""))
        for column, value in zip(layout.COLLECTION_COLUMNS, row, strict=False)
        if column in ("puzzle", "solution")
    )
    lines = max(1, -(-longest // per_line))
    return lines * COLLECTION_LINE_POINTS + 3
