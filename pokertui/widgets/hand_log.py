"""The hand log: each public event of a hand as a line, used on screen and in exported text.

The same wording serves the play screen's log and the hand-history export, so what the player
saw is what the file says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from pokertui.widgets.format import chips, plural
from solvers.cards.deck import cards_str
from solvers.cards.hand_names import hand_name

if TYPE_CHECKING:
    from pokertui.session import HandRecord, Session, Step

_RESULT_STARTS = ("You win", "You lose", "Bot shows", "Bot had", "Board ")


def step_line(hand: HandRecord, step: Step) -> str:
    if step.seat is None:
        return f"Board: {step.action}"
    who = "You" if step.seat == hand.human_seat else "Bot"
    amount = f" {chips(step.amount)}" if step.amount else ""
    mapped = ""
    if step.mapped:  # an off-tree bet: which tree size the bot answered as, and its odds
        odds = " / ".join(f"{label} {probability:.0%}" for label, probability in step.mapped)
        mapped = f" (off the tree: bot answers as {step.action}; odds {odds})"
    return f"{who}: {step.text}{amount}{mapped}"


def showdown_names(session: Session, hand: HandRecord) -> tuple[str, str] | None:
    """Both seats' made hands, named (``two pair, kings and nines``), where hands are cards."""
    chance = [step.action for step in hand.steps if step.seat is None]
    cards = [hand.deal.showdown_cards(session.game, seat, chance) for seat in (0, 1)]
    if cards[0] is None or cards[1] is None:
        return None
    return hand_name(cards[0]), hand_name(cards[1])


def result_line(session: Session, hand: HandRecord) -> str:
    if hand.result is None:
        return ""
    bot_cards = hand.deal.hand_text(session.game, 1 - hand.human_seat)
    board = f"Board {cards_str(hand.deal.board)}. " if hand.deal.board else ""
    verb = "shows" if hand.showdown else "had"
    names = showdown_names(session, hand) if hand.showdown else None
    if names is None:
        shown = f"{board}Bot {verb} {bot_cards}. "
    else:
        yours, bots = names[hand.human_seat], names[1 - hand.human_seat]
        shown = f"{board}Bot shows {bot_cards}: {bots}; you have {yours}. "
    if hand.result > 0:
        return shown + f"You win {chips(hand.result)}."
    if hand.result < 0:
        return shown + f"You lose {chips(-hand.result)}."
    return shown + "Split pot."


def hand_lines(session: Session, hand: HandRecord) -> list[str]:
    lines = [step_line(hand, step) for step in hand.steps]
    if hand.result is not None:
        lines.append(result_line(session, hand))
    return lines


class HandLog(VerticalScroll):
    DEFAULT_CSS = """
    HandLog {
        border: round $secondary;
        border-title-color: $text-secondary;
        padding: 0 1;
        height: 1fr;
        min-height: 3;
        & > Static { height: auto; }
    }
    """

    _pending: Text | None = None
    """A hand shown before the log's text widget was mounted (a session that opens at once)."""

    def compose(self):
        yield Static(self._pending or "", id="hand-log-text")

    def on_mount(self) -> None:
        self.border_title = "Hand log"
        if self._pending is not None:
            self.query_one("#hand-log-text", Static).update(self._pending)
            self._pending = None

    def show(self, session: Session) -> None:
        hand = session.hand
        text = Text()
        you = f"You are seat {hand.human_seat + 1} with {session.hand_text(hand.human_seat)}"
        text.append(you + "\n", style="dim")
        for line in hand_lines(session, hand):
            style = "bold" if line.startswith(_RESULT_STARTS) else ""
            text.append(line + "\n", style=style)
        found = self.query("#hand-log-text")
        if not found:  # not mounted yet: on_mount shows it
            self._pending = text
            return
        found.first(Static).update(text)
        self.scroll_end(animate=False)


def history_text(session: Session) -> str:
    """Every finished hand of the session as readable text, with each decision's EV loss."""
    summary = session.summary()
    lines = [
        f"pokertui hand history: {session.game.spec_string()}",
        f"bot: {session.file.source} ({session.bot_mode}), seed {session.seed}",
        f"hands {summary['hands']}, net {chips(summary['net'])} chips",
        f"EV lost by your decisions: {summary['ev_lost_net']:.3f} chips over "
        f"{plural(summary['ev_lost_hands'], 'reviewed hand')}",
        "Luck-adjusted results are AIVAT/DIVAT-style estimates that use the bot's cards.",
        "",
    ]
    for hand in session.hands:
        if hand.result is None:
            continue
        you = hand.deal.hand_text(session.game, hand.human_seat)
        lines.append(f"Hand {hand.number}: you are seat {hand.human_seat + 1} with {you}")
        for step in hand.steps:
            line = "  " + step_line(hand, step)
            if step.ev_loss is not None:
                line += f"   (EV loss {step.ev_loss:.3f})"
            lines.append(line)
        lines.append("  " + result_line(session, hand))
        if hand.ev_lost is not None:
            lines.append(f"  EV lost by your decisions {hand.ev_lost:.3f}")
        lines.append(f"  Luck-adjusted (uses the bot's cards) {hand.ev_adjusted:+.3f}")
        lines.append("")
    return "\n".join(lines)
