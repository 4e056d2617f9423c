"""Iterative equilibrium solvers behind one interface (see ``base.py``).

Importing the package registers every algorithm; ``solve(game, "cfr+", target_exploitability=...)``
or ``make_solver(game, "dcfr").run(iterations=1000)`` runs one.
"""

from solvers.algorithms import paper_cfr, sampling  # noqa: F401, E402 - register their algorithms
from solvers.algorithms.base import (
    ALGORITHMS,
    Metrics,
    Solver,
    SolverError,
    make_solver,
    register_algorithm,
    solve,
)
from solvers.algorithms.double_oracle import DoubleOracle
from solvers.algorithms.fictitious_play import FictitiousPlay
from solvers.algorithms.full_width import VARIANTS, CFRConfig, FullWidthCFR
from solvers.algorithms.genetic import GeneticAlgorithm
from solvers.algorithms.regret_matching import RegretMatching, regret_matching

__all__ = [
    "ALGORITHMS",
    "VARIANTS",
    "CFRConfig",
    "DoubleOracle",
    "FictitiousPlay",
    "GeneticAlgorithm",
    "FullWidthCFR",
    "Metrics",
    "RegretMatching",
    "Solver",
    "SolverError",
    "make_solver",
    "register_algorithm",
    "regret_matching",
    "solve",
]
