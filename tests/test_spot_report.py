"""Spot views of a strategy: equity by brute force, class grids, per-card reports, CLI."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from pokertui.cli import main
from solvers.algorithms.full_width import FullWidthCFR
from solvers.cards.deck import CLASS_LABELS, COMBO_CARDS, COMBO_CLASS, parse_cards
from solvers.cards.evaluator import evaluate
from solvers.exact.evaluation import action_values, bayes_range
from solvers.games import load_game
from solvers.reports.by_card import by_next_card
from solvers.reports.spot_equity import equity_vs_range
from solvers.reports.spot_report import (
    class_combos,
    class_mix,
    distributions,
    node_equities,
)
from solvers.reports.strategy_report import node_report
from solvers.strategy_file import save_strategy

TURN_SPOT = """\
board = "Qs Jh 2h 8d"
pot = 100
stack = 200
oop_range = "99+, AQs+, KQs, T9s, 54s, A5s"
ip_range = "TT+, AJs+, KJs, QJs, 97s, 65s, A4s"

[turn]
oop_bet = "50%"
ip_bet = "75%"
oop_raise = "a"
ip_raise = "a"

[river]
oop_bet = "50%"
ip_bet = "75%"
oop_raise = "a"
ip_raise = "a"
"""


def _brute_equity(board, own, opp, weights):
    """Every opponent combo and every runout, one 7-card evaluation at a time."""
    deck = [c for c in range(52) if c not in board]
    out = []
    for h in own:
        won = seen = 0.0
        for o, w in zip(opp, weights, strict=True):
            used = set(COMBO_CARDS[h]) | set(COMBO_CARDS[o])
            if len(used) < 4 or used & set(board):
                continue
            for extra in combinations([c for c in deck if c not in used], 5 - len(board)):
                cards = [*board, *extra]
                mine = evaluate(np.array([[*cards, *COMBO_CARDS[h]]]))[0]
                theirs = evaluate(np.array([[*cards, *COMBO_CARDS[o]]]))[0]
                won += w * (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
                seen += w
        out.append(won / seen if seen else np.nan)
    return np.array(out)


@pytest.mark.parametrize("board_text", ["Qs Jh 2h 8d 3c", "Qs Jh 2h 8d"])
def test_equity_matches_brute_force_with_card_removal(board_text):
    board = tuple(parse_cards(board_text))
    live = np.array([c for c in range(1326) if not set(COMBO_CARDS[c]) & set(board)])
    rng = np.random.default_rng(7)
    own = rng.choice(live, 10, replace=False)
    opp = rng.choice(live, 30, replace=False)
    own[0] = opp[0]  # the same combo in both ranges
    weights = rng.random(30)
    got = equity_vs_range(board, own, opp, weights)
    assert np.allclose(got, _brute_equity(board, own, opp, weights), atol=1e-12)


FLOP = (
    'nlhe(board="Qs Jh 2h",pot=100,stack=100,oop_range="AA,KK,AKs,T9s,76s,QJo",'
    'ip_range="AA,JJ,AQs,98s,65s,KQo",flop_oop_bet="a",flop_ip_bet="a",'
    'turn_oop_bet="75%",turn_ip_bet="75%",river_oop_bet="75%",river_ip_bet="75%")'
)


@pytest.mark.parametrize("street", ["flop", "turn", "river"])
def test_spot_equity_from_the_game_tables_is_the_runout_equity(street):
    """The spot's own showdown tables (the terminal kernels' sweep over every runout) give
    each hand's equity as the sorted-strength routine above, checked by brute force."""
    from solvers.reports.spot_equity import spot_equity

    game = load_game(FLOP)
    board = tuple(int(c) for c in game.root.board)
    board += tuple(parse_cards({"flop": "", "turn": "Kd", "river": "Kd 9c"}[street]))
    rng = np.random.default_rng(len(board))
    combos = game.hand_combos
    for player in (0, 1):
        weights = rng.random(game.n_hands[1 - player]) * (
            rng.random(game.n_hands[1 - player]) > 0.2
        )
        got = spot_equity(game, board, player, weights)
        want = equity_vs_range(board, combos[player], combos[1 - player], weights)
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.isnan(want).any() == (street != "flop")  # hands holding the Kd
        np.testing.assert_allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=0, atol=1e-12)
        other = equity_vs_range(board, combos[player], combos[1 - player], weights[::-1])
        assert np.nanmax(np.abs(other - want)) > 0.05  # another range: another answer
    assert spot_equity(game, (0, 1, 2), 0, np.ones(game.n_hands[1])) is None  # not this spot's


def test_equity_of_a_random_range_against_itself_averages_one_half():
    board = tuple(parse_cards("Qs Jh 2h 8d"))
    live = np.array([c for c in range(1326) if not set(COMBO_CARDS[c]) & set(board)])
    equity = equity_vs_range(board, live, live, np.ones(len(live)))
    assert np.mean(equity) == pytest.approx(0.5, abs=1e-12)  # every pair counted both ways


@pytest.fixture(scope="module")
def turn_solution(tmp_path_factory):
    folder = tmp_path_factory.mktemp("turn")
    spot = folder / "turn.toml"
    spot.write_text(TURN_SPOT)
    game = load_game(str(spot))
    solver = FullWidthCFR(game, variant="dcfr")
    solver.run(iterations=40)
    path = folder / "turn.json"
    saved = save_strategy(path, game, solver.strategy(), measure_it=False)
    return game, saved.strategy, path


def test_by_card_matches_each_node_measured_on_its_own(turn_solution):
    game, strategy, _ = turn_solution
    report = by_next_card(game, strategy, "x/x")
    chance = game.node_by_key("x/x")
    assert len(report.cards) == len(chance.children) == 48
    masses = []
    for i, key in enumerate(report.node_keys):
        node = game.node_by_key(key)
        reach = bayes_range(game, strategy, node, node.player, normalise=False)
        rows = np.asarray(strategy[node.id])
        evs = action_values(game, strategy, node)
        assert np.allclose(report.frequency[i], reach @ rows / reach.sum(), atol=1e-9)
        taken = reach[:, None] * rows
        expected = np.nansum(taken * evs, axis=0) / taken.sum(axis=0)
        assert np.allclose(report.action_ev[i], expected, atol=1e-7)
        assert report.ev[i] == pytest.approx(np.nansum(taken * evs) / reach.sum(), abs=1e-7)
        masses.append(reach.sum())
    assert np.allclose(report.reach, np.array(masses) / np.sum(masses))
    pattern = by_next_card(game, strategy, "x/x/*")  # the same nodes through a pattern
    assert pattern.node_keys == report.node_keys


def test_class_mix_and_combos_agree_with_the_per_combo_rows(turn_solution):
    game, strategy, _ = turn_solution
    node = game.node_by_key("")
    report = node_report(game, strategy, node)
    mix = class_mix(game, report)
    assert mix.weight.sum() == pytest.approx(1.0)
    classes = COMBO_CLASS[game.hand_combos[0]]
    for label in ("AKs", "99", "T9s"):
        c = CLASS_LABELS.index(label)
        members = classes == c
        w = report.reach_weight[members]
        assert np.allclose(mix.mix[c], w @ report.probs[members] / w.sum())
    assert np.isnan(mix.mix[CLASS_LABELS.index("72o")]).all()  # not in the range
    equities = node_equities(game, node, report)
    combos = class_combos(game, report, "AKs", equities)
    assert combos.hands == ("AcKc", "AdKd", "AhKh", "AsKs")  # no A or K on the board
    assert np.allclose(combos.probs.sum(axis=1), 1.0)
    ev_hist, eq_hist = distributions(report, equities)
    assert ev_hist.shares.sum() == pytest.approx(1.0)
    assert eq_hist.shares.sum() == pytest.approx(1.0)


def test_cli_by_card_json_and_errors(turn_solution, capsys):
    _, _, path = turn_solution
    assert main(["show", str(path), "--node", "x/x", "--by-card", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["seat"] == "OOP" and len(payload["cards"]) == 48
    assert sum(card["reach"] for card in payload["cards"]) == pytest.approx(1.0)
    assert main(["show", str(path), "--node", "x", "--by-card"]) == 2
    assert "deals no card" in capsys.readouterr().err
    assert main(["show", str(path), "--by-card"]) == 2


def test_node_reach_weights_from_one_walk_equal_bayes_range_node_by_node(turn_solution):
    from solvers.reports.strategy_report import node_reach_weights

    game, strategy, _ = turn_solution
    weights = node_reach_weights(game, strategy)
    nodes = game.decision_nodes()
    assert set(weights) == {n.id for n in nodes}
    for node in nodes[::37]:
        expected = bayes_range(game, strategy, node, node.player, normalise=False)
        assert np.allclose(weights[node.id], expected, rtol=1e-12, atol=1e-18)
