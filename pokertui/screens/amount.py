"""The custom bet dialog: the player types a chip amount; the session decides if it is legal.

Returns the amount, or None when cancelled. The screen that opens it passes the amount to
``Session.act_amount``, which names the sizes the game allows when it refuses one.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.validation import Number
from textual.widgets import Input, Static


class AmountDialog(ModalScreen[float | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, sizes: list[str]) -> None:
        super().__init__()
        self.sizes = sizes

    def compose(self) -> ComposeResult:
        with Vertical(id="amount-box"):
            yield Static("Bet or raise to put in (chips)", id="amount-title")
            yield Static(f"sizes here: {', '.join(self.sizes) or 'none'}", id="amount-sizes")
            yield Input(placeholder="amount", id="amount-input", validators=[Number(minimum=0)])
            yield Static("Enter to bet, Escape to cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.validation_result is not None and not event.validation_result.is_valid:
            self.notify("type a number of chips", severity="warning")
            return
        self.dismiss(float(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)
