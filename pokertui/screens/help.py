"""The help screen: every key of every screen, from the same bindings the screens use."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

SECTIONS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Play: actions",
        (
            ("f", "fold"),
            ("c", "check or call"),
            ("b / r", "bet or raise the first (smallest) size"),
            ("1 2 3 4", "bet or raise with size preset 1-4 (the sizes in order)"),
            ("a", "the largest bet or raise (all-in where stacks are set)"),
            ("x / $", "bet or raise a custom amount"),
            ("n", "next hand"),
        ),
    ),
    (
        "Play: live panel",
        (
            ("h", "hide or show all hints (practice mode)"),
            ("o", "odds: pot odds, MDF, bluff share, alpha per size"),
            ("v", "action EVs for your hand (best in green)"),
            ("g", "ranges: the bot's and yours as the bot sees it"),
            ("e", "equity against the bot's range"),
        ),
    ),
    (
        "Play: session",
        (
            ("s", "review the last hand and session statistics"),
            ("w", "write the hand history to saves/NAME-history.txt"),
            ("escape", "back to the home screen (the session is saved)"),
        ),
    ),
    (
        "Review",
        (
            ("up / down", "step through the hand's decisions"),
            ("← → / [ ]", "previous or next hand"),
            ("w", "write the hand history"),
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
        "Hold'em (full game, preflop to river)",
        (
            ("u (home)", "new game: depth, bot (re-solving by default), think time, seat"),
            ("(thinking)", "the bot's re-solve runs in the background: help, log, quit all work"),
            ("f / c", "fold / check or call"),
            ("m 1 2 3 p", "raise: minimum, 1/3, 1/2, 2/3 of the pot after calling, pot"),
            ("a", "all-in"),
            ("x / $", "type any amount: this street's total in chips (750) or bb (7.5bb)"),
            ("h", "hide or show the live panel (odds, EVs, the bot's range, equity)"),
            ("s", "review hands: equity and EVs of your decisions, bb/100 with 95% interval"),
            ("w", "write the session's hands as PHH (saves/NAME-history.phhs)"),
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


def help_table() -> Text:
    text = Text()
    width = max(len(key) for _, keys in SECTIONS for key, _ in keys) + 2
    for title, keys in SECTIONS:
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
