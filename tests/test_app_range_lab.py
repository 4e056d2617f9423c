"""Pilot tests of the range lab: ranges edited by string, keys, mouse, presets and the combo
dialog; equity matching the engine; hand categories; bad input shown inline."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from textual.widgets import Input, Select, SelectionList, Static

from pokertui.app import make_app
from pokertui.screens.range_lab import RangeLabScreen
from pokertui.widgets.format import pct
from pokertui.widgets.lab.combo_dialog import ComboDialog
from pokertui.widgets.lab.equity_panel import MC_CHUNKS
from pokertui.widgets.lab.lab_text import categories_text
from pokertui.widgets.lab.messages import EquityDone, EquityProgress
from pokertui.widgets.lab.range_grid import RangeGrid
from solvers.cards.deck import CLASS_COMBOS, CLASS_SIZES, class_index, parse_cards
from solvers.cards.equity import equity
from solvers.cards.range_tools import (
    category_counts,
    class_equity,
    monte_carlo_chunks,
    top_percent_range,
)
from solvers.cards.ranges import class_combo_counts, combo_count, format_range, parse_range
from tests.conftest import plain_text

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def plain(widget: Static, width: int = 80) -> str:
    return plain_text(widget, width)


async def open_lab(pilot, **kwargs) -> RangeLabScreen:
    screen = RangeLabScreen(**kwargs)
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def lab_app(tmp_path):
    return make_app(STRATEGIES, tmp_path)


async def test_range_by_string_and_by_keys(tmp_path):
    async with lab_app(tmp_path).run_test(size=(100, 30)) as pilot:
        screen = await open_lab(pilot, board="Ts9s2d")
        box = screen.query_one("#hero-range", Input)
        box.focus()
        box.value = ""
        typed = "JJ+, AQs+, KQo:0.5, AsKd"
        await pilot.press(*typed)
        await pilot.pause()
        expected = parse_range(typed)
        np.testing.assert_array_equal(screen.weights["hero"], expected)
        grid = screen.query_one("#grid-hero", RangeGrid)
        np.testing.assert_allclose(grid.values, class_combo_counts(expected) / CLASS_SIZES)
        live = combo_count(expected, "Ts9s2d")
        assert f"hero {live:.4g}" in plain(screen.query_one("#lab-counts", Static))

        # by keys: AA -> right to AKs, clear it; down-right to KK... set 0.5; AKo full
        grid.focus()
        await pilot.press("right", "space")  # AKs off
        await pilot.press("down", "down", "left", "5")  # AQo at 50%
        await pilot.press("up", "0")  # AKo full
        await pilot.pause()
        expected[CLASS_COMBOS[class_index("AKs")]] = 0.0
        expected[CLASS_COMBOS[class_index("AQo")]] = 0.5
        expected[CLASS_COMBOS[class_index("AKo")]] = 1.0
        np.testing.assert_array_equal(screen.weights["hero"], expected)
        assert box.value == format_range(expected)
        np.testing.assert_array_equal(parse_range(box.value), expected)
        counts = plain(screen.query_one("#lab-counts", Static))
        assert f"hero {combo_count(expected, 'Ts9s2d'):.4g}" in counts


async def test_mouse_click_and_combo_dialog(tmp_path):
    async with lab_app(tmp_path).run_test(size=(100, 30)) as pilot:
        screen = await open_lab(pilot, hero="AA", villain="random")
        # click the cell at row 1, column 1: KK
        await pilot.click("#grid-hero", offset=(4, 1))
        await pilot.pause()
        assert screen.weights["hero"][CLASS_COMBOS[class_index("KK")]].all()
        assert screen.query_one("#hero-range", Input).value == "KK+"
        # enter on KK opens its six combos; switch the first one off
        await pilot.press("enter")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ComboDialog)
        first = dialog.combos[0]
        assert len(dialog.query_one(SelectionList).selected) == 6
        await pilot.press("space", "escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        expected = parse_range("KK+")
        expected[first] = 0.0
        np.testing.assert_array_equal(screen.weights["hero"], expected)
        assert parse_range(screen.query_one("#hero-range", Input).value)[first] == 0.0
        # q cancels the dialog: nothing changes
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("space", "q")
        await pilot.pause()
        assert pilot.app.screen is screen
        np.testing.assert_array_equal(screen.weights["hero"], expected)


async def test_preset_and_categories(tmp_path):
    async with lab_app(tmp_path).run_test(size=(100, 30)) as pilot:
        screen = await open_lab(pilot, villain="random", board="Ts9s2dQh")
        screen.query_one("#preset", Select).value = 10
        await pilot.pause()
        top = top_percent_range(10)
        np.testing.assert_array_equal(screen.weights["hero"], top)
        assert screen.query_one("#hero-range", Input).value == format_range(top)
        board = parse_cards("Ts9s2dQh")
        hero = category_counts(top, board)
        villain = category_counts(parse_range("random"), board)
        shown = plain(screen.query_one("#lab-categories", Static))
        assert shown == plain(Static(categories_text(hero, villain)))
        assert "straight" in shown
        screen.query_one("#preset", Select).clear()  # the blank prompt row: nothing changes
        await pilot.pause()
        np.testing.assert_array_equal(screen.weights["hero"], top)


@pytest.mark.parametrize(
    ("hero_text", "villain_text", "board_text"),
    [
        ("QQ+, AKs", "JJ-99, AQs, T9s", "Ts9s2d"),  # range vs range
        ("AsKs", "QQ, JTs", "Ts9s2d7c"),  # hand vs range
        ("AcKc", "QdQc", "Ts9s2d"),  # hand vs hand
    ],
)
async def test_exact_equity_matches_engine(tmp_path, hero_text, villain_text, board_text):
    seen = []
    app = lab_app(tmp_path)
    async with app.run_test(size=(100, 30), message_hook=seen.append) as pilot:
        screen = await open_lab(pilot, hero=hero_text, villain=villain_text, board=board_text)
        screen.query_one("#dead", Input).value = "Ah"
        await pilot.pause()
        await pilot.press("f5")
        await settle(pilot)
        hero, villain = parse_range(hero_text), parse_range(villain_text)
        board, dead = parse_cards(board_text), parse_cards("Ah")
        engine = equity(hero, villain, board, dead)
        assert engine.method == "exact"
        assert screen.result.equity == pytest.approx(engine.equity, abs=1e-12)
        assert screen.result.tie == pytest.approx(engine.tie, abs=1e-12)
        text = plain(screen.query_one("#lab-result", Static))
        assert pct(engine.equity[0]) in text and pct(engine.equity[1]) in text
        assert "exact" in text
        heat = class_equity(engine.hand_equity, hero)
        np.testing.assert_allclose(screen.heat, heat)
        first = int(np.flatnonzero(~np.isnan(heat))[0])
        await pilot.press("f3")
        screen.grid("heat").cursor = first
        await pilot.pause()
        cell = plain(screen.query_one("#lab-cell", Static))
        assert f"equity {pct(heat[first])}" in cell
    assert any(isinstance(m, EquityDone) for m in seen)


async def test_monte_carlo_with_progress(tmp_path):
    seen = []
    app = lab_app(tmp_path)
    async with app.run_test(size=(100, 30), message_hook=seen.append) as pilot:
        screen = await open_lab(
            pilot, hero="random", villain="random", board="Ts9s2d", samples=20_000
        )
        await pilot.press("f5")
        await settle(pilot)
        board = parse_cards("Ts9s2d")
        *_, pooled = monte_carlo_chunks(
            parse_range("random"), parse_range("random"), board, samples=20_000, chunks=MC_CHUNKS
        )
        assert screen.result.method == "mc"
        assert screen.result.equity == pytest.approx(pooled.equity, abs=1e-12)
        np.testing.assert_allclose(
            screen.heat, class_equity(pooled.hand_equity, parse_range("random"))
        )
        text = plain(screen.query_one("#lab-result", Static))
        assert "Monte Carlo" in text and pct(pooled.equity[0]) in text
        assert any(isinstance(m, EquityProgress) for m in seen)
        assert not screen.query_one("#lab-progress").display
        await pilot.press("f3")
        await pilot.pause()
        aces = class_equity(pooled.hand_equity, parse_range("random"))[class_index("AA")]
        assert f"AA: equity {pct(aces)}" in plain(screen.query_one("#lab-cell", Static))


@pytest.mark.parametrize(
    ("field", "text", "expected"),
    [
        ("#hero-range", "AKs, QQx", "position 5"),
        ("#villain-range", "AKs-22", "same shape"),
        ("#board", "AsKsAs", "appears twice"),
        ("#board", "AsKsQsJsTs9s", "at most 5 cards"),
        ("#board", "AsKx", "unknown suit"),
        ("#dead", "Ts", "already on the board"),
        ("#hero-range", "TsTh", "empty once the board"),
    ],
)
async def test_bad_input_is_shown_inline(tmp_path, field, text, expected):
    async with lab_app(tmp_path).run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot, board="Ts9s2d")
        screen.query_one(field, Input).value = text
        await pilot.pause()
        message = screen.query_one("#lab-message", Static)
        assert message.display
        assert expected in plain(message)
        await pilot.press("f5")
        await settle(pilot)
        assert screen.result is None  # no run on bad input
        assert pilot.app.screen is screen
        # fixing the input clears the message
        screen.query_one(field, Input).value = {"#dead": "", "#board": "Ts9s2d"}.get(field, "AA")
        await pilot.pause()
        assert not message.display


async def test_fits_80x24(tmp_path):
    async with lab_app(tmp_path).run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot, board="Ts9s2d")
        await pilot.press("f5")
        await settle(pilot)
        for selector in ("#grid-hero", "#hero-range", "#villain-range", "#board", "#lab-result"):
            region = screen.query_one(selector).region
            assert region.right <= 80 and region.bottom <= 23, selector
        await pilot.press("f2")
        await pilot.pause()
        assert screen.query_one("#grid-villain").display
        assert not screen.query_one("#grid-hero").display
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is not screen


async def test_class_equity_on_demand_after_monte_carlo(tmp_path):
    async with lab_app(tmp_path).run_test(size=(100, 30)) as pilot:
        screen = await open_lab(
            pilot, hero="random", villain="random", board="Ts9s2d", samples=20_000
        )
        await pilot.press("f5")
        await settle(pilot)
        assert screen.result.method == "mc"
        await pilot.press("f3", "enter")  # AA on the heat map
        await settle(pilot)
        aces = parse_range("AA")
        engine = equity(aces, parse_range("random"), parse_cards("Ts9s2d"), samples=5_000, seed=0)
        assert screen.heat[0] == pytest.approx(engine.equity[0], abs=1e-12)
        assert f"AA: equity {pct(engine.equity[0])}" in plain(screen.query_one("#lab-cell", Static))


async def test_bad_starting_range_is_reported_not_raised(tmp_path):
    async with lab_app(tmp_path).run_test(size=(100, 30)) as pilot:
        screen = await open_lab(pilot, hero="QQ+, AKx")
        await pilot.pause()
        assert "position 5" in plain(screen.query_one("#lab-message", Static))
        assert not screen.weights["hero"].any()
