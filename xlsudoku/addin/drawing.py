"""The picture of one grid, shared by the PDF booklet and ``xlsudoku image``.

:func:`grid_picture` says what to draw, in cell units from the grid's top left corner (y
down): the shaded cells (X-Sudoku's diagonals, Windoku's four extra boxes), the lines (thick
where two cells of different boxes meet and around the grid, so a Jigsaw's irregular boxes
get their borders as any shape's rectangular ones do) and the digits (the givens black, in an
answer bold, the digits to find grey).  A renderer only scales it: the booklet
(:mod:`xlsudoku.production.booklet`) with fpdf2, :func:`draw_image` with matplotlib (PNG or
SVG, the ``charts`` extra, loaded only there) for ``xlsudoku image`` and the Print sheet's
IMAGE button.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xlsudoku.addin import layout
from xlsudoku.engine.grid import Cell, Grid
from xlsudoku.errors import MissingExtra

if TYPE_CHECKING:  # annotations only: the booklet needs no cells
    from xlsudoku.addin.cellio import XlwingsIO

BLACK = (0, 0, 0)
GREY = (105, 105, 105)
SHADE = (224, 224, 224)
IMAGE_FORMATS = ("png", "svg")
CREATOR = "xlsudoku image"
"""The image's Software (PNG) or Creator (SVG): how an earlier image is told from another."""
CREATOR_KEY = {"png": "Software", "svg": "Creator"}


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line between two grid corners, in cell units; thick on box borders."""

    x0: int
    y0: int
    x1: int
    y1: int
    thick: bool


@dataclass(frozen=True, slots=True)
class Mark:
    """A digit to draw in a cell: its text, black or grey, bold or not."""

    row: int
    column: int
    text: str
    given: bool
    bold: bool


@dataclass(frozen=True, slots=True)
class GridPicture:
    """What a grid's picture holds: side in cells, shaded cells, lines and digits."""

    size: int
    shaded: tuple[Cell, ...]
    lines: tuple[Line, ...]
    marks: tuple[Mark, ...]


def _runs(edges: list[tuple[int, int, bool]], across: bool) -> list[Line]:
    """Join the unit edges of one grid line into its longest lines of one weight.

    Each edge is (position along the line, the line's index, thick).
    """
    found: list[Line] = []
    start = None
    for i, (at, line, thick) in enumerate(edges):
        if start is None:
            start = (at, thick)
        last = i + 1 == len(edges) or edges[i + 1][2] != thick
        if last:
            a, b = start[0], at + 1
            found.append(Line(a, line, b, line, thick) if across else Line(line, a, line, b, thick))
            start = None
    return found


def grid_picture(puzzle: Grid, solution: Grid | None = None) -> GridPicture:
    """Return what to draw for *puzzle*; with *solution*, the answer (givens bold).

    >>> from xlsudoku.engine.grid import geometry
    >>> p = grid_picture(Grid.parse("1" + "." * 80))
    >>> len(p.lines), sum(line.thick for line in p.lines), p.marks[0].text, p.shaded
    (20, 8, '1', ())
    >>> len(grid_picture(Grid.empty(geometry(3, 3, windoku=True))).shaded)
    36
    """
    geo = puzzle.geometry
    n = geo.size
    box_of = geo.box_of
    shaded: set[Cell] = set()
    if geo.diagonals:
        shaded.update(i * n + i for i in range(n))
        shaded.update(i * n + n - 1 - i for i in range(n))
    for house in geo.houses[3 * n :] if geo.windoku else ():
        shaded.update(house)
    lines: list[Line] = []
    for k in range(n + 1):
        # the line above row k runs across; the line left of column k runs down
        across = [
            (c, k, k in (0, n) or box_of((k - 1) * n + c) != box_of(k * n + c)) for c in range(n)
        ]
        down = [(r, k, k in (0, n) or box_of(r * n + k - 1) != box_of(r * n + k)) for r in range(n)]
        lines += _runs(across, True) + _runs(down, False)
    shown = solution if solution is not None else puzzle
    marks = tuple(
        Mark(
            index // n,
            index % n,
            str(digit),  # 10-16 above 9, as the workbook's sheets write them
            bool(puzzle.cells[index]),
            bool(puzzle.cells[index]) and solution is not None,
        )
        for index, digit in enumerate(shown.cells)
        if digit
    )
    return GridPicture(n, tuple(sorted(shaded)), tuple(lines), marks)


class ImageError(ValueError):
    """An image option that cannot be used (the file's format, the size)."""


def image_format(path: Path) -> str:
    """Return ``png`` or ``svg`` from *path*'s suffix; raise :class:`ImageError` otherwise.

    >>> image_format(Path("grid.SVG"))
    'svg'
    >>> image_format(Path("grid.jpg"))
    Traceback (most recent call last):
    ...
    xlsudoku.addin.drawing.ImageError: -o grid.jpg: the image must end in .png or .svg
    """
    kind = path.suffix.lstrip(".").lower()
    if kind not in IMAGE_FORMATS:
        raise ImageError(f"-o {path}: the image must end in .png or .svg")
    return kind


def draw_image(
    path: Path,
    puzzle: Grid,
    solution: Grid | None = None,
    title: str = "",
    pixels: int = 600,
) -> None:
    """Draw *puzzle* (or its answer, with *solution*) to *path*: *pixels* wide, PNG or SVG.

    The title, when there is one, goes over the grid and makes the image taller.  SVG keeps
    the digits as text.

    Raises:
        ImageError: a path that is neither .png nor .svg.
        MissingExtra: matplotlib is not installed.
    """
    kind = image_format(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError:
        raise MissingExtra("the image needs matplotlib: pip install 'xlsudoku[charts]'") from None
    picture = grid_picture(puzzle, solution)
    n = picture.size
    dpi = 100
    margin = 0.04 * n
    head = 0.09 * n if title else 0.0
    width = n + 2 * margin
    height = width + head
    inches = pixels / dpi
    points_per_cell = inches * 72 / width
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure = plt.figure(figsize=(inches, inches * height / width), dpi=dpi)
        axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
        axes.set_xlim(-margin, n + margin)
        axes.set_ylim(n + margin, -margin - head)
        axes.set_axis_off()
        figure.patch.set_facecolor("white")
        for cell in picture.shaded:
            row, column = divmod(cell, n)
            shade = tuple(v / 255 for v in SHADE)
            axes.add_patch(Rectangle((column, row), 1, 1, color=shade, linewidth=0))
        thin, thick = max(0.5, points_per_cell / 30), max(1.5, points_per_cell / 8)
        for line in sorted(picture.lines, key=lambda item: item.thick):
            axes.plot(
                (line.x0, line.x1),
                (line.y0, line.y1),
                color="black",
                linewidth=thick if line.thick else thin,
                solid_capstyle="projecting",
            )
        for mark in picture.marks:
            color = tuple(v / 255 for v in (BLACK if mark.given else GREY))
            axes.text(
                mark.column + 0.5,
                mark.row + 0.5,
                mark.text,
                ha="center",
                va="center_baseline",
                fontsize=points_per_cell * (0.48 if len(mark.text) > 1 else 0.6),
                fontweight="bold" if mark.bold else "normal",
                color=color,
                family="DejaVu Sans",
            )
        if title:
            axes.text(
                n / 2,
                -margin - head / 2,
                title,
                ha="center",
                va="center",
                fontsize=points_per_cell * 0.45,
                fontweight="bold",
                family="DejaVu Sans",
            )
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            figure.savefig(
                temp, format=kind, dpi=dpi, facecolor="white", metadata={CREATOR_KEY[kind]: CREATOR}
            )
            os.replace(temp, path)
        finally:
            plt.close(figure)
            temp.unlink(missing_ok=True)


def made_by_image(path: Path) -> bool:
    """Return True when *path* is an image this module wrote (its metadata says so).

    Only the first 64 KiB are read: PNG and SVG both put the metadata near the start.

    >>> made_by_image(Path("no-such-image.png"))
    False
    """
    try:
        with open(path, "rb") as handle:
            return CREATOR.encode() in handle.read(2**16)
    except OSError:
        return False


def beside_workbook(book: Path, puzzle: Grid, title: str) -> str:
    """Draw *puzzle* to ``BOOK-puzzle.png`` beside the workbook *book*; return what was done.

    IMAGE on a workbook file (``xlsudoku workbook image BOOK``).  A file of that name that an
    image of ours did not make (or that is no regular file) is never replaced.

    Raises:
        ParamError: naming the file, when it cannot or must not be written.
    """
    from xlsudoku.addin.params import ParamError

    path = book.with_name(f"{book.stem}-puzzle.png")
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise ParamError([f"{path} is not a regular file: nothing written"])
    if path.exists() and not made_by_image(path):
        raise ParamError(
            [
                f"{path} is there and IMAGE did not write it: nothing written (move or rename "
                "it, or draw elsewhere with xlsudoku image -o)"
            ]
        )
    try:
        draw_image(path, puzzle, None, title, layout.PICTURE_PIXELS)
    except MissingExtra as error:
        raise ParamError([str(error)]) from None
    except OSError as error:
        raise ParamError([f"cannot write {path}: {error.strerror or error}"]) from None
    return (
        f"wrote {path.name} beside the workbook ({puzzle.geometry.name}, "
        f"{layout.PICTURE_PIXELS} pixels wide, as xlsudoku image draws it)."
    )


def into_sheet(io: XlwingsIO, puzzle: Grid, title: str) -> str:
    """Insert *puzzle*'s picture into the Print sheet beside the page; return what was done.

    IMAGE in Excel and on xlwings Lite and Server, where no file is written for the user: the
    picture is drawn to a temporary file (Pyodide has one in memory) and inserted, replacing
    the one an earlier press inserted.

    Raises:
        ParamError: saying what is missing (matplotlib) or what failed.
    """
    import tempfile

    from xlsudoku.addin.params import ParamError

    anchor = layout.PICTURE_ANCHOR
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzle.png"
        try:
            draw_image(path, puzzle, None, title, layout.PICTURE_PIXELS)
        except MissingExtra as error:
            raise ParamError([str(error)]) from None
        io.put_picture(str(path), anchor.sheet, anchor.address, layout.PICTURE_NAME)
    return (
        f"the picture is on this sheet at {anchor.address} ({layout.PICTURE_PIXELS} pixels "
        "wide; right-click it to save it as a file). No file is written from here: "
        "xlsudoku image PUZZLE -o grid.png, or xlsudoku workbook image BOOK, writes one."
    )
