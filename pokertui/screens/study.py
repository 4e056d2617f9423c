"""The Study menu: the range and equity lab, the strategy explorer, the theory lab, the
aggregate reports of batch folders and the analysis of hands played elsewhere."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

STUDY_MENU = (
    ("lab", "Range lab     ranges, combos, equity and hand categories"),
    ("explorer", "Explorer      walk a strategy file: frequencies, EVs, exploitability"),
    ("theory", "Theory lab    toy games with their closed-form answers"),
    ("reports", "Reports       aggregate reports of a batch folder (pokertui batch)"),
    ("analyze", "Analyze       your hands played elsewhere, valued by the engine"),
)


class StudyScreen(Screen[None]):
    DEFAULT_CSS = """
    StudyScreen #study-box { width: 76; height: auto; border: round $accent; padding: 1 2; }
    StudyScreen #study-title { text-style: bold; content-align: center middle; width: 100%; }
    StudyScreen OptionList { height: auto; border: none; }
    """
    BINDINGS = [
        Binding("l", "open('lab')", "Range lab"),
        Binding("e", "open('explorer')", "Explorer"),
        Binding("t", "open('theory')", "Theory"),
        Binding("r", "open('reports')", "Reports"),
        Binding("a", "open('analyze')", "Analyze"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Center(), Vertical(id="study-box"):
            yield Static("Study", id="study-title")
            yield OptionList(*(Option(text, id=key) for key, text in STUDY_MENU), id="study-menu")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.action_open(event.option.id)

    def action_open(self, choice: str) -> None:
        self.app.push_screen(study_screen(choice, self.app))


def study_screen(choice: str, app) -> Screen:
    """The screen behind a Study entry (imported on demand to keep startup fast)."""
    if choice == "lab":
        from pokertui.screens.range_lab import RangeLabScreen  # noqa: PLC0415

        return RangeLabScreen()
    if choice == "explorer":
        from pokertui.screens.explorer import ExplorerScreen  # noqa: PLC0415

        current = getattr(app, "current_bot_path", None)  # open the bot in play by default
        return ExplorerScreen(
            path=current() if current else None,
            strategies_dir=getattr(app, "strategies_dir", None),
        )
    if choice == "theory":
        from pokertui.screens.theory import TheoryScreen  # noqa: PLC0415

        return TheoryScreen()
    if choice == "reports":
        from pokertui.screens.reports import ReportsScreen  # noqa: PLC0415

        return ReportsScreen()
    if choice == "analyze":
        from pokertui.screens.analyze import AnalyzeScreen  # noqa: PLC0415

        return AnalyzeScreen(strategies_dir=getattr(app, "strategies_dir", None))
    raise ValueError(f"unknown study screen {choice!r}")
