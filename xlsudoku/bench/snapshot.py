"""LibreOffice snapshots of the workbook: PDF, page text, PNG pages, and the README picture.

LibreOffice (``soffice --headless --convert-to``) opens the .xlsm the way a spreadsheet
program does and prints it; poppler's ``pdfinfo``, ``pdftotext`` and ``pdftoppm`` read the
result.  ``tests/test_render.py`` uses these helpers to check what a person sees on every printed
sheet; ``python -m xlsudoku.bench.snapshot`` makes the README's picture of each sheet
(``docs/generator.png``, ``print.png``, ``analyze.png``, ``collection.png``, ``removed.png``,
``stats.png``).

Every conversion runs with its own throw-away LibreOffice profile, so it works next to a
LibreOffice that is already running.
"""

from __future__ import annotations

import argparse
import io
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("soffice", "pdfinfo", "pdftotext", "pdftoppm")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
A2_PAPER = 66  # Excel's paper size code of A2 (420 x 594 mm)


class SnapshotError(RuntimeError):
    """A converter is missing or failed; the message says which and why."""


def missing_tools() -> list[str]:
    """Return the names of the command-line tools this module needs that are not installed."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def _run(command: list[str], timeout: float = 180) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError as error:
        raise SnapshotError(f"{command[0]} is not installed") from error
    if done.returncode != 0:
        raise SnapshotError(f"{' '.join(command)} failed: {done.stderr.strip() or done.stdout}")
    return done.stdout


def convert(workbook: Path, fmt: str, outdir: Path) -> Path:
    """Convert *workbook* with LibreOffice to *fmt* (``pdf``, ``ods`` ...) in *outdir*."""
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="xlsudoku-lo-") as profile:
        _run(
            [
                "soffice",
                f"-env:UserInstallation={Path(profile).as_uri()}",
                "--headless",
                "--convert-to",
                fmt,
                "--outdir",
                str(outdir),
                str(workbook),
            ]
        )
    result = outdir / f"{workbook.stem}.{fmt}"
    if not result.exists():
        raise SnapshotError(f"LibreOffice wrote no {fmt} for {workbook}")
    return result


def page_count(pdf: Path) -> int:
    """Return the number of pages of *pdf* (``pdfinfo``)."""
    for line in _run(["pdfinfo", str(pdf)]).splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    raise SnapshotError(f"pdfinfo gave no page count for {pdf}")


def page_text(pdf: Path, page: int) -> str:
    """Return the text of 1-based *page* of *pdf*, laid out as printed (``pdftotext``)."""
    return _run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"])


def page_png(
    pdf: Path, page: int, target: Path, dpi: int = 60, crop: tuple[int, int, int, int] | None = None
) -> Path:
    """Render 1-based *page* of *pdf* to the PNG file *target* (``pdftoppm``).

    *crop* is ``(x, y, width, height)`` in pixels at *dpi*; None renders the whole page.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    stem = target.with_suffix("")
    area = [] if crop is None else ["-x", str(crop[0]), "-y", str(crop[1]),
                                    "-W", str(crop[2]), "-H", str(crop[3])]  # fmt: skip
    _run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), *area,
          "-singlefile", str(pdf), str(stem)])  # fmt: skip
    return stem.with_suffix(".png")


def ink_box(png: Path, threshold: int = 250) -> tuple[int, int, int, int]:
    """Return ``(x, y, width, height)`` of the non-white part of *png*."""
    width, height, rows = png_gray(png.read_bytes())
    marked = [y for y, row in enumerate(rows) if min(row) < threshold]
    if not marked:
        raise SnapshotError(f"{png} is blank")
    columns = [x for x in range(width) if any(row[x] < threshold for row in rows)]
    return columns[0], marked[0], columns[-1] - columns[0] + 1, marked[-1] - marked[0] + 1


def _paeth(left: int, up: int, corner: int) -> int:
    estimate = left + up - corner
    a, b, c = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
    return left if a <= b and a <= c else up if b <= c else corner


def png_gray(data: bytes) -> tuple[int, int, list[bytes]]:
    r"""Return ``(width, height, rows)`` of an 8-bit, non-interlaced PNG, rows as gray bytes.

    Enough of PNG for ``pdftoppm``'s output (gray, RGB or RGBA, 8 bits per channel).

    >>> def chunk(kind, body):
    ...     return struct.pack(">I", len(body)) + kind + body + b"\0\0\0\0"
    >>> header = chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0))
    >>> pixels = chunk(b"IDAT", zlib.compress(bytes([0, 10, 20, 30, 255, 255, 255])))
    >>> png_gray(PNG_SIGNATURE + header + pixels + chunk(b"IEND", b""))
    (2, 1, [b'\x14\xff'])
    """
    width, height, channels, lines = _png_lines(data)
    color_channels = min(channels, 3) if channels != 2 else 1
    rows = [
        bytes(
            sum(line[x * channels : x * channels + color_channels]) // color_channels
            for x in range(width)
        )
        for line in lines
    ]
    return width, height, rows


def png_rgb(data: bytes) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    r"""Return ``(width, height, rows)`` of an 8-bit PNG, each pixel ``(red, green, blue)``.

    >>> def chunk(kind, body):
    ...     return struct.pack(">I", len(body)) + kind + body + b"\0\0\0\0"
    >>> header = chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0))
    >>> pixels = chunk(b"IDAT", zlib.compress(bytes([0, 10, 20, 30, 255, 255, 255])))
    >>> png_rgb(PNG_SIGNATURE + header + pixels + chunk(b"IEND", b""))
    (2, 1, [[(10, 20, 30), (255, 255, 255)]])
    """
    width, height, channels, lines = _png_lines(data)
    rows = []
    for line in lines:
        if channels >= 3:
            rows.append([tuple(line[x * channels : x * channels + 3]) for x in range(width)])
        else:
            rows.append([(line[x * channels],) * 3 for x in range(width)])
    return width, height, rows  # type: ignore[return-value]


def _png_lines(data: bytes) -> tuple[int, int, int, list[bytearray]]:
    """Return ``(width, height, channels, lines)``: the PNG's rows, unfiltered."""
    if data[:8] != PNG_SIGNATURE:
        raise SnapshotError("not a PNG file")
    pos, idat, width = 8, bytearray(), 0
    height = depth = color = interlace = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(color)
    if depth != 8 or channels is None or interlace:
        raise SnapshotError(f"unsupported PNG (depth {depth}, colour type {color})")
    raw = zlib.decompress(bytes(idat))
    stride = width * channels
    previous = bytearray(stride)
    lines = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + previous[x]) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + previous[x]) // 2) & 0xFF
            elif kind == 4:
                line[x] = (line[x] + _paeth(left, previous[x], corner)) & 0xFF
        previous = line
        lines.append(line)
    return width, height, channels, lines


def ink(png: Path, threshold: int = 160) -> float:
    """Return the share of pixels of *png* darker than *threshold* (0 = blank page)."""
    width, height, rows = png_gray(png.read_bytes())
    dark = sum(1 for row in rows for value in row if value < threshold)
    return dark / (width * height)


def printable_buttons(workbook: Path, target: Path) -> Path:
    """Copy *workbook* to *target* with its buttons marked printable (for pictures only)."""
    with zipfile.ZipFile(workbook) as source:
        members = [(info, source.read(info.filename)) for info in source.infolist()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in members:
            if info.filename.endswith(".vml"):
                data = data.replace(b"<x:PrintObject>False</x:PrintObject>", b"")
            archive.writestr(info, data)
    target.write_bytes(buffer.getvalue())
    return target


# The README's pictures, one per sheet, and the page of the printed book each one is.
DOCS = ROOT / "docs"
PICTURES: dict[str, str] = {
    "generator.png": "Generator",
    "print.png": "Print",
    "analyze.png": "Analyze",
    "collection.png": "Collection",
    "removed.png": "Removed",
    "stats.png": "Stats",
    "play.png": "Play",
}
# A puzzle with two solutions (r1c1/r1c2/r4c1/r4c2 hold 1 and 2 either way) for the Analyze
# picture: the two solutions side by side, their differences and the clue to add.
TWO_SOLUTIONS = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"


def showcase(path: Path, seed: int = 7) -> dict[str, str]:
    """Run the buttons on the workbook at *path* so every sheet has something to show.

    Three puzzles are saved and the second deleted (a Removed row); STATS; ANALYZE of a puzzle
    with two solutions; then START with *seed* and the solution shown.  Returns each action's
    status.
    """
    import openpyxl

    from xlsudoku.addin import headless, layout

    def put(**cells: object) -> None:
        book = openpyxl.load_workbook(path, keep_vba=True)
        for name, value in cells.items():
            ref = layout.NAMES[name]
            book[ref.sheet][ref.address] = value
        book.save(path)

    statuses = {}
    for number in (1, 2, 3):
        put(Seed=seed + 3 + number, Opens=22 + 2 * number)
        headless.run("start", path)
        statuses[f"save {number}"] = headless.run("save", path).outcome.status
    put(DeleteIds="2", Seed=seed, Opens=26, ShowSolution="Yes", AnalyzeString=TWO_SOLUTIONS)
    statuses["delete"] = headless.run("delete", path).outcome.status
    statuses["stats"] = headless.run("stats", path).outcome.status
    statuses["analyze"] = headless.run("analyze", path).outcome.status
    statuses["start"] = headless.run("start", path).outcome.status
    # the Play sheet: the puzzle START made, a few cells typed right and one clashing, a hint
    statuses["play"] = headless.run("play", path).outcome.status
    book = openpyxl.load_workbook(path, keep_vba=True)
    play = book[layout.PLAY]
    grid, key = layout.NAMES[layout.PLAY_GRID], layout.NAMES[layout.SOLUTION_GRID]
    generator = book[layout.GENERATOR]
    typed = 0
    for r in range(9):
        for c in range(9):
            if play[grid.cell(r, c)].value in (None, "") and typed < 6 and r >= 5:
                play[grid.cell(r, c)] = generator[key.cell(r, c)].value
                typed += 1
    empty = [c for c in range(9) if play[grid.cell(0, c)].value in (None, "")]
    given = next(play[grid.cell(0, c)].value for c in range(9) if c not in empty)
    play[grid.cell(0, empty[0])] = given  # a digit twice in row 1: drawn as a clash
    book.save(path)
    statuses["play-hint"] = headless.run("play-hint", path).outcome.status
    return statuses


def make_docs_pictures(
    folder: Path = DOCS, seed: int = 7, dpi: int = 130, keep_pdf: Path | None = None
) -> list[Path]:
    """Picture every sheet, as LibreOffice prints it, after :func:`showcase`; return the files.

    The buttons are made printable for the pictures (the workbook keeps them off the page).
    *keep_pdf* receives a copy of the printed book the pictures come from.
    """
    template = ROOT / "workbooks" / "xlsudoku.xlsm"
    made = []
    with tempfile.TemporaryDirectory(prefix="xlsudoku-docs-") as work_folder:
        work = Path(work_folder)
        book = Path(shutil.copy(template, work / "xlsudoku.xlsm"))
        showcase(book, seed)
        at_full_size(book)
        pdf = convert(printable_buttons(book, work / "pictures.xlsm"), "pdf", work / "pdf")
        if keep_pdf is not None:
            shutil.copyfile(pdf, keep_pdf)
        folder.mkdir(parents=True, exist_ok=True)
        footers = {page: page_text(pdf, page) for page in range(1, page_count(pdf) + 1)}
        for name, sheet in PICTURES.items():
            pages = [page for page, text in footers.items() if f"{sheet} · " in text]
            if not pages:
                raise SnapshotError(f"no page of the printed book is the {sheet} sheet")
            page = pages[0]
            probe_dpi = 30
            png = page_png(pdf, page, work / f"probe{page}.png", dpi=probe_dpi)
            width, height, rows = png_gray(png.read_bytes())
            # leave the footer out: the picture is the sheet, not the page
            x, y, w, h = ink_box(_without_footer(png, rows, height), threshold=250)
            scale, margin = dpi / probe_dpi, dpi // 8
            crop = (
                max(0, int(x * scale) - margin),
                max(0, int(y * scale) - margin),
                int(w * scale) + 2 * margin,
                int(h * scale) + 2 * margin,
            )
            rendered = page_png(pdf, page, work / name, dpi=dpi, crop=crop)
            shutil.copyfile(rendered, folder / name)
            made.append(folder / name)
    return made


def at_full_size(path: Path) -> None:
    """Print the sheets with buttons at (nearly) full size on A2 paper (for pictures only).

    Fitting a sheet to A4 shrinks its cells but not its buttons' captions (LibreOffice prints
    form controls at their own font size), so a picture of a shrunk page would show captions
    larger than on the screen.
    """
    import openpyxl
    from openpyxl.worksheet.properties import PageSetupProperties

    from xlsudoku.addin import layout
    from xlsudoku.xlsm.package import save_preserving

    book = openpyxl.load_workbook(path, keep_vba=True)
    for sheet in book.worksheets:
        if sheet.title not in {button.anchor.sheet for button in layout.BUTTONS}:
            continue
        sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=False)
        sheet.page_setup.paperSize = A2_PAPER
        # the Analyze sheet is taller than wide (and a little wider than A2's short side)
        tall = sheet.title == layout.ANALYZE
        sheet.page_setup.scale = 90 if tall else 100
        sheet.page_setup.orientation = "portrait" if tall else "landscape"
    save_preserving(book, path, template=path)


def _without_footer(png: Path, rows: list[bytes], height: int) -> Path:
    """Return a copy of *png* without the footer: its lowest line of ink, set apart by space."""
    import struct as struct_

    marked = [y for y, row in enumerate(rows) if min(row) < 250]
    keep = height
    if marked:
        last = len(marked) - 1
        while last > 0 and marked[last] - marked[last - 1] <= 2:
            last -= 1  # up to the top of the lowest line of ink
        if last > 0 and marked[last] - marked[last - 1] > height // 20:
            keep = marked[last]
    width = len(rows[0])
    raw = b"".join(
        b"\x00" + (row if y < keep else bytes([255]) * width) for y, row in enumerate(rows)
    )

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct_.pack(">I", len(body)) + kind + body + struct_.pack(">I", crc)

    header = struct_.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    target = png.with_name(png.stem + "-body.png")
    target.write_bytes(
        PNG_SIGNATURE
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    return target


def make_docs_picture(output: Path = DOCS / "generator.png", seed: int = 7, dpi: int = 110) -> Path:
    """Make every sheet's picture in *output*'s folder; return the Generator sheet's."""
    made = make_docs_pictures(output.parent, seed=seed, dpi=dpi)
    generator = output.parent / "generator.png"
    if output != generator:
        shutil.copyfile(generator, output)
    return output if output != generator else made[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m xlsudoku.bench.snapshot [--folder DIR] [--seed N]``: the docs pictures."""
    parser = argparse.ArgumentParser(prog="python -m xlsudoku.bench.snapshot", description=__doc__)
    parser.add_argument("--folder", type=Path, default=DOCS)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    missing = missing_tools()
    if missing:
        print(f"needs {', '.join(missing)} (apt: libreoffice-calc poppler-utils)", file=sys.stderr)
        return 2
    for path in make_docs_pictures(args.folder, seed=args.seed):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
