"""The Excel side of xlsudoku: workbook contract, actions, xlwings bindings, headless runner."""
