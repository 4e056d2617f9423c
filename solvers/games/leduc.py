"""Leduc hold'em (Southey et al. 2005), with the rules OpenSpiel's ``leduc_poker`` uses.

Six cards (J, Q, K in two suits), ante 1, one private card each, one public card after the first
betting round. Raises are 2 in round 1 and 4 in round 2, at most two per round; folding is only
offered when facing a raise. A pair with the board wins, else the higher card; equal ranks split.

The board card is a chance node with six outcomes: each has factor 1/4 given the two hands and
masks out the hands holding that card, so chance weights factorise as ``base.py`` requires.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field, field_validator

from solvers.games.base import MAX_CHIPS, MIN_CHIPS, GameParams, NodeKind, TreeBuilder, TreeGame
from solvers.games.spec import register_game

RANKS = ("J", "Q", "K")
SUITS = ("s", "h")
CARD_LABELS = tuple(f"{RANKS[c // 2]}{SUITS[c % 2]}" for c in range(6))
"""Card id c has rank c // 2 and suit c % 2, as in OpenSpiel."""


class LeducParams(GameParams):
    chip_fields = ("ante", "raises")
    ante: float = Field(1.0, ge=MIN_CHIPS, le=MAX_CHIPS)
    raises: list[float] = Field(default_factory=lambda: [2.0, 4.0], min_length=2, max_length=2)
    max_raises: int = Field(2, ge=0, le=4, description="raises allowed per round")

    @field_validator("raises")
    @classmethod
    def _positive(cls, value: list[float]) -> list[float]:
        if any(not MIN_CHIPS <= size <= MAX_CHIPS for size in value):
            raise ValueError(f"raises must be positive, between {MIN_CHIPS:g} and {MAX_CHIPS:g}")
        return value


def _build_tree(params: LeducParams) -> TreeBuilder:
    tree = TreeBuilder()

    def betting(
        parent: int,
        token: str,
        round_: int,
        put: list[float],
        player: int,
        n_raises: int,
        facing: bool,
        first: bool,
    ) -> None:
        labels, tokens, amounts = [], [], []
        if facing:
            labels.append("fold")
            tokens.append("f")
            amounts.append(0.0)
        call_amount = abs(put[0] - put[1])
        labels.append("call" if facing else "check")
        tokens.append("c")
        amounts.append(call_amount)
        raise_size = params.raises[round_]
        if n_raises < params.max_raises:
            labels.append("raise")
            tokens.append("r")
            amounts.append(call_amount + raise_size)
        nid = tree.add(
            parent,
            token,
            NodeKind.DECISION,
            contributions=tuple(put),
            player=player,
            actions=tuple(labels),
            tokens=tuple(tokens),
            amounts=tuple(amounts),
        )
        for label, tok, amount in zip(labels, tokens, amounts, strict=True):
            after = list(put)
            after[player] += amount
            if label == "fold":
                tree.add(
                    nid,
                    tok,
                    NodeKind.TERMINAL,
                    contributions=tuple(put),
                    terminal="fold",
                    folder=player,
                )
            elif label == "raise":
                betting(nid, tok, round_, after, 1 - player, n_raises + 1, True, False)
            elif facing or not first:  # a call, or check behind: the round ends
                end_round(nid, tok, round_, after)
            else:
                betting(nid, tok, round_, after, 1 - player, n_raises, False, False)

    def end_round(parent: int, token: str, round_: int, put: list[float]) -> None:
        if round_ == 1:
            tree.add(
                parent, token, NodeKind.TERMINAL, contributions=tuple(put), terminal="showdown"
            )
            return
        masks = 1.0 - np.eye(6)  # outcome o blocks the hand holding card o
        chance = tree.add(
            parent,
            token,
            NodeKind.CHANCE,
            contributions=tuple(put),
            actions=CARD_LABELS,
            tokens=CARD_LABELS,
            outcome_probs=np.full(6, 0.25),
            outcome_masks=(masks, masks),
        )
        for card, label in enumerate(CARD_LABELS):
            first_of_round = len(tree.nodes)
            betting(chance, label, 1, put, 0, 0, False, True)
            tree.nodes[first_of_round].board = (card,)

    betting(-1, "", 0, [params.ante, params.ante], 0, 0, False, True)
    return tree


@register_game
class LeducGame(TreeGame):
    name = "leduc"
    params_model = LeducParams
    description = "Leduc hold'em: 6 cards, two betting rounds"

    @classmethod
    def from_params(cls, params: LeducParams) -> LeducGame:
        nodes = _build_tree(params).finish()
        _inherit_board(nodes)
        prior = (1.0 - np.eye(6)) / 30.0
        return cls(params, (CARD_LABELS, CARD_LABELS), prior, nodes, big_blind=params.ante)

    def showdown_sign(self, node):
        ranks = np.arange(6) // 2
        board_rank = ranks[node.board[0]]
        strength = np.where(ranks == board_rank, 10, ranks)
        return np.sign(strength[:, None] - strength[None, :])


def _inherit_board(nodes) -> None:
    for node in nodes[1:]:
        if not node.board:
            node.board = nodes[node.parent].board
