"""Raw cell values -> validated parameters, with messages that name the cell.

One module per kind of input: :mod:`.cells` holds the one reading of a cell value that every
input cell of every sheet and every custom function argument gets (:func:`parse_param`,
:class:`ParamError`); :mod:`.generator` the Generator sheet's parameters and the request they
make; :mod:`.puzzles` puzzles, a player's entries and pencil marks in cells; :mod:`.functions`
the custom functions' arguments; :mod:`.collection` the ids the Collection tools name.  This
module gathers their public names, so the add-in reads ``params.read_start`` and so on.
"""

from xlsudoku.addin.params.cells import (
    ParamError,
    Raw,
    cell_problem,
    geometry_of,
    is_blank,
    parse_param,
    read_geometry,
    shown,
)
from xlsudoku.addin.params.collection import (
    MAX_DELETE_IDS,
    MAX_ID_DIGITS,
    collection_id,
    read_ids,
)
from xlsudoku.addin.params.functions import (
    function_budget,
    function_geometry,
    function_limit,
    function_opens,
    function_profile,
    function_request,
)
from xlsudoku.addin.params.generator import (
    StartParams,
    defaults,
    engine_problem,
    read_start,
    start_request,
)
from xlsudoku.addin.params.puzzles import (
    EXCEL_DIGITS,
    cell_text,
    looks_like_path,
    number_note,
    number_puzzle,
    read_block,
    read_candidates,
    read_entries,
    read_grid,
    read_string,
    string_geometry,
)

__all__ = [
    "EXCEL_DIGITS",
    "MAX_DELETE_IDS",
    "MAX_ID_DIGITS",
    "ParamError",
    "Raw",
    "StartParams",
    "cell_problem",
    "cell_text",
    "collection_id",
    "defaults",
    "engine_problem",
    "function_budget",
    "function_geometry",
    "function_limit",
    "function_opens",
    "function_profile",
    "function_request",
    "geometry_of",
    "is_blank",
    "looks_like_path",
    "number_note",
    "number_puzzle",
    "parse_param",
    "read_block",
    "read_candidates",
    "read_entries",
    "read_geometry",
    "read_grid",
    "read_ids",
    "read_start",
    "read_string",
    "shown",
    "start_request",
    "string_geometry",
]
