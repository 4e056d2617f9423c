"""The home screen: the first thing ``pokertui`` shows, and where every other screen returns.

It imports nothing from the poker engine, so the first frame appears quickly; the app warms
the engine up in a background worker meanwhile.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

LOGO = "♠ ♥  pokertui  ♦ ♣"
MENU = (
    ("play", "Play          new game against a bot"),
    ("hunl", "Hold'em       heads-up no-limit hold'em, preflop to river"),
    ("resume", "Resume        continue a saved session"),
    ("spots", "Spots         hold'em spots: practise, explore, edit, solve"),
    ("study", "Study         range lab, strategy explorer, theory lab"),
    ("solve", "Solve         run solvers in the background"),
    ("strategies", "Strategies    shipped and custom bots"),
    ("help", "Help          every key"),
    ("quit", "Quit"),
)
DISABLED: set[str] = set()


class HomeScreen(Screen[None]):
    BINDINGS = [
        Binding("p", "choose('play')", "Play"),
        Binding("u", "choose('hunl')", "Hold'em"),
        Binding("r", "choose('resume')", "Resume"),
        Binding("s", "choose('strategies')", "Strategies"),
        Binding("t", "choose('study')", "Study"),
        Binding("o", "choose('spots')", "Spots"),
        Binding("v", "choose('solve')", "Solve"),
        Binding("question_mark", "choose('help')", "Help", key_display="?"),
        Binding("q", "choose('quit')", "Quit", show=False),  # the footer shows ^q Quit
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Center():
            with Vertical(id="home-box"):
                yield Static(LOGO, id="home-logo")
                yield Static("Heads-up poker against solved bots", id="home-tagline")
                options = [Option(text, id=key, disabled=key in DISABLED) for key, text in MENU]
                yield OptionList(*options, id="home-menu")
                yield Static("", id="home-bot")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#home-menu", OptionList).focus()
        self.show_bot()

    def on_screen_resume(self) -> None:
        self.show_bot()

    def show_bot(self) -> None:
        bot = self.app.current_bot_path()  # type: ignore[attr-defined]
        self.query_one("#home-bot", Static).update(f"Bot: {bot}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.action_choose(event.option.id)

    def action_choose(self, choice: str) -> None:
        self.app.home_choice(choice)  # type: ignore[attr-defined]
