"""Iterative equilibrium solvers behind one interface (see ``base.py``).

The list of algorithms and their options is ``registry.py``, which imports nothing heavy; the
names below load on first use (PEP 562), so ``import solvers.algorithms.registry`` stays quick.
``solve(game, "cfr+", target_exploitability=...)`` or ``make_solver(game, "dcfr").run(1000)``
runs one.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "ALGORITHMS": "solvers.algorithms.base",
    "Metrics": "solvers.algorithms.base",
    "Solver": "solvers.algorithms.base",
    "make_solver": "solvers.algorithms.base",
    "solve": "solvers.algorithms.base",
    "SolverError": "solvers.algorithms.registry",
    "DoubleOracle": "solvers.algorithms.double_oracle",
    "FictitiousPlay": "solvers.algorithms.fictitious_play",
    "VARIANTS": "solvers.algorithms.full_width",
    "CFRConfig": "solvers.algorithms.full_width",
    "FullWidthCFR": "solvers.algorithms.full_width",
    "GeneticAlgorithm": "solvers.algorithms.genetic",
    "RegretMatching": "solvers.algorithms.regret_matching",
    "regret_matching": "solvers.algorithms.regret_matching",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'solvers.algorithms' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
