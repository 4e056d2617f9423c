"""Heads-up no-limit push/fold: the small blind shoves or folds, the big blind calls or folds.

With stacks of S big blinds the SB (player 0) posts 0.5 and the BB (player 1) posts 1. The SB
either folds, losing 0.5, or moves all in; the BB then folds, losing 1, or calls, and a full
5-card board is dealt. This is the standard short-stack model behind push/fold charts (see the
AI Poker Tutorial, seed 002); at 10 bb the SB shoves about 58% of hands and the BB calls about
37% (published push/fold charts).

As in flop poker, no decision follows the board, so the hands are the 169 classes, the joint
prior counts compatible combo pairs and a showdown pays its exact expectation from the preflop
all-in table in ``solvers.cards.preflop_tables`` (exact enumeration, not Monte Carlo). One big blind
is one chip, so exploitability in chips is also in bb and ``big_blind = 1`` gives mbb per hand.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from solvers.cards.deck import CLASS_LABELS, CLASS_SIZES, N_COMBOS
from solvers.cards.preflop_tables import preflop_allin_table
from solvers.games.base import GameParams, NodeKind, Strategy, TreeBuilder
from solvers.games.flop_poker import ClassTableGame
from solvers.games.spec import register_game

SMALL_BLIND = 0.5
BIG_BLIND = 1.0


class PushFoldParams(GameParams):
    positional = ("stack_bb",)
    stack_bb: float = Field(10.0, ge=1, le=50, description="effective stack in big blinds")


@register_game
class PushFoldGame(ClassTableGame):
    name = "push_fold"
    params_model = PushFoldParams
    description = "heads-up push/fold: SB shoves or folds, BB calls or folds (169 classes)"

    @classmethod
    def from_params(cls, params: PushFoldParams) -> PushFoldGame:
        stack = float(params.stack_bb)
        blinds = (SMALL_BLIND, BIG_BLIND)
        tree = TreeBuilder()
        root = tree.add(
            -1,
            "",
            NodeKind.DECISION,
            contributions=blinds,
            player=0,
            actions=("fold", "shove"),
            tokens=("fold", "shove"),
            amounts=(0.0, stack - SMALL_BLIND),
        )
        tree.add(root, "fold", NodeKind.TERMINAL, contributions=blinds, terminal="fold", folder=0)
        facing = tree.add(
            root,
            "shove",
            NodeKind.DECISION,
            contributions=(stack, BIG_BLIND),
            player=1,
            actions=("fold", "call"),
            tokens=("fold", "call"),
            amounts=(0.0, stack - BIG_BLIND),
        )
        tree.add(
            facing,
            "fold",
            NodeKind.TERMINAL,
            contributions=(stack, BIG_BLIND),
            terminal="fold",
            folder=1,
        )
        tree.add(
            facing, "call", NodeKind.TERMINAL, contributions=(stack, stack), terminal="showdown"
        )
        table = preflop_allin_table()
        game = cls(
            params, (CLASS_LABELS, CLASS_LABELS), table.prior, tree.finish(), big_blind=BIG_BLIND
        )
        game.table = table
        return game

    def shove_probabilities(self, strategy: Strategy) -> np.ndarray:
        """SB's shove probability per class."""
        return strategy[self.node_by_key("").id][:, 1]

    def call_probabilities(self, strategy: Strategy) -> np.ndarray:
        """BB's call probability per class, facing a shove."""
        return strategy[self.node_by_key("shove").id][:, 1]

    def range_percentages(self, strategy: Strategy) -> dict[str, float]:
        """SB shove % and BB call % over the 1326 combos (classes weighted 6 / 4 / 12)."""
        weights = CLASS_SIZES / N_COMBOS
        return {
            "sb_shove_percent": float(100 * weights @ self.shove_probabilities(strategy)),
            "bb_call_percent": float(100 * weights @ self.call_probabilities(strategy)),
        }
