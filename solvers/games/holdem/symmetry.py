"""Suit isomorphism of a spot: two suits the board and both ranges cannot tell apart.

When swapping suits ``a`` and ``b`` maps the board onto itself and leaves both ranges' weights
unchanged, a card of suit ``a`` dealt on such a board leads to a subgame that is the image of
the one after the same card of suit ``b``, with every hand's suits swapped. The compiled solver
(``solvers/exact/compiled_walk.py``) then walks only the first of each such pair and counts it
twice, once with hands swapped: on the benchmark flop Qs Jh 2h (clubs and diamonds absent) that
leaves 37 of 49 turn cards and about 73% of the tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from solvers.cards.deck import COMBO_CARDS, COMBO_INDEX


@dataclass(frozen=True)
class SuitSwap:
    suits: tuple[int, int]
    card: np.ndarray
    """``[52]``: each card's image (suits swapped)."""
    hands: tuple[np.ndarray, np.ndarray]
    """Per player, the index of each hand's image in the same player's hand list."""

    def fixes(self, board: tuple[int, ...] | list[int]) -> bool:
        """Whether the swap maps ``board`` onto itself."""
        return set(int(c) for c in self.card[list(board)]) == set(int(c) for c in board)


def card_swap(a: int, b: int) -> np.ndarray:
    cards = np.arange(52)
    suit = cards % 4
    out = cards.copy()
    out[suit == a] += b - a
    out[suit == b] += a - b
    return out


def find_suit_swap(
    board: tuple[int, ...] | list[int],
    hand_combos: tuple[np.ndarray, np.ndarray],
    weights: tuple[np.ndarray, np.ndarray],
) -> SuitSwap | None:
    """The first suit pair (in card order) the board and both weighted ranges cannot tell
    apart, or None."""
    for a, b in combinations(range(4), 2):
        card = card_swap(a, b)
        swap = SuitSwap((a, b), card, (np.empty(0, np.int64), np.empty(0, np.int64)))
        if not swap.fixes(board):
            continue
        hands = []
        for combos, w in zip(hand_combos, weights, strict=True):
            cards = card[COMBO_CARDS[combos]]
            images = COMBO_INDEX[cards[:, 0], cards[:, 1]]
            where = np.full(len(COMBO_CARDS), -1, dtype=np.int64)
            where[combos] = np.arange(len(combos))
            index = where[images]
            if (index < 0).any() or not np.array_equal(w[index], w):
                break
            hands.append(index)
        else:
            return SuitSwap((a, b), card, (hands[0], hands[1]))
    return None


def walked_nodes(nodes, swap: SuitSwap | None) -> tuple[np.ndarray, np.ndarray]:
    """``(walked, doubled)`` per node id: of two chance cards the swap exchanges on a board it
    fixes, the subtree under the higher card is not walked and the lower card's node counts
    twice. Node ids put parents before children (``TreeBuilder``)."""
    walked = np.ones(len(nodes), dtype=np.bool_)
    doubled = np.zeros(len(nodes), dtype=np.bool_)
    if swap is None:
        return walked, doubled
    for node in nodes:
        if node.parent < 0:
            continue
        parent = nodes[node.parent]
        if parent.is_chance and swap.fixes(parent.board):
            card = node.board[-1]
            image = int(swap.card[card])
            walked[node.id] = image >= card
            doubled[node.id] = image > card
        walked[node.id] &= walked[parent.id]
    return walked, doubled
