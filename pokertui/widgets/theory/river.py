"""The river toy game and the clairvoyance game: one bet, nuts or air against a bluff-catcher.

The figures come from ``solvers.theory.river_theory``; this pane only renders them. EVs are the
bettor's expected chips from the pot.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number, pct


class RiverPane(TheoryPane):
    FIELDS = (("river-pot", "Pot", "4"), ("river-bet", "Bet", "1"), ("river-nuts", "Nuts", "0.2"))

    def compose(self) -> ComposeResult:
        yield from self.compose_inputs()
        yield Static(id="river-figures", classes="theory-out")
        yield DataTable(id="river-table", cursor_type="none", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#river-table", DataTable).add_columns(
            "Bettor strategy", "Caller", "Bettor's EV (chips)"
        )
        super().on_mount()

    def recompute(self) -> None:
        pot = parse_number(self.text("river-pot"), "the pot", low=0)
        bet = parse_number(self.text("river-bet"), "the bet", low=0)
        nuts = parse_number(self.text("river-nuts"), "the nuts share", 0, 1)
        from solvers.theory.river_theory import river_figures  # noqa: PLC0415

        f = river_figures(pot, bet, nuts)
        x = bet / pot
        self.query_one("#river-figures", Static).update(
            f"alpha B/(P+B) = {pct(f.alpha)}   bluff share B/(P+2B) = {pct(f.bluff_share)}"
            f"   MDF P/(P+B) = {pct(f.mdf)}\n"
            f"Equilibrium: bet the nuts; bluff {pct(f.air_bluff_frequency)} of air"
            f" = {pct(f.bluff_of_all)} of all hands; caller calls {pct(f.call_probability)}\n"
            f"Clairvoyance (pot 1, bet x = {fmt(x)}): bluff x/(1+x) ="
            f" {fmt(f.clairvoyance_bluffs_per_value_bet)} per value bet,"
            f" call 1/(1+x) = {fmt(f.clairvoyance_call)}"
        )
        table = self.query_one("#river-table", DataTable)
        table.clear()
        for name, value in f.vs_best_response.items():
            table.add_row(name, "best response", fmt(value))
        for name, value in f.equilibrium_vs.items():
            table.add_row("equilibrium", name, fmt(value))
