"""The full game's street as a spot: pot, stacks, seats, exact ranges, the tree with the actual
bet, Bayes ranges, and a river valued by the spot engine against a brute force with phevaluator.

Expected numbers are worked out by hand from the rules (chips committed, pot fractions) or
enumerated independently (every pair of hands, phevaluator's ranks).
"""

import numpy as np
import pytest
from phevaluator import evaluate_cards

from solvers.agents.subgame import (
    bayes_ranges,
    build_subgame,
    line,
    range_text,
    street_root,
)
from solvers.cards.deck import COMBO_CARDS, COMBO_INDEX, N_COMBOS, card_str, dead_mask, parse_cards
from solvers.cards.ranges import parse_range
from solvers.errors import InputError
from solvers.exact.evaluation import expected_values
from solvers.games.holdem.bet_sizes import Size, StreetSizes
from solvers.games.holdem.spot import range_weights
from solvers.games.hunl.agent import Policy
from solvers.games.hunl.rules import CALL, RAISE, Action, HunlConfig, HunlState, replay

CONFIG = HunlConfig(100)
TURN = np.array(parse_cards("Ks 7h 2d 9c"))
RIVER = np.array(parse_cards("Ks 7h 2d 9c 4s"))


def street(bet: str, raise_: str = "", cap: int | None = None) -> StreetSizes:
    texts = {"oop_bet": bet, "ip_bet": bet, "oop_raise": raise_, "ip_raise": raise_}
    if cap is not None:
        texts["raise_cap"] = cap
    return StreetSizes.parse(texts, "test")


SIZES = {"turn": street("50%, 100%, a", "a", 1), "river": street("50%, a")}


def random_ranges(board, seed=0):
    rng = np.random.default_rng(seed)
    ranges = rng.random((2, N_COMBOS)) * (rng.random((2, N_COMBOS)) < 0.3)
    return ranges * ~dead_mask([int(c) for c in board])


def test_turn_with_an_off_tree_bet_keeps_chips_seats_ranges_and_the_bet():
    # preflop: SB raises to 250, BB calls (pot 500); flop: BB checks, SB bets to 400, BB calls
    # (pot 800, 9,600 behind each); turn: BB bets 1,040 = 130% of the pot (to 1,440).
    state = replay("r250c/cr400c/r1440", CONFIG)
    ranges = random_ranges(TURN)
    sub = build_subgame(state, TURN, ranges, SIZES)
    params = sub.params
    assert (params.pot, params.stack) == (800.0, 9600.0)
    assert params.board == "Ks 7h 2d 9c"
    # the big blind (seat 1) is OOP (spot player 0); weights pass exactly, scaled to a top of 1
    assert np.array_equal(range_weights(params, 0), ranges[1] / ranges[1].max())
    assert np.array_equal(range_weights(params, 1), ranges[0] / ranges[0].max())
    assert params.turn.oop_bet == (Size("pct", 50.0), Size("pct", 100.0), Size("allin"),
                                   Size("pct", 130.0))  # fmt: skip
    assert params.turn.ip_bet == SIZES["turn"].ip_bet  # only the bettor's list grows
    game = sub.game
    node = game.nodes[sub.node_of(state)]
    assert node.player == 1 and node.contributions == (1440.0, 400.0)
    actions = [sub.real_action(node.id, i, state) for i in range(len(node.tokens))]
    assert actions == [Action("f"), Action(CALL), Action(RAISE, 10_000)]  # raise cap 1: all-in
    for action in actions:
        state.apply(action)  # every answer is legal in the full game


def test_an_on_tree_bet_adds_no_size_and_the_river_sits_under_the_call():
    state = replay("r250c/cr400c/r800", CONFIG)  # 400 into 800 is the tree's 50%
    sub = build_subgame(state, TURN, random_ranges(TURN), SIZES)
    assert sub.params.turn == SIZES["turn"]
    node = sub.game.nodes[sub.node_of(state)]
    assert node.contributions == (800.0, 400.0)
    call = node.children[node.tokens.index("c")]
    assert sub.game.nodes[call].is_chance  # the river is dealt in the same subgame


def test_a_raise_mid_street_and_the_raise_cap_follow_the_line():
    # river: BB checks, SB bets 200 into 800 (25%), BB raises to 2,000: 1,400 over the call,
    # and the pot after the call is 1,200, so 116.67% of it.
    state = replay("r250c/cr400c/cc/cr600r2000", CONFIG)
    sizes = {"river": street("50%, a", "", cap=0)}
    sub = build_subgame(state, RIVER, random_ranges(RIVER), sizes)
    river = sub.params.river
    assert river.ip_bet == (Size("pct", 50.0), Size("allin"), Size("pct", 25.0))
    assert river.oop_raise == (Size("pct", 100.0 * 1400 / 1200),)
    assert river.raise_cap == 1
    node = sub.game.nodes[sub.node_of(state)]
    assert node.player == 1 and node.contributions == (2000.0, 600.0)
    assert sub.node_of(replay("r250c/cr400c/cc/cr700", CONFIG)) is None  # not in this tree
    assert street_root(state).betting == "r250c/cr400c/cc/"


def test_a_small_bet_raised_to_the_big_blind_does_not_hide_the_real_bet():
    # limped river, pot 200: 33% is a 66-chip bet, below the big blind, so in the full game it
    # is a bet of 100, the same action as the bet of 50% (100 chips) the big blind made. The
    # button's raise to 600 (400 over the call, 100% of the 400 pot) is sized on that real bet.
    state = replay("cc/cc/cc/r200r600", CONFIG)
    sizes = {"river": street("33%, 75%", "60%", cap=2)}
    sub = build_subgame(state, RIVER, random_ranges(RIVER), sizes)
    node = sub.game.nodes[sub.node_of(state)]
    assert node.player == 0 and node.contributions == (200.0, 600.0)
    bet = sub.game.nodes[node.parent]
    assert bet.contributions == (200.0, 100.0)  # under the 100-chip bet, not the 66-chip one


def test_range_text_reads_back_exactly_and_refuses_an_empty_range():
    weights = np.zeros(N_COMBOS)
    weights[[0, 5, 700, 1325]] = [1e-9, 0.3, 1 / 3, 0.7]
    assert np.array_equal(parse_range(range_text(weights)), weights / 0.7)
    with pytest.raises(InputError):
        range_text(np.zeros(N_COMBOS))


class Fixed:
    """A test agent: checks or calls with chance ``p(combo)``, else makes the minimum raise."""

    name = "fixed"

    def __init__(self, salt: int) -> None:
        self.p = ((np.arange(N_COMBOS) * 37 + salt) % 11 + 1) / 12.0

    def policy(self, state: HunlState, board: np.ndarray) -> Policy:
        legal = state.legal()
        actions = (Action(CALL), Action(RAISE, legal.min_raise_to))
        return Policy(actions, np.stack([self.p, 1 - self.p], axis=1))

    def act(self, state, board, combo, rng):
        return self.policy(state, board).sample(combo, rng)


def test_bayes_ranges_multiply_each_seats_own_action_probabilities():
    state = replay("r200c/cr300c/", CONFIG)  # SB min-raises twice, BB calls, checks, calls
    agents = (Fixed(1), Fixed(4))
    ranges = bayes_ranges(state, TURN, agents)
    live = ~dead_mask([int(c) for c in TURN])
    assert [a for _, a in line(state)][0] == Action(RAISE, 200)
    np.testing.assert_allclose(ranges[0], (1 - agents[0].p) ** 2 * live, rtol=1e-15)
    np.testing.assert_allclose(ranges[1], agents[1].p**3 * live, rtol=1e-15)


def test_a_river_valued_by_the_spot_engine_equals_a_brute_force_over_hand_pairs():
    # pot 500 (SB raised to 250, BB called), checked down to the river; OOP (the big blind)
    # may bet the pot, IP has no bets: OOP bets or checks, IP folds or calls.
    state = replay("r250c/cc/cc/", CONFIG)
    board = RIVER
    bb_hands = ["AsAh", "Kd7d", "6h5h", "QcJc", "8s8d"]
    sb_hands = ["KhQh", "9h9d", "3c3h", "Ad7c", "JhTh"]
    ranges = np.zeros((2, N_COMBOS))
    for seat, hands in ((1, bb_hands), (0, sb_hands)):
        for k, hand in enumerate(hands):
            a, b = parse_cards(hand)
            ranges[seat, COMBO_INDEX[a, b]] = 0.2 + 0.15 * k
    sizes = {"river": StreetSizes.parse({"oop_bet": "100%"}, "test")}
    sub = build_subgame(state, board, ranges, sizes)
    game = sub.game
    root = game.root
    assert root.player == 0 and root.tokens == ("x", "b500")
    bet = game.nodes[root.children[1]]
    assert bet.tokens == ("f", "c")
    combos0, combos1 = game.hand_combos
    bet_p = (np.arange(len(combos0)) % 3) / 2.0  # OOP's chance to bet, per hand
    call_p = ((np.arange(len(combos1)) + 1) % 4) / 3.0  # IP's chance to call
    strategy = {root.id: np.stack([1 - bet_p, bet_p], axis=1),
                bet.id: np.stack([1 - call_p, call_p], axis=1)}  # fmt: skip
    checked = game.nodes[root.children[0]]
    assert checked.player == 1 and checked.tokens == ("x",)  # IP has no bet: it checks back
    strategy[checked.id] = np.ones((len(combos1), 1))
    engine = expected_values(game, strategy).totals[0]

    def rank(combo):  # phevaluator: lower is better
        return evaluate_cards(*[card_str(int(c)) for c in (*COMBO_CARDS[combo], *board)])

    total = weight_sum = 0.0
    for i, c0 in enumerate(combos0):
        for j, c1 in enumerate(combos1):
            if set(COMBO_CARDS[c0]) & set(COMBO_CARDS[c1]):
                continue
            w = ranges[1, c0] * ranges[0, c1]
            r0, r1 = rank(c0), rank(c1)
            sign = 0.0 if r0 == r1 else (1.0 if r0 < r1 else -1.0)
            check = 250 * sign
            bet_value = (1 - call_p[j]) * 250 + call_p[j] * 750 * sign
            total += w * ((1 - bet_p[i]) * check + bet_p[i] * bet_value)
            weight_sum += w
    assert engine == pytest.approx(total / weight_sum, abs=1e-9)


def test_a_flop_subgame_carries_every_turn_and_river_of_the_all_in_tree():
    # preflop: SB raises to 250, BB calls: pot 500, 9,750 behind each. Every street of the flop
    # tree is check or all-in: per street 4 decisions (OOP, IP after a check, each facing the
    # all-in) and 4 terminals (2 folds, 2 called all-ins, one showdown over the runouts), plus
    # the check-check: a chance node (flop, turn) or a showdown (river). So 8 + 1 on the flop,
    # 49 x (8 + 1) on the turns, 49 x 48 x 9 on the rivers.
    from solvers.agents.resolving import FLOP_TREES

    flop = np.array(parse_cards("Ks 7h 2d"))
    state = replay("r250c/", CONFIG)
    sub = build_subgame(state, flop, random_ranges(flop), FLOP_TREES["allin"])
    assert (sub.params.pot, sub.params.stack) == (500.0, 9750.0)
    game = sub.game
    assert len(game.nodes) == 9 + 49 * 9 + 49 * 48 * 9 == 21_618
    root = game.root
    assert root.player == 0 and root.tokens == ("x", "b9750")
    turn = game.nodes[game.nodes[root.children[0]].children[0]]
    assert turn.is_chance and len(turn.children) == 49
    called = game.nodes[game.nodes[root.children[1]].children[1]]  # all-in, called on the flop
    assert called.terminal == "showdown" and len(called.board) == 3
    assert called.contributions == (10_000.0, 10_000.0)
    assert sum(n.is_chance for n in game.nodes) == 1 + 49
    assert state.street == 1 and sub.node_of(state) == root.id
    assert sub.node_of(replay("r250c/c", CONFIG)) == root.children[0]
