"""xlsudoku engine: pure Python (+ numpy) Sudoku geometry, solvers, generator and grading.

``generate()`` is :func:`xlsudoku.engine.generate.generate` (the name of its package here).

The engine knows nothing about Excel; it must also run inside xlwings Lite (Pyodide).

Importing the package loads none of its modules: each name below is loaded from its module the
first time it is asked for, so a command that only counts solutions does not pay for the
generator and the techniques.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing on the count path

if TYPE_CHECKING:
    from typing import Any

    from xlsudoku.engine.fill import random_grid
    from xlsudoku.engine.generate import (
        GenerateError,
        GenerateRequest,
        GenerateResult,
        minimal_puzzle,
        validate_request,
    )
    from xlsudoku.engine.grid import (
        CLASSIC,
        Cell,
        ConflictError,
        Digit,
        Geometry,
        Grid,
        House,
        InvalidPuzzle,
        ParseError,
        SudokuError,
        geometry,
        geometry_for_size,
    )
    from xlsudoku.engine.patterns import PRESETS, Pattern, parse_pattern, show_pattern
    from xlsudoku.engine.ranks import Ranks, rank_statistics
    from xlsudoku.engine.solver import count_solutions, is_unique, solutions, solve
    from xlsudoku.engine.symmetry import Symmetry, is_symmetric, orbits

# Each public name and the module it comes from.
_HOMES = {
    "random_grid": "fill",
    **dict.fromkeys(
        (
            "GenerateError",
            "GenerateRequest",
            "GenerateResult",
            "minimal_puzzle",
            "validate_request",
        ),
        "generate",
    ),
    **dict.fromkeys(
        (
            "CLASSIC",
            "Cell",
            "ConflictError",
            "Digit",
            "Geometry",
            "Grid",
            "House",
            "InvalidPuzzle",
            "ParseError",
            "SudokuError",
            "geometry",
            "geometry_for_size",
        ),
        "grid",
    ),
    **dict.fromkeys(("PRESETS", "Pattern", "parse_pattern", "show_pattern"), "patterns"),
    **dict.fromkeys(("Ranks", "rank_statistics"), "ranks"),
    **dict.fromkeys(("count_solutions", "is_unique", "solutions", "solve"), "solver"),
    **dict.fromkeys(("Symmetry", "is_symmetric", "orbits"), "symmetry"),
}


def __getattr__(name: str) -> Any:
    """Return the public *name* from its module, loaded on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "CLASSIC",
    "Cell",
    "ConflictError",
    "Digit",
    "Geometry",
    "Grid",
    "House",
    "InvalidPuzzle",
    "ParseError",
    "SudokuError",
    "Symmetry",
    "count_solutions",
    "geometry",
    "geometry_for_size",
    "is_symmetric",
    "is_unique",
    "orbits",
    "random_grid",
    "solutions",
    "solve",
    # generator, patterns, ranks
    "GenerateError",
    "GenerateRequest",
    "GenerateResult",
    "PRESETS",
    "Pattern",
    "Ranks",
    "minimal_puzzle",
    "parse_pattern",
    "rank_statistics",
    "show_pattern",
    "validate_request",
]
