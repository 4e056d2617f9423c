"""Pilot tests of what a new user meets: fresh cards per session, the new-game dialog (seed
label, bot names, Tab into the path), the resume list, and "off the equilibrium path"."""

from __future__ import annotations

import json

import numpy as np
from textual.widgets import Input, Label, OptionList, Static

from pokertui.app import make_app
from pokertui.screens.play import PlayScreen, snapshot
from pokertui.screens.resume import ResumeDialog
from pokertui.screens.setup import SetupDialog
from pokertui.session import Session, current_spot
from pokertui.widgets.live_panel import LivePanel
from solvers.exact.evaluation import reaches
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES, plain_text


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def start_from_setup(tmp_path, bot_text: str, seed_text: str) -> tuple[int, str]:
    """Home, p, type the bot and seed, Start: the session's seed and its game's name."""
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        dialog = app.screen
        assert isinstance(dialog, SetupDialog)
        dialog.query_one("#setup-path", Input).value = bot_text
        dialog.query_one("#setup-seed", Input).value = seed_text
        await pilot.click("#setup-start")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen), plain_text(
            app.screen.query_one("#setup-problems", Static), 80
        )
        session = app.screen.session
        return session.seed, session.game.name


async def test_new_sessions_deal_new_cards_unless_a_seed_is_given(tmp_path):
    first = await start_from_setup(tmp_path, "leduc", "")
    second = await start_from_setup(tmp_path, "leduc", "")
    assert first[1] == second[1] == "leduc"
    assert first[0] != second[0]  # two fresh 32-bit seeds
    assert await start_from_setup(tmp_path, "kuhn.json", "42") == (42, "kuhn")
    # an explicit seed is for that session only: the next new game deals fresh cards again
    assert (await start_from_setup(tmp_path, "kuhn", ""))[0] != 42


async def test_setup_labels_the_seed_and_tab_keeps_the_path(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        dialog = app.screen
        labels = [str(label.content) for label in dialog.query(Label)]
        assert "Seed" in labels
        seed = dialog.query_one("#setup-seed", Input)
        assert seed.value == "" and "new cards" in seed.placeholder
        path = dialog.query_one("#setup-path", Input)
        while app.focused is not path:
            await pilot.press("tab")
        assert path.selection.start == path.selection.end  # not the whole path selected
        await pilot.press("x")
        assert path.value.endswith("leduc.jsonx")
        # the bot chooser lists the shipped bots by name
        chooser = dialog.query_one("#setup-bot")
        names = [str(prompt) for prompt, _ in chooser._options]
        assert "leduc (shipped)" in names and "kuhn (shipped)" in names
        chooser.value = str(STRATEGIES / "river_toy.json")
        await pilot.pause()
        assert path.value == str(STRATEGIES / "river_toy.json")
        # an unknown name says which names exist
        path.value = "no_such_bot"
        await pilot.click("#setup-start")
        await pilot.pause()
        report = plain_text(dialog.query_one("#setup-problems", Static), 100)
        assert "no_such_bot" in report and "leduc" in report
        assert isinstance(app.screen, SetupDialog)


async def test_resume_list_shows_game_hands_and_date(tmp_path):
    app = make_app(STRATEGIES, tmp_path, bot=str(STRATEGIES / "kuhn.json"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(2):
            while not screen.session.hand_over:
                await pilot.press("c")
                await settle(pilot)
            await pilot.press("n")
            await settle(pilot)
        name = screen.save_name
        await pilot.press("escape")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        options = app.screen.query_one(OptionList)
        prompt = str(options.get_option_at_index(0).prompt)
        saved = json.loads((tmp_path / f"{name}.json").read_text())
        assert name in prompt and "kuhn(cards=3,ante=1,bet=1)" in prompt
        assert "2 hands" in prompt and saved["saved_at"][:10] in prompt


def off_path_session() -> Session:
    """A Leduc session where the human has left the file's lines with their hand."""
    for seed in range(200):
        session = Session(load_strategy(STRATEGIES / "leduc.json"), seed=seed, human_seat=0)
        rng = np.random.default_rng(seed)
        for _ in range(10):
            session.new_hand()
            while session.human_to_act:
                if not session.on_equilibrium_path():
                    return session
                session.act(str(rng.choice(session.node.actions)))
    raise AssertionError("random play never left the equilibrium path")


def test_off_path_matches_the_files_own_reach():
    session = off_path_session()
    game, own = session.game, session.hand.deal.hands[0]
    own_reach = reaches(game, session.equilibrium, 0)
    assert own_reach[session.node.id][own] == 0.0
    spot = current_spot(session)
    assert spot.off_path
    session.act(session.node.actions[0])
    step = [s for s in session.hand.steps if s.seat == 0][-1]
    assert step.off_path
    # and every on-path decision of that hand had positive reach
    for s in session.hand.steps[:-1]:
        if s.seat == 0 and not s.off_path:
            assert own_reach[game.node_by_key(s.node_key).id][own] > 0


async def test_live_panel_says_off_the_equilibrium_path(tmp_path):
    session = off_path_session()
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.push_screen(PlayScreen(session, "offpath", tmp_path))
        await settle(pilot)
        evs = plain_text(app.screen.query_one(LivePanel).part("evs"), 60)
        assert "off path" in evs and "off the equilibrium path" in evs
        assert "%" not in evs  # no filler frequencies
        assert current_spot(snapshot(session)).off_path


def rendered_screen(app) -> str:
    """The screen as a person sees it, in plain text (as the snapshot tests render it)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False, safe_box=False)  # fmt: skip
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


async def test_solve_screen_shows_whole_live_numbers_at_200_columns(tmp_path):
    from pokertui.screens.solve import SolveScreen

    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(pilot)
        screen = SolveScreen(tmp_path / "runs")
        await app.push_screen(screen)
        await pilot.pause()
        record = screen.book.add(
            game="leduc()", algo="cfr+", out=tmp_path / "runs" / "x.json", options="",
            stop=("iterations", 1e8), state="running", iterations=10, seconds=0.5,
            exploitability=0.5,
        )  # fmt: skip
        screen.refresh_row(record)
        await pilot.pause()
        # the row is updated in place, with values longer than the first ones
        record.state, record.iterations, record.seconds = "interrupted", 123_456_789, 12345.6
        record.exploitability = 5.27e-05
        screen.refresh_row(record)
        await pilot.pause()
        text = rendered_screen(app)
        row = next(line for line in text.splitlines() if "interrupted" in line)
        for value in ("leduc", "cfr+", "interrupted", "123,456,789", "12345.6s", "5.27e-05"):
            assert value in row, (value, row)
