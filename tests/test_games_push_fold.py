"""Heads-up push/fold solved exactly by LP from the exact preflop all-in table."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from pokertui.cli import main
from pokertui.commands.games import value_report
from solvers.cards.deck import CLASS_LABELS, class_index
from solvers.errors import InputError
from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game


@pytest.fixture(scope="module")
def ten_bb():
    game = load_game("push_fold(stack_bb=10)")
    return game, solve_lp(game)


def test_ten_bb_ranges(ten_bb):
    """Published push/fold charts: about 58% shoves and 37% calls, K2s and Q9o call."""
    game, solution = ten_bb
    pct = game.range_percentages(solution.strategy)
    assert pct["sb_shove_percent"] == pytest.approx(58, abs=1)
    assert pct["bb_call_percent"] == pytest.approx(37, abs=1)
    # exact (the equilibrium mixes one class on each side, 43s and Q6s, and is unique)
    assert pct["sb_shove_percent"] == pytest.approx(58.2837851293952, abs=1e-6)
    assert pct["bb_call_percent"] == pytest.approx(37.37640397097081, abs=1e-6)
    call = game.call_probabilities(solution.strategy)
    assert call[class_index("K2s")] > 1 - 1e-9
    assert call[class_index("Q9o")] > 1 - 1e-9
    assert call[class_index("72o")] < 1e-9
    shove = game.shove_probabilities(solution.strategy)
    assert shove[class_index("AA")] > 1 - 1e-9 and shove[class_index("72o")] < 1e-9


def test_ten_bb_value_and_exploitability(ten_bb):
    game, solution = ten_bb
    assert solution.value == pytest.approx(-0.04537075259279131, abs=1e-9)
    measured = exploitability(game, solution.strategy)
    assert measured.exploitability < 1e-9
    assert measured.mbb_per_hand < 1e-6
    assert measured.game_value == pytest.approx(solution.value, abs=1e-9)


def test_tree_keys_and_amounts():
    game = load_game("push_fold(12.5)")
    assert game.spec_string() == "push_fold(stack_bb=12.5)"
    assert [n.key for n in game.nodes] == ["", "fold", "shove", "shove/fold", "shove/call"]
    assert game.node_by_key("").amounts == (0.0, 12.0)
    assert game.node_by_key("shove").amounts == (0.0, 11.5)
    assert game.node_by_key("shove/call").contributions == (12.5, 12.5)
    assert game.node_by_key("fold").contributions == (0.5, 1.0)
    assert game.big_blind == 1.0
    assert game.legal_actions("shove") == ["fold", "call"]


def test_one_bb_is_all_in_blind_versus_blind():
    """With 1 bb the BB is already all in: calling costs nothing, so every hand calls."""
    game = load_game("push_fold(stack_bb=1)")
    solution = solve_lp(game)
    assert solution.value == pytest.approx(0.0, abs=1e-9)
    assert game.range_percentages(solution.strategy)["sb_shove_percent"] == pytest.approx(100)


def test_ranges_tighten_as_stacks_grow():
    shoves, calls = [], []
    for stack in (5, 10, 20, 50):
        game = load_game(f"push_fold(stack_bb={stack})")
        solution = solve_lp(game)
        assert exploitability(game, solution.strategy).exploitability < 1e-9
        pct = game.range_percentages(solution.strategy)
        shoves.append(pct["sb_shove_percent"])
        calls.append(pct["bb_call_percent"])
    assert shoves == sorted(shoves, reverse=True) and calls == sorted(calls, reverse=True)


@pytest.mark.parametrize(
    "spec", ["push_fold(stack_bb=0)", "push_fold(51)", "push_fold(-3)", "push_fold(ante=1)"]
)
def test_bad_stacks(spec):
    with pytest.raises(InputError, match="push_fold"):
        load_game(spec)


def test_value_command_prints_the_ranges(capsys):
    assert main(["value", "push_fold(stack_bb=10)", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sb_shove_percent"] == pytest.approx(58.28, abs=0.01)
    assert report["bb_call_percent"] == pytest.approx(37.38, abs=0.01)
    assert main(["value", "push_fold"]) == 0
    out = capsys.readouterr().out
    assert "SB shoves" in out and "58.28%" in out and "37.38%" in out
    assert "sb_shove_percent" not in value_report("kuhn")


def test_solve_time_from_the_table():
    """Report (not a hard limit): build plus LP at several depths; the target is 2 s each."""
    timings = {}
    for stack in (3, 15, 35):
        started = time.perf_counter()
        game = load_game(f"push_fold(stack_bb={stack})")
        solve_lp(game)
        timings[stack] = time.perf_counter() - started
    print("push/fold solve seconds:", {k: round(v, 3) for k, v in timings.items()})
    assert max(timings.values()) < 10  # generous: a shared CI machine


def test_labels_are_the_169_classes():
    game = load_game("push_fold")
    assert game.hand_labels[0] == CLASS_LABELS == game.hand_labels[1]
    assert np.isclose(game.prior.sum(), 1.0)
