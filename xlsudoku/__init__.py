"""xlsudoku: a symmetric Sudoku generator behind an Excel workbook.

Two packages share this name so that the distribution claims one import name only:
:mod:`xlsudoku.engine` (pure Python, knows nothing of Excel) and :mod:`xlsudoku.addin` (the
workbook, through xlwings or openpyxl), which depends on the engine, never the reverse.
"""

__version__ = "0.1.0"
