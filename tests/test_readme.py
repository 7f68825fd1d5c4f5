"""README.md gives exactly two commands for a fresh machine, and .ci/run runs the test one."""

import re

from conftest import ROOT


def _fresh_machine_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, flags=re.S)]


def test_readme_has_exactly_two_commands():
    commands = _fresh_machine_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in c for c in commands), "each command is one line"


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = _fresh_machine_commands()[1]
    assert "pytest" in test_command
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines


def test_main_job_runs_the_xlsudoku_command():
    main_job = _fresh_machine_commands()[0]
    assert "xlsudoku" in main_job
