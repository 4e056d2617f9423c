"""Live numbers of the full game against independent answers: closed forms for the odds,
phevaluator brute force for equities, and a card-aware toy bot for Bayes' rule."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.agents.chumps import AlwaysCall, RandomAgent
from solvers.cards.deck import COMBO_CARDS, N_COMBOS, parse_cards
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import Action, HunlConfig, replay
from solvers.reports.hunl_live import bayes_reach, equity_against, live_numbers

CONFIG = HunlConfig(100)
BOARD = np.array(parse_cards("Ks 9d 4c 7h 2s"))
HOLE = tuple(parse_cards("Kd Qc"))


def brute_equity(hole, board, weights) -> float:
    """Weighted win + tie/2 share over opponent combos and every runout, by phevaluator."""
    hole, board = [int(c) for c in hole], [int(c) for c in board]
    used = {*hole, *board}
    deck = [c for c in range(52) if c not in used]
    won = total = 0.0
    for combo in np.flatnonzero(weights > 0):
        opp = [int(c) for c in COMBO_CARDS[combo]]
        if set(opp) & used:
            continue
        rest = [c for c in deck if c not in opp]
        for extra in combinations(rest, 5 - len(board)):
            full = [*board, *extra]
            mine = evaluate_cards(*hole, *full)
            theirs = evaluate_cards(*opp, *full)
            w = weights[combo]
            won += w * (1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
            total += w
    return won / total


class PairsRaise:
    """A bot that raises with pocket pairs and calls otherwise: Bayes must keep only pairs."""

    name = "pairs-raise"

    def policy(self, state, board):
        legal = state.legal()
        pair = (COMBO_CARDS[:, 0] >> 2) == (COMBO_CARDS[:, 1] >> 2)
        probabilities = np.zeros((N_COMBOS, 2))
        probabilities[pair, 1] = 0.8
        probabilities[pair, 0] = 0.2
        probabilities[~pair, 0] = 1.0
        return Policy((Action("c"), Action("r", legal.max_raise_to)), probabilities)

    def act(self, state, board, combo, rng):
        return self.policy(state, board).sample(combo, rng)


def test_pot_odds_and_mdf_are_the_closed_forms():
    # the river: pot 600 (300 each), the big blind bets 600 (pot size)
    state = replay("r300c/cc/cc/r900", CONFIG)
    numbers = live_numbers(state, BOARD, HOLE, np.ones(N_COMBOS), AlwaysCall())
    assert numbers.to_call == 600 and numbers.pot == 1_200
    assert numbers.pot_odds == pytest.approx(600 / (1_200 + 600))  # 1/3
    assert numbers.mdf == pytest.approx(600 / (600 + 600))  # 1/2
    assert numbers.stacks == (9_700, 9_100)
    unchallenged = live_numbers(replay("r300c/cc/cc/", CONFIG), BOARD, HOLE, np.ones(N_COMBOS))
    assert unchallenged.pot_odds is None and unchallenged.mdf is None


def test_river_equity_and_call_ev_match_brute_force():
    rng = np.random.default_rng(4)
    weights = rng.random(N_COMBOS) * (rng.random(N_COMBOS) < 0.3)
    state = replay("r300c/cc/cc/r900", CONFIG)
    numbers = live_numbers(state, BOARD, HOLE, weights, AlwaysCall())
    mask = numbers.bot_range > 0
    expected = brute_equity(list(HOLE), [int(c) for c in BOARD], np.where(mask, weights, 0.0))
    assert numbers.equity == pytest.approx(expected, abs=1e-12)
    assert numbers.equity_method == "exact"
    evs = {str(e.action): e.ev for e in numbers.evs}
    assert evs["f"] == 0.0
    assert evs["c"] == pytest.approx(expected * 1_800 - 600, abs=1e-9)
    # a shove against always-call: called every time, the pot is both stacks
    assert evs["r10000"] == pytest.approx(expected * 20_000 - (10_000 - 300), abs=1e-8)
    assert numbers.bot_range.sum() == pytest.approx(1.0)


def test_turn_equity_over_every_river_matches_brute_force():
    rng = np.random.default_rng(9)
    weights = (rng.random(N_COMBOS) < 0.05).astype(float)
    board = BOARD[:4]
    got, how = equity_against(board, HOLE, weights)
    mask = np.ones(N_COMBOS, bool)
    for card in (*HOLE, *board):
        mask &= (COMBO_CARDS[:, 0] != card) & (COMBO_CARDS[:, 1] != card)
    assert how == "exact"
    assert got == pytest.approx(brute_equity(list(HOLE), list(board), weights * mask), abs=1e-12)


def test_preflop_equity_of_aces_against_any_hand():
    # the published figure: a pair of aces has 85.2% against a random hand
    got, how = equity_against(np.array([], dtype=np.intp), tuple(parse_cards("As Ah")),
                              np.ones(N_COMBOS))  # fmt: skip
    assert "sampled" in how
    assert got == pytest.approx(0.852, abs=0.02)


def test_shove_ev_uses_the_bots_fold_odds():
    # the random bot folds half of its hands against an all-in, whatever it holds
    state = replay("r300c/cc/cc/", CONFIG)
    weights = np.ones(N_COMBOS)
    numbers = live_numbers(state, BOARD, HOLE, weights, RandomAgent())
    equity = numbers.equity
    expected = 0.5 * 600 + 0.5 * (equity * 20_000 - 9_700)
    shove = next(e for e in numbers.evs if e.action == Action("r", 10_000))
    assert shove.ev == pytest.approx(expected, abs=1e-8)
    check = next(e for e in numbers.evs if e.action == Action("c"))
    assert check.ev is None  # the bot may still bet: not valued without a solve


def test_bayes_range_keeps_what_the_bot_would_have_done():
    state = replay("r300c/", CONFIG)
    bot = PairsRaise()
    policy = bot.policy(state, BOARD[:3])
    reach = bayes_reach([(policy, Action("r", 10_000))])
    pair = (COMBO_CARDS[:, 0] >> 2) == (COMBO_CARDS[:, 1] >> 2)
    assert np.all(reach[~pair] == 0) and np.allclose(reach[pair], 0.8)
    facing = state.apply(Action("r", 10_000))
    numbers = live_numbers(facing, BOARD[:3], HOLE, reach, AlwaysCall())
    held = numbers.bot_range > 0
    # 78 pairs less the dead cards' (Kd Ks: 5 of KK; Qc, 9d, 4c: 3 each of QQ, 99, 44)
    assert np.all(pair[held]) and held.sum() == 78 - 5 - 3 * 3
    # the 169 grid: pairs not blocked keep their 0.8 reach, unpaired classes are empty
    assert numbers.bot_grid[0] == pytest.approx(0.8)  # AA: no ace is dead
    assert numbers.bot_grid[1] == 0.0  # AKs
    expected = brute_equity(list(HOLE), [int(c) for c in BOARD[:3]], numbers.bot_range)
    assert numbers.equity == pytest.approx(expected, abs=1e-12)
    # a flop shove called: the pot is both stacks, valued over every turn and river
    call = next(e for e in numbers.evs if e.action == Action("c"))
    assert call.ev == pytest.approx(expected * 20_000 - 9_700, abs=1e-8)


def test_river_bets_are_valued_when_the_bot_never_re_raises():
    state = replay("r300c/cc/cc/", CONFIG)  # the river, pot 600, we (the big blind) act first
    rng = np.random.default_rng(2)
    weights = rng.random(N_COMBOS)
    bet = Action("r", 300 + 400)
    numbers = live_numbers(state, BOARD, HOLE, weights, AlwaysCall(), (bet,))
    expected = brute_equity(list(HOLE), [int(c) for c in BOARD], numbers.bot_range)
    valued = {str(e.action): e.ev for e in numbers.evs}
    assert valued["r700"] == pytest.approx(expected * (600 + 800) - 400, abs=1e-8)
    random_bot = live_numbers(state, BOARD, HOLE, weights, RandomAgent(), (bet,))
    assert {str(e.action): e.ev for e in random_bot.evs}["r700"] is None  # it may re-raise
    earlier = live_numbers(replay("r300c/cc/", CONFIG), BOARD[:4], HOLE, weights, AlwaysCall(),
                           (bet,))  # fmt: skip
    assert {str(e.action): e.ev for e in earlier.evs}["r700"] is None  # the river follows
