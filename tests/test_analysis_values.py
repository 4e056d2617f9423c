"""The analysis' values of decisions: known answers, the engine's own play, and the same numbers
as the app's live panel for a session played in the app and exported to PHH."""

from pathlib import Path

import pytest

from pokertui.cli import main
from pokertui.session.hunl_session import HunlSession
from pokertui.session.phh import session_phhs
from solvers.agents.registry import make_agent
from solvers.analysis.hand_analysis import analyze_hand
from solvers.analysis.importer import read_hands
from solvers.analysis.runner import Task, run_analysis
from solvers.analysis.session_report import Filters, decisions_csv, session_report
from solvers.errors import InputError
from solvers.games.hunl.rules import CALL, Action, HunlConfig

DATA = Path(__file__).parent / "data" / "hand_histories"
NUTS = DATA / "stars_nuts_fold.txt"
POT_GIVEN_UP = 14 + 93
"""The nuts hand: $3 + $3 preflop and $4 + $4 on the flop, then the river shove of $93 (bb $1)."""


def _river(decisions):
    (river,) = [d for d in decisions if d["street"] == "river"]
    return river


def test_folding_the_nuts_to_a_river_shove_loses_the_pot_with_the_bet():
    """AhKh on Qh Jh 2c 3d Th is a royal flush: calling the $93 shove wins the $14 pot and the
    $93 bet (the call comes back), 107 bb; folding wins nothing."""
    (hand,) = read_hands([str(NUTS)]).hands
    decisions = analyze_hand(hand, 0, make_agent("random", hand.config))
    river = _river(decisions)
    evs = {o["action"]: o["ev"] for o in river["options"]}
    assert evs == {"f": 0.0, "c": pytest.approx(POT_GIVEN_UP, abs=1e-9)}
    assert river["ev_lost"] == pytest.approx(POT_GIVEN_UP, abs=1e-9)
    report = session_report({hand.key: decisions})
    assert report["worst"][0]["street"] == "river" and report["worst"][0]["chosen"] == "f"
    assert report["ev_lost"] == pytest.approx(POT_GIVEN_UP, abs=1e-9)
    assert report["bb_per_100_lost"] == pytest.approx(100 * POT_GIVEN_UP, abs=1e-6)
    assert report["by_street"]["river"]["ev_lost"] == pytest.approx(POT_GIVEN_UP, abs=1e-9)
    assert session_report({hand.key: decisions}, Filters(street="flop"))["ev_lost"] == 0.0


def test_each_decision_keeps_the_opponents_range_for_the_replay():
    """Before the villain acts every combo that misses the hero's cards is live: C(50, 2) =
    1,225, every class fully held. The uniform bot's actions weigh every combo alike, so on
    the river each live class is held at one share, and the combos are that share of the
    C(45, 2) = 990 that miss the hero's cards and the board."""
    (hand,) = read_hands([str(NUTS)]).hands
    decisions = analyze_hand(hand, 0, make_agent("random", hand.config))
    first = decisions[0]
    assert first["their_combos"] == pytest.approx(1225)
    assert len(first["their_range"]) == 169 and set(first["their_range"]) == {1.0}
    river = _river(decisions)
    (share,) = {x for x in river["their_range"] if x > 0}
    assert 0 < share < 1
    assert river["their_combos"] == pytest.approx(990 * share, abs=0.05)


def test_the_re_solve_agrees_and_its_own_certain_choice_loses_nothing(tmp_path):
    """Against the re-solving bot the river is its re-solve: calling the shove with the nuts
    is worth the same 107 bb, the engine's mix calls, and the hero who calls loses 0."""
    text = NUTS.read_text().replace("Hero: folds", "Hero: calls $93")
    path = tmp_path / "called.txt"
    path.write_text(text)
    (folded,) = read_hands([str(NUTS)]).hands
    (called,) = read_hands([str(path)]).hands
    agent = make_agent("resolve(from=river,iterations=12):random", called.config)
    river = _river(analyze_hand(called, 0, agent))
    assert "river re-solve" in river["method"]
    evs = {o["action"]: o["ev"] for o in river["options"]}
    assert evs["c"] == pytest.approx(POT_GIVEN_UP, abs=1e-6) and evs["f"] == pytest.approx(0)
    mix = {action: p for action, _, p in river["mix"]}
    assert max(mix, key=mix.get) == "c"
    assert river["ev_lost"] == pytest.approx(0.0, abs=1e-9)
    assert _river(analyze_hand(folded, 0, agent))["ev_lost"] == pytest.approx(POT_GIVEN_UP)


BOT = "resolve(from=turn,iterations=12):call"


def test_an_exported_session_gets_the_live_panels_numbers(tmp_path):
    """Hands played in the app against the re-solving bot, the human's live numbers taken at
    each decision; exported to PHH and analysed with the same bot, every option has the same
    EV as the panel showed."""
    config = HunlConfig(100.0)
    session = HunlSession(config, make_agent(BOT, config), bot_name=BOT, human_seat=1, seed=5)
    shown = {}
    for _ in range(3):
        session.new_hand()
        while not session.hand_over:
            numbers = session.live_job()()
            shown[(session.hand.number, len(session.hand.steps))] = {
                str(e.action): e.ev for e in numbers.evs
            }
            state = session.state
            bet = state.street == 2 and state.legal().min_raise_to is not None
            session.act("1/2" if bet else Action(CALL))
    path = tmp_path / "session.phhs"
    path.write_text(session_phhs(config, session.hands, human="you", bot="bot"))
    hands = read_hands([str(path)]).hands
    assert len(hands) == 3
    agent = make_agent(BOT, config)
    compared = 0
    for hand, played in zip(hands, session.hands, strict=True):
        seat = hand.seat_of("you")
        human_steps = [i for i, s in enumerate(played.steps) if s.seat == played.human_seat]
        decisions = analyze_hand(hand, seat, agent)
        assert len(decisions) == len(human_steps)
        for index, decision in zip(human_steps, decisions, strict=True):
            live = shown[(played.number, index)]
            ours = {o["action"]: o["ev"] for o in decision["options"]}
            assert set(ours) == set(live)
            for action, ev in live.items():
                if ev is None:
                    assert ours[action] is None
                else:
                    assert ours[action] * 100 == pytest.approx(ev, rel=1e-9, abs=1e-6)
                    compared += 1
    assert compared >= 10


def test_the_command_reports_json_csv_and_resumes_from_its_checkpoint(tmp_path, capsys):
    checkpoint = tmp_path / "analysis.json"
    args = ["analyze", str(NUTS), "--bot", "random", "--checkpoint", str(checkpoint)]
    assert main([*args, "--json"]) == 0
    import json  # noqa: PLC0415

    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 1 and report["decisions"] == 4
    assert report["ev_lost"] == pytest.approx(POT_GIVEN_UP, abs=1e-9)
    assert "preflop:" in report["model"] and checkpoint.exists()
    assert main([*args, "--csv", "--street", "river"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("hand,street,") and len(rows) == 2 and ",river," in rows[1]
    assert main([*args, "--chosen-only"]) == 2  # another option: not this checkpoint's
    assert "another bot or other options" in capsys.readouterr().err


def _untimed(done):
    return {key: [{k: v for k, v in d.items() if k != "seconds"} for d in ds]
            for key, ds in done.items()}  # fmt: skip


def test_both_seats_of_an_acpc_log_and_the_pool(tmp_path):
    """Both seats of a bot match: each hand analysed twice, once a seat; two local workers give
    the same records as one."""
    hands = read_hands([str(DATA / "acpc_match.log")]).hands
    tasks = [Task(h, s, "random") for h in hands for s in (0, 1)]
    one, failed = run_analysis(tasks, workers=1)
    assert not failed and len(one) == 4
    two, failed = run_analysis(tasks, workers=2)
    assert not failed and _untimed(two) == _untimed(one)
    rows = decisions_csv(d for ds in one.values() for d in ds).splitlines()
    assert len(rows) == 1 + sum(len(ds) for ds in one.values())


def test_filters_keep_the_decisions_of_their_kind():
    """The nuts hand: the button opens to 3 bb (a single-raised pot) on a flop of three
    distinct suits, Qh Jh 2c (two-tone)."""
    (hand,) = read_hands([str(NUTS)]).hands
    decisions = {hand.key: analyze_hand(hand, 0, make_agent("random", hand.config))}
    assert session_report(decisions, Filters(pot="single-raised"))["decisions"] == 4
    assert session_report(decisions, Filters(pot="3-bet"))["decisions"] == 0
    assert session_report(decisions, Filters(texture="two-tone"))["decisions"] == 4
    assert session_report(decisions, Filters(position="big blind"))["decisions"] == 0
    assert session_report(decisions, Filters(depth=100.0))["decisions"] == 4
    with pytest.raises(InputError, match="--street 'showdown'"):
        Filters(street="showdown")


def test_a_bet_off_the_bots_tree_is_valued_in_the_street_solved_with_it(tmp_path):
    """A person bets $23 into $14 on the river, a size the bot's own solve never bets: the
    river is solved again with that bet in its tree. Calling with the royal flush wins the
    $14 pot and the $23 bet, 37 bb; folding it loses at least that."""
    text = NUTS.read_text().replace("Villain: bets $93 and is all-in", "Villain: bets $23")
    path = tmp_path / "odd.txt"
    path.write_text(text)
    (hand,) = read_hands([str(path)]).hands
    agent = make_agent("resolve(from=river,iterations=12):random", hand.config)
    river = _river(analyze_hand(hand, 0, agent))
    assert "off the bot's tree: the street solved again with it" in river["method"]
    evs = {o["action"]: o["ev"] for o in river["options"]}
    assert evs["c"] == pytest.approx(14 + 23, abs=1e-6) and evs["f"] == pytest.approx(0)
    assert river["ev_lost"] >= 37 - 1e-6


def test_an_action_the_model_never_takes_leaves_its_range_as_it_was():
    import numpy as np  # noqa: PLC0415

    from solvers.analysis.live_values import modelled  # noqa: PLC0415
    from solvers.games.hunl.agent import Policy  # noqa: PLC0415

    checks = Policy((Action("f"), Action(CALL)), np.full((1326, 2), 0.5))
    assert modelled(checks, Action(CALL)) and not modelled(checks, Action("r", 10_000))


def test_raises_over_a_bet_off_the_bots_tree_are_answered_by_node_re_solves(tmp_path, monkeypatch):
    """Over the $23 bet the bot never makes, every raise the app offers gets a value: the bot
    answers each with a node re-solve taken at the hero's decision in the street solved from
    the hero's seat, never the street solved again. With the royal flush a raise wins the 37 bb
    a call wins when the bot folds, and more when it calls."""
    from solvers.agents.resolving import ResolvingAgent  # noqa: PLC0415

    text = NUTS.read_text().replace("Villain: bets $93 and is all-in", "Villain: bets $23")
    path = tmp_path / "odd.txt"
    path.write_text(text)
    (hand,) = read_hands([str(path)]).hands
    street_solves = []
    solve = ResolvingAgent._solve

    def counted(self, state, *args):
        street_solves.append(state.betting)
        return solve(self, state, *args)

    monkeypatch.setattr(ResolvingAgent, "_solve", counted)
    agent = make_agent("resolve(from=river,iterations=12):random", hand.config)
    river = _river(analyze_hand(hand, 0, agent))
    raises = [o for o in river["options"] if o["action"].startswith("r")]
    assert len(raises) >= 5 and all(o["ev"] is not None for o in raises)
    assert all(o["ev"] >= 37 - 1e-6 for o in raises)
    assert not [line for line in street_solves if "r3000r" in line]
