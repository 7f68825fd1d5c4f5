"""Dependency rules of STYLE.md for the whole package: layers, no circle, no private reach.

The layers run one way: engine <- xlsm <- addin <- production <- cli (``template``, the
workbook's build, sits above addin and nothing at run time imports it); ``bench`` (the tools)
may import every layer but the command line, and nothing imports it but the command line;
``errors``, ``interrupts`` and ``progress`` import nothing of the package and every layer may
import them.
Imports inside functions count: a lazy import back is still a circle in the design.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

import xlsudoku

ROOT = Path(xlsudoku.__file__).parent
BASE = {
    "xlsudoku",
    "xlsudoku.errors",
    "xlsudoku.interrupts",
    "xlsudoku.progress",
    "xlsudoku.__main__",
}
# What each room may import of the package (besides itself and the base modules).
ALLOWED = {
    "engine": set(),
    "xlsm": set(),
    "addin": {"engine", "xlsm"},
    "template": {"engine", "xlsm", "addin"},
    "production": {"engine", "xlsm", "addin"},
    "bench": {"engine", "xlsm", "addin", "template", "production"},
    "cli": {"engine", "xlsm", "addin", "template", "production", "bench"},
}


def _modules() -> dict[str, Path]:
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = ("xlsudoku", *path.relative_to(ROOT).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def _imports(names: dict[str, Path]) -> dict[str, set[str]]:
    """Every module -> the package modules it imports, at the top or inside a function."""
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        found: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in names else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in names and m != name}
    return graph


def _room(module: str) -> str:
    parts = module.split(".")
    return module if module in BASE else parts[1]


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one import circle of *graph* (a path back to its start), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_cycle_finder_finds_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_package_has_no_import_circle():
    graph = _imports(_modules())
    assert "xlsudoku.engine.generate.lowsearch" in graph["xlsudoku.engine.generate.workers"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_rooms_import_one_way():
    names = _modules()
    rooms = {_room(name) for name in names} - BASE
    assert rooms == set(ALLOWED), rooms
    wrong = []
    for module, imported in _imports(names).items():
        room = _room(module)
        for other in imported:
            target = _room(other)
            if target in BASE and room != "xlsudoku" and other != "xlsudoku.__main__":
                continue
            if module in BASE:
                if other not in BASE and module != "xlsudoku.__main__":
                    wrong.append(f"{module} -> {other}")
                continue
            if target != room and target not in ALLOWED[room]:
                wrong.append(f"{module} -> {other}")
    assert wrong == []


def test_the_base_and_the_file_library_import_nothing_of_the_package():
    graph = _imports(_modules())
    for name in ("xlsudoku.errors", "xlsudoku.interrupts", "xlsudoku.progress"):
        assert graph[name] == set(), name
    for name, imported in graph.items():
        if name.startswith("xlsudoku.xlsm"):
            assert all(other.startswith("xlsudoku.xlsm") for other in imported), name


def test_technique_modules_import_only_the_board_vocabulary():
    allowed = {"grid", "masks", "board", "steps"}
    for name, imported in _imports(_modules()).items():
        if not name.startswith("xlsudoku.engine.techniques.") or name.endswith("__init__"):
            continue
        for other in imported:
            parts = other.split(".")
            ok = (parts[:2] == ["xlsudoku", "engine"] and parts[2] in allowed) or other.startswith(
                "xlsudoku.engine.techniques"
            )
            assert ok, f"{name} -> {other}"


def test_no_module_reaches_into_private_names_of_another():
    """No ``from x import _private`` of another module, no argparse internals anywhere."""
    wrong = []
    for name, path in _modules().items():
        text = path.read_text(encoding="utf-8")
        for needle in ("_SubParsersAction", "._actions", "_group_actions", "sys.argv[1"):
            if needle in text and name != "xlsudoku.cli":
                wrong.append(f"{name}: {needle}")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != name:
                wrong += [
                    f"{name}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert wrong == []


def test_engine_import_loads_no_excel_modules():
    code = (
        "import sys, importlib, pkgutil\n"
        "import xlsudoku.engine\n"
        "for m in pkgutil.walk_packages(xlsudoku.engine.__path__, 'xlsudoku.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in ('xlwings', 'openpyxl', 'xlsudoku.addin', 'xlsudoku.production',"
        " 'xlsudoku.xlsm', 'xlsudoku.cli', 'xlsudoku.bench', 'fpdf', 'distributed', 'filelock')"
        " if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine loaded {out.stdout.strip()}"


def test_the_command_line_loads_only_the_standard_library_before_a_command_runs():
    code = (
        "import sys\n"
        "import xlsudoku.cli\n"
        "xlsudoku.cli.build_parser()\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('xlsudoku.engine', 'xlsudoku.addin',"
        " 'xlsudoku.production', 'xlsudoku.xlsm', 'openpyxl', 'numpy', 'xlwings', 'fpdf',"
        " 'dask', 'tqdm')) or m in [n for n in sys.modules if n.startswith('xlsudoku.bench.')])\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"building the parser loaded {out.stdout.strip()}"


def test_chaining_imports_only_the_vocabulary_modules():
    # the chain package is given other technique families' finders (SE's patterns) by the
    # registry, as extra rules: it imports none itself
    allowed = {f"xlsudoku.engine.{m}" for m in ("grid", "masks", "board", "steps")}
    chaining = "xlsudoku.engine.techniques.chaining"
    graph = _imports(_modules())
    modules = [m for m in graph if m.startswith(chaining)]
    assert len(modules) >= 10
    for module in modules:
        outside = {m for m in graph[module] if m not in allowed and not m.startswith(chaining)}
        assert not outside, f"{module} imports {sorted(outside)}"


# The files allowed past a thousand lines.  The 9x9 path keeps its bit layout, propagation round
# and search loop together, since all three read the same bit positions.
LONG_FILES = {"engine/solver/nine.py"}


def test_no_file_exceeds_a_thousand_lines():
    long = {
        name: n
        for path in ROOT.rglob("*.py")
        if (name := path.relative_to(ROOT).as_posix()) not in LONG_FILES
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > 1000
    }
    assert not long, long


# One vocabulary: the engine calls a puzzle's filled cells givens ("opens" is the workbook's
# word, in labels and messages only; "clue" is a synonym).  No exceptions: the engine opens no
# file, so even the builtin ``open`` has no place in it.
FORBIDDEN_WORDS = {"open", "opens", "clue", "clues"}


def _words(identifier: str) -> list[str]:
    """Split *identifier* into its lower-case words at underscores and case changes."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", identifier)]


def _identifiers(source: str) -> set[str]:
    """Return every name *source* defines or uses (functions, classes, parameters, variables,
    attributes, keyword arguments, imported modules and aliases)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.update((node.asname or node.name).split("."))
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.update(node.module.split("."))
    return names


def _unwanted(identifier: str) -> bool:
    # "clue" inside a word catches compounds such as a module named lowclue
    return any(w in FORBIDDEN_WORDS or "clue" in w for w in _words(identifier))


def test_the_word_check_finds_each_synonym():
    source = (
        "from x.lowclue import LowClueError\n"
        "def f(fixed_open, n=2):\n"
        "    DEFAULT_OPENS = g(opens=n).clue\n"
        "    return open(fixed_open), n.openpyxl, fixed_given\n"
    )
    found = sorted(n for n in _identifiers(source) if _unwanted(n))
    assert found == [
        "DEFAULT_OPENS",
        "LowClueError",
        "clue",
        "fixed_open",
        "lowclue",
        "open",
        "opens",
    ]
    assert _words("LowGivensError") == ["low", "givens", "error"]


def test_engine_identifiers_say_given():
    engine = ROOT / "engine"
    wrong = []
    for path in sorted(engine.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        wrong += [
            f"{name}: module"
            for part in path.relative_to(engine).parts
            if _unwanted(part[:-3] if part.endswith(".py") else part)
        ]
        wrong += [
            f"{name}: {n}"
            for n in sorted(_identifiers(path.read_text(encoding="utf-8")))
            if _unwanted(n)
        ]
    assert wrong == []


def test_no_type_checking_shim() -> None:
    """``typing.TYPE_CHECKING`` is imported, never faked to spare loading ``typing``."""
    shims = [
        f"{path.relative_to(ROOT).as_posix()}:{number}"
        for path in ROOT.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.replace(" ", "").startswith("TYPE_CHECKING=False")
    ]
    assert not shims, shims
