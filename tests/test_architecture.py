"""Dependency rules of STYLE.md: what the engine loads (fresh interpreter), no import circle."""

import ast
import subprocess
import sys
from pathlib import Path

import xlsudoku.engine


def test_engine_import_loads_no_excel_modules():
    code = (
        "import sys, importlib, pkgutil\n"
        "import xlsudoku.engine\n"
        "for m in pkgutil.walk_packages(xlsudoku.engine.__path__, 'xlsudoku.engine.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = [m for m in ('xlwings', 'openpyxl', 'xlsudoku.addin', 'xlsudoku.production',"
        " 'fpdf', 'distributed', 'filelock') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine loaded {out.stdout.strip()}"


def _engine_imports() -> dict[str, set[str]]:
    """Every engine module -> the engine modules it imports, at the top or inside a function."""
    root = Path(xlsudoku.engine.__file__).parent
    names = {}
    for path in root.rglob("*.py"):
        parts = ("xlsudoku", "engine", *path.relative_to(root).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in names else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in names and m != name}
    return graph


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


def test_engine_has_no_import_circle():
    # imports inside functions count too: a lazy import back is still a circle in the design
    graph = _engine_imports()
    assert "xlsudoku.engine.generate.deep" in graph
    assert "xlsudoku.engine.generate.lowsearch" in graph["xlsudoku.engine.generate.workers"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_chaining_imports_only_the_vocabulary_modules():
    # the chain package is given other technique families' finders (SE's patterns) by the
    # registry, as extra rules: it imports none itself
    allowed = {f"xlsudoku.engine.{m}" for m in ("grid", "masks", "board", "steps")}
    chaining = "xlsudoku.engine.techniques.chaining"
    graph = _engine_imports()
    modules = [m for m in graph if m.startswith(chaining)]
    assert len(modules) >= 10
    for module in modules:
        outside = {m for m in graph[module] if m not in allowed and not m.startswith(chaining)}
        assert not outside, f"{module} imports {sorted(outside)}"


def test_no_engine_file_exceeds_a_thousand_lines():
    # the solver's 9x9 search loop is the one allowed exception (one loop, kept whole for speed)
    root = Path(xlsudoku.engine.__file__).parent
    long = {
        str(path.relative_to(root)): n
        for path in root.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 1000
        and path.name != "solver.py"
    }
    assert not long, long
