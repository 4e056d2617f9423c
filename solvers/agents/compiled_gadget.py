"""The resolve gadget on the compiled walk: the opponent's terminate-or-follow choice as a root
reach, so a safe turn re-solve runs at the compiled DCFR's speed.

In the gadget game (``safe_resolve.GadgetGame``) the opponent first picks, per hand, to take
its alternative value or to follow into the subgame. Following with probability ``f(h)`` only
scales the opponent's reach of every node of the subgame by ``f(h)`` (reach is a product from
the root down), and terminating pays a value that the re-solver's strategy cannot change. So
the gadget's DCFR is the subgame's DCFR with the opponent's reach multiplied by ``f`` after
each reach pass, plus regret matching over {terminate, follow} at the root, updated with the
opponent's root values of that pass: the same iterates as the gadget game on the numpy walk
(tested against it), on loops six times faster. Suit isomorphism is off (``f`` need not be
suit-symmetric).
"""

from __future__ import annotations

import numpy as np

from solvers.algorithms.full_width import FullWidthCFR
from solvers.exact.compiled_walk import MODE_CFR
from solvers.games.holdem.game import HoldemGame

FOLLOW_FLOOR = 1e-12
"""Smallest follow probability walked: a hand that never follows still gets its follow value
(its own reach scales only its strategy sums, never its counterfactual values)."""


def terminate_values(game: HoldemGame, opponent: int, values: np.ndarray) -> np.ndarray:
    """Counterfactual values of the opponent's terminate leaf per hand: ``values`` (per hand,
    given the hand) times the re-solver's compatible weight, as the gadget game's leaf."""
    weights = game.strengths.hand_weights
    resolver = game.strengths.compatible_sums(opponent, weights[1 - opponent])
    return resolver * np.asarray(values, dtype=np.float64) * weights[opponent] / game.normaliser


class CompiledGadgetCFR(FullWidthCFR):
    """DCFR on ``game`` (a hold'em spot) behind the opponent's terminate-or-follow choice."""

    def __init__(self, game: HoldemGame, opponent: int, values: np.ndarray) -> None:
        super().__init__(game, "dcfr", walk="compiled", isomorphism=False)
        self.opponent = opponent
        self.alternative = terminate_values(game, opponent, values)
        self.gadget_regrets = np.zeros((2, game.n_hands[opponent]))  # terminate, follow
        self.follow = np.full(game.n_hands[opponent], 0.5)

    def _compiled_update(self, player: int, iteration: int) -> None:
        walk = self._compiled
        assert walk is not None
        sources = [self._source(0), self._source(1)]
        walk.reach_down(sources)
        follow = np.maximum(self.follow, FOLLOW_FLOOR).astype(walk.dtype)
        walk.reach[self.opponent] *= follow[None, :]
        update = self.rule.fused(iteration, self.strategy_sums[player])
        root = walk.values_up(player, sources, MODE_CFR, update=update)
        if player == self.opponent:
            self._update_root(np.asarray(root, dtype=np.float64), iteration)

    def _update_root(self, follow_values: np.ndarray, iteration: int) -> None:
        """DCFR's update of the root choice (the same discounts as every other node)."""
        played = np.stack([1.0 - self.follow, self.follow])
        actions = np.stack([self.alternative, follow_values])
        here = (played * actions).sum(axis=0)
        regrets = self.gadget_regrets
        regrets += actions - here
        discounts = self.rule.discounts(iteration)
        if discounts is not None:
            regrets *= np.where(regrets >= 0, discounts[0], discounts[1])
        positive = np.maximum(regrets, 0.0)
        total = positive.sum(axis=0)
        self.follow = np.where(total > 0, positive[1] / np.where(total > 0, total, 1.0), 0.5)
