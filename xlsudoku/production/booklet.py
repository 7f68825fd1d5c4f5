"""Print-ready booklets: puzzles N to a page, big clear grids, an answer key at the back.

One page layout for every count: the printable area (inside the margins, under the page
title, over the page number) is cut into ``columns x rows`` equal slots (:data:`LAYOUTS`);
each slot holds one square grid, as large as the slot allows, with its caption under it
(``Sudoku 12 · Hard · seed 1003``); a daily set gets one page a day, headed by its date,
and its captions, answers included, name each puzzle's date and its number that day
(``Sudoku 4 · 2 December no. 1``): the booklet numbers run on, a day's restart at 1.
The answer key follows on its own pages with smaller
grids: the givens in bold, the digits to find in grey.  Any shape prints (the picture of a
grid is :mod:`.drawing`'s, shared with ``xlsudoku image``): thick lines between boxes, a
Jigsaw's irregular boxes included, a 9x9-X grid's diagonals and a Windoku's four extra boxes
shaded, and a digit above 9 printed as the number 10-16, as the workbook's sheets write it.
Drawn with fpdf2's core Helvetica, so the digits are real text (searchable,
selectable, and what ``pdftotext`` reads back).  A title, level or id with a character
Helvetica lacks (Cyrillic, Greek, CJK ...) is set in a TrueType font that covers it, embedded
(:func:`text_font`: matplotlib's DejaVu Sans, else one of the system's fonts), or refused with
a message naming the character.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlsudoku.addin.drawing import BLACK, GREY, SHADE, grid_picture
from xlsudoku.engine.grid import Grid
from xlsudoku.errors import EnvironmentFault
from xlsudoku.production.inputs import Entry
from xlsudoku.xlsm.files import replace_file

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


class BookletError(ValueError):
    """A booklet option that cannot be used (paper, puzzles per page, a title too long)."""


class NoFont(EnvironmentFault):
    """No font on this machine covers a character of the booklet's text."""


# The longest title printed: it heads every page and every caption.
MAX_TITLE = 200
CORE_FAMILY = "Helvetica"  # fpdf2's core font: Latin-1 only
TEXT_FAMILY = "XlsudokuText"  # the family an embedded TrueType font is registered under
# Font files looked at for a character Helvetica lacks, at most (a font folder can be large).
MAX_FONT_FILES = 64
FONT_DIRS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
    "~/Library/Fonts",
    "C:/Windows/Fonts",
)


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
        if len(self.title) > MAX_TITLE:
            raise BookletError(
                f"the title has {len(self.title):,} characters: at most {MAX_TITLE} are printed"
            )
        bad = next((ch for ch in self.title if not ch.isprintable()), None)
        if bad is not None:
            raise BookletError(f"the title holds the control character U+{ord(bad):04X}")


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

    What to draw is :func:`~.drawing.grid_picture`'s (the same as ``xlsudoku image``): in an
    answer the givens are bold and the other digits grey.
    """
    picture = grid_picture(puzzle, solution)
    n = picture.size
    cell = side / n
    pdf.set_fill_color(*SHADE)
    for shaded in picture.shaded:
        row, column = divmod(shaded, n)
        pdf.rect(x + column * cell, y + row * cell, cell, cell, style="F")
    pdf.set_draw_color(0, 0, 0)
    thin, thick = max(0.15, side / 700), max(0.8, side / 100)
    for line in sorted(picture.lines, key=lambda item: item.thick):
        pdf.set_line_width(thick if line.thick else thin)
        # a thick line reaches half its width past its ends, so box corners close
        reach = thick / 2 if line.thick else 0.0
        dx, dy = (reach, 0.0) if line.y0 == line.y1 else (0.0, reach)
        pdf.line(
            x + line.x0 * cell - dx,
            y + line.y0 * cell - dy,
            x + line.x1 * cell + dx,
            y + line.y1 * cell + dy,
        )
    size = cell * 0.6 * PT
    for mark in picture.marks:
        pdf.set_font("Helvetica", "B" if mark.bold else "", size)
        pdf.set_text_color(*(BLACK if mark.given else GREY))
        text = mark.text
        if len(text) > 1:
            pdf.set_font_size(size * 0.8)
        centre_x = x + (mark.column + 0.5) * cell
        baseline = y + (mark.row + 0.5) * cell + CAP_HEIGHT * size / PT / 2
        pdf.text(centre_x - pdf.get_string_width(text) / 2, baseline, text)
    pdf.set_text_color(0, 0, 0)


def _centred(
    pdf: Any,
    text: str,
    centre_x: float,
    baseline: float,
    size: float,
    style: str = "",
    family: str = CORE_FAMILY,
) -> None:
    pdf.set_font(family, style, size)
    pdf.text(centre_x - pdf.get_string_width(text) / 2, baseline, text)


def _latin1(text: str) -> bool:
    return all(ord(ch) < 256 for ch in text)


def _candidate_fonts() -> Iterator[tuple[Path, Path | None]]:
    """Yield TrueType fonts to try, regular and bold: matplotlib's DejaVu Sans first.

    matplotlib (the charts extra) ships DejaVu Sans, which covers Latin, Greek and Cyrillic;
    the system's font folders may hold more (Noto CJK ...).  At most
    :data:`MAX_FONT_FILES` files are looked at, DejaVu and Noto ones first.
    """
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        ttf = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
        if (ttf / "DejaVuSans.ttf").is_file():
            bold = ttf / "DejaVuSans-Bold.ttf"
            yield ttf / "DejaVuSans.ttf", bold if bold.is_file() else None
    found: list[Path] = []
    for folder in FONT_DIRS:
        root = Path(folder).expanduser()
        if not root.is_dir():
            continue
        for index, path in enumerate(root.rglob("*")):
            if index > 20 * MAX_FONT_FILES:
                break  # a folder this big is not looked through
            if path.suffix.lower() in (".ttf", ".otf", ".ttc") and "bold" not in path.name.lower():
                found.append(path)
    found.sort(key=lambda p: (not p.name.startswith(("DejaVuSans", "Noto")), p.name))
    for path in found[:MAX_FONT_FILES]:
        bold = path.with_name(path.name.replace("Regular", "Bold").replace(".", "-Bold.", 1))
        yield path, bold if bold.is_file() and bold != path else None


def _covers(path: Path, characters: set[str]) -> bool:
    """Return True when the font file at *path* has a glyph for every one of *characters*."""
    try:
        from fontTools.ttLib import TTFont  # fpdf2 depends on fontTools

        with TTFont(path, lazy=True, fontNumber=0) as font:
            table = font.getBestCmap() or {}
    except Exception:  # a damaged or unusual font file is one not to use
        return False
    return all(ord(ch) in table for ch in characters)


def text_font(pdf: Any, texts: Sequence[tuple[str, str]]) -> str:
    """Return the font family for the booklet's *texts* (``(what, text)`` pairs), ready to use.

    Helvetica when every character is Latin-1; else a TrueType font that covers them all,
    embedded in *pdf* (a subset: only the glyphs used).

    Raises:
        NoFont: no font found covers a character; the message names it and where it is.

    >>> FPDF = require_fpdf()
    >>> text_font(FPDF(), [("the title", "Sudoku")])
    'Helvetica'
    """
    needed = {ch for _, text in texts for ch in text if ord(ch) >= 256}
    if not needed:
        return CORE_FAMILY
    for regular, bold in _candidate_fonts():
        if _covers(regular, needed):
            pdf.add_font(TEXT_FAMILY, "", str(regular))
            pdf.add_font(TEXT_FAMILY, "B", str(bold if bold is not None else regular))
            return TEXT_FAMILY
    for what, text in texts:
        for ch in text:
            if ch in needed and not any(_covers(font, {ch}) for font, _ in _candidate_fonts()):
                raise NoFont(
                    f"no font on this machine can print {ch!r} (U+{ord(ch):04X}) of {what} "
                    f"{text[:40]!r}: install a font that covers it (matplotlib's DejaVu Sans "
                    "covers Latin, Greek and Cyrillic: pip install 'xlsudoku[charts]'), or "
                    "leave it out"
                )
    raise NoFont(
        "no one font on this machine covers every character of the title, levels and ids "
        "together: print them in fewer scripts"
    )


def _caption(
    options: BookletOptions, number: int, entry: Entry, answer: bool, day_number: int = 0
) -> str:
    """Return a grid's caption; a daily puzzle's names its date and its number that day.

    >>> e = Entry(Grid.parse("." * 16), level="Easy", ident="seed 4", day="2026-12-02")
    >>> _caption(BookletOptions(), 4, e, False, 1), _caption(BookletOptions(), 4, e, True, 1)
    ('Sudoku 4 · 2 December no. 1 · Easy · seed 4', 'Sudoku 4 · 2 December no. 1')
    """
    parts = [f"{options.title} {number}"]
    if entry.day and day_number:
        import datetime as dt

        date = dt.date.fromisoformat(entry.day)
        parts.append(f"{date.day} {date:%B} no. {day_number}")
    if not answer:
        parts += [part for part in (entry.level, entry.ident) if part]
    return " · ".join(parts)


def _day_numbers(entries: Sequence[Entry]) -> list[int]:
    """Return each entry's number within its day (1, 2, ... restarting each day), else 0.

    >>> e = [Entry(Grid.parse("." * 16), day=d) for d in ("2026-12-01", "2026-12-01", "2026-12-02")]
    >>> _day_numbers(e)
    [1, 2, 1]
    """
    seen: dict[str, int] = {}
    numbers = []
    for entry in entries:
        seen[entry.day] = seen.get(entry.day, 0) + 1
        numbers.append(seen[entry.day] if entry.day else 0)
    return numbers


def _pages(
    pdf: Any,
    entries: Sequence[Entry],
    options: BookletOptions,
    per_page: int,
    heading: str,
    answer: bool,
    total: int,
    family: str = CORE_FAMILY,
) -> None:
    width, height = PAPERS[options.paper]
    places = slots(options.paper, per_page)
    caption_size = min(11.0, 4.0 + places[0].side / 12)
    day_numbers = _day_numbers(entries)
    for first in range(0, len(entries), per_page):
        pdf.add_page()
        last = min(first + per_page, len(entries))
        _centred(pdf, heading, width / 2, MARGIN + HEAD * 0.55, 15, "B", family)
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
            text = _caption(options, number + 1, entry, answer, day_numbers[number])
            _centred(pdf, text, place.x + place.side / 2, place.caption_y, caption_size, "", family)
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
    pdf: Any,
    days: list[tuple[str, list[Entry]]],
    options: BookletOptions,
    total: int,
    family: str = CORE_FAMILY,
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
        heading = day_heading(options.title, day)
        _centred(pdf, heading, width / 2, MARGIN + HEAD * 0.55, 15, "B", family)
        for day_number, (entry, place) in enumerate(zip(group, places, strict=False), start=1):
            number += 1
            draw_grid(pdf, entry.puzzle, place.x, place.y, place.side)
            text = _caption(options, number, entry, False, day_number)
            _centred(pdf, text, place.x + place.side / 2, place.caption_y, caption_size, "", family)
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
    texts = {("the title", options.title)}
    for entry in entries:
        if entry.level:
            texts.add((f"the level of {entry.ident or 'a puzzle'}", entry.level))
        texts.add(("the id", entry.ident))
    family = text_font(pdf, sorted(texts))
    days = by_day(entries)
    total = page_count(len(entries), options, len(days))
    if options.explain:
        scratch = FPDF(unit="mm", format=PAPERS[options.paper])
        _explain_pages(scratch, entries, options, 0)
        total += scratch.page_no()
    if days:  # a daily set: one day a page, under its date; the answers in the same order
        _day_pages(pdf, days, options, total, family)
        entries = [entry for _, group in days for entry in group]
    else:
        _pages(pdf, entries, options, options.per_page, options.title, False, total, family)
    if options.answers:
        heading = f"{options.title}: answers"
        _pages(pdf, entries, options, options.answers_per_page, heading, True, total, family)
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
        replace_file(temp, target)  # waits while another program holds it open
    finally:
        temp.unlink(missing_ok=True)
