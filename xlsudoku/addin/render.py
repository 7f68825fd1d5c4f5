"""Engine results -> the values written into cells: grids, statistics, rank rows, report lines.

Every function returns plain Python values (blocks are lists of rows, ``""`` for an empty
cell) shaped like the defined name it is written to, so :mod:`addin.actions` only moves them.
Cells are named both ways in messages: the Sudoku name ``r3c5`` and the Excel address.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from xlsudoku.addin import layout
from xlsudoku.engine.grid import CLASSIC, Cell, Grid

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from xlsudoku.engine.analysis import Analysis
    from xlsudoku.engine.generate import GenerateResult
    from xlsudoku.engine.grading import Grade
    from xlsudoku.engine.hints import Hint
    from xlsudoku.engine.ranks import Ranks
    from xlsudoku.engine.symmetry import Symmetry

Block = list[list[Any]]

# Fill colours of the Analyze grid: its normal (input) fill, as the template has it, and while
# a hint is shown the region of a first-level hint and the cells of the pattern (levels 2, 3).
GRID_FILL = "#FFF7D6"
HINT_REGION_COLOUR = "#FFF2CC"
HINT_CELLS_COLOUR = "#F8CBAD"


def grid_rows(grid: Grid | None) -> Block:
    """Return *grid* as 9 rows of digits, ``""`` for a blank cell (all blank for None).

    >>> grid_rows(Grid.parse("5" + "." * 80))[0][:3]
    [5, '', '']
    >>> grid_rows(None)[8][8]
    ''
    """
    size = CLASSIC.size
    if grid is None:
        return [[""] * size for _ in range(size)]
    return [[digit or "" for digit in row] for row in grid.rows()]


def cell_label(name: str, cell: Cell) -> str:
    """Return ``rXcY (ADDRESS)`` for *cell* of the 9x9 block at defined *name*.

    >>> cell_label("AnalyzeGrid", 80)
    'r9c9 (K13)'
    """
    row, column = divmod(cell, CLASSIC.size)
    return f"{CLASSIC.cell_name(cell)} ({layout.NAMES[name].cell(row, column)})"


def cells_text(name: str, cells: Sequence[Cell], most: int = 8) -> str:
    """Return a list of cell labels, cut after *most* with the number left out.

    >>> cells_text("AnalyzeGrid", [0, 1, 2], most=2)
    'r1c1 (C5), r1c2 (D5) and 1 more'
    """
    shown = ", ".join(cell_label(name, cell) for cell in cells[:most])
    return shown + (f" and {len(cells) - most} more" if len(cells) > most else "")


def offsets(cells: Iterable[Cell]) -> list[tuple[int, int]]:
    """Return 0-based (row, column) offsets of *cells* inside a 9x9 block.

    >>> offsets([0, 10, 80])
    [(0, 0), (1, 1), (8, 8)]
    """
    return [divmod(cell, CLASSIC.size) for cell in cells]


def yes_no(flag: bool) -> str:
    """Return ``Yes`` or ``No``.

    >>> yes_no(True), yes_no(False)
    ('Yes', 'No')
    """
    return layout.YES if flag else layout.NO


def grade_text(grade: Grade | None) -> str:
    """Return ``Hard (score 3.4)`` for a grade, ``""`` for None.

    >>> from xlsudoku.engine.grading import Grade
    >>> from xlsudoku.engine.steps import Level, Technique
    >>> grade_text(Grade(Level.HARD, 3.4, (), Technique.X_WING, True))
    'Hard (score 3.4)'
    """
    if grade is None:
        return ""
    return f"{grade.label} (score {grade.score:.1f})"


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
    differing cells and the clue to add (several solutions).
    """
    from xlsudoku.engine.analysis import COUNT_LIMIT, Status

    name = layout.ANALYZE_GRID
    lines = [
        f"Puzzle: {grid}",
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
            hardest = grade.hardest.value if grade.hardest else "none"
            lines += [
                f"Grade: {grade_text(grade)}",
                f"Hardest technique: {hardest}",
                f"Techniques used: {counts_text(grade)}",
            ]
    else:
        lines.append("Solutions: two or more")
        lines.append(
            f"Two solutions differ in {len(analysis.differing)} cells: "
            + cells_text(name, analysis.differing)
        )
        clue = analysis.clue
        if clue is not None:
            left = analysis.clue_solutions
            outcome = (
                "makes the solution unique"
                if analysis.clue_makes_unique
                else f"leaves {left if left < COUNT_LIMIT else f'{COUNT_LIMIT} or more'} solutions"
            )
            lines.append(f"Clue to add: {clue.digit} in {cell_label(name, clue.cell)} {outcome}")
    return pad_lines(lines, layout.NAMES[layout.ANALYZE_REPORT].shape[0])


def pad_lines(lines: Sequence[str], rows: int) -> Block:
    """Return *lines* as a one-column block of exactly *rows* rows (cut or padded with "").

    >>> pad_lines(["a"], 3)
    [['a'], [''], ['']]
    """
    kept = list(lines[:rows])
    return [[line] for line in kept] + [[""] for _ in range(rows - len(kept))]


def hint_text(hint: Hint) -> str:
    """Return the text written to ``HintText``: the level and the engine's sentence.

    >>> from xlsudoku.engine.hints import hint
    >>> hint_text(hint(Grid.parse("12345678." + "." * 72), 2))
    'Hint 2 of 3: Look for a Full House in row 1, at r1c9.'
    """
    if hint.step is None:
        return hint.text
    return f"Hint {hint.level} of 3: {hint.text}"


def saved_at(now: dt.datetime) -> str:
    """Return the Collection's "saved at" text (ISO date and time, to the second).

    >>> saved_at(dt.datetime(2024, 5, 1, 9, 30, 5, 123))
    '2024-05-01 09:30:05'
    """
    return now.strftime("%Y-%m-%d %H:%M:%S")


def analysis_status(analysis: Analysis) -> str:
    """Return the Analyze status line: the engine's one-sentence verdict, capitalised.

    >>> from xlsudoku.engine.analysis import Analysis, Status
    >>> analysis_status(Analysis(Status.NO_SOLUTION, "no solution: the givens clash"))
    'No solution: the givens clash.'
    """
    text = analysis.message
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def stats_block(result: GenerateResult | None, grade: Grade | None = None) -> Block:
    """Return the Stats block: one ``[label, value]`` row per :data:`layout.STATS_LABELS`.

    For None (CLEAR) the labels stay and the values are blank.

    >>> stats_block(None)[0], len(stats_block(None))
    (['Opens', ''], 10)
    """
    if result is None:
        return [[label, ""] for label in layout.STATS_LABELS]
    reached = yes_no(True) if result.reached else f"No (target {result.target})"
    hardest = "" if grade is None else grade.hardest.value if grade.hardest else "none"
    values = {
        "Opens": result.opens,
        "Target reached": reached,
        "Minimal": yes_no(result.minimal),
        "Trials used": result.trials_used,
        "Grids tried": result.grids_tried,
        "Seconds": round(result.seconds, 3),
        "Seed": result.seed,
        "Level": "" if grade is None else grade.label,
        "Score": "" if grade is None else round(grade.score, 1),
        "Hardest technique": hardest,
    }
    return [[label, values[label]] for label in layout.STATS_LABELS]


def _round_label(rank: int, beyond: bool, techniques: Sequence[str]) -> str:
    if not beyond:
        return f"rank {rank}"
    return f"rank {rank} ({', '.join(techniques) or 'beyond singles'})"


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
        block[index] = [_round_label(rnd.rank, rnd.beyond_singles, rnd.techniques), len(rnd.cells)]
    if len(rounds) > rows:
        rest = rounds[rows - 1 :]
        block[rows - 1] = [
            f"ranks {rest[0].rank}-{rest[-1].rank}",
            sum(len(rnd.cells) for rnd in rest),
        ]
    return block


def ranks_text(ranks: Ranks) -> str:
    """Return the Collection's compact ranks: cells per round, ``*`` marking beyond singles.

    >>> from xlsudoku.engine.ranks import RankRound, Ranks
    >>> ranks_text(Ranks((RankRound(1, (0, 1)), RankRound(2, (5,), True)), givens=78))
    '2, 1*'
    """
    return ", ".join(f"{len(rnd.cells)}{'*' if rnd.beyond_singles else ''}" for rnd in ranks.rounds)


def collection_row(
    *,
    id_: int,
    when: dt.datetime,
    puzzle: Grid,
    solution: Grid,
    pattern: int | None,
    symmetry: Symmetry,
    grade: Grade,
    ranks: Ranks,
    seed: int | None,
) -> list[Any]:
    """Return one Collection row, in the order of :data:`layout.COLLECTION_COLUMNS`.

    Puzzle and solution are 81-character strings ('.' for a blank); a blank pattern or seed
    means the puzzle was not made by START with these (typed or edited by hand).
    """
    values = {
        "id": id_,
        "saved at": saved_at(when),
        "puzzle": str(puzzle),
        "solution": str(solution),
        "opens": puzzle.given_count,
        "pattern": "" if pattern is None else pattern,
        "symmetry": symmetry.value,
        "level": grade.label,
        "score": round(grade.score, 1),
        "ranks": ranks_text(ranks),
        "seed": "" if seed is None else seed,
    }
    return [values[column] for column in layout.COLLECTION_COLUMNS]


def time_limit_text(result: GenerateResult, cancelled: bool) -> str:
    """Return the sentence saying that the time limit stopped the run, or "" when it did not.

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(opens=17, pattern=None, seed=1, time_limit=0.2))
    >>> time_limit_text(r, False)
    ' Stopped by the time limit (0.2 s, Time limit (s) in C11).'
    >>> time_limit_text(generate(GenerateRequest(seed=1, time_limit=60)), False)
    ''
    """
    limit = result.request.time_limit
    if result.reached or cancelled or limit is None or result.seconds < limit:
        return ""
    where = layout.PARAMS_BY_NAME[layout.TIME_LIMIT]
    return f" Stopped by the time limit ({limit:g} s, {where.label} in {where.ref.top_left})."


def start_status(result: GenerateResult, grade: Grade | None, cancelled: bool) -> str:
    """Return START's status line: the generator's message, the grade and the seed.

    >>> from xlsudoku.engine.generate import GenerateRequest, generate
    >>> r = generate(GenerateRequest(seed=7))
    >>> start_status(r, None, False).endswith("Seed 7.")
    True
    """
    text = result.message.rstrip(".") + "."
    if cancelled:
        text = "Interrupted: " + text[:1].lower() + text[1:]
    text += time_limit_text(result, cancelled)
    if grade is not None:
        text += f" {grade_text(grade)}."
    return text + f" Seed {result.seed}."
