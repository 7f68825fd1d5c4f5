"""Every benchmark and the reliability soak: tools, not domain, one module per subject.

Each subject is a command of ``xlsudoku bench`` (:data:`xlsudoku.cli.bench.BENCHES`, the one
table of them, names each one's arguments and function): ``solver`` (solve, fill),
``generator`` (generate), ``lowclue`` (reach), ``difficulty``, ``grading`` (grade, reglib),
``rating`` (se), ``techniques``, ``start`` (START on the workbook), ``batch`` (batch and
booklets), ``soak`` with ``hostile`` (reliability);
``common`` holds what they share (timing, samples, QQWing, the load) and ``snapshot`` renders
the workbook with LibreOffice.  Each benchmark names its data set and seed, prints CPU time
beside wall time and the load, and writes its report to ``benchmarks/results/`` when asked
(``--save``).  Nothing in the product imports this package.

This module itself imports only the standard library: the command line builds its parser from
it without loading any benchmark.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
"""The project folder (a checkout): ``workbooks/``, ``benchmarks/`` and ``../shared`` beside it."""


def shared_data(name: str) -> str:
    """Return the path of a shared data file (``../shared/data`` beside the project).

    ``XLSUDOKU_SHARED_DATA`` names another folder.

    >>> Path(shared_data("royle17_49158.txt")).name
    'royle17_49158.txt'
    """
    base = Path(os.environ.get("XLSUDOKU_SHARED_DATA", PROJECT.parent / "shared" / "data"))
    return str(base / name)
