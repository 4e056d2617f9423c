"""The re-solving bot in the play session: its answers as jobs for a worker play the same hands
as answering at once; the think time scales its budgets, refuses bad values and other bots,
and survives a save; the CLI and the new-game dialog default to it and check the think time."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from pokertui.paths import DEFAULT_RESOLVE
from pokertui.screens.hunl_play import HunlPlayScreen
from pokertui.session.hunl_saves import hunl_document, load_hunl_session, save_hunl_session
from pokertui.session.hunl_session import HunlSession, check_think, set_think
from solvers.agents.chumps import RandomAgent
from solvers.agents.registry import make_agent
from solvers.agents.resolving import FLOP_TREES, ResolvingAgent
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig
from tests.conftest import STRATEGIES, hunl_dialog
from tests.test_hunl_session import run_cli

CONFIG = HunlConfig(100)


def test_bot_jobs_play_the_same_hands_as_answering_at_once():
    at_once = HunlSession(CONFIG, RandomAgent(), bot_name="random", seed=9)
    stepped = HunlSession(CONFIG, RandomAgent(), bot_name="random", seed=9)
    for _ in range(12):
        at_once.new_hand()
        stepped.new_hand(advance=False)
        while not stepped.hand_over:
            if stepped.bot_to_act:
                assert not stepped.human_to_act
                stepped.play_bot(stepped.bot_job()())
                continue
            assert at_once.human_to_act and stepped.human_to_act
            action = at_once.options()[len(at_once.hands) % len(at_once.options())].action
            at_once.act(action)
            stepped.act(action, advance=False)
        assert at_once.hand_over
    assert [h.betting for h in stepped.hands] == [h.betting for h in at_once.hands]
    assert [h.result for h in stepped.hands] == [h.result for h in at_once.hands]
    assert stepped.summary()["net"] == at_once.summary()["net"]
    with pytest.raises(InputError, match="not the bot's turn"):
        stepped.bot_job()


def test_think_scales_the_budgets_and_refuses_bad_values_and_other_bots():
    agent = make_agent("resolve:call", CONFIG)
    defaults = dict(agent.seconds)
    set_think(agent, 2.0)  # the turn's 5 s becomes 2 s: every street's budget times 0.4
    assert agent.seconds[2] == pytest.approx(2.0) and agent.seconds[3] == pytest.approx(0.2)
    assert agent.seconds == {k: pytest.approx(0.4 * v) for k, v in defaults.items()}
    custom = make_agent("resolve(turn=10,river=1):call", CONFIG)
    set_think(custom, 2.5)  # half the default turn: half of each given budget
    assert custom.seconds[2] == pytest.approx(5.0) and custom.seconds[3] == pytest.approx(0.5)
    for bad in ("abc", "0", "-1", "nan", "inf", "601", ""):
        with pytest.raises(InputError, match="think time"):
            check_think(bad)
    with pytest.raises(InputError, match="re-solving bot"):
        set_think(make_agent("call", CONFIG), 2.0)


def test_a_save_keeps_the_re_solving_bot_and_its_think_time(tmp_path, monkeypatch):
    shipped = tmp_path / "bots"
    shipped.mkdir()
    monkeypatch.chdir(tmp_path)
    name = "resolve(iterations=5):call"
    session = HunlSession(CONFIG, make_agent(name, CONFIG), bot_name=name, seed=3, think=1.5)
    session.new_hand()
    while session.human_to_act:
        session.act("f")
    document = hunl_document(session)
    assert document["bot"] == name and document["think"] == 1.5
    loaded, _ = load_hunl_session(save_hunl_session(session, tmp_path / "r.json"))
    assert isinstance(loaded.agent, ResolvingAgent) and loaded.think == 1.5
    assert loaded.agent.max_iterations == 5 and loaded.agent.seconds[2] == float("inf")
    blueprint = STRATEGIES / "hunl_100bb.npz"
    relative = f"resolve:{blueprint.relative_to(blueprint.parents[1])}"
    monkeypatch.chdir(blueprint.parents[1])
    session = HunlSession(CONFIG, make_agent(relative, CONFIG), bot_name=relative, seed=3)
    assert hunl_document(session)["bot"] == f"resolve:{blueprint.resolve()}"  # any folder
    document["bot"] = "call"  # a think time for a bot that does not re-solve: refused
    (tmp_path / "bad.json").write_text(__import__("json").dumps(document))
    with pytest.raises(InputError, match="re-solving bot"):
        load_hunl_session(tmp_path / "bad.json")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "hunl", "--bot", "call", "--think", "2"], "re-solving bot"),
        (["--game", "hunl", "--bot", "resolve:call", "--think", "fast"], "think time"),
        (["--game", "hunl", "--bot", "resolve:call", "--think", "0"], "0.05 to 600 seconds"),
        (["--think", "2"], "--game"),
    ],
)
def test_cli_think_mistakes_exit_2(capsys, argv, message):
    code, _, err = run_cli(capsys, "play", *argv, "--hands", 1)
    assert code == 2 and message in err and "Traceback" not in err


def test_cli_default_bot_re_solves_and_think_reaches_a_headless_match(capsys, monkeypatch):
    from pokertui.commands import play

    seen = {}

    def fake_match(config, bot, opponent, hands, seed, names):
        seen.update(bot=bot, names=names)
        raise InputError("stop here")

    monkeypatch.setattr("pokertui.session.hunl_headless.play_hunl_match", fake_match)
    assert play is not None
    code, _, err = run_cli(capsys, "play", "--game", "hunl(100)", "--think", "3", "--hands", 1)
    assert code == 2 and "stop here" in err
    assert isinstance(seen["bot"], ResolvingAgent)
    assert seen["names"][0] == f"{DEFAULT_RESOLVE}{STRATEGIES / 'hunl_100bb.npz'}"
    assert seen["bot"].seconds[2] == pytest.approx(3.0)
    assert seen["bot"].flop_sample == 10  # the flop's solve sees the turn


async def test_the_new_game_dialog_defaults_to_the_re_solving_bot_with_its_think_time(tmp_path):
    async with hunl_dialog(tmp_path) as (app, pilot, dialog):
        assert dialog.query_one("#hunl-bot", Input).value == ""  # blank: the default
        dialog.query_one("#hunl-think", Input).value = "slow"
        dialog.start()
        await pilot.pause()
        assert app.screen is dialog
        problem = str(dialog.query_one("#hunl-problem", Static).render())
        assert "think time 'slow'" in problem
        dialog.query_one("#hunl-think", Input).value = "2"
        dialog.start()
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HunlPlayScreen)
        session = screen.session
        assert session.bot_name == f"{DEFAULT_RESOLVE}{STRATEGIES / 'hunl_100bb.npz'}"
        assert isinstance(session.agent, ResolvingAgent) and session.think == 2.0
        assert session.agent.streets == (1, 2, 3)  # the flop too, with the turn in its tree
        assert session.agent.sizes[1] is FLOP_TREES["turn"] and session.agent.flop_sample == 10
        assert session.agent.seconds[1] == pytest.approx(6.0)  # 15 s scaled as the turn's 5 to 2
        assert session.agent.seconds[2] == pytest.approx(2.0)
        assert session.agent.seconds[3] == pytest.approx(0.2)
        await pilot.press("escape")
        await app.workers.wait_for_complete()


def test_known_values_replace_the_closed_forms_without_asking_the_bot():
    import numpy as np

    from solvers.cards.deck import parse_cards
    from solvers.games.hunl.rules import CALL, FOLD, RAISE, Action, replay
    from solvers.reports.hunl_live import live_numbers

    class Refusing(RandomAgent):
        def policy(self, state, board):
            raise AssertionError("a re-solving bot's answer would be a new solve")

    state = replay("r250c/cc/cc/r500", CONFIG)  # the button faces a river bet
    board = np.array(parse_cards("Ks 7h 2d 9c 4s"))
    hole = tuple(parse_cards("AhQs"))
    reach = np.ones(1326)
    offered = (Action(RAISE, 1500), Action(RAISE, 10_000))
    known = {Action(FOLD): 0.0, Action(CALL): 321.5, Action(RAISE, 10_000): -40.0}
    numbers = live_numbers(state, board, hole, reach, Refusing(), offered, 0, known, "the solve")
    fold, call, shove = known.items()  # listed as the keys are: the raise by size, all-in last
    listed = [(e.action, e.ev) for e in numbers.evs]
    assert listed == [fold, call, (Action(RAISE, 1500), None), shove]
    assert numbers.ev_method == "the solve"
    plain = live_numbers(state, board, hole, reach, None, offered)
    assert plain.ev_method == "" and plain.evs[1].ev is not None  # a river call is closed form


def test_warm_up_of_the_re_solving_bot_warms_its_base_and_not_its_budgets():
    from pokertui.session.hunl_session import warm_up
    from solvers.agents.chumps import AlwaysCall

    seen = []

    class Recording(AlwaysCall):
        def policy(self, state, board):
            seen.append(state.street)
            return super().policy(state, board)

    bot = ResolvingAgent(Recording())
    warm_up(bot, CONFIG)
    assert bot.solves == 0  # no solve of the dummy board on the bot's own clock
    assert seen[:4] == [0, 1, 2, 3] and set(seen[4:]) <= {0, 1, 2}  # then the probe's ranges


@pytest.mark.parametrize("choice", ["TURN_BOT", "QUICK_FLOP_BOT"])
async def test_the_new_game_dialog_offers_the_blueprints_flop_and_the_quick_flop(tmp_path, choice):
    from textual.widgets import Select

    from pokertui.screens import hunl_setup

    bot = getattr(hunl_setup, choice)
    async with hunl_dialog(tmp_path) as (app, pilot, dialog):
        dialog.query_one("#hunl-bot-choice", Select).value = bot
        await pilot.pause()
        assert dialog.query_one("#hunl-bot", Input).value == bot
        dialog.start()
        await pilot.pause()
        await pilot.pause()
        session = app.screen.session
        assert session.bot_name == f"{bot}{STRATEGIES / 'hunl_100bb.npz'}"
        agent = session.agent
        assert isinstance(agent, ResolvingAgent) and agent.flop_sample == 0
        if choice == "TURN_BOT":
            assert agent.streets == (2, 3)
        else:
            assert agent.streets == (1, 2, 3) and agent.sizes[1] is FLOP_TREES["checkdown"]
        await pilot.press("escape")
        await app.workers.wait_for_complete()


async def test_the_new_game_dialog_offers_the_safe_bot(tmp_path):
    """``resolve-safe:`` over the depth's shipped blueprint: turn and river through maxmargin."""
    from textual.widgets import Select

    from pokertui.screens.hunl_setup import SAFE_BOT

    async with hunl_dialog(tmp_path) as (app, pilot, dialog):
        dialog.query_one("#hunl-bot-choice", Select).value = SAFE_BOT
        await pilot.pause()
        assert dialog.query_one("#hunl-bot", Input).value == SAFE_BOT
        dialog.start()
        await pilot.pause()
        await pilot.pause()
        session = app.screen.session
        assert session.bot_name == f"resolve-safe:{STRATEGIES / 'hunl_100bb.npz'}"
        agent = session.agent
        assert isinstance(agent, ResolvingAgent) and agent.safe and agent.gadget == "maxmargin"
        assert agent.streets == (2, 3)
        await pilot.press("escape")
        await app.workers.wait_for_complete()
