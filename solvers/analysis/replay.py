"""An analysed session read back hand by hand: each hand's row (worst first) and its replay.

The records are ``hand_analysis.analyze_hand``'s (amounts in big blinds); the replay plays the
imported hand again through the rules so that each of the hero's decisions comes with the
board and both players' actions before it, and the pot odds the live panel shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solvers.analysis.hand_analysis import POSITIONS, option_label, pot_type
from solvers.analysis.hand_record import ImportedHand
from solvers.analysis.session_report import chosen_and_best
from solvers.cards.deck import cards_str
from solvers.games.hunl.rules import BOARD_CARDS, STREET_NAMES, parse_action
from solvers.theory.poker_math import minimum_defence_frequency, required_equity


@dataclass(frozen=True)
class HandRow:
    """One analysed hand: the table's row."""

    key: str
    """The task's key (``runner.Task.key``): the hand and the seat analysed."""
    source: str
    position: str
    pot_type: str
    decisions: int
    worst_street: str | None
    """The street of the decision that lost the most (None when none is valued)."""
    ev_lost: float | None
    """The hand's valued decisions' EV lost in big blinds (None when none is valued)."""


def hand_row(key: str, hand: ImportedHand, seat: int, decisions: Sequence[Mapping]) -> HandRow:
    valued = [d for d in decisions if d["ev_lost"] is not None]
    worst = max(valued, key=lambda d: d["ev_lost"]) if valued else None
    return HandRow(
        key=key,
        source=hand.source,
        position=POSITIONS[seat],
        pot_type=pot_type(hand),
        decisions=len(decisions),
        worst_street=None if worst is None else worst["street"],
        ev_lost=float(sum(d["ev_lost"] for d in valued)) if valued else None,
    )


def worst_first(rows: Sequence[HandRow]) -> list[HandRow]:
    """The hands by EV lost, most first; hands with nothing valued last."""
    return sorted(rows, key=lambda r: (r.ev_lost is None, -(r.ev_lost or 0.0), r.source))


@dataclass(frozen=True)
class ActionLine:
    street: str
    board: str
    """The board the action was made on (cards separated by spaces, empty preflop)."""
    name: str
    hero: bool
    label: str
    """As the option reads at the table (``bet 4bb``, ``call 2bb``, ``all-in 93bb``)."""


@dataclass(frozen=True)
class ReplayStep:
    """One decision of the hero with what came before it."""

    number: int
    """The decision's place among the hero's decisions of the hand, from 0."""
    hero: str
    street: str
    board: str
    before: tuple[ActionLine, ...]
    """Both players' actions of the hand before the decision."""
    decision: Mapping
    pot_odds: float | None
    """Equity needed to call (call / (pot + call)); None when there is nothing to call."""
    mdf: float | None
    chosen_ev: float | None
    best: str | None
    best_ev: float | None


def action_lines(hand: ImportedHand, seat: int) -> list[ActionLine]:
    """Every action of the hand in order, the hero's marked."""
    found = []
    for state, token in zip(hand.states(), hand.actions, strict=False):
        board = hand.board[: BOARD_CARDS[state.street]]
        found.append(ActionLine(STREET_NAMES[state.street], cards_str(board, " "),
                                hand.names[state.to_act], state.to_act == seat,
                                option_label(state, parse_action(token))))  # fmt: skip
    return found


def replay(hand: ImportedHand, seat: int, decisions: Sequence[Mapping]) -> list[ReplayStep]:
    """The hero's decisions (``decisions``, in the hand's order) each with the hand before it."""
    lines = action_lines(hand, seat)
    turns = [i for i, line in enumerate(lines) if line.hero]
    steps = []
    for number, (index, decision) in enumerate(zip(turns, decisions, strict=False)):
        to_call, pot = decision["to_call"], decision["pot"]
        pot_odds = mdf = None
        if to_call > 0:
            pot_odds = required_equity(pot - to_call, to_call)
            mdf = minimum_defence_frequency(pot - to_call, to_call)
        chosen_ev, best, best_ev = chosen_and_best(decision)
        steps.append(ReplayStep(number, hand.names[seat], decision["street"], decision["board"],
                                tuple(lines[:index]), decision, pot_odds, mdf, chosen_ev,
                                best, best_ev))  # fmt: skip
    return steps


def hand_summary(hand: ImportedHand, seat: int) -> str:
    """``Hero holds AhKh on the button against Villain, 100 bb deep``."""
    hole = hand.holes[seat]
    cards = cards_str(sorted(hole, reverse=True)) if hole else "unknown cards"
    return (f"{hand.names[seat]} holds {cards} on the {POSITIONS[seat]} against "
            f"{hand.names[1 - seat]}, {hand.config.stack_bb:g} bb deep")  # fmt: skip
