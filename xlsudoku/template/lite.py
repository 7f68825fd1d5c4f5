"""The xlwings Lite copy of the workbook: the template with Lite's code stored in it.

xlwings Lite (the Office add-in ``wa200008175`` of the add-in store) keeps a workbook's code as
two of its settings, ``main.py`` and ``requirements.txt``, in the workbook's web extension part
(:mod:`xlsudoku.xlsm.webextension`).  The build stores ``lite/main.py`` and
``lite/requirements.txt`` there, with the add-in's task pane open, so the copy runs as soon as
it is opened with xlwings Lite installed.
"""

from __future__ import annotations

from pathlib import Path

XLWINGS_LITE = "wa200008175"
CODE_FILES = ("main.py", "requirements.txt")


def lite_code(folder: Path) -> dict[str, str]:
    """Return the Lite settings: each file of *folder* named in :data:`CODE_FILES`, as text."""
    return {name: (folder / name).read_text(encoding="utf-8") for name in CODE_FILES}
