"""xlwings Lite: the code of this workbook (the main.py tab of the xlwings Lite pane).

Paste this file into the pane's main.py tab and ``requirements.txt`` into its requirements.txt
tab (README.md, "xlwings Lite").  The scripts (one per button: start, save_to_collection, clear,
analyze, hint, solve) and the custom functions (SUDOKU_SOLVE, SUDOKU_COUNT, SUDOKU_GRADE,
SUDOKU_GENERATE) are those of ``xlsudoku.addin.xl``, the same code xlwings Server and the tests
run; this file only brings them into the module xlwings Lite reads.
"""

from xlsudoku.addin.xl import *  # noqa: F403
