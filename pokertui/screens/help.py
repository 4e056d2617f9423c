"""The help screen: every key of every screen, from the same bindings the screens use."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from pokertui.screens.table_screen import key_lines

PLAY_TITLE = "Play: a solved game or a spot (p on the home screen or in Spots)"
HUNL_TITLE = "Hold'em: the full game, preflop to river (u on the home screen)"

SECTIONS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Review",
        (
            ("up / down", "step through the hand's decisions"),
            ("← → / [ ]", "previous or next hand"),
            ("w", "write the hand history as text (a solved game's review)"),
            ("escape", "back to the table"),
        ),
    ),
    (
        "Scores (review, table, history)",
        (
            ("Result", "chips you actually won, with a 95% interval"),
            ("EV lost", "your decisions' cost: best action EV minus yours, against the bot's"),
            ("", "actual strategy, knowing only your cards (0 = no mistakes)"),
            ("Luck-adj.", "result minus card luck, estimated with the bot's hidden cards"),
            ("", "(AIVAT/DIVAT-style): fair over many hands, noisy for one hand"),
        ),
    ),
    (
        "Study: range lab",
        (
            ("arrows", "move on the 13x13 grid"),
            ("space / click", "toggle a class"),
            ("1-9, 0", "set the class weight to 10-90%, 0 sets 100%"),
            ("del", "clear the class"),
            ("enter", "edit the class's single combos"),
            ("f2", "switch between hero and villain"),
            ("f3", "per-class equity heat map"),
            ("f5 / ctrl+e", "compute equity (exact when quick, else Monte Carlo)"),
        ),
    ),
    (
        "Study: explorer and theory",
        (
            ("ctrl+g", "explorer: go to a node key"),
            ("[ ]", "theory lab, Kuhn tab: step alpha"),
            ("escape", "back"),
        ),
    ),
    (
        "Study: analyze (hands played elsewhere, as pokertui analyze)",
        (
            ("enter", "analyze the files typed, hero and model bot optional (or ctrl+s)"),
            ("enter (table)", "replay the hand: each of your decisions with its EVs"),
            ("→ ← / n p", "replay: next or previous decision"),
            ("escape", "back (a run in progress stops)"),
        ),
    ),
    (
        "Solve",
        (
            ("ctrl+s", "start a run"),
            ("ctrl+t", "cancel the highlighted run (checkpoint kept)"),
            ("ctrl+r", "resume it"),
        ),
    ),
    (
        "Spots",
        (
            ("p / enter", "practise the spot against its solved bot"),
            ("e", "explore the spot's strategy file"),
            ("d", "edit a copy: ranges (typed or on the grids, ctrl+g), sizes as text"),
            ("s", "solve it in the launcher (DCFR to 0.3% of the pot); found here next time"),
            ("x / $ (play)", "any amount: off-tree bets are answered by pseudo-harmonic mapping"),
        ),
    ),
    (
        "Home and everywhere",
        (
            ("p u r o s t v", "play, hold'em, resume, spots, strategies, study, solve (home)"),
            ("?", "this help"),
            ("q / ctrl+q", "quit (home) / quit from anywhere"),
        ),
    ),
)


HUNL_NOTES = (
    ("u (home)", "new game: depth, bot (re-solving by default), think time, seat"),
    ("(thinking)", "the bot's re-solve runs in the background: help, log, quit all work"),
)


def sections() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The two tables' keys, read from their bindings, then the other screens'."""
    from pokertui.screens.hunl_play import HunlPlayScreen  # noqa: PLC0415
    from pokertui.screens.play import PlayScreen  # noqa: PLC0415

    return (
        (PLAY_TITLE, tuple(key_lines(PlayScreen.BINDINGS))),
        (HUNL_TITLE, HUNL_NOTES + tuple(key_lines(HunlPlayScreen.BINDINGS))),
        *SECTIONS,
    )


def help_table() -> Text:
    text = Text()
    every = sections()
    width = max(len(key) for _, keys in every for key, _ in keys) + 2
    for title, keys in every:
        text.append(f"{title}\n", style="bold underline")
        for key, what in keys:
            text.append(f"  {key:<{width}}", style="bold cyan")
            text.append(f"{what}\n")
        text.append("\n")
    text.rstrip()
    return text


class HelpScreen(Screen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help-scroll"):
            yield Static(help_table(), id="help-text")
        yield Footer()
