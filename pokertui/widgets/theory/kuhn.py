"""Kuhn poker: player 1's alpha family, player 2's unique answer, and every pure deviation.

Each row of the deviation table changes one information set (a node and a card) to a pure
action, keeps everything else at equilibrium, and shows the deviator's exact EV from
``expected_values``: no deviation gains, and the actions an equilibrium mixes tie.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, DataTable, Input, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number

NODE_NAMES = {"": "first to act", "c": "after a check", "c/b": "check, bet", "b": "facing a bet"}
CARDS = ("J", "Q", "K")


@dataclass
class Deviation:
    player: int
    card: str
    node: str
    actions: tuple[str, str]
    frequency: float
    """Equilibrium probability of the second action (bet or call)."""
    pure_evs: tuple[float, float]
    """The deviator's game EV when this card always takes each action here."""
    equilibrium_ev: float


def kuhn_profile(alpha: float):
    """The game and the alpha-family equilibrium in the engine's strategy format."""
    from solvers.games import load_game  # noqa: PLC0415

    game = load_game("kuhn")
    second = {
        "": [alpha, 0.0, 3 * alpha],
        "c/b": [0.0, alpha + 1 / 3, 1.0],
        "b": [0.0, 1 / 3, 1.0],
        "c": [1 / 3, 0.0, 1.0],
    }
    strategy = {}
    for key, probabilities in second.items():
        p = np.array(probabilities)
        strategy[game.node_by_key(key).id] = np.stack([1 - p, p], axis=1)
    return game, strategy


def kuhn_deviations(alpha: float) -> tuple[float, list[Deviation]]:
    """Player 1's value and the deviation rows for one alpha in [0, 1/3]."""
    from solvers.exact.evaluation import expected_values  # noqa: PLC0415

    game, strategy = kuhn_profile(alpha)
    totals = expected_values(game, strategy).totals
    rows = []
    for node in game.decision_nodes():
        for hand, card in enumerate(CARDS):
            evs = []
            for action in range(2):
                deviated = {k: v.copy() for k, v in strategy.items()}
                deviated[node.id][hand] = np.eye(2)[action]
                evs.append(expected_values(game, deviated).totals[node.player])
            rows.append(
                Deviation(
                    node.player,
                    card,
                    node.key,
                    (node.actions[0], node.actions[1]),
                    float(strategy[node.id][hand, 1]),
                    (evs[0], evs[1]),
                    totals[node.player],
                )
            )
    return totals[0], rows


class KuhnPane(TheoryPane):
    DEFAULT_CSS = """
    KuhnPane .kuhn-slider { height: 3; }
    KuhnPane .kuhn-slider Button { margin-right: 1; }
    """
    FIELDS = (("kuhn-alpha", "alpha in [0, 1/3]", "1/6"),)
    BINDINGS = [
        Binding("left_square_bracket", "nudge(-1)", "alpha -"),
        Binding("right_square_bracket", "nudge(1)", "alpha +"),
    ]

    def compose(self) -> ComposeResult:
        yield from self.compose_inputs()
        with Horizontal(classes="kuhn-slider"):
            yield Button("alpha - 1/30", id="kuhn-down")
            yield Button("alpha + 1/30", id="kuhn-up")
        yield Static(id="kuhn-summary", classes="theory-out")
        yield DataTable(id="kuhn-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#kuhn-table", DataTable).add_columns(
            "Player", "Card", "At", "Eq. bet/call", "EV check/fold", "EV bet/call", "EV at eq."
        )
        super().on_mount()

    def action_nudge(self, step: int) -> None:
        """``[`` and ``]`` (or the buttons) move alpha by 1/30, like a slider."""
        try:
            alpha = parse_number(self.text("kuhn-alpha"), "alpha", 0, 1 / 3)
        except ValueError:
            alpha = 1 / 6
        ticks = min(10, max(0, round(alpha * 30) + step))
        self.query_one("#kuhn-alpha", Input).value = f"{ticks}/30"

    @on(Button.Pressed, "#kuhn-down")
    def _down(self) -> None:
        self.action_nudge(-1)

    @on(Button.Pressed, "#kuhn-up")
    def _up(self) -> None:
        self.action_nudge(1)

    @on(DataTable.RowHighlighted)
    def _ignore(self, event: DataTable.RowHighlighted) -> None:
        event.stop()

    def recompute(self) -> None:
        alpha = parse_number(self.text("kuhn-alpha"), "alpha", 0, 1 / 3 + 1e-12)
        value, rows = kuhn_deviations(min(alpha, 1 / 3))
        self.query_one("#kuhn-summary", Static).update(
            f"Player 1: bet J {fmt(alpha)}, bet K {fmt(3 * alpha)}, check Q;"
            f" after check-bet call Q {fmt(alpha + 1 / 3)}.\n"
            "Player 2 (unique): facing a bet call K, Q 1/3, fold J;"
            " after a check bet K, J 1/3, check Q.\n"
            f"Value for player 1: {value:.6f} (exact -1/18 = {-1 / 18:.6f})"
        )
        table = self.query_one("#kuhn-table", DataTable)
        table.clear()
        for row in rows:
            table.add_row(
                str(row.player + 1), row.card, NODE_NAMES[row.node], fmt(row.frequency),
                f"{row.pure_evs[0]:+.4f}", f"{row.pure_evs[1]:+.4f}", f"{row.equilibrium_ev:+.4f}",
            )  # fmt: skip
