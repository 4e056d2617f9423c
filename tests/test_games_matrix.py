"""Matrix games, solved in normal form."""

import numpy as np
import pytest

from solvers.exact.evaluation import best_response, expected_values, exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game, uniform_strategy


@pytest.mark.parametrize("spec", ["matrix(rps)", "matrix([[0,-1,1],[1,0,-1],[-1,1,0]])", "matrix"])
def test_rock_paper_scissors(spec):
    game = load_game(spec)
    solution = solve_lp(game)
    assert solution.value == pytest.approx(0, abs=1e-12)
    for player in (0, 1):
        np.testing.assert_allclose(solution.strategy[player], [[1 / 3] * 3], atol=1e-9)
    assert exploitability(game, solution.strategy).exploitability < 1e-12
    if "[" not in spec:
        assert game.legal_actions("row") == ["rock", "paper", "scissors"]


def test_user_matrix():
    # Row mixes (1/2, 1/2), column (1/4, 3/4): value 3/2.
    game = load_game("matrix([[3,1],[0,2]])")
    solution = solve_lp(game)
    assert solution.value == pytest.approx(1.5, abs=1e-9)
    np.testing.assert_allclose(solution.strategy[0], [[0.5, 0.5]], atol=1e-9)
    np.testing.assert_allclose(solution.strategy[1], [[0.25, 0.75]], atol=1e-9)


def test_saddle_point_and_best_response():
    game = load_game("matrix([[2,3],[1,4]])")  # saddle at (row 0, column 0)
    assert solve_lp(game).value == pytest.approx(2.0)
    uniform = uniform_strategy(game)
    assert expected_values(game, uniform).totals[0] == pytest.approx(2.5)
    response = best_response(game, uniform, 1)
    assert response.value == pytest.approx(-1.5)
    np.testing.assert_array_equal(response.strategy[1], [[1.0, 0.0]])
