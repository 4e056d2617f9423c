"""Regret matching and regret-matching+ for matrix games.

Regret matching (Hart & Mas-Colell, "A Simple Adaptive Procedure Leading to Correlated
Equilibrium", Econometrica 2000) plays each action in proportion to its positive cumulative
regret; in a two-player zero-sum game the average strategies of two regret matchers converge to a
Nash equilibrium. Regret-matching+ (Tammelin 2014) floors the cumulative regrets at zero after
every update and averages linearly; it is the matrix-game core of CFR+.

Two modes:

- self-play: both players learn (simultaneously, or alternating with ``alternating=True``);
- fixed opponent: ``opponent=[...]`` fixes the column player's mix, and the row player's current
  and average strategies converge to a best response (RPS against 40/30/30: always Paper).

From zero regrets a symmetric game such as RPS starts at its equilibrium and never moves, so
``seed`` draws random initial regrets in [0, 1) to start elsewhere (as OpenSpiel's
``random_initial_regrets``).

Strategies use the matrix-game format ``{0: [1, n_rows], 1: [1, n_columns]}``.
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
from solvers.algorithms.matching import regret_matching
from solvers.games.base import Strategy, TreeGame
from solvers.games.matrix import MatrixGame


class RegretMatching(Solver):
    """Regret matching (``plus=False``) or RM+ (``plus=True``) on a ``MatrixGame``."""

    chunk = 1000

    def __init__(
        self,
        game: TreeGame,
        plus: bool = False,
        opponent: list[float] | np.ndarray | None = None,
        alternating: bool = False,
        gamma: float | None = None,
        seed: int | None = None,
        output: str = "average",
    ) -> None:
        if not game.simultaneous or not isinstance(game, MatrixGame):
            raise SolverError(f"regret matching needs a matrix game, not {game.name}")
        super().__init__(game, output)
        self.algorithm = "rm+" if plus else "rm"
        self.payoff = np.asarray(game.payoff, dtype=np.float64)
        self.plus = plus
        self.alternating = alternating
        self.gamma = (1.0 if plus else 0.0) if gamma is None else float(gamma)
        self.seed = seed
        n_rows, n_cols = map(int, self.payoff.shape)
        self.fixed_opponent: np.ndarray | None = None
        if opponent is not None:
            mix = np.asarray(opponent, dtype=float)
            if mix.shape != (n_cols,) or (mix < 0).any() or abs(mix.sum() - 1) > 1e-9:
                raise SolverError(f"opponent must be {n_cols} probabilities summing to 1")
            self.fixed_opponent = mix
        rng = np.random.default_rng(seed)
        self.regrets = [np.zeros(n_rows), np.zeros(n_cols)]
        if seed is not None:
            self.regrets = [rng.random(n_rows), rng.random(n_cols)]
        self.strategy_sums = [np.zeros(n_rows), np.zeros(n_cols)]

    def settings(self) -> dict[str, Any]:
        opponent = None if self.fixed_opponent is None else self.fixed_opponent.tolist()
        return {
            **super().settings(),
            "plus": self.plus,
            "alternating": self.alternating,
            "gamma": self.gamma,
            "seed": self.seed,
            "opponent": opponent,
        }

    def _mix(self, player: int) -> np.ndarray:
        if player == 1 and self.fixed_opponent is not None:
            return self.fixed_opponent
        return regret_matching(self.regrets[player])

    def _learn(self, player: int, row_mix: np.ndarray, column_mix: np.ndarray, weight: float):
        if player == 1 and self.fixed_opponent is not None:
            return
        mix = row_mix if player == 0 else column_mix
        utilities = self.payoff @ column_mix if player == 0 else -(row_mix @ self.payoff)
        self.regrets[player] += utilities - mix @ utilities
        if self.plus:
            np.maximum(self.regrets[player], 0.0, out=self.regrets[player])
        self.strategy_sums[player] += weight * mix

    def _step(self) -> None:
        iteration = self.iterations + 1
        weight = float(iteration) ** self.gamma
        row_mix, column_mix = self._mix(0), self._mix(1)
        self._learn(0, row_mix, column_mix, weight)
        if self.alternating:  # the column player answers the row player's new mix
            row_mix = self._mix(0)
        self._learn(1, row_mix, column_mix, weight)
        self.iterations = iteration

    def current_strategy(self) -> Strategy:
        return {0: self._mix(0)[None, :], 1: self._mix(1)[None, :]}

    def average_strategy(self) -> Strategy:
        out: Strategy = {}
        for player in (0, 1):
            sums = self.strategy_sums[player]
            if player == 1 and self.fixed_opponent is not None:
                out[1] = self.fixed_opponent[None, :].copy()
            elif sums.sum() > 0:
                out[player] = (sums / sums.sum())[None, :]
            else:
                out[player] = self._mix(player)[None, :]
        return out

    def _arrays(self) -> dict[str, np.ndarray]:
        return {
            **per_player("regrets", self.regrets),
            **per_player("strategy_sums", self.strategy_sums),
        }

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.regrets = restore_per_player(arrays, "regrets")
        self.strategy_sums = restore_per_player(arrays, "strategy_sums")
