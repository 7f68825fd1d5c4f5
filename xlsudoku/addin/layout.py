"""The workbook contract: sheet names, defined names, their addresses, defaults and rules.

This is the only module that knows Excel addresses.  Everything else reads and writes the
workbook through the workbook-scoped defined names listed in :data:`NAMES`; the build script
(:mod:`xlsudoku.template.build`) creates those names from this table, and the parameter
parser reuses :data:`PARAMS` (type, range, allowed values, default) to check what a user typed.

Every grid is a 16x16 block (the largest shape); a smaller puzzle fills its top-left corner and
conditional formats (keyed on the shape's name) draw the boxes.  Picture of the Generator sheet
(columns B-D parameters, F-U the puzzle, W-X the statistics)::

    row 1   title
    row 3   Parameter | Value | Allowed      "Sudoku" (F3:U3)        Statistics
    4-15    Geometry .. Score (C4:C15)      PuzzleGrid F4:U19       Stats W4:X14
    16      [START] [SAVE TO COLLECTION] [CLEAR]
    17-20   Status C17 (merged C17:D20)                             RankTable W17:X36
    20                                      caption F20:U20
    21-29   PatternPictures B22:D29         SolutionGrid F22:U37
    31-36   Collection tools: ImportSource, DeleteIds, SortBy, [IMPORT] [DELETE] [SORT], HighestId
    37      RestoreIds [RESTORE] (Removed sheet -> Collection)

The Print sheet is the page to solve on (PrintGrid B2:Q17 and, on a second page, PrintKey
B20:Q35, both formulas on the Generator's grids); the Analyze sheet holds the typed puzzle
(C6:R21), its candidates (T6:AI21), the report and two solutions side by side (C41, T41); the
Play sheet the puzzle being played (PlayGrid C6:R21: givens and the player's entries), the
player's pencil marks (PlayMarks T6:AI21), the digit to highlight (PlayHighlight J4) and, in
hidden columns, the givens (PlayGivens), the clock (PlayClock) and the moves UNDO steps back
through (PlayHistory); the Stats sheet the three tables STATS fills (StatsLevels, StatsScores,
StatsOpens) under the native charts drawn from them.

The module is plain data; it imports only the standard library, the engine and the A1 address
helpers of :mod:`xlsudoku.xlsm.cells` (:class:`Ref`), so it also loads in xlwings Lite (Pyodide),
where openpyxl is absent.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from xlsudoku.engine.generate.deep import LOW_GIVENS_TARGET
from xlsudoku.engine.generate.request import DEFAULT_GIVENS, SCORE_BOTTOM, SCORE_TOP
from xlsudoku.engine.grid import JIGSAW_LAYOUTS
from xlsudoku.engine.ratings import DEFAULT_PROFILE, PROFILES
from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry
from xlsudoku.engine.techniques import TECHNIQUES
from xlsudoku.xlsm.cells import MAX_ROWS, Ref, cell_address, column_letters, parse_cell

GENERATOR = "Generator"
PRINT = "Print"
ANALYZE = "Analyze"
COLLECTION = "Collection"
REMOVED = "Removed"
PLAY = "Play"
STATS_SHEET = "Stats"  # the sheet; the Generator's statistics block is the defined name STATS
SHEETS: tuple[str, ...] = (GENERATOR, PRINT, ANALYZE, COLLECTION, REMOVED, PLAY, STATS_SHEET)


class Kind(enum.Enum):
    """How a parameter cell is read and validated."""

    WHOLE = "whole"  # a whole number in [minimum, maximum]
    DECIMAL = "decimal"  # any number in [minimum, maximum]
    CHOICE = "choice"  # one of ``choices`` (case-insensitive)
    PATTERN = "pattern"  # a preset number, "none" or a mask of the center box
    TEXT = "text"  # free text, read by the action that uses it
    SCORE = "score"  # a range of ratings MIN-MAX or MIN- (a number: that one rating)
    BUDGET = "budget"  # seconds in [minimum, maximum], or cpu:SECONDS or work:UNITS


@dataclass(frozen=True, slots=True)
class Param:
    """An input cell: its name, place, rule and help texts.

    Attributes:
        name: the workbook-scoped defined name (also the key in :data:`NAMES`).
        label: the label shown beside the cell and used in messages, e.g. ``Opens``.
        ref: where the cell is.
        kind: how the value is checked.
        default: the value the template holds (``None`` = blank).
        minimum: lowest allowed number (WHOLE and DECIMAL).
        maximum: highest allowed number (WHOLE and DECIMAL).
        choices: allowed texts (CHOICE; the dropdown of PATTERN), first letter case as shown.
        optional: whether a blank cell is allowed (its meaning is in ``allowed``).
        allowed: short help shown in the sheet's "Allowed" column.
        note: the cell note (comment) text.
        width: how many cells the input spans (merged to the right).
    """

    name: str
    label: str
    ref: Ref
    kind: Kind
    default: int | float | str | None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False
    allowed: str = ""
    note: str = field(default="", repr=False)
    width: int = 1


# -- geometries --------------------------------------------------------------------------------

# Every grid shape the sheets take: name -> (side, box rows, box columns, diagonals).  The
# engine's standard shapes (xlsudoku.engine.grid.SHAPES) plus X-Sudoku and Windoku on 9x9
# (Windoku's boxes are the classic ones; its four extra boxes are shaded by the actions).
# A Jigsaw ("9x9-jigsaw:LAYOUT") is not in this table: its grid is 9x9's, drawn with the
# regions of its layout (see REGION_CELLS) instead of the rectangular boxes.
GEOMETRIES: dict[str, tuple[int, int, int, bool]] = {
    "9x9": (9, 3, 3, False),
    "9x9-X": (9, 3, 3, True),
    "9x9-windoku": (9, 3, 3, False),
    "4x4": (4, 2, 2, False),
    "6x6": (6, 2, 3, False),
    "12x12": (12, 3, 4, False),
    "16x16": (16, 4, 4, False),
}
CLASSIC_NAME = "9x9"
# The Jigsaws the Geometry dropdowns offer (the published layouts); any other layout is typed
# as 9x9-jigsaw: and its 81 region characters, and Python checks it.
JIGSAW_PREFIX = "9x9-jigsaw:"
JIGSAW_CHOICES: tuple[str, ...] = tuple(f"{JIGSAW_PREFIX}{name}" for name in JIGSAW_LAYOUTS)
MAX_SIDE = max(side for side, _, _, _ in GEOMETRIES.values())

# -- Generator sheet ---------------------------------------------------------------------------

GEOMETRY = "Geometry"
PATTERN = "Pattern"
OPENS = "Opens"
TRIALS = "Trials"
SHOW_SOLUTION = "ShowSolution"
SYMMETRY = "Symmetry"
DIFFICULTY = "Difficulty"
NEEDS = "Needs"
SEED = "Seed"
TIME_LIMIT = "TimeLimit"
RATING = "Rating"
SCORE = "Score"
STATUS = "Status"
PUZZLE_GRID = "PuzzleGrid"
SOLUTION_GRID = "SolutionGrid"
STATS = "Stats"
RANK_TABLE = "RankTable"
PATTERN_PICTURES = "PatternPictures"
CAPTION = "Caption"

PATTERN_COUNT = 12
MIN_OPENS = 4  # the fewest clues of any shape (4x4); the engine checks each shape's floor
MAX_OPENS = MAX_SIDE * MAX_SIDE
MAX_TRIALS = 99_999
MAX_SEED = 999_999_999_999_999  # 15 digits: Excel keeps every digit of a whole number this big
MAX_TIME_LIMIT = 3600.0
# A blank Time limit cell: every START run stops after this many seconds with the best puzzle
# (Lite and Server cannot be interrupted; the status says when the limit stopped a run).
DEFAULT_TIME_LIMIT = 60.0

YES = "Yes"
NO = "No"
ANY_DIFFICULTY = "any"
NO_TECHNIQUE = "none"
NO_PATTERN = "none"
SYMMETRY_CHOICES: tuple[str, ...] = tuple(symmetry.value for symmetry in Symmetry)
DIFFICULTY_LEVELS: dict[str, Level | None] = {ANY_DIFFICULTY: None} | {
    level.label.lower(): level for level in Level
}
# The techniques a puzzle can be asked to need: the registry's, in solve order, each once.
TECHNIQUE_NAMES: tuple[str, ...] = tuple(dict.fromkeys(spec.technique.value for spec in TECHNIQUES))
PATTERN_CHOICES: tuple[str, ...] = (*(str(n) for n in range(1, PATTERN_COUNT + 1)), NO_PATTERN)

PARAMS: tuple[Param, ...] = (
    Param(
        GEOMETRY,
        "Geometry",
        Ref(GENERATOR, "C4"),
        Kind.CHOICE,
        CLASSIC_NAME,
        choices=(*GEOMETRIES, *JIGSAW_CHOICES),
        allowed="dropdown, or 9x9-jigsaw:LAYOUT",
        note=(
            "Shape of the grid: 9x9 (classic), 9x9-X (both diagonals hold 1-9 too), "
            "9x9-windoku (the four shaded extra boxes too), a Jigsaw (irregular regions "
            "instead of boxes: 9x9-jigsaw:spiral, :steps or :comb, or 9x9-jigsaw: and your "
            "own 81 characters naming each cell's region, row by row), 4x4, 6x6, 12x12 or "
            "16x16 (digits above 9 are written 10-16; letters A-G are read too). START and "
            "CLEAR shape the grid and the Print sheet. Only 9x9 and 9x9-X have a center box "
            "for a Pattern, so the other shapes need Pattern none."
        ),
    ),
    Param(
        PATTERN,
        "Pattern",
        Ref(GENERATOR, "C5"),
        Kind.PATTERN,
        1,
        choices=PATTERN_CHOICES,
        allowed="1-12, none, or a mask",
        note=(
            "Which cells of the center box are givens: a preset 1-12 (pictures under Patterns, "
            "the chosen one highlighted: ■ always a given, □ always blank), none (the center "
            "box is free like the rest), or your own 9-character mask of the box row by row, "
            "x for a given and . for a blank, e.g. x.x.x.x.x. Presets 1-6 have an even number "
            "of givens, 7-12 an odd number (the center cell among them). 9x9 and 9x9-X only."
        ),
    ),
    Param(
        OPENS,
        "Opens",
        Ref(GENERATOR, "C6"),
        Kind.WHOLE,
        26,
        minimum=MIN_OPENS,
        maximum=MAX_OPENS,
        allowed="number of givens",
        note=(
            "Target number of givens. It must fit the shape: 9x9 17-81 (below 17 no puzzle has "
            f"one solution; {LOW_GIVENS_TARGET} and below start a longer search), 4x4 4-16, 6x6 "
            "8-36, 12x12 "
            "11-144, 16x16 15-256. Symmetric givens come in orbits: with 180° symmetry in "
            "pairs, so Opens must be even for patterns 1-6 and odd for patterns 7-12; the "
            "status names the nearest counts that can be made."
        ),
    ),
    Param(
        TRIALS,
        "Trials",
        Ref(GENERATOR, "C7"),
        Kind.WHOLE,
        299,
        minimum=1,
        maximum=MAX_TRIALS,
        allowed=f"1-{MAX_TRIALS}",
        note=(
            "How many attempts the generator may make to reach the target before it returns "
            "the closest puzzle found (the statistics then say Target reached: No)."
        ),
    ),
    Param(
        SHOW_SOLUTION,
        "Show solution",
        Ref(GENERATOR, "C8"),
        Kind.CHOICE,
        NO,
        choices=(NO, YES),
        allowed="Yes = + answer key",
        note=(
            "Yes writes the solution under the puzzle and adds it to the Print sheet as a "
            "second page (the answer key); No leaves both empty."
        ),
    ),
    Param(
        SYMMETRY,
        "Symmetry",
        Ref(GENERATOR, "C9"),
        Kind.CHOICE,
        Symmetry.ROTATE_180.value,
        choices=SYMMETRY_CHOICES,
        allowed="dropdown",
        note=(
            "Symmetry of the givens: rotate180 (the classic), rotate90, horizontal, vertical, "
            "diagonal, antidiagonal, dihedral (all of them) or none."
        ),
    ),
    Param(
        DIFFICULTY,
        "Difficulty",
        Ref(GENERATOR, "C10"),
        Kind.CHOICE,
        ANY_DIFFICULTY,
        choices=tuple(DIFFICULTY_LEVELS),
        allowed="dropdown",
        note=(
            "Level the puzzle should have, from the hardest technique a person needs: any, "
            "easy, medium, hard, very hard, diabolical, beyond technique. Not together with "
            "Needs technique. When Trials or the Time limit run out first, the closest puzzle "
            "comes back and the status says what was missed."
        ),
    ),
    Param(
        NEEDS,
        "Needs technique",
        Ref(GENERATOR, "C11"),
        Kind.CHOICE,
        NO_TECHNIQUE,
        choices=(NO_TECHNIQUE, *TECHNIQUE_NAMES),
        allowed="dropdown of techniques",
        note=(
            "A technique the puzzle's solve path must use (the dropdown lists every technique "
            "the solver knows), or none. Not together with Difficulty. Rare techniques may "
            "need more Trials or a Time limit; when none is found the closest puzzle comes "
            "back and the status says so."
        ),
    ),
    Param(
        SEED,
        "Seed",
        Ref(GENERATOR, "C12"),
        Kind.WHOLE,
        None,
        minimum=0,
        maximum=MAX_SEED,
        optional=True,
        allowed="blank = random",
        note=(
            "Blank for a new random puzzle each time; a whole number repeats the same puzzle "
            "for the same parameters. The seed used is shown in Statistics."
        ),
    ),
    Param(
        TIME_LIMIT,
        "Time limit (s)",
        Ref(GENERATOR, "C13"),
        Kind.BUDGET,
        None,
        minimum=0.1,
        maximum=MAX_TIME_LIMIT,
        optional=True,
        allowed=f"seconds (or cpu:60, work:30), blank = {DEFAULT_TIME_LIMIT:g}",
        note=(
            f"Stop after this many seconds (0.1-{MAX_TIME_LIMIT:g}) and keep the best puzzle "
            f"found. Blank: {DEFAULT_TIME_LIMIT:g} s. The seconds are what you wait for; "
            "cpu:60 counts 60 s of the processor's time instead (the same search on a busy "
            "machine), work:30 counts 30 units of the search's own work (the same puzzle for "
            "the same seed on any machine, a unit about a second). Trials limits the run too; "
            "the status says when the time limit stopped it. Opens below the fewest a "
            "10-minute benchmark run reached with the pattern (docs/generator.md, Floors) get a "
            "5-second search and a status saying so, unless the limit is over 600 s."
        ),
    ),
    Param(
        RATING,
        "Rating",
        Ref(GENERATOR, "C14"),
        Kind.CHOICE,
        DEFAULT_PROFILE,
        choices=tuple(PROFILES),
        allowed="dropdown",
        note=(
            "The scale of the score (START's status and statistics, the Collection's score): "
            "se = Sudoku Explainer 1.2.1, the forum's standard (single-digit patterns and "
            "finned fish rate as chains, 6.6 and up); sukaku = SukakuExplainer (Skyscraper, "
            "Kite, finned fish and the big wings by name, 4.0-7.5). The level (Easy ... "
            "Diabolical) is the human-style solver's either way. Score asks on this scale."
        ),
    ),
    Param(
        SCORE,
        "Score",
        Ref(GENERATOR, "C15"),
        Kind.SCORE,
        None,
        minimum=SCORE_BOTTOM,  # each end of the range lies within these
        maximum=SCORE_TOP,
        optional=True,
        allowed="e.g. 7.0-8.0 or 9-, blank = any",
        note=(
            "Make a puzzle rated in this range on the Rating cell's scale: MIN-MAX (7.0-8.0), "
            "MIN- for MIN or more (9-), or one rating (7.5). Opens is then the most givens "
            "allowed. Not together with Difficulty or Needs technique. Ratings up to about 8 "
            "come in seconds; 9 and more take minutes (raise the Time limit, e.g. cpu:600). "
            "When none is found in time the closest puzzle comes back and the status gives "
            "its rating. Blank: any rating."
        ),
    ),
)
PARAMS_BY_NAME: dict[str, Param] = {param.name: param for param in PARAMS}

# SUDOKU_GENERATE makes classic 9x9 puzzles: its opens follow the 9x9 range, its pattern is a
# preset number.
# The custom functions' arguments (SUDOKU_SOLVE, SUDOKU_COUNT, SUDOKU_GRADE, SUDOKU_GENERATE).
# A blank or omitted argument takes its default; the grid functions read the shape from the
# range's size unless geometry names it (9x9-X must be named); SUDOKU_GENERATE's opens and
# pattern default by shape (a pattern needs a center box: 9x9 and 9x9-X only).
FUNCTION_GEOMETRY = Param(
    GEOMETRY, "geometry", PARAMS_BY_NAME[GEOMETRY].ref, Kind.CHOICE, None,
    choices=tuple(GEOMETRIES), optional=True,
)  # fmt: skip
FUNCTION_PATTERN = Param(
    PATTERN, "pattern", PARAMS_BY_NAME[PATTERN].ref, Kind.PATTERN, None, choices=PATTERN_CHOICES,
    optional=True,
)  # fmt: skip
# The opens are the engine's per-shape defaults, the same as the command line's.
FUNCTION_DEFAULTS: dict[str, tuple[int, int | str]] = {  # shape -> (opens, pattern)
    name: (DEFAULT_GIVENS[name], 1 if name.startswith("9x9") else NO_PATTERN)
    for name in ("9x9", "9x9-X", "9x9-windoku", "4x4", "6x6", "12x12", "16x16")
}
MAX_COUNT_LIMIT = 1000  # SUDOKU_COUNT counts at most this many solutions
FUNCTION_LIMIT = Param(
    "Limit", "limit", PARAMS_BY_NAME[OPENS].ref, Kind.WHOLE, 2, minimum=1,
    maximum=MAX_COUNT_LIMIT, optional=True,
)  # fmt: skip
# Every custom function that searches (all four) stops after its time_limit and answers with an
# ERROR text instead: one formula must never hold Excel, xlwings Lite's one Python or a Server
# worker.  Blank: FUNCTION_TIME_LIMIT seconds.
FUNCTION_TIME_LIMIT = 10.0
MAX_FUNCTION_TIME_LIMIT = 600.0
FUNCTION_BUDGET = Param(
    TIME_LIMIT, "time_limit", PARAMS_BY_NAME[TIME_LIMIT].ref, Kind.BUDGET, None, minimum=0.1,
    maximum=MAX_FUNCTION_TIME_LIMIT, optional=True,
)  # fmt: skip

STATS_LABELS: tuple[str, ...] = (
    "Geometry",
    "Opens",
    "Target reached",
    "Minimal",
    "Trials used",
    "Grids tried",
    "Seconds",
    "Seed",
    "Level",
    "Score",
    "Hardest technique",
)
RANK_ROWS = 20
# Hidden: what START's analysis found for its puzzle (render.Facts as one line of JSON), so
# that SAVE TO COLLECTION keeps it without analysing the puzzle again.
GENERATOR_FACTS = "GeneratorFacts"

# -- Collection tools (on the Generator sheet, beside SAVE TO COLLECTION) ------------------------

IMPORT_SOURCE = "ImportSource"
DELETE_IDS = "DeleteIds"
RESTORE_IDS = "RestoreIds"
SORT_BY = "SortBy"
HIGHEST_ID = "HighestId"
DESCENDING = " (descending)"
SORT_COLUMNS: tuple[str, ...] = (
    "id", "saved at", "geometry", "opens", "pattern", "symmetry", "level", "score", "seed",
)  # fmt: skip
SORT_CHOICES: tuple[str, ...] = tuple(
    column + order for column in SORT_COLUMNS for order in ("", DESCENDING)
)

TOOLS: tuple[Param, ...] = (
    Param(
        IMPORT_SOURCE,
        "Import from",
        Ref(GENERATOR, "C32"),
        Kind.TEXT,
        None,
        optional=True,
        allowed="",
        width=2,
        note=(
            "IMPORT reads puzzles from here: the puzzles themselves (81-character lines), the "
            "name of a sheet or range holding them (Paste, Paste!A1:A500), or on the desktop "
            "the path of a puzzle file (.txt/.sdm one per line, .sdk/.ss drawings, .csv); "
            "xlwings Lite and Server read no files. Each new puzzle with one solution becomes "
            "a Collection row; puzzles already there (or twice in the source) are skipped."
        ),
    ),
    Param(
        DELETE_IDS,
        "Delete ids",
        Ref(GENERATOR, "C33"),
        Kind.TEXT,
        None,
        optional=True,
        allowed="",
        width=2,
        note=(
            "DELETE moves the Collection rows with these ids (e.g. 3, 5-7) to the Removed "
            "sheet, with the time and reason; nothing is destroyed and ids are never reused."
        ),
    ),
    Param(
        RESTORE_IDS,
        "Restore ids",
        Ref(GENERATOR, "C37"),
        Kind.TEXT,
        None,
        optional=True,
        allowed="",
        note=(
            "RESTORE moves the Removed sheet's rows with these ids (e.g. 3, 5-7) back to the "
            "Collection under the same ids. An id the Collection already holds is refused."
        ),
    ),
    Param(
        SORT_BY,
        "Sort by",
        Ref(GENERATOR, "C34"),
        Kind.CHOICE,
        "id",
        choices=SORT_CHOICES,
        allowed="",
        width=2,
        note=(
            "SORT reorders the Collection rows by this column (levels from Easy to Beyond "
            "technique); every row is kept, only the order changes."
        ),
    ),
)
TOOLS_BY_NAME: dict[str, Param] = {param.name: param for param in TOOLS}

# -- Print sheet -------------------------------------------------------------------------------

PRINT_TITLE = "PrintTitle"
PRINT_GRID = "PrintGrid"
PRINT_RULES = "PrintRules"
PRINT_KEY_TITLE = "PrintKeyTitle"
PRINT_KEY = "PrintKey"
# IMAGE (beside the page, outside its print area): its status, and where the picture goes
# where one can be inserted into the sheet (Excel; xlwings Lite and Server).
PRINT_STATUS = "PrintStatus"
PICTURE_ANCHOR = Ref(PRINT, "S3")
PICTURE_NAME = "xlsudoku puzzle"
PICTURE_PIXELS = 600  # the picture's width, as xlsudoku image draws it by default
# Side of the printed puzzle's square in points: 7 inches, the width of A4 or Letter paper
# inside half-inch margins.  START and CLEAR size the Print sheet's columns and rows so the
# grid of any shape fills it.
PRINT_SQUARE = 504.0

# -- Collection and Removed sheets -------------------------------------------------------------

COLLECTION_HEADER = "CollectionHeader"
COLLECTION_COLUMNS: tuple[str, ...] = (
    "id",
    "saved at",
    "geometry",
    "puzzle",
    "solution",
    "opens",
    "pattern",
    "symmetry",
    "level",
    "score",
    "ranks",
    "seed",
    "notes",
    "profile",
)
REMOVED_HEADER = "RemovedHeader"
REMOVED_COLUMNS: tuple[str, ...] = (*COLLECTION_COLUMNS, "removed at", "reason")
# Columns written as text (Excel must not turn them into numbers or dates), wrapped to their
# width; "saved at" and "removed at" are date-times.
TEXT_COLUMNS: tuple[str, ...] = ("puzzle", "solution", "ranks", "notes", "reason")
DATE_COLUMNS: tuple[str, ...] = ("saved at", "removed at")
DATE_FORMAT = "yyyy-mm-dd hh:mm:ss"
PUZZLE_COLUMN_WIDTH = 28.5  # characters: 27 cells of a 9x9 puzzle (three of its rows) a line

# -- Analyze sheet -----------------------------------------------------------------------------

ANALYZE_GEOMETRY = "AnalyzeGeometry"
ANALYZE_GRID = "AnalyzeGrid"
ANALYZE_STRING = "AnalyzeString"
ANALYZE_STATUS = "AnalyzeStatus"
ANALYZE_REPORT = "AnalyzeReport"
HINT_TEXT = "HintText"
# Hidden: the digits HINT placed in the Analyze grid, each where it went; the grid draws a cell
# holding the same digit as its twin here blue, not as a given (a conditional format).
HINT_PLACED = "HintPlaced"
CANDIDATES = "Candidates"
ANALYZE_SOLUTION = "AnalyzeSolution"
ANALYZE_SOLUTION2 = "AnalyzeSolution2"
LEGEND = "Legend"
REPORT_LINES = 12
# EXPLAIN writes the path's steps one a row under the solutions (ANALYZE clears them): enough
# rows for a 16x16 puzzle's path; a longer one shows its first steps and how many are left.
EXPLAIN_STEPS = "ExplainSteps"
EXPLAIN_ROWS = 600
EXPLAIN_FIRST_ROW = 59
EXPLAIN_HEADING = Ref(ANALYZE, f"C{EXPLAIN_FIRST_ROW - 1}:AI{EXPLAIN_FIRST_ROW - 1}")
REPORT_WIDTH = 150  # characters a report line may hold before it is wrapped onto the next

ANALYZE_PARAMS: tuple[Param, ...] = (
    Param(
        ANALYZE_GEOMETRY,
        "Geometry",
        Ref(ANALYZE, "C4"),
        Kind.CHOICE,
        CLASSIC_NAME,
        choices=(*GEOMETRIES, *JIGSAW_CHOICES),
        allowed="",
        width=3,
        note=(
            "Shape of the puzzle typed below: 9x9, 9x9-X (diagonals too), 9x9-windoku (four "
            "extra boxes too), a Jigsaw (9x9-jigsaw:spiral, :steps, :comb, or 9x9-jigsaw: and "
            "81 region characters), 4x4, 6x6, 12x12 or 16x16. A pasted Puzzle string of "
            "another size sets it."
        ),
    ),
)

# -- Play sheet --------------------------------------------------------------------------------

PLAY_SOURCE = "PlaySource"
PLAY_GEOMETRY = "PlayGeometry"
PLAY_GRID = "PlayGrid"
PLAY_MARKS = "PlayMarks"
PLAY_GIVENS = "PlayGivens"
PLAY_STATUS = "PlayStatus"
PLAY_HINT = "PlayHint"
PLAY_LEGEND = "PlayLegend"
# What Play from may name besides a Collection id (the first is the default).
PLAY_FROM_GENERATOR = "Generator"
PLAY_FROM_ANALYZE = "Analyze"
PLAY_FROM_SELECTED = "Selected"

PLAY_PARAMS: tuple[Param, ...] = (
    Param(
        PLAY_SOURCE,
        "Play from",
        Ref(PLAY, "C3"),
        Kind.TEXT,
        PLAY_FROM_GENERATOR,
        choices=(PLAY_FROM_GENERATOR, PLAY_FROM_ANALYZE, PLAY_FROM_SELECTED),
        allowed="",
        width=6,
        note=(
            "The puzzle PLAY puts on the grid: Generator (the puzzle START made, the default), "
            "Analyze (the puzzle typed on the Analyze sheet), a Collection id such as 7, or "
            "Selected: the Collection row selected when PLAY runs (run play from the xlwings "
            "Lite or Server pane on the Collection sheet; without Excel, the active cell the "
            "file was saved with). "
            "PLAY starts afresh: the givens are locked (Excel refuses a digit typed over one) "
            "and drawn in bold black, your entries in blue."
        ),
    ),
)

# -- Play comforts -----------------------------------------------------------------------------

# The digit the Play grid highlights (a conditional format: every cell holding it), the clock
# (hidden: when PLAY started, the seconds CHECK found it solved in, and the grid and pencil
# marks as the last Play button left them) and the history UNDO steps back through (hidden:
# one move a row, the oldest first: the grid and marks before it, and what it was).
PLAY_HIGHLIGHT = "PlayHighlight"
PLAY_CLOCK = "PlayClock"
PLAY_HISTORY = "PlayHistory"
HISTORY_ROWS = 60  # moves UNDO can step back through
HIGHLIGHT_LABEL = Ref(PLAY, "G4:I4")

# -- Stats sheet -------------------------------------------------------------------------------

# Three tables STATS fills from the Collection (label, count per row) and the three native
# charts the template draws from them, once: Excel and LibreOffice redraw a chart when the cells
# it references change, so the charts themselves are never rewritten.
STATS_STATUS = "StatsStatus"
STATS_LEVELS = "StatsLevels"
STATS_SCORES = "StatsScores"
STATS_OPENS = "StatsOpens"
STATS_BINS = 10  # rows of the score and the opens tables (ranges of equal width)
LEVEL_LABELS: tuple[str, ...] = tuple(level.label for level in Level)
STATS_TABLES: tuple[tuple[str, str, str], ...] = (  # name, heading, the chart's title
    (STATS_LEVELS, "Level", "Puzzles per level"),
    (STATS_SCORES, "Score", "Score distribution"),
    (STATS_OPENS, "Opens", "Puzzles per number of opens"),
)
STATS_CHART_ANCHORS: dict[str, str] = {STATS_LEVELS: "B20", STATS_SCORES: "B38", STATS_OPENS: "B56"}
STATS_CHART_SIZE = (18.0, 8.5)  # width, height in centimetres

# -- every defined name ------------------------------------------------------------------------


def _grid(sheet: str, top_left: str) -> Ref:
    """Return the MAX_SIDE x MAX_SIDE block whose first cell is *top_left*."""
    row, column = parse_cell(top_left)
    return Ref(
        sheet,
        f"{top_left}:{cell_address(row + MAX_SIDE - 1, column + MAX_SIDE - 1)}",
    )


GRIDS: tuple[str, ...] = (
    PUZZLE_GRID, SOLUTION_GRID, PRINT_GRID, PRINT_KEY, ANALYZE_GRID, CANDIDATES,
    ANALYZE_SOLUTION, ANALYZE_SOLUTION2, PLAY_GRID, PLAY_MARKS, PLAY_GIVENS, HINT_PLACED,
)  # fmt: skip

INPUTS: tuple[Param, ...] = (*PARAMS, *TOOLS, *ANALYZE_PARAMS, *PLAY_PARAMS)
NAMES: dict[str, Ref] = {param.name: param.ref for param in INPUTS} | {
    STATUS: Ref(GENERATOR, "C17"),
    PUZZLE_GRID: _grid(GENERATOR, "F4"),
    CAPTION: Ref(GENERATOR, "F20"),
    SOLUTION_GRID: _grid(GENERATOR, "F22"),
    STATS: Ref(GENERATOR, f"W4:X{4 + len(STATS_LABELS) - 1}"),
    RANK_TABLE: Ref(GENERATOR, f"W17:X{17 + RANK_ROWS - 1}"),
    PATTERN_PICTURES: Ref(GENERATOR, "B22:D29"),
    HIGHEST_ID: Ref(GENERATOR, "C36"),
    GENERATOR_FACTS: Ref(GENERATOR, "BH1"),
    PRINT_TITLE: Ref(PRINT, "B1"),
    PRINT_GRID: _grid(PRINT, "B2"),
    PRINT_RULES: Ref(PRINT, "B18"),
    PRINT_KEY_TITLE: Ref(PRINT, "B19"),
    PRINT_KEY: _grid(PRINT, "B20"),
    PRINT_STATUS: Ref(PRINT, "T1"),
    COLLECTION_HEADER: Ref(COLLECTION, f"A1:{column_letters(len(COLLECTION_COLUMNS))}1"),
    REMOVED_HEADER: Ref(REMOVED, f"A1:{column_letters(len(REMOVED_COLUMNS))}1"),
    ANALYZE_STRING: Ref(ANALYZE, "C3"),
    ANALYZE_GRID: _grid(ANALYZE, "C6"),
    CANDIDATES: _grid(ANALYZE, "T6"),
    LEGEND: Ref(ANALYZE, "B13:B17"),
    ANALYZE_STATUS: Ref(ANALYZE, "C23"),
    HINT_TEXT: Ref(ANALYZE, "C24"),
    ANALYZE_REPORT: Ref(ANALYZE, f"C27:C{27 + REPORT_LINES - 1}"),
    ANALYZE_SOLUTION: _grid(ANALYZE, "C41"),
    ANALYZE_SOLUTION2: _grid(ANALYZE, "T41"),
    HINT_PLACED: _grid(ANALYZE, "BN6"),
    EXPLAIN_STEPS: Ref(ANALYZE, f"C{EXPLAIN_FIRST_ROW}:C{EXPLAIN_FIRST_ROW + EXPLAIN_ROWS - 1}"),
    PLAY_GEOMETRY: Ref(PLAY, "C4"),
    PLAY_GRID: _grid(PLAY, "C6"),
    PLAY_MARKS: _grid(PLAY, "T6"),
    PLAY_GIVENS: _grid(PLAY, "BN6"),
    PLAY_LEGEND: Ref(PLAY, "B18:B22"),
    PLAY_HIGHLIGHT: Ref(PLAY, "J4"),
    PLAY_CLOCK: Ref(PLAY, "BN23:BP23"),
    PLAY_HISTORY: Ref(PLAY, f"BN26:BO{26 + HISTORY_ROWS - 1}"),
    PLAY_STATUS: Ref(PLAY, "C23"),
    PLAY_HINT: Ref(PLAY, "C24"),
    STATS_STATUS: Ref(STATS_SHEET, "C4"),
    STATS_LEVELS: Ref(STATS_SHEET, f"B8:C{8 + len(LEVEL_LABELS) - 1}"),
    STATS_SCORES: Ref(STATS_SHEET, f"E8:F{8 + STATS_BINS - 1}"),
    STATS_OPENS: Ref(STATS_SHEET, f"H8:I{8 + STATS_BINS - 1}"),
}

# Cells merged for long text: the defined name points at the first cell of each block.
MERGED: dict[str, Ref] = {
    STATUS: Ref(GENERATOR, "C17:D20"),
    CAPTION: NAMES[PUZZLE_GRID].row_span(20),
    IMPORT_SOURCE: Ref(GENERATOR, "C32:D32"),
    DELETE_IDS: Ref(GENERATOR, "C33:D33"),
    SORT_BY: Ref(GENERATOR, "C34:D34"),
    PRINT_TITLE: NAMES[PRINT_GRID].row_span(1),
    PRINT_RULES: NAMES[PRINT_GRID].row_span(18),
    PRINT_KEY_TITLE: NAMES[PRINT_GRID].row_span(19),
    PRINT_STATUS: Ref(PRINT, "T1:AD1"),
    ANALYZE_STRING: Ref(ANALYZE, "C3:AI3"),
    ANALYZE_GEOMETRY: Ref(ANALYZE, "C4:E4"),
    ANALYZE_STATUS: Ref(ANALYZE, "C23:AI23"),
    HINT_TEXT: Ref(ANALYZE, "C24:AI25"),
    PLAY_SOURCE: Ref(PLAY, "C3:H3"),
    PLAY_GEOMETRY: Ref(PLAY, "C4:E4"),
    PLAY_STATUS: Ref(PLAY, "C23:AI23"),
    PLAY_HINT: Ref(PLAY, "C24:AI25"),
    STATS_STATUS: Ref(STATS_SHEET, "C4:I5"),
}

# Header rows whose table grows downwards: the rows under them are the table's.
TABLE_HEADERS: tuple[str, ...] = (COLLECTION_HEADER, REMOVED_HEADER)


def footprint(name: str, address: str) -> tuple[int, int, int, int]:
    """Return the cells a button may write through *name* when it points at *address*.

    Bounds are ``(first_row, first_column, last_row, last_column)``: the name's own range,
    and for a table's header row the rows under it down the sheet.  Two names whose
    footprints overlap would have a button write one over the other.

    >>> footprint("Status", "$C$6")
    (6, 3, 6, 3)
    >>> footprint("CollectionHeader", "$A$1:$M$1")
    (1, 1, 1048576, 13)
    """
    first_row, first_col, last_row, last_col = Ref("?", address.replace("$", "")).bounds
    if name in TABLE_HEADERS:
        last_row = MAX_ROWS  # a table may grow down the whole sheet
    return first_row, first_col, last_row, last_col


# Sheet titles (a subtitle line goes one row below) and column widths in characters; the
# columns of the grids get their width from the build (square cells).
TITLES: dict[str, Ref] = {
    GENERATOR: Ref(GENERATOR, "B1"),
    ANALYZE: Ref(ANALYZE, "B1"),
    PLAY: Ref(PLAY, "B1"),
    STATS_SHEET: Ref(STATS_SHEET, "B1"),
}
COLUMN_WIDTHS: dict[str, dict[str, float]] = {
    GENERATOR: {"A": 2, "B": 17, "C": 26, "D": 22, "E": 3, "V": 3, "W": 20, "X": 30},
    PRINT: {"A": 2},
    COLLECTION: dict(
        zip(
            (column_letters(index) for index in range(1, len(COLLECTION_COLUMNS) + 1)),
            (5, 19, 10, PUZZLE_COLUMN_WIDTH, PUZZLE_COLUMN_WIDTH, 7, 11, 12, 16, 7, 18, 17, 30, 9),
            strict=True,
        )
    ),
    REMOVED: {},  # the Collection's widths, then "removed at" and "reason"
    ANALYZE: {"A": 2, "B": 19, "S": 2, "AJ": 2},
    PLAY: {"A": 2, "B": 19, "S": 2, "AJ": 2},
    STATS_SHEET: {"A": 2, "B": 18, "C": 10, "D": 3, "E": 14, "F": 10, "G": 3, "H": 14, "I": 10},
}

# Cell sizes of the grids (points): the Generator, Analyze and Play sheets keep them (40 points
# hold four lines of 8-point pencil marks, a 16x16 cell's); the Print sheet's are set for each
# shape by START and CLEAR (see PRINT_SQUARE).
GRID_CELL_POINTS: dict[str, float] = {GENERATOR: 30.0, ANALYZE: 40.0, PRINT: 31.5, PLAY: 40.0}

# What each sheet prints: the Generator, Analyze and Play sheets whole on one page; the Print sheet
# is the page to solve on: its title, the grid, one line of rules and, on a second page, the
# answer key.  (Collection and Removed print their rows, as many pages as they need.)
PRINT_AREAS: dict[str, Ref] = {
    GENERATOR: Ref(GENERATOR, f"A1:X{NAMES[SOLUTION_GRID].bounds[2]}"),
    PRINT: Ref(PRINT, "B1:Q35"),
    ANALYZE: Ref(ANALYZE, f"A1:AJ{NAMES[ANALYZE_SOLUTION].bounds[2]}"),
    PLAY: Ref(PLAY, f"A1:AJ{MERGED[PLAY_HINT].bounds[2]}"),
    STATS_SHEET: Ref(STATS_SHEET, "A1:K73"),
}
PRINT_AREA = PRINT_AREAS[PRINT]
# Headings merged over a block.
TOOLS_HEADING = Ref(GENERATOR, "B31:D31")
REPORT_HEADING = Ref(ANALYZE, "C26:AI26")


# -- hidden helper cells ----------------------------------------------------------------------

# Dropdown lists too long for a validation's own text (Excel allows 255 characters there),
# written into hidden cells by the build.
LISTS: dict[str, Ref] = {
    NEEDS: Ref(GENERATOR, f"AZ1:AZ{len(PARAMS_BY_NAME[NEEDS].choices)}"),
    SORT_BY: Ref(GENERATOR, f"BA1:BA{len(SORT_CHOICES)}"),
}
# The shape each sheet's grids are drawn in (by conditional formats): the cell that names it,
# a table of the shapes (name, side, box rows, box columns, diagonals) and the four cells
# looked up from that table for the named shape (side, box rows, box columns, diagonals 1/0).
SHAPE_SOURCE: dict[str, str] = {
    GENERATOR: NAMES[STATS].cell(0, 1),
    PRINT: f"{GENERATOR}!{NAMES[STATS].cell(0, 1)}",
    ANALYZE: NAMES[ANALYZE_GEOMETRY].address,
    PLAY: NAMES[PLAY_GEOMETRY].address,
}
# Defined names in the hidden columns: what the workbook keeps out of sight (the givens of the
# puzzle being played, which lock the play grid's cells and draw them apart).
HIDDEN_NAMES: tuple[str, ...] = (
    PLAY_GIVENS, PLAY_CLOCK, PLAY_HISTORY, HINT_PLACED, GENERATOR_FACTS,
)  # fmt: skip
SHAPE_TABLE: dict[str, Ref] = {
    sheet: Ref(sheet, f"BC1:BG{len(GEOMETRIES)}") for sheet in SHAPE_SOURCE
}
SHAPE_CELLS: dict[str, Ref] = {sheet: Ref(sheet, "BI1:BL1") for sheet in SHAPE_SOURCE}
# The regions of a Jigsaw named in the shape's cell (one character per cell, row by row, as the
# engine's layouts are written), empty for every other shape: the grids draw a Jigsaw's region
# edges and the Play grid marks a digit twice in a region from it.
REGION_CELLS: dict[str, Ref] = {sheet: Ref(sheet, "BM1") for sheet in SHAPE_SOURCE}
HIDDEN_COLUMNS: dict[str, tuple[str, str]] = {
    GENERATOR: ("AZ", "BM"),
    PRINT: ("BC", "BM"),
    ANALYZE: ("BC", "CC"),
    PLAY: ("BC", "CC"),
}


@dataclass(frozen=True, slots=True)
class Button:
    """A form-control button: its caption, the cell it covers and the action it runs.

    ``action`` names the function in :mod:`xlsudoku.addin.actions`, the ``@xw.script`` in
    :mod:`addin.xl` and the entry point in :mod:`addin.desktop`; the button runs the VBA
    macro :attr:`macro`, which calls ``RunPython`` with :attr:`python_call`.

    >>> button = Button("SAVE TO COLLECTION", Ref("Generator", "C12"), "save_to_collection")
    >>> button.macro
    'SaveToCollectionClick'
    >>> button.python_call
    'import xlsudoku.addin.desktop; xlsudoku.addin.desktop.save_to_collection()'
    """

    caption: str
    anchor: Ref
    action: str

    @property
    def macro(self) -> str:
        """Return the name of the VBA macro the button runs (in module ``Buttons``)."""
        return "".join(word.capitalize() for word in self.action.split("_")) + "Click"

    @property
    def python_call(self) -> str:
        """Return the Python statement the macro passes to ``RunPython`` (classic desktop).

        It calls the function of :mod:`xlsudoku.addin.desktop` named like the action, which
        finds the workbook through ``xw.Book.caller()``.
        """
        return f"import xlsudoku.addin.desktop; xlsudoku.addin.desktop.{self.action}()"


BUTTONS: tuple[Button, ...] = (
    Button("START", Ref(GENERATOR, "B16"), "start"),
    Button("SAVE TO COLLECTION", Ref(GENERATOR, "C16"), "save_to_collection"),
    Button("CLEAR", Ref(GENERATOR, "D16"), "clear"),
    Button("IMPORT", Ref(GENERATOR, "B35"), "import_puzzles"),
    Button("DELETE", Ref(GENERATOR, "C35"), "delete_from_collection"),
    Button("SORT", Ref(GENERATOR, "D35"), "sort_collection"),
    Button("RESTORE", Ref(GENERATOR, "D37"), "restore_to_collection"),
    Button("IMAGE", Ref(PRINT, "S1"), "image"),
    Button("ANALYZE", Ref(ANALYZE, "B6"), "analyze"),
    Button("HINT", Ref(ANALYZE, "B8"), "hint"),
    Button("SOLVE", Ref(ANALYZE, "B10"), "solve"),
    Button("EXPLAIN", Ref(ANALYZE, "B19"), "explain"),
    Button("PLAY", Ref(PLAY, "B6"), "play"),
    Button("CHECK", Ref(PLAY, "B8"), "check"),
    Button("HINT", Ref(PLAY, "B10"), "play_hint"),
    Button("SOLVE", Ref(PLAY, "B12"), "play_solve"),
    Button("UNDO", Ref(PLAY, "B14"), "undo"),
    Button("FILL CANDIDATES", Ref(PLAY, "B16"), "fill_candidates"),
    Button("STATS", Ref(STATS_SHEET, "B4"), "stats"),
)
