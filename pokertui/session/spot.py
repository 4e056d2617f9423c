"""The live numbers of the human's current decision, all computed by ``solvers``.

A ``Spot`` is what the live panel shows: pot odds, the minimum defence frequency and the bluff
share when facing a bet; for each size the human may bet, alpha, the bot's real fold frequency
and the equilibrium bluff:value ratio; both players' Bayesian ranges; the human's equity against
the bot's range; and the EV of every legal action against the bot's actual strategy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pokertui.session.deal import is_spot_game
from solvers.cards.deck import N_COMBOS, combos_to_classes
from solvers.exact.hand_values import checkdown_odds
from solvers.games.base import TreeError
from solvers.theory import poker_math


@dataclass(frozen=True)
class SizeInfo:
    """One bet or raise the human can make."""

    label: str
    amount: float
    """Chips the human puts in with it (a raise includes the call)."""
    bet: float
    """The part the bot must call: the bet or raise size."""
    alpha: float
    bot_fold_frequency: float | None
    """How often the bot's strategy folds to it, over the bot's current range (None if the bot
    cannot fold there)."""
    bluff_to_value: float


@dataclass(frozen=True)
class Spot:
    node_key: str
    pot: float
    to_call: float
    required_equity: float | None
    """Pot odds: ``call / (pot + call)``; None when there is nothing to call."""
    mdf: float | None
    bluff_share: float | None
    beats_share: float
    """Probability the human's hand wins a checkdown against the bot's range here, with the
    cards still to come dealt at random (so it is not "the share of hands beaten now")."""
    tie_share: float
    """Probability the checkdown ties (same dealing)."""
    equity: float
    """The human's share of the pot against the bot's range if the hand were checked down:
    ``beats_share + tie_share / 2``."""
    sizes: list[SizeInfo]
    bot_range: np.ndarray
    human_range: np.ndarray | None
    """None when the human's line is one the strategy file never takes (no posterior)."""
    action_labels: list[str]
    action_evs: list[float]
    equilibrium: list[float] = field(default_factory=list)
    off_path: bool = False
    """The strategy file never reaches this node with the human's hand: ``equilibrium`` is
    filler and the UI says "off the equilibrium path" instead."""
    by_class: bool = False
    """The ranges are over the 169 hold'em classes (a postflop spot's combos, summed per class
    for the 13x13 heat grid) rather than over the game's own hands."""

    @property
    def best_action(self) -> str:
        return self.action_labels[int(np.nanargmax(self.action_evs))]


def current_spot(session) -> Spot:
    """The numbers for the human's decision now (the session must be waiting for the human)."""
    session.prepare()
    game, node = session.game, session.node
    human = session.human_seat
    own = session.hand.deal.hands[human]
    pot, to_call = session.pot(), session.to_call()
    bot_range = session.bot_range()
    try:
        human_range = session.human_range()
    except TreeError:  # the human left the equilibrium's lines: Bayes has nothing to update
        human_range = None
    win, tie = checkdown_odds(game, node, human, own, bot_range)
    # pot odds and MDF need a call to make: a small blind that may only fold or shove has none
    facing = to_call > 0 and "call" in node.actions
    pot_before = pot - to_call
    sizes = []
    for index, option in enumerate(session.legal_options()):  # real chips, off the tree too
        label, amount = option.text or option.label, option.amount
        raise_part = float(amount) - to_call
        if option.kind != "aggressive" or raise_part <= 0:
            continue
        child = game.nodes[node.children[index]]
        fold = None
        if child.is_decision and "fold" in child.actions:
            fold_column = session.bot_strategy[child.id][:, child.actions.index("fold")]
            fold = float(bot_range @ fold_column)
        pot_then = pot + to_call
        sizes.append(
            SizeInfo(
                label=label,
                amount=float(amount),
                bet=raise_part,
                alpha=poker_math.alpha(pot_then, raise_part),
                bot_fold_frequency=fold,
                bluff_to_value=poker_math.bluff_to_value_ratio(pot_then, raise_part),
            )
        )
    evs = session.action_evs()
    by_class = is_spot_game(game)
    if by_class:
        bot_range = _class_mass(game, session.bot_seat, bot_range)
        if human_range is not None:
            human_range = _class_mass(game, human, human_range)
    return Spot(
        node_key=node.key,
        pot=pot,
        to_call=to_call,
        required_equity=poker_math.required_equity(pot_before, to_call) if facing else None,
        mdf=poker_math.minimum_defence_frequency(pot_before, to_call) if facing else None,
        bluff_share=poker_math.bluff_share(pot_before, to_call) if facing else None,
        beats_share=win,
        tie_share=tie,
        equity=win + tie / 2,
        sizes=sizes,
        bot_range=bot_range,
        human_range=human_range,
        action_labels=list(node.actions),
        action_evs=[float(v) for v in evs],
        equilibrium=[float(p) for p in session.equilibrium[node.id][own]],
        off_path=not session.on_equilibrium_path(),
        by_class=by_class,
    )


def _class_mass(game, seat: int, weights: np.ndarray) -> np.ndarray:
    """A spot's per-combo range summed onto the 169 classes."""
    full = np.zeros(N_COMBOS)
    full[game.hand_combos[seat]] = weights
    return combos_to_classes(full, reduce="sum")


def decision_review(session, action: str) -> tuple[list[float], float, list[float]]:
    """EVs of the actions, the EV lost by ``action`` against the best one, and the file's
    frequencies for the human's hand, recorded when the human acts."""
    node = session.node
    evs = [float(v) for v in session.action_evs()]
    chosen = evs[list(node.actions).index(action)]
    own = session.hand.deal.hands[session.human_seat]
    return evs, max(evs) - chosen, [float(p) for p in session.equilibrium[node.id][own]]
