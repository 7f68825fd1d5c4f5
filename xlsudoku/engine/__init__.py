"""xlsudoku engine: pure Python Sudoku geometry, solvers, generator and grading.

The engine knows nothing about Excel; it must also run inside xlwings Lite (Pyodide).

The package itself holds the grid and the solver, what every caller needs:
``from xlsudoku.engine import Grid, count_solutions``.  The rest lives in its module, imported
by name where it is used: :mod:`xlsudoku.engine.generate` (``generate``, ``GenerateRequest``),
:mod:`xlsudoku.engine.analysis`, :mod:`xlsudoku.engine.patterns`, :mod:`xlsudoku.engine.symmetry`
and so on.
"""

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
from xlsudoku.engine.solver import count_solutions, is_unique, solutions, solve

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
    "count_solutions",
    "geometry",
    "geometry_for_size",
    "is_unique",
    "solutions",
    "solve",
]
