"""Pot odds and indifference: what a bet of B into a pot of P asks of each player."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number, pct

STANDARD_SIZES = (("1/2 pot", 0.5), ("3/4 pot", 0.75), ("pot", 1.0), ("2x pot", 2.0))


def pot_odds_figures(pot: float, bet: float, equity: float) -> dict[str, float]:
    from solvers.theory import poker_math as pm  # noqa: PLC0415

    return {
        "required_equity": pm.required_equity(pot, bet),
        "mdf": pm.minimum_defence_frequency(pot, bet),
        "alpha": pm.alpha(pot, bet),
        "bluff_share": pm.bluff_share(pot, bet),
        "implied_odds": pm.implied_odds_needed(pot, bet, equity),
    }


class PotOddsPane(TheoryPane):
    FIELDS = (
        ("odds-pot", "Pot", "100"),
        ("odds-bet", "Bet", "50"),
        ("odds-equity", "Equity", "0.2"),
    )

    def compose(self) -> ComposeResult:
        yield from self.compose_inputs()
        yield Static(id="odds-figures", classes="theory-out")
        yield Static("Standard sizes (required equity = B / (P + 2B)):", classes="theory-out")
        yield DataTable(id="odds-table", cursor_type="none", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one("#odds-table", DataTable)
        table.add_columns("Bet", "Required equity", "MDF", "Alpha", "Bluff share")
        for name, fraction in STANDARD_SIZES:
            f = pot_odds_figures(1.0, fraction, 0.5)
            table.add_row(
                name, pct(f["required_equity"]), pct(f["mdf"]), pct(f["alpha"]),
                pct(f["bluff_share"]),
            )  # fmt: skip
        super().on_mount()

    def recompute(self) -> None:
        pot = parse_number(self.text("odds-pot"), "the pot", low=0)
        bet = parse_number(self.text("odds-bet"), "the bet", low=0)
        if bet <= 0:
            raise ValueError("the bet must be positive")
        equity = parse_number(self.text("odds-equity"), "the equity", 0, 1)
        f = pot_odds_figures(pot, bet, equity)
        implied = f["implied_odds"]
        implied_text = "impossible (no equity)" if implied == float("inf") else fmt(implied)
        self.query_one("#odds-figures", Static).update(
            f"Calling {fmt(bet)} to win {fmt(pot + bet)}:\n"
            f"  required equity  B/(P+2B) = {pct(f['required_equity'])}\n"
            f"  MDF              P/(P+B)  = {pct(f['mdf'])}\n"
            f"  alpha (a bluff's needed folds) B/(P+B) = {pct(f['alpha'])}\n"
            f"  bluff share of a polarised range = {pct(f['bluff_share'])}\n"
            f"  implied odds needed at {pct(equity)} equity: {implied_text} more chips"
        )
