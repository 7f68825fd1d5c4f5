"""Print-ready booklets: puzzles N to a page, big clear grids, an answer key at the back.

One page layout for every count: the printable area (inside the margins, under the page
title, over the page number) is cut into ``columns x rows`` equal slots (:data:`LAYOUTS`);
each slot holds one square grid, as large as the slot allows, with its caption under it
(``Sudoku 12 · Hard · seed 1003``); a daily set gets one page a day, headed by its date.
The answer key follows on its own pages with smaller
grids: the givens in bold, the digits to find in grey.  Any shape prints: boxes of
``box_rows x box_cols`` get the thick lines, a 9x9-X grid its shaded diagonals, and a digit
above 9 is printed as the number 10-16, as the workbook's sheets write it.  Drawn with
fpdf2's core Helvetica, so the digits are real text (searchable,
selectable, and what ``pdftotext`` reads back).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlsudoku.engine.grid import Grid
from xlsudoku.errors import EnvironmentFault
from xlsudoku.production.inputs import Entry

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
# Puzzles per page -> (columns, rows) of slots.
LAYOUTS: dict[int, tuple[int, int]] = {
    1: (1, 1),
    2: (1, 2),
    4: (2, 2),
    6: (2, 3),
    9: (3, 3),
    12: (3, 4),
}
MARGIN = 14.0  # mm around the page
HEAD = 12.0  # mm for the page title
FOOT = 10.0  # mm for the page number
CAPTION = 9.0  # mm under each grid
PT = 72 / 25.4  # points per mm
CAP_HEIGHT = 0.72  # Helvetica's digit height, in em: centres a digit in its cell
GREY = (105, 105, 105)
SHADE = (224, 224, 224)


class BookletError(ValueError):
    """A booklet option that cannot be used (paper, puzzles per page)."""


@dataclass(frozen=True, slots=True)
class BookletOptions:
    """How to print.

    Attributes:
        title: The booklet's title (page heads and captions).
        per_page: Puzzles per page, a key of :data:`LAYOUTS`.
        answers_per_page: Answers per page in the key, a key of :data:`LAYOUTS`.
        paper: ``a4`` or ``letter``.
        answers: Print the answer key.
        explain: Print, after the key, every step of each puzzle's path in words (the
            entries' ``steps``, see :func:`~.inputs.complete`).
    """

    title: str = "Sudoku"
    per_page: int = 4
    answers_per_page: int = 9
    paper: str = "a4"
    answers: bool = True
    explain: bool = False

    def check(self) -> None:
        """Raise :class:`BookletError` naming a bad option.

        >>> BookletOptions(per_page=5).check()
        Traceback (most recent call last):
        ...
        xlsudoku.production.booklet.BookletError: puzzles per page must be one of 1, 2, 4, 6, 9, 12
        """
        counts = ", ".join(map(str, LAYOUTS))
        if self.per_page not in LAYOUTS:
            raise BookletError(f"puzzles per page must be one of {counts}")
        if self.answers_per_page not in LAYOUTS:
            raise BookletError(f"answers per page must be one of {counts}")
        if self.paper not in PAPERS:
            raise BookletError(f"paper must be one of {', '.join(PAPERS)}")


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one grid goes on a page (mm from the top left): its square and caption line."""

    x: float
    y: float
    side: float
    caption_y: float


def slots(paper: str, per_page: int) -> list[Slot]:
    """Return the slots of a page, row by row.

    >>> [(round(s.x), round(s.y), round(s.side)) for s in slots("a4", 4)]
    [(19, 42, 82), (110, 42, 82), (19, 166, 82), (110, 166, 82)]
    """
    width, height = PAPERS[paper]
    columns, rows = LAYOUTS[per_page]
    left, top = MARGIN, MARGIN + HEAD
    slot_w = (width - 2 * MARGIN) / columns
    slot_h = (height - 2 * MARGIN - HEAD - FOOT) / rows
    side = min(slot_w * 0.9, slot_h - CAPTION - 4)
    found = []
    for r in range(rows):
        for c in range(columns):
            x = left + c * slot_w + (slot_w - side) / 2
            y = top + r * slot_h + (slot_h - side - CAPTION) / 2
            found.append(Slot(x, y, side, y + side + CAPTION * 0.62))
    return found


def draw_grid(
    pdf: Any, puzzle: Grid, x: float, y: float, side: float, solution: Grid | None = None
) -> None:
    """Draw *puzzle* as a grid at (*x*, *y*) with *side* mm; with *solution*, draw the answer.

    In an answer the givens are bold and the other digits grey.
    """
    geo = puzzle.geometry
    n = geo.size
    cell = side / n
    if geo.diagonals:
        pdf.set_fill_color(*SHADE)
        for i in range(n):
            pdf.rect(x + i * cell, y + i * cell, cell, cell, style="F")
            pdf.rect(x + (n - 1 - i) * cell, y + i * cell, cell, cell, style="F")
    pdf.set_draw_color(0, 0, 0)
    thin, thick = max(0.15, side / 700), max(0.8, side / 100)
    for i in range(n + 1):
        pdf.set_line_width(thick if i % geo.box_rows == 0 else thin)
        pdf.line(x, y + i * cell, x + side, y + i * cell)
        pdf.set_line_width(thick if i % geo.box_cols == 0 else thin)
        pdf.line(x + i * cell, y, x + i * cell, y + side)
    size = cell * 0.6 * PT
    shown = solution if solution is not None else puzzle
    for index, digit in enumerate(shown.cells):
        if not digit:
            continue
        given = bool(puzzle.cells[index])
        pdf.set_font("Helvetica", "B" if given and solution is not None else "", size)
        pdf.set_text_color(*((0, 0, 0) if given else GREY))
        text = str(digit)  # 10-16 above 9, as the workbook's sheets write them
        if digit > 9:
            pdf.set_font_size(size * 0.8)
        row, column = divmod(index, n)
        centre_x = x + (column + 0.5) * cell
        baseline = y + (row + 0.5) * cell + CAP_HEIGHT * size / PT / 2
        pdf.text(centre_x - pdf.get_string_width(text) / 2, baseline, text)
    pdf.set_text_color(0, 0, 0)


def _centred(
    pdf: Any, text: str, centre_x: float, baseline: float, size: float, style: str = ""
) -> None:
    pdf.set_font("Helvetica", style, size)
    pdf.text(centre_x - pdf.get_string_width(text) / 2, baseline, text)


def _caption(options: BookletOptions, number: int, entry: Entry, answer: bool) -> str:
    parts = [f"{options.title} {number}"]
    if not answer:
        parts += [part for part in (entry.level, entry.ident) if part]
    return " \u00b7 ".join(parts)


def _pages(
    pdf: Any,
    entries: Sequence[Entry],
    options: BookletOptions,
    per_page: int,
    heading: str,
    answer: bool,
    total: int,
) -> None:
    width, height = PAPERS[options.paper]
    places = slots(options.paper, per_page)
    caption_size = min(11.0, 4.0 + places[0].side / 12)
    for first in range(0, len(entries), per_page):
        pdf.add_page()
        last = min(first + per_page, len(entries))
        _centred(pdf, heading, width / 2, MARGIN + HEAD * 0.55, 15, "B")
        _centred(
            pdf,
            f"{first + 1}-{last}" if last > first + 1 else f"{last}",
            width - MARGIN - 8,
            MARGIN + HEAD * 0.55,
            9,
        )
        for number, place in zip(range(first, last), places, strict=False):
            entry = entries[number]
            solution = entry.solution if answer else None
            draw_grid(pdf, entry.puzzle, place.x, place.y, place.side, solution)
            text = _caption(options, number + 1, entry, answer)
            _centred(pdf, text, place.x + place.side / 2, place.caption_y, caption_size)
        _centred(pdf, f"Page {pdf.page_no()} of {total}", width / 2, height - MARGIN, 9)


def by_day(entries: Sequence[Entry]) -> list[tuple[str, list[Entry]]]:
    """Return a daily set's entries grouped by date, in order (empty unless every one is dated).

    >>> e = [Entry(Grid.parse("." * 16), day=d) for d in ("2026-12-01", "2026-12-01", "2026-12-02")]
    >>> [(day, len(group)) for day, group in by_day(e)]
    [('2026-12-01', 2), ('2026-12-02', 1)]
    """
    if not entries or not all(entry.day for entry in entries):
        return []
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.day, []).append(entry)
    return list(groups.items())


def day_heading(title: str, day: str) -> str:
    """Return a day page's heading: the title and the date written out.

    >>> day_heading("Daily Sudoku", "2026-12-01")
    'Daily Sudoku \u00b7 Tuesday 1 December 2026'
    """
    import datetime as dt

    date = dt.date.fromisoformat(day)
    return f"{title} \u00b7 {date:%A} {date.day} {date:%B %Y}"


def _day_pages(
    pdf: Any, days: list[tuple[str, list[Entry]]], options: BookletOptions, total: int
) -> None:
    """Draw one page per day: its date over its puzzles, numbered through the booklet."""
    width, height = PAPERS[options.paper]
    most = max(len(group) for _, group in days)
    per_page = min((count for count in LAYOUTS if count >= most), default=max(LAYOUTS))
    places = slots(options.paper, per_page)
    caption_size = min(11.0, 4.0 + places[0].side / 12)
    number = 0
    for day, group in days:
        pdf.add_page()
        _centred(pdf, day_heading(options.title, day), width / 2, MARGIN + HEAD * 0.55, 15, "B")
        for entry, place in zip(group, places, strict=False):
            number += 1
            draw_grid(pdf, entry.puzzle, place.x, place.y, place.side)
            text = _caption(options, number, entry, False)
            _centred(pdf, text, place.x + place.side / 2, place.caption_y, caption_size)
        _centred(pdf, f"Page {pdf.page_no()} of {total}", width / 2, height - MARGIN, 9)


def page_count(puzzles: int, options: BookletOptions, days: int = 0) -> int:
    """Return the pages of a booklet of *puzzles*: puzzle pages plus answer pages.

    A daily set of *days* days has one puzzle page a day.

    >>> page_count(100, BookletOptions(per_page=4, answers_per_page=9))
    37
    >>> page_count(21, BookletOptions(answers_per_page=9), days=7)
    10
    """
    pages = days or -(-puzzles // options.per_page)
    return pages + (-(-puzzles // options.answers_per_page) if options.answers else 0)


PRINT_EXTRA = "pip install 'xlsudoku[print]'"


def require_fpdf() -> Any:
    """Return fpdf2's FPDF class; raise the one message naming the extra that installs it.

    Raises:
        EnvironmentFault: fpdf2 is not installed (the core install leaves it out).

    >>> require_fpdf().__name__
    'FPDF'
    """
    try:
        from fpdf import FPDF
    except ImportError:
        raise EnvironmentFault(
            f"printing needs fpdf2, which the core install leaves out: {PRINT_EXTRA}"
        ) from None
    return FPDF


def make_booklet(entries: Sequence[Entry], options: BookletOptions) -> bytes:
    """Return the PDF of *entries* (puzzle pages, then the answer key).

    Entries need their solution for the key (:func:`~.inputs.complete` finds it).

    >>> from xlsudoku.production.inputs import complete
    >>> entry = complete(Entry(Grid.parse("2....3.21.3....1"), ident="line 1"))
    >>> make_booklet([entry], BookletOptions(per_page=1))[:5]
    b'%PDF-'
    """
    options.check()
    FPDF = require_fpdf()
    pdf = FPDF(unit="mm", format=PAPERS[options.paper])
    pdf.set_auto_page_break(False)
    pdf.set_title(options.title)
    pdf.set_creator(CREATOR)
    days = by_day(entries)
    total = page_count(len(entries), options, len(days))
    if options.explain:
        scratch = FPDF(unit="mm", format=PAPERS[options.paper])
        _explain_pages(scratch, entries, options, 0)
        total += scratch.page_no()
    if days:  # a daily set: one day a page, under its date
        _day_pages(pdf, days, options, total)
    else:
        _pages(pdf, entries, options, options.per_page, options.title, False, total)
    if options.answers:
        heading = f"{options.title}: answers"
        _pages(pdf, entries, options, options.answers_per_page, heading, True, total)
    if options.explain:
        _explain_pages(pdf, entries, options, total)
    return bytes(pdf.output())


# Type size (points) and line height (mm) of the steps in words.
EXPLAIN_SIZE = 8.0
EXPLAIN_LINE = 3.6


def _explain_pages(pdf: Any, entries: Sequence[Entry], options: BookletOptions, total: int) -> None:
    """Write each puzzle's steps in words, numbered, page after page (*total*: 0 to count)."""
    width, height = PAPERS[options.paper]
    heading = f"{options.title}: the solutions in words"

    def new_page() -> None:
        pdf.add_page()
        _centred(pdf, heading, width / 2, MARGIN + HEAD * 0.55, 15, "B")
        if total:
            _centred(pdf, f"Page {pdf.page_no()} of {total}", width / 2, height - MARGIN, 9)
        pdf.set_xy(MARGIN, MARGIN + HEAD)

    bottom = height - MARGIN - FOOT
    new_page()
    for number, entry in enumerate(entries, 1):
        lines = [_caption(options, number, entry, False), *entry.steps]
        for index, line in enumerate(lines):
            pdf.set_font("Helvetica", "B" if index == 0 else "", EXPLAIN_SIZE + (index == 0))
            rows = len(pdf.multi_cell(width - 2 * MARGIN, EXPLAIN_LINE, line, dry_run=True,
                                      output="LINES"))  # fmt: skip
            if pdf.get_y() + rows * EXPLAIN_LINE > bottom:
                new_page()
                pdf.set_font("Helvetica", "B" if index == 0 else "", EXPLAIN_SIZE + (index == 0))
            pdf.set_x(MARGIN)
            pdf.multi_cell(width - 2 * MARGIN, EXPLAIN_LINE, line)
        pdf.set_y(pdf.get_y() + EXPLAIN_LINE)


CREATOR = "xlsudoku booklet"
"""The PDF's Creator: how an earlier booklet is told from another PDF (see made_by_booklet)."""


def made_by_booklet(path: Path) -> bool:
    """Return True when *path* is a PDF this module wrote (its Creator says so).

    The document information is written near the end of the file, so only the first bytes
    and the last megabyte are read.

    >>> made_by_booklet(Path(__file__))
    False
    """
    try:
        with open(path, "rb") as handle:
            if handle.read(5) != b"%PDF-":
                return False
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - 2**20))
            return f"/Creator ({CREATOR})".encode() in handle.read()
    except OSError:
        return False


def write_booklet(path: str | Path, entries: Sequence[Entry], options: BookletOptions) -> None:
    """Write the booklet to *path* in one step (a temporary file renamed over it)."""
    target = Path(path)
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temp.write_bytes(make_booklet(entries, options))
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
