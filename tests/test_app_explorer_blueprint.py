"""Pilot tests of the explorer on a full-game blueprint: the preflop lines in the tree and a
node's class chart in the Preflop tab, read against the file's raw bytes (the small random
blueprint of ``test_blueprint_report``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from textual.widgets import Static, TabbedContent

from pokertui.app import make_app
from pokertui.widgets.explorer import StrategyTree
from pokertui.widgets.explorer.spot_grid import SpotGrid
from tests.conftest import plain_text
from tests.test_app_explorer import open_explorer, type_into
from tests.test_blueprint_report import class_of, combos_of, small_blueprint

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    return small_blueprint(tmp_path_factory.mktemp("bp") / "small.npz")


async def test_explorer_opens_a_blueprint_with_preflop_lines_and_charts(tmp_path, blueprint):
    path, raw, _ = blueprint
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_explorer(pilot, path)
        status = plain_text(screen.query_one("#explorer-status", Static), 200)
        assert "hunl(stack_bb=10)" in status and "123 iterations" in status
        assert "LBR fcpa 3-4 +512 mbb/hand" in status
        tree = screen.query_one(StrategyTree)
        assert set(tree.by_key) == {
            "",
            "c",
            "cr250",
            "cr1000",
            "cr250r1000",
            "r250",
            "r250r1000",
            "r1000",
        }
        assert screen.query_one(TabbedContent).active == "tab-blueprint"
        grid = screen.query_one("#blueprint-grid", SpotGrid)
        root = raw[: 169 * 4].reshape(169, 4) / 255.0
        assert grid.mix is not None and np.allclose(grid.mix, root)
        assert grid.actions == ("fold", "limp", "open to 2.5 bb", "all-in 10 bb")
        weights = np.array([combos_of(c) for c in range(169)], dtype=float)
        totals = weights @ root / 1326
        bars = plain_text(screen.query_one("#blueprint-bars", Static), 120)
        for share in totals:
            assert f"{100 * share:.1f}%" in bars
        charts = plain_text(screen.query_one("#blueprint-charts", Static), 120)
        assert "limp (% of each class)" in charts

        await type_into(pilot, "#explorer-goto", "c")
        await pilot.pause()
        await pilot.pause()
        base = 169 * 4
        limp = raw[base : base + 169 * 3].reshape(169, 3) / 255.0
        assert grid.actions == ("check", "raise to 2.5 bb", "all-in 10 bb")
        assert np.allclose(grid.mix, limp)
        head = plain_text(screen.query_one("#blueprint-head", Static), 200)
        assert "SB limps; BB to act" in head
        pane = screen.query_one("#explorer-blueprint")
        pane.show_class("72o")
        row = limp[class_of("72o")]
        picked = plain_text(screen.query_one("#blueprint-class", Static), 200)
        assert all(f"{100 * p:.1f}%" in picked for p in row)
