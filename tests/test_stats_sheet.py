"""The Stats sheet: STATS counts the Collection into the tables its native Excel charts draw.

Driven through OpenpyxlIO on the committed workbook, the headless runner (``xlsudoku workbook
stats BOOK``, then SAVE: the charts must survive both saves) and xlwings' remote engine.
"""

import asyncio
import re
import shutil
import zipfile

import openpyxl
import remote_book
import xlwings as xw
import xlwings.server
from sheets import PUZZLES, TEMPLATE

from xlsudoku.addin import actions, layout, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.cli import main


def run_script(book, name):
    asyncio.run(xlwings.server.custom_scripts_call(xl, name, typehint_to_value={xw.Book: book}))
    return book.json()["actions"]


def import_all(io):
    io.write(layout.IMPORT_SOURCE, "\n".join(puzzle for puzzle, _ in PUZZLES))
    outcome = actions.import_puzzles(io)
    assert outcome.ok, outcome.status


def test_stats_counts_the_collection_per_level_score_and_opens(io):
    assert actions.stats(io).status == (
        "The Collection is empty: SAVE or IMPORT puzzles, then press STATS."
    )
    assert io.read(layout.STATS_LEVELS) == [[label, 0] for label in layout.LEVEL_LABELS]
    import_all(io)
    rows = io.table_rows(layout.COLLECTION_HEADER)
    outcome = actions.stats(io)
    assert outcome.ok
    assert outcome.status.startswith(f"Counted the Collection's {len(rows)} puzzles")
    levels = io.read(layout.STATS_LEVELS)
    assert [label for label, _ in levels] == list(layout.LEVEL_LABELS)
    column = layout.COLLECTION_COLUMNS.index
    for label, count in levels:
        assert count == sum(row[column("level")] == label for row in rows)
    scores = [row[column("score")] for row in rows]
    opens = [row[column("opens")] for row in rows]
    for name, values in ((layout.STATS_SCORES, scores), (layout.STATS_OPENS, opens)):
        table = io.read(name)
        assert sum(count or 0 for _, count in table) == len(values)  # every puzzle once
        for label, count in table:
            if label is None:
                continue
            low, high = re.fullmatch(r"([\d.]+)(?:-<?([\d.]+))?", label).groups()
            top = float(high) if "<" in label else float(high or low) + 1
            assert count == sum(float(low) <= v < top for v in values), (label, values)


def test_bins_have_one_round_width_and_hold_every_value():
    for values, whole in (([1.5, 1.5, 9.9, 11.3], False), ([17, 81], True), ([26], True)):
        ranges = actions.bins(values, layout.STATS_BINS, whole)
        assert 1 <= len(ranges) <= layout.STATS_BINS
        widths = {round(high - low, 6) for low, high in ranges}
        assert len(widths) == 1
        assert all(any(low <= v < high for low, high in ranges) for v in values)


def chart_parts(path):
    """Return the charts and the drawing that places them, by part name."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        pattern = r"xl/(charts/chart|drawings/drawing)\d+\.xml"
        parts = sorted(n for n in names if re.fullmatch(pattern, n))
        return {name: archive.read(name).decode() for name in parts}


def test_the_charts_survive_stats_and_save_headless(tmp_path, capsys):
    book = tmp_path / "book.xlsm"
    shutil.copy(TEMPLATE, book)
    template_charts = chart_parts(book)
    assert len(template_charts) == 3 + 1
    refs = sorted(re.findall(r"<(?:c:)?f>([^<]+)</(?:c:)?f>", "".join(template_charts.values())))
    assert len(refs) == 2 * len(layout.STATS_TABLES)  # the labels and the counts of each
    for name, _, _ in layout.STATS_TABLES:
        first_row, first_col, last_row, _ = layout.NAMES[name].bounds
        for column in (first_col, first_col + 1):
            letter = layout.column_letters(column)
            wanted = f"${letter}${first_row}:${letter}${last_row}"
            assert any(ref.endswith(wanted) and "Stats" in ref for ref in refs), wanted
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(p for p, _ in PUZZLES) + "\n", encoding="utf-8")
    assert main(["workbook", "import", str(book), str(source), "--quiet"]) == 0
    assert main(["workbook", "stats", str(book)]) == 0
    assert "Counted the Collection's" in capsys.readouterr().out
    assert chart_parts(book) == template_charts  # IMPORT and STATS kept them byte for byte
    edited = openpyxl.load_workbook(book, keep_vba=True)
    edited[layout.GENERATOR][layout.NAMES[layout.SEED].address] = 7
    edited.save(book)  # openpyxl itself keeps the charts too
    assert main(["workbook", "start", str(book), "--quiet"]) == 0
    assert main(["workbook", "save", str(book), "--quiet"]) == 0
    assert main(["workbook", "stats", str(book), "--quiet"]) == 0
    assert chart_parts(book) == template_charts
    wb = openpyxl.load_workbook(book)
    levels = [[c.value for c in row] for row in wb[layout.STATS_SHEET]["B8:C13"]]
    assert sum(count for _, count in levels) == len(PUZZLES) + 1


def test_stats_through_the_remote_engine(wb):
    io = OpenpyxlIO(wb)
    import_all(io)
    cells = remote_book.writes(run_script(remote_book.book(wb), "stats"), layout.SHEETS)
    status = cells[(layout.STATS_SHEET, layout.NAMES[layout.STATS_STATUS].address)]
    assert status.startswith("Counted the Collection's")
    counts = [cells[(layout.STATS_SHEET, f"C{row}")] for row in range(8, 14)]
    assert sum(counts) == len(PUZZLES)
