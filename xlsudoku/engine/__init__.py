"""xlsudoku engine: pure Python (+ numpy) Sudoku geometry, solvers, generator and grading.

``generate()`` is :func:`xlsudoku.engine.generate.generate` (the name of its package here).

The engine knows nothing about Excel; it must also run inside xlwings Lite (Pyodide).
"""

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
