Attribute VB_Name = "Buttons"
' Buttons of the xlsudoku workbook (classic desktop xlwings).
'
' Each macro runs one action of the Python add-in through xlwings' RunPython (module "xlwings"
' of this VBA project). Python finds the workbook with xw.Book.caller(). The interpreter xlwings
' starts must have the xlsudoku package installed (pip install -e .): see README, "The workbook
' (Excel)". template/build.py puts this module into workbooks/xlsudoku.xlsm, and
' tests/test_build_workbook.py checks that every button in addin/layout.py runs its macro here.
Option Explicit

Public Sub StartClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.start()"
End Sub

Public Sub SaveToCollectionClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.save_to_collection()"
End Sub

Public Sub ClearClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.clear()"
End Sub

Public Sub ImportPuzzlesClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.import_puzzles()"
End Sub

Public Sub DeleteFromCollectionClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.delete_from_collection()"
End Sub

Public Sub SortCollectionClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.sort_collection()"
End Sub

Public Sub RestoreToCollectionClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.restore_to_collection()"
End Sub

Public Sub AnalyzeClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.analyze()"
End Sub

Public Sub HintClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.hint()"
End Sub

Public Sub SolveClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.solve()"
End Sub

Public Sub PlayClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.play()"
End Sub

Public Sub CheckClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.check()"
End Sub

Public Sub PlayHintClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.play_hint()"
End Sub

Public Sub PlaySolveClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.play_solve()"
End Sub

Public Sub UndoClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.undo()"
End Sub

Public Sub FillCandidatesClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.fill_candidates()"
End Sub

Public Sub StatsClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.stats()"
End Sub

Public Sub ExplainClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.explain()"
End Sub

Public Sub ImageClick()
    RunPython "import xlsudoku.addin.desktop; xlsudoku.addin.desktop.image()"
End Sub
