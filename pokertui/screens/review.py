"""The review screen: step through a finished hand's decisions, and the session's statistics.

For each of the player's decisions it shows what the session recorded when the player acted:
the EV of every action against the bot's strategy, the EV lost by the chosen one and the
equilibrium frequencies for the player's hand (or that the file never gets there with it). The
statistics show per hand, with 95% intervals: the result, the EV lost by the player's decisions,
and the luck-adjusted estimate that uses the bot's cards; and sparklines of the running totals.
"""

from __future__ import annotations

import math
from itertools import accumulate
from pathlib import Path

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, OptionList, Sparkline, Static
from textual.widgets.option_list import Option

from pokertui.screens.history_export import export_history
from pokertui.session import HandRecord, Session, Step
from pokertui.session.scoring import ADJUSTED_LABEL, ADJUSTED_NOTE, EV_LOST_LABEL, EV_LOST_NOTE
from pokertui.widgets.format import OFF_PATH_NOTE, chips, ev, gto_cell, plural
from pokertui.widgets.hand_log import result_line, step_line


def decision_table(session: Session, step: Step) -> Table | Text:
    if step.action_evs is None:
        return Text("Not your decision: nothing to review here.", style="dim")
    actions = session.game.node_by_key(step.node_key).actions
    table = Table(box=None, padding=(0, 1), header_style="dim")
    for name in ("action", "EV", "GTO"):
        table.add_column(name, justify="left" if name == "action" else "right")
    best = max(step.action_evs)
    for index, label in enumerate(actions):
        value = step.action_evs[index]
        frequency = gto_cell(step.equilibrium, index, step.off_path)
        style = "bold green" if abs(value - best) < 1e-9 else ""
        mark = " ← you" if label == step.action else ""
        table.add_row(Text(label + mark, style=style), Text(ev(value), style=style), frequency)
    loss = step.ev_loss or 0.0
    verdict = "best play" if loss < 1e-6 else f"EV loss {loss:.3f}"
    outer = Table.grid()
    outer.add_row(table)
    outer.add_row(Text(verdict, style="bold green" if loss < 1e-6 else "bold red"))
    if step.off_path:
        outer.add_row(Text(OFF_PATH_NOTE, style="dim italic"))
    return outer


def stats_text(session: Session) -> Text:
    summary = session.summary()
    text = Text()
    text.append(f"{plural(summary['hands'], 'hand')}, net {chips(summary['net'])} chips\n",
                style="bold")
    rows = [("Result", summary["mean"], summary["ci95"])]
    if summary["ev_lost_hands"]:
        rows.append((EV_LOST_LABEL, summary["ev_lost_mean"], summary["ev_lost_ci95"]))
    rows.append((ADJUSTED_LABEL, summary["ev_adjusted_mean"], summary["ev_adjusted_ci95"]))
    width = max(len(name) for name, _, _ in rows) + 1
    for name, mean, ci in rows:
        text.append(f"{name:<{width}}", style="dim")
        spread = f" ± {ci:.3f}" if math.isfinite(ci) else " (± needs 2 hands)"
        text.append(f"{mean:+.3f}{spread} {summary['unit']}\n")
    text.append(f"\nEV lost: {EV_LOST_NOTE}.\n", style="dim")
    text.append(f"Luck-adjusted: {ADJUSTED_NOTE}.", style="dim")
    return text


class ReviewScreen(Screen[None]):
    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back"),
        Binding("left,left_square_bracket", "hand(-1)", "Prev hand", key_display="←"),
        Binding("right,right_square_bracket", "hand(1)", "Next hand", key_display="→"),
        Binding("w", "export", "Export"),
    ]

    def __init__(self, session: Session, history_path: Path) -> None:
        super().__init__()
        self.session = session
        self.history_path = history_path
        self.finished = [h for h in session.hands if h.result is not None]
        self.index = len(self.finished) - 1

    @property
    def hand(self) -> HandRecord:
        return self.finished[self.index]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="review-main"):
            with Vertical(id="review-hand"):
                yield OptionList(id="review-steps")
                yield Static(id="review-detail")
            with Vertical(id="review-stats"):
                yield Static(stats_text(self.session), id="review-summary")
                yield Label("Cumulative result")
                yield Sparkline(list(accumulate(self.session.score.results)), id="spark-result")
                yield Label("Cumulative EV lost by your decisions")
                lost = list(accumulate(self.session.score.reviewed_losses))
                yield Sparkline(lost, id="spark-lost")
                yield Label("Cumulative luck-adjusted estimate (uses the bot's cards)")
                adjusted = list(accumulate(self.session.score.adjusted))
                yield Sparkline(adjusted, id="spark-adjusted")
        yield Footer()

    def on_mount(self) -> None:
        self.show_hand()

    def show_hand(self) -> None:
        hand = self.hand
        steps = self.query_one("#review-steps", OptionList)
        steps.border_title = f"Hand {hand.number} of {len(self.finished)} (←/→)"
        steps.clear_options()
        for index, step in enumerate(hand.steps):
            marker = "▸ " if step.action_evs is not None else "  "
            steps.add_option(Option(marker + step_line(hand, step), id=str(index)))
        steps.add_option(Option(result_line(self.session, hand), disabled=True))
        if hand.ev_lost is not None:
            lost = f"Your decisions lost {hand.ev_lost:.3f} chips of EV this hand."
            steps.add_option(Option(lost, disabled=True))
        steps.focus()
        first = next((i for i, s in enumerate(hand.steps) if s.action_evs is not None), 0)
        steps.highlighted = first

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None:
            return
        step = self.hand.steps[int(event.option.id)]
        self.query_one("#review-detail", Static).update(decision_table(self.session, step))

    def action_hand(self, delta: int) -> None:
        index = self.index + delta
        if 0 <= index < len(self.finished):
            self.index = index
            self.show_hand()

    def action_export(self) -> None:
        export_history(self, self.session, self.history_path)
