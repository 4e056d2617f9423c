"""Kuhn poker with N cards (Kuhn 1950; N = 8 is Koller's game in Oliehoek et al., seed 003).

Each player antes and gets one card from a deck of N distinct ranks. Player 0 checks or bets;
player 1 then checks or bets after a check, or calls or folds a bet; after check-bet, player 0
calls or folds. Higher card wins at showdown.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from solvers.games.base import MAX_CHIPS, MIN_CHIPS, GameParams, NodeKind, TreeBuilder, TreeGame
from solvers.games.spec import register_game


class KuhnParams(GameParams):
    chip_fields = ("ante", "bet")
    cards: int = Field(3, ge=3, le=1000, description="deck size N (distinct ranks)")
    ante: float = Field(1.0, ge=MIN_CHIPS, le=MAX_CHIPS, description="chips each player antes")
    bet: float = Field(1.0, ge=MIN_CHIPS, le=MAX_CHIPS, description="size of the one bet")


def _labels(cards: int) -> tuple[str, ...]:
    return ("J", "Q", "K") if cards == 3 else tuple(str(i + 1) for i in range(cards))


def build_bet_tree(ante: float, bet: float) -> TreeBuilder:
    """The Kuhn betting tree (shared with any one-card, one-bet game)."""
    tree = TreeBuilder()

    def decision(parent: int, token: str, player: int, put: tuple[float, float], facing: bool):
        if facing:
            labels, tokens, amounts = ("fold", "call"), ("f", "c"), (0.0, bet)
        else:
            labels, tokens, amounts = ("check", "bet"), ("c", "b"), (0.0, bet)
        return tree.add(
            parent,
            token,
            NodeKind.DECISION,
            contributions=put,
            player=player,
            actions=labels,
            tokens=tokens,
            amounts=amounts,
        )

    def terminal(parent: int, token: str, put: tuple[float, float], folder: int = -1) -> None:
        kind = "fold" if folder >= 0 else "showdown"
        tree.add(parent, token, NodeKind.TERMINAL, contributions=put, terminal=kind, folder=folder)

    base = (ante, ante)
    raised0, raised1, both = (ante + bet, ante), (ante, ante + bet), (ante + bet, ante + bet)
    root = decision(-1, "", 0, base, facing=False)
    after_check = decision(root, "c", 1, base, facing=False)
    terminal(after_check, "c", base)
    check_bet = decision(after_check, "b", 0, raised1, facing=True)
    terminal(check_bet, "f", raised1, folder=0)
    terminal(check_bet, "c", both)
    after_bet = decision(root, "b", 1, raised0, facing=True)
    terminal(after_bet, "f", raised0, folder=1)
    terminal(after_bet, "c", both)
    return tree


@register_game
class KuhnGame(TreeGame):
    name = "kuhn"
    params_model = KuhnParams
    description = "Kuhn poker with N cards, one bet"

    @classmethod
    def from_params(cls, params: KuhnParams) -> KuhnGame:
        n = params.cards
        prior = (1.0 - np.eye(n)) / (n * (n - 1))
        labels = _labels(n)
        nodes = build_bet_tree(params.ante, params.bet).finish()
        return cls(params, (labels, labels), prior, nodes, big_blind=params.ante)

    def showdown_sign(self, node):  # card index is its rank
        ranks = np.arange(self.n_hands[0])
        return np.sign(ranks[:, None] - ranks[None, :])
