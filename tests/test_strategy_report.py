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
    node_report,
    subtree_gains,
)
from solvers.strategy_file import load_strategy
from tests import kuhn_brute_force as kuhn
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
    assert report.aggregate.sum() == pytest.approx(1.0)
    for seat_range in report.ranges:
        assert seat_range is not None and seat_range.sum() == pytest.approx(1.0)
    assert report.action_evs.shape == report.probs.shape


def kuhn_probs(game, strategy) -> dict[str, np.ndarray]:
    return {node.key: np.asarray(strategy[node.id]) for node in game.decision_nodes()}


def test_kuhn_equilibrium_node_report_has_the_closed_form_figures():
    """Seat 1 never bets and calls Q 1/3 facing a bet after checking; seat 2 bets J 1/3, K always.

    Facing that bet, seat 1's range is J 3/8, Q 1/2, K 1/8 (J:Q:K = 1 : 4/3 : 1/3), calling is
    worth -2 with J, -1 with Q (the indifference that makes calling Q 1/3 of the time right) and +2
    with K, folding -1, and the call frequency over the range is 7/24.
    """
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    report = node_report(loaded.game, loaded.strategy, "c/b")
    assert report.reach_weight / report.reach_weight.sum() == pytest.approx([3 / 8, 1 / 2, 1 / 8])
    assert report.reach_probability == pytest.approx(4 / 9, abs=1e-6)  # 1/6 + 2/9 + 1/18
    assert report.aggregate == pytest.approx([17 / 24, 7 / 24], abs=1e-6)
    np.testing.assert_allclose(report.action_evs, [[-1, -2], [-1, -1], [-1, 2]], atol=1e-5)
    assert report.ranges[0] == pytest.approx([3 / 8, 1 / 2, 1 / 8], abs=1e-6)
    assert report.ranges[1] == pytest.approx([1 / 4, 0, 3 / 4], abs=1e-6)  # who bets: J 1/3, K 1


def test_node_reports_of_a_mixed_kuhn_profile_equal_brute_force():
    game = load_strategy(STRATEGIES / "kuhn.json").game
    rng = np.random.default_rng(4)
    strategy = {}
    for node in game.decision_nodes():
        rows = rng.uniform(0.05, 1, size=(3, 2))
        strategy[node.id] = rows / rows.sum(axis=1, keepdims=True)
    probs = kuhn_probs(game, strategy)
    for node in game.decision_nodes():
        report = node_report(game, strategy, node)
        actor_range = kuhn.bayes_range(probs, node.key, node.player)
        np.testing.assert_allclose(report.reach_weight / report.reach_weight.sum(), actor_range)
        np.testing.assert_allclose(report.aggregate, actor_range @ probs[node.key])
        for seat in (0, 1):
            np.testing.assert_allclose(report.ranges[seat], kuhn.bayes_range(probs, node.key, seat))
        for card in range(3):
            expected = kuhn.info_set_action_values(probs, node.key, card, respond=False)
            np.testing.assert_allclose(report.action_evs[card], expected, rtol=1e-12)
    root = node_report(game, strategy, "")
    assert root.reach_probability == pytest.approx(1.0)
    np.testing.assert_allclose(root.aggregate, probs[""].mean(axis=0))


@pytest.mark.parametrize("which", ["uniform", "file"])
def test_kuhn_gains_equal_brute_force(which):
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    game = loaded.game
    strategy = uniform(game) if which == "uniform" else loaded.strategy
    probs = kuhn_probs(game, strategy)
    value = kuhn.seat0_value(probs)
    for player, sign in ((0, 1.0), (1, -1.0)):
        brute_gain = kuhn.best_response_value(probs, player) - sign * value
        subtree, local = subtree_gains(game, strategy, player)
        assert subtree[0] == pytest.approx(brute_gain, abs=1e-12)
        for node in game.decision_nodes(player):
            assert local[node.id] == pytest.approx(kuhn.local_gain(probs, node.key), abs=1e-12)
    report = exploit_report(game, strategy)
    assert report.expected_values[0] == pytest.approx(value, abs=1e-12)


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
    """Against uniform play (brute force: NashConv 11/12, seat 1's EV +1/8), seat 2 gains most
    facing a bet, 5/12 of a chip: folding J and calling K and Q (Q wins against J's bluffs)."""
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    game = loaded.game
    report = exploit_report(game, uniform(game))
    assert report.exploitability.nash_conv == pytest.approx(11 / 12)
    assert report.expected_values == pytest.approx((1 / 8, -1 / 8))
    top = report.gains[1][0]  # seat 2 against uniform seat 1: biggest gain first
    assert top.key == "b" and top.local_gain == pytest.approx(5 / 12)
    assert [g.key for g in report.gains[0]] == ["c/b", ""]  # 5/24, then 1/6
    # the biggest per-hand gain: K calls instead of folding half the time (+2 vs -1, where J
    # gains only -1 vs -2 by folding)
    assert (top.top_hand, top.top_action) == ("K", "call")


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


def test_compare_kuhn_files_against_brute_force():
    loaded = load_strategy(STRATEGIES / "kuhn.json")
    game = loaded.game
    a, b = kuhn_probs(game, loaded.strategy), kuhn_probs(game, uniform(game))
    comparison = compare_strategies(game, loaded.strategy, game, uniform(game))
    seat1 = {"": a[""], "c/b": a["c/b"], "c": b["c"], "b": b["b"]}
    seat2 = {"": b[""], "c/b": b["c/b"], "c": a["c"], "b": a["b"]}
    assert comparison.a_vs_b == pytest.approx(kuhn.seat0_value(seat1), abs=1e-12)  # 1/18
    assert comparison.b_vs_a == pytest.approx(kuhn.seat0_value(seat2), abs=1e-12)  # -1/6
    assert comparison.values == pytest.approx((kuhn.seat0_value(a), kuhn.seat0_value(b)))
    assert (comparison.a_vs_b, comparison.b_vs_a) == pytest.approx((1 / 18, -1 / 6), abs=1e-6)
    # seat 1 at the root: the file always checks, uniform checks half the time, over every hand
    root = next(d for d in comparison.nodes if d.key == "")
    assert root.difference == pytest.approx(0.5)
    # facing a bet after checking: the files' reach weights averaged, times
    # half the L1 distance of the rows (J 1/2, Q 1/6, K 1/2)
    # (unnormalised: deal 1/6 per pair, times both seats' actions on the way)
    weights = 0.5 * (np.array([1, 4 / 3, 1 / 3]) / 6 + np.full(3, 1 / 12))
    expected = weights @ [1 / 2, 1 / 6, 1 / 2] / weights.sum()
    facing = next(d for d in comparison.nodes if d.key == "c/b")
    assert facing.difference == pytest.approx(expected, abs=1e-6)


def test_compare_with_itself_and_uniform(leduc):
    game = leduc.game
    same = compare_strategies(game, leduc.strategy, game, leduc.strategy)
    assert all(d.difference == 0 for d in same.nodes)
    assert same.a_vs_b == pytest.approx(same.values[0])
    other = uniform(game)
    diff = compare_strategies(game, leduc.strategy, game, other)
    assert max(d.difference for d in diff.nodes) > 0.1
    assert all(0 <= d.difference <= 1 for d in diff.nodes)
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
