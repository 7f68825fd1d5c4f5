"""The .xlsm file library: read a workbook package without trusting it, write one safely.

It knows no Sudoku and imports nothing of the rest of xlsudoku:

- :mod:`.safe_zip`: a package checked against limits, damage and unsafe XML before openpyxl
  reads it;
- :mod:`.files`: special files refused, symbolic links followed, the atomic replace, stale
  temporary files, the files a document may make the program read;
- :mod:`.cells`: A1 addresses and ranges, Excel's column unit, values as Excel keeps them;
- :mod:`.lock`: one writer at a time;
- :mod:`.patch`: a save that writes only the changed cells, fills and sizes into the package
  and keeps every other part byte for byte;
- :mod:`.keep`: after a whole save by openpyxl, the cells it cannot write put back, and a save
  that would drop a part refused (:mod:`.sheetxml`: what both read of a package's sheets);
- :mod:`.package`: saving through openpyxl without losing the VBA project and the buttons;
- :mod:`.vbaproject` and :mod:`.cfb`: the VBA project (MS-OVBA) and its compound file;
- :mod:`.errors`: what can go wrong, one type each.
"""
