"""Resuming a full-game save: an unfinished hand continues at the decision where it was left
(same cards, same betting), and a save between hands never deals a seen hand again."""

from __future__ import annotations

import json

import pytest

from pokertui.session.hunl_saves import SAVE_VERSION, load_hunl_session, save_hunl_session
from pokertui.session.hunl_session import HunlSession
from pokertui.session.saves import SaveError, save_kind
from solvers.agents.chumps import AlwaysCall, RandomAgent
from solvers.games.hunl.rules import HunlConfig

CONFIG = HunlConfig(100)


def played_to_the_flop(seed: int = 12) -> HunlSession:
    """Eight finished hands, then a ninth left on the flop with the human to act after the
    random bot's preflop action."""
    s = HunlSession(CONFIG, RandomAgent(), bot_name="random", seed=seed)
    for _ in range(8):
        s.new_hand()
        while s.human_to_act:
            s.act("c")
    while True:
        s.new_hand()
        while s.human_to_act and s.state.street == 0:
            s.act("c")
        if s.human_to_act and s.state.street == 1:
            return s
        while s.human_to_act:  # the bot raised all-in or folded: finish and deal again
            s.act("c")


def scored(session: HunlSession) -> int:
    summary = session.summary()
    assert summary["net"] == sum(h.result for h in session.hands if h.result is not None)
    return summary["hands"]


def cards(hand) -> tuple:
    return (*hand.hole[0], *hand.hole[1], *hand.board)


def test_an_unfinished_hand_resumes_at_the_same_decision(tmp_path):
    s = played_to_the_flop()
    assert save_kind(save_hunl_session(s, tmp_path / "mid.json")) == "pokertui-hunl-session"
    loaded, warning = load_hunl_session(tmp_path / "mid.json")
    assert warning is None
    assert len(loaded.hands) == len(s.hands) == 9
    assert scored(loaded) == scored(s) == 8  # the ninth is not over
    assert not loaded.hand_over and loaded.human_to_act
    assert cards(loaded.hand) == cards(s.hand) and loaded.board == s.board
    assert loaded.state == s.state
    assert [(st.seat, st.action, st.pot, st.to_call) for st in loaded.hand.steps] == [
        (st.seat, st.action, st.pot, st.to_call) for st in s.hand.steps
    ]
    assert [o.label for o in loaded.options()] == [o.label for o in s.options()]
    # the bot draws its answers from the same generator: both sessions play on alike
    for session in (s, loaded):
        while not session.hand_over:
            session.act("min" if session.state.street == 1 else "c")
        session.new_hand()
    assert loaded.hands[8].betting == s.hands[8].betting
    assert loaded.hands[8].result == s.hands[8].result
    assert cards(loaded.hands[9]) == cards(s.hands[9])


def test_the_live_numbers_and_review_follow_a_resumed_hand(tmp_path):
    """The bot's Bayes range reads its actions this hand: the same after a resume."""
    s = played_to_the_flop(seed=5)
    s.hand.steps[0].equity = 0.25  # a decision whose numbers were kept before saving
    loaded, _ = load_hunl_session(save_hunl_session(s, tmp_path / "mid.json"))
    assert loaded.hand.steps[0].equity == 0.25
    assert loaded.live().equity == pytest.approx(s.live().equity)


def test_a_save_between_hands_never_deals_a_seen_hand_again(tmp_path):
    s = HunlSession(CONFIG, AlwaysCall(), bot_name="call", seed=12)
    for _ in range(3):
        s.new_hand()
        while s.human_to_act:
            s.act("c")
    save_hunl_session(s, tmp_path / "between.json")  # the autosave after a hand
    seen = s.new_hand()  # dealt and looked at, then the player quits without a save
    loaded, _ = load_hunl_session(tmp_path / "between.json")
    assert len(loaded.hands) == 3 and loaded.hand_over
    assert cards(loaded.new_hand()) != cards(seen)


def test_a_version_1_save_left_mid_hand_deals_a_fresh_hand(tmp_path):
    """Version 1 kept the generator as it was before the unfinished hand's deal and dropped
    the hand: it still loads, but the hand is not dealt again."""
    s = played_to_the_flop()
    document = json.loads(save_hunl_session(s, tmp_path / "mid.json").read_text())
    document.update(format_version=1, rng_state=s.rng_at_deal)
    document.pop("in_play", None)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(document))
    loaded, warning = load_hunl_session(old)
    assert warning is None and len(loaded.hands) == 8 and loaded.hand_over
    assert scored(loaded) == scored(s) == 8
    assert cards(loaded.new_hand()) != cards(s.hand)


def test_tampered_unfinished_hands_and_newer_saves_are_refused(tmp_path):
    s = played_to_the_flop()
    good = json.loads(save_hunl_session(s, tmp_path / "mid.json").read_text())
    assert good["format_version"] == SAVE_VERSION == 2
    bad = tmp_path / "bad.json"

    def refused(change, match):
        document = json.loads(json.dumps(good))
        change(document)
        bad.write_text(json.dumps(document))
        with pytest.raises(SaveError, match=match):
            load_hunl_session(bad)

    def dealt_twice(d):
        d["in_play"]["board"][0] = d["in_play"]["hole"][0][0]

    def out_of_turn(d):
        d["in_play"]["steps"][0]["seat"] = 1 - d["in_play"]["steps"][0]["seat"]

    def other_betting(d):
        d["in_play"]["betting"] = "r300c/"

    def illegal(d):
        d["in_play"]["steps"][0]["action"] = "r50"

    def wrong_number(d):
        d["in_play"]["number"] = 12

    def newer(d):
        d["format_version"] = 3

    refused(dealt_twice, "dealt twice")
    refused(out_of_turn, "out of turn")
    refused(other_betting, "do not give the betting")
    refused(illegal, "a raise must be")
    refused(wrong_number, "not the next hand")
    refused(newer, "newer pokertui")
