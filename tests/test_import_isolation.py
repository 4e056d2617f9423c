"""``solvers`` is pure computation: importing any of it must not load textual, rich or pokertui."""

import pkgutil
import subprocess
import sys

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
