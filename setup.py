"""The package list, beside pyproject.toml (which holds everything else).

The workbooks stay in the repository's ``workbooks/`` folder, where the template build writes
them and people open them; the distribution carries that folder as the package data of
``xlsudoku.workbooks``, so an installed xlsudoku has its workbooks
(``xlsudoku workbook new``).  pyproject.toml cannot map a package to another folder and still
find the others, hence this file.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["xlsudoku*"]), "xlsudoku.workbooks"],
    package_dir={"xlsudoku.workbooks": "workbooks"},
)
