"""The table: both seats' cards, the board, the pot, stacks and bets, the button and the turn.

It renders a ``Session`` and holds no state of its own. The bot's cards stay face down until a
showdown (or, after a fold, the end of the hand, where seeing them is part of learning).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from pokertui.widgets.format import card_text, chips, signed_chips

if TYPE_CHECKING:
    from pokertui.session import Session


def button_seat(session: Session) -> int:
    """Heads-up the button posts the small blind; with equal antes it is the seat acting last."""
    root = session.game.root
    put = root.contributions
    if put[0] != put[1]:
        return 0 if put[0] < put[1] else 1
    return 1 - int(root.player)


def starting_stack(session: Session) -> float | None:
    """Chips behind at the start of a hand, for games that have stacks (push/fold)."""
    params = session.game.params
    for name in ("stack_bb", "stack"):
        value = getattr(params, name, None)
        if value is not None:
            return float(value) * (session.game.big_blind if name == "stack_bb" else 1.0)
    return None


def board_cards(session: Session) -> str:
    return session.board_text().replace(" ", "")


def render_table(session: Session, width: int = 34) -> Text:
    """Three columns in plain padded text (a rich Table costs a measuring pass every frame):
    the seat's name, its cards or the board, and chips right-aligned to ``width``."""
    hand = session.hand
    human, bot = hand.human_seat, 1 - hand.human_seat
    put = session.contributions()
    stack = starting_stack(session)
    dealer = button_seat(session)
    over = session.hand_over
    text = Text(no_wrap=True, overflow="crop")

    def line(left: Text, middle: Text, right: Text) -> None:
        left.truncate(9, pad=True)
        text.append_text(left)
        text.append(" ")
        gap = max(width - 10 - middle.cell_len - right.cell_len, 1)
        text.append_text(middle)
        text.append(" " * gap)
        text.append_text(right)
        text.append("\n")

    def seat_lines(seat: int, name: str, cards: Text) -> None:
        who = Text(name, style="bold")
        if seat == dealer:
            who.append(" Ⓓ", style="bold yellow")
        turn = not over and session.node.is_decision and session.node.player == seat
        bet = Text(f"bet {chips(put[seat])}", style="bold cyan")
        behind = Text(f"stack {chips(stack - put[seat])}", style="dim") if stack else Text("")
        marker = Text("◀ to act", style="bold reverse yellow") if turn else Text("")
        line(who, cards, bet)
        line(Text(f"seat {seat + 1}", style="dim"), marker, behind)

    seat_lines(bot, "Bot", card_text(session.hand_text(bot), hidden=not over))
    board = board_cards(session)
    middle = card_text(board) if board else Text("no board", style="dim")
    line(Text(f"pot {chips(session.pot())}", style="bold yellow"), middle, Text(""))
    seat_lines(human, "You", card_text(session.hand_text(human)))
    if over and hand.result is not None:
        verdict = "You win" if hand.result > 0 else "You lose" if hand.result < 0 else "Split"
        how = "showdown" if hand.showdown else "fold"
        text.append(f"{'':10}{verdict} {chips(abs(hand.result))} ({how})\n", style="bold")
        if hand.ev_lost is not None:
            lost = chips(round(hand.ev_lost, 3))
            text.append(f"{'':10}EV lost by your decisions {lost}\n", style="dim")
        adjusted = signed_chips(round(hand.ev_adjusted or 0.0, 3))
        text.append(f"{'':10}Luck-adjusted (uses bot's cards) {adjusted}\n", style="dim")
    text.rstrip()
    return text


class TableView(Static):
    DEFAULT_CSS = """
    TableView {
        border: round $secondary;
        background: $boost;
        padding: 0 1;
        height: auto;
    }
    """

    session: Session | None = None

    def show(self, session: Session) -> None:
        self.session = session
        self.border_title = f"Hand {session.hand.number} · {session.game.spec_string()}"
        width = self.content_region.width or 34
        self.update(render_table(session, width))

    def on_resize(self) -> None:
        if self.session is not None:
            self.show(self.session)
