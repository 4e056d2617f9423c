"""Pilot tests of a FLOP spot in the app: practised from the Spots screen through a street
change with the live panel's numbers shown, and explored (a node opened, per-hand frequencies
shown), on a binary strategy file in a temporary saves folder. The spot is a small flop (narrow
ranges, one size a street) so that CI solves it in seconds; the numbers the screens show are
checked against ``solvers`` called directly, which ``tests/test_decision_values.py`` checks
against the numpy walk."""

from __future__ import annotations

import numpy as np
import pytest
from textual.widgets import DataTable, Static

from pokertui.app import make_app
from pokertui.cli import main
from pokertui.screens.explorer import ExplorerScreen
from pokertui.screens.play import PlayScreen
from pokertui.screens.spots import SpotsScreen
from pokertui.widgets.format import ev
from solvers.strategy_file import load_strategy
from tests.conftest import plain_text
from tests.test_app_explorer import type_into
from tests.test_app_spots import open_spots, settle

FLOP = """name = "Small flop"
description = "A test flop: narrow ranges, one size a street; ranges are illustrative."
board = "Qs Jh 2h"
pot = 100
stack = 100
oop_range = "AA, KK, AKs, T9s, 76s"
ip_range = "AA, JJ, AQs, 98s, 65s"

[flop]
oop_bet = "a"
ip_bet = "a"

[turn]
oop_bet = "75%"
ip_bet = "75%"

[river]
oop_bet = "75%"
ip_bet = "75%"
"""


@pytest.fixture(scope="module")
def flop_folders(tmp_path_factory):
    """A spots folder with the small flop, and its binary solution where the Spots screen
    finds a finished run (``saves/runs/{stem}-*.ptsb``)."""
    root = tmp_path_factory.mktemp("flop")
    spots, strategies, saves = root / "spots", root / "strategies", root / "saves"
    for folder in (spots, strategies, saves / "runs"):
        folder.mkdir(parents=True)
    spot = spots / "small_flop.toml"
    spot.write_text(FLOP)
    out = saves / "runs" / "small_flop-1.ptsb"
    argv = ["solve", str(spot), "--algo", "dcfr", "--iterations", "40", "--out", str(out)]
    assert main(argv) == 0
    return spots, strategies, saves, out


async def spots_screen(pilot, folders) -> SpotsScreen:
    return await open_spots(pilot, folders[:3])


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_practise_a_flop_through_a_street_change(flop_folders, size):
    _, strategies, saves, out = flop_folders
    app = make_app(strategies, saves, seed=4)
    async with app.run_test(size=size) as pilot:
        screen = await spots_screen(pilot, flop_folders)
        (row,) = screen.rows
        assert row.street == "flop" and row.solved == out
        await pilot.press("p")
        await settle(pilot)
        play = app.screen
        assert isinstance(play, PlayScreen)
        session = play.session
        assert session.compiled and session.game.nodes[0].board == session.node.board[:3]
        streets = set()
        for _ in range(40):  # check or call until a later street's decision is the human's
            if session.hand_over:
                await pilot.press("n")
                await settle(pilot)
                continue
            assert session.human_to_act
            await settle(pilot)
            evs = plain_text(play.query_one("#live-evs", Static), 120)
            own = session.action_evs()
            for label, value in zip(session.node.actions, own, strict=True):
                if np.isfinite(value):
                    assert label in evs and ev(float(value)) in evs
            streets.add(len(session.node.board))
            if len(session.node.board) > 3:
                break
            await pilot.press("c")
            await settle(pilot)
        assert max(streets) > 3, "no hand reached the turn"
        ranges = plain_text(play.query_one("#live-ranges", Static), 120)
        assert "AA" in ranges
        await pilot.press("c")
        await settle(pilot)
        if not session.hand_over:
            await pilot.press("c")
            await settle(pilot)


async def test_explore_a_flop_node_with_per_hand_frequencies(flop_folders):
    _, strategies, saves, out = flop_folders
    loaded = load_strategy(out)
    app = make_app(strategies, saves)
    async with app.run_test(size=(120, 40)) as pilot:
        await spots_screen(pilot, flop_folders)
        await pilot.press("e")
        await settle(pilot)
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        await settle(pilot)
        explorer.go_to("x")  # IP after a check: a node with both ranges in play
        await settle(pilot)
        await settle(pilot)
        head = plain_text(explorer.query_one("#spot-head", Static), 200)
        assert "'x'" in head
        view = explorer.query_one("#explorer-spot").view
        assert view is not None and view.report.key == "x"
        game = loaded.game
        node = game.node_by_key("x")
        np.testing.assert_allclose(view.report.probs, loaded.strategy[node.id])
        # the combos of a class: per-hand frequencies as the file has them
        combos = view.combos("AA")
        await type_into(pilot, "#spot-class", "AA")
        await settle(pilot)
        table = explorer.query_one("#spot-combos", DataTable)
        assert table.row_count == len(combos.hands) > 0
        first = " ".join(str(c) for c in table.get_row_at(0))
        assert combos.hands[0] in first


async def test_whole_tree_tabs_refuse_a_big_tree(flop_folders, monkeypatch):
    """Where a best response gains, a hand's path and a comparison cover every node: past
    ``WHOLE_TREE_NODES`` decisions (a flop has 57,000) the tab says so instead of walking."""
    from solvers.reports import strategy_report

    monkeypatch.setattr(strategy_report, "WHOLE_TREE_NODES", 10)
    _, strategies, saves, _ = flop_folders
    app = make_app(strategies, saves)
    async with app.run_test(size=(120, 40)) as pilot:
        await spots_screen(pilot, flop_folders)
        await pilot.press("e")
        await settle(pilot)
        await settle(pilot)
        summary = plain_text(app.screen.query_one("#explorer-exploit-summary", Static), 200)
        assert "too many" in summary and "pokertui exploit" in summary


async def test_practice_on_an_unsolved_flop_solves_it_now_then_opens_it(tmp_path):
    """The launcher starts at once with a progress bar; the validated file opens in the play
    screen, and the Spots screen finds it next time."""
    from textual.widgets import ProgressBar

    from pokertui.screens.solve import SolveScreen, target_progress

    spots, strategies, saves = tmp_path / "spots", tmp_path / "strategies", tmp_path / "saves"
    for folder in (spots, strategies, saves):
        folder.mkdir()
    tiny = FLOP.replace('"AA, KK, AKs, T9s, 76s"', '"AA, T9s"').replace(
        '"AA, JJ, AQs, 98s, 65s"', '"JJ, 98s"'
    )
    (spots / "tiny_flop.toml").write_text(tiny)
    folders = (spots, strategies, saves, None)
    app = make_app(strategies, saves, seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await spots_screen(pilot, folders)
        assert screen.rows[0].solved is None
        await pilot.press("p")
        await pilot.pause()
        solve = app.screen
        assert isinstance(solve, SolveScreen) and solve.query_one(ProgressBar).display
        for _ in range(600):  # the run is a child process; the screen hands over its file
            await pilot.pause(0.1)
            if isinstance(app.screen, PlayScreen):
                break
        assert isinstance(app.screen, PlayScreen)
        for _ in range(100):  # let the play screen finish mounting before the app closes
            await pilot.pause(0.1)
            if app.screen.query("#hand-log-text") and app.screen.query("HeaderTitle"):
                break
        assert app.screen.session.compiled
        (found,) = list((saves / "runs").glob("tiny_flop-*.ptsb"))
        assert app.screen.session.file.source == str(found)
    assert target_progress([10.0, 10.0], 0.1) == 0.0
    assert target_progress([10.0, 1.0], 0.1) == pytest.approx(0.5)
    assert target_progress([10.0, 0.05], 0.1) == 1.0
