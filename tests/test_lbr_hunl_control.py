"""Control variates for full-game LBR: the chances they weigh by are the game's, the corrected
score keeps LBR's expectation (the paper's Table 2 and the plain score on the same hands) and
narrows its interval; the command reports both and refuses the flag where it does not apply.

The references are independent of the code under test: card chances by enumerating the bot's
combos one by one, next-card equities from ``HunlEquity.equity`` on each five- and four-card
board, values from Lisý and Bowling's Table 2.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokertui.cli import main
from solvers.agents.registry import make_agent
from solvers.cards.deck import COMBO_CARDS, N_COMBOS, combo_index, parse_card, parse_cards
from solvers.games.hunl.rules import HunlConfig, replay
from solvers.reports.lbr.hunl import HunlLocalBestResponse
from solvers.reports.lbr.hunl_cards import HunlEquity, clash_matrix, combos_touching
from solvers.reports.lbr.hunl_control import bet_value, card_chances
from solvers.reports.lbr.hunl_run import evaluate_hunl
from tests.conftest import STRATEGIES
from tests.control_checks import assert_unbiased_and_tighter

ACPC = HunlConfig(200)
BLUEPRINT = STRATEGIES / "hunl_100bb.npz"


ACE_OF_SPADES = parse_card("As")


def a_range(board: tuple[int, ...], combo: int, seed: int) -> np.ndarray:
    """A lopsided bot range: the combos holding the ace of spades, and a little of the rest."""
    rng = np.random.default_rng(seed)
    weights = 0.05 * rng.random(N_COMBOS)
    weights[(COMBO_CARDS == ACE_OF_SPADES).any(axis=1)] = 1.0
    weights[clash_matrix()[combo] | combos_touching(np.asarray(board))] = 0.0
    return weights


@pytest.mark.parametrize("board", ["Ks 7h 2d", "Ks 7h 2d 9s"])
def test_card_chances_are_the_bot_hand_then_a_uniform_card(board):
    cards = tuple(parse_cards(board))
    combo = combo_index(parse_card("Ah"), parse_card("Qs"))
    weights = a_range(cards, combo, seed=len(cards))
    expected = np.zeros(52)
    for bot in np.flatnonzero(weights):  # the bot's hand, then one of the cards left
        left = set(range(52)) - set(cards) - set(COMBO_CARDS[combo]) - set(COMBO_CARDS[bot])
        for card in left:
            expected[card] += weights[bot] / weights.sum() / len(left)
    chances = card_chances(weights, cards, combo)
    assert chances == pytest.approx(expected, abs=1e-12)
    assert chances[ACE_OF_SPADES] < 0.5 / 47  # the bot most likely holds it


@pytest.mark.parametrize("board", ["Ks 7h 2d", "Ks 7h 2d 9s"])
def test_next_card_equity_is_the_equity_on_each_next_board(board):
    cards = tuple(parse_cards(board))
    combo = combo_index(parse_card("Ah"), parse_card("Qs"))
    equity = HunlEquity()
    rows = equity.next_card_equity(combo, cards)
    for card in (0, 17, 38, 51, int(COMBO_CARDS[combo][0]), cards[0]):
        if card in cards or card in COMBO_CARDS[combo]:
            assert not rows[card].any()
        else:
            assert rows[card] == pytest.approx(equity.equity(combo, (*cards, card)), abs=1e-12)


def figures(bot, action_set, streets, deals, seed, config=ACPC):
    return evaluate_hunl(config, str(bot), make_agent, action_set, deals, seed, streets,
                         workers=1, control=True)  # fmt: skip


def test_table_2_random_action_fcpa_on_turn_and_river_with_a_narrower_interval():
    result = figures("random-action", "fcpa", ("turn", "river"), 300, seed=2)
    value, ci = result["value"] / 1000, result["ci95"] / 1000
    plain = result["plain"]
    assert ci < 0.6 * plain["ci95"] / 1000  # the same hands, a much narrower interval
    assert ci < 6.0
    assert abs(value - 80.7) <= ci + 0.7  # the paper's Table 2, BB per hand


def test_the_corrected_score_keeps_lbrs_expectation_against_the_blueprint():
    """On the same hands the two scores differ by luck only: their paired difference is within
    its interval, and the corrected spread is well under half the plain one (fcpa on turn and
    river: 0.29 of it over 4,000 hands, ``docs/lbr.md``)."""
    lbr = HunlLocalBestResponse(HunlConfig(100), make_agent(str(BLUEPRINT), HunlConfig(100)),
                                "fcpa", ("turn", "river"), control=True)  # fmt: skip
    assert_unbiased_and_tighter(np.concatenate([lbr.run_chunk(21, i, 100) for i in range(3)]), 0.5)


def test_the_bets_estimate_keeps_the_expectation_too():
    """Any value estimate keeps the expectation: the ``bets`` one too, on the blueprint's hands
    of the check-down test above (fcpa's pot and all-in are the bets it values)."""
    config = HunlConfig(100)
    lbr = HunlLocalBestResponse(config, make_agent(str(BLUEPRINT), config), "fcpa",
                                ("turn", "river"), control=True, estimate="bets")  # fmt: skip
    assert_unbiased_and_tighter(np.concatenate([lbr.run_chunk(21, i, 50) for i in range(3)]), 0.5)


def _four_combos(equities: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """A bot range of four combos at weight 1 and LBR's equity against each."""
    weights, equity = np.zeros(N_COMBOS), np.zeros(N_COMBOS)
    chosen = [combo_index(parse_card(a), parse_card(b)) for a, b in
              (("2c", "3c"), ("4d", "5d"), ("6h", "8h"), ("9s", "Js"))]  # fmt: skip
    weights[chosen] = 1.0
    equity[chosen] = equities
    return equity, weights


def test_the_bets_estimate_by_hand():
    """River, 300 chips each in, 10,000 stacks. LBR wins against three of the four combos and
    has 25% against the fourth: checking down is worth 300 * (2 * 0.8125 - 1) = 187.5. A pot
    bet (to 900) is called by half the range, its best hands: the 25% combo and one it beats,
    so 0.5 * 300 + 0.5 * 900 * (2 * 0.625 - 1) = 262.5. All-in is called by 600/10,300 of the
    range, all of it the 25% combo: 9,700/10,300 * 300 - 600/10,300 * 10,000 * 0.5 = -8.7.
    Against a pure bluff's range the bets are worth what checking down loses, minus half the pot;
    facing a bet LBR does not bet, and may fold."""
    river = replay("r300c/cc/cc", HunlConfig(100))
    equity, weights = _four_combos([1.0, 1.0, 1.0, 0.25])
    assert bet_value(river, 1, equity, weights) == pytest.approx([262.5])
    assert bet_value(river, 0, equity, weights) == pytest.approx([262.5])
    rows = np.stack([equity, _four_combos([1.0, 1.0, 0.0, 0.0])[0]])
    assert bet_value(river, 1, rows, np.stack([weights, weights])) == pytest.approx([262.5, 0.0])
    facing = replay("r300c/cc/cc/r900", HunlConfig(100))  # seat 1 bets the pot
    assert bet_value(facing, 0, equity, weights) == pytest.approx([900 * 0.625])
    assert bet_value(facing, 0, np.zeros(N_COMBOS), weights) == pytest.approx([-300.0])


def test_without_control_variates_the_chunks_are_the_plain_scores():
    config = HunlConfig(100)
    agent = make_agent(str(BLUEPRINT), config)
    plain = HunlLocalBestResponse(config, agent, "fcpa", ("turn", "river")).run_chunk(5, 0, 20)
    both = HunlLocalBestResponse(config, agent, "fcpa", ("turn", "river"), control=True)
    values = both.run_chunk(5, 0, 20)
    assert values.shape == (20, 4) and plain.shape == (20, 2)
    assert np.array_equal(values[:, 2:], plain)  # the same hands: corrections draw nothing
    assert not np.array_equal(values[:, :2], plain)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_reports_both_scores_and_resumes_its_checkpoint(capsys, tmp_path):
    path = tmp_path / "cv.json"
    argv = ("lbr", "hunl(100)", "--bot", BLUEPRINT, "--streets", "3-4", "--seed", 8,
            "--chunk-deals", 6, "--workers", 1, "--control-variates",
            "--checkpoint", path)  # fmt: skip
    code, out, _ = run_cli(capsys, *argv, "--hands", 12, "--json")
    assert code == 0
    first = json.loads(out)
    assert first["control_variates"] and first["plain"]["ci95"] > first["ci95"]
    code, out, _ = run_cli(capsys, *argv, "--hands", 18, "--json")  # two chunks kept, one new
    assert code == 0
    more = json.loads(out)
    saved = json.loads(path.read_text())
    assert saved["run"]["control_variates"] is True and len(saved["chunks"]) == 3
    assert all(len(row) == 4 for rows in saved["chunks"].values() for row in rows)
    assert more["deals"] == 18 and more["plain"]["value"] != more["value"]
    code, out, _ = run_cli(capsys, *argv, "--hands", 18)
    assert code == 0 and "without them, on the same hands" in out
    code, _, err = run_cli(capsys, *argv[:-3], "--checkpoint", path, "--hands", 18)
    assert code == 2 and "another run" in err  # the plain run is not this one
    bets = (*argv[:-2], "bets", "--checkpoint", path, "--hands", 18)
    code, _, err = run_cli(capsys, *bets)
    assert code == 2 and "another run" in err  # nor is one with another value estimate


def test_a_checkpoint_with_rows_of_the_wrong_width_is_refused(capsys, tmp_path):
    path = tmp_path / "cv.json"
    argv = ("lbr", "hunl(100)", "--bot", "call", "--streets", "3-4", "--seed", 1,
            "--chunk-deals", 3, "--workers", 1, "--control-variates", "--checkpoint", path,
            "--hands", 3, "--json")  # fmt: skip
    assert run_cli(capsys, *argv)[0] == 0
    saved = json.loads(path.read_text())
    saved["chunks"]["0"] = [row[:2] for row in saved["chunks"]["0"]]
    path.write_text(json.dumps(saved))
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and "rows of 4 chip values" in err
    assert json.loads(path.read_text()) == saved  # left as it was


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((STRATEGIES / "push_fold_10bb.json", "--control-variates"), "full game"),
        (("hunl(100)", "--bot", BLUEPRINT, "--control-variates", "--record"), "--record"),
        (("hunl(100)", "--bot", "call", "--control-variates", "river"), "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    code, out, err = run_cli(capsys, "lbr", *argv, "--hands", 2)
    assert code == 2 and message in err and "Traceback" not in err
