"""LBR on the full game: the greedy rule, Bayes' rule and the scoring against phevaluator; the
paper's Table 2 against always-call; worker-count independence; exit 2 for bad input.

The references are independent of the code under test: river equities come from phevaluator,
hand by hand; the closed form of the river-only LBR against always-call is the paper's (shove
exactly when the equity is above one half); the sampled figures are Lisý and Bowling's Table 2.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from phevaluator import evaluate_cards

from pokertui.cli import main
from solvers.agents.chumps import AlwaysCall, RandomActionAgent, RandomAgent
from solvers.agents.registry import make_agent
from solvers.cards.deck import (
    COMBO_CARDS,
    COMBO_CLASS,
    N_COMBOS,
    card_str,
    combo_index,
    parse_card,
    parse_cards,
)
from solvers.cards.evaluator import evaluate
from solvers.games.hunl.agent import Policy, action_column
from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, HunlConfig, replay
from solvers.reports.lbr.hunl import HunlLbrError, HunlLocalBestResponse
from solvers.reports.lbr.hunl_cards import board_strengths, deal
from solvers.reports.lbr.hunl_run import evaluate_hunl
from tests.conftest import STRATEGIES

ACPC = HunlConfig(200)
PAIRS = COMBO_CARDS[:, 0] >> 2 == COMBO_CARDS[:, 1] >> 2


def river_share(mine: int, theirs: int, board) -> float:
    """phevaluator: 1 if combo ``mine`` beats ``theirs`` on the five-card board, 0.5 a split."""
    own = [card_str(int(c)) for c in COMBO_CARDS[mine]]
    opp = [card_str(int(c)) for c in COMBO_CARDS[theirs]]
    table = [card_str(int(c)) for c in board]
    a, b = evaluate_cards(*own, *table), evaluate_cards(*opp, *table)
    return 1.0 if a < b else 0.5 if a == b else 0.0


def live_combos(mine: int, board) -> list[int]:
    dead = set(int(c) for c in COMBO_CARDS[mine]) | set(int(c) for c in board)
    return [c for c in range(N_COMBOS) if not dead & set(int(x) for x in COMBO_CARDS[c])]


class PairsRaise:
    """A card-reading bot: as the small blind it raises to 300 with a pair and limps otherwise;
    facing a bet it calls with pairs and folds the rest; otherwise it checks."""

    name = "pairs"

    def policy(self, state, board) -> Policy:
        legal = state.legal()
        if state.street == 0 and state.to_act == 0 and state.street_actions == 0:
            actions = (Action(CALL), Action(RAISE, 300))
            return Policy(actions, np.stack([~PAIRS, PAIRS], axis=1).astype(float))
        if legal.can_fold:
            return Policy((Action(FOLD), Action(CALL)), np.stack([~PAIRS, PAIRS], 1).astype(float))
        return Policy((Action(CALL),), np.ones((N_COMBOS, 1)))

    def act(self, state, board, combo, rng) -> Action:
        policy = self.policy(state, board)
        return policy.actions[int(np.argmax(policy.row(combo)))]


def test_river_utilities_match_phevaluator_with_a_card_reading_bot():
    board = np.array(parse_cards("As Qh Jd 7c 2h"))
    mine = combo_index(parse_card("Ks"), parse_card("Qd"))  # second pair
    state = replay("cc/cc/cc/", ACPC)
    assert state.street == 3 and state.to_act == 1
    engine = HunlLocalBestResponse(ACPC, PairsRaise(), "fcpa", ("river",))
    live = live_combos(mine, board)
    weights = np.zeros(N_COMBOS)
    weights[live] = 1.0
    call, bets, utility = engine.utilities(state, board, mine, weights)
    shares = np.array([river_share(mine, c, board) for c in live])
    pairs = PAIRS[live]
    wp, fp, wp_pairs = shares.mean(), 1 - pairs.mean(), shares[pairs].mean()
    assert call == pytest.approx(wp * 200, abs=1e-9)
    assert bets == [300, 20_000]
    for to, u in zip(bets, utility, strict=True):
        a = to - 100
        expected = fp * 200 + (1 - fp) * (wp_pairs * (200 + a) - (1 - wp_pairs) * a)
        assert u == pytest.approx(expected, abs=1e-9)


def test_the_range_follows_bayes_rule_and_the_showdown_is_valued_over_it():
    board = np.array(parse_cards("As Qh Jd 7c 2h"))
    mine = combo_index(parse_card("Ks"), parse_card("Qd"))
    engine = HunlLocalBestResponse(ACPC, PairsRaise(), "fc", ("river",))
    rng = np.random.default_rng(0)
    live = live_combos(mine, board)
    shares = {c: river_share(mine, c, board) for c in live}
    fours, five_queen = parse_cards("4c 4d"), parse_cards("5s Qc")
    for cards, raised in ((fours, True), (five_queen, False)):
        bot_combo = combo_index(*cards)
        value = engine.play(1, mine, bot_combo, board, rng)
        kept = [c for c in live if PAIRS[c] == raised]
        wp = np.mean([shares[c] for c in kept])
        stake = 300 if raised else 100
        assert value == pytest.approx(stake * (2 * wp - 1), abs=1e-9)


@pytest.mark.parametrize(("action_set", "streets"), [("fcpa", ("river",)), ("fc", None)])
def test_against_always_call_each_hand_is_the_closed_form(action_set, streets):
    """River-only LBR shoves exactly when its equity against the uniform range is above 1/2
    and checks otherwise; fc only checks and calls down (a limp is worth it with any hand)."""
    engine = HunlLocalBestResponse(ACPC, AlwaysCall(), action_set, streets)
    c0, c1, boards = deal(np.random.default_rng(3), 6)
    rng = np.random.default_rng(0)
    for i in range(6):
        for seat, mine, theirs in ((0, c0[i], c1[i]), (1, c1[i], c0[i])):
            value = engine.play(seat, int(mine), int(theirs), boards[i], rng)
            live = live_combos(int(mine), boards[i])
            wp = np.mean([river_share(int(mine), c, boards[i]) for c in live])
            stake = 20_000 if action_set == "fcpa" and wp > 0.5 else 100
            assert value == pytest.approx(stake * (2 * wp - 1), abs=1e-7)


def test_random_raises_map_to_the_nearest_listed_raise():
    state = replay("", ACPC)
    policy = RandomAgent().policy(state, np.zeros(0, dtype=int))
    column = action_column(policy, Action(RAISE, 290))
    assert policy.actions[column] == Action(RAISE, 300)
    assert policy.actions[action_column(policy, Action(FOLD))] == Action(FOLD)


def test_preflop_equity_is_the_exact_class_table():
    engine = HunlLocalBestResponse(ACPC, AlwaysCall())
    aces = combo_index(parse_card("As"), parse_card("Ah"))
    eq = engine.cards.equity(aces, ())
    live = eq > 0
    # AA against a random hand: 85.2% (every published preflop table), card removal included
    assert eq[live].mean() == pytest.approx(0.852, abs=0.001)
    assert not live[(COMBO_CARDS == parse_card("As")).any(axis=1)].any()
    kings = COMBO_CLASS == COMBO_CLASS[combo_index(parse_card("Ks"), parse_card("Kh"))]
    assert np.ptp(eq[kings & live]) == 0.0  # one class-against-class value


# --- the paper's Table 2 (BB per hand, 200 bb ACPC game) ------------------------------------


def bb_per_hand(action_set, streets, deals, bot="call", seed=1):
    result = evaluate_hunl(ACPC, bot, make_agent, action_set, deals, seed, streets, workers=1)
    return result["value"] / 1000, result["ci95"] / 1000


def test_table_2_always_call_fcpa_on_turn_and_river():
    value, ci = bb_per_hand("fcpa", ("turn", "river"), 1500)
    assert ci < 4.0
    assert abs(value - 49.0) <= ci + 0.4


@pytest.mark.slow
def test_table_2_always_call_fcpa_on_every_street():
    value, ci = bb_per_hand("fcpa", None, 500)
    assert ci < 4.5
    assert abs(value - 34.0) <= ci + 0.5


def test_table_2_random_action_fcpa_on_turn_and_river():
    value, ci = bb_per_hand("fcpa", ("turn", "river"), 1000, bot="random-action", seed=2)
    assert ci < 6.0
    assert abs(value - 80.7) <= ci + 0.7


def test_table_2_random_action_fcpa_on_every_street():
    value, ci = bb_per_hand("fcpa", None, 800, bot="random-action", seed=2)
    assert ci < 4.0
    assert abs(value - 39.1) <= ci + 0.6


@pytest.mark.slow
def test_table_2_random_action_fc_rows():
    value, ci = bb_per_hand("fc", None, 800, bot="random-action", seed=3)
    assert ci < 4.0
    assert abs(value - 15.7) <= ci + 0.4
    value, ci = bb_per_hand("fc", ("turn", "river"), 1500, bot="random-action", seed=3)
    assert ci < 4.5
    assert abs(value - 2.2) <= ci + 0.7


def test_the_random_action_chump_counts_every_raise_total_as_one_action():
    agent = RandomActionAgent()
    facing = replay("r300", HunlConfig(100))  # 9,501 raise totals (500 to 10,000), fold, call
    policy = agent.policy(facing, np.zeros(0, dtype=int))
    kinds = [a.kind for a in policy.actions]
    fold = policy.probabilities[0, kinds.index(FOLD)]
    assert fold == pytest.approx(1 / 9_503)
    rng = np.random.default_rng(0)
    totals = [agent.act(facing, np.zeros(0, dtype=int), 0, rng) for _ in range(3_000)]
    raised = np.array([a.to for a in totals if a.kind == RAISE])
    assert len(raised) >= 2_990 and raised.min() >= 500 and raised.max() <= 10_000
    assert abs(raised.mean() - 5_250) < 4 * 2_743 / np.sqrt(len(raised))  # uniform 500..10,000
    all_in = replay("r10000", HunlConfig(100))
    policy = agent.policy(all_in, np.zeros(0, dtype=int))
    assert [str(a) for a in policy.actions] == ["f", "c"]
    assert np.allclose(policy.probabilities, 0.5)


def test_fc_against_always_call_is_zero():
    value, ci = bb_per_hand("fc", ("turn", "river"), 1000)
    assert abs(value) <= ci and ci < 0.2


# --- the command ------------------------------------------------------------------------


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_result_does_not_depend_on_the_number_of_workers(capsys):
    results = []
    for workers in (1, 2):
        argv = ("lbr", "hunl(200)", "--bot", "random", "--streets", "3-4", "--hands", 700)
        code, out, _ = run_cli(capsys, *argv, "--seed", 4, "--workers", workers, "--json")
        assert code == 0
        results.append(json.loads(out))
    assert results[0]["seat_values"] == results[1]["seat_values"]
    assert results[0]["streets"] == ["turn", "river"] and results[0]["hands"] == 1400


def test_people_get_a_table_in_bb_per_hand(capsys):
    argv = ("lbr", "hunl(stack_bb=100)", "--bot", "call", "--streets", "river", "--hands", 50)
    code, out, err = run_cli(capsys, *argv, "--workers", 1)
    assert code == 0
    assert "both seats" in out and "BB per hand" in out and "deals" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("hunl(stack_bb=5)", "--bot", "call"), "stack"),
        (("hunl(200)",), "--bot"),
        (("hunl(200)", "--bot", "nobody"), "no bot"),
        (("hunl(200)", "--bot", "resolve:/proc/self/mem"), "cannot read the bot file"),
        (("hunl(200)", "--bot", "call", "--action-set", "tree"), "fc, fcpa or 56"),
        (("hunl(200)", "--bot", "call", "--streets", "3-5"), "--streets"),
        (("hunl(200)", "--bot", "call", "--exact"), "--exact"),
        (("hunl(200)", "--bot", "call", "--hands", "0"), "--hands"),
        (("hunl(200", "--bot", "call"), "hunl"),
        ((STRATEGIES / "push_fold_10bb.json", "--bot", "call"), "--bot"),
        (("hunl(200)", "--bot", "call", "--record"), "--record writes"),
        (("hunl(200)", "--bot", "resolve(river=0):call"), "river=0"),
        ((STRATEGIES / "push_fold_10bb.json", "--chunk-deals", "5"), "full game"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    code, out, err = run_cli(capsys, "lbr", *argv, "--json")
    assert code == 2
    assert message in err and "Traceback" not in err
    assert out == ""


def test_a_bad_bot_is_refused_before_the_progress_bar(capsys):
    code, out, err = run_cli(capsys, "lbr", "hunl(200)", "--bot", "nobody", "--hands", 2)
    assert code == 2 and "no bot 'nobody'" in err and "Traceback" not in err
    assert "deals" not in err and out == ""  # no bar drawn for a run that cannot start


@pytest.mark.parametrize("board", [(0, 17, 33), (5, 9, 13, 50), (4, 8, 12, 16, 20), (44, 45, 49)])
def test_compiled_completion_strengths_match_the_evaluator(board):
    extra, strength = board_strengths(board)
    assert len(extra) == math.comb(52 - len(board), 5 - len(board))
    full = np.concatenate([np.tile(board, (len(extra), 1)), extra], axis=1)
    cards = np.concatenate(
        [np.repeat(full[:, None, :], N_COMBOS, 1), np.tile(COMBO_CARDS, (len(full), 1, 1))], 2
    )
    blocked = (full[:, None, :, None] == COMBO_CARDS[None, :, None, :]).any(axis=(2, 3))
    assert ((strength < 0) == blocked).all()
    assert (strength[~blocked] == evaluate(cards[~blocked])).all()


class Contrary:
    """A broken bot: its policy says it always calls, yet it folds or raises."""

    name = "contrary"

    def policy(self, state, board) -> Policy:
        legal = state.legal()
        actions = (Action(FOLD), Action(CALL)) if legal.can_fold else (Action(CALL),)
        row = np.zeros(len(actions))
        row[-1] = 1.0
        return Policy(actions, np.tile(row, (N_COMBOS, 1)))

    def act(self, state, board, combo, rng) -> Action:
        return Action(FOLD) if state.legal().can_fold else Action(RAISE, 20_000)


def test_a_bot_that_contradicts_its_policy_is_reported():
    engine = HunlLocalBestResponse(ACPC, Contrary(), "fc")
    c0, c1, boards = deal(np.random.default_rng(0), 1)
    with pytest.raises(HunlLbrError, match="does not list|no combo"):
        engine.play(1, int(c1[0]), int(c0[0]), boards[0], np.random.default_rng(0))


def test_the_chunk_size_fixes_the_deals_whatever_the_bot_asks_for(capsys):
    def run(bot, chunk):
        argv = ("lbr", "hunl(100)", "--bot", bot, "--streets", "river", "--hands", 12, "--seed", 3)
        code, out, _ = run_cli(capsys, *argv, "--workers", 1, "--chunk-deals", chunk, "--json")
        assert code == 0
        return json.loads(out)

    # one bot under two names: the same chunking deals the same cards, so the values match
    first, second = run("call", 4), run("always-call", 4)
    assert first["seat_values"] == second["seat_values"] and first["chunk_deals"] == 4
    assert run("call", 6)["seat_values"] != first["seat_values"]  # other chunks, other cards


def test_lbr_leaves_a_re_solving_bot_no_solve_of_a_finished_deal():
    """LBR plays both seats of a deal, then the next deal's board is on none of the bot's
    solves: they are dropped, with the same figures as a bot that kept them."""
    bot = make_agent("resolve(from=river,iterations=12):call", ACPC)
    chips = HunlLocalBestResponse(ACPC, bot, "fc", ("river",)).run_chunk(3, 0, 2)
    assert bot.solves >= 2 and not bot._cache
    keeping = make_agent("resolve(from=river,iterations=12):call", ACPC)
    keeping.forget = lambda: None
    again = HunlLocalBestResponse(ACPC, keeping, "fc", ("river",)).run_chunk(3, 0, 2)
    np.testing.assert_array_equal(chips, again)
    assert keeping._cache
