"""Pilot tests of the Reports screen: reached from Study, it opens a batch folder, filters and
sorts the rows, shows per-texture averages and opens a row's file in the explorer. The batch is
three river solves; the test gives them flop-like weights and classes, and the expected figures
come from ``solvers.reports.aggregate`` and the summaries themselves."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from pokertui.app import make_app
from pokertui.screens.explorer import ExplorerScreen
from pokertui.screens.reports import ReportsScreen
from pokertui.screens.study import StudyScreen
from solvers.batch.jobs import Job
from solvers.batch.runner import run_batch
from solvers.reports.aggregate import load_batch, weighted
from tests.batch_fixtures import stack_jobs
from tests.test_app_explorer import cells, settle

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"
CLASSES = {100: ("rainbow", "A", 24), 200: ("monotone", "K", 4), 300: ("rainbow", "Q", 24)}


@pytest.fixture(scope="module")
def batch_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    jobs = [
        Job(j.name, j.game, j.algo, j.stop, j.options,
            {"texture": CLASSES[j.meta["stack"]][0], "high_card": CLASSES[j.meta["stack"]][1],
             "weight": CLASSES[j.meta["stack"]][2]})  # fmt: skip
        for j in stack_jobs(folder, stacks=(100, 200, 300), iterations=30)
    ]
    run_batch(jobs, folder / "out", workers=1)
    return folder / "out"


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_reports_open_a_folder_filter_sort_and_open_the_explorer(tmp_path, batch_folder):
    report = load_batch(batch_folder)
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReportsScreen)
        screen.query_one("#reports-folder").value = str(batch_folder)
        await pilot.press("enter")
        await settle(pilot)
        table = screen.query_one(DataTable)
        assert [row[0] for row in cells(table)] == ["stack100", "stack200", "stack300"]
        side = _text(screen, "#reports-textures")
        rainbow = weighted([r for r in report.rows if r.meta["texture"] == "rainbow"])
        assert "rainbow" in side and "monotone" in side
        assert f"EV OOP {rainbow['ev_oop']:.2f}" in side  # the weighted mean, weight 24 each
        await pilot.press("t")  # texture: trips (none), then on to monotone
        await pilot.press("t")
        await pilot.press("t")
        await pilot.pause()
        assert screen.texture == "monotone"
        assert [row[0] for row in cells(table)] == ["stack200"]
        await pilot.press("t", "t", "t")  # two-tone, rainbow, connected (none)
        await pilot.press("t")  # back to all
        await pilot.pause()
        assert screen.texture is None and table.row_count == 3
        await pilot.press("s", "s")  # name -> weight -> ev_oop
        await pilot.pause()
        assert screen.sort == "ev_oop"
        shown = [row[0] for row in cells(table)]
        by_ev = sorted(report.rows, key=lambda r: r.ev_oop, reverse=True)
        assert len({r.ev_oop for r in by_ev}) == 3
        assert shown == [r.name for r in by_ev]
        table.focus()
        table.move_cursor(row=1)
        await pilot.press("enter")
        await settle(pilot)
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert Path(explorer.path) == by_ev[1].out
        assert explorer.loaded.game.params.stack == float(by_ev[1].name.removeprefix("stack"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_a_folder_that_is_no_batch_shows_a_message(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = ReportsScreen(tmp_path)
        await pilot.app.push_screen(screen)
        await settle(pilot)
        assert "not a batch folder" in _text(screen, "#reports-status")
        assert screen.query_one(DataTable).row_count == 0
