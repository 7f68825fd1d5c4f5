"""xlwings Lite: the code of this workbook (the main.py tab of the xlwings Lite pane).

workbooks/xlsudoku-lite.xlsx carries this file and requirements.txt as xlwings Lite stores
them (python -m xlsudoku.template.build writes them into it).  The scripts (one per button:
start, save_to_collection, clear, import_puzzles, delete_from_collection, sort_collection,
restore_to_collection, analyze, hint, solve, explain, image, play, check, play_hint,
play_solve, undo, fill_candidates, stats) and the custom functions (SUDOKU_SOLVE,
SUDOKU_COUNT, SUDOKU_GRADE, SUDOKU_GENERATE) are those of xlsudoku.addin.xl, the same code
xlwings Server and the tests run; this file only brings them into the module xlwings Lite
reads.
"""

from xlsudoku.addin.xl import *  # noqa: F403
