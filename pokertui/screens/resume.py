"""The resume dialog: pick a saved session; returns its name, or None when cancelled."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class ResumeDialog(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, saves: list[Path]) -> None:
        super().__init__()
        self.saves = saves

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box"):
            yield Static("Resume a saved session", id="resume-title")
            if not self.saves:
                yield Static("No saved sessions yet: play a hand and it is saved.", id="no-saves")
            newest = sorted(self.saves, key=lambda p: p.stat().st_mtime, reverse=True)
            yield OptionList(*(Option(p.stem, id=p.stem) for p in newest), id="resume-list")
            yield Static("Enter to resume, Escape to cancel", classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
