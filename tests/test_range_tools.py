"""Range-lab computations: presets, hand categories against a brute-force count, per-class
equity and chunked Monte Carlo."""

from __future__ import annotations

import math

import numpy as np
import pytest

from solvers.cards import evaluator
from solvers.cards.deck import (
    CLASS_COMBOS,
    CLASS_SIZES,
    COMBO_CARDS,
    N_COMBOS,
    class_index,
    parse_cards,
)
from solvers.cards.equity import equity
from solvers.cards.preflop_tables import preflop_allin_table
from solvers.cards.range_tools import (
    category_counts,
    class_equity,
    monte_carlo_chunks,
    top_percent_range,
)
from solvers.cards.ranges import parse_range
from solvers.errors import InputError


def brute_force_categories(weights, board, dead=()) -> np.ndarray:
    counts = np.zeros(evaluator.N_CATEGORIES)
    used = set(board) | set(dead)
    for combo in range(N_COMBOS):
        hole = [int(c) for c in COMBO_CARDS[combo]]
        if weights[combo] == 0 or used & set(hole):
            continue
        strength = evaluator.evaluate_hand(hole + list(board))
        counts[evaluator.category_name(strength) == np.array(evaluator.CATEGORY_NAMES)] += weights[
            combo
        ]
    return counts


@pytest.mark.parametrize(
    ("text", "board", "dead"),
    [
        ("random", "Ts9s2d", ""),
        ("22+, A2s+, KTo+:0.5, T9s-54s:0.25, AsKd", "Ts9s8s", "Ah"),
        ("QQ+, AK, JTs", "QhJhTh9h", ""),
        ("random:0.3, 77:1", "7c7d2h5s5d", "Ac"),
    ],
)
def test_category_counts_match_brute_force(text, board, dead):
    weights = parse_range(text)
    board_cards, dead_cards = parse_cards(board), parse_cards(dead)
    got = category_counts(weights, board_cards, dead_cards)
    np.testing.assert_allclose(got, brute_force_categories(weights, board_cards, dead_cards))


def test_category_counts_known_values():
    # on a monotone flop every suited combo of that suit has a flush: 45 combos of 10 cards
    counts = category_counts(parse_range("random"), parse_cards("Ts9s2s"))
    flushes = counts[evaluator.CATEGORY_NAMES.index("flush")]
    straight_flushes = counts[evaluator.CATEGORY_NAMES.index("straight flush")]
    assert flushes + straight_flushes == math.comb(10, 2)
    assert counts.sum() == math.comb(49, 2)


def test_category_counts_needs_a_flop():
    with pytest.raises(InputError, match="3 to 5 cards"):
        category_counts(parse_range("AA"), parse_cards("AsKs"))


def test_top_percent_follows_preflop_equity():
    table = preflop_allin_table().equity_vs_random()
    top5 = top_percent_range(5, table)
    assert abs(top5.sum() - 0.05 * N_COMBOS) <= CLASS_SIZES.max() / 2
    assert top5[CLASS_COMBOS[class_index("AA")]].all()
    assert not top5[CLASS_COMBOS[class_index("72o")]].any()
    assert top_percent_range(100).sum() == N_COMBOS
    assert top_percent_range(0).sum() == 0
    # nested: a wider preset keeps every class of a narrower one
    assert np.all(top_percent_range(20) >= top_percent_range(10))
    with pytest.raises(InputError):
        top_percent_range(120)


def test_class_equity_averages_exact_hand_equity():
    hero, villain = parse_range("AA, AKs"), parse_range("QQ, JTs")
    board = parse_cards("Ts9s2d")
    result = equity(hero, villain, board, method="exact")
    by_class = class_equity(result.hand_equity, hero)
    aces = CLASS_COMBOS[class_index("AA")]
    assert by_class[class_index("AA")] == pytest.approx(np.mean(result.hand_equity[aces]))
    assert math.isnan(by_class[class_index("KK")])
    # a single-combo hero range: the class equity is the whole equity
    single = parse_range("AsAh")
    one = equity(single, villain, board, method="exact")
    assert class_equity(one.hand_equity, single)[class_index("AA")] == pytest.approx(one.equity[0])


def test_monte_carlo_chunks_pool_the_seeded_chunks():
    hero, villain = parse_range("QQ+, AK"), parse_range("22+, AT+")
    board = parse_cards("Ts9s2d")
    chunks = monte_carlo_chunks(hero, villain, board, samples=4000, chunks=4, seed=7)
    results = list(chunks)
    assert [r.samples for r in results] == [1000, 2000, 3000, 4000]
    parts = [equity(hero, villain, board, method="mc", samples=1000, seed=7 + i) for i in range(4)]
    assert results[-1].equity[0] == pytest.approx(np.mean([p.equity[0] for p in parts]))
    assert results[-1].tie == pytest.approx(np.mean([p.tie for p in parts]))
    exact = equity(hero, villain, board, method="exact").equity[0]
    assert abs(results[-1].equity[0] - exact) < 5 * results[-1].std_error + 1e-3
