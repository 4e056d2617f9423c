"""The shipped Leduc bot plays both suits alike, and averaging over suits keeps an equilibrium."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.runs.suit_symmetry import game_suits, suit_maps, suit_symmetric
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES

SWAP = {"s": "h", "h": "s"}


def assert_suit_symmetric(game, strategy, atol):
    hands, nodes = suit_maps(game, SWAP)
    for node in game.decision_nodes():
        rows = np.asarray(strategy[node.id])
        swapped = np.asarray(strategy[int(nodes[node.id])])[hands[node.player]]
        np.testing.assert_allclose(rows, swapped, atol=atol, err_msg=node.key)


def test_suit_maps_relabel_hands_and_boards():
    game = load_game("leduc()")
    assert game_suits(game) == "sh"
    hands, nodes = suit_maps(game, SWAP)
    labels = game.hand_labels[0]
    assert [labels[i] for i in hands[0]] == ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]
    assert game.nodes[nodes[game.node_by_key("c/c/Qs/r").id]].key == "c/c/Qh/r"
    assert nodes[game.node_by_key("r").id] == game.node_by_key("r").id
    assert game_suits(load_game("kuhn()")) == ""
    assert game_suits(load_game("push_fold(stack_bb=10)")) == ""


def test_shipped_leduc_treats_the_suits_alike():
    loaded = load_strategy(STRATEGIES / "leduc.json")
    game = loaded.game
    # identical to the file's six decimals: the rows are equal before rounding
    assert_suit_symmetric(game, loaded.strategy, atol=1e-9)
    root = np.asarray(loaded.strategy[game.root.id])
    np.testing.assert_array_equal(root[0::2], root[1::2])  # Js plays as Jh, Qs as Qh...
    # the file's recorded exploitability is what an exact best response measures now
    measured = exploitability(game, loaded.strategy)
    assert loaded.measured.exploitability == pytest.approx(measured.exploitability, rel=1e-6)
    assert measured.exploitability < 1e-5
    assert "suit permutations" in loaded.solver.settings["method"]


def test_averaging_the_lp_equilibrium_over_suits_keeps_it_an_equilibrium():
    game = load_game("leduc()")
    solution = solve_lp(game)
    symmetric = suit_symmetric(game, solution.strategy)
    assert_suit_symmetric(game, symmetric, atol=1e-12)
    report = exploitability(game, symmetric)
    assert report.exploitability < 1e-6
    assert report.game_value == pytest.approx(solution.value, abs=1e-6)


def test_averaging_a_random_profile_gives_a_symmetric_one():
    game = load_game("leduc()")
    rng = np.random.default_rng(0)
    profile = {}
    for node in game.decision_nodes():
        rows = rng.random((game.n_hands[node.player], len(node.actions)))
        profile[node.id] = rows / rows.sum(axis=1, keepdims=True)
    symmetric = suit_symmetric(game, profile)
    assert_suit_symmetric(game, symmetric, atol=1e-12)
    # a hand's root row is the mean of its two suits' rows (no earlier action to weight it)
    root = profile[game.root.id]
    np.testing.assert_allclose(symmetric[game.root.id][0], (root[0] + root[1]) / 2)
