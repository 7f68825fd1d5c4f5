"""The workbook contract: sheet names, defined names, their addresses, defaults and rules.

This is the only module that knows Excel addresses.  Everything else reads and writes the
workbook through the workbook-scoped defined names listed in :data:`NAMES`; the build script
(:mod:`xlsudoku.addin.build_workbook`) creates those names from this table, and the parameter parser
reuses :data:`PARAMS` (type, range, allowed values, default) to check what a user typed.

Picture of the Generator sheet (columns B-D parameters, F-N the printable puzzle, P-Q the
statistics)::

    row 1   title
    row 3   Parameter | Value | Allowed      Puzzle (F3:N3)          Statistics
    4-11    Pattern .. TimeLimit (C4:C11)   PuzzleGrid F4:N12       Stats P4:Q13
    12      [START] [SAVE TO COLLECTION] [CLEAR]
    13-15   Status C13 (merged C13:D15)     caption F13:N13 (printed)
    16-24   PatternPictures B17:D24         SolutionGrid F16:N24    RankTable P16:Q35

The module is plain data plus small address helpers; it imports only the standard library and
the engine's enums, so it also loads in xlwings Lite (Pyodide), where openpyxl is absent.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from xlsudoku.engine.steps import Level
from xlsudoku.engine.symmetry import Symmetry

GENERATOR = "Generator"
COLLECTION = "Collection"
ANALYZE = "Analyze"
SHEETS: tuple[str, ...] = (GENERATOR, COLLECTION, ANALYZE)

_CELL = re.compile(r"^\$?([A-Z]{1,3})\$?([1-9][0-9]*)$")


def column_number(letters: str) -> int:
    """Return the 1-based number of column *letters*.

    >>> column_number("A"), column_number("Q"), column_number("AA")
    (1, 17, 27)
    """
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def column_letters(number: int) -> str:
    """Return the letters of 1-based column *number*.

    >>> column_letters(1), column_letters(17), column_letters(27)
    ('A', 'Q', 'AA')
    """
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def parse_cell(address: str) -> tuple[int, int]:
    """Return ``(row, column)``, both 1-based, of a single-cell A1 *address*.

    >>> parse_cell("C5"), parse_cell("$F$12")
    ((5, 3), (12, 6))
    """
    match = _CELL.match(address.upper())
    if match is None:
        raise ValueError(f"not a cell address: {address!r}")
    return int(match.group(2)), column_number(match.group(1))


def cell_address(row: int, column: int) -> str:
    """Return the A1 address of 1-based *row* and *column*.

    >>> cell_address(12, 6)
    'F12'
    """
    return f"{column_letters(column)}{row}"


@dataclass(frozen=True, slots=True)
class Ref:
    """A place in the workbook: a sheet and an A1 address (one cell or a rectangle).

    >>> ref = Ref("Generator", "F4:N12")
    >>> ref.shape, ref.top_left, ref.formula
    ((9, 9), 'F4', 'Generator!$F$4:$N$12')
    >>> str(Ref("Generator", "C5"))
    'Generator!C5'
    """

    sheet: str
    address: str

    def __post_init__(self) -> None:
        for part in self.address.split(":"):
            parse_cell(part)

    def __str__(self) -> str:
        return f"{self.sheet}!{self.address}"

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """Return ``(first_row, first_column, last_row, last_column)``, 1-based.

        >>> Ref("Analyze", "C5:K13").bounds
        (5, 3, 13, 11)
        """
        parts = self.address.split(":")
        first_row, first_col = parse_cell(parts[0])
        last_row, last_col = parse_cell(parts[-1])
        return first_row, first_col, last_row, last_col

    @property
    def shape(self) -> tuple[int, int]:
        """Return ``(rows, columns)``.

        >>> Ref("Generator", "P16:Q35").shape
        (20, 2)
        """
        first_row, first_col, last_row, last_col = self.bounds
        return last_row - first_row + 1, last_col - first_col + 1

    @property
    def top_left(self) -> str:
        """Return the address of the first cell.

        >>> Ref("Generator", "P4:Q13").top_left
        'P4'
        """
        return self.address.split(":")[0]

    @property
    def formula(self) -> str:
        """Return the absolute reference a defined name points to.

        >>> Ref("Collection", "A1:K1").formula
        'Collection!$A$1:$K$1'
        """
        parts = []
        for part in self.address.split(":"):
            row, col = parse_cell(part)
            parts.append(f"${column_letters(col)}${row}")
        return f"{self.sheet}!" + ":".join(parts)

    def cell(self, row: int, column: int) -> str:
        """Return the address of the cell at 0-based offset (*row*, *column*) inside this ref.

        >>> Ref("Generator", "F4:N12").cell(8, 8)
        'N12'
        """
        rows, columns = self.shape
        if not (0 <= row < rows and 0 <= column < columns):
            raise IndexError(f"offset ({row}, {column}) outside {self}")
        first_row, first_col, _, _ = self.bounds
        return cell_address(first_row + row, first_col + column)


class Kind(enum.Enum):
    """How a parameter cell is read and validated."""

    WHOLE = "whole"  # a whole number in [minimum, maximum]
    DECIMAL = "decimal"  # any number in [minimum, maximum]
    CHOICE = "choice"  # one of ``choices`` (case-insensitive)


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter cell on the Generator sheet: its name, place, rule and help texts.

    Attributes:
        name: the workbook-scoped defined name (also the key in :data:`NAMES`).
        label: the label shown beside the cell and used in messages, e.g. ``Opens``.
        ref: where the cell is.
        kind: how the value is checked.
        default: the value the template holds (``None`` = blank).
        minimum: lowest allowed number (WHOLE and DECIMAL).
        maximum: highest allowed number (WHOLE and DECIMAL).
        choices: allowed texts (CHOICE), first letter case as shown in the dropdown.
        optional: whether a blank cell is allowed (its meaning is in ``allowed``).
        allowed: short help shown in the sheet's "Allowed" column.
        note: the cell note (comment) text.
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


# -- Generator sheet ---------------------------------------------------------------------------

PATTERN = "Pattern"
OPENS = "Opens"
TRIALS = "Trials"
SHOW_SOLUTION = "ShowSolution"
SYMMETRY = "Symmetry"
DIFFICULTY = "Difficulty"
SEED = "Seed"
TIME_LIMIT = "TimeLimit"
STATUS = "Status"
PUZZLE_GRID = "PuzzleGrid"
SOLUTION_GRID = "SolutionGrid"
STATS = "Stats"
RANK_TABLE = "RankTable"
PATTERN_PICTURES = "PatternPictures"

PATTERN_COUNT = 12
MIN_OPENS = 17
MAX_OPENS = 80
MAX_TRIALS = 99_999
MAX_SEED = 999_999_999_999_999  # 15 digits: Excel keeps every digit of a whole number this big
MAX_TIME_LIMIT = 3600.0
# A blank Time limit cell: every START run stops after this many seconds with the best puzzle
# (Lite and Server cannot be interrupted; the status says when the limit stopped a run).
DEFAULT_TIME_LIMIT = 60.0

YES = "Yes"
NO = "No"
ANY_DIFFICULTY = "any"
SYMMETRY_CHOICES: tuple[str, ...] = tuple(symmetry.value for symmetry in Symmetry)
DIFFICULTY_LEVELS: dict[str, Level | None] = {ANY_DIFFICULTY: None} | {
    level.label.lower(): level for level in Level
}

PARAMS: tuple[Param, ...] = (
    Param(
        PATTERN,
        "Pattern",
        Ref(GENERATOR, "C4"),
        Kind.WHOLE,
        1,
        minimum=1,
        maximum=PATTERN_COUNT,
        allowed=f"1-{PATTERN_COUNT}, pictures below",
        note=(
            "Which cells of the center box are givens (1-12, pictures under Patterns: ■ always "
            "a given, □ always blank). Patterns 1-6 have an even number of givens, 7-12 an odd "
            "number (the center cell among them)."
        ),
    ),
    Param(
        OPENS,
        "Opens",
        Ref(GENERATOR, "C5"),
        Kind.WHOLE,
        26,
        minimum=MIN_OPENS,
        maximum=MAX_OPENS,
        allowed=f"{MIN_OPENS}-{MAX_OPENS}, parity of the pattern",
        note=(
            f"Target number of givens ({MIN_OPENS}-{MAX_OPENS}). With 180° symmetry the "
            "givens come in pairs around the center, so Opens must be even for patterns 1-6 "
            "and odd for patterns 7-12."
        ),
    ),
    Param(
        TRIALS,
        "Trials",
        Ref(GENERATOR, "C6"),
        Kind.WHOLE,
        299,
        minimum=1,
        maximum=MAX_TRIALS,
        allowed=f"1-{MAX_TRIALS}",
        note=(
            "How many attempts the generator may make to reach the target before it returns "
            "the best puzzle found."
        ),
    ),
    Param(
        SHOW_SOLUTION,
        "Show solution",
        Ref(GENERATOR, "C7"),
        Kind.CHOICE,
        NO,
        choices=(NO, YES),
        allowed="Yes / No",
        note="Yes writes the solution grid under the puzzle; No leaves it empty.",
    ),
    Param(
        SYMMETRY,
        "Symmetry",
        Ref(GENERATOR, "C8"),
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
        Ref(GENERATOR, "C9"),
        Kind.CHOICE,
        ANY_DIFFICULTY,
        choices=tuple(DIFFICULTY_LEVELS),
        allowed="dropdown",
        note=(
            "Level the puzzle should have, from the techniques a person needs: any, easy, "
            "medium, hard, very hard, diabolical, beyond technique."
        ),
    ),
    Param(
        SEED,
        "Seed",
        Ref(GENERATOR, "C10"),
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
        Ref(GENERATOR, "C11"),
        Kind.DECIMAL,
        None,
        minimum=0.1,
        maximum=MAX_TIME_LIMIT,
        optional=True,
        allowed=f"seconds, blank = {DEFAULT_TIME_LIMIT:g}",
        note=(
            f"Stop after this many seconds (0.1-{MAX_TIME_LIMIT:g}) and keep the best puzzle "
            f"found. Blank: {DEFAULT_TIME_LIMIT:g} s. Trials limits the run too; the status "
            "says when the time limit stopped it."
        ),
    ),
)
PARAMS_BY_NAME: dict[str, Param] = {param.name: param for param in PARAMS}

STATS_LABELS: tuple[str, ...] = (
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

# -- Collection sheet --------------------------------------------------------------------------

COLLECTION_HEADER = "CollectionHeader"
COLLECTION_COLUMNS: tuple[str, ...] = (
    "id",
    "saved at",
    "puzzle",
    "solution",
    "opens",
    "pattern",
    "symmetry",
    "level",
    "score",
    "ranks",
    "seed",
)

# -- Analyze sheet -----------------------------------------------------------------------------

ANALYZE_GRID = "AnalyzeGrid"
ANALYZE_STRING = "AnalyzeString"
ANALYZE_STATUS = "AnalyzeStatus"
ANALYZE_REPORT = "AnalyzeReport"
HINT_TEXT = "HintText"
ANALYZE_SOLUTION = "AnalyzeSolution"
REPORT_LINES = 10

# -- every defined name ------------------------------------------------------------------------

NAMES: dict[str, Ref] = {param.name: param.ref for param in PARAMS} | {
    STATUS: Ref(GENERATOR, "C13"),
    PUZZLE_GRID: Ref(GENERATOR, "F4:N12"),
    SOLUTION_GRID: Ref(GENERATOR, "F16:N24"),
    STATS: Ref(GENERATOR, f"P4:Q{4 + len(STATS_LABELS) - 1}"),
    RANK_TABLE: Ref(GENERATOR, f"P16:Q{16 + RANK_ROWS - 1}"),
    PATTERN_PICTURES: Ref(GENERATOR, "B17:D24"),
    COLLECTION_HEADER: Ref(COLLECTION, f"A1:{column_letters(len(COLLECTION_COLUMNS))}1"),
    ANALYZE_STRING: Ref(ANALYZE, "C3"),
    ANALYZE_GRID: Ref(ANALYZE, "C5:K13"),
    ANALYZE_REPORT: Ref(ANALYZE, f"M5:M{5 + REPORT_LINES - 1}"),
    ANALYZE_STATUS: Ref(ANALYZE, "C15"),
    HINT_TEXT: Ref(ANALYZE, "C16"),
    ANALYZE_SOLUTION: Ref(ANALYZE, "C21:K29"),
}

# Cells merged for long text: the defined name points at the first cell of each block.
MERGED: dict[str, Ref] = {
    STATUS: Ref(GENERATOR, "C13:D15"),
    ANALYZE_STRING: Ref(ANALYZE, "C3:M3"),
    ANALYZE_STATUS: Ref(ANALYZE, "C15:M15"),
    HINT_TEXT: Ref(ANALYZE, "C16:M18"),
}

# Sheet titles (a subtitle line goes one row below) and column widths in characters; the
# columns of the 9x9 grids get their width from the build (square cells).
TITLES: dict[str, Ref] = {GENERATOR: Ref(GENERATOR, "B1"), ANALYZE: Ref(ANALYZE, "B1")}
COLUMN_WIDTHS: dict[str, dict[str, float]] = {
    GENERATOR: {"A": 2, "B": 16, "C": 24, "D": 20, "E": 3, "O": 3, "P": 24, "Q": 26},
    COLLECTION: dict(
        zip(
            (column_letters(index) for index in range(1, len(COLLECTION_COLUMNS) + 1)),
            (6, 20, 84, 84, 7, 8, 12, 17, 7, 36, 18),
            strict=True,
        )
    ),
    ANALYZE: {"A": 2, "B": 18, "L": 3, "M": 72},
}

# The page a user prints: the puzzle grid under its heading and over a caption line (a
# formula showing opens, level and seed from Stats), fit to one page.
PRINT_AREA = Ref(GENERATOR, "F3:N13")
PRINT_CAPTION = Ref(GENERATOR, "F13:N13")


# What a button's VBA macro hands to xlwings' ``RunPython`` on the classic desktop path: a
# function of :mod:`xlsudoku.addin.desktop` named like the action, taking no argument (it finds the
# workbook through ``xw.Book.caller()``).
DESKTOP_CALL = "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.{action}()"


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
        """Return the Python statement the macro passes to ``RunPython``."""
        return DESKTOP_CALL.format(action=self.action)


BUTTONS: tuple[Button, ...] = (
    Button("START", Ref(GENERATOR, "B12"), "start"),
    Button("SAVE TO COLLECTION", Ref(GENERATOR, "C12"), "save_to_collection"),
    Button("CLEAR", Ref(GENERATOR, "D12"), "clear"),
    Button("ANALYZE", Ref(ANALYZE, "B5"), "analyze"),
    Button("HINT", Ref(ANALYZE, "B7"), "hint"),
    Button("SOLVE", Ref(ANALYZE, "B9"), "solve"),
)
