"""Pilot tests of the full game in the app: the new-game dialog, hands played with keys, the
live panel's numbers, a typed amount, the review, the PHH export and resuming a save."""

from __future__ import annotations

from contextlib import asynccontextmanager

import numpy as np
import pytest
from textual.widgets import Input, Static

from pokertui.app import make_app
from pokertui.screens.hunl_play import HunlPlayScreen
from pokertui.screens.hunl_review import HunlReviewScreen
from pokertui.screens.hunl_setup import HunlSetupDialog
from pokertui.widgets.format import pct
from tests.conftest import STRATEGIES, hunl_dialog, plain_text, wait_until


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def text_of(screen, selector: str, width: int = 100) -> str:
    return plain_text(screen.query_one(selector, Static), width)


async def test_new_game_dialog_then_a_hand_with_keys(tmp_path):
    async with hunl_dialog(tmp_path) as (app, pilot, dialog):
        dialog.query_one("#hunl-depth", Input).value = "5"  # too shallow: stays open
        dialog.query_one("#hunl-bot", Input).value = "random"
        dialog.start()
        await pilot.pause()
        assert app.screen is dialog
        assert "between 10 and 250" in text_of(dialog, "#hunl-problem")
        dialog.query_one("#hunl-depth", Input).value = "60"
        dialog.start()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HunlPlayScreen)
        session = screen.session
        assert session.config.stack_bb == 60 and session.agent.name == "random"
        for _ in range(40):
            if session.hand_over:
                break
            await pilot.press("c")
            await settle(pilot)
        assert session.hand_over
        log = text_of(screen, "#hunl-log-text")
        assert "Hand 1" in log and ("You win" in log or "You lose" in log or "You split" in log)
        await pilot.press("n")
        await settle(pilot)
        assert session.hand.number == 2
    assert (tmp_path / f"{screen.save_name}.json").exists()


async def test_live_panel_shows_the_sessions_numbers(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot="call", game="hunl(stack_bb=100)", seed=8)
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HunlPlayScreen)
        session = screen.session
        if not session.human_to_act:
            await pilot.press("n")
            await settle(pilot)
        numbers = session.live()  # the worker's result, cached for this decision
        panel = text_of(screen, "#hunl-live-text", 96)
        assert f"{pct(numbers.equity)} vs the bot's range" in panel
        assert "Pot odds" in panel or "nothing (check is free)" in panel
        assert "AA" in panel and "72o" in panel  # the 13x13 grid


async def test_sizes_typed_amount_review_and_export(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot="call", game="hunl(stack_bb=100)", seed=2)
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        screen = app.screen
        session = screen.session
        while session.human_seat != 0:  # play until we are on the button
            while session.human_to_act:
                await pilot.press("c")
                await settle(pilot)
            await pilot.press("n")
            await settle(pilot)
        await pilot.press("p")  # a pot raise: to 3bb; always-call calls, then checks the flop
        await settle(pilot)
        assert session.state.betting == "r300c/c"
        await pilot.press("x")
        await pilot.pause()
        amount = app.screen.query_one("#hunl-amount-input", Input)
        assert "legal: 100 to 9700 chips (1bb to 97bb)" in text_of(app.screen, "#amount-sizes")
        amount.value = "0.5bb"  # below a one-big-blind bet: refused with the legal range
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.betting == "r300c/c"
        # in the dialog's terms: this street's chips and bb, a bet (nothing to raise)
        shown = [n.message for n in app._notifications]
        refusal = "a bet must be between 100 and 9700 chips (1bb to 97bb) this street, not 50"
        assert f"{refusal} (0.5bb)" in shown
        await pilot.press("x")
        await pilot.pause()
        app.screen.query_one("#hunl-amount-input", Input).value = "4.5bb"
        await pilot.press("enter")
        await settle(pilot)
        assert session.state.betting == "r300c/cr750c/c"
        await pilot.press("a")
        await settle(pilot)
        assert session.hand_over and session.state.all_in
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, HunlReviewScreen)
        review = text_of(app.screen, "#hunl-review-text")
        assert "Your decisions" in review and "equity" in review
        assert "bb/100" in text_of(app.screen, "#hunl-review-stats")
        await pilot.press("escape")
        await pilot.press("w")
        await pilot.pause()
    history = tmp_path / f"{screen.save_name}-history.phhs"
    from pokerkit import HandHistory

    assert len(list(HandHistory.loads_all(history.read_text()))) == len(session.hands)


async def test_resume_a_full_game_save(tmp_path):
    from pokertui.session.hunl_saves import save_hunl_session
    from pokertui.session.hunl_session import HunlSession
    from solvers.agents.chumps import AlwaysCall
    from solvers.games.hunl.rules import HunlConfig

    session = HunlSession(HunlConfig(40), AlwaysCall(), bot_name="call", seed=6)
    for _ in range(3):
        session.new_hand()
        while session.human_to_act:
            session.act("c")
    save_hunl_session(session, tmp_path / "deep.json")
    app = make_app(STRATEGIES, tmp_path, resume="deep")
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HunlPlayScreen)
        assert len(screen.session.hands) == 4 and screen.session.config.stack_bb == 40


async def test_the_new_game_dialog_leads_to_the_full_game(tmp_path):
    from textual.widgets import Button

    from pokertui.screens.setup import SetupDialog

    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, SetupDialog)
        app.screen.query_one("#setup-hunl", Button).press()
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HunlSetupDialog)


# --- the re-solving bot at the table --------------------------------------------------------


class Gate:
    """Wraps the screen's progress hook: the first report of a solve holds the solving thread
    until the test opens the gate, so the test acts while the bot is surely mid-think."""

    def __init__(self, hook) -> None:
        import threading

        self.hook = hook
        self.reached = threading.Event()
        self.opened = threading.Event()

    def __call__(self, thinking) -> None:
        self.hook(thinking)
        self.reached.set()
        self.opened.wait(timeout=120)
        self.hook(thinking)  # a cancelled worker stops here


RESOLVING = "resolve(from=turn,iterations=12):call"
"""A re-solving bot that is quick to solve: twelve iterations over always-call's ranges, from
the turn (the tests below gate the turn's solve; the flop is always-call's)."""


@asynccontextmanager
async def resolving_table(tmp_path, bot=RESOLVING):
    """A 100 bb table against ``bot`` whose solves wait at a ``Gate`` the test opens."""
    app = make_app(STRATEGIES, tmp_path, bot=bot, game="hunl(stack_bb=100)", seed=4)
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        screen = app.screen
        session = screen.session
        gate = Gate(session.agent.progress)
        session.agent.progress = gate
        yield app, pilot, screen, session, gate


async def test_the_bot_thinks_in_a_worker_the_screen_answers_and_shows_the_resolves_evs(tmp_path):
    from pokertui.screens.help import HelpScreen
    from solvers.agents.resolve_values import bot_solution, resolved_values

    async with resolving_table(tmp_path) as (app, pilot, screen, session, gate):
        assert session.human_seat == 0  # the button: preflop first, last after the flop
        await pilot.press("c")  # limp; always-call's base checks, then leads the flop by checking
        await settle(pilot)
        assert session.state.betting == "cc/c" and session.human_to_act
        assert text_of(screen, "#hunl-thinking").strip() == ""
        await pilot.press("c")  # check back the flop: the bot opens the turn, re-solving it
        await wait_until(pilot, gate.reached.is_set)
        await wait_until(pilot, lambda: "turn" in text_of(screen, "#hunl-thinking"))
        thinking = text_of(screen, "#hunl-thinking")
        assert "The bot is thinking: turn" in thinking and "of 12 iterations" in thinking
        assert session.bot_to_act
        await pilot.press("question_mark")  # help opens while the bot thinks
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("c")  # not the human's turn: refused, nothing played
        await pilot.pause()
        assert session.state.betting == "cc/cc/" and session.bot_to_act
        gate.opened.set()
        await wait_until(pilot, lambda: not session.bot_to_act)
        await settle(pilot)
        assert text_of(screen, "#hunl-thinking").strip() == ""
        assert session.human_to_act and session.state.street == 2
        panel = text_of(screen, "#hunl-live-text", 96)
        assert "against the bot's turn re-solve (12 iterations" in panel
        assert "its re-solve facing each" in panel and "solving its answer" not in panel
        board = np.array(session.board)
        solution = bot_solution(session.agent, session.state, board)
        found = resolved_values(solution, session.state, session.hand.hole[0])
        off_tree = [o.action for o in session.options()
                    if o.action.kind == "r" and found.value_of(o.action) is None]  # fmt: skip
        assert off_tree  # valued by the bot's node re-solve facing each, one solve each
        assert session.agent.solves == 1 + len(off_tree)  # the street: the bot's own solve
        labels = {"f": "fold", "c": "call" if session.state.to_call() else "check"}
        for action, value in zip(found.actions, found.values, strict=True):
            label = labels.get(action.kind) or session.raise_text(action.to)
            assert f"{label:<18} {round(value / 100, 2) + 0.0:>+8.2f}bb" in panel
        assert "-0.00bb" not in panel  # the fold's zero (a float's -0.0) shows as +0.00


@pytest.mark.parametrize("options, depth", [
    ("iterations=12", "its tree checks the turn and river down"),
    ("flop-tree=turn, flop-sample=5, iterations=12", "its tree bets the turn and checks the river"),
])  # fmt: skip
async def test_the_default_bot_thinks_on_the_flop_and_the_panel_shows_its_flop_re_solve(
    tmp_path, options, depth
):  # fmt: skip
    """The default re-solves the flop too: the big blind's first flop decision is a
    solve with its progress line, and the panel's flop EVs are that re-solve's; the same with
    the app's flop tree, which sees the turn (its sizes off the tree solved in the quick flop)."""
    async with resolving_table(tmp_path, bot=f"resolve({options}):call") as (
        app, pilot, screen, session, gate
    ):  # fmt: skip
        assert session.agent.streets == (1, 2, 3)
        await pilot.press("c")  # limp on the button; the bot checks, then opens the flop
        await wait_until(pilot, gate.reached.is_set)
        await wait_until(pilot, lambda: "flop" in text_of(screen, "#hunl-thinking"))
        thinking = text_of(screen, "#hunl-thinking")
        assert "The bot is thinking: flop" in thinking and "of 12 iterations" in thinking
        assert session.state.street == 1 and session.bot_to_act
        gate.opened.set()
        await wait_until(pilot, lambda: session.human_to_act)
        await settle(pilot)
        assert session.state.street == 1 and text_of(screen, "#hunl-thinking").strip() == ""
        panel = " ".join(text_of(screen, "#hunl-live-text", 96).split())
        assert "against the bot's flop re-solve (12 iterations" in panel
        assert depth in panel
        from solvers.agents.resolve_values import bot_solution, resolved_values  # noqa: PLC0415

        # every size key has its EV: the tree's from the flop's solve, the others each from the
        # flop solved again with it (the bot's answer if it is bet)
        await wait_until(pilot, lambda: "solving its answer" not in text_of(
            screen, "#hunl-live-text", 96))  # fmt: skip
        panel = " ".join(text_of(screen, "#hunl-live-text", 96).split())
        assert "sizes off its tree: the flop solved again with each" in panel
        assert "not in its tree" not in panel
        board = np.array(session.board)
        solution = bot_solution(session.agent, session.state, board)
        found = resolved_values(solution, session.state, session.hand.hole[0])
        off_tree = [o.action for o in session.options()
                    if o.action.kind == "r" and found.value_of(o.action) is None]  # fmt: skip
        assert off_tree and session.agent.solves == 1 + len(off_tree)
        assert session.agent.solves >= 1


async def test_quitting_while_the_bot_solves_keeps_the_autosave_whole(tmp_path):
    from pokertui.session.hunl_saves import load_hunl_session

    async with resolving_table(tmp_path) as (app, pilot, screen, session, gate):
        await pilot.press("f")  # hand 1 folded on the button: saved
        await settle(pilot)
        await pilot.press("n")  # hand 2 on the big blind: the bot limps, we check it down
        await settle(pilot)
        await pilot.press("c")  # check preflop
        await wait_until(pilot, lambda: session.human_to_act)
        await pilot.press("c")  # check the flop; the bot checks behind
        await wait_until(pilot, gate.reached.is_set)  # the live panel solves the bot's turn
        assert session.human_to_act and session.state.street == 2
        await wait_until(pilot, lambda: "Solving" in text_of(screen, "#hunl-thinking"))
        await pilot.press("escape")  # home, mid-solve
        await pilot.pause()
        assert app.screen is not screen
        gate.opened.set()
        assert session.agent_lock.acquire(timeout=60)  # the solving thread has let go
        session.agent_lock.release()
        assert session.agent.solves == 0  # the solve stopped; nothing half-done was kept
    saved, warning = load_hunl_session(tmp_path / f"{screen.save_name}.json")
    assert warning is None and saved.think is None
    # hand 1 finished; hand 2 resumes at the turn decision left, its cards and betting kept
    assert [h.result is not None for h in saved.hands] == [True, False]
    assert saved.hands[1].hole == session.hands[1].hole
    assert saved.state.betting == session.state.betting and saved.human_to_act


async def test_the_turns_off_tree_sizes_fill_in_and_acting_stops_their_solves(tmp_path):
    """The panel shows the turn's tree values first, the sizes off the tree marked as being
    solved; the human acting stops those solves (nobody needs them any more): the bot answers
    and keeps no half-done node re-solve."""
    async with resolving_table(tmp_path) as (app, pilot, screen, session, gate):
        hook = gate.hook  # block only the live panel's solves, never the bot's own
        session.agent.progress = lambda t: (gate if session.human_to_act else hook)(t)
        await pilot.press("c")  # limp; the bot checks, then checks the flop to us
        await settle(pilot)
        await pilot.press("c")  # check back the flop: the bot opens the turn
        await wait_until(pilot, gate.reached.is_set)  # the panel solves an off-tree size
        assert session.human_to_act and session.state.street == 2
        await wait_until(pilot, lambda: "solving its answer…" in text_of(screen, "#hunl-live-text"))
        panel = text_of(screen, "#hunl-live-text", 96)
        assert "against the bot's turn re-solve (12 iterations" in panel
        assert screen.valuing_key == session.decision_key()
        await pilot.press("c")  # act mid-valuation
        await pilot.pause()
        assert screen.valuing_key is None
        gate.opened.set()  # the cancelled solve stops at its next report
        await wait_until(pilot, lambda: session.state.street == 3 or session.hand_over)
        await settle(pilot)
        kept = [k for line in session.agent._cache.values() for k in line]
        turn_nodes = [k for k in kept if k.subgame.start and k.subgame.root.street == 2]
        assert not turn_nodes  # the stopped valuation kept nothing half-done


async def test_a_slow_warm_up_is_shown_then_gives_way(tmp_path, monkeypatch):
    """A fresh install compiles the solver in the bot's warm-up (tens of seconds) while its
    first answer and the panel wait: the thinking line says so, clears when it ends, and a
    notice says how long it took."""
    import threading  # noqa: PLC0415

    from pokertui.screens import hunl_play  # noqa: PLC0415

    release = threading.Event()
    monkeypatch.setattr(hunl_play, "warm_up", lambda agent, config: release.wait(60) and 12.4)
    app = make_app(STRATEGIES, tmp_path, bot="call", game="hunl(stack_bb=100)", seed=8)
    async with app.run_test(size=(150, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HunlPlayScreen))
        screen = app.screen
        line = lambda: text_of(screen, "#hunl-thinking", 120)  # noqa: E731
        await wait_until(pilot, lambda: "compiles on its first use" in line(), timeout=30)
        assert screen.warming
        release.set()
        await wait_until(pilot, lambda: not screen.warming, timeout=30)
        assert "compiles" not in line()
        shown = [n.message for n in app._notifications]  # how long it took, once done
        assert any("getting it ready took 12 s" in message for message in shown)


async def test_quitting_mid_hand_resumes_at_the_same_decision(tmp_path):
    """Ctrl+Q with a hand half played saves it as it stands: the resumed table shows the same
    cards and betting at the same decision, not the hand dealt again from the start."""
    app = make_app(STRATEGIES, tmp_path, bot="call", game="hunl(stack_bb=100)", seed=3)
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        screen = app.screen
        session = screen.session
        while session.state.street < 1:  # call preflop (the bot checks or calls): the flop
            await pilot.press("c")
            await settle(pilot)
        assert session.human_to_act and not session.hand_over
        hole, betting = session.hand.hole, session.state.betting
        save_name = screen.save_name
        await pilot.press("ctrl+q")
        await pilot.pause()
    again = make_app(STRATEGIES, tmp_path, bot=None, resume=save_name)
    async with again.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        resumed = again.screen
        assert isinstance(resumed, HunlPlayScreen)
        assert resumed.session.hand.hole == hole and resumed.session.state.betting == betting
        assert resumed.session.human_to_act and resumed.session.hand.number == 1
