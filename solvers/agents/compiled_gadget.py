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

The maxmargin gadget (``CompiledMaxmarginCFR``) is the same walk with a different root: the
opponent chooses which hand plays instead of whether each hand plays.
"""

from __future__ import annotations

import time

import numpy as np

from solvers.algorithms.full_width import FullWidthCFR
from solvers.exact.compiled_walk import MODE_CFR, MODE_RESPOND, Source
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


class CompiledRootCFR(FullWidthCFR):
    """DCFR on ``game`` (a hold'em spot) behind a choice of the opponent's at the root: every
    reach pass scales the opponent's reach by ``_reach_scale()``, and every pass of the
    opponent's values up feeds its root values to ``_update_root``."""

    def __init__(self, game: HoldemGame, opponent: int) -> None:
        # restart=0: the compiled loop's chunks do not drop the sums on the way
        super().__init__(game, "dcfr", walk="compiled", isomorphism=False, restart=0)
        self.opponent = opponent

    def _compiled_update(self, player: int, iteration: int) -> None:
        walk = self._compiled
        assert walk is not None
        sources = [self._source(0), self._source(1)]
        self._reach_down(sources, self._reach_scale())
        update = self._fused(player, iteration)
        root = walk.values_up(player, sources, MODE_CFR, update=update)
        if player == self.opponent:
            self._update_root(np.asarray(root, dtype=np.float64), iteration)

    def _reach_down(self, sources: list[Source], scale: np.ndarray) -> None:
        """The reach pass of ``sources``, the opponent's reach scaled by ``scale`` per hand."""
        walk = self._compiled
        assert walk is not None
        walk.reach_down(sources)
        walk.reach[self.opponent] *= scale.astype(walk.dtype)[None, :]

    def _reach_scale(self) -> np.ndarray:
        """Per opponent hand, what the root's choice does to its reach of the subgame."""
        raise NotImplementedError

    def _update_root(self, follow_values: np.ndarray, iteration: int) -> None:
        """The root choice's update from the opponent's root values of one pass."""
        raise NotImplementedError

    def margin_bound(self) -> float | None:
        """An upper bound, in chips, on the smallest margin any re-solver strategy can hold
        the opponent's hands to, when the gadget's objective has one worth solving on for
        (None: the solve has nothing left to gain once every hand is within its alternative)."""
        return None


class CompiledGadgetCFR(CompiledRootCFR):
    """The resolve gadget: each opponent hand terminates (its alternative) or follows."""

    def __init__(self, game: HoldemGame, opponent: int, values: np.ndarray) -> None:
        super().__init__(game, opponent)
        self.alternative = terminate_values(game, opponent, values)
        self.gadget_regrets = np.zeros((2, game.n_hands[opponent]))  # terminate, follow
        self.follow = np.full(game.n_hands[opponent], 0.5)

    def _reach_scale(self) -> np.ndarray:
        return np.maximum(self.follow, FOLLOW_FLOOR)

    def _steps(self, count: int) -> None:
        """``count`` iterations in one compiled call (``compiled_kernels.gadget_iterations``):
        the same iterates as ``_step``, to the bit."""
        walk = self._compiled
        assert walk is not None
        first = self.iterations + 1
        sources = [self._source(p).kernel_input(walk.dtype) for p in (0, 1)]
        kind = ("gadget", self.opponent)
        with walk.lock:
            threads = walk.ready_two_passes(kind)
            started = time.perf_counter()
            walk.kernels.gadget_iterations(
                first,
                self.rule.numbers(first, count),
                self.opponent,
                FOLLOW_FLOOR,
                walk.arrays,
                sources[0],
                sources[1],
                self._fused(0, first),
                self._fused(1, first),
                walk.reach[0],
                walk.reach[1],
                walk.player_values(0),
                walk.player_values(1),
                walk.tables[0],
                walk.tables[1],
                walk.hands[0],
                walk.hands[1],
                walk.plan.hand_swap[0],
                walk.plan.hand_swap[1],
                self.alternative,
                self.gadget_regrets,
                self.follow,
            )
            walk.record_passes(kind, threads, time.perf_counter() - started, count)
        self.iterations += count

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


class CompiledMaxmarginCFR(CompiledRootCFR):
    """DCFR on ``game`` behind the maxmargin gadget (Moravcik et al. 2016; Brown and Sandholm
    2017 without the reach term): the opponent picks which of its hands plays, and a hand pays
    it what the hand wins over its alternative. An equilibrium maximises the smallest margin
    ``alternative(h) - best response(h)`` over the opponent's hands: it keeps every hand at or
    under its alternative when that is attainable, as the resolve gadget does, and then goes on
    to widen the margin of the hand that is closest, where the resolve gadget stops caring.

    The opponent's choice ``choice(h)`` (summing to 1) replaces the chance that deals its hand;
    the re-solver's hand is then dealt given it, so the opponent's weight in the walk is
    ``choice(h) / compatible(h)``: its reach is scaled by ``choice / prior``, with ``prior``
    proportional to ``weight(h) * compatible(h)`` (the plain subgame when the choice is the
    prior). The choice is regret matching over the live hands with DCFR's discounts, on the
    margins in chips; with no positive regret it is the prior."""

    def __init__(self, game: HoldemGame, opponent: int, values: np.ndarray) -> None:
        super().__init__(game, opponent)
        self.values = np.asarray(values, dtype=np.float64)
        self.scale = terminate_values(game, opponent, np.ones(game.n_hands[opponent]))
        """Counterfactual value of one chip per hand: a root value over it is the hand's chips."""
        self.live = self.scale > 0
        if not self.live.any():
            raise ValueError("the maxmargin gadget needs an opponent hand that can be held")
        self.prior = np.where(self.live, self.scale, 0.0) / self.scale[self.live].sum()
        self.choice = self.prior.copy()
        self.choice_regrets = np.zeros(game.n_hands[opponent])
        self.choice_sums = np.zeros(game.n_hands[opponent])
        """The choices played, weighted as the strategy sums are: the average choice."""

    def _over_prior(self, choice: np.ndarray) -> np.ndarray:
        """``choice / prior`` on the live hands, 0 elsewhere: the opponent's reach scale."""
        return np.divide(choice, self.prior, out=np.zeros_like(choice), where=self.live)

    def _reach_scale(self) -> np.ndarray:
        return np.maximum(self._over_prior(self.choice), FOLLOW_FLOOR)

    def gains(self, follow_values: np.ndarray) -> np.ndarray:
        """Chips each live opponent hand wins over its alternative (root values of a pass)."""
        chips = np.divide(follow_values, self.scale, out=np.zeros_like(self.scale),
                          where=self.live)  # fmt: skip
        return np.where(self.live, chips - self.values, 0.0)

    def _update_root(self, follow_values: np.ndarray, iteration: int) -> None:
        self.choice_sums += self.rule.sum_weight(iteration) * self.choice  # the pass's choice
        gains = self.gains(follow_values)
        regrets = self.choice_regrets
        regrets += np.where(self.live, gains - float(self.choice @ gains), 0.0)
        discounts = self.rule.discounts(iteration)
        if discounts is not None:
            regrets *= np.where(regrets >= 0, discounts[0], discounts[1])
        positive = np.maximum(regrets, 0.0)
        total = positive.sum()
        self.choice = positive / total if total > 0 else self.prior.copy()

    def margin_bound(self) -> float | None:
        """``max over x of sum_h q(h) margin(h, x)`` for the opponent's average choice ``q``
        and average play in the subgame: no re-solver strategy ``x`` holds every hand to a
        larger margin than this mix of them, so it bounds the smallest margin from above (a
        best response's smallest margin bounds it from below; the two meet at the optimum).
        The re-solver's best response against that mix is one pass of the walk with the
        opponent's reach scaled by ``q / prior``; its root values sum to ``S`` times the
        re-solver's chips averaged over ``q`` (``S``: the sum of ``scale`` over live hands)."""
        total = self.choice_sums.sum()
        walk = self._compiled
        if not total > 0 or walk is None:
            return None
        average = self.choice_sums / total
        sources = [self._sums_source(0), self._sums_source(1)]
        self._reach_down(sources, self._over_prior(average))
        root = walk.values_up(1 - self.opponent, sources, MODE_RESPOND)
        chips = float(np.asarray(root, dtype=np.float64).sum()) / float(self.scale[self.live].sum())
        return float(average @ self.values) + chips
