"""The xlwings Lite copy of the workbook: the template with Lite's code stored in it.

xlwings Lite (the Office add-in ``wa200008175`` of the add-in store) keeps a workbook's code as
two of its settings, ``main.py`` and ``requirements.txt``, in the workbook's web extension part
(:mod:`xlsudoku.xlsm.webextension`).  The build stores ``lite/main.py`` and the requirements
:func:`requirements` writes (``xlsudoku==`` the package's own version, xlwings the version the
desktop workbook's VBA project is, the newest the tests run) there, with the add-in's task pane
open, so the copy runs as soon as it is opened with xlwings Lite installed.  The build also
writes the requirements to ``lite/requirements.txt``, for a person to copy.
"""

from __future__ import annotations

from pathlib import Path

from xlsudoku import __version__
from xlsudoku.addin.desktop import VBA_XLWINGS

XLWINGS_LITE = "wa200008175"
CODE_FILES = ("main.py", "requirements.txt")


def requirements(version: str = __version__, xlwings: str = VBA_XLWINGS) -> str:
    """Return the ``requirements.txt`` of the Lite copy: pinned xlwings and xlsudoku *version*.

    The commented lines show the other pin, a wheel hosted on the project's own HTTPS site,
    for the time before *version* is on the package index.

    >>> [line for line in requirements("1.2.3", "0.37.8").splitlines() if "#" not in line]
    ['xlwings==0.37.8', 'xlsudoku==1.2.3']
    """
    wheel = f"xlsudoku-{version}-py3-none-any.whl"
    return (
        "# xlwings Lite installs these when the workbook opens (after a change: ☰ > Restart).\n"
        f"xlwings=={xlwings}\n"
        f"xlsudoku=={version}\n"
        f"# The xlsudoku line installs once {version} is published on PyPI.  Until then, replace\n"
        "# it with the HTTPS address of the wheel on your own site (docs/workbook.md,\n"
        '# "xlwings Lite"), for example\n'
        f"# https://YOUR-USER.github.io/xlsudoku/{wheel}\n"
    )


def lite_code(folder: Path) -> dict[str, str]:
    """Return the Lite settings: ``main.py`` of *folder* and :func:`requirements`, as text."""
    return {"main.py": (folder / "main.py").read_text(encoding="utf-8")} | {
        "requirements.txt": requirements()
    }
