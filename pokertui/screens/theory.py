"""The theory lab: each toy game's closed form beside the engine's exact numbers, in tabs.

Every pane recomputes as its inputs change (the games are tiny: microseconds to a few
milliseconds), and bad input shows an inline message instead of raising.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, TabbedContent, TabPane

from pokertui.widgets.theory import KuhnPane, MatrixPane, PotOddsPane, RiverPane, VonNeumannPane

TABS = (
    ("kuhn", "Kuhn", KuhnPane),
    ("von-neumann", "Von Neumann", VonNeumannPane),
    ("river", "River toy", RiverPane),
    ("pot-odds", "Pot odds", PotOddsPane),
    ("matrix", "Matrix games", MatrixPane),
)


class TheoryScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    TheoryScreen TabbedContent { height: 1fr; }
    """

    def __init__(self, initial: str = "kuhn") -> None:
        super().__init__()
        self.initial = initial
        """The tab shown first (a ``TABS`` id)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial=f"tab-{self.initial}"):
            for tab_id, title, pane in TABS:
                with TabPane(title, id=f"tab-{tab_id}"):
                    yield pane(id=f"pane-{tab_id}")
        yield Footer()

    def action_back(self) -> None:
        self.dismiss(None)
