"""An independent Kuhn poker oracle: the rules written out and every deal and action enumerated.

Nothing here uses ``solvers``: tests compare the code under test against these figures. Rules
(Kuhn 1950, generalised to ``cards`` ranks): each seat antes ``ante`` and gets one card; seat 1
checks or bets ``bet``; after a check seat 2 checks (showdown) or bets, and seat 1 folds or calls;
after a bet seat 2 folds or calls. The higher card wins the pot. Strategies are
``{history: [cards, 2] probabilities}`` with histories ``""``, ``"c"``, ``"b"``, ``"c/b"`` and
actions in the order (check, bet) or (fold, call), as in the game's node keys.
"""

from __future__ import annotations

import itertools

import numpy as np

ACTOR = {"": 0, "c": 1, "b": 1, "c/b": 0}
"""Who acts at each decision history (seat 0 is seat 1 in the UI)."""
LETTERS = {"": "cb", "c": "cb", "b": "fc", "c/b": "fc"}
"""Child history letters of each action, in action order."""


def payoff(history: str, card0: int, card1: int, ante: float = 1.0, bet: float = 1.0) -> float:
    """Seat 0's payoff at a terminal history."""
    sign = 1.0 if card0 > card1 else -1.0
    return {
        "c/c": sign * ante,
        "c/b/f": -ante,
        "c/b/c": sign * (ante + bet),
        "b/f": ante,
        "b/c": sign * (ante + bet),
    }[history]


def deals(cards: int = 3):
    """``(card0, card1, probability)`` for every deal of two different cards."""
    pairs = list(itertools.permutations(range(cards), 2))
    return [(a, b, 1.0 / len(pairs)) for a, b in pairs]


def child(history: str, action: int) -> str:
    letter = LETTERS[history][action]
    return letter if not history else f"{history}/{letter}"


def seat0_value(strategy, cards: int = 3, ante: float = 1.0, bet: float = 1.0) -> float:
    """Seat 0's expected payoff when both seats play ``strategy``."""

    def walk(history: str, card0: int, card1: int) -> float:
        if history not in ACTOR:
            return payoff(history, card0, card1, ante, bet)
        card = (card0, card1)[ACTOR[history]]
        probs = np.asarray(strategy[history])[card]
        return sum(p * walk(child(history, a), card0, card1) for a, p in enumerate(probs) if p)

    return sum(prob * walk("", a, b) for a, b, prob in deals(cards))


def pure_strategies(seat: int, cards: int = 3):
    """Every pure strategy of ``seat``: one action per (history, card)."""
    histories = [h for h, actor in ACTOR.items() if actor == seat]
    for choice in itertools.product((0, 1), repeat=len(histories) * cards):
        picks = np.array(choice).reshape(len(histories), cards)
        yield {h: np.eye(2)[picks[i]] for i, h in enumerate(histories)}


def best_response_value(strategy, seat: int, cards: int = 3, ante=1.0, bet=1.0) -> float:
    """``seat``'s best payoff against the other seat's part of ``strategy``, by trying every pure
    strategy (64 for 3 cards, 256 for 4)."""
    sign = 1.0 if seat == 0 else -1.0
    return max(
        sign * seat0_value({**strategy, **pure}, cards, ante, bet)
        for pure in pure_strategies(seat, cards)
    )


def info_set_action_values(
    strategy, history: str, card: int, cards: int = 3, ante=1.0, bet=1.0, respond: bool = True
):
    """EV of each action at ``(history, card)`` for the actor, given the node is reached with
    ``card``: the opponent plays ``strategy``; afterwards the actor best-responds (``respond``)
    or plays ``strategy`` too.

    The opponent's cards are weighted by the deal and by the opponent's own actions on the way;
    a later decision of the actor maximises the value summed over the opponent's cards, since the
    actor sees only their own card.
    """
    seat = ACTOR[history]
    sign = 1.0 if seat == 0 else -1.0
    others = [c for c in range(cards) if c != card]
    weights = np.array([_opponent_reach(strategy, history, seat, c) for c in others])

    def total(node: str, w: np.ndarray) -> float:
        if node not in ACTOR:
            return sum(
                wi * sign * payoff(node, *((card, o) if seat == 0 else (o, card)), ante, bet)
                for wi, o in zip(w, others, strict=True)
            )
        if ACTOR[node] == seat:
            values = [total(child(node, a), w) for a in (0, 1)]
            return max(values) if respond else float(np.dot(strategy[node][card], values))
        probs = np.array([np.asarray(strategy[node])[o] for o in others])
        return sum(total(child(node, a), w * probs[:, a]) for a in (0, 1))

    return [total(child(history, a), weights) / weights.sum() for a in (0, 1)]


def opponent_weights(strategy, history: str, card: int, cards: int = 3) -> np.ndarray:
    """The opponent's card distribution at ``history`` given the actor holds ``card``: the deal
    (card removal) times the opponent's own actions on the way, normalised."""
    seat = ACTOR[history]
    weights = np.array(
        [_opponent_reach(strategy, history, seat, c) if c != card else 0.0 for c in range(cards)]
    )
    return weights / weights.sum()


def local_gain(strategy, history: str, cards: int = 3) -> float:
    """What the actor of ``history`` gains, in chips of the whole game, by best-responding at this
    node alone (the strategy before it, a best response after it): summed over the actor's cards,
    probability of reaching the node with the card times the gain of the best action there."""
    seat = ACTOR[history]
    deal = 1.0 / (cards * (cards - 1))
    gain = 0.0
    for card in range(cards):
        own = _opponent_reach(strategy, history, 1 - seat, card)
        others = [c for c in range(cards) if c != card]
        opp = sum(_opponent_reach(strategy, history, seat, c) for c in others)
        if own * opp == 0:
            continue
        values = info_set_action_values(strategy, history, card, cards)
        played = float(np.dot(strategy[history][card], values))
        gain += own * opp * deal * (max(values) - played)
    return gain


def _opponent_reach(strategy, history: str, seat: int, opp_card: int) -> float:
    """Product of the opponent's action probabilities along ``history`` holding ``opp_card``."""
    reach, node = 1.0, ""
    for letter in history.split("/") if history else []:
        if ACTOR[node] != seat:
            reach *= np.asarray(strategy[node])[opp_card][LETTERS[node].index(letter)]
        node = child(node, LETTERS[node].index(letter))
    return reach


def bayes_range(strategy, history: str, seat: int, cards: int = 3) -> np.ndarray:
    """``seat``'s normalised card distribution at ``history``: deal times both seats' actions."""
    weight = np.zeros(cards)
    for a, b, prob in deals(cards):
        own, other = (a, b) if seat == 0 else (b, a)
        reach_own = _opponent_reach(strategy, history, 1 - seat, own)  # seat's own actions
        weight[own] += prob * reach_own * _opponent_reach(strategy, history, seat, other)
    return weight / weight.sum()
