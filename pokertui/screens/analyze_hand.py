"""One analysed hand replayed decision by decision: the board and both players' actions up to
each of the hero's decisions, with the live panel's numbers the analysis computed there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from pokertui.widgets.analysis_view import replay_text
from solvers.analysis.hand_record import ImportedHand
from solvers.analysis.replay import hand_summary, replay


class AnalyzeHandScreen(Screen[None]):
    DEFAULT_CSS = """
    AnalyzeHandScreen #analyze-hand-scroll { padding: 0 2; }
    """
    BINDINGS = [
        Binding("right,n", "step(1)", "Next decision"),
        Binding("left,p", "step(-1)", "Previous"),
        Binding("escape", "app.pop_screen", "Back to the hands"),
    ]

    def __init__(self, hand: ImportedHand, seat: int, decisions: Sequence[Mapping]) -> None:
        super().__init__()
        self.title_line = f"{hand.source}: {hand_summary(hand, seat)}"
        self.steps = replay(hand, seat, decisions)
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="analyze-hand-scroll"):
            yield Static("", id="analyze-hand-text")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        text = self.query_one("#analyze-hand-text", Static)
        if not self.steps:
            text.update(f"{self.title_line}\n\nNo decision of the hero to replay.")
            return
        text.update(replay_text(self.title_line, self.steps[self.index], len(self.steps)))

    def action_step(self, delta: int) -> None:
        if self.steps:
            self.index = max(0, min(len(self.steps) - 1, self.index + delta))
            self.show()
