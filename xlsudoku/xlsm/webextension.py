"""An Office add-in's task pane and settings stored in a workbook (a web extension).

An Office add-in keeps per-workbook settings in the file: a web extension part
(``xl/webextensions/webextension1.xml``, [MS-OWEXML]) names the add-in by its store id and
holds the settings as ``<we:property name=... value=...>``, each value JSON text (what the
add-in's ``Office.context.document.settings`` saves); a task pane part
(``xl/webextensions/taskpanes.xml``) opens the add-in's pane when the file is opened.  Both are
reached from the package's root relationships and declared in ``[Content_Types].xml``.

:func:`add_task_pane` writes them into a saved workbook; :func:`read_settings` reads the
settings back.  The module knows no particular add-in: the caller names the store id and the
settings.
"""

from __future__ import annotations

import io
import json
import uuid
import zipfile
from collections.abc import Mapping
from pathlib import Path

from defusedxml.ElementTree import fromstring as parse_xml

from xlsudoku.xlsm.xmltext import escape

WEBEXTENSION = "xl/webextensions/webextension1.xml"
TASKPANES = "xl/webextensions/taskpanes.xml"
TASKPANES_RELS = "xl/webextensions/_rels/taskpanes.xml.rels"
_WE = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
_WETP = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_TASKPANES_TYPE = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
_WEBEXTENSION_TYPE = "http://schemas.microsoft.com/office/2011/relationships/webextension"
_CONTENT_TYPES = {
    "/" + TASKPANES: "application/vnd.ms-office.webextensiontaskpanes+xml",
    "/" + WEBEXTENSION: "application/vnd.ms-office.webextension+xml",
}
_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def webextension_xml(store_id: str, settings: Mapping[str, object]) -> str:
    r"""Return the web extension part naming the add-in *store_id* with its *settings*.

    Each setting's value is stored as JSON text, as Office stores an add-in's settings; the id
    of the part is derived from the store id, so equal inputs give equal bytes.

    >>> xml = webextension_xml("wa1", {"main.py": "print(1)\n"})
    >>> '<we:property name="main.py" value="&quot;print(1)\\n&quot;"/>' in xml
    True
    """
    part_id = "{" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"webextension:{store_id}")).upper() + "}"
    properties = "".join(
        f'<we:property name="{_attribute(name)}" value="{_attribute(json.dumps(value))}"/>'
        for name, value in settings.items()
    )
    return (
        f'{_HEADER}<we:webextension xmlns:we="{_WE}" id="{part_id}">'
        f'<we:reference id="{store_id}" version="1.0.0.0" store="en-US" storeType="OMEX"/>'
        f'<we:alternateReferences><we:reference id="{store_id.upper()}" version="1.0.0.0" '
        f'store="{store_id.upper()}" storeType="OMEX"/></we:alternateReferences>'
        f"<we:properties>{properties}</we:properties><we:bindings/>"
        f'<we:snapshot xmlns:r="{_R}"/></we:webextension>'
    )


def _attribute(text: str) -> str:
    """Return *text* escaped for a double-quoted XML attribute, as Office writes it."""
    return escape(text, {'"': "&quot;"})


def _taskpanes_xml(width: int) -> str:
    return (
        f'{_HEADER}<wetp:taskpanes xmlns:wetp="{_WETP}">'
        f'<wetp:taskpane dockstate="right" visibility="1" width="{width}" row="0">'
        f'<wetp:webextensionref xmlns:r="{_R}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>'
    )


def _relationships(relations: list[tuple[str, str, str]]) -> str:
    body = "".join(
        f'<Relationship Id="{rid}" Type="{kind}" Target="{target}"/>'
        for rid, kind, target in relations
    )
    return f'{_HEADER}<Relationships xmlns="{_RELS}">{body}</Relationships>'


def _with_root_relationship(rels: bytes) -> bytes:
    """Return the package's root relationships with one to the task pane part."""
    root = parse_xml(rels)
    relations = [
        (item.get("Id"), item.get("Type"), item.get("Target"))
        for item in root
        if item.get("Type") != _TASKPANES_TYPE
    ]
    taken = {rid for rid, _, _ in relations}
    rid = next(f"rId{n}" for n in range(1, len(taken) + 2) if f"rId{n}" not in taken)
    relations.append((rid, _TASKPANES_TYPE, TASKPANES))
    return _relationships(relations).encode("utf-8")


def _with_content_types(types: bytes) -> bytes:
    """Return ``[Content_Types].xml`` with the task pane and web extension parts declared."""
    text = types.decode("utf-8")
    for part, kind in _CONTENT_TYPES.items():
        if f'PartName="{part}"' not in text:
            text = text.replace(
                "</Types>", f'<Override PartName="{part}" ContentType="{kind}"/></Types>'
            )
    return text.encode("utf-8")


def add_task_pane(
    path: str | Path, store_id: str, settings: Mapping[str, object], width: int = 400
) -> None:
    """Store the add-in *store_id* and its *settings* in the workbook at *path*, pane open.

    Opening the workbook in Excel then opens the add-in's task pane, and the add-in finds its
    settings.  The file is rewritten in place (a build step, on a file the caller just saved).
    """
    path = Path(path)
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info.filename) for info in archive.infolist()}
    members["[Content_Types].xml"] = _with_content_types(members["[Content_Types].xml"])
    members["_rels/.rels"] = _with_root_relationship(members["_rels/.rels"])
    members[TASKPANES] = _taskpanes_xml(width).encode("utf-8")
    members[TASKPANES_RELS] = _relationships(
        [("rId1", _WEBEXTENSION_TYPE, WEBEXTENSION.rsplit("/", 1)[1])]
    ).encode("utf-8")
    members[WEBEXTENSION] = webextension_xml(store_id, settings).encode("utf-8")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    path.write_bytes(buffer.getvalue())


def read_settings(path: str | Path) -> tuple[str, dict[str, object]]:
    """Return the store id of the add-in a workbook carries and its settings, decoded.

    Raises:
        KeyError: the workbook carries no web extension part.
    """
    with zipfile.ZipFile(path) as archive:
        root = parse_xml(archive.read(WEBEXTENSION))
    reference = root.find(f"{{{_WE}}}reference")
    store_id = "" if reference is None else str(reference.get("id"))
    settings = {
        str(item.get("name")): json.loads(str(item.get("value")))
        for item in root.iter(f"{{{_WE}}}property")
    }
    return store_id, settings
