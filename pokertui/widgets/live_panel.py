"""The live panel: odds, action EVs, ranges and equity of the human's current decision.

Every number comes from a ``Spot`` computed by the session in a worker; this widget only lays
them out. Each part can be hidden on its own, and the whole panel is the "hints" the player can
turn off for practice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from pokertui.widgets.format import OFF_PATH_NOTE, ev, gto_cell, pct, ratio
from pokertui.widgets.range_view import render_range

if TYPE_CHECKING:
    from pokertui.session import Spot

PARTS = ("odds", "evs", "ranges", "equity")
TITLES = {"odds": "Odds", "evs": "Action EVs", "ranges": "Ranges", "equity": "Equity"}


def odds_text(spot: Spot) -> Text:
    """Plain padded columns rather than rich Tables: tables cost a measuring pass per frame."""
    text = Text()

    def row(name: str, value: str) -> None:
        text.append(f"{name:<12}", style="dim")
        text.append(f"{value}\n")

    if spot.required_equity is not None:
        row("Pot odds", pct(spot.required_equity))
        row("MDF", pct(spot.mdf))
        row("Bluff share", pct(spot.bluff_share))
    elif spot.to_call > 0:
        row("Pot odds", "no call here: fold or raise")
    else:
        row("Pot odds", "nothing to call")
    row("Checkdown", f"win {pct(spot.beats_share)}, tie {pct(spot.tie_share)} vs bot range")
    if spot.sizes:
        width = max(4, *(len(size.label) for size in spot.sizes))
        text.append(f"{'size':<{width}} {'alpha':>6} {'bot fold':>8} {'bluff:val':>9}\n", "dim")
        for size in spot.sizes:
            folds = pct(size.bot_fold_frequency)
            alpha, ratio_text = pct(size.alpha), ratio(size.bluff_to_value)
            text.append(f"{size.label:<{width}} {alpha:>6} {folds:>8} {ratio_text:>9}\n")
    text.rstrip()
    return text


def evs_text(spot: Spot) -> Text:
    best = spot.best_action
    width = max(6, *(len(label) + 2 for label in spot.action_labels))
    text = Text(f"{'action':<{width}} {'EV':>8} {'GTO':>8}\n", style="dim")
    for index, (label, value) in enumerate(zip(spot.action_labels, spot.action_evs, strict=True)):
        frequency = gto_cell(spot.equilibrium, index, spot.off_path)
        style = "bold green" if label == best else ""
        name = label + (" ★" if label == best else "")
        text.append(f"{name:<{width}} {ev(value):>8}", style=style)
        text.append(f" {frequency:>8}\n")
    if spot.off_path:
        text.append(OFF_PATH_NOTE, style="dim italic")
    text.rstrip()
    return text


def ranges_text(
    spot: Spot, bot_labels: Sequence[str], human_labels: Sequence[str], cell: int = 3
) -> Text:
    text = Text("Bot's range\n", style="bold", no_wrap=True, overflow="crop")
    text.append_text(render_range(bot_labels, spot.bot_range, cell))
    text.append("\nYour range as the bot sees it\n", style="bold")
    if spot.human_range is None:  # the human left the lines the file takes
        text.append("none: the strategy file never takes your line", style="dim italic")
    else:
        text.append_text(render_range(human_labels, spot.human_range, cell))
    return text


def equity_text(spot: Spot) -> Text:
    text = Text()
    text.append("Equity vs bot range ", style="dim")
    text.append(pct(spot.equity), style="bold")
    text.append("\n(checkdown win + half the ties; cards to come dealt at random)", style="dim")
    return text


class LivePanel(VerticalScroll):
    """Four titled parts; ``show_spot`` fills them, ``show_note`` replaces them with a line."""

    DEFAULT_CSS = """
    LivePanel {
        border: round $primary;
        border-title-color: $text-primary;
        padding: 0 1;
        height: 1fr;
        scrollbar-size-vertical: 1;
        & > .part {
            border-top: solid $primary-darken-2;
            border-title-align: left;
            border-title-color: $text-muted;
            height: auto;
        }
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Live"
        self.hidden_parts: set[str] = set()
        """Parts the player has toggled off."""

    def compose(self):
        for part in PARTS:
            static = Static(id=f"live-{part}", classes="part")
            static.border_title = TITLES[part]
            yield static

    def part(self, name: str) -> Static:
        return self.query_one(f"#live-{name}", Static)

    def toggle_part(self, name: str) -> bool:
        """Show or hide one part; returns whether it is now shown."""
        self.hidden_parts ^= {name}
        shown = name not in self.hidden_parts
        self.part(name).display = shown
        return shown

    def show_spot(self, spot: Spot, bot_labels: Sequence[str], human_labels: Sequence[str]):
        self.part("odds").update(odds_text(spot))
        self.part("evs").update(evs_text(spot))
        # the 13x13 grids take the panel's width: 3 characters a class at 80 columns, up to 6
        cell = max(3, min(6, (self.content_size.width - 2) // 13))
        self.part("ranges").update(ranges_text(spot, bot_labels, human_labels, cell))
        self.part("equity").update(equity_text(spot))

    def show_note(self, note: str) -> None:
        for index, part in enumerate(PARTS):
            self.part(part).update(Text(note, style="dim italic") if index == 0 else "")
