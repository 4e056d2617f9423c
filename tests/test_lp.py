"""The sequence-form LP: feasibility of its plans and values confirmed by best response."""

import numpy as np
import pytest

from solvers.exact.evaluation import expected_values, exploitability
from solvers.exact.lp import build_sequence_form, plan_to_strategy, solve_lp, strategy_to_plan
from solvers.games import load_game, random_strategy

SPECS = [
    "kuhn",
    "kuhn(cards=6,ante=2,bet=3)",
    "leduc",
    "leduc(max_raises=1)",
    "von_neumann(ante=1,bet=2,bins=30)",
    "river_toy(pot=4,bets=[0.5,1,2],nuts=0.3)",
    "matrix([[1,-2,0],[-1,3,2]])",
]


@pytest.mark.parametrize("spec", SPECS)
def test_lp_value_is_confirmed_by_exact_best_response(spec):
    game = load_game(spec)
    solution = solve_lp(game)
    measured = exploitability(game, solution.strategy)
    assert measured.exploitability < 1e-9
    assert measured.game_value == pytest.approx(solution.value, abs=1e-9)
    assert solution.seconds >= 0


def test_sequence_form_shapes_for_kuhn():
    game = load_game("kuhn")
    form = build_sequence_form(game)
    # Empty sequence + 2 decision nodes x 3 hands x 2 actions, per player.
    assert form.n_sequences == [13, 13]
    assert [c.shape[0] for c in form.constraints] == [7, 7]
    assert form.payoff.shape == (13, 13)


@pytest.mark.parametrize("spec", ["kuhn", "leduc", "river_toy(bets=[1,2])"])
def test_plans_satisfy_the_constraints_and_payoff_matches_ev(spec):
    game = load_game(spec)
    form = build_sequence_form(game)
    profile = random_strategy(game, np.random.default_rng(11))
    plans = [strategy_to_plan(game, form, p, profile) for p in (0, 1)]
    for player in (0, 1):
        flow = form.constraints[player] @ plans[player]
        np.testing.assert_allclose(flow, np.eye(1, len(flow))[0], atol=1e-12)
        back = plan_to_strategy(game, form, player, plans[player])
        for nid, probs in back.items():
            np.testing.assert_allclose(probs, profile[nid], atol=1e-12)
    ev = plans[0] @ (form.payoff @ plans[1])
    assert ev == pytest.approx(expected_values(game, profile).totals[0], abs=1e-12)
