"""The workbook's buttons, written once against :class:`xlsudoku.addin.cellio.CellIO`.

One module per sheet: :mod:`.generator` (START, CLEAR, and the Print sheet they shape),
:mod:`.collection` (SAVE TO COLLECTION, IMPORT, DELETE, SORT, and RESTORE from the Removed
sheet), :mod:`.analyze` (ANALYZE, HINT, SOLVE), :mod:`.play` (PLAY, CHECK, HINT, SOLVE, UNDO,
FILL CANDIDATES) and :mod:`.stats` (STATS); what they share (:class:`Changes`,
:class:`Outcome`, the two-phase run) is in :mod:`.shared`.  This module gathers the buttons'
functions and the table of actions, :data:`ACTIONS`, that the xlwings scripts
(:mod:`xlsudoku.addin.xl`), the desktop macros (:mod:`xlsudoku.addin.desktop`) and the headless
runner (:mod:`xlsudoku.addin.headless`) call.

Every action works in two phases: it reads and checks everything and computes its results into
a :class:`Changes` list, and only then applies the list.  So a bad input, a puzzle with a clash
or any engine error writes the message to the sheet's status cell and nothing else; a workbook
missing a sheet or a defined name is reported before anything is read.
"""

from __future__ import annotations

from collections.abc import Callable

from xlsudoku.addin.actions.analyze import analyze, explain, hint, solve
from xlsudoku.addin.actions.collection import (
    MAX_IMPORT,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_CELLS,
    ImportFiles,
    delete_from_collection,
    import_puzzles,
    restore_to_collection,
    save_to_collection,
    sort_collection,
)
from xlsudoku.addin.actions.generator import (
    GRADING_GRACE,
    clear,
    generator_puzzle,
    grading_clock,
    image,
    start,
    start_notice,
)
from xlsudoku.addin.actions.play import (
    check,
    fill_candidates,
    minutes,
    play,
    play_hint,
    play_solve,
    undo,
)
from xlsudoku.addin.actions.shared import PARAM_NAMES, Changes, Outcome, has_part
from xlsudoku.addin.actions.stats import bins, collection_tables, stats
from xlsudoku.addin.cellio import CellIO

__all__ = [
    "ACTIONS",
    "GRADING_GRACE",
    "MAX_IMPORT",
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_CELLS",
    "PARAM_NAMES",
    "Changes",
    "ImportFiles",
    "Outcome",
    "analyze",
    "bins",
    "check",
    "clear",
    "collection_tables",
    "delete_from_collection",
    "explain",
    "fill_candidates",
    "generator_puzzle",
    "grading_clock",
    "has_part",
    "hint",
    "image",
    "import_puzzles",
    "minutes",
    "play",
    "play_hint",
    "play_solve",
    "restore_to_collection",
    "save_to_collection",
    "solve",
    "sort_collection",
    "start",
    "start_notice",
    "stats",
    "undo",
]

ACTIONS: dict[str, Callable[[CellIO], Outcome]] = {
    "start": start,
    "clear": clear,
    "save_to_collection": save_to_collection,
    "import_puzzles": import_puzzles,
    "delete_from_collection": delete_from_collection,
    "sort_collection": sort_collection,
    "restore_to_collection": restore_to_collection,
    "analyze": analyze,
    "hint": hint,
    "solve": solve,
    "explain": explain,
    "image": image,
    "play": play,
    "check": check,
    "play_hint": play_hint,
    "play_solve": play_solve,
    "stats": stats,
    "undo": undo,
    "fill_candidates": fill_candidates,
}
