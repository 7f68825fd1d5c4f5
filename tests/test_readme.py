"""README.md gives exactly two commands for a fresh machine, and .ci/run runs the test one.

README stays short (the manuals and essays are in docs/), and every relative link of README.md
and docs/*.md leads somewhere: the file exists and an ``#anchor`` names a heading of the target
as GitHub spells it.
"""

import re
from pathlib import Path

import pytest
from conftest import ROOT

README_MAX_LINES = 400


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


def test_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move text to docs/"


# -- links --------------------------------------------------------------------------------------

_FENCE = re.compile(r"^ *(```|~~~).*?^ *\1[^\n]*$", flags=re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", flags=re.S)
_COMMENT = re.compile(r"<!--.*?-->", flags=re.S)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", flags=re.M)


def _prose(text: str) -> str:
    """Return *text* without code blocks, code spans and comments (links there are not links)."""
    return _CODE_SPAN.sub(" ", _FENCE.sub("", _COMMENT.sub("", text)))


def slug(heading: str) -> str:
    """Return GitHub's anchor for a heading's text.

    >>> slug("The workbook (Excel)"), slug("Ctrl+C"), slug("`bench` figures: *all*")
    ('the-workbook-excel', 'ctrlc', 'bench-figures-all')
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Return the anchors of every heading of the Markdown file *path* (repeats get -1, -2, ...)."""
    text = _FENCE.sub("", _COMMENT.sub("", path.read_text(encoding="utf-8")))
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in _HEADING.findall(text):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    """Return the targets of *path*'s links and images that are not web addresses."""
    targets = _LINK.findall(_prose(path.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t, flags=re.I)]


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _broken(path: Path) -> list[str]:
    """Return a line for each relative link of *path* that leads nowhere."""
    problems = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        linked = path.parent / file_part if file_part else path
        if not linked.exists():
            problems.append(f"{target}: no file {file_part}")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{target}: no heading #{anchor} in {linked.name}")
    return problems


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path):
    assert _broken(path) == []


def test_the_link_check_sees_links_and_catches_a_broken_one(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n\n## Two (words)\n\nSee [two](#two-words), [gone](#nowhere), "
        "[file](missing.md) and ![pic](page.md#top).\n\n```bash\n[not](a-link.md)\n```\n"
        "`[nor](this.md)` <!-- [nor](that.md) --> [web](https://example.com)\n",
        encoding="utf-8",
    )
    assert relative_links(page) == ["#two-words", "#nowhere", "missing.md", "page.md#top"]
    assert anchors(page) == {"top", "two-words"}
    assert [problem.split(":")[0] for problem in _broken(page)] == [
        "#nowhere",
        "missing.md",
    ]


# What code and sheet text may name: a docs page (with an anchor), or README with a section.
_DOCS_POINTER = re.compile(r"\b(docs/[\w-]+\.md)(?:#([\w-]+))?")
_README_POINTER = re.compile(r"\bREADME(?:\.md)?(?:'s)?(?:,\s*|\s+)\"?([A-Z][\w -]+?)\"?\)")


def pointers(text: str) -> list[tuple[str, str]]:
    """Return the (page, anchor) pairs a text names: ``docs/x.md#y`` and ``(README, Section)``.

    >>> pointers('see docs/grading.md#grade and (README, Floors) or README, "Low-clue search")')
    [('docs/grading.md', 'grade'), ('README.md', 'floors'), ('README.md', 'low-clue-search')]
    """
    found = [(page, anchor or "") for page, anchor in _DOCS_POINTER.findall(text)]
    found += [("README.md", slug(section)) for section in _README_POINTER.findall(text)]
    return found


def test_every_pointer_in_code_and_sheet_text_resolves():
    package = ROOT / "xlsudoku"
    broken = []
    for path in sorted(package.rglob("*.py")):
        for page, anchor in pointers(path.read_text(encoding="utf-8")):
            target = ROOT / page
            if not target.exists():
                broken.append(f"{path.relative_to(ROOT)}: no file {page}")
            elif anchor and anchor not in anchors(target):
                broken.append(f"{path.relative_to(ROOT)}: no heading #{anchor} in {page}")
    assert broken == []


def test_the_pointer_check_catches_a_stale_section():
    assert ("README.md", "floors") in pointers("the pattern (README, Floors) get")
    assert "floors" not in anchors(ROOT / "README.md")
