"""The .xlsm package around openpyxl: VBA project, form-control buttons, safe saving.

openpyxl writes cells, styles, names, validations and notes, but knows nothing of macros or
buttons.  It does carry both through a save when a workbook has a ``vba_archive`` (openpyxl's
``keep_vba``): ``xl/vbaProject.bin`` and each sheet's legacy VML drawing (which holds the
buttons, and into which openpyxl merges the shapes of cell notes) are copied from that archive.

This module uses that one mechanism for both paths:

- the build (:func:`attach_macros`) gives a fresh openpyxl workbook a ``vba_archive`` holding
  the VBA project and one VML drawing of buttons per sheet;
- the headless runner saves through :func:`save_preserving`, which re-attaches the archive of
  the template file when the workbook was loaded without ``keep_vba``, saves, and then checks
  that the saved file still has the template's VBA project and every one of its buttons
  (raising :class:`PackageError` rather than leaving a file that lost them).

:func:`package_contents` reads back what a file holds (macro project, buttons with their
macros, defined names) for tests and for those checks.  XML is parsed with :mod:`defusedxml`,
which refuses entity declarations (the headless runner checks files before with
:mod:`xlsudoku.xlsm.safe_zip`).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree import ElementTree

from defusedxml.ElementTree import fromstring as _fromstring

from xlsudoku.xlsm.errors import PackageError
from xlsudoku.xlsm.xmltext import escape

if TYPE_CHECKING:
    from openpyxl import Workbook

VBA_PART = "xl/vbaProject.bin"
VML_NS = "urn:schemas-microsoft-com:vml"
OFFICE_NS = "urn:schemas-microsoft-com:office:office"
EXCEL_NS = "urn:schemas-microsoft-com:office:excel"
_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_DOC_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
FIXED_ZIP_TIME = (2024, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class ButtonShape:
    """A form-control button to draw: caption, macro and position.

    Attributes:
        caption: the text on the button.
        macro: the VBA macro it runs (a Sub of the workbook's project).
        anchor: ``(first_column, dx1, first_row, dy1, last_column, dx2, last_row, dy2)``,
            columns and rows 0-based, offsets in pixels inside those cells (VML ``x:Anchor``).
        box: ``(left, top, width, height)`` in points, the same place for readers that use the
            shape's style rather than its anchor.
    """

    caption: str
    macro: str
    anchor: tuple[int, int, int, int, int, int, int, int]
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Button:
    """A button found in a saved file: the sheet it is on, its caption and macro."""

    sheet: str
    caption: str
    macro: str


@dataclass(frozen=True, slots=True)
class Contents:
    """What an .xlsm package holds besides cells (see :func:`package_contents`)."""

    has_vba: bool
    vba_project: bytes
    macro_enabled: bool
    buttons: tuple[Button, ...]
    sheets: tuple[str, ...]
    code_names: tuple[str | None, ...]


def parse_xml(data: bytes, part: str = "a part") -> ElementTree.Element:
    """Return the root of XML *data* (parsed with defusedxml), naming *part* when it is not XML.

    Raises:
        PackageError: *data* is not XML.

    >>> parse_xml(b"<a/>").tag
    'a'
    >>> parse_xml(b"<a", "xl/drawings/vmlDrawing1.vml")
    Traceback (most recent call last):
    ...
    xlsudoku.xlsm.errors.PackageError: the part xl/drawings/vmlDrawing1.vml is not XML \
(unclosed token: line 1, column 0); restore the workbook from a backup or the template
    """
    try:
        root: ElementTree.Element = _fromstring(data)
    except Exception as error:  # expat and defusedxml raise several types for bad XML
        raise PackageError(
            f"the part {part} is not XML ({error}); restore the workbook from a backup or the "
            "template"
        ) from None
    return root


def button_vml(buttons: Iterable[ButtonShape], drawing_id: int) -> bytes:
    """Return a legacy VML drawing holding *buttons* (shape ids in block *drawing_id*).

    openpyxl adds the shapes of cell notes to this drawing when it saves (ids 1026 and up);
    buttons take ids from the top of the drawing's block of 1024 so the two never meet.

    >>> shape = ButtonShape("START", "StartClick", (1, 4, 11, 6, 1, 120, 11, 42), (10, 5, 90, 27))
    >>> b"<x:FmlaMacro>[0]!StartClick</x:FmlaMacro>" in button_vml([shape], 1)
    True
    """
    shapes = []
    for index, button in enumerate(buttons):
        left, top, width, height = button.box
        style = (
            f"position:absolute;margin-left:{left:g}pt;margin-top:{top:g}pt;"
            f"width:{width:g}pt;height:{height:g}pt;z-index:{index + 1};mso-wrap-style:tight"
        )
        shape_id = f"_x0000_s{drawing_id * 1024 + 1000 + index}"
        shapes.append(
            f'<v:shape id="{shape_id}" type="#_x0000_t201" style="{style}" o:button="t"'
            ' fillcolor="buttonFace [67]" strokecolor="windowText [64]" o:insetmode="auto">'
            '<v:fill color2="buttonFace [67]" o:detectmouseclick="t"/>'
            '<o:lock v:ext="edit" rotation="t"/>'
            '<v:textbox style="mso-direction-alt:auto" o:singleclick="f">'
            '<div style="text-align:center"><font face="Calibri" size="200" color="#000000">'
            f"<b>{escape(button.caption)}</b></font></div></v:textbox>"
            '<x:ClientData ObjectType="Button">'
            f"<x:Anchor>{', '.join(str(value) for value in button.anchor)}</x:Anchor>"
            "<x:PrintObject>False</x:PrintObject><x:AutoFill>False</x:AutoFill>"
            f"<x:FmlaMacro>[0]!{escape(button.macro)}</x:FmlaMacro>"
            "<x:TextHAlign>Center</x:TextHAlign><x:TextVAlign>Center</x:TextVAlign>"
            "</x:ClientData></v:shape>"
        )
    xml = (
        f'<xml xmlns:v="{VML_NS}" xmlns:o="{OFFICE_NS}" xmlns:x="{EXCEL_NS}">'
        f'<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="{drawing_id}"/>'
        "</o:shapelayout>"
        '<v:shapetype id="_x0000_t201" coordsize="21600,21600" o:spt="201"'
        ' path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/>'
        '<v:path shadowok="f" o:extrusionok="f" strokeok="f" fillok="f" o:connecttype="rect"/>'
        '<o:lock v:ext="edit" shapetype="t"/></v:shapetype>' + "".join(shapes) + "</xml>"
    )
    return xml.encode("utf-8")


def register_vml_prefixes() -> None:
    """Make ElementTree (which openpyxl uses to rewrite VML) keep the usual v/o/x prefixes."""
    for prefix, uri in (("v", VML_NS), ("o", OFFICE_NS), ("x", EXCEL_NS)):
        ElementTree.register_namespace(prefix, uri)


def _seed_archive(vba_project: bytes, drawings: Mapping[str, bytes]) -> zipfile.ZipFile:
    """Return an in-memory archive shaped like the one openpyxl keeps for ``keep_vba``."""
    content_types = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>'
        '<Default Extension="vml" '
        'ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>'
        "</Types>"
    )
    root_rels = f'<Relationships xmlns="{_REL_NS}"/>'
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", content_types)
        archive.writestr("_rels/.rels", root_rels)
        archive.writestr(VBA_PART, vba_project)
        for path, data in drawings.items():
            archive.writestr(path, data)
    return zipfile.ZipFile(io.BytesIO(buffer.getvalue()))


def attach_macros(
    workbook: Workbook,
    vba_project: bytes,
    buttons: Mapping[str, Iterable[ButtonShape]],
    code_names: Mapping[str, str],
) -> None:
    """Give *workbook* a VBA project, sheet code names and the *buttons* of each sheet.

    Args:
        workbook: a workbook built with openpyxl (saved later with ``workbook.save``).
        vba_project: the ``vbaProject.bin`` bytes.
        buttons: sheet title -> the buttons drawn on that sheet.
        code_names: sheet title -> VBA code name; the project must have a document module
            of each name (the workbook's own code name is ``ThisWorkbook``).
    """
    register_vml_prefixes()
    workbook.code_name = "ThisWorkbook"
    for title, code_name in code_names.items():
        workbook[title].sheet_properties.codeName = code_name
    drawings = {}
    for index, sheet in enumerate(workbook.worksheets, 1):
        shapes = list(buttons.get(sheet.title, ()))
        if shapes:
            path = f"xl/drawings/vmlDrawing{index}.vml"
            drawings[path] = button_vml(shapes, index)
            sheet.legacy_drawing = path
    workbook.vba_archive = _seed_archive(vba_project, drawings)


def _relationship_targets(archive: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Return relationship id -> target part path (no leading slash) of *part*."""
    folder, _, name = part.rpartition("/")
    rels_path = f"{folder}/_rels/{name}.rels"
    if rels_path not in archive.namelist():
        return {}
    targets = {}
    for rel in parse_xml(archive.read(rels_path), rels_path):
        target = rel.get("Target", "")
        if target.startswith("/"):
            path = target[1:]
        else:
            parts = folder.split("/") if folder else []
            for piece in target.split("/"):
                if piece == "..":
                    parts.pop()
                elif piece not in ("", "."):
                    parts.append(piece)
            path = "/".join(parts)
        targets[rel.get("Id", "")] = path
    return targets


def package_contents(source: str | Path | bytes) -> Contents:
    """Return the VBA project, buttons and sheets of the .xlsm at *source* (path or bytes).

    >>> contents = package_contents(Path(__file__).parents[2] / "workbooks" / "xlsudoku.xlsm")
    >>> contents.has_vba, contents.macro_enabled, contents.sheets
    (True, True, ('Generator', 'Print', 'Analyze', 'Collection', 'Removed', 'Play', 'Stats'))
    >>> [button.caption for button in contents.buttons][:4]
    ['START', 'SAVE TO COLLECTION', 'CLEAR', 'IMPORT']
    """
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        content_types = archive.read("[Content_Types].xml").decode("utf-8")
        workbook = parse_xml(archive.read("xl/workbook.xml"), "xl/workbook.xml")
        targets = _relationship_targets(archive, "xl/workbook.xml")
        sheets, code_names, buttons = [], [], []
        for sheet in workbook.iter(f"{{{_MAIN_NS}}}sheet"):
            title = sheet.get("name", "")
            sheets.append(title)
            part = targets[sheet.get(f"{{{_DOC_REL_NS}}}id", "")]
            root = parse_xml(archive.read(part), part)
            properties = root.find(f"{{{_MAIN_NS}}}sheetPr")
            code_names.append(None if properties is None else properties.get("codeName"))
            legacy = root.find(f"{{{_MAIN_NS}}}legacyDrawing")
            if legacy is None:
                continue
            vml_part = _relationship_targets(archive, part)[legacy.get(f"{{{_DOC_REL_NS}}}id", "")]
            buttons.extend(_buttons_in_vml(title, archive.read(vml_part), vml_part))
        has_vba = VBA_PART in names
        return Contents(
            has_vba=has_vba,
            vba_project=archive.read(VBA_PART) if has_vba else b"",
            macro_enabled="application/vnd.ms-excel.sheet.macroEnabled.main+xml" in content_types,
            buttons=tuple(buttons),
            sheets=tuple(sheets),
            code_names=tuple(code_names),
        )


def _buttons_in_vml(sheet: str, vml: bytes, part: str = "a drawing") -> list[Button]:
    root = parse_xml(vml, part)
    found = []
    for shape in root.iter(f"{{{VML_NS}}}shape"):
        data = shape.find(f"{{{EXCEL_NS}}}ClientData")
        if data is None or data.get("ObjectType") != "Button":
            continue
        macro = data.findtext(f"{{{EXCEL_NS}}}FmlaMacro", default="")
        caption = "".join(shape.find(f"{{{VML_NS}}}textbox").itertext()).strip()  # type: ignore[union-attr]
        found.append(Button(sheet, caption, re.sub(r"^\[0\]!", "", macro)))
    return found


def _template_archive(template: Path | bytes) -> tuple[zipfile.ZipFile, dict[str, str]]:
    """Return the template as a ``keep_vba`` archive and its sheet title -> VML part map."""
    data = template if isinstance(template, bytes) else template.read_bytes()
    archive = zipfile.ZipFile(io.BytesIO(data))
    workbook = parse_xml(archive.read("xl/workbook.xml"), "xl/workbook.xml")
    targets = _relationship_targets(archive, "xl/workbook.xml")
    drawings = {}
    for sheet in workbook.iter(f"{{{_MAIN_NS}}}sheet"):
        part = targets[sheet.get(f"{{{_DOC_REL_NS}}}id", "")]
        legacy = parse_xml(archive.read(part), part).find(f"{{{_MAIN_NS}}}legacyDrawing")
        if legacy is not None:
            vml = _relationship_targets(archive, part)[legacy.get(f"{{{_DOC_REL_NS}}}id", "")]
            drawings[sheet.get("name", "")] = vml
    return archive, drawings


def save_preserving(
    workbook: Workbook, path: str | Path | io.BytesIO, template: str | Path | bytes
) -> Contents:
    """Save *workbook* to *path* with the VBA project and buttons of *template*; check them.

    *workbook* is normally *template* loaded with ``openpyxl.load_workbook(template,
    keep_vba=True)``; then openpyxl itself carries the project and the buttons.  When it was
    loaded without ``keep_vba``, the template's parts are attached first.  After saving, the
    file at *path* must hold the template's VBA project byte for byte and every button of
    the template (same sheet, caption and macro); otherwise :class:`PackageError` is raised
    (the caller writes to a temporary path, so the user's file is never replaced by a
    stripped copy).

    Returns:
        What the saved file holds.
    """
    register_vml_prefixes()
    template = template if isinstance(template, bytes) else Path(template)
    expected = package_contents(template)
    if not expected.has_vba:
        where = "the workbook" if isinstance(template, bytes) else str(template)
        raise PackageError(f"{where} has no VBA project (xl/vbaProject.bin) to preserve")
    if workbook.vba_archive is None:
        archive, drawings = _template_archive(template)
        workbook.vba_archive = archive
        for sheet in workbook.worksheets:
            sheet.legacy_drawing = drawings.get(sheet.title)
        workbook.code_name = workbook.code_name or "ThisWorkbook"
        for sheet, code_name in zip(expected.sheets, expected.code_names, strict=True):
            if code_name and sheet in workbook.sheetnames:
                workbook[sheet].sheet_properties.codeName = code_name
    workbook.save(path)
    saved = package_contents(path.getvalue() if isinstance(path, io.BytesIO) else Path(path))
    lost = [button for button in expected.buttons if button not in saved.buttons]
    if saved.vba_project != expected.vba_project or not saved.macro_enabled or lost:
        what = "the VBA project" if saved.vba_project != expected.vba_project else ""
        if lost:
            what = ", ".join(filter(None, [what, f"buttons {[b.caption for b in lost]}"]))
        where = "the saved copy" if isinstance(path, io.BytesIO) else str(path)
        raise PackageError(f"saving {where} lost {what or 'the macro-enabled content type'}")
    return saved


def normalize_zip(path: str | Path) -> None:
    """Rewrite the zip at *path* in a fixed order with fixed times: equal builds, equal bytes."""
    path = Path(path)
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info.filename)) for info in archive.infolist()]
    # openpyxl writes the parts it copies from the VBA archive in set order, which changes
    # with Python's string hashing: sort them, content types first as Office writes it.
    members.sort(
        key=lambda member: (member[0].filename != "[Content_Types].xml", member[0].filename)
    )
    stamp = dt.datetime(*FIXED_ZIP_TIME).strftime("%Y-%m-%dT%H:%M:%SZ")
    members = [
        (info, re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + stamp.encode(), data))
        if info.filename == "docProps/core.xml"
        else (info, data)
        for info, data in members
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in members:
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            archive.writestr(fixed, data)
    path.write_bytes(buffer.getvalue())
