"""Double oracle: grow populations of pure strategies by exact best responses; solve by LP.

McMahan, Gordon & Blum, "Planning in the Presence of Cost Functions Controlled by an Adversary"
(ICML 2003) introduced the double oracle; Oliehoek, de Jong & Vlassis, "The Parallel Nash Memory
for Asymmetric Games" (GECCO 2006, seed 003) use the same loop with best-response oracles on
8-card poker. Each iteration:

1. solve the restricted game, whose rows and columns are the two populations of pure strategies
   and whose entries are exact expected values, by von Neumann's minimax LP;
2. mix each population by the LP's weights into one behavioural strategy. Mixing goes through
   realization weights (``plan.realization_weights``): pure strategy i is played with
   probability ``x_i`` from the start, so at a node its actions count in proportion to
   ``x_i`` times its own reach there;
3. add each player's exact best response to the mixture (``solvers.exact``) if it gains more
   than ``tolerance`` over the restricted value.

In a finite two-player zero-sum game this stops with NashConv 0 (up to the LP's tolerance) after
finitely many additions; the supports are often far smaller than the pure strategy sets. The
output (``average_strategy`` and ``current_strategy`` alike) is the mixture, and ``history``
records NashConv, population and support sizes at each step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvers.algorithms.base import Solver, SolverError
from solvers.exact.evaluation import respond_per_edge, value_per_edge
from solvers.exact.walk import build_plan, normalise_per_node, realization_weights
from solvers.games.base import Strategy, TreeGame
from solvers.games.matrix import maximin

SUPPORT_THRESHOLD = 1e-9
"""A pure strategy is in the support when the LP gives it more weight than this."""


class DoubleOracle(Solver):
    """The double oracle on a ``TreeGame``; see the module docstring."""

    chunk = 1
    fixed_shapes = False

    def __init__(self, game: TreeGame, tolerance: float = 1e-10, output: str = "average") -> None:
        if game.simultaneous:
            raise SolverError(f"{game.name} is a matrix game: solve it with 'rm' or the LP")
        super().__init__(game, output)
        self.algorithm = "double-oracle"
        self.tolerance = tolerance
        self.plan = build_plan(game)
        first = [np.zeros((e.n_edges, self.plan.n_hands[p])) for p, e in enumerate(self.plan.edges)]
        for p, edges in enumerate(self.plan.edges):
            first[p][edges.first_edge] = 1.0  # the first action everywhere
        self.populations: list[list[np.ndarray]] = [[first[0]], [first[1]]]
        self.payoff = np.array([[self._value(first[0], first[1])]])
        self.mixes = [np.ones(1), np.ones(1)]
        self.restricted_value = float(self.payoff[0, 0])
        self.history: list[dict[str, Any]] = []
        self.converged = False

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "tolerance": self.tolerance}

    def _value(self, row: np.ndarray, column: np.ndarray) -> float:
        return value_per_edge(self.game, [row, column])

    def _mixture(self) -> list[np.ndarray]:
        mixed = []
        for p in (0, 1):
            weights = np.zeros_like(self.populations[p][0])
            for mix, pure in zip(self.mixes[p], self.populations[p], strict=True):
                if mix > 0:
                    other = self.populations[1 - p][0]  # any: only p's own reach is used
                    pair = [pure, other] if p == 0 else [other, pure]
                    weights += mix * realization_weights(self.plan, pair)[p]
            mixed.append(normalise_per_node(self.plan, p, weights))
        return mixed

    def _solve_restricted(self) -> None:
        self.restricted_value, row = maximin(self.payoff)
        _, column = maximin(-self.payoff.T)
        self.mixes = [row, column]

    def _step(self) -> None:
        mixture = self._mixture()
        responses = [respond_per_edge(self.game, mixture[1 - p], p) for p in (0, 1)]
        gains = (
            responses[0][0] - self.restricted_value,
            responses[1][0] + self.restricted_value,
        )
        added = 0
        for p in (0, 1):
            if gains[p] > self.tolerance:
                self.populations[p].append(responses[p][2])
                added += 1
        if added:
            rows, columns = self.populations
            payoff = np.zeros((len(rows), len(columns)))
            old_rows, old_columns = self.payoff.shape
            payoff[:old_rows, :old_columns] = self.payoff
            for i, row in enumerate(rows):
                for j, column in enumerate(columns):
                    if i >= old_rows or j >= old_columns:
                        payoff[i, j] = self._value(row, column)
            self.payoff = payoff
            self._solve_restricted()
        self.converged = not added
        self.iterations += 1
        self.history.append(
            {
                "iteration": self.iterations,
                "nash_conv": responses[0][0] + responses[1][0],
                "population": [len(self.populations[0]), len(self.populations[1])],
                "support": self.support_sizes(),
            }
        )

    def progress_info(self) -> dict[str, Any]:
        """Population and support sizes, merged into ``pokertui solve`` progress events."""
        if not self.history:
            return {}
        last = self.history[-1]
        return {"population": last["population"], "support": last["support"]}

    def support_sizes(self) -> list[int]:
        return [int((mix > SUPPORT_THRESHOLD).sum()) for mix in self.mixes]

    def average_strategy(self) -> Strategy:
        mixed = self._mixture()
        return {**self.plan.strategy_dict(0, mixed[0]), **self.plan.strategy_dict(1, mixed[1])}

    def current_strategy(self) -> Strategy:
        return self.average_strategy()

    def _arrays(self) -> dict[str, np.ndarray]:
        return {
            "population_0": np.stack(self.populations[0]),
            "population_1": np.stack(self.populations[1]),
            "payoff": self.payoff,
            "mix_0": self.mixes[0],
            "mix_1": self.mixes[1],
            "restricted_value": np.array(self.restricted_value),
            "converged": np.array(self.converged),
            "history_nash_conv": np.array([h["nash_conv"] for h in self.history]),
            "history_sizes": np.array(
                [h["population"] + h["support"] for h in self.history], dtype=np.int64
            ).reshape(-1, 4),
        }

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.populations = [list(arrays["population_0"]), list(arrays["population_1"])]
        self.payoff = arrays["payoff"].astype(float, copy=True)
        self.mixes = [arrays["mix_0"].copy(), arrays["mix_1"].copy()]
        self.restricted_value = float(arrays["restricted_value"])
        self.converged = bool(arrays["converged"])
        self.history = [
            {
                "iteration": i + 1,
                "nash_conv": float(conv),
                "population": sizes[:2].tolist(),
                "support": sizes[2:].tolist(),
            }
            for i, (conv, sizes) in enumerate(
                zip(arrays["history_nash_conv"], arrays["history_sizes"], strict=True)
            )
        ]
