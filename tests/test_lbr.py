"""Local best response against exact answers: the walk's best response (push/fold, where LBR is
a best response, and river spots, where it can only be weaker), closed-form chump strategies
and brute-force equity with phevaluator."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from solvers.agents.beliefs import start
from solvers.agents.bet_sizing import ActionSetError, BetSizer, RealState, tree_mapping
from solvers.cards.deck import COMBO_CARDS, card_str, parse_cards
from solvers.exact.evaluation import expected_values, exploitability
from solvers.games import load_game
from solvers.reports.lbr.spot import Choice, LbrInputError, LocalBestResponse, summarise
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES
from tests.lbr_fixtures import (
    RIVER_SPOT,
    push_fold_rows,
    river_game,
    rule_strategy,
    solved,
    turn_game,
)

THREE_SE = 3 / 1.96
"""Three standard errors (99.7%) in units of the 95% half-width, for checks of the sampler
against its own exact expectation (heavy-tailed all-in pots make 95% flaky at a few thousand
deals; the estimator's calibration was checked separately over many seeds)."""


def sampled(lbr: LocalBestResponse, deals: int, seed: int = 7) -> np.ndarray:
    return np.concatenate([lbr.run_chunk(seed, i, deals // 4) for i in range(4)])


# --- push/fold: one decision each, so LBR is the exact best response ------------------------


@pytest.mark.parametrize("stack", ["05", "10", "25"])
@pytest.mark.parametrize("action_set", ["fcpa", "56", "tree"])
def test_push_fold_lbr_in_expectation_is_the_exact_best_response(stack, action_set):
    loaded = load_strategy(STRATEGIES / f"push_fold_{stack}bb.json")
    best = exploitability(loaded.game, loaded.strategy).best_responses
    lbr = LocalBestResponse(loaded.game, loaded.strategy, action_set)
    for seat in (0, 1):
        assert lbr.expected_seat(seat) == pytest.approx(best[seat].value, abs=1e-9)


def test_push_fold_leaky_bot_sampled_lbr_agrees_with_best_response_within_the_interval():
    game = load_game("push_fold(stack_bb=10)")
    strategy = push_fold_rows(game, shove=1.0, call=0.3)  # shoves and calls any two cards
    best = exploitability(game, strategy)
    lbr = LocalBestResponse(game, strategy, "fcpa")
    for seat in (0, 1):
        assert lbr.expected_seat(seat) == pytest.approx(best.best_responses[seat].value, abs=1e-9)
    result = summarise(sampled(lbr, 20_000), 1.0)
    assert abs(result["value"] - best.exploitability) <= result["ci95"]
    assert result["ci95"] < best.exploitability / 10  # the interval is informative
    for seat in (0, 1):  # three standard errors (99.7%): two more checks on the same sample
        gap = abs(result["seat_values"][seat] - best.best_responses[seat].value)
        assert gap <= THREE_SE * result["seat_ci95"][seat]


def test_push_fold_fc_cannot_shove_so_the_small_blind_folds():
    game = load_game("push_fold(stack_bb=10)")
    strategy = push_fold_rows(game, shove=1.0, call=0.3)
    lbr = LocalBestResponse(game, strategy, "fc")
    assert lbr.expected_seat(0) == pytest.approx(-0.5, abs=1e-12)
    best_bb = exploitability(game, strategy).best_responses[1].value  # BB only calls or folds
    assert lbr.expected_seat(1) == pytest.approx(best_bb, abs=1e-9)


def test_bad_options_are_input_errors():
    loaded = load_strategy(STRATEGIES / "push_fold_10bb.json")
    with pytest.raises(ActionSetError):
        LocalBestResponse(loaded.game, loaded.strategy, "pot")
    with pytest.raises(LbrInputError, match="preflop"):
        LocalBestResponse(loaded.game, loaded.strategy, "fc", streets=("river",))
    kuhn = load_strategy(STRATEGIES / "kuhn.json")
    with pytest.raises(LbrInputError, match="hold'em"):
        LocalBestResponse(kuhn.game, kuhn.strategy)


# --- river spots ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def river():
    game = river_game()
    return game, solved(game)


def test_river_tree_lbr_never_beats_the_exact_best_response(river):
    game, strategy = river
    best = exploitability(game, strategy)
    lbr = LocalBestResponse(game, strategy, "tree")
    for seat in (0, 1):  # on the tree LBR is one legal strategy: it cannot beat the best
        assert lbr.expected_seat(seat) <= best.best_responses[seat].value + 1e-9
    result = summarise(sampled(lbr, 4000), 1.0)
    assert result["value"] <= best.exploitability + result["ci95"]


def test_river_sampled_lbr_agrees_with_its_exact_expectation(river):
    game, strategy = river
    lbr = LocalBestResponse(game, strategy, "56")
    exact = np.mean([lbr.expected_seat(0), lbr.expected_seat(1)])
    result = summarise(sampled(lbr, 8000, seed=3), 1.0)
    assert abs(result["value"] - exact) <= result["ci95"]


@pytest.mark.parametrize("action_set", ["fcpa", "tree", "56"])
def test_river_always_call_bot_is_value_bet_all_in_exactly_as_best_response(action_set):
    """Against a bot that never folds nor bets, LBR bets all-in with equity above one half and
    checks otherwise, which is the best response: both seats agree with the walk to 1e-9."""
    game = river_game()
    always_call = rule_strategy(game, facing="c")
    best = exploitability(game, always_call).best_responses
    lbr = LocalBestResponse(game, always_call, action_set)
    for seat in (0, 1):
        assert lbr.expected_seat(seat) == pytest.approx(best[seat].value, abs=1e-9)
    assert best[0].value > 10 and best[1].value > 10  # value betting wins a lot here


def test_river_fc_against_always_call_only_checks_down():
    game = river_game()
    always_call = rule_strategy(game, facing="c")
    check_down = expected_values(game, always_call).totals
    lbr = LocalBestResponse(game, always_call, "fc")
    for seat in (0, 1):
        assert lbr.expected_seat(seat) == pytest.approx(check_down[seat], abs=1e-9)


@pytest.mark.parametrize("action_set", ["fcpa", "tree"])
def test_river_always_fold_bot_loses_the_pot_every_hand(action_set):
    game = river_game()
    always_fold = rule_strategy(game, facing="f")
    lbr = LocalBestResponse(game, always_fold, action_set)
    values = sampled(lbr, 400)
    np.testing.assert_allclose(values, game.pot / 2, rtol=0, atol=1e-9)  # LBR's net: half the pot
    assert lbr.expected_seat(0) == pytest.approx(50.0) and lbr.expected_seat(1) == pytest.approx(50)


def test_river_always_fold_bot_still_calls_bets_below_its_smallest_size():
    """With ``56`` LBR also has bets below the tree's half pot, which the bot answers as half
    pot but calls where it would fold with the translation's ``fold_to_call`` odds: the nuts
    bet small to be called, so every hand wins at least the pot and some win more."""
    game = river_game()
    always_fold = rule_strategy(game, facing="f")
    lbr = LocalBestResponse(game, always_fold, "56")
    for seat in (0, 1):
        hands = np.flatnonzero(game.prior.sum(axis=1 - seat) > 0)
        values = np.array([lbr.expected(seat, int(h)) for h in hands])
        assert values.min() >= 50.0 - 1e-9 and values.max() > 55.0


def test_off_tree_all_in_against_always_call_on_a_tree_without_all_in():
    """The tree only bets half the pot; LBR's off-tree shove maps to that size and is called.
    Per hand LBR checks down for ``pot/2 * (2wp - 1)`` or shoves for ``cap * (2wp - 1)``; the
    check-down values come from the game's own showdown matrix, not from LBR's equity."""
    spot = RIVER_SPOT.replace('"50%,a"', '"50%"').replace('"a"', '"50%"')
    game = load_game(spot)
    assert all(len(n.tokens) <= 3 for n in game.decision_nodes())  # no all-in on the tree
    always_call = rule_strategy(game, facing="c")
    lbr = LocalBestResponse(game, always_call, "fcpa")
    tree_best = exploitability(game, always_call).best_responses
    check_check = game.node_by_key("x/x")
    matrix = game.terminal_matrix(check_check)  # seat 0's payoff times the prior
    cap = game.pot / 2 + float(game.params.stack)
    for seat, payoff in ((0, matrix), (1, -matrix.T)):
        marginal = game.prior.sum(axis=1 - seat)
        per_hand = payoff.sum(axis=1) / marginal  # pot/2 * (2wp - 1)
        best = np.maximum(per_hand, per_hand * cap / (game.pot / 2))
        assert lbr.expected_seat(seat) == pytest.approx(float(marginal @ best), abs=1e-9)
        assert lbr.expected_seat(seat) > tree_best[seat].value + 10  # the off-tree shove pays


# --- a turn spot: river cards dealt, equity over the river to come ---------------------------


@pytest.fixture(scope="module")
def turn():
    game = turn_game()
    return game, solved(game, iterations=100)


def test_turn_tree_lbr_never_beats_the_exact_best_response(turn):
    game, strategy = turn
    best = exploitability(game, strategy).best_responses
    lbr = LocalBestResponse(game, strategy, "tree")
    for seat in (0, 1):
        assert lbr.expected_seat(seat) <= best[seat].value + 1e-9


@pytest.mark.parametrize("streets", [None, ("river",)])
def test_turn_sampled_lbr_agrees_with_its_exact_expectation(turn, streets):
    game, strategy = turn
    lbr = LocalBestResponse(game, strategy, "56", streets)
    exact = [lbr.expected_seat(0), lbr.expected_seat(1)]
    result = summarise(sampled(lbr, 4000, seed=2), 1.0)
    assert abs(result["value"] - np.mean(exact)) <= THREE_SE * result["ci95"]


def test_waiting_for_the_river_checks_and_calls_the_turn(turn):
    """With ``streets=river`` LBR checks the turn and bets only on the river; against a bot that
    folds to every bet it takes the whole pot either way."""
    game, _ = turn
    always_fold = rule_strategy(game, facing="f")
    greedy = LocalBestResponse(game, always_fold, "fcpa")
    waiting = LocalBestResponse(game, always_fold, "fcpa", ("river",))
    for seat in (0, 1):  # the bot never bets nor calls: each takes the pot, on its own street
        assert greedy.expected_seat(seat) == pytest.approx(50.0)
        assert waiting.expected_seat(seat) == pytest.approx(50.0)
    belief = start(game, game.prior[0].copy())
    assert waiting.decide(belief, 0, 0) == Choice("p")  # checks the turn
    choice = greedy.decide(belief, 0, 0)
    assert choice.kind == "b" and choice.to is not None  # bets the turn when it may


# --- pieces: equity, bet sizes, translation ------------------------------------------------


def _brute_equity(own: int, opp: int, board: list[int]) -> float:
    hole = {*COMBO_CARDS[own], *COMBO_CARDS[opp]}
    left = [c for c in range(52) if c not in hole and c not in board]
    share = count = 0
    for extra in combinations(left, 5 - len(board)):
        cards = [card_str(c) for c in (*board, *extra)]
        a = evaluate_cards(*cards, *(card_str(int(c)) for c in COMBO_CARDS[own]))
        b = evaluate_cards(*cards, *(card_str(int(c)) for c in COMBO_CARDS[opp]))
        share += 1.0 if a < b else 0.5 if a == b else 0.0  # phevaluator: lower is stronger
        count += 1
    return share / count


def test_turn_equity_enumerates_the_river_exactly():
    spot = (
        'nlhe(board="Qs Jh 2h 8d",pot=100,stack=100,oop_range="AhKh,7h6h,QcQd",'
        'ip_range="AsQd,JsTs,9c9d,3h3d")'
    )
    game = load_game(spot)
    lbr = LocalBestResponse(game, rule_strategy(game, facing="c"), "fc")
    board = parse_cards("Qs Jh 2h 8d")
    for hand, combo in enumerate(game.hand_combos[0]):
        eq = lbr.cards.equity(0, hand, tuple(board))
        for j, opp in enumerate(game.hand_combos[1]):
            if set(COMBO_CARDS[combo]) & set(COMBO_CARDS[opp]):
                continue
            assert eq[j] == pytest.approx(_brute_equity(combo, opp, board), abs=1e-12)


def test_bet_sizes_of_each_action_set():
    game = river_game()
    root = game.root  # OOP to act, pot 100, 300 behind: tree bets 50 and all-in
    real = RealState(list(root.contributions))
    cap = 350.0
    assert BetSizer("fc", cap, True).candidates(root, 0, real) == []
    assert BetSizer("fcpa", cap, True).candidates(root, 0, real) == [150.0, 350.0]
    assert BetSizer("tree", cap, True).candidates(root, 0, real) == [100.0, 350.0]
    sizes = BetSizer("56", cap, True).candidates(root, 0, real)
    assert sizes[0] == 55.0 and sizes[-1] == 350.0  # 5% of the pot is 5 chips
    assert len(sizes) == len(set(sizes)) and sizes == sorted(sizes)


def test_off_tree_bet_maps_by_the_pseudo_harmonic_rule():
    game = river_game()
    root = game.root
    real = RealState(list(root.contributions))
    mapping, keep = tree_mapping(game, root, 0, real, 150.0)  # pot: between 50% and all-in (300%)
    assert keep == 0.0
    a, b, x = 0.5, 3.0, 1.0
    lower = (b - x) * (1 + a) / ((b - a) * (1 + x))
    assert [c for c, _ in mapping] == [1, 2]
    assert mapping[0][1] == pytest.approx(lower) and mapping[1][1] == pytest.approx(1 - lower)
    assert tree_mapping(game, root, 0, real, 100.0) == ([(1, 1.0)], 0.0)
    assert tree_mapping(game, root, 0, real, 350.0) == ([(2, 1.0)], 0.0)


@settings(max_examples=60, deadline=None)
@given(
    own=st.integers(50, 400),
    extra=st.integers(0, 300),
    last=st.integers(0, 200),
    action_set=st.sampled_from(["fcpa", "56", "tree"]),
)
def test_candidate_bets_are_legal_and_translations_are_distributions(own, extra, last, action_set):
    """Whatever the real pot, every candidate is a legal new total (at least the minimum bet or
    raise, at most all-in) and the bot's view of it is a distribution over the tree's bets."""
    game = river_game()
    cap = game.pot / 2 + float(game.params.stack)
    own = min(own, cap)
    opp = min(own + extra, cap)
    real = RealState([own, opp], float(last if extra else 0))
    node = game.root if extra == 0 else game.child(game.root, 1)  # facing a bet, or not
    sizer = BetSizer(action_set, cap, True)
    actor = node.player
    real.put = [own, opp] if actor == 0 else [opp, own]
    bets = sizer.candidates(node, actor, real)
    if opp >= cap:
        assert bets == []
        return
    least = opp + max(real.last_increment, 1) if opp > own else own + 1
    assert bets == sorted(set(bets))
    assert all(min(least, cap) <= b <= cap for b in bets)
    for to in bets:
        mapping, keep = tree_mapping(game, node, actor, real, to)
        assert 0 <= keep < 1
        assert sum(p for _, p in mapping) == pytest.approx(1.0)
        assert all(node.tokens[c].startswith("b") and 0 <= p <= 1 for c, p in mapping)
