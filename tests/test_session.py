"""The play session without any UI: rules, bot sampling, live numbers, scoring and saves."""

import json

import numpy as np
import pytest

from pokertui.session import IllegalActionError, Session, current_spot
from pokertui.session.headless import play_match
from pokertui.session.saves import SaveError, load_session, save_path, save_session
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES

GAMES = ["kuhn.json", "leduc.json", "von_neumann.json", "river_toy.json"]


def session_for(name, **kwargs):
    return Session(load_strategy(STRATEGIES / name), **kwargs)


def play_random(session, hands, rng):
    for _ in range(hands):
        session.new_hand()
        while session.human_to_act:
            session.act(str(rng.choice(session.node.actions)))
        yield session.hand


@pytest.mark.parametrize("name", GAMES)
def test_chips_are_conserved(name):
    session = session_for(name, seed=3, review=False)
    rng = np.random.default_rng(0)
    hands = 1500 if name != "leduc.json" else 800
    for hand in play_random(session, hands, rng):
        terminal = session.node
        assert terminal.is_terminal
        put = terminal.contributions
        mine, theirs = put[hand.human_seat], put[1 - hand.human_seat]
        # the human wins the bot's chips, loses their own, or splits
        assert hand.result in (
            pytest.approx(theirs),
            pytest.approx(-mine),
            pytest.approx((theirs - mine) / 2),
        )
    assert session.score.hands == hands
    assert session.summary()["net"] == pytest.approx(sum(session.score.results))


def test_illegal_actions_are_rejected_clearly():
    session = session_for("kuhn.json", seed=1, human_seat=0)
    with pytest.raises(IllegalActionError, match="no hand"):
        session.act("bet")
    session.new_hand()
    with pytest.raises(IllegalActionError, match="not legal here; choose one of check, bet"):
        session.act("raise")
    with pytest.raises(IllegalActionError, match="sizes allowed: 1"):
        session.act_amount(3)
    session.act("check")
    if session.human_to_act:
        session.act(session.node.actions[0])
    with pytest.raises(IllegalActionError, match="not your turn"):
        session.act("check")


def test_bot_frequencies_match_its_file():
    session = session_for("kuhn.json", seed=5, human_seat=1, review=False)
    file = session.file
    root = session.game.root
    counts = np.zeros((3, 2))
    for _ in range(6000):
        session.new_hand()
        first = session.hand.steps[0]
        counts[session.hand.deal.hands[0], root.actions.index(first.action)] += 1
        while session.human_to_act:
            session.act("check" if "check" in session.node.actions else "fold")
    expected = file.strategy[root.id]
    observed = counts / counts.sum(axis=1, keepdims=True)
    n = counts.sum(axis=1, keepdims=True)
    tolerance = 4 * np.sqrt(expected * (1 - expected) / n) + 1e-9
    assert np.all(np.abs(observed - expected) <= tolerance)


def _walk_to_human_decision(session, rng, depth):
    while session.human_to_act:  # finish the previous hand
        session.act(str(rng.choice(session.node.actions)))
    session.new_hand()
    for _ in range(depth):
        if not session.human_to_act:
            return
        session.act(str(rng.choice(session.node.actions)))


def _human_decisions(session, rng, wanted):
    """Yield the session at ``wanted`` human decisions reached by random play."""
    seen = 0
    for _ in range(20 * wanted):
        if seen >= wanted:
            return
        _walk_to_human_decision(session, rng, int(rng.integers(0, 3)))
        if session.human_to_act:
            seen += 1
            yield session
    raise AssertionError(f"only {seen} human decisions reached")


class OpenSpielSpots:
    """The bot's range and the human's action EVs from OpenSpiel's own best response.

    ``BestResponsePolicy`` lists, for every information state of the responder, the histories in
    it with their counterfactual weight (chance times the bot's reach); ``q_value`` is a history's
    value of an action with the best response afterwards. Weighting one by the other gives the
    information state's action values, and summing weights by the bot's card gives its range.
    """

    def __init__(self, session):
        from open_spiel.python.algorithms.best_response import BestResponsePolicy

        from solvers.strategy_file.openspiel import (
            _ACTION_IDS,
            openspiel_game_for,
            to_openspiel_policy,
        )

        self.game = session.game
        self.os_game = openspiel_game_for(self.game)
        self.action_ids = _ACTION_IDS[self.game.name]
        self.responders = [
            BestResponsePolicy(
                self.os_game, seat, to_openspiel_policy(self.game, session.equilibrium_vs_bot(seat))
            )
            for seat in (0, 1)
        ]

    def spot(self, session):
        deal, human = session.hand.deal, session.human_seat
        state = self.os_game.new_initial_state()
        state.apply_action(deal.hands[0])
        state.apply_action(deal.hands[1])
        for step in session.hand.steps:
            if step.seat is None:  # a board card: our outcome index is the card id
                state.apply_action(self.game.node_by_key(step.node_key).actions.index(step.action))
            else:
                state.apply_action(self.action_ids[step.action])
        responder = self.responders[human]
        entries = responder.infosets[state.information_state_string(human)]
        weights = np.array([weight for _, weight in entries])
        bot_range = np.zeros(self.game.n_hands[1 - human])
        for history, weight in entries:
            bot_range[history.history()[1 - human]] += weight
        evs = [
            sum(w * responder.q_value(h, self.action_ids[a]) for h, w in entries) / weights.sum()
            for a in session.node.actions
        ]
        return bot_range / bot_range.sum(), np.array(evs)


@pytest.mark.parametrize("name", ["kuhn.json", "leduc.json"])
@pytest.mark.parametrize("bot_mode", ["mixed", "thresholded"])
def test_ranges_and_action_evs_equal_openspiel(name, bot_mode):
    session = session_for(name, seed=11, bot_mode=bot_mode, threshold_cutoff=0.3, review=False)
    oracle = OpenSpielSpots(session)
    for spot_session in _human_decisions(session, np.random.default_rng(2), 25):
        spot = current_spot(spot_session)
        bot_range, evs = oracle.spot(spot_session)
        np.testing.assert_allclose(spot.bot_range, bot_range, atol=1e-12)
        np.testing.assert_allclose(spot.action_evs, evs, atol=1e-12)
        best = spot_session.node.actions.index(spot.best_action)
        assert evs[best] == pytest.approx(evs.max(), abs=1e-12)


def test_von_neumann_ranges_and_action_evs_equal_the_closed_form():
    """One decision each: the player bets or checks, the dealer calls or folds a bet of 2.

    Hands are bins dealt independently (equal bins split). Checking is worth the ante times
    (share of lower bins - share of higher ones); betting wins the ante when the dealer folds and
    3 or -3 when called; calling wins 3 or loses 3 against the player's betting range.
    """
    session = session_for("von_neumann.json", seed=11)
    game = session.game
    bins = game.n_hands[0]
    bet = session.bot_strategy[game.root.id][:, 1]
    call = session.bot_strategy[game.node_by_key("b").id][:, 1]
    checked = 0
    for spot_session in _human_decisions(session, np.random.default_rng(2), 25):
        spot = current_spot(spot_session)
        own = session.hand.deal.hands[session.human_seat]
        sign = np.sign(own - np.arange(bins))  # +1 where the human's bin is higher
        if session.human_seat == 0:  # the player, at the root: the dealer's range is uniform
            np.testing.assert_allclose(spot.bot_range, np.full(bins, 1 / bins))
            check_ev = sign.mean()
            bet_ev = np.mean((1 - call) * 1.0 + call * 3.0 * sign)
            np.testing.assert_allclose(spot.action_evs, [check_ev, bet_ev], atol=1e-12)
        else:  # the dealer facing a bet: the player's range is the bins that bet
            np.testing.assert_allclose(spot.bot_range, bet / bet.sum(), atol=1e-12)
            call_ev = (bet / bet.sum()) @ (3.0 * sign)
            np.testing.assert_allclose(spot.action_evs, [-1.0, call_ev], atol=1e-12)
        checked += 1
    assert checked == 25


def test_river_toy_indifference_numbers_match_oracles():
    caller = session_for("river_toy.json", seed=0, human_seat=1)
    while True:
        caller.new_hand()
        if caller.human_to_act:
            break
    spot = current_spot(caller)
    assert spot.mdf == pytest.approx(0.8)
    assert spot.bluff_share == pytest.approx(1 / 6)
    assert spot.required_equity == pytest.approx(1 / 6)
    assert spot.bot_range[1] == pytest.approx(1 / 6, abs=1e-5)  # air share of the betting range
    bettor = session_for("river_toy.json", seed=0, human_seat=0)
    bettor.new_hand()
    size = current_spot(bettor).sizes[0]
    assert size.alpha == pytest.approx(0.2)
    assert size.bluff_to_value == pytest.approx(0.2)
    assert size.bot_fold_frequency == pytest.approx(0.2, abs=1e-5)


def test_ev_adjusted_result_is_unbiased_and_tighter():
    report = play_match(load_strategy(STRATEGIES / "kuhn.json"), "random", 4000, seed=9)
    assert (
        abs(report["mean"] - report["ev_adjusted_mean"])
        < report["ci95"] + report["ev_adjusted_ci95"]
    )
    assert report["ev_adjusted_ci95"] < report["ci95"]


def test_save_and_resume_deal_the_same_cards(tmp_path):
    session = session_for("leduc.json", seed=4)
    rng = np.random.default_rng(1)
    list(play_random(session, 5, rng))
    path = save_session(session, save_path(tmp_path, "mine"))
    resumed, warning = load_session(path)
    assert warning is None
    assert resumed.summary() == session.summary()
    assert [h.deal.hands for h in resumed.hands] == [h.deal.hands for h in session.hands]
    assert resumed.new_hand().deal.hands == session.new_hand().deal.hands


def test_corrupt_or_newer_save_falls_back_to_the_backup(tmp_path):
    session = session_for("kuhn.json", seed=2)
    rng = np.random.default_rng(3)
    path = save_path(tmp_path, "s1")
    list(play_random(session, 2, rng))
    save_session(session, path)
    list(play_random(session, 1, rng))
    save_session(session, path)  # the 2-hand save is now the backup
    path.write_text("{ half a file")
    resumed, warning = load_session(path)
    assert resumed.score.hands == 2 and "backup" in warning
    newer = json.loads(path.with_suffix(".json.bak").read_text())
    newer["format_version"] = 99
    path.write_text(json.dumps(newer))
    path.with_suffix(".json.bak").write_text(json.dumps(newer))
    with pytest.raises(SaveError, match="newer"):
        load_session(path)
    with pytest.raises(SaveError, match="save names"):
        save_path(tmp_path, "../escape")


@pytest.mark.parametrize(("name", "board"), [("flop_poker.json", 3), ("push_fold_10bb.json", 5)])
def test_holdem_showdowns_deal_the_games_board(name, board):
    session = session_for(name, seed=1, human_seat=0)
    rng = np.random.default_rng(0)
    showdowns = 0
    for hand in play_random(session, 60, rng):
        if hand.showdown:
            showdowns += 1
            assert len(hand.deal.board) == board
            assert not set(hand.deal.board) & set(hand.deal.hole_cards[0] + hand.deal.hole_cards[1])
    assert showdowns > 0
