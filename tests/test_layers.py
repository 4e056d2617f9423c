"""The layers of ``solvers/`` import one way, with no cycles hidden in function-level imports.

Every ``import`` statement of every module is read with ``ast`` (function-level ones too), so a
cycle cannot hide behind a late import. Only the process entry point (``runs``) imports solvers
modules on use, so that short commands start fast.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "solvers"

BASE = {"errors", "atomic", "user_files", "file_reading", "__init__", "__version__"}
"""Top-level helper modules that every layer may use."""

ALLOWED: dict[str, set[str]] = {
    "parallel": {"parallel"},
    "cards": {"cards"},
    "games": {"cards", "games"},
    "abstraction": {"cards", "games", "abstraction"},
    "exact": {"cards", "games", "exact"},
    "theory": {"cards", "games", "exact", "theory"},
    "algorithms": {"cards", "games", "abstraction", "exact", "algorithms"},
    "strategy_file": {"cards", "games", "abstraction", "exact", "strategy_file"},
    "agents": {
        "cards", "games", "abstraction", "exact", "theory", "algorithms", "strategy_file",
        "agents",
    },
    "reports": {
        "cards", "games", "abstraction", "exact", "theory", "strategy_file", "parallel",
        "agents", "reports",
    },
    "analysis": {
        "cards", "games", "abstraction", "exact", "theory", "algorithms", "strategy_file",
        "parallel", "agents", "reports", "analysis",
    },
    "runs": {
        "cards", "games", "abstraction", "exact", "algorithms", "strategy_file", "parallel",
        "reports", "agents", "analysis", "runs",
    },
    "batch": {
        "cards", "games", "abstraction", "exact", "algorithms", "strategy_file", "parallel",
        "reports", "agents", "analysis", "runs", "batch",
    },
}
"""Which packages each layer may import from (besides ``BASE``)."""


def _imports(path: Path) -> list[tuple[str, bool]]:
    """``(imported module, at module level)`` for every import statement in a file."""
    tree = ast.parse(path.read_text())
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top_level) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found += [(name, id(node) in top_level) for name in names]
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "solvers" or len(parts) < 2:
        return None
    return parts[1].removesuffix(".py")


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        yield path, ".".join(rel.parts)


def test_every_package_has_a_layer():
    layers = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert layers == set(ALLOWED)


def test_imports_run_down_the_layers():
    wrong = []
    for path, module in _modules():
        own = _layer(module)
        if own in BASE or own is None:
            continue
        for imported, _ in _imports(path):
            target = _layer(imported)
            if target is None or target in BASE:
                continue
            if target not in ALLOWED[own]:
                wrong.append(f"{module} imports {imported}")
    assert wrong == []


def test_agents_sit_below_reports():
    """The agents' machinery (beliefs along a line, bet sizing, policy columns) lives in
    ``agents/`` or below; LBR, matches and the live panel use it, never the other way round."""
    wrong = [
        f"{module} imports {imported}"
        for path, module in _modules()
        if _layer(module) == "agents"
        for imported, _ in _imports(path)
        if _layer(imported) == "reports"
    ]
    assert wrong == []
    assert "reports" not in ALLOWED["agents"]


def _module_of(imported: str, modules: set[str]) -> str | None:
    """The ``solvers`` module an imported name lives in (``a.b.name`` -> ``a.b``)."""
    while imported and imported not in modules:
        imported = imported.rpartition(".")[0]
    return imported or None


def _cannot_close_a_cycle() -> set[str]:
    """The leaves (modules that import nothing from ``solvers``) and, from them up, the modules
    whose every import (late ones included) is one of these: every import path from them ends
    at a leaf and none leads back, so a late import of one cannot hide a cycle."""
    imports = {module: [name for name, _ in _imports(path)] for path, module in _modules()}
    known = set(imports)
    targets = {
        module: {_module_of(n, known) for n in names if n.startswith("solvers.")}
        for module, names in imports.items()
    }
    return _safe_from(targets)


def _safe_from(targets: dict[str, set[str]]) -> set[str]:
    """The modules of ``targets`` (each module's imports) whose import paths all end at leaves."""
    safe: set[str] = set()
    while True:
        more = {module for module, found in targets.items() if found <= safe} - safe
        if not more:
            return safe
        safe |= more


def test_no_late_imports_hide_a_cycle():
    """Only ``runs`` (the process entry point) imports solvers modules on use, to start fast,
    and any module may load late a module that cannot close a cycle (the numba kernels: numba
    loads only for spots)."""
    safe = _cannot_close_a_cycle()
    late = [
        f"{module} imports {imported} inside a function"
        for path, module in _modules()
        for imported, at_top in _imports(path)
        if not at_top
        and imported.startswith("solvers.")
        and _layer(module) != "runs"
        and imported not in safe
    ]
    assert late == []
    assert "solvers.exact.compiled_kernels" in safe
    assert "solvers.games.holdem.terminal_kernels" in safe
    # a cycle and what imports it are never safe, however the late import is spelled
    assert _safe_from({"a": {"b"}, "b": {"a"}, "c": set(), "d": {"c"}, "e": {"d", "a"}}) == {
        "c",
        "d",
    }
