"""The explorer's numbers: node reports, hand paths, best-response gains and comparisons."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from solvers.exact.evaluation import best_response, expected_values, exploitability
from solvers.reports.strategy_report import (
    GameMismatchError,
    best_response_gains,
    compare_strategies,
    exploit_report,
    find_hand,
    hand_path,
    mixed_profile,
    node_report,
    subtree_gains,
)
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES

FILES = ["kuhn.json", "leduc.json", "river_toy.json", "push_fold_10bb.json", "von_neumann.json"]


def uniform(game):
    return {
        n.id: np.full((game.n_hands[n.player], len(n.actions)), 1 / len(n.actions))
        for n in game.decision_nodes()
    }


@pytest.fixture(scope="module")
def leduc():
    return load_strategy(STRATEGIES / "leduc.json")


def test_node_report_matches_the_file(leduc):
    game = leduc.game
    raw = json.loads((STRATEGIES / "leduc.json").read_text())["nodes"]["c/r"]
    report = node_report(game, leduc.strategy, "c/r")
    assert report.player == 0 and report.actions == tuple(raw["actions"])
    np.testing.assert_allclose(report.probs, raw["probs"])
    expected = report.reach_weight @ report.probs / report.reach_weight.sum()
    np.testing.assert_allclose(report.aggregate, expected)
    assert report.aggregate.sum() == pytest.approx(1.0)
    for seat_range in report.ranges:
        assert seat_range is not None and seat_range.sum() == pytest.approx(1.0)
    assert report.action_evs.shape == report.probs.shape


def test_kuhn_root_aggregate_is_the_prior_average():
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    report = node_report(loaded.game, loaded.strategy, "")
    np.testing.assert_allclose(report.aggregate, report.probs.mean(axis=0))
    assert report.reach_probability == pytest.approx(1.0)


@pytest.mark.parametrize("name", FILES)
def test_gains_are_non_negative_and_add_up(name):
    loaded = load_strategy(STRATEGIES / name)
    game = loaded.game
    for strategy in (loaded.strategy, uniform(game)):
        values = expected_values(game, strategy).totals
        for player in (0, 1):
            br = best_response(game, strategy, player).value
            subtree, local = subtree_gains(game, strategy, player)
            assert subtree.min() >= -1e-9 and local.min() >= -1e-9
            assert subtree[0] == pytest.approx(br - values[player], abs=1e-9)
            assert local.sum() == pytest.approx(br - values[player], abs=1e-9)
            gains = best_response_gains(game, strategy, player)
            assert [g.local_gain for g in gains] == sorted(
                (g.local_gain for g in gains), reverse=True
            )


def test_uniform_kuhn_gains_point_at_the_right_hands():
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    game = loaded.game
    report = exploit_report(game, uniform(game))
    assert report.exploitability.nash_conv == pytest.approx(11 / 12)
    top = report.gains[1][0]  # seat 2 against uniform seat 1: biggest gain first
    assert top.local_gain > 0 and top.top_hand in game.hand_labels[1]
    assert report.expected_values[0] == pytest.approx(-report.expected_values[1])
    assert (
        report.exploitability.exploitability == exploitability(game, uniform(game)).exploitability
    )


def test_hand_path_follows_own_actions():
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    game = loaded.game
    assert find_hand(game, "q") == [(0, 1), (1, 1)]
    steps = hand_path(game, loaded.strategy, 0, 2)  # seat 1 holding K
    keys = [s.key for s in steps]
    assert keys[0] == ""
    for step in steps:
        row = loaded.strategy[game.node_by_key(step.key).id][2]
        np.testing.assert_allclose(step.probs, row)
    if "c/b" in keys:  # K reaches c/b only by checking first
        root = loaded.strategy[0][2]
        assert steps[keys.index("c/b")].own_reach == pytest.approx(root[0])


def test_compare_with_itself_and_uniform(leduc):
    game = leduc.game
    same = compare_strategies(game, leduc.strategy, game, leduc.strategy)
    assert all(d.difference == 0 for d in same.nodes)
    assert same.a_vs_b == pytest.approx(same.values[0])
    other = uniform(game)
    diff = compare_strategies(game, leduc.strategy, game, other)
    assert max(d.difference for d in diff.nodes) > 0.1
    assert all(0 <= d.difference <= 1 for d in diff.nodes)
    expected = expected_values(game, mixed_profile(game, leduc.strategy, other)).totals[0]
    assert diff.a_vs_b == pytest.approx(expected)
    # near equilibrium: each side loses at most its exploitability against the other
    br = exploitability(game, leduc.strategy).best_responses
    assert diff.a_vs_b >= -br[1].value - 1e-9
    assert diff.b_vs_a <= br[0].value + 1e-9


def test_compare_other_game_is_refused(leduc):
    kuhn = load_strategy(STRATEGIES / "kuhn.json")
    with pytest.raises(GameMismatchError, match="same game"):
        compare_strategies(leduc.game, leduc.strategy, kuhn.game, kuhn.strategy)


def test_no_textual_import():
    code = (
        "import sys, solvers.reports.strategy_report;"
        " assert 'textual' not in sys.modules, 'textual'"
    )
    code += "; assert 'rich' not in sys.modules, 'rich'"
    subprocess.run([sys.executable, "-c", code], check=True)
