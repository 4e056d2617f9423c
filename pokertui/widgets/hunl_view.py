"""The full game drawn as text: the table, the action keys, the hand log, the live panel and the
hand review. Pure formatting of what ``HunlSession`` and ``LiveNumbers`` hold; no poker here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich.text import Text

from pokertui.widgets.format import card_text, pct
from pokertui.widgets.range_view import heat_grid
from solvers.cards.deck import cards_str
from solvers.games.hunl.rules import STREET_NAMES, parse_action

if TYPE_CHECKING:
    from pokertui.session.hunl_session import HunlHand, HunlSession
    from solvers.agents.resolving import Thinking
    from solvers.reports.hunl_live import LiveNumbers

KEY_NAMES = {"f": "f", "c": "c", "min": "m", "1/3": "1", "1/2": "2", "2/3": "3", "pot": "p"}
KEY_NAMES["allin"] = "a"
"""The key that plays each option (``HunlOption.key``)."""
SIZE_OF_KEY = {key: option for option, key in KEY_NAMES.items()}


def bb(session: HunlSession, chips: float) -> str:
    return f"{chips / session.config.big_blind:g}bb"


def seat_name(hand: HunlHand, seat: int) -> str:
    return "You" if seat == hand.human_seat else "Bot"


def render_table(session: HunlSession) -> Text:
    text = Text()
    if not session.hands:
        return Text("Press n to deal.")
    hand, state = session.hand, session.state
    shown = hand.result is not None and hand.showdown
    for seat in (1 - hand.human_seat, hand.human_seat):
        name = seat_name(hand, seat)
        role = "(button)" if seat == 0 else "(big blind)"
        hidden = seat != hand.human_seat and not shown
        text.append(f"{name} {role:<12}", style="bold")
        text.append_text(card_text(cards_str(sorted(hand.hole[seat], reverse=True)), hidden=hidden))
        left, put = bb(session, state.stack_left(seat)), bb(session, state.committed[seat])
        text.append(f"\n    {left} behind · {put} in\n", style="dim")
    board = session.board
    text.append(f"\nBoard ({STREET_NAMES[min(state.street, 4)]}): ")
    text.append_text(card_text(cards_str(board)) if board else Text("—"))
    text.append(f"\nPot {bb(session, state.pot)}")
    if hand.result is not None:
        verb = "won" if hand.result > 0 else "lost" if hand.result < 0 else "split"
        text.append(f"   You {verb} {bb(session, abs(hand.result))}", style="bold")
    return text


def render_options(session: HunlSession) -> Text:
    if session.hand_over:
        return Text("n: next hand   s: review   w: write PHH history   esc: home", style="dim")
    text = Text()
    for option in session.options():
        text.append(f"[{KEY_NAMES[option.key]}] ", style="bold")
        text.append(f"{option.label}   ")
    text.append("[x] amount", style="dim")
    return text


def step_text(session: HunlSession, hand: HunlHand, index: int) -> str:
    step = hand.steps[index]
    action = parse_action(step.action)
    who = seat_name(hand, step.seat)
    if action.kind == "f":
        return f"{who} fold"
    if action.kind == "c":
        return f"{who} call {bb(session, step.to_call)}" if step.to_call else f"{who} check"
    street_start = 0 if step.street == 0 else _street_start(hand, index)
    amount = bb(session, action.to - street_start)
    verb = "raise to" if step.to_call or step.street == 0 else "bet"
    return f"{who} {verb} {amount}"


def _street_start(hand: HunlHand, index: int) -> int:
    """Chips each seat had in when the step's street began: half the pot at its first step."""
    street = hand.steps[index].street
    first = next(s for s in hand.steps if s.street == street)
    return first.pot // 2


def hand_lines(session: HunlSession, hand: HunlHand) -> list[str]:
    me = cards_str(sorted(hand.hole[hand.human_seat], reverse=True))
    role = "button" if hand.human_seat == 0 else "big blind"
    lines = [f"Hand {hand.number}: you hold {me} on the {role}"]
    street = -1
    for index, step in enumerate(hand.steps):
        if step.street != street:
            street = step.street
            cards = hand.board[: (0, 3, 4, 5)[street]]
            board = f" [{cards_str(cards, ' ')}]" if cards else ""
            lines.append(f"  {STREET_NAMES[street]}{board}")
        lines.append(f"    {step_text(session, hand, index)}")
    if hand.result is not None:
        if hand.showdown:
            bot = cards_str(sorted(hand.hole[1 - hand.human_seat], reverse=True))
            lines.append(f"  showdown [{cards_str(hand.board, ' ')}]: the bot shows {bot}")
        verb = "win" if hand.result > 0 else "lose" if hand.result < 0 else "split"
        lines.append(f"  You {verb} {bb(session, abs(hand.result))}")
    return lines


THINKING_BAR = 16
"""Cells of the thinking progress bar."""


def render_thinking(thinking: Thinking, who: str) -> Text:
    """``The bot is thinking: turn [████░░░░] 1.2 s of 5 s · 40 iterations · exploitable by
    3.1% of the pot (target 1%)``: a re-solve's progress under the action keys."""
    filled = round(thinking.fraction * THINKING_BAR)
    text = Text(f"{who}: {STREET_NAMES[thinking.street]} ", style="bold")
    text.append("█" * filled + "░" * (THINKING_BAR - filled))
    spent = f" {thinking.seconds:.1f} s"
    if math.isfinite(thinking.budget):
        spent += f" of {thinking.budget:g} s"
    iterations = f"{thinking.iterations} iterations"
    if thinking.max_iterations:
        iterations = f"{thinking.iterations} of {thinking.max_iterations} iterations"
    text.append(f"{spent} · {iterations}")
    if not math.isnan(thinking.exploitability_pct):
        text.append(f" · exploitable by {thinking.exploitability_pct:.1f}% of the pot "
                    f"(target {thinking.target_pct:g}%)")  # fmt: skip
    if not math.isnan(thinking.gain_pct):  # a safe re-solve: the gadget's per-hand bound
        text.append(f" · your best hand gains {max(thinking.gain_pct, 0.0):.1f}% of the pot "
                    "over its alternative")  # fmt: skip
        if not math.isnan(thinking.gap_pct):  # maxmargin: solving on to the widest margin
            text.append(f", {max(thinking.gap_pct, 0.0):.1f}% from the best margin")
        text.append(f" (target {thinking.target_pct:g}%)")
    return text


def render_live(session: HunlSession, numbers: LiveNumbers, cell: int = 3) -> Text:
    text = Text()

    def row(name: str, value: str) -> None:
        text.append(f"{name:<14}", style="dim")
        text.append(f"{value}\n")

    row("Pot", bb(session, numbers.pot))
    mine, bots = numbers.stacks[session.human_seat], numbers.stacks[1 - session.human_seat]
    row("Stacks", f"you {bb(session, mine)}, bot {bb(session, bots)}")
    if numbers.to_call:
        row("To call", bb(session, numbers.to_call))
        row("Pot odds", f"{pct(numbers.pot_odds)} equity needed")
        row("MDF", pct(numbers.mdf))
    else:
        row("To call", "nothing (check is free)")
    row("Your equity", f"{pct(numbers.equity)} vs the bot's range")
    row("", f"({numbers.equity_method})")
    text.append("\nAction EVs from here (fold = 0)\n", style="bold")
    if numbers.ev_method:
        text.append(f"against {numbers.ev_method}\n", style="dim")
    unvalued = "not in its tree" if numbers.ev_method else "later play"
    values = [e.ev for e in numbers.evs if e.ev is not None]
    best = max(values) if values else None
    for item in numbers.evs:
        label = _action_label(session, str(item.action))
        if item.ev is None:
            note = "solving its answer…" if item.action in numbers.pending else unvalued
            text.append(f"  {label:<18} {note}\n", style="dim")
            continue
        style = "bold green" if best is not None and item.ev == best else ""
        text.append(f"  {label:<18} {_bb_ev(session, item.ev):>10}\n", style=style)
    combos = f"{numbers.bot_combos:.1f} combos"
    text.append(f"\nThe bot's range here: {combos} (Bayes over its policy)\n", style="bold")
    text.append_text(heat_grid(numbers.bot_grid, cell))
    return text


def _action_label(session: HunlSession, token: str) -> str:
    action = parse_action(token)
    if action.kind == "f":
        return "fold"
    if action.kind == "c":
        return "call" if session.state.to_call() else "check"
    return session.raise_text(action.to) if session.human_to_act else token


def review_text(session: HunlSession, hand: HunlHand) -> Text:
    text = Text("\n".join(hand_lines(session, hand)) + "\n\n")
    text.append("Your decisions (EVs where no later play decides them)\n", style="bold")
    for index, step in enumerate(hand.steps):
        if step.seat != hand.human_seat:
            continue
        equity = f"equity {pct(step.equity)}" if step.equity is not None else "not analysed"
        played = step_text(session, hand, index).removeprefix("You ")
        text.append(f"  {STREET_NAMES[step.street]:<8} {played:<18} {equity}")
        valued = {token: ev for token, ev in (step.evs or []) if ev is not None}
        if valued:
            parts = [f"{_token_text(session, hand, index, t)} {_bb_ev(session, v)}"
                     for t, v in valued.items()]  # fmt: skip
            text.append("\n      EV: " + ", ".join(parts))
            if step.action in valued:
                lost = max(valued.values()) - valued[step.action]
                big_blind = session.config.big_blind
                if lost > 0.005 * big_blind:
                    text.append(f"   gave up {lost / big_blind:.2f}bb", style="bold red")
        text.append("\n")
    return text


def _bb_ev(session: HunlSession, chips: float) -> str:
    """``+1.25bb``; a value that rounds to zero is ``+0.00bb``, never ``-0.00bb``."""
    return f"{round(chips / session.config.big_blind, 2) + 0.0:+.2f}bb"


def _token_text(session: HunlSession, hand: HunlHand, index: int, token: str) -> str:
    step = hand.steps[index]
    action = parse_action(token)
    if action.kind == "f":
        return "fold"
    if action.kind == "c":
        return "call" if step.to_call else "check"
    if action.to == session.config.stack:
        return "all-in"
    start = 0 if step.street == 0 else _street_start(hand, index)
    return f"to {bb(session, action.to - start)}"


def stats_text(session: HunlSession) -> Text:
    summary = session.summary()
    text = Text("Session\n", style="bold")
    if not summary["hands"]:
        return text + Text("no hands yet")
    text.append(f"  hands        {summary['hands']}\n")
    text.append(f"  net          {bb(session, summary['net'])}\n")
    text.append(f"  result       {summary['mean']:+.1f} ± {summary['ci95']:.1f} bb/100 (95%)\n")
    text.append(
        f"  all-in adj.  {summary['ev_adjusted_mean']:+.1f} ± {summary['ev_adjusted_ci95']:.1f}"
        " bb/100\n"
    )
    text.append(
        "  all-in adjusted: a hand all-in before the river\n"
        "  scores your equity against the bot's cards\n"
        "  (same mean as the result, less luck)\n",
        style="dim",
    )
    return text
