"""A range's hand categories on a board (the range lab's table) against phevaluator, combo by combo.

phevaluator ranks a hand 1 (royal flush) to 7462 (7-5-4-3-2 offsuit) in Cactus Kev's order, whose
category boundaries are published: straight flushes 1-10, quads 11-166, full houses 167-322,
flushes 323-1599, straights 1600-1609, trips 1610-2467, two pair 2468-3325, one pair
3326-6185, high card 6186-7462. The counts must agree exactly, card removal included.
"""

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.cards.deck import COMBO_CARDS, card_str, parse_cards
from solvers.cards.evaluator import CATEGORY_NAMES
from solvers.cards.range_tools import category_counts
from solvers.cards.ranges import parse_range

CACTUS_KEV_WORST = {  # the largest (weakest) phevaluator rank of each category
    "straight flush": 10,
    "quads": 166,
    "full house": 322,
    "flush": 1599,
    "straight": 1609,
    "trips": 2467,
    "two pair": 3325,
    "pair": 6185,
    "high card": 7462,
}


def _category(rank: int) -> str:
    return next(name for name, worst in CACTUS_KEV_WORST.items() if rank <= worst)


def _brute_force(weights: np.ndarray, board: list[int]) -> dict[str, float]:
    counts = dict.fromkeys(CACTUS_KEV_WORST, 0.0)
    for combo in np.flatnonzero(weights > 0):
        hole = [int(c) for c in COMBO_CARDS[combo]]
        if set(hole) & set(board):
            continue  # a board card in the hand: the combo is dead
        rank = evaluate_cards(*(card_str(c) for c in (*board, *hole)))
        counts[_category(rank)] += float(weights[combo])
    return counts


@pytest.mark.parametrize(
    "board_text",
    ["Qs Jh 2h", "Ts 9s 8s 7h", "Ah Ad 5c 5d Ks", "Qs Jh 2h 8d 3c", "6h 7h 8h 9h Ts"],
)
@pytest.mark.parametrize("range_text", ["random", "QQ+, AKs:0.5, T9s, 76o:0.25, 55, A5s"])
def test_category_counts_equal_phevaluator_combo_by_combo(board_text, range_text):
    board = parse_cards(board_text)
    weights = parse_range(range_text)
    got = dict(zip(CATEGORY_NAMES, category_counts(weights, board), strict=True))
    expected = _brute_force(weights, board)
    assert got == pytest.approx(expected, abs=1e-9)
    live = sum(float(w) for c, w in enumerate(weights) if not set(COMBO_CARDS[c]) & set(board))
    assert sum(expected.values()) == pytest.approx(live, abs=1e-9)
    assert sum(value > 0 for value in expected.values()) >= 3  # a test with several categories
