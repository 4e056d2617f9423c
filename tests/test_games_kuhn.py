"""Kuhn poker: analytic equilibrium of the 3-card game, N-card LP values, OpenSpiel agreement."""

import numpy as np
import pytest

from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game, random_strategy, uniform_strategy

# LP values for player 1 (the first to act). They appear to be the fractions in the comments;
# each is cross-checked below by evaluating the LP profile and by its exploitability being ~0.
KUHN_VALUES = {
    3: -1 / 18,
    4: -0.041666666666666664,  # -1/24
    5: -0.06666666666666667,  # -1/15
    8: -0.0625,  # -1/16, Koller's 8-card game (Oliehoek et al.)
    13: -0.0641025641025641,  # -5/78
}


@pytest.fixture(scope="module")
def kuhn3():
    game = load_game("kuhn")
    return game, solve_lp(game)


def test_lp_value_is_minus_one_eighteenth(kuhn3):
    _, solution = kuhn3
    assert solution.value == pytest.approx(-1 / 18, abs=1e-9)


def test_lp_profile_is_unexploitable(kuhn3):
    game, solution = kuhn3
    measured = exploitability(game, solution.strategy)
    assert measured.exploitability < 1e-9
    assert measured.game_value == pytest.approx(-1 / 18, abs=1e-9)


def test_player2_strategy_is_the_unique_equilibrium(kuhn3):
    game, solution = kuhn3
    facing_bet = solution.strategy[game.node_by_key("b").id]  # rows J, Q, K; (fold, call)
    after_check = solution.strategy[game.node_by_key("c").id]  # (check, bet)
    np.testing.assert_allclose(facing_bet[:, 1], [0, 1 / 3, 1], atol=1e-9)
    np.testing.assert_allclose(after_check[:, 1], [1 / 3, 0, 1], atol=1e-9)


def test_player1_strategy_is_in_the_alpha_family(kuhn3):
    game, solution = kuhn3
    bet = solution.strategy[game.node_by_key("").id][:, 1]
    call = solution.strategy[game.node_by_key("c/b").id][:, 1]
    alpha = bet[0]
    assert -1e-9 <= alpha <= 1 / 3 + 1e-9
    np.testing.assert_allclose(bet, [alpha, 0, 3 * alpha], atol=1e-9)
    np.testing.assert_allclose(call, [0, alpha + 1 / 3, 1], atol=1e-9)


def test_nash_conv_of_uniform_is_eleven_twelfths():
    game = load_game("kuhn")
    assert exploitability(game, uniform_strategy(game)).nash_conv == pytest.approx(11 / 12, 1e-14)


@pytest.mark.parametrize("cards", sorted(KUHN_VALUES))
def test_n_card_lp_values(cards):
    game = load_game(f"kuhn(cards={cards})")
    solution = solve_lp(game)
    measured = exploitability(game, solution.strategy)
    assert solution.value == pytest.approx(KUHN_VALUES[cards], abs=1e-9)
    assert measured.game_value == pytest.approx(KUHN_VALUES[cards], abs=1e-9)
    assert measured.exploitability < 1e-9


def test_hundred_card_kuhn_solves():
    game = load_game("kuhn(cards=100)")
    solution = solve_lp(game)
    assert exploitability(game, solution.strategy).exploitability < 1e-8
    assert -0.07 < solution.value < -0.05


@pytest.mark.parametrize("seed", [0, 1])
def test_exploitability_matches_openspiel(kuhn3, seed):
    import pyspiel  # noqa: F401 - the test extra installs it: fail, not skip

    from solvers.strategy_file.openspiel import openspiel_exploitability

    game, solution = kuhn3
    for strategy in (solution.strategy, random_strategy(game, np.random.default_rng(seed))):
        ours = exploitability(game, strategy).exploitability
        assert openspiel_exploitability(game, strategy) == pytest.approx(ours, abs=1e-9)
