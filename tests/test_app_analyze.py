"""The Analyze screen (Study side): hands played elsewhere analysed in a worker, the session's
summary and its hands worst first, a hand replayed decision by decision, bad input shown."""

from __future__ import annotations

import threading
from pathlib import Path

from textual.widgets import DataTable, Input, Static
from textual.worker import WorkerState

from pokertui.app import make_app
from pokertui.screens.analyze import AnalyzeScreen
from pokertui.screens.analyze_hand import AnalyzeHandScreen
from pokertui.screens.study import StudyScreen
from solvers.analysis import runner
from solvers.analysis.runner import analyze_task
from tests.conftest import STRATEGIES, plain_text, wait_until

DATA = Path(__file__).parent / "data" / "hand_histories"
NUTS = DATA / "stars_nuts_fold.txt"
BOT = "random"
"""A chump: the river's EVs against an all-in are closed forms, the same whatever the bot."""


def text_of(screen, selector: str, width: int = 200) -> str:
    return plain_text(screen.query_one(selector, Static).render(), width)


async def open_analyze(pilot, app) -> AnalyzeScreen:
    await pilot.press("t")
    await wait_until(pilot, lambda: isinstance(app.screen, StudyScreen))
    await pilot.press("a")
    await wait_until(pilot, lambda: isinstance(app.screen, AnalyzeScreen))
    return app.screen


async def start(pilot, screen: AnalyzeScreen, files: str, hero: str = "", bot: str = BOT):
    screen.query_one("#analyze-hero", Input).value = hero
    screen.query_one("#analyze-bot", Input).value = bot
    field = screen.query_one("#analyze-files", Input)
    field.value = files
    field.focus()
    await pilot.pause()
    await pilot.press("enter")


async def test_analyze_the_nuts_folded_and_replay_the_river(tmp_path):
    app = make_app(strategies_dir=STRATEGIES, saves_dir=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_analyze(pilot, app)
        await start(pilot, screen, str(NUTS))  # no hero: the one name whose cards are known
        await wait_until(pilot, lambda: screen.result is not None)
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        first = table.get_row_at(0)
        assert first[0].plain == "107.00" and first[1] == "stars_nuts_fold.txt #1001"
        assert first[2] == "button" and first[4] == "river"
        summary = text_of(screen, "#analyze-summary")
        assert "107.00 bb" in summary and "10700.0" in summary  # total and bb/100 lost
        assert "river" in summary and "Model:" in summary
        assert "1 hand analysed" in text_of(screen, "#analyze-status")

        table.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalyzeHandScreen))
        replay = app.screen
        assert "Decision 1 of 4: preflop" in text_of(replay, "#analyze-hand-text")
        for _ in range(5):  # past the last decision it stays on the river
            await pilot.press("right")
        await pilot.pause()
        shown = text_of(replay, "#analyze-hand-text")
        assert "Decision 4 of 4: river" in shown
        assert "Villain: all-in 93bb" in shown and "Hero: bet 4bb" in shown
        assert "46.5% equity needed" in shown
        assert "combos (Bayes reach)" in shown and "Their range here" in shown
        assert "EV lost 107.00bb" in shown and "best call 93bb +107.00bb" in shown
        call = next(line for line in shown.splitlines() if line.strip().startswith("call 93bb"))
        assert "+107.00bb" in call
        fold = next(line for line in shown.splitlines() if "fold" in line and "▶" in line)
        assert "+0.00bb" in fold
        await pilot.press("p")
        await pilot.pause()
        assert "Decision 3 of 4: turn" in text_of(replay, "#analyze-hand-text")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


async def test_bad_files_show_a_message_and_the_screen_stays_usable(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("nothing but notes\n")
    app = make_app(strategies_dir=STRATEGIES, saves_dir=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_analyze(pilot, app)
        status = "#analyze-status"
        await start(pilot, screen, str(tmp_path / "missing.txt"))
        await wait_until(pilot, lambda: "missing.txt" in text_of(screen, status))
        await start(pilot, screen, str(notes))
        unknown = "no hand history of a known format"
        await wait_until(pilot, lambda: unknown in text_of(screen, status))
        await start(pilot, screen, str(NUTS), hero="Nobody")
        await wait_until(pilot, lambda: "no hand has a player 'Nobody'" in text_of(screen, status))
        assert isinstance(app.screen, AnalyzeScreen) and screen.result is None
        await start(pilot, screen, str(NUTS), hero="Hero")
        await wait_until(pilot, lambda: screen.result is not None)
        assert screen.query_one(DataTable).get_row_at(0)[0].plain == "107.00"


async def test_leaving_mid_run_cancels_the_analysis(tmp_path, monkeypatch):
    """Five hands (the same one under five ids), the second held until the screen is left: the
    worker stops after it instead of analysing the other three."""
    text = NUTS.read_text()
    path = tmp_path / "five.txt"
    path.write_text("\n\n".join(text.replace("#1001", f"#{1001 + i}") for i in range(5)))
    started, gate = [], threading.Event()

    def held(task, all_sizes):
        started.append(task.key)
        if len(started) == 2:
            gate.wait(60)
        return analyze_task(task, all_sizes)

    monkeypatch.setattr(runner, "analyze_task", held)
    app = make_app(strategies_dir=STRATEGIES, saves_dir=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_analyze(pilot, app)
        await start(pilot, screen, str(path))
        await wait_until(pilot, lambda: "1 of 5 hands done" in text_of(screen, "#analyze-status"))
        (worker,) = [w for w in app.workers if w.group == "analyze"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, StudyScreen))
        gate.set()
        await wait_until(pilot, lambda: worker.is_finished)
        assert worker.state == WorkerState.CANCELLED
        assert len(started) == 2 and screen.result is None


async def test_an_unexpected_failure_is_shown_too(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(runner, "run_analysis", broken)
    app = make_app(strategies_dir=STRATEGIES, saves_dir=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_analyze(pilot, app)
        await start(pilot, screen, str(NUTS))
        shown = "The analysis failed: RuntimeError: the disk went away"
        await wait_until(pilot, lambda: shown in text_of(screen, "#analyze-status"))
        assert isinstance(app.screen, AnalyzeScreen)
