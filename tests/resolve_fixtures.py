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


class Narrow(Fixed):
    """``Fixed`` after the flop; preflop only every ``every``-th combo plays (as ``Fixed``), the
    rest fold (or check when they cannot): small ranges, so that flop and turn subgames are
    small enough for the node-by-node reference walk and the numpy gadget."""

    name = "narrow"

    def __init__(self, salt: int, every: int = 22) -> None:
        super().__init__(salt)
        self.plays = np.arange(N_COMBOS) % every == salt % every

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        policy = super().policy(state, board)
        if state.street > 0:
            return policy
        out = Action("f") if state.legal().can_fold else Action(CALL)
        rows = np.zeros((N_COMBOS, len(policy.actions) + 1))
        rows[self.plays, :-1] = policy.probabilities[self.plays]
        rows[~self.plays, -1] = 1.0
        if out in policy.actions:  # a check: the folding column joins it
            index = policy.actions.index(out)
            rows[:, index] += rows[:, -1]
            return Policy(policy.actions, rows[:, :-1])
        return Policy((*policy.actions, out), rows)
