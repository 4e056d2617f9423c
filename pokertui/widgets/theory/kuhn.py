"""Kuhn poker: player 1's alpha family, player 2's unique answer, and every pure deviation.

The numbers come from ``solvers.theory.kuhn_family``; this pane only renders them. Alpha steps
by 1/30 with ``[``/``]`` (also while the alpha box has focus) and shows as a reduced fraction.
"""

from __future__ import annotations

from fractions import Fraction

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, DataTable, Input, Static

from pokertui.widgets.theory.common import TheoryPane, fmt, parse_number

NODE_NAMES = {"": "first to act", "c": "after a check", "c/b": "check, bet", "b": "facing a bet"}
ALPHA_STEP = Fraction(1, 30)


def alpha_text(alpha: Fraction) -> str:
    """Alpha as a reduced fraction: ``1/5`` rather than ``6/30``, ``0`` and ``1/3`` at the ends."""
    return str(alpha)


class AlphaInput(Input):
    """The alpha box: it leaves ``[`` and ``]`` to the pane, which steps alpha with them."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in ("[", "]"):
            return False
        return super().check_consume_key(key, character)


class KuhnPane(TheoryPane):
    DEFAULT_CSS = """
    KuhnPane .kuhn-slider { height: 3; }
    KuhnPane .kuhn-slider Button { margin-right: 1; }
    """
    FIELDS = (("kuhn-alpha", "alpha in [0, 1/3]", "1/6"),)
    INPUT_TYPE = AlphaInput
    BINDINGS = [
        # priority, with AlphaInput not consuming brackets: they step alpha even while it has focus
        Binding("left_square_bracket", "nudge(-1)", "alpha -", priority=True),
        Binding("right_square_bracket", "nudge(1)", "alpha +", priority=True),
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
        ticks = min(10, max(0, round(alpha / ALPHA_STEP) + step))
        self.query_one("#kuhn-alpha", Input).value = alpha_text(ticks * ALPHA_STEP)

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
        from solvers.theory.kuhn_family import (  # noqa: PLC0415 - solvers load on demand
            KUHN_VALUE,
            kuhn_deviations,
            kuhn_family,
        )

        alpha = parse_number(self.text("kuhn-alpha"), "alpha", 0, 1 / 3 + 1e-12)
        family = kuhn_family(alpha)
        value, rows = kuhn_deviations(family.alpha)
        self.query_one("#kuhn-summary", Static).update(
            f"Player 1: bet J {fmt(family.bet_jack)}, bet K {fmt(family.bet_king)}, check Q;"
            f" after check-bet call Q {fmt(family.call_queen_after_check_bet)}.\n"
            "Player 2 (unique): facing a bet call K, Q 1/3, fold J;"
            " after a check bet K, J 1/3, check Q.\n"
            f"Value for player 1: {value:.6f} (exact -1/18 = {KUHN_VALUE:.6f})"
        )
        table = self.query_one("#kuhn-table", DataTable)
        table.clear()
        for row in rows:
            table.add_row(
                str(row.player + 1), row.card, NODE_NAMES[row.node], fmt(row.frequency),
                f"{row.pure_evs[0]:+.4f}", f"{row.pure_evs[1]:+.4f}", f"{row.equilibrium_ev:+.4f}",
            )  # fmt: skip
