"""The clairvoyance river game against published figures and the x/(1+x), 1/(1+x) formulas."""

import numpy as np
import pytest

from solvers.exact.evaluation import best_response, expected_values
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.games.river_toy import river_toy_equilibrium


@pytest.fixture(scope="module")
def toy():
    game = load_game("river_toy(pot=4,bets=1,nuts=0.2)")
    return game, solve_lp(game)


def _bettor(game, bet_air):
    """Bettor strategy: always bet the nuts; bet air with probability ``bet_air``."""
    return {game.node_by_key("").id: np.array([[0.0, 1.0], [1 - bet_air, bet_air]])}


def _caller(game, call):
    return {game.node_by_key("b1").id: np.array([[1 - call, call]])}


def test_equilibrium_figures(toy):
    game, solution = toy
    bet_air = solution.strategy[game.node_by_key("").id][1, 1]
    assert 0.8 * bet_air == pytest.approx(0.04, abs=1e-9)  # bluffs 4% of all hands
    assert solution.strategy[game.node_by_key("b1").id][0, 1] == pytest.approx(0.8, abs=1e-9)
    assert game.bettor_share(solution.value) == pytest.approx(0.96, abs=1e-9)
    expected = river_toy_equilibrium(4, 1, 0.2)
    assert (expected.bluff_fraction, expected.call_probability) == pytest.approx((0.04, 0.8))


@pytest.mark.parametrize("call", [0.0, 1.0])
def test_equilibrium_bettor_earns_096_against_any_caller(toy, call):
    game, solution = toy
    profile = {**_bettor(game, 0.05), **_caller(game, call)}
    assert game.bettor_share(expected_values(game, profile).totals[0]) == pytest.approx(0.96)


@pytest.mark.parametrize(("bet_air", "share"), [(0.0, 0.8), (1.0, 0.2)])
def test_unbalanced_bettors_against_best_response(toy, bet_air, share):
    game, _ = toy
    response = best_response(game, _bettor(game, bet_air), 1)
    assert game.bettor_share(-response.value) == pytest.approx(share)


@pytest.mark.parametrize("size", [0.5, 1.0, 2.0, 3.0])
def test_clairvoyance_formulas(size):
    game = load_game(f"river_toy(pot=1,bets={size},nuts=0.5)")
    solution = solve_lp(game)
    token = game.child("", 1).key
    bluff = solution.strategy[game.node_by_key("").id][1, 1]
    call = solution.strategy[game.node_by_key(token).id][0, 1]
    assert bluff == pytest.approx(size / (1 + size), abs=1e-9)
    assert call == pytest.approx(1 / (1 + size), abs=1e-9)


def test_several_sizes_solve_and_bettor_does_at_least_as_well():
    one = solve_lp(load_game("river_toy(pot=4,bets=1,nuts=0.2)")).value
    many = solve_lp(load_game("river_toy(pot=4,bets=[0.5,1,2],nuts=0.2)")).value
    assert many >= one - 1e-12
