"""Pilot tests of the Spots screen and of practising a spot: the table shows what is solved,
Practice plays the solved bot with 13x13 live grids and typed off-tree amounts, Edit saves a
validated copy in the user's folder, Solve opens the launcher preset for the spot."""

from __future__ import annotations

import os

import pytest
from textual.widgets import DataTable, Input, Select, Static, TextArea

from pokertui.app import make_app
from pokertui.cli import main
from pokertui.screens.play import PlayScreen
from pokertui.screens.solve import SolveScreen, parse_stop
from pokertui.screens.spot_edit import SpotEditDialog
from pokertui.screens.spots import SpotsScreen
from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.runs.request import Target
from solvers.strategy_file import load_strategy
from tests.conftest import plain_text

SPOT = """name = "Tiny river"
description = "A test spot; ranges are illustrative."
board = "Ks 7d 2c 9h 4s"
pot = 100
stack = 300
oop_range = "QQ+, AK, KQs, 77, 99, 22, A5s, 65s"
ip_range = "TT+, AK, KJs, 99, 87s, QJs"

[river]
oop_bet = "50%, a"
ip_bet = "50%, a"
ip_raise = "a"
oop_raise = "a"
"""


@pytest.fixture
def folders(tmp_path):
    spots, strategies, saves = tmp_path / "spots", tmp_path / "strategies", tmp_path / "saves"
    for folder in (spots, strategies, saves):
        folder.mkdir()
    (spots / "tiny_river.toml").write_text(SPOT)
    (spots / "unsolved_river.toml").write_text(SPOT.replace("Tiny river", "Unsolved"))
    out = strategies / "tiny_river.json.gz"
    spot = str(spots / "tiny_river.toml")
    assert main(["solve", spot, "--algo", "dcfr", "--target", "0.3%", "--out", str(out)]) == 0
    (strategies / "tiny_river.json.gz.ckpt.npz").unlink()
    return spots, strategies, saves


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_spots(pilot, folders) -> SpotsScreen:
    spots, strategies, saves = folders
    screen = SpotsScreen(strategies, saves, spots_dir=spots)
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_spots_table_and_practice_with_an_off_tree_bet(folders, size):
    spots, strategies, saves = folders
    app = make_app(strategies, saves, seed=3)
    async with app.run_test(size=size) as pilot:
        screen = await open_spots(pilot, folders)
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        tiny, unsolved = screen.rows
        assert tiny.name == "Tiny river" and tiny.street == "river" and tiny.pot == 100
        assert tiny.solved is not None and tiny.solved_text.endswith("%")
        # the figure shown is the file's own exploitability, measured afresh here, and the
        # file's value lies within its nash conv of the LP's game value (the independent one)
        loaded = load_strategy(strategies / "tiny_river.json.gz")
        measured = exploitability(loaded.game, loaded.strategy)
        assert tiny.pot_percent == pytest.approx(measured.pot_percent, rel=1e-6)
        assert 0 < measured.pot_percent <= 0.3
        lp_value = solve_lp(loaded.game).value
        assert lp_value == pytest.approx(14.0332, abs=1e-3)
        assert abs(measured.game_value - lp_value) <= measured.nash_conv + 1e-9
        assert unsolved.solved is None and unsolved.solved_text == "no"
        await pilot.press("down", "p")  # the unsolved one: solved now, in the launcher
        await pilot.pause()
        assert isinstance(app.screen, SolveScreen) and app.screen.start_now
        await pilot.press("escape")  # leave it running; nothing opens when it ends
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("up", "p")
        await settle(pilot)
        play = app.screen
        assert isinstance(play, PlayScreen) and play.session.game.name == "nlhe"
        session = play.session
        for _ in range(30):  # deal until the human opens the betting
            if session.human_to_act and session.node.key in ("", "x"):
                break
            while session.human_to_act:
                session.act(session.legal_options()[0].label)
            session.new_hand()
            play.refresh_all()
            await settle(pilot)
        assert session.human_to_act
        ranges = plain_text(play.query_one("#live-ranges", Static), 120)
        assert "AA" in ranges and "72o" in ranges  # the 13x13 class grid
        grid_row = next(line for line in ranges.splitlines() if "AA" in line).rstrip()
        if size == (80, 24):
            assert len(grid_row) == 39  # 3 characters a class
        else:
            assert len(grid_row) >= 13 * 5  # the wide screen's grid uses the space
        pot = session.pot()
        await pilot.press("x")
        await pilot.pause()
        amount_box = app.screen.query_one("#amount-input", Input)
        amount_box.value = f"{0.8 * pot:g}"
        await pilot.press("enter")
        await settle(pilot)
        step = next(s for s in session.hand.steps if s.seat == session.hand.human_seat)
        assert step.mapped is not None and step.amount == pytest.approx(0.8 * pot)
        log = plain_text(play.query_one("#hand-log-text", Static), 120)
        assert f"bet {0.8 * pot:g}" in log
        for _ in range(6):  # call or check to the end, then review the hand
            if session.hand_over:
                break
            await pilot.press("c")
            await settle(pilot)
        assert session.hand_over and session.hand.ev_lost is not None
        await pilot.press("s")
        await settle(pilot)
        from pokertui.screens.review import ReviewScreen  # noqa: PLC0415

        assert isinstance(app.screen, ReviewScreen)


async def test_edit_saves_a_validated_copy(folders):
    spots, strategies, saves = folders
    app = make_app(strategies, saves)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_spots(pilot, folders)
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SpotEditDialog)
        await pilot.press("ctrl+g")  # the range lab's grids, and back with both ranges as text
        await settle(pilot)
        from pokertui.screens.range_lab import RangeLabScreen  # noqa: PLC0415
        from solvers.cards.ranges import parse_range  # noqa: PLC0415

        assert isinstance(app.screen, RangeLabScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is dialog
        oop_text = dialog.query_one("#edit-oop", Input).value
        assert (parse_range(oop_text) == parse_range("QQ+, AK, KQs, 77, 99, 22, A5s, 65s")).all()
        dialog.query_one("#edit-name", Input).value = "Tighter IP"
        dialog.query_one("#edit-ip", Input).value = "ZZ+"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "ip_range" in str(dialog.query_one("#edit-error", Static).content)
        assert not (saves / "spots").exists() or not list((saves / "spots").iterdir())
        dialog.query_one("#edit-ip", Input).value = "TT+, AK"
        dialog.query_one("#edit-sizes", TextArea).text = '[river]\noop_bet = "75%"\n'
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = saves / "spots" / "tighter_ip.toml"
        assert saved.exists()
        from solvers.games.holdem.bet_sizes import Size  # noqa: PLC0415
        from solvers.games.holdem.spot import load_spot_params, spot_meta  # noqa: PLC0415

        params = load_spot_params(saved)
        assert params.ip_range == "TT+, AK" and params.river.oop_bet == (Size("pct", 75.0),)
        assert params.river.ip_bet == () and spot_meta(saved)["name"] == "Tighter IP"
        assert (spots / "tiny_river.toml").read_text() == SPOT
        screen = app.screen
        assert isinstance(screen, SpotsScreen)
        assert [r.name for r in screen.rows].count("Tighter IP") == 1


async def test_solve_opens_the_launcher_preset_for_the_spot(folders):
    spots, strategies, saves = folders
    app = make_app(strategies, saves)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_spots(pilot, folders)
        await pilot.press("down", "s")
        await pilot.pause()
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        assert solve.query_one("#solve-spec", Input).value == str(spots / "unsolved_river.toml")
        assert solve.query_one("#solve-stop-value", Input).value == "0.3%"
        assert solve.query_one("#solve-stop", Select).value == "target"
        text = solve.query_one("#solve-stop-value", Input).value
        assert parse_stop("target", text) == Target(0.3, pot_percent=True)


async def test_a_spot_file_that_changed_since_it_was_listed_is_not_edited(folders):
    """Made a FIFO after the table read it: the edit dialog's read would have blocked the app;
    it says why instead, and the screen stays."""
    spots, strategies, saves = folders
    app = make_app(strategies, saves)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_spots(pilot, folders)
        path = screen.current.path
        path.unlink()
        os.mkfifo(path)
        await pilot.press("d")
        await settle(pilot)
        assert app.screen is screen
        shown = [str(n.message) for n in app._notifications]
        assert any(f"Cannot edit {path.name}" in m and "regular file" in m for m in shown), shown
