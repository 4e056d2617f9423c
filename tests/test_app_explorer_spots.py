"""Pilot tests of the explorer's hold'em views: the split 13x13 grid, a class's combos, the
EV and equity charts, the by-card report of a deal and comparing two spot files, at 80x24 and
200x60. Expected numbers come from ``solvers.reports`` called directly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from textual.widgets import DataTable, Static, TabbedContent

from pokertui.app import make_app
from pokertui.widgets.explorer.spot_grid import SpotGrid, cell_bands
from pokertui.widgets.format import ev, pct
from solvers.algorithms.full_width import FullWidthCFR
from solvers.cards.deck import CLASS_LABELS
from solvers.games import load_game
from solvers.reports.by_card import by_next_card
from solvers.reports.spot_report import spot_node_view
from solvers.strategy_file import load_strategy, save_strategy
from tests.conftest import plain_text
from tests.test_app_explorer import cells, open_explorer, settle, type_into
from tests.test_spot_report import TURN_SPOT

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


@pytest.fixture(scope="module")
def spot_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spot")
    spot = folder / "turn.toml"
    spot.write_text(TURN_SPOT)
    game = load_game(str(spot))
    paths = []
    for iterations in (40, 5):
        solver = FullWidthCFR(game, variant="dcfr")
        solver.run(iterations=iterations)
        path = folder / f"turn-{iterations}.json"
        save_strategy(path, game, solver.strategy(), measure_it=False)
        paths.append(path)
    return paths


def test_cell_bands_split_a_cell_by_largest_remainder():
    assert cell_bands(np.array([0.5, 0.25, 0.25]), 4) == [0, 0, 1, 2]
    assert cell_bands(np.array([0.0, 1.0]), 3) == [1, 1, 1]
    assert cell_bands(np.array([0.34, 0.33, 0.33]), 3) == [0, 1, 2]
    assert len(cell_bands(np.array([0.7, 0.2, 0.1]), 7)) == 7


@pytest.mark.parametrize("size, cell_width", [((80, 24), 3), ((200, 60), 7)])
async def test_spot_view_grid_bars_and_class_combos(tmp_path, spot_files, size, cell_width):
    path = spot_files[0]
    loaded = load_strategy(path)
    game = loaded.game
    expected = spot_node_view(game, loaded.strategy, game.node_by_key(""))
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=size) as pilot:
        screen = await open_explorer(pilot, path)
        await settle(pilot)
        assert screen.query_one(TabbedContent).active == "tab-spot"
        head = plain_text(screen.query_one("#spot-head", Static), 200)
        assert "board Qs Jh 2h 8d" in head and "seat 1 to act" in head
        bars = plain_text(screen.query_one("#spot-bars", Static), 200)
        for action, share in zip(expected.report.actions, expected.report.aggregate, strict=True):
            assert action in bars and pct(float(share)) in bars
        grid = screen.query_one(SpotGrid)
        assert grid.cell[0] >= cell_width
        assert np.allclose(grid.mix, expected.mix.mix, equal_nan=True)
        text = plain_text(grid, 200)
        assert "AKs" in text and "72o" in text
        await type_into(pilot, "#spot-class", "AKs")
        rows = cells(screen.query_one("#spot-combos", DataTable))
        combos = expected.combos("AKs")
        assert [r[0] for r in rows] == list(combos.hands)
        for row, ev_value, equity in zip(rows, combos.evs, combos.equities, strict=True):
            assert row[-2] == ev(float(ev_value)) and row[-1] == pct(float(equity))
        charts = plain_text(screen.query_one("#spot-charts", Static), 200)
        assert "EV" in charts and "equity" in charts


async def test_clicking_a_grid_cell_picks_its_class(tmp_path, spot_files):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_explorer(pilot, spot_files[0])
        await settle(pilot)
        grid = screen.query_one(SpotGrid)
        width, height = grid.cell
        # row 0 col 0 is AA; row 1 (K) col 0 (A) is AKo; row 0 col 1 is AKs
        await pilot.click(SpotGrid, offset=(width * 1 + 1, 0))
        await settle(pilot)
        assert screen.query_one("#spot-class").value == "AKs"
        assert len(cells(screen.query_one("#spot-combos", DataTable))) == 4


async def test_by_card_tab_for_a_deal_and_going_to_a_card(tmp_path, spot_files):
    path = spot_files[0]
    loaded = load_strategy(path)
    report = by_next_card(loaded.game, loaded.strategy, "x/x")
    best = int(np.nanargmax(report.ev))
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_explorer(pilot, path)
        screen.go_to("x/x")
        await settle(pilot)
        await settle(pilot)
        table = screen.query_one("#bycard-table", DataTable)
        rows = cells(table)
        assert len(rows) == 48
        assert rows[0][0] == report.cards[best] and rows[0][2] == ev(float(report.ev[best]))
        screen.query_one(TabbedContent).active = "tab-bycard"
        await settle(pilot)
        table.focus()
        await pilot.press("enter")
        await settle(pilot)
        await settle(pilot)
        assert screen.node_id == loaded.game.node_by_key(report.node_keys[best]).id
        assert report.node_keys[best] in plain_text(screen.query_one("#spot-head", Static), 200)


async def test_compare_two_spot_files(tmp_path, spot_files):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_explorer(pilot, spot_files[0])
        screen.query_one(TabbedContent).active = "tab-compare"
        await settle(pilot)
        await type_into(pilot, "#explorer-other", str(spot_files[1]))
        await settle(pilot)
        rows = cells(screen.query_one("#explorer-diffs", DataTable))
        assert len(rows) == len(load_strategy(spot_files[0]).game.decision_nodes())


RIVER_SPOT = """\
board = "Qs Jh 2h 8d 3c"
pot = 100
stack = 200
oop_range = "99+, AQs+, KQs, T9s, 54s, A5s"
ip_range = "TT+, AJs+, KJs, QJs, 97s, 65s, A4s"

[river]
oop_bet = "50%, a"
ip_bet = "75%"
oop_raise = "a"
ip_raise = "a"
"""


async def test_lock_the_current_node_and_resolve_from_the_explorer(tmp_path):
    from pokertui.screens.solve import SolveScreen
    from tests.conftest import wait_until

    spot = tmp_path / "river.toml"
    spot.write_text(RIVER_SPOT)
    game = load_game(str(spot))
    solver = FullWidthCFR(game, variant="dcfr")
    solver.run(iterations=30)
    path = tmp_path / "river.json"
    shown = save_strategy(path, game, solver.strategy(), measure_it=False).strategy
    root = game.node_by_key("")
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_explorer(pilot, path)
        screen.query_one("#explorer-tree").focus()
        await pilot.press("ctrl+l")
        await settle(pilot)
        launcher = app.screen
        assert isinstance(launcher, SolveScreen)
        assert launcher.query_one("#solve-spec").value == game.spec_string()
        lock_path = Path(launcher.query_one("#solve-lock").value)
        assert lock_path.is_file() and lock_path.parent == tmp_path / "locks"
        launcher.query_one("#solve-stop").value = "iterations"
        await settle(pilot)
        launcher.query_one("#solve-stop-value").value = "60"
        await pilot.press("ctrl+s")
        record = launcher.book.runs[-1]
        await wait_until(pilot, lambda: record.valid or record.state == "failed", 60)
        assert record.state == "done", record.error
    solved = load_strategy(record.out)
    assert set(solved.solver.settings["locks"]) == {""}
    locked_rows = np.asarray(solved.strategy[root.id])
    assert np.abs(locked_rows - np.asarray(shown[root.id])).max() < 2e-6  # the lock, rounded
    other = game.node_by_key("x")
    assert np.abs(np.asarray(solved.strategy[other.id]) - shown[other.id]).max() > 1e-3


async def test_edit_a_class_then_lock_writes_the_edited_rows(tmp_path):
    from pokertui.screens.solve import SolveScreen
    from solvers.strategy_file.locks import load_locks

    spot = tmp_path / "river.toml"
    spot.write_text(RIVER_SPOT)
    game = load_game(str(spot))
    solver = FullWidthCFR(game, variant="dcfr")
    solver.run(iterations=30)
    path = tmp_path / "river.json"
    shown = save_strategy(path, game, solver.strategy(), measure_it=False).strategy
    root = game.node_by_key("")
    labels = np.array(game.hand_labels[0])
    aks = np.isin(labels, ["AcKc", "AdKd", "AhKh", "AsKs"])
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_explorer(pilot, path)
        await type_into(pilot, "#spot-edit", "AKs: check=1, bet 50=2")  # not a distribution
        assert screen.edits == {}
        await type_into(pilot, "#spot-edit", "AKs: bet 50=1")
        await settle(pilot)
        mix = screen.query_one(SpotGrid).mix
        bet = root.actions.index("bet 50")
        assert mix[list(CLASS_LABELS).index("AKs"), bet] == pytest.approx(1.0)
        screen.query_one("#explorer-tree").focus()
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        lock_path = app.screen.query_one("#solve-lock").value
    locks, _ = load_locks(lock_path, game)
    lock = locks[root.id]
    assert lock.hands.all()
    assert np.all(lock.probs[aks, bet] == 1.0)
    others = ~aks & game.hand_possible(root, 0)
    assert np.abs(lock.probs[others] - np.asarray(shown[root.id])[others]).max() < 2e-6
