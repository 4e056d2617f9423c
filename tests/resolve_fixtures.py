"""Shared pieces of the re-solving tests: a card-dependent stand-in blueprint and size lists."""

import numpy as np

from solvers.cards.deck import N_COMBOS
from solvers.games.holdem.bet_sizes import StreetSizes
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlState


class Fixed:
    """A stand-in blueprint: checks or calls with chance ``p(combo)``, else a pot-sized raise."""

    name = "fixed"

    def __init__(self, salt: int) -> None:
        self.p = ((np.arange(N_COMBOS) * 37 + salt) % 11 + 1) / 12.0

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        legal = state.legal()
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return Policy((Action(CALL),), np.ones((N_COMBOS, 1)))
        to = min(max(state.committed[1 - state.to_act] + state.pot, legal.min_raise_to),
                 legal.max_raise_to)  # fmt: skip
        return Policy((Action(CALL), Action(RAISE, to)), np.stack([self.p, 1 - self.p], axis=1))

    def act(self, state, board, combo, rng):
        return self.policy(state, board).sample(combo, rng)


def street(bet: str, raise_: str = "", cap: int | None = None) -> StreetSizes:
    """Both players' sizes on a street."""
    texts = {"oop_bet": bet, "ip_bet": bet, "oop_raise": raise_, "ip_raise": raise_}
    if cap is not None:
        texts["raise_cap"] = cap
    return StreetSizes.parse(texts, "test")
