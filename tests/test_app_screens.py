"""Pilot tests of the other screens: home and setup, broken strategy files, saves and resume,
review and export, strategies and help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Select, Sparkline, Static

from pokertui.app import DEFAULT_BOT_FILE, make_app
from pokertui.screens.help import HelpScreen
from pokertui.screens.home import HomeScreen
from pokertui.screens.message import MessageDialog
from pokertui.screens.play import PlayScreen
from pokertui.screens.review import ReviewScreen
from pokertui.screens.setup import SetupDialog
from pokertui.screens.strategies import StrategiesScreen
from solvers.runs.shipped import DEFAULT_BOT
from tests.conftest import plain_text

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def plain(widget: Static, width: int = 200) -> str:
    return plain_text(widget, width)


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def finish_hand(pilot) -> PlayScreen:
    screen = pilot.app.screen
    while not screen.session.hand_over:
        await pilot.press("c")
        await settle(pilot)
    return screen


def test_default_bot_matches_shipped():
    assert DEFAULT_BOT_FILE == DEFAULT_BOT


async def test_home_setup_plays_leduc_first_time(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        menu = app.screen.query_one(OptionList)
        disabled = {
            menu.get_option_at_index(i).id
            for i in range(menu.option_count)
            if menu.get_option_at_index(i).disabled
        }
        assert disabled == set()
        await pilot.press("p")
        assert isinstance(app.screen, SetupDialog)
        assert app.screen.query_one("#setup-path", Input).value.endswith("leduc.json")
        await pilot.click("#setup-start")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert app.screen.session.game.name == "leduc"
    settings = json.loads((tmp_path / "settings.json").read_text())
    assert settings["last_bot"].endswith("leduc.json")


async def test_setup_for_a_file_outside_the_shipped_and_recent_bots_opens_blank(tmp_path):
    """A path the chooser does not list (typed in the strategy list) leaves its box blank; it
    used to be given ``Select.BLANK`` (``False`` in this Textual), which it refused."""
    own = tmp_path / "own.json"
    own.write_text((STRATEGIES / "kuhn.json").read_text())
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.open_setup(str(own))
        await settle(pilot)
        assert isinstance(app.screen, SetupDialog)
        assert app.screen.query_one("#setup-bot", Select).is_blank()
        assert app.screen.query_one("#setup-path", Input).value == str(own)


async def test_broken_strategy_shows_report_and_does_not_crash(tmp_path):
    broken = tmp_path / "broken.json"
    good = json.loads((STRATEGIES / "kuhn.json").read_text())
    first = next(iter(good["nodes"]))
    good["nodes"][first]["probs"][0] = [0.9, 0.9]
    good["nodes"]["no/such/node"] = good["nodes"][first]
    broken.write_text(json.dumps(good))
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        path = app.screen.query_one("#setup-path", Input)
        path.value = str(broken)
        path.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SetupDialog)  # still open, with the report
        report = plain(app.screen.query_one("#setup-problems", Static))
        assert "invalid strategy file (2 problems)" in report
        assert "no/such/node" in report
        path.value = str(STRATEGIES / "kuhn.json")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
    # --bot with a broken file: a dialog on the home screen, not a traceback
    app = make_app(STRATEGIES, tmp_path, bot=str(broken))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MessageDialog)
        assert "invalid strategy file" in plain(app.screen.query_one("#message-body", Static))
        await pilot.press("enter")
        assert isinstance(app.screen, HomeScreen)


async def test_save_and_resume(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "kuhn.json"), seed=9)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(3):
            screen = await finish_hand(pilot)
            await pilot.press("n")
            await settle(pilot)
        name = screen.save_name
        results = list(screen.session.score.results)
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
    assert len(results) == 3
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert app.screen.session.score.results == results
        assert app.screen.session.hand.number == 4
    # a corrupt save falls back to the backup and says so
    save = tmp_path / f"{name}.json"
    save.write_text("{ not json")
    app = make_app(STRATEGIES, tmp_path, resume=name)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MessageDialog)
        body = plain(app.screen.query_one("#message-body", Static))
        assert "corrupt" in body and "backup" in body
        await pilot.press("enter")
        assert isinstance(app.screen, PlayScreen)
        assert len(app.screen.session.score.results) == 2  # the backup is one hand older


async def test_review_and_export(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "leduc.json"), seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(2):
            screen = await finish_hand(pilot)
            await pilot.press("n")
            await settle(pilot)
        await finish_hand(pilot)
        await pilot.press("s")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        hand = review.hand
        decision = next(s for s in hand.steps if s.action_evs is not None)
        detail = plain(review.query_one("#review-detail", Static))
        assert f"{decision.action_evs[0]:+.3f}" in detail
        sparks = review.query(Sparkline)
        assert len(sparks) == 3 and all(len(list(spark.data)) == 3 for spark in sparks)
        lost = [sum(s.ev_loss for s in h.steps if s.ev_loss is not None) for h in review.finished]
        assert list(review.query_one("#spark-lost", Sparkline).data) == pytest.approx(
            [sum(lost[: i + 1]) for i in range(3)]
        )
        stats = plain(review.query_one("#review-summary", Static))
        summary = review.session.summary()
        assert "EV lost by your decisions" in stats and "uses bot's cards" in stats
        assert f"{summary['ev_lost_mean']:+.3f}" in stats
        assert "EV-adjusted" not in stats
        await pilot.press("left")
        assert review.hand.number == 2
        await pilot.press("w")
        history = (tmp_path / f"{screen.save_name}-history.txt").read_text()
        assert "Hand 1:" in history and "Hand 3:" in history and "EV loss" in history


async def test_help_and_strategies(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = plain(app.screen.query_one("#help-text", Static))
        for key in ("fold", "check or call", "custom amount", "hide or show all hints", "review"):
            assert key in text
        await pilot.press("escape")
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, StrategiesScreen)
        rows = app.screen.rows
        assert {Path(r.path).name for r in rows} >= {"kuhn.json", "leduc.json"}
        kuhn = next(r for r in rows if r.path.endswith("kuhn.json"))
        assert kuhn.game.startswith("kuhn(") and "mbb" in kuhn.exploitability
        await pilot.press("enter")
        assert isinstance(app.screen, SetupDialog)
