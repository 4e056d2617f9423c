"""Numbers a learner can trust: fresh decks per session, and the EV lost by the human's own
decisions checked against values worked out by hand."""

import json

import numpy as np
import pytest

from pokertui.session import Session
from pokertui.session.headless import play_match
from pokertui.session.saves import load_session, save_path, save_session
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES

J, Q, K = 0, 1, 2


def session_for(name, **kwargs):
    return Session(load_strategy(STRATEGIES / name), **kwargs)


def deals(session, hands, rng):
    """Play ``hands`` hands with random actions; the deals in order."""
    out = []
    for _ in range(hands):
        session.new_hand()
        while session.human_to_act:
            session.act(str(rng.choice(session.node.actions)))
        hand = session.hand
        out.append((hand.deal.hands, tuple(s.action for s in hand.steps if s.seat is None)))
    return out


# --- item 1: every new session deals new cards ---------------------------------------------


def test_new_sessions_without_a_seed_deal_different_cards():
    first, second = session_for("leduc.json"), session_for("leduc.json")
    assert first.seed != second.seed
    # 30 Leduc deals (36 ordered pairs each) repeat by chance with probability ~36**-30
    assert deals(first, 30, np.random.default_rng(0)) != deals(second, 30, np.random.default_rng(0))


def test_an_explicit_seed_replays_the_same_deck():
    first, second = session_for("leduc.json", seed=77), session_for("leduc.json", seed=77)
    assert first.seed == second.seed == 77
    assert deals(first, 30, np.random.default_rng(0)) == deals(second, 30, np.random.default_rng(0))


def test_the_fresh_seed_is_saved_and_resume_continues_the_deck(tmp_path):
    session = session_for("leduc.json")
    rng = np.random.default_rng(1)
    deals(session, 4, rng)
    path = save_session(session, save_path(tmp_path, "fresh"))
    assert json.loads(path.read_text())["seed"] == session.seed
    resumed, warning = load_session(path)
    assert warning is None and resumed.seed == session.seed
    # the resumed session deals exactly what the original deals next
    expected = deals(session, 5, np.random.default_rng(2))
    assert deals(resumed, 5, np.random.default_rng(2)) == expected


def test_a_replayed_seed_starts_the_same_deck_as_the_saved_session(tmp_path):
    session = session_for("kuhn.json")
    original = deals(session, 10, np.random.default_rng(3))
    replay = session_for("kuhn.json", seed=session.seed)
    assert deals(replay, 10, np.random.default_rng(3)) == original


# --- item 2: EV lost by the human's decisions ----------------------------------------------
# The shipped Kuhn bot is the alpha = 0 equilibrium: seat 1 always checks first; seat 2 bets K
# and a third of its Js after a check, and facing a bet calls K, a third of its Qs, never J.


def kuhn_hand(human_seat, card):
    """A Kuhn session whose first hand gives the human ``card``."""
    for seed in range(500):
        session = session_for("kuhn.json", seed=seed, human_seat=human_seat)
        session.new_hand()
        if session.hand.deal.hands[human_seat] == card:
            return session
    raise AssertionError("no seed dealt the card")


def test_betting_a_queen_first_loses_one_sixth_of_a_chip():
    # Bet: the bot's K (1/2) calls, -2; its J (1/2) folds, +1 -> EV -1/2.
    # Check: the bot's K bets and Q's best reply loses 1 (calling also averages -1 there);
    # its J bets 1/3 (Q folds, -1, or calls, +2: same total) and checks 2/3 (+1)
    # -> 1/2 * -1 + 1/2 * (1/3 * -1 + 2/3 * 1) = -1/3. Loss of betting: -1/3 - (-1/2) = 1/6.
    session = kuhn_hand(0, Q)
    session.act("bet")
    step = next(s for s in session.hand.steps if s.seat == 0)
    assert step.action_evs == pytest.approx([-1 / 3, -1 / 2], abs=1e-4)
    assert step.ev_loss == pytest.approx(1 / 6, abs=1e-4)
    assert session.hand_over
    assert session.hand.ev_lost == pytest.approx(1 / 6, abs=1e-4)
    assert session.summary()["ev_lost_net"] == pytest.approx(1 / 6, abs=1e-4)


def test_folding_a_king_to_a_bet_loses_three_chips():
    # Holding K facing a bet, calling always wins the ante and the bet (+2) and folding loses
    # the ante (-1), whatever the bot holds: EV loss 3. Checking K first loses nothing against
    # this bot (betting K: its J folds, its Q calls a third: 1/2*1 + 1/2*(2/3*1 + 1/3*2) = 7/6;
    # checking K: J bets 1/3 and is called, +2, else both check, +1; Q checks, +1 -> 7/6).
    for seed in range(500):
        session = session_for("kuhn.json", seed=seed, human_seat=0)
        session.new_hand()
        if session.hand.deal.hands[0] != K:
            continue
        session.act("check")
        if session.human_to_act:  # the bot bet its J
            break
    else:
        raise AssertionError("the bot never bet into a king")
    session.act("fold")
    first, second = (s for s in session.hand.steps if s.seat == 0)
    assert first.ev_loss == pytest.approx(0.0, abs=1e-4)
    assert first.action_evs == pytest.approx([7 / 6, 7 / 6], abs=1e-4)
    assert second.action_evs == pytest.approx([-1.0, 2.0], abs=1e-9)
    assert second.ev_loss == pytest.approx(3.0, abs=1e-9)
    assert session.hand.ev_lost == pytest.approx(3.0, abs=1e-4)
    assert session.hand.result == -1.0


def test_session_ev_lost_adds_the_hands():
    session = session_for("leduc.json", seed=5)
    deals(session, 12, np.random.default_rng(4))
    per_hand = [h.ev_lost for h in session.hands]
    per_step = [sum(s.ev_loss for s in h.steps if s.seat == h.human_seat) for h in session.hands]
    assert per_hand == pytest.approx(per_step)
    assert min(per_hand) >= -1e-9 and max(per_hand) > 0  # random play makes mistakes
    summary = session.summary()
    assert summary["ev_lost_net"] == pytest.approx(sum(per_hand))
    assert summary["ev_lost_mean"] == pytest.approx(sum(per_hand) / 12)


def test_unreviewed_sessions_report_no_ev_lost():
    session = session_for("kuhn.json", seed=1, review=False)
    deals(session, 3, np.random.default_rng(0))
    assert all(h.ev_lost is None for h in session.hands)
    assert session.summary()["ev_lost_hands"] == 0


def test_headless_strategy_opponent_reports_its_ev_lost():
    kuhn = load_strategy(STRATEGIES / "kuhn.json")
    # the equilibrium against itself gives nothing up (to the file's 6-decimal rounding)
    same = play_match(kuhn, str(STRATEGIES / "kuhn.json"), 300, seed=3)
    assert same["opponent_ev_lost_net"] == pytest.approx(0.0, abs=1e-3)
    random = play_match(kuhn, "random", 50, seed=3)
    assert "opponent_ev_lost_mean" not in random


def test_play_json_reports_the_strategy_opponents_ev_lost(capsys):
    from pokertui.cli import main

    kuhn = str(STRATEGIES / "kuhn.json")
    assert main(["play", "--bot", kuhn, "--opponent", kuhn, "--hands", "40", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seed"] == 0  # headless matches stay reproducible by default
    assert report["opponent_ev_lost_mean"] == pytest.approx(0.0, abs=1e-3)
    assert {"opponent_ev_lost_net", "opponent_ev_lost_ci95"} <= report.keys()


# --- item 6: pot odds only where there is a call to make ----------------------------------


def test_push_fold_small_blind_gets_no_pot_odds_but_the_big_blind_does():
    from pokertui.session import current_spot
    from pokertui.widgets.live_panel import odds_text

    small_blind = session_for("push_fold_10bb.json", seed=1, human_seat=0)
    small_blind.new_hand()
    spot = current_spot(small_blind)
    assert spot.to_call == pytest.approx(0.5)  # the blind is owed, but it cannot be called
    assert spot.required_equity is None and spot.mdf is None and spot.bluff_share is None
    text = odds_text(spot).plain
    assert "MDF" not in text and "no call here" in text
    for seed in range(100):
        big_blind = session_for("push_fold_10bb.json", seed=seed, human_seat=1)
        big_blind.new_hand()
        if big_blind.human_to_act:  # the bot shoved
            break
    spot = current_spot(big_blind)
    # calling 9 more into a pot of 11: 9 / 20 = 45% needed; the shove is a raise of 9 over a
    # pot of 2 (both blinds matched at 1), so MDF = 2 / (2 + 9)
    assert spot.required_equity == pytest.approx(9 / 20)
    assert spot.mdf == pytest.approx(2 / 11)
    assert "MDF" in odds_text(spot).plain
