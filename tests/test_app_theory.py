"""Pilot tests of the theory lab: every figure against the published closed-form formulas."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from pokertui.app import make_app
from pokertui.screens.theory import TheoryScreen
from pokertui.widgets.theory.pot_odds import pot_odds_figures

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def text(widget: Static) -> str:
    return str(widget.content)


def rows(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def open_tab(pilot, tab: str) -> TheoryScreen:
    screen = TheoryScreen(tab)
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def set_input(pilot, screen, field_id: str, value: str) -> None:
    screen.query_one(f"#{field_id}", Input).value = value
    await pilot.pause()


def test_pot_odds_formulas():
    for fraction, required in ((0.5, 0.25), (0.75, 0.3), (1.0, 1 / 3), (2.0, 0.4)):
        assert pot_odds_figures(1.0, fraction, 0.5)["required_equity"] == pytest.approx(required)
    figures = pot_odds_figures(100, 50, 0.2)
    assert figures["mdf"] == pytest.approx(2 / 3) and figures["alpha"] == pytest.approx(1 / 3)
    # calling 50 with 20% equity: win 200 * 0.2 = 40 back, so 50 / 0.2 - 200 = 50 more needed
    assert figures["implied_odds"] == pytest.approx(50)


async def test_theory_screen_shows_the_figures(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_tab(pilot, "kuhn")
        summary = text(screen.query_one("#kuhn-summary", Static))
        assert "-0.055556" in summary and "bet K 0.5" in summary
        await pilot.click("#kuhn-up")
        await pilot.pause()
        assert screen.query_one("#kuhn-alpha", Input).value == "1/5"  # 6/30, reduced
        assert "bet K 0.6" in text(screen.query_one("#kuhn-summary", Static))
        # [ and ] step alpha even while the alpha box has focus
        alpha_box = screen.query_one("#kuhn-alpha", Input)
        alpha_box.focus()
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert alpha_box.value == "7/30"
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert alpha_box.value == "1/6" and "bet K 0.5" in text(
            screen.query_one("#kuhn-summary", Static)
        )
        await set_input(pilot, screen, "kuhn-alpha", "0.5")
        assert "at most" in text(screen.query_one("#pane-kuhn .theory-error", Static))

        screen.query_one("TabbedContent").active = "tab-von-neumann"
        await set_input(pilot, screen, "vn-ante", "8")
        await set_input(pilot, screen, "vn-bet", "1")
        closed = rows(screen.query_one("#vn-thresholds", DataTable))[0]
        assert closed[1:] == [f"{float(Fraction(v)):.4g}" for v in ("8/297", "161/297")] + [
            f"{float(Fraction(v)):.4g}" for v in ("136/297", "25/297", "64/297")
        ]
        plot = text(screen.query_one("#vn-plot", Static))
        assert "x1" in plot and "x2" in plot and "y0" in plot and "█" in plot
        await set_input(pilot, screen, "vn-bins", "5000")
        assert "at most 200" in text(screen.query_one("#pane-von-neumann .theory-error", Static))

        screen.query_one("TabbedContent").active = "tab-river"
        await pilot.pause()
        figures = text(screen.query_one("#river-figures", Static))
        assert "MDF P/(P+B) = 80.0%" in figures and "= 4.0% of all hands" in figures
        river_table = screen.query_one("#river-table", DataTable)
        headers = [str(column.label) for column in river_table.columns.values()]
        assert headers[-1] == "Bettor's EV (chips)"
        table = rows(river_table)
        assert table[:3] == [
            ["never bluff", "best response", "0.8"],
            ["always bet", "best response", "0.2"],
            ["equilibrium", "best response", "0.96"],
        ]
        await set_input(pilot, screen, "river-pot", "abc")
        assert "must be a number" in text(screen.query_one("#pane-river .theory-error", Static))

        screen.query_one("TabbedContent").active = "tab-pot-odds"
        await pilot.pause()
        sizes = rows(screen.query_one("#odds-table", DataTable))
        assert [r[1] for r in sizes] == ["25.0%", "30.0%", "33.3%", "40.0%"]
        figures = text(screen.query_one("#odds-figures", Static))
        assert "P/(P+B)  = 66.7%" in figures and "B/(P+2B) = 25.0%" in figures


async def test_matrix_lp_and_regret_matching(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_tab(pilot, "matrix")
        lp = text(screen.query_one("#matrix-lp", Static))
        assert "value 0" in lp and "rock 0.333  paper 0.333  scissors 0.333" in lp
        await pilot.click("#matrix-animate")
        await pilot.pause(0.6)
        animation = text(screen.query_one("#matrix-rm", Static))
        assert "current: rock 0.000  paper 1.000  scissors 0.000" in animation
        assert "best response: paper" in animation
        await pilot.click("#matrix-stop")
        await set_input(pilot, screen, "matrix-payoff", "[[3, -1], [-1, 1]]")
        await set_input(pilot, screen, "matrix-opponent", "0.5 0.5")
        lp = text(screen.query_one("#matrix-lp", Static))
        assert "value 0.3333" in lp and "r0 0.333  r1 0.667" in lp
        await set_input(pilot, screen, "matrix-payoff", "[[1, 2], [3]]")
        error = text(screen.query_one("#pane-matrix .theory-error", Static))
        assert "same length" in error
        await set_input(pilot, screen, "matrix-payoff", "rps")
        await set_input(pilot, screen, "matrix-opponent", "0.5 0.6 0")
        assert "sum to 1" in text(screen.query_one("#pane-matrix .theory-error", Static))
