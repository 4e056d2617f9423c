"""Pilot tests of the theory lab: every figure against the formulas in ORACLES.md."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from pokertui.app import make_app
from pokertui.screens.theory import TheoryScreen
from pokertui.widgets.theory.kuhn import kuhn_deviations
from pokertui.widgets.theory.pot_odds import pot_odds_figures
from pokertui.widgets.theory.river import river_figures
from pokertui.widgets.theory.von_neumann import von_neumann_figures
from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from tests.equilibrium_checks import best_response_interval

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


def test_river_toy_oracle_figures():
    f = river_figures(4, 1, 0.2)
    assert f.bluff_of_all == pytest.approx(0.04) and f.call_probability == pytest.approx(0.8)
    assert f.mdf == pytest.approx(0.8) and f.alpha == pytest.approx(0.2)
    assert f.vs_best_response["equilibrium"] == pytest.approx(0.96)
    assert f.vs_best_response["never bluff"] == pytest.approx(0.8)
    assert f.vs_best_response["always bet"] == pytest.approx(0.2)
    assert f.equilibrium_vs == pytest.approx({"always call": 0.96, "always fold": 0.96})


@pytest.mark.parametrize(
    ("ante", "bet", "row"),
    [
        (1, 2, ("1/9", "7/9", "2/9", "5/9", "1/9")),
        (1, 4, ("1/10", "17/20", "3/20", "7/10", "1/10")),
        (8, 1, ("8/297", "161/297", "136/297", "25/297", "64/297")),
    ],
)
def test_von_neumann_table_rows(ante, bet, row):
    f = von_neumann_figures(ante, bet, 50)
    form = f["form"]
    got = (form.x1, form.x2, form.c, form.y0, form.value)
    assert got == pytest.approx([float(Fraction(v)) for v in row])
    # the LP on 50 bins lands within a bin or two of the thresholds and near the value
    assert f["measured"].x1 == pytest.approx(form.x1, abs=2 / 50)
    assert f["measured"].x2 == pytest.approx(form.x2, abs=2 / 50)
    # the figure is the 50-bin LP's value; the binned value is stationary at the equilibrium, so
    # it is within O(1/bins^2) of the continuous one (measured 7.4e-4 for (8, 1), 1.1e-4 for
    # (1, 2)), and like any game value it lies in the admissible strategy's best-response interval
    game = load_game(f"von_neumann(ante={ante},bet={bet},bins=50)")
    assert f["lp_value"] == pytest.approx(solve_lp(game).value, abs=1e-9)
    assert f["lp_value"] == pytest.approx(form.value, abs=2 / 50**2)
    admissible = exploitability(game, game.admissible_strategy())
    low, high = best_response_interval(admissible)
    assert low - 1e-12 <= f["lp_value"] <= high + 1e-12  # (1, 4): the admissible one is optimal
    evs = {name: evs for name, *evs in f["rows"]}
    admissible_eq, _, lp_eq = evs["equilibrium"]
    for name, (admissible, _, lp) in evs.items():
        if name != "player's best response":
            assert admissible <= admissible_eq + 1e-3 and lp <= f["lp_value"] + 1e-9


@pytest.mark.parametrize("alpha", [0.0, 1 / 6, 1 / 3])
def test_kuhn_family_value_and_deviations(alpha):
    value, deviations = kuhn_deviations(alpha)
    assert value == pytest.approx(-1 / 18)
    assert len(deviations) == 12
    for row in deviations:
        assert max(row.pure_evs) == pytest.approx(row.equilibrium_ev, abs=1e-12)
        if 0 < row.frequency < 1:  # mixed: both pure actions tie
            assert row.pure_evs[0] == pytest.approx(row.pure_evs[1], abs=1e-12)


async def test_theory_screen_shows_the_figures(tmp_path):
    app = make_app(STRATEGIES, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_tab(pilot, "kuhn")
        summary = text(screen.query_one("#kuhn-summary", Static))
        assert "-0.055556" in summary and "bet K 0.5" in summary
        await pilot.click("#kuhn-up")
        await pilot.pause()
        assert screen.query_one("#kuhn-alpha", Input).value == "6/30"
        assert "bet K 0.6" in text(screen.query_one("#kuhn-summary", Static))
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
        table = rows(screen.query_one("#river-table", DataTable))
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
