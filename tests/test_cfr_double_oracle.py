"""Double oracle reaches NashConv 0 on Kuhn and on Koller's 8-card Kuhn (seed 003)."""

import numpy as np
import pytest

from solvers.algorithms import make_solver, solve
from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game


def _run_to_convergence(game, limit=50):
    solver = make_solver(game, "double-oracle")
    while not solver.converged and solver.iterations < limit:
        solver.run(iterations=1)
    return solver


@pytest.mark.parametrize(
    ("spec", "iterations", "supports"),
    [("kuhn", 9, [3, 3]), ("kuhn(cards=8)", 15, [4, 3])],  # measured
)
def test_double_oracle_reaches_nash_conv_zero(spec, iterations, supports):
    game = load_game(spec)
    solver = _run_to_convergence(game)
    assert solver.converged
    assert solver.iterations == iterations
    assert solver.support_sizes() == supports
    measured = exploitability(game, solver.average_strategy())
    assert measured.nash_conv == pytest.approx(0.0, abs=1e-9)
    assert measured.game_value == pytest.approx(solve_lp(game).value, abs=1e-9)
    history = solver.history
    assert history[0]["nash_conv"] > 1.0
    assert history[-1]["nash_conv"] == pytest.approx(0.0, abs=1e-9)
    assert all(s <= p for h in history for s, p in zip(h["support"], h["population"], strict=True))
    # populations stay far below the pure strategy counts (2^12 per player in Kuhn)
    assert max(len(population) for population in solver.populations) < 20


def test_double_oracle_through_solve_and_checkpoint(tmp_path):
    game = load_game("kuhn")
    _, metrics = solve(game, "double-oracle", target_exploitability=1e-12, check_every=1)
    assert metrics.exploitability <= 1e-12
    straight = make_solver(game, "double-oracle").run(iterations=6)
    first = make_solver(game, "double-oracle").run(iterations=3)
    path = first.save_checkpoint(tmp_path / "do.npz")
    resumed = make_solver(game, "double-oracle")
    resumed.load_checkpoint(path)
    resumed.run(iterations=3)
    assert resumed.history == straight.history
    np.testing.assert_array_equal(resumed.payoff, straight.payoff)
