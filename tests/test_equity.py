"""Equity against published figures and against independent enumerations and samplers."""

import itertools

import eval7
import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.cards.deck import COMBO_CARDS, card_str, parse_cards, parse_combo
from solvers.cards.equity import EquityError, equity
from solvers.cards.ranges import parse_range


def hand(text):
    return parse_range(text)


def test_outs_example_from_the_tutorial():
    result = equity(hand("AhKd"), hand("8c7s"), parse_cards("Ac5d6h2s"))
    assert result.method == "exact"
    assert result.equity[0] == pytest.approx(9 / 11, abs=1e-12)
    assert result.equity[1] == pytest.approx(2 / 11, abs=1e-12)
    assert result.boards == 44


def test_aces_against_kings_preflop():
    result = equity(hand("AsAh"), hand("KdKc"))
    assert result.method == "exact"
    assert result.boards == 1712304
    assert 0.80 < result.equity[0] < 0.83


def _phevaluator_equity(combo1, combo2, board):
    """Independent exact equity: enumerate runouts with phevaluator, one hand at a time."""
    hole1, hole2 = COMBO_CARDS[combo1].tolist(), COMBO_CARDS[combo2].tolist()
    deck = [c for c in range(52) if c not in set(hole1 + hole2 + board)]
    score = 0.0
    count = 0
    for runout in itertools.combinations(deck, 5 - len(board)):
        cards = board + list(runout)
        a, b = evaluate_cards(*(hole1 + cards)), evaluate_cards(*(hole2 + cards))
        score += 1.0 if a < b else 0.5 if a == b else 0.0  # phevaluator: lower is better
        count += 1
    return score / count


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_exact_equity_matches_an_independent_enumeration(board_size):
    rng = np.random.default_rng(board_size)
    matchups = 70 if board_size > 3 else 62  # 202 in all across board sizes
    for _ in range(matchups):
        cards = rng.permutation(52)[: 4 + board_size].tolist()
        combo1 = parse_combo(card_str(cards[0]) + card_str(cards[1]))
        combo2 = parse_combo(card_str(cards[2]) + card_str(cards[3]))
        board = cards[4:]
        w1, w2 = np.zeros(1326), np.zeros(1326)
        w1[combo1] = w2[combo2] = 1.0
        ours = equity(w1, w2, board, method="exact")
        expected = _phevaluator_equity(combo1, combo2, board)
        assert abs(ours.equity[0] - expected) < 1e-12


def test_preflop_exact_agrees_with_eval7_monte_carlo():
    rng = np.random.default_rng(7)
    for _ in range(4):
        cards = rng.permutation(52)[:4].tolist()
        labels = [card_str(c) for c in cards]
        exact = equity(hand(labels[0] + labels[1]), hand(labels[2] + labels[3]), method="exact")
        iterations = 200_000
        theirs = eval7.py_hand_vs_range_monte_carlo(
            [eval7.Card(labels[0]), eval7.Card(labels[1])],
            eval7.HandRange(labels[2] + labels[3]),
            [],
            iterations,
        )
        std_error = np.sqrt(exact.equity[0] * (1 - exact.equity[0]) / iterations)
        assert abs(theirs - exact.equity[0]) < 4 * std_error + 1e-9


def test_range_against_range_exact_and_mc_agree():
    r1, r2 = parse_range("QQ+,AKs,JTs"), parse_range("TT+,AQs+,KQo:0.5")
    board = parse_cards("Ts9s2d")
    exact = equity(r1, r2, board, method="exact")
    mc = equity(r1, r2, board, method="mc", samples=400_000, seed=11)
    assert exact.method == "exact" and mc.method == "mc"
    assert abs(exact.equity[0] - mc.equity[0]) < 4 * mc.std_error
    assert exact.equity[0] + exact.equity[1] == pytest.approx(1.0)
    assert mc.std_error > 0


def test_weights_and_card_removal_are_respected():
    # AA vs a range of KK and one half-weighted AK: weighting changes the answer.
    full = equity(hand("AsAh"), parse_range("KK,AKo"), method="exact")
    half = equity(hand("AsAh"), parse_range("KK,AKo:0.5"), method="exact")
    assert half.equity[0] < full.equity[0]
    # Villain combos holding the ace of spades or hearts cannot be dealt.
    with pytest.raises(EquityError, match="block each other"):
        equity(hand("AsAh"), parse_range("AsKd"), method="exact")
    partly = equity(hand("AsAh"), parse_range("AsKd,KK"), method="exact")
    assert partly.pairs == 6
    assert partly.equity == equity(hand("AsAh"), parse_range("KK"), method="exact").equity


def test_hand_vs_range_equals_weighted_hand_vs_hand():
    villain = ["KdKc", "QdQc", "JsTs"]
    weights = [1.0, 0.5, 0.25]
    board = parse_cards("9s8s2d")
    parts = [equity(hand("AsAh"), hand(v), board, method="exact").equity[0] for v in villain]
    rng_text = ",".join(f"{v}:{w}" for v, w in zip(villain, weights, strict=True))
    combined = equity(hand("AsAh"), parse_range(rng_text), board, method="exact")
    assert combined.equity[0] == pytest.approx(np.average(parts, weights=weights), abs=1e-12)


def test_dead_cards_leave_the_deck():
    live = equity(hand("AhKd"), hand("8c7s"), parse_cards("Ac5d6h2s"))
    dead = equity(hand("AhKd"), hand("8c7s"), parse_cards("Ac5d6h2s"), parse_cards("4c4d"))
    assert dead.boards == 42
    assert dead.equity[1] == pytest.approx(6 / 42)
    assert live.equity[1] > dead.equity[1]


def test_monte_carlo_is_seeded():
    a = equity(hand("AhKh"), parse_range("22+"), method="mc", samples=50_000, seed=5)
    b = equity(hand("AhKh"), parse_range("22+"), method="mc", samples=50_000, seed=5)
    assert a == b


@pytest.mark.parametrize(
    ("r1", "r2", "board", "dead", "message"),
    [
        ("AsKs", "QQ", "AsKd2c", "", "range 1 is empty"),
        ("AA", "KK", "2c3c4c5c6c7c", "", "at most 5"),
        ("AA", "KK", "2c3c", "2c", "used twice"),
        ("AsAh", "AdAc", "", "", None),
        ("AsAh", "AsKd,AhKd", "", "", "block each other"),
    ],
)
def test_bad_questions_get_clear_errors(r1, r2, board, dead, message):
    from solvers.cards.deck import CardError

    if message is None:
        equity(parse_range(r1), parse_range(r2), parse_cards(board), parse_cards(dead))
        return
    with pytest.raises((EquityError, CardError)) as info:
        equity(parse_range(r1), parse_range(r2), parse_cards(board), parse_cards(dead))
    assert message in str(info.value)


@pytest.mark.slow
def test_preflop_exact_equals_a_full_phevaluator_enumeration():
    hero, villain = parse_combo("AsKs"), parse_combo("QdQc")
    ours = equity(hand("AsKs"), hand("QdQc"), method="exact")
    assert ours.boards == 1712304
    expected = _phevaluator_equity(hero, villain, [])
    assert abs(ours.equity[0] - expected) < 1e-12


@pytest.mark.slow
def test_exact_range_vs_range_preflop_matches_the_class_table():
    """Boards that hit a combo's cards must be skipped, not evaluated (regression)."""
    from solvers.cards.deck import class_index
    from solvers.cards.preflop_tables import preflop_allin_table

    table = preflop_allin_table()
    ours = equity(parse_range("AA"), parse_range("KK"), method="exact")
    expected = table.equity[class_index("AA"), class_index("KK")]
    assert ours.equity[0] == pytest.approx(expected, abs=1e-9)


def test_monte_carlo_per_combo_estimates_match_exact():
    hero, villain = parse_range("AA,KK,AKs"), parse_range("QQ+,AQs+")
    board = parse_cards("Qh7c2d")
    exact = equity(hero, villain, board, method="exact")
    mc = equity(hero, villain, board, method="mc", samples=300_000, seed=2)
    assert mc.hand_samples.sum() == 300_000
    dealt = mc.hand_samples > 0
    assert np.array_equal(dealt, ~np.isnan(exact.hand_equity))
    p = exact.hand_equity[dealt]
    error = np.sqrt(np.maximum(p * (1 - p), 0.01) / mc.hand_samples[dealt])
    assert np.all(np.abs(mc.hand_equity[dealt] - p) < 5 * error)
