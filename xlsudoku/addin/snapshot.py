"""LibreOffice snapshots of the workbook: PDF, page text, PNG pages, and the README picture.

LibreOffice (``soffice --headless --convert-to``) opens the .xlsm the way a spreadsheet
program does and prints it; poppler's ``pdfinfo``, ``pdftotext`` and ``pdftoppm`` read the
result.  ``tests/test_render.py`` uses these helpers to prove the workbook opens and that the
puzzle prints on one page; ``python -m xlsudoku.addin.snapshot`` makes ``docs/generator.png``.

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
DOCS_PNG = ROOT / "docs" / "generator.png"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


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
    rows = []
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
        color_channels = min(channels, 3) if channels != 2 else 1
        rows.append(
            bytes(
                sum(line[x * channels : x * channels + color_channels]) // color_channels
                for x in range(width)
            )
        )
    return width, height, rows


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


def make_docs_picture(output: Path = DOCS_PNG, seed: int = 7, dpi: int = 110) -> Path:
    """Run START (seed *seed*, solution shown) on a copy of the workbook; picture its sheet.

    The picture shows the whole Generator sheet with its buttons (a copy whose print area is
    the used range), not the one-page print of the puzzle.
    """
    import openpyxl

    from xlsudoku.addin import headless, layout
    from xlsudoku.addin.package import save_preserving

    template = ROOT / "workbooks" / "xlsudoku.xlsm"
    with tempfile.TemporaryDirectory(prefix="xlsudoku-docs-") as folder:
        work = Path(folder)
        book_path = Path(shutil.copy(template, work / "xlsudoku.xlsm"))
        book = openpyxl.load_workbook(book_path, keep_vba=True)
        sheet = book[layout.GENERATOR]
        sheet[layout.NAMES[layout.SEED].address] = seed
        sheet[layout.NAMES[layout.SHOW_SOLUTION].address] = layout.YES
        save_preserving(book, book_path, template=template)
        headless.run("start", book_path)

        book = openpyxl.load_workbook(book_path, keep_vba=True)
        for title in (layout.COLLECTION, layout.ANALYZE):
            del book[title]
        sheet = book[layout.GENERATOR]
        sheet.print_area = f"A1:{layout.column_letters(sheet.max_column + 1)}{sheet.max_row}"
        sheet.page_setup.orientation = "landscape"
        sheet.print_options.horizontalCentered = True
        sheet.oddFooter.center.text = ""
        shown = work / "generator.xlsm"
        book.save(shown)
        pdf = convert(printable_buttons(shown, work / "picture.xlsm"), "pdf", work / "pdf")
        probe_dpi = 30
        x, y, w, h = ink_box(page_png(pdf, 1, work / "probe.png", dpi=probe_dpi))
        scale, margin = dpi / probe_dpi, dpi // 8
        crop = (
            max(0, int(x * scale) - margin),
            max(0, int(y * scale) - margin),
            int(w * scale) + 2 * margin,
            int(h * scale) + 2 * margin,
        )
        rendered = page_png(pdf, 1, work / "generator.png", dpi=dpi, crop=crop)
        output.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(rendered, output)
    return output


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m addin.snapshot [--output PNG] [--seed N]``: make the README picture."""
    parser = argparse.ArgumentParser(prog="python -m xlsudoku.addin.snapshot", description=__doc__)
    parser.add_argument("--output", type=Path, default=DOCS_PNG)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    missing = missing_tools()
    if missing:
        print(f"needs {', '.join(missing)} (apt: libreoffice-calc poppler-utils)", file=sys.stderr)
        return 2
    print(f"wrote {make_docs_picture(args.output, seed=args.seed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
