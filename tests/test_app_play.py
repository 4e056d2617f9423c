"""Pilot tests of the play screen: whole hands played with keys, and the live panel showing
exactly the numbers ``current_spot`` computes."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from pokertui.app import make_app
from pokertui.screens.play import PlayScreen, snapshot
from pokertui.session import current_spot
from pokertui.widgets.format import ev, pct
from pokertui.widgets.live_panel import LivePanel
from pokertui.widgets.messages import SpotReady
from tests.conftest import plain_text

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def plain(widget: Static, width: int = 60) -> str:
    return plain_text(widget, width)


async def settle(pilot) -> None:
    """Let the spot worker finish and its message be handled."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def play_out(pilot, key: str = "c", limit: int = 20) -> PlayScreen:
    """Press ``key`` until the hand is over; returns the play screen."""
    screen = pilot.app.screen
    assert isinstance(screen, PlayScreen)
    for _ in range(limit):
        if screen.session.hand_over:
            return screen
        await pilot.press(key)
        await settle(pilot)
    raise AssertionError("the hand did not end")


async def test_kuhn_hand_played_with_keys(tmp_path):
    seen = []
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "kuhn.json"), seed=1)
    async with app.run_test(size=(100, 30), message_hook=seen.append) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.session.game.name == "kuhn"
        await play_out(pilot, "b")
        hand = screen.session.hand
        assert hand.result is not None
        log = plain(screen.query_one("#hand-log-text", Static))
        assert any(s.action == "bet" for s in hand.steps if s.seat == hand.human_seat)
        assert ("You win" in log) or ("You lose" in log) or ("Split" in log)
        await pilot.press("n")
        await settle(pilot)
        assert screen.session.hand.number == 2
    assert any(isinstance(m, SpotReady) for m in seen)
    assert (tmp_path / f"{screen.save_name}.json").exists()


async def test_leduc_hand_at_80x24(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "leduc.json"), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await play_out(pilot, "c")
        hand = screen.session.hand
        assert hand.result is not None
        if hand.showdown:
            # the bot's cards are revealed: the table shows them face up
            table = plain(screen.query_one("#table", Static), width=80)
            bot_label = screen.session.hand_text(1 - hand.human_seat)
            assert bot_label[0] in table and "▒▒" not in table
        assert [s for s in hand.steps if s.seat == hand.human_seat]


async def test_live_panel_shows_session_numbers(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "leduc.json"), seed=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(6):  # check several decisions, facing bets and not
            session = screen.session
            if session.hand_over:
                await pilot.press("n")
                await settle(pilot)
                continue
            spot = current_spot(snapshot(session))
            panel = screen.query_one(LivePanel)
            odds = plain(panel.part("odds"))
            evs = plain(panel.part("evs"))
            equity = plain(panel.part("equity"))
            assert pct(spot.beats_share) in odds
            if spot.to_call > 0:
                for value in (spot.required_equity, spot.mdf, spot.bluff_share):
                    assert pct(value) in odds
            for size in spot.sizes:
                assert pct(size.alpha) in odds
                assert pct(size.bot_fold_frequency) in odds
            for label, value in zip(spot.action_labels, spot.action_evs, strict=True):
                assert label in evs and ev(value) in evs
            assert "★" in evs.split(spot.best_action)[1].splitlines()[0]
            assert pct(spot.equity) in equity
            await pilot.press("c")
            await settle(pilot)


async def test_hints_toggle_and_parts(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "von_neumann.json"), seed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(LivePanel)
        assert panel.display
        ranges = plain(panel.part("ranges"))
        assert "bins of" in ranges  # von Neumann: a histogram over bins
        await pilot.press("g")
        assert not panel.part("ranges").display
        await pilot.press("h")
        assert not panel.display
    assert '"hints": false' in (tmp_path / "settings.json").read_text()


async def test_custom_amount_not_in_tree_is_refused(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "river_toy.json"), seed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        session = screen.session
        if not any(o.kind == "aggressive" for o in session.legal_options()):
            await play_out(pilot, "c")
            await pilot.press("n")
            await settle(pilot)
        steps = len(session.hand.steps)
        await pilot.press("x")
        await pilot.press(*"7.5", "enter")
        await settle(pilot)
        assert len(session.hand.steps) == steps  # refused: nothing happened
        assert any("not available" in n.message for n in app._notifications)
        await pilot.press("x")
        amount = next(o.amount for o in session.legal_options() if o.kind == "aggressive")
        await pilot.press(*f"{amount:g}", "enter")
        await settle(pilot)
        human = [s for s in session.hand.steps if s.seat == session.hand.human_seat]
        assert human and human[-1].amount == amount


def push_fold_file(directory: Path) -> Path:
    """The shipped 10 bb push/fold bot, or the same file built by the LP (about a second)."""
    shipped = STRATEGIES / "push_fold_10bb.json"
    if shipped.exists():
        return shipped
    from solvers.runs.shipped import SHIPPED_BOTS, build_bot  # noqa: PLC0415

    bot = next(b for b in SHIPPED_BOTS if b.filename == "push_fold_10bb.json")
    build_bot(bot, directory)
    return directory / bot.filename


async def test_push_fold_hand_with_custom_amount(tmp_path):
    bot = push_fold_file(tmp_path)
    app = make_app(STRATEGIES, tmp_path, bot=str(bot), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        session = screen.session
        assert session.is_holdem and session.human_seat == 0  # the small blind acts first
        ranges = plain(screen.query_one(LivePanel).part("ranges"), width=80)
        assert "AA" in ranges and "72o" in ranges  # the 13x13 grid
        table = plain(screen.query_one("#table", Static), width=80)
        assert "stack 9.5" in table  # 10 bb behind, 0.5 posted
        shove = max(o.amount for o in session.legal_options() if o.kind == "aggressive")
        await pilot.press("dollar_sign", *f"{shove:g}", "enter")
        await settle(pilot)
        hand = session.hand
        assert hand.steps[0].seat == 0 and hand.steps[0].amount == shove
        assert hand.result is not None
        log = plain(screen.query_one("#hand-log-text", Static), width=100)
        if hand.showdown:
            assert len(hand.deal.board) == 5 and "Board " in log


async def test_stale_and_failed_spots_do_not_reach_the_panel(tmp_path, monkeypatch):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "kuhn.json"), seed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        panel = screen.query_one(LivePanel)
        before = plain(panel.part("evs"))
        stale = current_spot(snapshot(screen.session))
        screen.post_message(SpotReady(stale, screen.session.hand.number, "not/this/node"))
        await pilot.pause()
        assert plain(panel.part("evs")) == before
        # a worker that fails says so in the panel and the game goes on
        import pokertui.screens.play as play_module  # noqa: PLC0415

        def broken(session):
            raise ValueError("boom")

        monkeypatch.setattr(play_module, "current_spot", broken)
        await play_out(pilot, "c")
        await pilot.press("n")
        await settle(pilot)
        if screen.session.human_to_act:
            assert "unavailable: ValueError: boom" in plain(panel.part("odds"))
        assert app.is_running
