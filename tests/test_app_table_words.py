"""Pilot tests of what a new player meets first: the hold'em dialog takes a typed depth, the home
footer lists hold'em, the help lists the keys each table really binds, and a count of one hand
reads "1 hand"."""

from __future__ import annotations

import re

from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey

from pokertui.app import make_app
from pokertui.screens.help import HelpScreen
from pokertui.screens.home import HomeScreen
from pokertui.screens.hunl_play import HunlPlayScreen
from pokertui.screens.play import PlayScreen
from pokertui.screens.review import ReviewScreen
from tests.conftest import STRATEGIES, hunl_dialog, plain_text, wait_until

HOLDEM_KEYS = {"f", "c / k", "m", "1", "2", "3", "p", "a", "x / $", "n", "h", "s", "w", "?",
               "escape"}  # fmt: skip
"""What the hold'em table answers to (``docs/tui.md``)."""
PLAY_ONLY_KEYS = {"b / r", "4", "1 2 3 4", "o", "v", "g", "e"}
"""The solved games' table keys that the hold'em table does not have."""


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def play_one_hand(pilot):
    """Check or call until the first hand ends; the table."""
    screen = pilot.app.screen
    for _ in range(40):
        if screen.session.hand_over:
            break
        await pilot.press("c")
        await settle(pilot)
    assert len(screen.session.hands) == 1 and screen.session.hand_over
    return screen


def help_sections(text: str) -> dict[str, dict[str, str]]:
    """The help's sections by title: each key shown with the line that says what it does."""
    sections: dict[str, dict[str, str]] = {}
    for block in text.strip().split("\n\n"):
        title, *rows = block.splitlines()
        keys = sections.setdefault(title.strip(), {})
        for row in rows:
            found = re.match(r"^  (\S.*?)\s{2,}(.*)$", row)
            if found:
                keys[found.group(1)] = found.group(2)
    return sections


async def test_typed_depth_then_enter_starts_that_game(tmp_path):
    async with hunl_dialog(tmp_path) as (app, pilot, dialog):
        dialog.query_one("#hunl-bot", Input).value = "call"  # no solver in this test
        await pilot.press("5", "0", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HunlPlayScreen))
        assert app.screen.session.config.stack_bb == 50


async def test_home_footer_lists_holdem(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        shown = {(key.key, key.description) for key in app.screen.query(FooterKey)}
        assert ("u", "Hold'em") in shown


async def test_holdem_help_lists_its_own_keys_and_history_file(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot="call", game="hunl(stack_bb=100)", seed=2)
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HunlPlayScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = plain_text(app.screen.query_one("#help-text", Static), 140)
    sections = help_sections(text)
    holdem = next(keys for title, keys in sections.items() if title.startswith("Hold'em"))
    assert HOLDEM_KEYS <= set(holdem)
    assert not PLAY_ONLY_KEYS & set(holdem)
    assert "NAME-history.phhs" in holdem["w"] and "PHH" in holdem["w"]
    play = next(keys for title, keys in sections.items() if title.startswith("Play"))
    assert "NAME-history.txt" in play["w"]


async def test_one_hand_is_one_hand(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot="call", game="hunl(stack_bb=100)", seed=2)
    async with app.run_test(size=(150, 50)) as pilot:
        await settle(pilot)
        screen = await play_one_hand(pilot)
        assert isinstance(screen, HunlPlayScreen)
        assert " · 1 hand · " in screen.sub_title
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "kuhn.json"), seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = await play_one_hand(pilot)
        assert isinstance(screen, PlayScreen)
        assert " · 1 hand · net " in screen.sub_title
        await pilot.press("w")
        history = (tmp_path / f"{screen.save_name}-history.txt").read_text()
        assert "hands 1, " in history and "over 1 reviewed hand\n" in history
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        summary = plain_text(app.screen.query_one("#review-summary", Static), 60)
        assert summary.startswith("1 hand, net ")
