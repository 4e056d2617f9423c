"""Practice on a hold'em spot: real deals, off-tree bets with real chips, live odds and pair
values checked against independent computations, saves and headless play."""

import json

import numpy as np
import pytest

from pokertui.cli import main
from pokertui.session import Session, current_spot
from pokertui.session.saves import load_session, save_session
from solvers.cards.deck import COMBO_CARDS
from solvers.cards.evaluator import evaluate_hand
from solvers.exact.hand_values import checkdown_odds
from solvers.games import load_game
from solvers.games.holdem.pair_odds import pair_payoffs
from solvers.strategy_file import load_strategy

RIVER_SPOT = """
board = "Ks 7d 2c 9h 4s"
pot = 100
stack = 300
oop_range = "QQ+, AK, KQs, 77, 99, 22, A5s, 65s"
ip_range = "TT+, AK, KJs, 99, 87s, QJs"
[river]
oop_bet = "50%, a"
ip_bet = "50%, a"
ip_raise = "a"
oop_raise = "a"
"""

TURN_SPEC = (
    'nlhe(board="Ks 7d 2c 9h",pot=100,stack=200,oop_range="KK, 99, A5s, 65s, QJs",'
    'ip_range="AA, K9s, T8s, 77",turn_oop_bet="a",turn_ip_bet="a",river_oop_bet="a",'
    'river_ip_bet="a")'
)


@pytest.fixture(scope="module")
def river_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spot")
    spot = folder / "river.toml"
    spot.write_text(RIVER_SPOT)
    out = folder / "river.json"
    code = main(["solve", str(spot), "--algo", "dcfr", "--target", "0.3%", "--out", str(out)])
    assert code == 0
    return out


def _brute_checkdown(game, board, seat, hand, opp_range):
    """Win and tie shares by looping over runouts and opponent combos with the scalar
    evaluator (independent of the batched code)."""
    own = [int(c) for c in COMBO_CARDS[game.hand_combos[seat][hand]]]
    unseen = [c for c in range(52) if c not in own and c not in board]
    boards = [list(board)] if len(board) == 5 else [[*board, c] for c in unseen]
    win = tie = mass = 0.0
    for full in boards:
        mine = evaluate_hand(own + full)
        for h, combo in enumerate(game.hand_combos[1 - seat]):
            cards = [int(c) for c in COMBO_CARDS[combo]]
            if opp_range[h] == 0 or set(cards) & (set(own) | set(full)):
                continue
            theirs = evaluate_hand(cards + full)
            mass += opp_range[h]
            win += opp_range[h] * (mine > theirs)
            tie += opp_range[h] * (mine == theirs)
    return win / mass, tie / mass


@pytest.mark.parametrize("spec_board", ["river", "turn"])
def test_checkdown_odds_match_brute_force(spec_board):
    if spec_board == "turn":
        game = load_game(TURN_SPEC)
    else:
        game = load_game(
            'nlhe(board="Ks 7d 2c 9h 4s",pot=100,stack=300,oop_range="QQ+,AK,99,65s",'
            'ip_range="TT+,AK,KJs,87s")'
        )
    rng = np.random.default_rng(1)
    opp = rng.random(game.n_hands[1])
    for hand in (0, game.n_hands[0] // 2, game.n_hands[0] - 1):
        got = checkdown_odds(game, game.root, 0, hand, opp)
        want = _brute_checkdown(game, game.root.board, 0, hand, opp)
        assert got == pytest.approx(want, abs=1e-12)


def test_pair_payoffs_match_the_dense_terminal_matrices():
    game = load_game(TURN_SPEC)
    rng = np.random.default_rng(2)
    for _ in range(4):
        h0, h1 = (int(i) for i in np.argwhere(game.prior > 0)[rng.integers(0, 50)])
        dense = (
            np.array([game.terminal_matrix(int(t))[h0, h1] for t in game.terminal_ids])
            / game.prior[h0, h1]
        )
        assert pair_payoffs(game, h0, h1) == pytest.approx(dense, abs=1e-9)


def test_deals_are_real_cards_from_the_ranges(river_file):
    session = Session(load_strategy(river_file), human_seat=1, seed=5, review=False)
    game = session.game
    board = set(game.root.board)
    for _ in range(40):
        hand = session.new_hand()
        holes = hand.deal.hole_cards
        for seat in (0, 1):
            assert set(holes[seat]) == {
                int(c) for c in COMBO_CARDS[game.hand_combos[seat][hand.deal.hands[seat]]]
            }
        assert not (set(holes[0]) & set(holes[1])) and not ((set(holes[0]) | set(holes[1])) & board)
        while session.human_to_act:
            session.act(session.legal_options()[0].label)
        assert session.board_text().replace(" ", "") == "Ks7d2c9h4s"


def _play_off_tree(session, amount):
    """Deal until the human (OOP) is first to act at the root, then bet ``amount``."""
    while True:
        session.new_hand()
        if session.human_to_act and session.node.key == "":
            break
        while session.human_to_act:
            session.act(session.legal_options()[0].label)
    session.act_amount(amount)


def test_off_tree_bet_is_played_for_real_chips(river_file):
    session = Session(load_strategy(river_file), human_seat=0, seed=11)
    outcomes = set()
    for _ in range(30):
        _play_off_tree(session, 80)  # tree sizes: 50 and all-in 300
        hand = session.hand
        step = hand.steps[0]
        assert step.amount == 80 and step.shown == "bet 80"
        assert [m[0] for m in step.mapped] == ["bet 50", "all-in 300"]
        assert step.mapped[0][1] == pytest.approx((3 - 0.8) * 1.5 / (2.5 * 1.8))
        reply = hand.steps[1]
        assert reply.seat == 1
        if reply.action == "fold":
            assert hand.result == 50
        elif reply.action == "call":
            assert reply.amount == 80
            holes = hand.deal.hole_cards
            board = hand.deal.board
            strengths = [evaluate_hand(list(holes[s]) + board) for s in (0, 1)]
            assert hand.result == 130 * np.sign(strengths[0] - strengths[1])
        else:  # the bot shoves over the real bet: 300 + 50 - 50 - 0 = 300 more in total
            assert reply.amount == 300
            assert reply.text == "all-in 300"
            if not session.hand_over:
                session.act("fold")
                assert hand.result == -130
        outcomes.add(reply.action)
        # the review prices the real bet as the translation's mix of the tree sizes
        assert step.ev_loss == pytest.approx(
            max(step.action_evs)
            - sum(p * step.action_evs[session.game.root.actions.index(a)] for a, p in step.mapped)
        )
    assert {"fold", "call"} <= outcomes


def test_off_tree_session_saves_and_resumes(river_file, tmp_path):
    session = Session(load_strategy(river_file), human_seat=0, seed=3)
    _play_off_tree(session, 120)
    while not session.hand_over:
        session.act(session.legal_options()[0].label)
    path = save_session(session, tmp_path / "spot.json")
    resumed, warning = load_session(path)
    assert warning is None
    assert resumed.hands[-1].steps == session.hands[-1].steps
    assert resumed.summary() == session.summary()


def test_live_spot_follows_the_real_pot(river_file):
    session = Session(load_strategy(river_file), human_seat=1, seed=4)
    for _ in range(50):
        session.new_hand()
        if session.human_to_act and session.node.key == "x":
            break
        while session.human_to_act:
            session.act(session.legal_options()[0].label)
    spot = current_spot(session)
    assert spot.pot == 100 and spot.to_call == 0
    assert 0 <= spot.equity <= 1
    assert spot.bot_range.sum() == pytest.approx(1.0)


def test_headless_play_on_a_spot_file(river_file, capsys):
    assert main(["play", "--bot", str(river_file), "--hands", "40", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 40
    assert main(["play", "--bot", str(river_file), "--opponent", "call", "--hands", "20"]) == 0


def test_random_off_tree_play_keeps_the_chips_consistent(river_file):
    """Random lines with random amounts: nobody puts in more than the stack, every hand ends,
    and the result is the opponent's real chips in, the human's, or a split."""
    session = Session(load_strategy(river_file), seed=21, review=False)
    cap = session.game.params.pot / 2 + session.game.params.stack
    rng = np.random.default_rng(5)
    off_tree_bets = 0
    for _ in range(120):
        session.new_hand()
        while session.human_to_act:
            options = session.legal_options()
            room = cap - session.real_put[session.human_seat]
            to_call = session.to_call()
            if (
                any(o.kind == "aggressive" for o in options)
                and room > to_call + 1
                and rng.random() < 0.5
            ):
                session.act_amount(float(rng.integers(int(to_call) + 1, int(room) + 1)))
                off_tree_bets += 1
            else:
                session.act(options[int(rng.integers(len(options)))].label)
            assert max(session.real_put) <= cap + 1e-9
        hand = session.hand
        human = hand.human_seat
        put = session.real_put
        assert hand.result in (put[1 - human], -put[human], 0.0)
    assert off_tree_bets > 30


def test_deals_follow_the_range_weights_with_card_removal():
    """Dealt combos' frequencies match weights times compatibility, counted by brute force."""
    from itertools import product  # noqa: PLC0415

    from pokertui.session.deal import deal_hands  # noqa: PLC0415
    from solvers.cards.ranges import parse_range  # noqa: PLC0415

    game = load_game(
        'nlhe(board="Ks 7d 2c 9h 4s",pot=100,stack=300,oop_range="AA:0.25,QQ",'
        'ip_range="AQs,QJs:0.5")'
    )
    board = set(game.root.board)
    weights = [parse_range("AA:0.25,QQ"), parse_range("AQs,QJs:0.5")]
    live = [
        [c for c in range(1326) if weights[p][c] > 0 and not board & set(COMBO_CARDS[c].tolist())]
        for p in (0, 1)
    ]
    mass = {}
    for a, b in product(*live):
        if not set(COMBO_CARDS[a].tolist()) & set(COMBO_CARDS[b].tolist()):
            mass[a, b] = weights[0][a] * weights[1][b]
    total = sum(mass.values())
    p_aces = sum(m for (a, _), m in mass.items() if COMBO_CARDS[a][0] >> 2 == 12) / total
    rng = np.random.default_rng(9)
    n = 6000
    aces = 0
    for _ in range(n):
        deal = deal_hands(game, rng)
        holes = deal.hole_cards
        assert not set(holes[0]) & set(holes[1])
        aces += holes[0][0] >> 2 == 12
    assert aces / n == pytest.approx(p_aces, abs=4 * (p_aces * (1 - p_aces) / n) ** 0.5)
    assert 0.05 < p_aces < 0.4  # the weight 0.25 and the AQs blockers matter
