"""``solvers`` is pure computation: importing any of it must not load textual, rich or pokertui."""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import solvers


def _modules():
    names = ["solvers"]
    for info in pkgutil.walk_packages(solvers.__path__, prefix="solvers."):
        names.append(info.name)
    return names


def test_solvers_never_loads_the_ui():
    names = _modules()
    assert "solvers.cards.evaluator" in names and "solvers.cards.equity" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = [m for m in ('textual', 'rich', 'pokertui') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _pokertui_imports() -> dict[str, set[str]]:
    """``{module: pokertui modules it imports}``, function-level imports included."""
    root = Path(__file__).resolve().parent.parent / "pokertui"
    paths = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for module, path in paths.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found |= {name for name in names if name in paths and name != module}
        graph[module] = found
    return graph


def test_pokertui_modules_import_each_other_without_cycles():
    """A cycle (play and review once imported each other for the history export) hides behind a
    function-level import; every import statement counts here."""
    graph = _pokertui_imports()
    assert "pokertui.screens.history_export" in graph["pokertui.screens.review"]
    cycles = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                cycles.append(" -> ".join([*path[path.index(other) :], other]))
            elif other not in state:
                visit(other, [*path, other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
