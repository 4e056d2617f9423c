"""The evaluator against exhaustive counts (published Table 1) and phevaluator."""

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.cards import combinatorics, evaluator
from solvers.cards.board_strengths import board_strengths
from solvers.cards.deck import COMBO_CARDS, parse_cards

FIVE_CARD = {  # category: (distinct ranks, hands), Goykhman Table 1
    "straight flush": (10, 40),
    "quads": (156, 624),
    "full house": (156, 3744),
    "flush": (1277, 5108),
    "straight": (10, 10200),
    "trips": (858, 54912),
    "two pair": (858, 123552),
    "pair": (2860, 1098240),
    "high card": (1277, 1302540),
}
SEVEN_CARD = {
    "straight flush": 41584,
    "quads": 224848,
    "full house": 3473184,
    "flush": 4047644,
    "straight": 6180020,
    "trips": 6461620,
    "two pair": 31433400,
    "pair": 58627800,
    "high card": 23294460,
}


def test_all_five_card_hands_reproduce_table_1():
    histogram = combinatorics.five_card_histogram()
    hands, distinct = combinatorics.category_counts(histogram)
    assert histogram.sum() == 2598960
    assert (histogram > 0).sum() == 7462
    for i, name in enumerate(evaluator.CATEGORY_NAMES):
        assert (distinct[i], hands[i]) == FIVE_CARD[name], name


@pytest.mark.slow
def test_all_seven_card_hands():
    histogram = combinatorics.seven_card_histogram()
    hands, _ = combinatorics.category_counts(histogram)
    assert histogram.sum() == 133784560
    assert (histogram > 0).sum() == 4824
    for i, name in enumerate(evaluator.CATEGORY_NAMES):
        assert hands[i] == SEVEN_CARD[name], name


@pytest.mark.parametrize("n_cards", [5, 6, 7])
def test_matches_phevaluator_on_random_hands(n_cards):
    rng = np.random.default_rng(n_cards)
    hands = np.argsort(rng.random((20000, 52)), axis=1)[:, :n_cards]
    ours = evaluator.evaluate(hands).astype(int)
    # phevaluator ranks 1 (royal flush) .. 7462: the reverse of ours
    theirs = np.array([evaluate_cards(*row) for row in hands.tolist()])
    assert np.array_equal(ours, 7463 - theirs)


def test_known_hands_and_categories():
    def strength(text):
        return evaluator.evaluate_hand(parse_cards(text))

    assert strength("AsKsQsJsTs") == 7462
    assert strength("7c5d4h3s2c") == 1
    assert evaluator.category_name(strength("5c4d3h2sAc")) == "straight"
    assert strength("5c4d3h2sAc") < strength("6c5d4h3s2c")
    assert evaluator.category_name(strength("AsAdAhKsKd9c2c")) == "full house"
    assert evaluator.category_name(strength("2s3s4s6s9sAsAd")) == "flush"
    assert evaluator.category_name(strength("2s3s4s5s9sAsAd")) == "straight flush"
    assert strength("AsKdQhJc9s8d2c") == strength("AdKsQcJh9d8c3h")  # same best five


def test_batch_shapes_and_bad_input():
    cards = np.array([[[0, 4, 8, 12, 20, 30, 40]] * 3] * 2)
    assert evaluator.evaluate(cards).shape == (2, 3)
    with pytest.raises(ValueError):
        evaluator.evaluate(np.zeros((2, 4), dtype=int))
    with pytest.raises(ValueError):
        evaluator.evaluate(np.array([[0, 1, 2, 3, 52]]))


def test_board_strengths_match_phevaluator_and_mark_the_hands_a_board_blocks():
    """The compiled table (``board_kernels``) on random boards, every combo: phevaluator's rank
    reversed for each hand the board leaves, -1 for each it holds a card of."""
    rng = np.random.default_rng(7)
    boards = np.argsort(rng.random((12, 52)), axis=1)[:, :5]
    table = board_strengths(boards, COMBO_CARDS)
    assert table.shape == (12, 1326)
    for board, row in zip(boards.tolist(), table, strict=True):
        blocked = np.isin(COMBO_CARDS, board).any(axis=1)
        assert (row[blocked] == -1).all() and blocked.sum() == 1326 - 1081
        theirs = np.array(
            [evaluate_cards(*board, *combo) for combo in COMBO_CARDS[~blocked].tolist()]
        )
        assert np.array_equal(row[~blocked], 7463 - theirs)


def test_released_tables_load_again_and_rank_as_before():
    """A solve drops the tables once its showdown tables are built (``release_tables``); an
    evaluation after that loads them again and ranks as phevaluator does."""
    rng = np.random.default_rng(11)
    boards = np.argsort(rng.random((4, 52)), axis=1)[:, :5]
    before = board_strengths(boards, COMBO_CARDS)
    evaluator.release_tables()
    assert evaluator._rank_table.cache_info().currsize == 0
    after = board_strengths(boards, COMBO_CARDS)
    assert np.array_equal(before, after)
    board = boards[0].tolist()
    combo = next(c for c in COMBO_CARDS.tolist() if not set(c) & set(board))
    row = COMBO_CARDS.tolist().index(combo)
    assert after[0, row] == 7463 - evaluate_cards(*board, *combo)
