"""Regret matching on matrix games, and extensive-form fictitious play."""

import numpy as np
import pytest

from solvers.algorithms import make_solver, regret_matching
from solvers.exact.evaluation import reaches
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from tests.equilibrium_checks import assert_near_equilibrium

PAPER = [0.0, 1.0, 0.0]


def test_regret_matching_rule():
    np.testing.assert_allclose(regret_matching(np.array([2.0, -1.0, 6.0])), [0.25, 0.0, 0.75])
    np.testing.assert_allclose(regret_matching(np.array([-2.0, 0.0])), [0.5, 0.5])


@pytest.mark.parametrize("algo", ["rm", "rm+"])
def test_rps_against_40_30_30_converges_to_always_paper(algo):
    solver = make_solver(load_game("matrix(rps)"), algo, opponent=[0.4, 0.3, 0.3])
    solver.run(iterations=1000)
    np.testing.assert_allclose(solver.current_strategy()[0][0], PAPER)
    np.testing.assert_allclose(solver.average_strategy()[0][0], PAPER, atol=1e-3)
    np.testing.assert_allclose(solver.average_strategy()[1][0], [0.4, 0.3, 0.3])
    # against 40/30/30, Paper earns 0.1: the profile's value for the learner
    assert solver.metrics().game_value == pytest.approx(0.1, abs=1e-3)


@pytest.mark.parametrize(
    ("algo", "alternating", "tolerance"),
    [("rm", False, 0.01), ("rm+", False, 0.01), ("rm", True, 1e-3), ("rm+", True, 1e-3)],
)
def test_rps_self_play_average_converges_to_uniform(algo, alternating, tolerance):
    """Measured exploitability after 10^4: 0.0101 (rm), 0.0056 (rm+), 1.3e-5 / 9e-5 alternating."""
    solver = make_solver(load_game("matrix(rps)"), algo, seed=3, alternating=alternating)
    assert np.abs(solver.current_strategy()[0][0] - 1 / 3).max() > 0.05  # starts elsewhere
    solver.run(iterations=10_000)
    # measured max deviation: 5.6e-3 (rm), 4.2e-3 (rm+), 2.5e-6 / 6e-5 alternating
    for player in (0, 1):
        np.testing.assert_allclose(solver.average_strategy()[player][0], 1 / 3, atol=tolerance)
    assert solver.metrics().exploitability < 2 * tolerance


@pytest.mark.parametrize("algo", ["rm", "rm+"])
def test_matrix_self_play_reaches_the_lp_value(algo):
    game = load_game("matrix(payoff=[[3,-1],[-2,1]])")
    metrics = make_solver(game, algo).run(iterations=10_000).metrics()
    assert metrics.game_value == pytest.approx(solve_lp(game).value, abs=1e-3)  # 1/7
    assert metrics.exploitability < 0.02  # measured 0.011 (rm), 0.006 (rm+)


# --- fictitious play -------------------------------------------------------------------------


@pytest.mark.parametrize("weighting", ["uniform", "linear"])
def test_fictitious_play_converges_on_kuhn(weighting):
    game = load_game("kuhn")
    solver = make_solver(game, "fp", weighting=weighting)
    seen = []
    for _ in range(3):
        seen.append(solver.run(iterations=100).metrics().exploitability)
    solver.run(iterations=700)
    final = solver.metrics()
    # measured at 1000 iterations: 7.3e-3 (uniform), 7.7e-3 (linear); uniform play has 0.458
    assert_near_equilibrium(
        game, solver.strategy(), value=-1 / 18, max_exploitability=0.01, reported=final
    )
    assert final.exploitability < seen[0] < 0.05
    assert final.game_value == pytest.approx(-1 / 18, abs=5e-4)  # measured 7.9e-5, 6.0e-5


def test_fictitious_play_mixes_realization_plans():
    """The average is the mean of the iterates' realization plans, not of their probabilities."""
    game = load_game("kuhn")
    solver = make_solver(game, "fp")
    profiles = [solver.current_strategy()]  # the uniform start
    for _ in range(6):
        solver.run(iterations=1)
        profiles.append(solver.current_strategy())
    average = solver.average_strategy()
    for player in (0, 1):
        own_reach = [reaches(game, profile, player) for profile in profiles]
        for node in game.decision_nodes(player):
            plans = [
                r[node.id][:, None] * p[node.id] for r, p in zip(own_reach, profiles, strict=True)
            ]
            mean_plan = np.mean(plans, axis=0)
            reach_here = mean_plan.sum(axis=1, keepdims=True)
            expected = np.where(
                reach_here > 0, mean_plan / np.where(reach_here > 0, reach_here, 1), 0.5
            )
            np.testing.assert_allclose(average[node.id], expected, atol=1e-12)
