"""Concrete deals for play: which hands the two seats hold, and how a showdown comes out.

Postflop spots (``nlhe``) deal two combos from the ranges by weight (the joint prior, zero where
they share a card) and play on the spot's real board; a showdown before the river deals the
rest of the board from the unseen cards.

Most games' private hands are atomic (a Kuhn card, a Leduc card, a von Neumann bin), so a deal
is a draw of ``(h0, h1)`` from the game's joint prior and a showdown pays what the terminal's
payoff matrix says. Games whose hands are hold'em classes (flop poker, push/fold) instead deal
four real cards, map them to their classes for the strategies, and settle a showdown by dealing
the board and evaluating the real hands, so the player sees real cards and real luck.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solvers.cards import evaluator
from solvers.cards.deck import (
    CLASS_LABELS,
    COMBO_CARDS,
    COMBO_CLASS,
    COMBO_INDEX,
    cards_str,
    parse_card,
)
from solvers.errors import InputError
from solvers.games.base import Node, TreeGame


@dataclass
class Deal:
    hands: tuple[int, int]
    """Each seat's private hand, as an index into ``game.hand_labels[seat]``."""
    hole_cards: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """Real cards (card ids) in hold'em class games."""
    board: list[int] = field(default_factory=list)
    """Real board cards dealt at showdown in hold'em class games."""

    def hand_text(self, game: TreeGame, seat: int) -> str:
        """The seat's hand as shown: real hole cards high card first, else the game's label."""
        if self.hole_cards is not None:
            return cards_str(sorted(self.hole_cards[seat], reverse=True))
        return game.hand_labels[seat][self.hands[seat]]

    def showdown_cards(
        self, game: TreeGame, seat: int, chance_labels: list[str]
    ) -> list[int] | None:
        """The seat's real cards plus the board, for naming the hand at showdown; None when
        the game's hands are not cards (Kuhn ranks, von Neumann bins, the river toy)."""
        if self.hole_cards is not None:
            return [*self.hole_cards[seat], *self.board]
        labels = [game.hand_labels[seat][self.hands[seat]], *chance_labels]
        try:
            cards = [parse_card(label) for label in labels]
        except InputError:
            return None
        return cards if len(set(cards)) == len(cards) else None


def is_holdem_class_game(game: TreeGame) -> bool:
    return tuple(game.hand_labels[0]) == CLASS_LABELS and tuple(game.hand_labels[1]) == CLASS_LABELS


def is_spot_game(game: TreeGame) -> bool:
    """A postflop spot whose hands are real combos on a real board (``nlhe``)."""
    return getattr(game, "hand_combos", None) is not None


def showdown_board_size(game: TreeGame) -> int:
    """Board cards a hold'em class game deals at showdown (3 for flop poker, 5 preflop all-in)."""
    table = getattr(game, "table", None)
    return int(getattr(table, "board_cards", 5))


def deal_hands(game: TreeGame, rng: np.random.Generator) -> Deal:
    if is_holdem_class_game(game):
        cards = rng.permutation(52)[:4]
        hole = (tuple(int(c) for c in cards[:2]), tuple(int(c) for c in cards[2:]))
        classes = tuple(int(COMBO_CLASS[COMBO_INDEX[a, b]]) for a, b in hole)
        return Deal(hands=classes, hole_cards=hole)  # type: ignore[arg-type]
    prior = game.prior / game.prior.sum()
    flat = rng.choice(prior.size, p=prior.ravel())
    h0, h1 = (int(h) for h in np.unravel_index(flat, prior.shape))
    if is_spot_game(game):
        combos = (game.hand_combos[0][h0], game.hand_combos[1][h1])  # type: ignore[attr-defined]
        first, second = (tuple(int(c) for c in COMBO_CARDS[combo]) for combo in combos)
        return Deal(hands=(h0, h1), hole_cards=(first, second))
    return Deal(hands=(h0, h1))


def chance_outcome(game: TreeGame, node: Node, deal: Deal, rng: np.random.Generator) -> int:
    """Index of the chance outcome, drawn given both hands (card removal)."""
    assert node.outcome_probs is not None and node.outcome_masks is not None
    weights = (
        node.outcome_probs
        * node.outcome_masks[0][:, deal.hands[0]]
        * node.outcome_masks[1][:, deal.hands[1]]
    )
    return int(rng.choice(len(weights), p=weights / weights.sum()))


def showdown_payoff(
    game: TreeGame,
    node: Node,
    deal: Deal,
    rng: np.random.Generator,
    contributions: tuple[float, float] | None = None,
) -> float:
    """Seat 0's chips won at a terminal for this concrete deal; ``contributions`` are the real
    chips in when an off-tree bet made them differ from the node's."""
    put0, put1 = node.contributions if contributions is None else contributions
    if node.terminal == "fold":
        if is_spot_game(game):
            deal.board = [int(c) for c in node.board]
        return -put0 if node.folder == 0 else put1
    if is_spot_game(game):
        assert deal.hole_cards is not None
        used = {*deal.hole_cards[0], *deal.hole_cards[1], *node.board}
        deck = np.array([c for c in range(52) if c not in used])
        extra = rng.permutation(deck)[: 5 - len(node.board)]
        deal.board = [*(int(c) for c in node.board), *(int(c) for c in extra)]
        strengths = [
            evaluator.evaluate_hand(list(deal.hole_cards[seat]) + deal.board) for seat in (0, 1)
        ]
        sign = np.sign(strengths[0] - strengths[1])
    elif is_holdem_class_game(game):
        assert deal.hole_cards is not None
        used = set(deal.hole_cards[0]) | set(deal.hole_cards[1])
        deck = np.array([c for c in range(52) if c not in used])
        deal.board = [int(c) for c in rng.permutation(deck)[: showdown_board_size(game)]]
        strengths = [
            evaluator.evaluate_hand(list(deal.hole_cards[seat]) + deal.board) for seat in (0, 1)
        ]
        sign = np.sign(strengths[0] - strengths[1])
    else:
        sign = float(game.showdown_sign(node)[deal.hands[0], deal.hands[1]])
    if sign > 0:
        return put1
    if sign < 0:
        return -put0
    return (put1 - put0) / 2


def has_hole_cards(game: TreeGame) -> bool:
    """Whether a deal of this game carries real hole cards (hold'em class games and spots)."""
    return is_holdem_class_game(game) or is_spot_game(game)
