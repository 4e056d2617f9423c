"""Hand histories of full-game sessions in the Poker Hand History format (PHH).

PHH (Kim 2024, the format of the ``pokerkit`` library) is TOML: the game's fields, then one
action per line. ``d dh p1 AsKd`` deals hole cards, ``d db 7h8h9c`` board cards, ``p2 cbr
300`` completes, bets or raises *to* 300 on this street, ``p1 cc`` checks or calls, ``p1 f``
folds and ``p1 sm AsKd`` shows at showdown. Bets are per street there (ACPC totals are over
the hand, so they are converted). A session's file is a ``.phhs``: one TOML table per hand.

Heads-up PHH lists the big blind first: with ``blinds_or_straddles = [50, 100]`` pokerkit
makes ``p1`` the big blind and ``p2`` the small blind and button. Our seat 0 (the button) is
therefore ``p2`` and seat 1 ``p1``. Both players' cards are written (the hand is over and the
file is the player's own study record).
"""

from __future__ import annotations

import json

from solvers.cards.deck import cards_str
from solvers.games.hunl.rules import (
    BOARD_CARDS,
    HunlConfig,
    HunlState,
    betting_tokens,
    parse_action,
)

PLAYER_OF_SEAT = {0: "p2", 1: "p1"}


def hand_actions(config: HunlConfig, hole, board, betting: str, showdown: bool) -> list[str]:
    """The PHH action lines of one finished hand from its cards and ACPC betting string."""
    lines = [f"d dh {PLAYER_OF_SEAT[s]} {cards_str(hole[s])}" for s in (1, 0)]
    state = HunlState.initial(config)
    dealt = 0
    for street_index, street in enumerate(betting.split("/")):
        dealt = _deal_to(lines, board, dealt, BOARD_CARDS[street_index])
        street_start = 0 if street_index == 0 else min(state.committed)
        for token in betting_tokens(street):
            seat = state.to_act
            action = parse_action(token)
            player = PLAYER_OF_SEAT[seat]
            if action.kind == "f":
                lines.append(f"{player} f")
            elif action.kind == "c":
                lines.append(f"{player} cc")
            else:
                lines.append(f"{player} cbr {action.to - street_start}")
            state = state.apply(action)
    if showdown:
        lines += [f"{PLAYER_OF_SEAT[s]} sm {cards_str(hole[s])}" for s in (1, 0)]
        _deal_to(lines, board, dealt, 5)
    return lines


def _deal_to(lines: list[str], board, dealt: int, needed: int) -> int:
    if needed == 5 and dealt < 3:
        lines.append(f"d db {cards_str(board[dealt:3])}")
        dealt = 3
    while dealt < needed:
        upto = 3 if dealt == 0 else dealt + 1
        lines.append(f"d db {cards_str(board[dealt:upto])}")
        dealt = upto
    return dealt


def hand_document(
    config: HunlConfig, hand, names: tuple[str, str], number: int | None = None
) -> str:
    """One hand as PHH TOML fields; ``names`` are seat 0's and seat 1's players."""
    actions = hand_actions(config, hand.hole, hand.board, hand.betting, hand.showdown)
    stack = config.stack
    fields = [
        'variant = "NT"',
        "ante_trimming_status = true",
        "antes = [0, 0]",
        f"blinds_or_straddles = [{config.small_blind}, {config.big_blind}]",
        f"min_bet = {config.big_blind}",
        f"starting_stacks = [{stack}, {stack}]",
        "actions = [\n" + "".join(f"  {json.dumps(line)},\n" for line in actions) + "]",
        f"players = [{json.dumps(names[1])}, {json.dumps(names[0])}]",
        f"hand = {hand.number if number is None else number}",
    ]
    return "\n".join(fields) + "\n"


def session_phhs(config: HunlConfig, hands, human: str = "you", bot: str = "bot") -> str:
    """Every finished hand of a session as a ``.phhs`` file (a TOML table per hand)."""
    parts = []
    for hand in hands:
        if hand.result is None:
            continue
        names = (human, bot) if hand.human_seat == 0 else (bot, human)
        parts.append(f"[{hand.number}]\n" + hand_document(config, hand, names))
    return "\n".join(parts)
