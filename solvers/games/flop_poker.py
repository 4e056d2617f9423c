"""Flop poker (Goykhman, seed 000, §5): von Neumann's betting on real two-card hands.

Each player antes ``a`` and is dealt two cards. The player (P0) bets ``B`` or checks; a check
goes straight to showdown, and a bet is called or folded by the dealer (P1). At a showdown a
3-card flop is dealt and the best five of the 2 + 3 cards wins, ties splitting the pot.

Why classes are enough: no decision is taken after the flop, so a hand's only role is its
chance to win or tie, and those chances are the same for every combo of a class up to suit
relabelling. The hands are therefore the 169 classes for both players, the joint prior is the
number of compatible combo pairs of each class pair, and a showdown pays its expectation over
combo pairs and flops, read from the exact tables of ``solvers.cards.preflop_tables``. The strategy
per class is the paper's ``p(i)`` and ``q(j)``.

Values are net chips for the player, antes included in the pot: a check-check showdown with an
even chance is worth 0. The exact LP values (pinned in ``tests/test_games_flop_poker.py``) are
0.14862 for (a, B) = (1, 2), 0.13889 for (1, 4) and 0.13114 for (8, 1). The paper's sampled-CFR
figures are 0.15, 0.14 and 0.11: the first two are ours rounded; the test module explains why
the third is a sampling artefact.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from solvers.cards.deck import CLASS_LABELS
from solvers.cards.preflop_tables import ClassTable, flop_table
from solvers.games.base import MAX_CHIPS, MIN_CHIPS, GameParams, Node, TreeGame
from solvers.games.spec import register_game
from solvers.games.von_neumann import bet_or_check_tree


class FlopPokerParams(GameParams):
    chip_fields = ("ante", "bet")
    ante: float = Field(1.0, ge=MIN_CHIPS, le=MAX_CHIPS, description="chips each player ante")
    bet: float = Field(2.0, ge=MIN_CHIPS, le=MAX_CHIPS, description="the player's one bet")


class ClassTableGame(TreeGame):
    """A game over the 169 classes whose showdowns are read from a ``ClassTable``.

    The expected showdown payoff of class a against class b, when player 0 has put ``put0`` and
    player 1 ``put1`` in the pot, is ``put1 * win[a, b] - put0 * win[b, a]`` plus half the
    difference of contributions on a tie.
    """

    table: ClassTable

    def terminal_matrix(self, node: int | str | Node) -> np.ndarray:
        node = self.node(node)
        if node.is_terminal and node.terminal == "showdown" and node.id not in self._terminal_cache:
            put0, put1 = node.contributions
            table = self.table
            payoff = put1 * table.win - put0 * table.win.T + (put1 - put0) / 2 * table.tie
            self._terminal_cache[node.id] = payoff * self.prior
        return super().terminal_matrix(node)


@register_game
class FlopPokerGame(ClassTableGame):
    name = "flop_poker"
    params_model = FlopPokerParams
    description = "flop poker: bet or check, call or fold, 3-card flop decides (169 classes)"

    @classmethod
    def from_params(cls, params: FlopPokerParams) -> FlopPokerGame:
        a, b = params.ante, params.bet
        tree = bet_or_check_tree(a, b)
        table = flop_table()
        game = cls(params, (CLASS_LABELS, CLASS_LABELS), table.prior, tree.finish(), big_blind=a)
        game.table = table
        return game
