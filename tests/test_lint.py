"""STYLE.md tooling: ruff (lint and format) on the whole tree, mypy --strict on engine/."""

import subprocess
import sys

import pytest
from conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint_and_format_are_clean():
    pytest.importorskip("ruff", reason="ruff is not installed (test extra)")
    lint = _run(sys.executable, "-m", "ruff", "check", "xlsudoku", "tests")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = _run(sys.executable, "-m", "ruff", "format", "--check", "xlsudoku", "tests")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_strict_on_engine():
    pytest.importorskip("mypy", reason="mypy is not installed (test extra)")
    result = _run(sys.executable, "-m", "mypy", "--strict", "xlsudoku/engine")
    assert result.returncode == 0, result.stdout + result.stderr
