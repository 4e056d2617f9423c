"""Control variates for full-game LBR: the luck of the bot's actions and of the turn and river
cards taken out of each hand's score, its expectation unchanged (AIVAT, Burch et al. 2018, with
simple value estimates).

LBR knows the bot's range ``w`` and its policy, so at every bot decision it knows the chance of
each action given the public line, ``P(a) = sum(w * pi[:, a]) / sum(w)``, and at a turn or river
card the chance of each card, ``P(c)`` proportional to the range weight of the combos that do
not hold ``c``. For any value estimate ``V`` of the states that follow,

    correction = V(what happened) - sum over the alternatives x of P(x) * V(x)

has expectation zero given everything before it, whatever ``V`` is, so the hand's score minus
its corrections estimates the same thing with less variance the better ``V`` is. Here ``V`` is
the imaginary observation itself where an action ends the hand, and elsewhere LBR's chips if the
hand were checked down from there against the range (the pot LBR would have in it times twice
its equity less one; at least minus its chips in when it faces a bet, since it may fold).

That check-down value misses what LBR earns by betting: a turn overbet the bot folds to, then a
river shove it calls badly, is luck to it. The ``bets`` estimate (``ESTIMATES``) also values LBR
betting the pot and all-in wherever it could bet, against a caller that defends exactly the
minimum share ``pot / (pot + bet)`` of its range with its best hands, and keeps the best of
these and the check-down. Both are value estimates only: either keeps the expectation.
"""

from __future__ import annotations

import numpy as np

from solvers.cards.deck import COMBO_CARDS, N_COMBOS
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import RAISE, HunlState
from solvers.reports.lbr.hunl_cards import HunlEquity
from solvers.reports.lbr.names import ESTIMATES

_HOLDS = np.zeros((52, N_COMBOS))
_HOLDS[COMBO_CARDS[:, 0], np.arange(N_COMBOS)] = 1.0
_HOLDS[COMBO_CARDS[:, 1], np.arange(N_COMBOS)] = 1.0


def imaginary_value(
    cards: HunlEquity,
    state: HunlState,
    seat: int,
    combo: int,
    board: np.ndarray,
    weights: np.ndarray,
) -> float:
    """The chips of the player in ``seat`` holding ``combo`` at the end of a hand against the
    range ``weights`` (one combo for a known hand): a fold pays its chips, a showdown the
    expectation over the range with the rest of ``board`` dealt exhaustively."""
    own, opp = state.committed[seat], state.committed[1 - seat]
    if state.folded >= 0:
        return float(-own if state.folded == seat else opp)
    eq = cards.equity(combo, tuple(int(c) for c in board))
    wp = float(weights @ eq) / weights.sum()
    return min(own, opp) * (2.0 * wp - 1.0)


def checkdown_value(state: HunlState, seat: int, wp: np.ndarray) -> np.ndarray:
    """LBR's chips if nobody bets again and LBR calls what it faces, with showdown share ``wp``
    (one or many); facing a bet it may fold instead, so never below minus its chips in."""
    own, opp = state.committed[seat], state.committed[1 - seat]
    value = max(own, opp) * (2.0 * np.asarray(wp, dtype=np.float64) - 1.0)
    if state.to_act == seat and opp > own:
        value = np.maximum(value, -float(own))
    return value


def bet_value(state: HunlState, seat: int, equity: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``[k]``: the ``bets`` estimate of LBR's chips in ``state`` for ``k`` rows of its equity
    against each bot combo and the bot's range weights (``[1326]`` or ``[k, 1326]``): the best of
    the check-down and a pot-sized or all-in bet that the bot folds ``1 - m`` of the time and
    calls with its best hands, ``m = pot / (pot + bet)`` of the range. A call of a bet to ``T``
    pays ``T`` times twice the callers' share less one, a fold the bot's chips in."""
    equity, weights = np.atleast_2d(equity), np.atleast_2d(weights)
    total = weights.sum(axis=1)
    share = (weights * equity).sum(axis=1) / np.maximum(total, 1e-300)
    best = checkdown_value(state, seat, share)
    own, opp = state.committed[seat], state.committed[1 - seat]
    if opp > own or state.is_over:  # LBR faces a bet (or nothing is left): no bet of its own
        return best
    order = np.argsort(equity, axis=1, kind="stable")  # the bot's best hands (LBR's worst) first
    ranked = np.take_along_axis(weights, order, axis=1)
    ranked_equity = np.take_along_axis(equity, order, axis=1)
    before = np.cumsum(ranked, axis=1) - ranked  # the weight of the better hands
    pot = own + opp
    for to in sorted({min(opp + pot, state.config.stack), state.config.stack}):
        if to <= own:
            continue
        defend = pot / (pot + to - own)
        calls = np.clip(defend * total[:, None] - before, 0.0, ranked)
        called = (calls * ranked_equity).sum(axis=1) / np.maximum(calls.sum(axis=1), 1e-300)
        best = np.maximum(best, (1.0 - defend) * opp + defend * to * (2.0 * called - 1.0))
    return best


def card_chances(weights: np.ndarray, board: tuple[int, ...], combo: int) -> np.ndarray:
    """``[52]``: the chance of each card coming next on ``board`` given LBR's ``combo`` and the
    bot's range ``weights`` (combos on the board at weight 0): the bot's hand is drawn from the
    range, then the card uniformly from the rest, so a card is as likely as the range weight
    that does not hold it."""
    chance = weights.sum() - _HOLDS @ weights
    chance[list(board)] = 0.0
    chance[list(COMBO_CARDS[combo])] = 0.0
    return chance / chance.sum()


class ControlVariates:
    """The corrections of the hands of one LBR engine (``HunlLocalBestResponse.play_out``) or
    match (``hunl_match``, where each range is the one combo actually held). ``seat`` and
    ``combo`` are the scored player's; ``weights`` the range of the other, who acts or is
    dealt against."""

    def __init__(self, cards: HunlEquity, estimate: str = "checkdown") -> None:
        if estimate not in ESTIMATES:
            raise ValueError(f"value estimate {estimate!r}: use one of {', '.join(ESTIMATES)}")
        self.cards = cards
        self.estimate = estimate

    def action(
        self,
        state: HunlState,
        seat: int,
        combo: int,
        board: np.ndarray,
        weights: np.ndarray,
        policy: Policy,
        column: int,
    ) -> float:
        """The correction for the bot's action ``policy.actions[column]`` in ``state``, where
        its range was ``weights`` (LBR in ``seat`` holding ``combo``). A raise never ends the
        hand, so all of a policy's raises are valued at once.
        Zero for a ``representative`` policy, whose listed chances are not those of the actions
        played: weighing by them would bias the score."""
        if policy.representative:
            return 0.0
        eq = self.cards.equity(combo, tuple(int(c) for c in board))
        mass = weights @ policy.probabilities
        share = ((weights * eq) @ policy.probabilities) / np.maximum(mass, 1e-300)
        values = np.zeros(len(policy.actions))
        raises = np.array([a.kind == RAISE for a in policy.actions])
        if raises.any():
            to = np.array([a.to for a in policy.actions], dtype=np.float64)[raises]
            values[raises] = np.maximum(to * (2.0 * share[raises] - 1.0),
                                        -float(state.committed[seat]))  # fmt: skip
        for i in np.flatnonzero(~raises & (mass > 0)):  # fold and check/call
            child = state.apply(policy.actions[i])
            reach = weights * policy.probabilities[:, i]
            if child.is_over:
                values[i] = imaginary_value(self.cards, child, seat, combo, board, reach)
            elif self.estimate == "bets":
                values[i] = bet_value(child, seat, eq, reach)[0]
            else:
                values[i] = checkdown_value(child, seat, share[i])
        return float(values[column] - (mass / weights.sum()) @ values)

    def card(
        self, state: HunlState, seat: int, combo: int, board: np.ndarray, weights: np.ndarray
    ) -> float:
        """The correction for the turn or river card ``board[-1]``, dealt before ``state`` (the
        street's first decision), where the bot's range was ``weights`` on ``board[:-1]``."""
        before = tuple(int(c) for c in board[:-1])
        eq = self.cards.next_card_equity(combo, before)  # [52, 1326]
        live = weights[None, :] * (1.0 - _HOLDS)  # the range with each card dealt
        chance = card_chances(weights, before, combo)
        if self.estimate == "bets":
            values = bet_value(state, seat, eq, live)
        else:
            wp = np.einsum("ch,ch->c", live, eq) / np.maximum(live.sum(axis=1), 1e-300)
            values = checkdown_value(state, seat, wp)
        return float(values[int(board[-1])] - chance @ values)
