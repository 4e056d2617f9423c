"""A dialog that shows a message the user must read, such as a strategy file's validation
report or a save that fell back to its backup; errors are shown here, never as tracebacks."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class MessageDialog(ModalScreen[None]):
    BINDINGS = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, title: str, body: str, *, error: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="message-box", classes="error" if self.error else ""):
            yield Static(self.title_text, id="message-title")
            with VerticalScroll(id="message-scroll"):
                yield Static(self.body, id="message-body", markup=False)
            yield Button("OK", id="message-ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#message-ok", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
