"""Kuhn poker's equilibrium family: player 1's alpha, player 2's unique answer, and every pure
deviation from it.

Kuhn (1950): player 1 bets J with probability alpha in [0, 1/3], K with 3 alpha, checks Q, and
after check-bet calls Q with alpha + 1/3; player 2's strategy is the same in every equilibrium
(facing a bet call K, Q 1/3, fold J; after a check bet K, J 1/3, check Q). The value for player
1 is -1/18 for every alpha. Each deviation row changes one information set (a node and a card)
to a pure action, keeps everything else at equilibrium, and measures the deviator's exact EV:
no deviation gains, and the actions an equilibrium mixes tie.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.exact.evaluation import expected_values
from solvers.games import load_game
from solvers.games.base import Strategy, TreeGame

ALPHA_MAX = 1 / 3
KUHN_VALUE = -1 / 18
"""Player 1's value in every equilibrium."""
CARDS = ("J", "Q", "K")


@dataclass(frozen=True)
class KuhnFamily:
    """Player 1's frequencies for one alpha (player 2's never change)."""

    alpha: float
    bet_jack: float
    bet_king: float
    call_queen_after_check_bet: float


def kuhn_family(alpha: float) -> KuhnFamily:
    if not 0 <= alpha <= ALPHA_MAX + 1e-12:
        raise ValueError(f"alpha must be in [0, 1/3], not {alpha:g}")
    alpha = min(alpha, ALPHA_MAX)
    return KuhnFamily(alpha, alpha, 3 * alpha, alpha + 1 / 3)


@dataclass(frozen=True)
class Deviation:
    player: int
    card: str
    node: str
    actions: tuple[str, str]
    frequency: float
    """Equilibrium probability of the second action (bet or call)."""
    pure_evs: tuple[float, float]
    """The deviator's game EV when this card always takes each action here."""
    equilibrium_ev: float


def kuhn_profile(alpha: float) -> tuple[TreeGame, Strategy]:
    """The game and the alpha-family equilibrium in the engine's strategy format."""
    family = kuhn_family(alpha)
    game = load_game("kuhn")
    second = {
        "": [family.bet_jack, 0.0, family.bet_king],
        "c/b": [0.0, family.call_queen_after_check_bet, 1.0],
        "b": [0.0, 1 / 3, 1.0],
        "c": [1 / 3, 0.0, 1.0],
    }
    strategy = {}
    for key, probabilities in second.items():
        p = np.array(probabilities)
        strategy[game.node_by_key(key).id] = np.stack([1 - p, p], axis=1)
    return game, strategy


def kuhn_deviations(alpha: float) -> tuple[float, list[Deviation]]:
    """Player 1's value and the deviation rows (every node and card) for one alpha."""
    game, strategy = kuhn_profile(alpha)
    totals = expected_values(game, strategy).totals
    rows = []
    for node in game.decision_nodes():
        for hand, card in enumerate(CARDS):
            evs = []
            for action in range(2):
                deviated = {k: v.copy() for k, v in strategy.items()}
                deviated[node.id][hand] = np.eye(2)[action]
                evs.append(float(expected_values(game, deviated).totals[node.player]))
            rows.append(
                Deviation(
                    node.player,
                    card,
                    node.key,
                    (node.actions[0], node.actions[1]),
                    float(strategy[node.id][hand, 1]),
                    (evs[0], evs[1]),
                    float(totals[node.player]),
                )
            )
    return float(totals[0]), rows
