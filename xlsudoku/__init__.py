"""xlsudoku: a symmetric Sudoku generator behind an Excel workbook.

One import name in rooms whose imports run one way (docs/ARCHITECTURE.md): :mod:`xlsudoku.engine`
(pure Python, knows nothing of Excel) <- :mod:`xlsudoku.xlsm` (the workbook file) <-
:mod:`xlsudoku.addin` (the workbook as a user interface) <- :mod:`xlsudoku.production` (puzzles
in bulk and on paper) <- :mod:`xlsudoku.cli` (the one command line).
"""

__version__ = "0.1.0"
