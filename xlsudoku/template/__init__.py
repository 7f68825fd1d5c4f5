"""The workbook template and how it is built: a build tool, never loaded at run time.

``python -m xlsudoku.template.build`` rebuilds ``workbooks/xlsudoku.xlsm`` from
:mod:`xlsudoku.addin.layout` (:mod:`.build`, its look in :mod:`.styles`), with the button macros
of ``vba/Buttons.bas`` in the VBA project of xlwings' quickstart workbook (:mod:`.xlwings_vba`,
vendored as ``vba/xlwings_project.bin``).  The add-in (what Excel, xlwings Lite and Server and
the headless runner load) never imports this package; a test holds the committed workbook
equal to a fresh build.
"""
