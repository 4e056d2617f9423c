"""The home menu reaches every study screen and the solver launcher, and back."""

from __future__ import annotations

from pathlib import Path

from pokertui.app import make_app
from pokertui.screens.explorer import ExplorerScreen
from pokertui.screens.home import HomeScreen
from pokertui.screens.range_lab import RangeLabScreen
from pokertui.screens.solve import SolveScreen
from pokertui.screens.study import StudyScreen
from pokertui.screens.theory import TheoryScreen

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


async def test_study_and_solve_are_reachable_from_home(tmp_path):
    app = make_app(strategies_dir=STRATEGIES, saves_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        for key, screen_type in (("l", RangeLabScreen), ("e", ExplorerScreen), ("t", TheoryScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen_type), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StudyScreen), key
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, SolveScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
