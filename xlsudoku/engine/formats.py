"""Puzzle files in and out: one-line puzzles, drawings, .sdk, .ss, .sdm, CSV and TSV.

Reading (every format; :func:`read_puzzles` tells them apart line by line):

- **one-line**: the cells in row order, ``1``-``9`` (then ``A``-``G`` above 9), any of
  ``. 0 - * _`` for a blank.  In a file, one puzzle per line; the puzzle is the line's first
  field, so ``puzzle<TAB>solution``, ``puzzle:count`` or ``puzzle # comment`` lines work
  (``.sdm`` and ``.txt`` collections, the TSV files of ``../shared/data``).  The first
  line whose first field is a word (``puzzle``) is a header; lines starting ``#`` are
  comments.
- **drawings**: one row per line, with ``|``, ``+`` and spaces between cells and separator
  lines of ``- + = |`` between bands (``-`` is then a separator, not a blank, except in a
  line of exactly one dash per cell).  This covers ``.sdk`` (SadMan / SudoCue: ``#``
  header lines such as ``#AAuthor``, then nine rows), ``.ss`` (Simple Sudoku: ``2..|1.5|..3``
  rows and ``-----------`` lines) and the ``grid`` pictures written here.  Several drawings
  in one file follow each other, with or without blank lines.
- **CSV**: either one grid as rows of values (``1``-``16`` or letters; empty, ``0`` or ``.``
  for a blank), grids separated by an empty row, or one puzzle string per row in the first
  column.
- **JSON**: objects with a ``"puzzle"`` string, one per line (what ``xlsudoku generate
  --format json``, ``grade --format json`` and ``format --format json`` write), or an array
  of them; the geometry comes from ``"geometry"`` (or ``"request": {"geometry": ...}``), so
  an X-Sudoku reads back as one.

Info lines: SudoCue's ``#`` + letter lines before a puzzle (``#ARuud``: A author, D
description, C comment, B date, S source, L level, U address; :data:`INFO_LETTERS`) become
the puzzle's *info* (:class:`PuzzleRecord`, keys such as ``"author"``); JSON objects carry the
same keys.  Other ``#`` lines are comments.  Writing keeps the info where the format can hold
it (:data:`INFO_FORMATS`: ``sdk`` and ``json``).

Writing: :func:`format_grid` for one grid in any :class:`PuzzleFormat`,
:func:`write_puzzles` for several.  Errors are :class:`~xlsudoku.engine.grid.ParseError` (bad
character, wrong length: the message names the row and column) or
:class:`~xlsudoku.engine.grid.ConflictError` (a digit twice in a house, naming both cells);
:func:`read_puzzles` pairs each with the line it came from.
"""

from __future__ import annotations

import enum
import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from xlsudoku.engine.grid import (
    JIGSAW_LAYOUTS,
    SHAPES,
    Geometry,
    Grid,
    ParseError,
    SudokuError,
    char_to_digit,
    drawing_rows,
    geometry,
    geometry_for_cells,
    geometry_for_size,
    is_separator_line,
)


class PuzzleFormat(enum.Enum):
    """Ways to write a puzzle; the values are the CLI's ``--format`` names."""

    LINE = "line"  # one line, '.' for blanks
    SDM = "sdm"  # one line, '0' for blanks (collections: one puzzle per line)
    SDK = "sdk"  # optional '#X' header lines, then one row per line, '.' for blanks
    SS = "ss"  # Simple Sudoku: rows like 2..|1.5|..3, '-----------' between bands
    GRID = "grid"  # a picture for people: +-------+ borders, cells spaced
    CSV = "csv"  # one row per line, values separated by commas, empty for blanks
    JSON = "json"  # one object per line: puzzle, geometry and the info fields

    @classmethod
    def parse(cls, text: str) -> PuzzleFormat:
        """Return the format named *text* (a value or a file extension such as ``.sdk``).

        >>> PuzzleFormat.parse(".SS"), PuzzleFormat.parse("txt")
        (<PuzzleFormat.SS: 'ss'>, <PuzzleFormat.LINE: 'line'>)
        """
        key = text.strip().lower().lstrip(".")
        key = _EXTENSION_ALIASES.get(key, key)
        for fmt in cls:
            if fmt.value == key:
                return fmt
        names = ", ".join(f.value for f in cls)
        raise ValueError(f"unknown puzzle format {text!r}; choose one of {names}")


_EXTENSION_ALIASES = {
    "txt": "line",
    "text": "line",
    "tsv": "line",
    "drawing": "grid",
    "jsonl": "json",
    "ndjson": "json",
}

# SudoCue's .sdk info lines: '#' + letter + text, and the key each gets in a record's info.
INFO_LETTERS: dict[str, str] = {
    "A": "author",
    "D": "description",
    "C": "comment",
    "B": "date",
    "S": "source",
    "L": "level",
    "U": "url",
}
# What a JSON record (a batch's or daily set's, ``generate --format json``, a Collection row
# IMPORT reads) may carry besides: the score its level came with, the rating profile of both
# and the rank counts, kept in the info so that a reader can show what was stored rather than
# grade the puzzle again.
STORED_FIELDS: tuple[str, ...] = ("score", "profile", "ranks")
# The formats that keep a puzzle's info when written.
INFO_FORMATS = frozenset({PuzzleFormat.SDK, PuzzleFormat.JSON})
_INFO_LINE = re.compile(r"#([" + "".join(INFO_LETTERS) + r"])(\S.*)")


MAX_TEXT_BYTES = 64 * 1024 * 1024
"""The largest puzzle file (or standard input) a command reads, in bytes."""
MAX_JSON_DEPTH = 32
"""How deep JSON values may nest (a puzzle record nests two or three levels)."""
MAX_NUMBER_DIGITS = 100
"""The most digits a JSON number may have (Python refuses to read more than 4,300)."""
MAX_CSV_FIELD = 131_072
"""The longest CSV field, in characters (the csv module's own limit)."""


# Characters a puzzle typed as text may hold besides cell characters: drawing separators, and
# the field separators of a ``puzzle:count`` or ``puzzle,level`` line.
_PUZZLE_PUNCTUATION = frozenset("|+=-:,;\t ")


def looks_like_puzzle(text: str) -> bool:
    """Return True when *text* is a puzzle (or puzzles) rather than a file's name.

    A puzzle is several lines (a drawing), JSON, or made only of cell characters and
    separators with at least 16 cells (the smallest grid).

    >>> looks_like_puzzle("4.2......1.....3"), looks_like_puzzle("puzzles.txt")
    (True, False)
    >>> looks_like_puzzle("." * 256), looks_like_puzzle("../data/p.sdk")
    (True, False)
    """
    body = text.strip()
    if "\n" in body or body[:1] in ("{", "["):
        return True
    cells = [ch for ch in body if ch not in _PUZZLE_PUNCTUATION]
    return len(cells) >= 16 and all(char_to_digit(ch, 16) is not None for ch in cells)


def decode_text(data: bytes, where: str) -> str:
    r"""Return *data* as UTF-8 text (a leading byte-order mark dropped), naming a bad byte.

    Raises:
        ParseError: a byte that is not UTF-8, named by *where*, line and column.

    >>> decode_text(b"\xef\xbb\xbf12.", "p.txt")
    '12.'
    >>> decode_text(b"123\n45\xff", "p.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.ParseError: p.txt line 2, column 3: byte 0xff is not UTF-8 text ...
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise ParseError(
            f"{where} line {line}, column {column}: byte 0x{data[error.start]:02x} is not UTF-8 "
            "text (a puzzle file is text)"
        ) from None


def json_value(text: str, pos: int = 0) -> tuple[object, int]:
    """Return the JSON value that starts at *pos* of *text* and where it ends.

    Numbers longer than :data:`MAX_NUMBER_DIGITS` digits and values nested deeper than
    :data:`MAX_JSON_DEPTH` levels are refused, so a hostile file costs neither a traceback
    nor unbounded time.

    Raises:
        ParseError: not JSON, a number too long, or nested too deep (the message says which).

    >>> json_value('{"puzzle": "1."} tail')
    ({'puzzle': '1.'}, 16)
    >>> json_value("[" * 100_000)
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.ParseError: bad JSON: nested deeper than 32 levels
    >>> json_value("1" * 5001)
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.ParseError: bad JSON: a number of 5001 digits (at most 100)
    """
    import json  # here, not at the top: most puzzle files are not JSON

    decoder = json.JSONDecoder(parse_int=_bounded_int, parse_float=_bounded_float)
    deep = ParseError(f"bad JSON: nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        value, end = decoder.raw_decode(text, pos)
    except json.JSONDecodeError as error:
        raise ParseError(f"bad JSON: {error.msg} (column {error.colno})") from None
    except RecursionError:
        raise deep from None
    except ValueError as error:  # from the number hooks
        raise ParseError(f"bad JSON: {error}") from None
    if _depth_over(value, MAX_JSON_DEPTH):
        raise deep
    return value, end


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {digits} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _bounded_float(text: str) -> float:
    digits = sum(ch.isdigit() for ch in text)
    if digits > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {digits} digits (at most {MAX_NUMBER_DIGITS})")
    return float(text)


def _depth_over(value: object, limit: int) -> bool:
    """Return True when *value* nests lists and objects deeper than *limit* (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def csv_rows(text: str) -> Iterator[tuple[int, list[str] | ParseError]]:
    r"""Yield ``(line number, values)`` for each row of CSV *text*.

    A field longer than :data:`MAX_CSV_FIELD` characters or broken quoting ends the rows with
    ``(line number, ParseError)``: the reader cannot go past it.

    >>> list(csv_rows('a,"b c"\n1,2\n'))
    [(1, ['a', 'b c']), (2, ['1', '2'])]
    >>> list(csv_rows("1,2\n" + "x" * 200_000))
    [(1, ['1', '2']), (2, ParseError('CSV line 2: a field longer than 131,072 characters'))]
    """
    import csv  # here, not at the top: most puzzle files are not CSV

    reader = csv.reader(io.StringIO(text))
    start = 1
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            what = (
                f"a field longer than {MAX_CSV_FIELD:,} characters"
                if "field limit" in str(error)
                else str(error)
            )
            yield start, ParseError(f"CSV line {start}: {what}")
            return
        yield start, values
        start = reader.line_num + 1


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """One puzzle read from a file: where it starts, the grid (or its error) and its info.

    Attributes:
        line: The line number (1-based) where the puzzle starts, or a label naming where it
            is (a workbook's cell, ``Collection!D5``).
        result: The grid, or the error that made it unreadable.
        info: ``{"author": ..., "level": ...}`` from ``.sdk`` info lines or JSON fields (a JSON
            record's stored ``score``, ``profile`` and ``ranks`` too, :data:`STORED_FIELDS`).
    """

    line: int | str
    result: Grid | SudokuError
    info: Mapping[str, str] = field(default_factory=dict)


GEOMETRY_NAMES = "9x9, 4x4, 6x6, 12x12, 16x16, 9x9-X, 9x9-windoku or 9x9-jigsaw:LAYOUT"


def geometry_named(text: str) -> Geometry:
    """Return the geometry named *text*: ``9x9``, ``6x6`` ..., ``9x9-X``, ``9x9-windoku``, ``9x9-jigsaw:LAYOUT``.

    A side alone (``9``) names its square; ``-X`` adds the two diagonals (``X`` alone is
    9x9-X), ``-windoku`` the four extra boxes; case and spaces do not matter.  A Jigsaw's
    LAYOUT is a name of :data:`~xlsudoku.engine.grid.JIGSAW_LAYOUTS` or 81 characters naming
    each cell's region, row by row.

    >>> geometry_named("9x9-X").diagonals, geometry_named(" 16X16 ").size, geometry_named("x").name
    (True, 16, '9x9-X')
    >>> geometry_named("Windoku").name, geometry_named("9x9-jigsaw:Steps").name
    ('9x9-windoku', '9x9-jigsaw:steps')
    >>> try:
    ...     geometry_named("7x7")
    ... except ParseError as err:
    ...     print(err)
    unknown geometry '7x7': use 9x9, 4x4, 6x6, 12x12, 16x16, 9x9-X, 9x9-windoku or 9x9-jigsaw:LAYOUT
    >>> try:
    ...     geometry_named("9x9-jigsaw:" + "1" * 81)
    ... except ParseError as err:
    ...     print(err)
    geometry '9x9-jigsaw:111...': jigsaw layout: needs 9 regions, found 1
    """  # noqa: E501
    compact = "".join(text.split())
    kind, colon, layout = compact.partition(":")
    name = kind.lower()
    if name in ("x", "-x"):
        name = "9x9-x"
    if name in ("windoku", "9x9-windoku", "jigsaw", "9x9-jigsaw"):
        if name.endswith("windoku") and not colon:
            return geometry(3, 3, windoku=True)
        if name.endswith("jigsaw") and colon:
            regions = JIGSAW_LAYOUTS.get(layout.lower(), layout)
            try:
                return geometry(3, 3, regions=regions)
            except SudokuError as err:
                shown = compact if len(compact) <= 20 else compact[:14] + "..."
                raise ParseError(f"geometry {shown!r}: {err}") from None
        if name.endswith("jigsaw"):
            names = ", ".join(JIGSAW_LAYOUTS)
            raise ParseError(
                f"geometry {text!r}: name the layout, 9x9-jigsaw:NAME ({names}) or "
                "9x9-jigsaw: and 81 characters naming each cell's region"
            )
    diagonals = name.endswith("-x")
    sides = set(name.removesuffix("-x").split("x"))
    side = sides.pop() if len(sides) == 1 and not colon else ""
    if side.isascii() and side.isdigit() and int(side) in SHAPES:
        return geometry(*SHAPES[int(side)], diagonals)
    raise ParseError(f"unknown geometry {text!r}: use {GEOMETRY_NAMES}")


# Cell counts of the supported shapes, smallest first.
_CELL_COUNTS = tuple(sorted(n * n for n in SHAPES))
_FIELD_SPLIT = re.compile(r"[\s,;:]")
_RULE_CHARS = "-="


def _token_is_cells(token: str) -> bool:
    """Return True when *token* holds only cell characters (digits, letters, blanks)."""
    return bool(token) and all(char_to_digit(ch, 16) is not None for ch in token)


def _is_header(field: str) -> bool:
    """Return True for a column name such as ``puzzle`` (a short word, not a grid row)."""
    word = field.replace("_", "")
    return 1 < len(field) < _CELL_COUNTS[0] and word.isalpha() and not _token_is_cells(field)


def _looks_like_csv_grid(text: str) -> bool:
    """Return True when the first line of *text* is a CSV grid row (``2,,,1,,5,,,3``)."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split(",")
        return len(fields) in SHAPES and all(len(f.strip()) <= 2 for f in fields)
    return False


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def _rows(grid: Grid, blank: str) -> list[str]:
    n = grid.geometry.size
    text = str(grid).replace(".", blank)
    return [text[r * n : (r + 1) * n] for r in range(n)]


def _split_stacks(row: str, geo: Geometry) -> list[str]:
    w = geo.box_cols
    return [row[i : i + w] for i in range(0, geo.size, w)]


def format_grid(
    grid: Grid, fmt: PuzzleFormat = PuzzleFormat.LINE, info: Mapping[str, str] | None = None
) -> str:
    """Return *grid* written in *fmt* (no final newline).

    *info* (keys of :data:`INFO_LETTERS`, e.g. ``{"author": "Ruud", "level": "Easy"}``) is
    written where the format holds it: ``.sdk`` info lines, JSON fields; other formats drop it.

    >>> g = Grid.parse("4.2." "...." ".1.." "...3")
    >>> format_grid(g), format_grid(g, PuzzleFormat.SDM)
    ('4.2......1.....3', '4020000001000003')
    >>> print(format_grid(g, PuzzleFormat.SS))
    4.|2.
    ..|..
    -----
    .1|..
    ..|.3
    >>> print(format_grid(g, PuzzleFormat.GRID))
    +-----+-----+
    | 4 . | 2 . |
    | . . | . . |
    +-----+-----+
    | . 1 | . . |
    | . . | . 3 |
    +-----+-----+
    >>> print(format_grid(g, PuzzleFormat.CSV).splitlines()[0])
    4,,2,
    >>> print(format_grid(g, PuzzleFormat.SDK, {"author": "Ruud"}).splitlines()[0])
    #ARuud
    >>> format_grid(g, PuzzleFormat.JSON, {"level": "Easy"})
    '{"puzzle": "4.2......1.....3", "geometry": "4x4", "level": "Easy"}'
    """
    info = info or {}
    geo = grid.geometry
    if fmt is PuzzleFormat.LINE:
        return str(grid)
    if fmt is PuzzleFormat.SDM:
        return str(grid).replace(".", "0")
    if fmt is PuzzleFormat.SDK:
        lines = [
            f"#{letter}{_one_line_text(info[key])}"
            for letter, key in INFO_LETTERS.items()
            if info.get(key)
        ]
        return "\n".join(lines + _rows(grid, "."))
    if fmt is PuzzleFormat.JSON:
        record = {"puzzle": str(grid), "geometry": geo.name}
        record.update((key, info[key]) for key in INFO_LETTERS.values() if info.get(key))
        import json

        return json.dumps(record, ensure_ascii=False)
    if fmt is PuzzleFormat.CSV:
        n = geo.size
        return "\n".join(
            ",".join(str(d) if d else "" for d in grid.cells[r * n : (r + 1) * n]) for r in range(n)
        )
    out: list[str] = []
    if fmt is PuzzleFormat.SS:
        rows = ["|".join(_split_stacks(row, geo)) for row in _rows(grid, ".")]
        rule = "-" * len(rows[0])
        for r, row in enumerate(rows):
            if r and r % geo.box_rows == 0:
                out.append(rule)
            out.append(row)
        return "\n".join(out)
    # GRID
    rule = "+" + "+".join("-" * (2 * geo.box_cols + 1) for _ in range(geo.size // geo.box_cols))
    rule += "+"
    for r, row in enumerate(_rows(grid, ".")):
        if r % geo.box_rows == 0:
            out.append(rule)
        stacks = [" ".join(part) for part in _split_stacks(row, geo)]
        out.append("| " + " | ".join(stacks) + " |")
    out.append(rule)
    return "\n".join(out)


def _one_line_text(text: str) -> str:
    """Return *text* on one line (an info line ends at the line break)."""
    return " ".join(text.split())


def write_puzzles(
    grids: Iterable[Grid],
    fmt: PuzzleFormat = PuzzleFormat.LINE,
    infos: Sequence[Mapping[str, str]] | None = None,
) -> str:
    r"""Return *grids* as the text of one file in *fmt* (ends with a newline).

    One-line formats (and JSON) put one puzzle per line; drawings and CSV grids are separated
    by a blank line.  *infos*, when given, holds each grid's info (see :func:`format_grid`).

    >>> write_puzzles([Grid.empty(), Grid.empty()]).count("\n")
    2
    """
    parts = [format_grid(g, fmt, infos[i] if infos else None) for i, g in enumerate(grids)]
    if not parts:
        return ""
    one_per_line = fmt in (PuzzleFormat.LINE, PuzzleFormat.SDM, PuzzleFormat.JSON)
    return ("\n" if one_per_line else "\n\n").join(parts) + "\n"


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def parse_puzzle(text: str, geometry: Geometry | None = None, validate: bool = True) -> Grid:
    r"""Return the one puzzle in *text*, in any format :func:`read_puzzles` reads.

    Raises the puzzle's error (``ParseError``, or ``ConflictError`` when *validate* is on and
    a digit repeats); a text with no puzzle or several is a ``ParseError`` too.

    >>> parse_puzzle("#AAnon\n" + "\n".join(["123456789"] + ["." * 9] * 8)).given_count
    9
    >>> parse_puzzle("12.")
    Traceback (most recent call last):
    ...
    xlsudoku.engine.grid.ParseError: a grid row of 3 cells is not a grid size
    """
    found = list(read_puzzles(text, geometry=geometry, validate=validate))
    if not found:
        raise ParseError("no puzzle found")
    if len(found) > 1:
        raise ParseError(f"{len(found)} puzzles found where one was expected")
    result = found[0][1]
    if isinstance(result, SudokuError):
        raise result
    return result


def _one_line(token: str, geometry: Geometry | None) -> Grid:
    """Parse a one-line puzzle, naming a wrong length."""
    if geometry is None and len(token) not in _CELL_COUNTS:
        counts = ", ".join(map(str, _CELL_COUNTS))
        raise ParseError(f"wrong length: {len(token)} cells, a puzzle line has {counts}")
    return Grid.parse(token, geometry)


def _read_csv(
    text: str, geometry: Geometry | None, validate: bool
) -> Iterator[tuple[int, Grid | SudokuError]]:
    """Yield the puzzles of CSV *text*: puzzle strings in column 1, or grids as rows."""
    block: list[tuple[int, list[str]]] = []

    def flush() -> Iterator[tuple[int, Grid | SudokuError]]:
        if not block:
            return
        first = block[0][0]
        n = len(block[0][1])
        rows = list(block)
        block.clear()
        try:
            if len(rows) != n:
                raise ParseError(f"a CSV grid of {n} columns needs {n} rows, found {len(rows)}")
            geo = geometry or geometry_for_size(n)
            cells: list[int] = []
            for r, (line, values) in enumerate(rows, start=1):
                if len(values) != n:
                    raise ParseError(
                        f"CSV line {line} has {len(values)} values, expected {n}", row=r
                    )
                for c, value in enumerate(values, start=1):
                    cells.append(_csv_value(value.strip(), geo, r, c))
            grid = Grid(tuple(cells), geo)
            yield first, (grid.validate() if validate else grid)
        except SudokuError as err:
            yield first, err

    first_content = True  # no puzzle row seen yet: a header may come
    for number, values in csv_rows(text):
        if isinstance(values, ParseError):
            yield from flush()
            yield number, values
            return
        if not values or all(not v.strip() for v in values) and len(values) <= 1:
            yield from flush()
            continue
        head = values[0].strip()
        if head.startswith("#"):
            continue
        first_content, at_start = False, first_content
        if at_start and _is_header(head):
            continue
        if len(head) >= _CELL_COUNTS[0] and _token_is_cells(head):
            yield from flush()
            yield number, _checked(partial(_one_line, head, geometry), validate)
            continue
        block.append((number, values))
        if len(block) == len(block[0][1]):
            yield from flush()
    yield from flush()


def _csv_value(value: str, geo: Geometry, row: int, col: int) -> int:
    if value in ("", ".", "0", "-", "_", "*"):
        return 0
    ascii_digits = value.isascii() and value.isdigit()
    digit = int(value) if ascii_digits else char_to_digit(value, geo.size)
    if digit is None or len(value) > 2 or not 0 <= digit <= geo.size:
        raise ParseError(f"bad value {value!r} at row {row}, column {col}", row=row, column=col)
    return digit


def _checked(make: Callable[[], Grid], validate: bool) -> Grid | SudokuError:
    """Return the grid *make* builds (validated when asked), or the error it raises."""
    try:
        grid = make()
        return grid.validate() if validate else grid
    except SudokuError as err:
        return err


def _drawing_16(lines: list[str], number: int) -> bool:
    """Return True when line *number* starts a 16x16 drawing of 16 bare 16-cell rows.

    Such a row also reads as a 4x4 one-line puzzle; it is taken as a drawing row when its
    paragraph (up to a blank or ``#`` line) is exactly 16 such lines.
    """
    side = _CELL_COUNTS[0]
    paragraph = []
    for raw in lines[number - 1 :]:
        line = raw.strip()
        if not line or line.startswith("#"):
            break
        paragraph.append(line)
        if len(paragraph) > side:
            return False
    return len(paragraph) == side and all(
        len(line) == side and _token_is_cells(line) for line in paragraph
    )


def read_records(
    text: str,
    name: str = "",
    geometry: Geometry | None = None,
    validate: bool = True,
) -> Iterator[PuzzleRecord]:
    r"""Yield a :class:`PuzzleRecord` for each puzzle in the file text *text*.

    *name* is the file name; ``.csv`` selects the CSV reader, ``.json`` (``.jsonl``) or a text
    starting with ``{`` or ``[`` the JSON reader, any other the text reader; without a name, a
    first line like ``2,,,1,,5,,,3`` selects CSV (see the module notes).  *geometry* reads every
    puzzle on that shape (needed for X-Sudoku outside JSON); None infers it from the size.  A
    bad puzzle gives its error instead of a grid, so a caller can report it and go on.  With
    *validate*, a digit repeated in a house is an error too.

    >>> rows = ["2..1.5..3"] + ["." * 9] * 8
    >>> [r] = read_records("#ARuud\n#LEasy\n" + "\n".join(rows))
    >>> r.line, r.result.given_count, r.info
    (3, 4, {'author': 'Ruud', 'level': 'Easy'})
    >>> [r] = read_records('{"puzzle": "' + "." * 81 + '", "geometry": "9x9-X"}')
    >>> r.result.geometry.name
    '9x9-X'
    """
    lower = name.lower()
    if lower.endswith((".json", ".jsonl", ".ndjson")) or text.lstrip("\ufeff \t\r\n")[:1] in (
        "{",
        "[",
    ):
        yield from _read_json(text, geometry, validate)
    elif lower.endswith(".csv") or (not name and _looks_like_csv_grid(text)):
        for line, result in _read_csv(text, geometry, validate):
            yield PuzzleRecord(line, result)
    else:
        yield from _read_text(text, geometry, validate)


def read_puzzles(
    text: str,
    name: str = "",
    geometry: Geometry | None = None,
    validate: bool = True,
) -> Iterator[tuple[int | str, Grid | SudokuError]]:
    r"""Yield ``(line number, grid or error)`` for each puzzle in *text* (see :func:`read_records`).

    >>> text = "puzzle\tcount\n" + "1" * 3 + "." * 78 + "\t0\n\n" + "x" * 81
    >>> [(n, str(r)) for n, r in read_puzzles(text)]  # doctest: +NORMALIZE_WHITESPACE
    [(2, 'digit 1 repeated in row 1: r1c1 and r1c2 (and 3 more clashes)'),
     (4, "bad character 'x' at row 1, column 1")]
    """
    for record in read_records(text, name, geometry, validate):
        yield record.line, record.result


def _read_json(text: str, geometry: Geometry | None, validate: bool) -> Iterator[PuzzleRecord]:
    """Yield the puzzles of JSON *text*: objects one after another (JSON Lines) or an array."""
    pos = _skip_space(text, 0)
    in_array = text.startswith("[", pos)
    if in_array:
        pos = _skip_space(text, pos + 1)
    while pos < len(text):
        line = text.count("\n", 0, pos) + 1
        if in_array and text.startswith("]", pos):
            return
        try:
            value, pos = json_value(text, pos)
        except ParseError as err:
            yield PuzzleRecord(line, err)
            if in_array:  # an array cannot be read past a bad element
                return
            next_line = text.find("\n", pos)
            pos = len(text) if next_line < 0 else _skip_space(text, next_line)
            continue
        yield _json_record(value, line, geometry, validate)
        pos = _skip_space(text, pos)
        if in_array and text.startswith(",", pos):
            pos = _skip_space(text, pos + 1)


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in "\ufeff \t\r\n":
        pos += 1
    return pos


def _json_record(
    value: object, line: int, geometry: Geometry | None, validate: bool
) -> PuzzleRecord:
    """Return the record of one JSON value: a puzzle string or an object with ``"puzzle"``."""
    record = value if isinstance(value, dict) else {"puzzle": value}
    puzzle = record.get("puzzle")
    if not isinstance(puzzle, str):
        return PuzzleRecord(line, ParseError('a JSON puzzle needs a "puzzle" string'))
    info = {
        key: str(record[key])
        for key in (*INFO_LETTERS.values(), *STORED_FIELDS)
        if isinstance(record.get(key), str | int | float)
        and not isinstance(record.get(key), bool)
        and str(record[key]).strip()
    }
    request = record.get("request")
    named = record.get("geometry")
    if named is None and isinstance(request, dict):
        named = request.get("geometry")  # what generate --format json writes
    try:
        geo = geometry or (geometry_named(named) if isinstance(named, str) else None)
    except ParseError as err:
        return PuzzleRecord(line, err, info)
    text = puzzle.strip()
    if "\n" in text:
        return PuzzleRecord(line, _checked(partial(Grid.parse, text, geo), validate), info)
    return PuzzleRecord(line, _checked(partial(_one_line, text, geo), validate), info)


def _read_text(text: str, geometry: Geometry | None, validate: bool) -> Iterator[PuzzleRecord]:
    """Yield the puzzles of a text file: one-line puzzles and drawings, with their info lines."""
    block: list[tuple[int, str]] = []  # (line number, line) of a drawing in progress
    side = 0  # cells per row of that drawing (0: unknown after a bad first row)
    rows = 0  # its rows seen so far
    fault: tuple[int, ParseError] | None = None  # its first bad row
    first_content = True  # no puzzle line seen yet: a header may come
    info: dict[str, str] = {}  # info lines waiting for the next puzzle
    block_info: dict[str, str] = {}  # the info of the drawing in progress

    def flush() -> Iterator[PuzzleRecord]:
        nonlocal side, rows, fault, block_info
        lines, need, got, bad, about = list(block), side, rows, fault, block_info
        block.clear()
        side = rows = 0
        fault = None
        block_info = {}
        if bad is not None:
            yield PuzzleRecord(*bad, about)
            return
        if got == 0:  # nothing or separator lines only
            return
        first = lines[0][0]
        if got != need:
            error = ParseError(f"a grid drawing of {need} columns needs {need} rows, found {got}")
            yield PuzzleRecord(first, error, about)
            return
        text = "\n".join(line for _, line in lines)
        try:
            grid = Grid.parse(text, geometry)
            yield PuzzleRecord(first, grid.validate() if validate else grid, about)
        except ParseError as err:
            if err.row is not None:  # name the line of the bad row
                first = lines[drawing_rows(text)[err.row - 1][0]][0]
            yield PuzzleRecord(first, err, about)
        except SudokuError as err:
            yield PuzzleRecord(first, err, about)

    all_lines = text.splitlines()
    for number, raw in enumerate(all_lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            yield from flush()
            found = _INFO_LINE.fullmatch(line)
            if found:
                info[INFO_LETTERS[found[1]]] = found[2].strip()
            continue
        head = _FIELD_SPLIT.split(line, maxsplit=1)[0]
        first_content, at_start = False, first_content
        if at_start and _is_header(head):
            continue
        if "|" in head or "+" in head:
            one_line = False
        elif geometry is not None:
            one_line = len(head) == geometry.cell_count
        else:
            one_line = len(head) > _CELL_COUNTS[0] or (
                len(head) == _CELL_COUNTS[0] and not block and not _drawing_16(all_lines, number)
            )
            if one_line and not head.strip(_RULE_CHARS):
                # Dashes only: a separator inside a drawing, else an empty one-line puzzle.
                one_line = not block and len(head) in _CELL_COUNTS
        if one_line:
            yield from flush()
            yield PuzzleRecord(number, _checked(partial(_one_line, head, geometry), validate), info)
            info = {}
            continue
        # A line of a drawing.
        if is_separator_line(line, side or None):
            if block:
                block.append((number, line))
            continue
        cells = len(drawing_rows(line)[0][1])
        if not block:
            side = cells
            block_info, info = info, {}
            if cells != geometry.size if geometry is not None else cells not in SHAPES:
                side = 0
                fault = number, ParseError(f"a grid row of {cells} cells is not a grid size")
        elif cells != side and fault is None:
            fault = (
                number,
                ParseError(
                    f"row {rows + 1} of the drawing has {cells} cells, expected {side}",
                    row=rows + 1,
                ),
            )
        block.append((number, line))
        rows += 1
        if rows == side:
            yield from flush()
    yield from flush()


def read_file(
    path: str | Path, geometry: Geometry | None = None, validate: bool = True
) -> list[tuple[int | str, Grid | SudokuError]]:
    r"""Return ``(line number, grid or error)`` for each puzzle of the file at *path*.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".sdm", delete=False) as f:
    ...     _ = f.write("0" * 81 + "\n")
    >>> [str(g)[:3] for _, g in read_file(f.name)]
    ['...']
    >>> os.unlink(f.name)
    """
    p = Path(path)
    return list(read_puzzles(p.read_text(encoding="utf-8-sig"), p.name, geometry, validate))


def write_file(
    path: str | Path,
    grids: Iterable[Grid],
    fmt: PuzzleFormat | None = None,
    infos: Sequence[Mapping[str, str]] | None = None,
) -> None:
    """Write *grids* to *path* in *fmt* (default: from the extension, else one-line).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "p.ss")
    >>> write_file(path, [Grid.empty()])
    >>> open(path).read().count("|")
    18
    """
    p = Path(path)
    if fmt is None:
        try:
            fmt = PuzzleFormat.parse(p.suffix) if p.suffix else PuzzleFormat.LINE
        except ValueError:
            fmt = PuzzleFormat.LINE
    p.write_text(write_puzzles(grids, fmt, infos), encoding="utf-8")


def geometry_of_text(text: str) -> Geometry:
    """Return the geometry a one-line puzzle *text* implies by its length.

    >>> geometry_of_text("." * 36).name
    '6x6'
    """
    return geometry_for_cells(len(text.strip()))
