"""The one regret-matching rule, in its array, segmented, scalar and two-action forms."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.algorithms.matching import (
    regret_matching,
    regret_matching_pair,
    regret_matching_scalar,
)
from solvers.exact.walk import build_plan
from solvers.games import load_game

regret_rows = st.lists(
    st.floats(-10, 10, allow_nan=False, allow_subnormal=False), min_size=1, max_size=6
)


def test_known_values():
    np.testing.assert_allclose(regret_matching(np.array([3.0, -1.0, 1.0])), [0.75, 0.0, 0.25])
    np.testing.assert_allclose(regret_matching(np.array([-3.0, 0.0])), [0.5, 0.5])
    assert regret_matching_pair(2.0, 6.0) == 0.25
    assert regret_matching_pair(-1.0, 0.0) == 0.5


@settings(max_examples=200, deadline=None)
@given(regret_rows)
def test_every_form_agrees(row):
    expected = regret_matching_scalar(row)
    np.testing.assert_allclose(regret_matching(np.array(row)), expected, rtol=1e-12)
    assert abs(sum(expected) - 1.0) < 1e-12 and min(expected) >= 0.0
    if len(row) == 2:
        assert abs(regret_matching_pair(*row) - expected[0]) < 1e-12


def test_segmented_form_matches_each_decision_on_its_own():
    game = load_game("leduc")
    plan = build_plan(game)
    player = 1
    regrets = np.random.default_rng(2).normal(size=(plan.edges[player].n_edges, 6))
    regrets[plan.edges[player].first_edge[:5]] = -1.0  # some decisions with no positive regret
    edges = plan.edges[player]
    uniform = np.repeat(1.0 / edges.n_actions, edges.n_actions)[:, None]
    current = regret_matching(
        regrets, lambda per_edge: plan.segment_sums(player, per_edge), uniform
    )
    for first, count in zip(edges.first_edge, edges.n_actions, strict=True):
        block = regrets[first : first + count]
        np.testing.assert_allclose(current[first : first + count], regret_matching(block.T).T)
