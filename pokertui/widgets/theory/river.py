"""The river toy game and the clairvoyance game: one bet, nuts or air against a bluff-catcher.

The closed form (``river_toy_equilibrium``) sits beside the engine's exact numbers: each bettor
strategy's EV is the bettor's pot share when the caller best-responds (``best_response``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number, pct


@dataclass
class RiverFigures:
    alpha: float
    bluff_share: float
    mdf: float
    bluff_of_all: float
    """Bluffs as a share of all the bettor's hands."""
    air_bluff_frequency: float
    call_probability: float
    vs_best_response: dict[str, float]
    """Bettor's pot share against a best-responding caller, per bettor strategy."""
    equilibrium_vs: dict[str, float]
    """Equilibrium bettor's pot share when the caller always calls or always folds."""


def river_figures(pot: float, bet: float, nuts: float) -> RiverFigures:
    from solvers.exact.evaluation import best_response, expected_values  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415
    from solvers.games.river_toy import river_toy_equilibrium  # noqa: PLC0415
    from solvers.theory import poker_math as pm  # noqa: PLC0415

    game = load_game(f"river_toy(pot={pot!r},bets=[{bet!r}],nuts={nuts!r})")
    closed = river_toy_equilibrium(pot, bet, nuts)
    air_bluff = closed.bluff_fraction / (1 - nuts)
    if air_bluff > 1:
        raise ValueError("too little air to bluff at equilibrium: raise the nuts share or bet")
    root, facing = (node.id for node in game.decision_nodes())
    bettors = {
        "never bluff": np.array([[0.0, 1.0], [1.0, 0.0]]),
        "always bet": np.array([[0.0, 1.0], [0.0, 1.0]]),
        "equilibrium": np.array([[0.0, 1.0], [1 - air_bluff, air_bluff]]),
    }
    caller = np.array([[1 - closed.call_probability, closed.call_probability]])
    vs_br = {}
    for name, bettor in bettors.items():
        response = best_response(game, {root: bettor, facing: caller}, 1)
        vs_br[name] = game.bettor_share(-response.value)
    eq_vs = {}
    for name, call in (("always call", 1.0), ("always fold", 0.0)):
        profile = {root: bettors["equilibrium"], facing: np.array([[1 - call, call]])}
        eq_vs[name] = game.bettor_share(expected_values(game, profile).totals[0])
    return RiverFigures(
        alpha=pm.alpha(pot, bet),
        bluff_share=pm.bluff_share(pot, bet),
        mdf=pm.minimum_defence_frequency(pot, bet),
        bluff_of_all=closed.bluff_fraction,
        air_bluff_frequency=air_bluff,
        call_probability=closed.call_probability,
        vs_best_response=vs_br,
        equilibrium_vs=eq_vs,
    )


class RiverPane(TheoryPane):
    FIELDS = (("river-pot", "Pot", "4"), ("river-bet", "Bet", "1"), ("river-nuts", "Nuts", "0.2"))

    def compose(self) -> ComposeResult:
        yield from self.compose_inputs()
        yield Static(id="river-figures", classes="theory-out")
        yield DataTable(id="river-table", cursor_type="none", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#river-table", DataTable).add_columns(
            "Bettor strategy", "Caller", "Bettor's EV (pot share)"
        )
        super().on_mount()

    def recompute(self) -> None:
        pot = parse_number(self.text("river-pot"), "the pot", low=0)
        bet = parse_number(self.text("river-bet"), "the bet", low=0)
        nuts = parse_number(self.text("river-nuts"), "the nuts share", 0, 1)
        if pot <= 0 or bet <= 0 or not 0 < nuts < 1:
            raise ValueError("need a pot > 0, a bet > 0 and a nuts share strictly in (0, 1)")
        f = river_figures(pot, bet, nuts)
        x = bet / pot
        self.query_one("#river-figures", Static).update(
            f"alpha B/(P+B) = {pct(f.alpha)}   bluff share B/(P+2B) = {pct(f.bluff_share)}"
            f"   MDF P/(P+B) = {pct(f.mdf)}\n"
            f"Equilibrium: bet the nuts; bluff {pct(f.air_bluff_frequency)} of air"
            f" = {pct(f.bluff_of_all)} of all hands; caller calls {pct(f.call_probability)}\n"
            f"Clairvoyance (pot 1, bet x = {fmt(x)}): bluff x/(1+x) = {fmt(x / (1 + x))}"
            f" per value bet, call 1/(1+x) = {fmt(1 / (1 + x))}"
        )
        table = self.query_one("#river-table", DataTable)
        table.clear()
        for name, value in f.vs_best_response.items():
            table.add_row(name, "best response", fmt(value))
        for name, value in f.equilibrium_vs.items():
            table.add_row("equilibrium", name, fmt(value))
