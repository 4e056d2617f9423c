"""Chump bots that ignore their cards: the baselines of Lisý & Bowling's LBR paper (Table 2).

- ``always-call`` checks or calls every time (it never folds and never raises);
- ``random`` plays a random legal action: each legal kind (fold when facing a bet, check or
  call, raise when one is possible) with equal chance, and a raise to a whole-chip total drawn
  uniformly from the legal range (min-raise to all-in), as the ACPC example player does. Facing
  an all-in it folds half of the time, which is why LBR beats it by so much;
- ``call-raise`` calls half of the time and otherwise makes a random raise (the paper's
  "Call 1/2 Raise 1/2"; it calls when no raise is possible);
- ``random-action`` is the paper's "Random" column of Table 2: every legal action equally
  likely, each raise total counting as one action, so it raises almost always (a fold or a call
  is one action among thousands) until someone is all-in, and then folds or calls half and half.
  This reading, not ``random``'s equal kinds, reproduces all four of the paper's figures against
  it (fc 1-4 15.7, fc 3-4 2.2, fcpa 1-4 39.1, fcpa 3-4 80.7 BB/hand; docs/lbr.md).

The policy over all 1,326 combos is the same row for every combo (the cards are ignored). A
random raise has thousands of possible totals; the policy lists the kinds with the raise
represented by the minimum, a pot-sized and the all-in total (the mean of a uniform draw lies
between them), while ``act`` draws the real amount.
"""

from __future__ import annotations

import numpy as np

from solvers.cards.deck import N_COMBOS
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlState


def _rows(weights: list[float]) -> np.ndarray:
    row = np.asarray(weights, dtype=np.float64)
    return np.tile(row / row.sum(), (N_COMBOS, 1))


def raise_totals(state: HunlState) -> tuple[int, ...]:
    """Representative raise-to totals for a policy listing: min, pot-sized and all-in, distinct
    and legal (empty when no raise is possible)."""
    legal = state.legal()
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return ()
    seat = state.to_act
    pot_raise = state.committed[1 - seat] + state.pot + legal.call_amount
    totals = {legal.min_raise_to, legal.max_raise_to}
    if legal.min_raise_to < pot_raise < legal.max_raise_to:
        totals.add(pot_raise)
    return tuple(sorted(totals))


class AlwaysCall:
    """Checks or calls with every hand."""

    name = "always-call"

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        return Policy((Action(CALL),), np.ones((N_COMBOS, 1)))

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action:
        state.legal()  # refuses a finished hand
        return Action(CALL)


class _KindsThenAmount:
    """A chump that picks an action kind with fixed odds and a raise total uniformly."""

    name = "chump"

    def kind_weights(self, can_fold: bool, can_raise: bool) -> dict[str, float]:
        raise NotImplementedError

    def weights_for(self, state: HunlState) -> dict[str, float]:
        """The odds of each legal kind in ``state`` (by default they depend only on which kinds
        are legal)."""
        legal = state.legal()
        return self.kind_weights(legal.can_fold, legal.min_raise_to is not None)

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        totals = raise_totals(state)
        weights = self.weights_for(state)
        actions: list[Action] = []
        row: list[float] = []
        if FOLD in weights:
            actions.append(Action(FOLD))
            row.append(weights[FOLD])
        actions.append(Action(CALL))
        row.append(weights[CALL])
        for total in totals:
            actions.append(Action(RAISE, total))
            row.append(weights[RAISE] / len(totals))
        return Policy(tuple(actions), _rows(row), representative=bool(totals))

    def act(
        self, state: HunlState, board: np.ndarray, combo: int, rng: np.random.Generator
    ) -> Action:
        legal = state.legal()
        weights = self.weights_for(state)
        kinds = list(weights)
        odds = np.array([weights[k] for k in kinds])
        kind = kinds[int(rng.choice(len(kinds), p=odds / odds.sum()))]
        if kind != RAISE:
            return Action(kind)
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        return Action(RAISE, int(rng.integers(legal.min_raise_to, legal.max_raise_to + 1)))


class RandomAgent(_KindsThenAmount):
    """A random legal action: each legal kind equally likely, a raise total uniform."""

    name = "random"

    def kind_weights(self, can_fold: bool, can_raise: bool) -> dict[str, float]:
        weights = {FOLD: 1.0} if can_fold else {}
        weights[CALL] = 1.0
        if can_raise:
            weights[RAISE] = 1.0
        return weights


class CallRaiseHalf(_KindsThenAmount):
    """Calls half of the time and raises a random amount otherwise (never folds)."""

    name = "call-raise"

    def kind_weights(self, can_fold: bool, can_raise: bool) -> dict[str, float]:
        return {CALL: 1.0, RAISE: 1.0} if can_raise else {CALL: 1.0}


class RandomActionAgent(_KindsThenAmount):
    """The paper's random agent: each legal action equally likely, every raise total being one
    action (a fold, a call and ``max - min + 1`` raises), so a raise total is uniform too."""

    name = "random-action"

    def weights_for(self, state: HunlState) -> dict[str, float]:
        legal = state.legal()
        weights = {FOLD: 1.0} if legal.can_fold else {}
        weights[CALL] = 1.0
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            weights[RAISE] = float(legal.max_raise_to - legal.min_raise_to + 1)
        return weights
