"""The resume dialog: pick a saved session; returns its name, or None when cancelled.

Each save is listed with its game, hands played and when it was saved, read from the save
itself, so sessions of the same bot are told apart at a glance.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pokertui.session.saves import MAX_SAVE_BYTES
from solvers.errors import InputError
from solvers.user_files import load_user_json


def save_label(path: Path) -> str:
    """``NAME · GAME · N hands · saved DATE`` (an unreadable save says so; resuming it
    explains why)."""
    try:
        data = load_user_json(path, MAX_SAVE_BYTES, "save")  # a FIFO would hang the screen
        game = str(data["game"])
        hands = len(data["hands"])
        saved = datetime.fromisoformat(data["saved_at"]).astimezone()
    except (InputError, ValueError, KeyError, TypeError):
        return f"{path.stem} · unreadable save"
    plural = "" if hands == 1 else "s"
    return f"{path.stem} · {game} · {hands} hand{plural} · saved {saved:%Y-%m-%d %H:%M}"


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
            yield OptionList(*(Option(save_label(p), id=p.stem) for p in newest), id="resume-list")
            yield Static("Enter to resume, Escape to cancel", classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
