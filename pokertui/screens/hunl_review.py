"""The full game's hand review: finished hands one at a time, each of your decisions with its
equity and the EVs the live numbers could value, and the session's bb/100 beside the all-in
adjusted score. Decisions played before their numbers were shown are analysed in a worker.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from pokertui.session.hunl_session import HunlSession
from pokertui.widgets.hunl_view import review_text, stats_text


class HunlReviewScreen(Screen[None]):
    """Finished hands one at a time, with your decisions' equities and EVs, and the session's
    statistics."""

    BINDINGS = [
        Binding("left,left_square_bracket", "move(-1)", "Previous hand"),
        Binding("right,right_square_bracket", "move(1)", "Next hand"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, session: HunlSession) -> None:
        super().__init__()
        self.session = session
        self.finished = [h for h in session.hands if h.result is not None]
        self.index = len(self.finished) - 1

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="hunl-review-main"):
            with VerticalScroll(id="hunl-review-hand"):
                yield Static(id="hunl-review-text")
            yield Static(id="hunl-review-stats")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        hand = self.finished[self.index]
        self.sub_title = f"hand {self.index + 1} of {len(self.finished)}"
        self.query_one("#hunl-review-text", Static).update(review_text(self.session, hand))
        self.query_one("#hunl-review-stats", Static).update(stats_text(self.session))
        self.fill(hand)

    @work(thread=True, exclusive=True, exit_on_error=False, group="hunl-review")
    def fill(self, hand) -> None:
        """Decisions played before their numbers were shown are analysed here, then redrawn."""
        if self.session.fill_review(hand):
            self.app.call_from_thread(self.show)

    def action_move(self, step: int) -> None:
        self.index = min(max(self.index + step, 0), len(self.finished) - 1)
        self.show()
