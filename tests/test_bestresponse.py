"""Exact evaluation: best response, exploitability, Bayes ranges and action values."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.exact.evaluation import (
    action_values,
    bayes_range,
    best_response,
    expected_values,
    exploitability,
)
from solvers.games import TreeError, load_game, random_strategy, uniform_strategy


def _pure_strategies(game, player):
    """Every pure strategy of ``player``: one action per (decision node, hand)."""
    nodes = game.decision_nodes(player)
    n_hands = game.n_hands[player]
    slots = [(node, h) for node in nodes for h in range(n_hands)]
    for choice in itertools.product(*[range(len(node.actions)) for node, _ in slots]):
        strategy = {node.id: np.zeros((n_hands, len(node.actions))) for node in nodes}
        for (node, h), a in zip(slots, choice, strict=True):
            strategy[node.id][h, a] = 1.0
        yield strategy


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_response_matches_brute_force_on_kuhn(player, seed):
    game = load_game("kuhn")
    profile = random_strategy(game, np.random.default_rng(seed))
    best = -np.inf
    for pure in _pure_strategies(game, player):  # 64 pure strategies per player
        value = expected_values(game, {**profile, **pure}).totals[player]
        best = max(best, value)
    response = best_response(game, profile, player)
    assert response.value == pytest.approx(best, abs=1e-12)
    achieved = expected_values(game, {**profile, **response.strategy}).totals[player]
    assert achieved == pytest.approx(response.value, abs=1e-12)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(["leduc", "kuhn(cards=5)"]))
def test_best_response_dominates_and_is_achieved(seed, spec):
    game = load_game(spec)
    profile = random_strategy(game, np.random.default_rng(seed))
    values = expected_values(game, profile)
    measured = exploitability(game, profile)
    assert measured.game_value == pytest.approx(values.totals[0], abs=1e-12)
    for player in (0, 1):
        response = measured.best_responses[player]
        assert response.value >= values.totals[player] - 1e-12
        assert np.all(response.per_hand >= values.per_hand[player] - 1e-12)
        achieved = expected_values(game, {**profile, **response.strategy}).totals[player]
        assert achieved == pytest.approx(response.value, abs=1e-12)
    assert measured.nash_conv >= 0
    assert measured.mbb_per_hand == pytest.approx(1000 * measured.exploitability)


def test_per_hand_values_average_to_the_total():
    game = load_game("leduc")
    profile = random_strategy(game, np.random.default_rng(3))
    values = expected_values(game, profile)
    for player in (0, 1):
        marginal = game.prior.sum(axis=1 - player)
        assert values.per_hand[player] @ marginal == pytest.approx(values.totals[player])


def test_action_values_by_hand_in_kuhn():
    game = load_game("kuhn")
    uniform = uniform_strategy(game)
    facing_bet = action_values(game, uniform, "b")  # player 2, rows J Q K, (fold, call)
    np.testing.assert_allclose(facing_bet, [[-1, -2], [-1, 0], [-1, 2]])
    assert action_values(game, uniform, "b", hand=2).tolist() == [-1, 2]


@pytest.mark.parametrize("spec", ["kuhn", "leduc"])
def test_action_values_weighted_by_strategy_give_the_ev(spec):
    game = load_game(spec)
    profile = random_strategy(game, np.random.default_rng(5))
    root_values = action_values(game, profile, "")
    ev_by_hand = (root_values * profile[game.root.id]).sum(axis=1)
    np.testing.assert_allclose(ev_by_hand, expected_values(game, profile).per_hand[0])


def test_action_values_with_best_response_continuation():
    game = load_game("leduc")
    profile = random_strategy(game, np.random.default_rng(9))
    best = action_values(game, profile, "", continuation="best_response").max(axis=1)
    np.testing.assert_allclose(best, best_response(game, profile, 0).per_hand)
    with pytest.raises(TreeError):
        action_values(game, profile, "r/f")


def test_bayes_range_follows_the_actions():
    game = load_game("kuhn")
    alpha = 0.2
    profile = uniform_strategy(game)
    profile[game.root.id] = np.array([[1 - alpha, alpha], [1, 0], [1 - 3 * alpha, 3 * alpha]])
    np.testing.assert_allclose(bayes_range(game, profile, "b", 0), [0.25, 0, 0.75])
    np.testing.assert_allclose(bayes_range(game, profile, "b", 0, opp_hand=2), [1, 0, 0])
    unnormalised = bayes_range(game, profile, "b", 0, normalise=False)
    np.testing.assert_allclose(unnormalised, [alpha / 3, 0, alpha])  # P(reach "b" with hand)
    np.testing.assert_allclose(bayes_range(game, profile, "", 1), [1 / 3] * 3)


def test_bayes_range_with_card_removal_in_leduc():
    game = load_game("leduc")
    board_ks = bayes_range(game, uniform_strategy(game), "c/c/Ks", 1)
    np.testing.assert_allclose(board_ks, [0.2] * 4 + [0, 0.2])  # nobody holds the Ks
    never = {**uniform_strategy(game), game.root.id: np.tile([1.0, 0.0], (6, 1))}
    with pytest.raises(TreeError, match="never reached"):
        bayes_range(game, never, "r", 0)


@pytest.mark.parametrize(
    "spec", ["leduc", "river_toy", "kuhn(cards=5)", "push_fold(stack_bb=10)", "flop_poker"]
)
@pytest.mark.parametrize("player", [0, 1])
def test_level_walk_best_response_matches_the_node_by_node_reference(spec, player):
    """The engine's best response (a max per level) equals the plain recursion over nodes."""
    from solvers.exact.evaluation import counterfactual_values
    from tests import reference_walk

    game = load_game(spec)
    strategy = random_strategy(game, np.random.default_rng(11))
    opp_reach = reference_walk.reaches(game, strategy, 1 - player)
    expected, choices = reference_walk.counterfactual_values(
        game, strategy, player, opp_reach, respond=True
    )
    values, pure = counterfactual_values(game, strategy, player, respond=True)
    for node in game.nodes:
        np.testing.assert_allclose(values[node.id], expected[node.id], rtol=1e-12, atol=1e-14)
    for node_id, best in choices.items():
        np.testing.assert_array_equal(pure[node_id].argmax(axis=1), best)
    response = best_response(game, strategy, player)
    assert response.value == pytest.approx(float(expected[0].sum()), rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("spec", ["leduc", "kuhn(cards=5)", "flop_poker", "river_toy"])
def test_all_pair_values_match_the_node_by_node_reference(spec):
    """Full-information values of every hand pair at every node, against the plain recursion."""
    from solvers.exact.hand_values import all_pair_values
    from tests import reference_walk

    game = load_game(spec)
    profile = random_strategy(game, np.random.default_rng(3))
    table = all_pair_values(game, profile).reshape(len(game.nodes), *game.n_hands)
    rng = np.random.default_rng(4)
    pairs = np.argwhere(game.prior > 0)
    for h0, h1 in pairs[rng.choice(len(pairs), size=min(len(pairs), 12), replace=False)]:
        expected = reference_walk.pair_values(game, profile, (int(h0), int(h1)))
        np.testing.assert_allclose(table[:, h0, h1], expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("cards", [3, 4])
@pytest.mark.parametrize("seed", [0, 1])
def test_kuhn_evaluation_equals_an_independent_enumeration(cards, seed):
    """Values, best responses and action values against ``tests/kuhn_brute_force.py``, which
    writes Kuhn's rules out and enumerates deals and pure strategies without ``solvers``."""
    from tests import kuhn_brute_force as kuhn

    game = load_game(f"kuhn(cards={cards})")
    profile = random_strategy(game, np.random.default_rng(seed))
    by_key = {node.key: profile[node.id] for node in game.decision_nodes()}
    value = kuhn.seat0_value(by_key, cards)
    report = exploitability(game, profile)
    assert report.game_value == pytest.approx(value, abs=1e-12)
    assert expected_values(game, profile).totals[0] == pytest.approx(value, abs=1e-12)
    for player in (0, 1):
        brute = kuhn.best_response_value(by_key, player, cards)
        assert report.best_responses[player].value == pytest.approx(brute, abs=1e-12)
    for node in game.decision_nodes():
        for continuation, respond in (("strategy", False), ("best_response", True)):
            got = action_values(game, profile, node, continuation=continuation)
            for card in range(cards):
                expected = kuhn.info_set_action_values(by_key, node.key, card, cards,
                                                       respond=respond)  # fmt: skip
                np.testing.assert_allclose(got[card], expected, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(
            bayes_range(game, profile, node, node.player),
            kuhn.bayes_range(by_key, node.key, node.player, cards),
        )
