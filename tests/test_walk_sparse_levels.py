"""The level walk's sparse branch: levels wider than ``_DENSE_SUM_LIMIT`` sum children through a
scipy CSR matrix instead of a dense 0/1 product.

No registered game reaches the limit at its default (1 << 16 parent-child pairs): the widest level
of ``leduc(max_raises=4)`` has 28,152 and the others are far smaller, so without these tests the
sparse branch would only ever run on the hold'em engine. Lowering the limit makes Leduc's wide
levels sparse and keeps its narrow ones dense, so one plan mixes both; its results must equal the
all-dense plan's and independent figures (the node-by-node evaluation walk, the LP value).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from solvers.algorithms import make_solver
from solvers.exact import walk
from solvers.exact.evaluation import exploitability
from solvers.games import random_strategy
from solvers.games.spec import GAMES, parse_spec
from tests.reference_walk import counterfactual_values, reaches

LEDUC_VALUE = -0.085606424078001
"""Seat 1's Leduc value from the sequence-form LP (tests/test_lp.py; OpenSpiel agrees)."""
SPARSE_LIMIT = 1000
"""Leduc levels of 3,822 pairs and more go sparse below this limit; 656 and less stay dense."""


def fresh_game(spec: str):
    """A newly built game: ``load_game`` caches games, and the plan is cached on the game."""
    name, params = parse_spec(spec)
    return GAMES[name].from_params(params)


def level_pairs(plan) -> list[int]:
    return [(lv.parent_stop - lv.parent_start) * (lv.stop - lv.start) for lv in plan.levels]


@pytest.fixture
def sparse_leduc(monkeypatch):
    """A fresh Leduc game whose cached plan was built under the lowered limit."""
    monkeypatch.setattr(walk, "_DENSE_SUM_LIMIT", SPARSE_LIMIT)
    game = fresh_game("leduc")
    walk.build_plan(game)
    return game


def test_default_limit_keeps_every_registered_game_dense():
    for spec in ("leduc", "leduc(max_raises=4)", "kuhn(cards=13)", "von_neumann(bins=200)"):
        plan = walk.build_plan(fresh_game(spec))
        assert max(level_pairs(plan)) <= walk._DENSE_SUM_LIMIT, spec
        assert all(isinstance(lv.sum_children, np.ndarray) for lv in plan.levels), spec


def test_lowered_limit_gives_a_mixed_plan(sparse_leduc):
    plan = walk.build_plan(sparse_leduc)
    kinds = [sp.issparse(lv.sum_children) for lv in plan.levels]
    assert any(kinds) and not all(kinds)
    for level, pairs in zip(plan.levels, level_pairs(plan), strict=True):
        assert sp.issparse(level.sum_children) == (pairs > SPARSE_LIMIT)
        matrix = level.sum_children
        dense = matrix.toarray() if sp.issparse(matrix) else matrix
        # each child sums into exactly its parent
        np.testing.assert_array_equal(dense.sum(axis=0), 1.0)
        np.testing.assert_array_equal(dense.argmax(axis=0), level.parent_index)


@pytest.mark.parametrize("player", [0, 1])
def test_sparse_value_pass_equals_the_node_by_node_walk(sparse_leduc, player):
    game = sparse_leduc
    plan = walk.build_plan(game)
    strategy = random_strategy(game, np.random.default_rng(11))
    factor = plan.fixed_factor.copy()
    for p, edges in enumerate(plan.edges):
        factor[edges.rows, p, : game.n_hands[p]] = plan.per_edge(p, strategy)
    reach = walk.reach_pass(plan, factor, np.zeros_like(factor))
    values = walk.value_pass(
        game, plan, player, factor, reach, np.zeros((plan.n_rows, plan.max_hands))
    )
    expected, _ = counterfactual_values(game, strategy, player, reaches(game, strategy, 1 - player))
    n_hands = game.n_hands[player]
    for node in game.nodes:
        got = values[plan.row_of_node[node.id], :n_hands]
        np.testing.assert_allclose(got, expected[node.id], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("variant", ["cfr", "dcfr"])
def test_cfr_on_sparse_levels_follows_the_dense_run(sparse_leduc, monkeypatch, variant):
    sparse_run = make_solver(sparse_leduc, variant).run(iterations=200)
    assert any(sp.issparse(lv.sum_children) for lv in sparse_run.plan.levels)
    monkeypatch.undo()
    dense_game = fresh_game("leduc")
    dense_run = make_solver(dense_game, variant).run(iterations=200)
    assert not any(sp.issparse(lv.sum_children) for lv in dense_run.plan.levels)
    ours, theirs = sparse_run.average_strategy(), dense_run.average_strategy()
    for node_id, probs in theirs.items():
        np.testing.assert_allclose(ours[node_id], probs, rtol=0, atol=1e-12)


def test_dcfr_on_sparse_levels_reaches_the_lp_value(sparse_leduc, monkeypatch):
    solver = make_solver(sparse_leduc, "dcfr").run(iterations=1000)
    metrics = solver.metrics()
    assert metrics.exploitability < 5e-4  # the dense run measures 1.6e-4
    # |value - v*| <= exploitability for any profile of a zero-sum game
    assert abs(metrics.game_value - LEDUC_VALUE) <= metrics.exploitability
    monkeypatch.undo()
    dense = exploitability(fresh_game("leduc"), solver.average_strategy())
    assert dense.exploitability == pytest.approx(metrics.exploitability, rel=1e-9)
    assert dense.game_value == pytest.approx(metrics.game_value, rel=1e-9)
