"""Full-width fictitious play with exact best responses (extensive-form FP).

Fictitious play (Brown 1951; Robinson 1951) lets each player best-respond to the opponent's
average strategy so far; in two-player zero-sum games the averages converge to a Nash
equilibrium. In an extensive game the average must be taken over *realization plans*, not
behavioural probabilities: Heinrich, Lanctot & Silver, "Fictitious Self-Play in Extensive-Form
Games" (ICML 2015), mix behavioural strategies at each information set in proportion to the
reach of each policy,

    pi_{t+1}(I) = ((1 - a) x_pi(I) pi_t(I) + a x_b(I) b(I)) / ((1 - a) x_pi(I) + a x_b(I)),

which is the same as summing realization weights ``x(I) * pi(I, a)`` and normalising per
information set. Here the sums are kept per edge (``plan.py`` layout), exactly like CFR's
strategy sums, so mixing is exact. Best responses come from ``solvers.exact`` (public-tree
best response, Johanson et al. 2011). Iteration t adds both players' best responses to the
current averages (simultaneous FP) with weight 1 (``weighting="uniform"``, the classic
``a = 1/(t+1)``) or ``t + 1`` (``"linear"``); the initial uniform profile counts as the first
element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvers.algorithms.base import (
    Solver,
    SolverError,
    per_player,
    restore_per_player,
)
from solvers.exact.evaluation import respond_per_edge
from solvers.exact.walk import (
    build_plan,
    normalise_per_node,
    reach_pass,
    strategy_from_weights,
    uniform_per_edge,
)
from solvers.games.base import Strategy, TreeGame


class FictitiousPlay(Solver):
    """Extensive-form fictitious play; ``current_strategy()`` is the last pair of responses."""

    chunk = 5

    def __init__(self, game: TreeGame, weighting: str = "uniform", output: str = "average") -> None:
        if game.simultaneous:
            raise SolverError(f"{game.name} is a matrix game: use the 'rm' solver")
        if weighting not in ("uniform", "linear"):
            raise SolverError(f"weighting must be 'uniform' or 'linear', not {weighting!r}")
        super().__init__(game, output)
        self.algorithm = "fp"
        self.weighting = weighting
        self.plan = build_plan(game)
        plan = self.plan
        self._factor = plan.fixed_factor.copy()
        self._reach = np.zeros_like(self._factor)
        self._uniform = [uniform_per_edge(plan, p) for p in (0, 1)]
        self.strategy_sums = [np.zeros_like(u) for u in self._uniform]
        self.last_response = [u.copy() for u in self._uniform]
        self._add(self._uniform, 1.0)

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "weighting": self.weighting}

    def _add(self, per_edge: list[np.ndarray], weight: float) -> None:
        """Add ``weight`` times the realization weights of the profile ``per_edge``."""
        plan = self.plan
        for p, edges in enumerate(plan.edges):
            self._factor[edges.rows, p, : plan.n_hands[p]] = per_edge[p]
        reach_pass(plan, self._factor, self._reach)
        for p, edges in enumerate(plan.edges):
            own_reach = self._reach[edges.parent_rows, p, : plan.n_hands[p]]
            self.strategy_sums[p] += weight * own_reach * per_edge[p]

    def _step(self) -> None:
        average = [normalise_per_node(self.plan, p, self.strategy_sums[p]) for p in (0, 1)]
        responses = [respond_per_edge(self.game, average[1 - p], p)[2] for p in (0, 1)]
        self.iterations += 1
        self._add(responses, 1.0 if self.weighting == "uniform" else self.iterations + 1.0)
        self.last_response = responses

    def average_strategy(self) -> Strategy:
        return strategy_from_weights(self.plan, self.strategy_sums)

    def current_strategy(self) -> Strategy:
        return {
            **self.plan.strategy_dict(0, self.last_response[0].copy()),
            **self.plan.strategy_dict(1, self.last_response[1].copy()),
        }

    def _arrays(self) -> dict[str, np.ndarray]:
        return {
            **per_player("strategy_sums", self.strategy_sums),
            **per_player("last_response", self.last_response),
        }

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.strategy_sums = restore_per_player(arrays, "strategy_sums")
        self.last_response = restore_per_player(arrays, "last_response")
