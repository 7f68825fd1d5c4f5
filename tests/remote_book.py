"""Build the JSON payload Excel sends to xlwings Lite/Server from a workbook file.

The payload has the shape xlwings' Office.js client produces (``xlwings/js/xlwings.ts``:
``client``, ``version``, ``book``, ``names`` with sheet index and address, ``sheets`` with the
used range's ``values`` from A1, ``tables``, ``pictures``): empty cells are ``""``, error cells
their text (``#N/A``), dates ISO strings.  ``xw.Book(json=payload)`` then gives the remote Book
a script receives, and every write becomes an action in ``book.json()["actions"]``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import xlwings as xw

from xlsudoku.addin import layout


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat() + ("Z" if isinstance(value, dt.datetime) else "")
    return value


def payload(source: Path | Any, drop_names: tuple[str, ...] = ()) -> dict[str, Any]:
    """Return the payload of *source* (a path or an openpyxl workbook loaded with formulas).

    Names whose sheet is gone are left out, as Excel leaves out names that became ``#REF!``;
    *drop_names* leaves out more.
    """
    wb = openpyxl.load_workbook(source) if isinstance(source, str | Path) else source
    sheets = []
    for ws in wb.worksheets:
        rows = [[_cell(v) for v in row] for row in ws.iter_rows(values_only=True)]
        sheets.append(
            {
                "name": ws.title,
                "values": rows or [[]],
                "pictures": [],
                "tables": [],
            }
        )
    names = []
    for name, defined in wb.defined_names.items():
        destinations = list(defined.destinations)
        if name in drop_names or len(destinations) != 1:
            continue
        sheet, address = destinations[0]
        if sheet not in wb.sheetnames:
            continue
        names.append(
            {
                "name": name,
                "sheet_index": wb.sheetnames.index(sheet),
                "address": address.replace("$", ""),
                "scope_sheet_name": None,
                "scope_sheet_index": None,
                "book_scope": True,
            }
        )
    active = wb.active if wb.active is not None else wb.worksheets[0]
    views = active.views.sheetView
    selection = views[0].selection if views else []
    selected = (selection[0].activeCell if selection else None) or "A1"
    return {
        "client": "Office.js",
        "version": xw.__version__,
        "book": {
            "name": "xlsudoku.xlsm",
            "active_sheet_index": wb.worksheets.index(active),
            "selection": selected,  # the active sheet's, as Excel sends it
        },
        "names": names,
        "sheets": sheets,
    }


def book(source: Path | Any, **kwargs: Any) -> xw.Book:
    """Return xlwings' remote Book for *source*, as a script receives it."""
    return xw.Book(json=payload(source, **kwargs))


def writes(actions: list[dict[str, Any]], sheets: tuple[str, ...] = layout.SHEETS) -> dict:
    """Return ``{(sheet, A1 address): value}`` for every cell the ``setValues`` actions set.

    A block write is split into its cells, so tests compare cell by cell; a later write of the
    same cell wins, as in Excel.
    """
    cells: dict[tuple[str, str], Any] = {}
    for action in actions:
        if action["func"] not in ("setValues", "rangeClearContents"):
            continue
        sheet = sheets[action["sheet_position"]]
        values = action["values"] or [
            [""] * action["column_count"] for _ in range(action["row_count"])
        ]
        for r, row in enumerate(values):
            for c, value in enumerate(row):
                address = layout.cell_address(
                    action["start_row"] + r + 1, action["start_column"] + c + 1
                )
                cells[(sheet, address)] = value
    return cells


def call_function(func_name: str, *args: Any) -> Any:
    """Call the custom function *func_name* of the add-in as Excel's Office.js client would.

    The request goes through ``xlwings.server.custom_functions_call`` with the add-in's module
    (``xlsudoku.addin.xl``); the return value is what Excel would show.
    """
    import asyncio

    import xlwings.server

    from xlsudoku.addin import xl

    data = {
        "func_name": func_name,
        "args": list(args),
        "version": xw.__version__,
        "client": "Office.js",
        "runtime": "1.4",
        "culture_info_name": "en-US",
        "date_format": "M/d/yyyy",
    }
    return asyncio.run(xlwings.server.custom_functions_call(data, xl))
