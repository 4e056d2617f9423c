"""A pokerkit hand history (any site, PHH or ACPC) as an ``ImportedHand`` in the engine's chips.

Every parser of ``pokerkit.notation`` yields the same thing, a ``HandHistory`` whose actions
are PHH lines (``p2 cbr 300`` bets or raises to 300 on this street), so one conversion serves
them all. Amounts convert to the game's chips by the big blind (100 chips); the effective stack
becomes the game's stack. What the game cannot hold (antes, straddles, a third player, another
variant, blinds not 1:2, a stack outside 10 to 250 bb) is refused by reason, never guessed.
"""

from __future__ import annotations

import hashlib
import zlib
from decimal import Decimal, InvalidOperation
from typing import Any

from solvers.analysis.hand_record import HandSkipped, ImportedHand
from solvers.cards.deck import parse_cards
from solvers.errors import InputError
from solvers.games.hunl.rules import (
    BOARD_CARDS,
    CALL,
    FOLD,
    MAX_STACK_BB,
    MIN_STACK_BB,
    RAISE,
    Action,
    HunlConfig,
    HunlState,
    IllegalAction,
    parse_action,
)

CHIPS_PER_BB = 100
MAX_BB = Decimal(10**6)
"""Amounts beyond a million big blinds are a broken file, not a hand."""


def _amount(value: Any) -> Decimal:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise HandSkipped("absurd amount", f"{str(value)[:30]!r} is not an amount") from None
    if not amount.is_finite() or amount < 0:
        raise HandSkipped("absurd amount", f"{str(value)[:30]!r}")
    return amount


def _nonzero(values: Any) -> list[Decimal]:
    return [a for a in (_amount(v) for v in (values or ())) if a > 0]


def hand_key(site: str, hand_id: Any, hh: Any) -> str:
    """A site's hand id is its identity; a PHH or ACPC hand numbered within its own file is
    told apart by its content as well (two sessions both have a hand 1)."""
    if site not in ("PHH", "ACPC") and hand_id is not None:
        return f"{site}:{hand_id}"
    digest = hashlib.sha1(repr((hh.players, hh.starting_stacks, hh.actions)).encode())
    return f"{site}:{hand_id}:{digest.hexdigest()[:16]}"


def convert(hh: Any, site: str, source: str) -> ImportedHand:
    """``hh`` as an ``ImportedHand``; ``HandSkipped`` says why not."""
    if hh.variant != "NT":
        raise HandSkipped("not no-limit hold'em", str(hh.variant)[:20])
    stacks = [_amount(s) for s in hh.starting_stacks]
    if len(stacks) != 2:
        raise HandSkipped("more than two players", f"{len(stacks)} players")
    if _nonzero(hh.antes):
        raise HandSkipped("antes")
    blinds = _nonzero(hh.blinds_or_straddles)
    if len(blinds) > 2:
        raise HandSkipped("straddles")
    if len(blinds) != 2 or blinds[0] * 2 != blinds[1] and blinds[1] * 2 != blinds[0]:
        raise HandSkipped("blinds not 1:2", "/".join(str(b) for b in blinds))
    big = max(blinds)
    scale = CHIPS_PER_BB / big
    if max(stacks) / big > MAX_BB:
        raise HandSkipped("absurd amount", f"a stack of {max(stacks) / big:.3g} bb")
    depth = min(stacks) / big
    if not MIN_STACK_BB <= depth <= MAX_STACK_BB:
        raise HandSkipped("stack outside 10-250 bb", f"{depth:.4g} bb")
    big_player = _big_blind_player(hh, blinds)
    seat_of = {big_player: 1, 1 - big_player: 0}
    names = [str(n) for n in (hh.players or ["p1", "p2"])]
    if len(names) != 2:
        raise HandSkipped("unreadable hand", "the players do not match the stacks")
    stack = int(round(min(stacks) * scale))
    config = HunlConfig(stack_bb=stack / CHIPS_PER_BB)
    holes: list[tuple[int, int] | None] = [None, None]
    board: list[int] = []
    tokens: list[str] = []
    state = HunlState.initial(config)
    for line in hh.actions:
        state = _read_line(str(line), state, seat_of, scale, holes, board, tokens)
    if not state.is_over:
        raise HandSkipped("unfinished hand")
    _check_cards(config, tokens, holes, board)
    hand_id = hh.hand
    number = int(hand_id) if isinstance(hand_id, int) and 0 <= hand_id < 2**62 else (
        zlib.crc32(str(hand_id).encode()))  # fmt: skip
    seats = (names[1 - big_player], names[big_player])
    key = hand_key(site, hand_id, hh)
    found = (holes[0], holes[1])
    return ImportedHand(key, f"{source} #{hand_id}", site, number, seats, stack, found,
                        tuple(board), tuple(tokens))  # fmt: skip


def _big_blind_player(hh: Any, blinds: list[Decimal]) -> int:
    """The player index (``p1`` is 0) that posts the big blind, as pokerkit seats them."""
    try:
        bets = [_amount(b) for b in hh.create_state().bets]
    except HandSkipped:
        raise
    except Exception:  # noqa: BLE001 - pokerkit's own checks of the hand's fields
        raise HandSkipped("unreadable hand", "pokerkit cannot seat the blinds") from None
    if len(bets) != 2 or bets[0] == bets[1]:
        raise HandSkipped("blinds not 1:2", "the blinds cannot be told apart")
    return 0 if bets[0] > bets[1] else 1


def _check_cards(config, tokens, holes, board) -> None:
    """The board reaches every street that saw an action, and no card is dealt twice."""
    probe, top = HunlState.initial(config), 0
    for token in tokens:
        top = max(top, probe.street)
        probe = probe.apply(parse_action(token))
    if len(board) < BOARD_CARDS[top] or len(board) > 5:
        raise HandSkipped("unfinished hand", "board cards missing")
    dealt = [*board, *(c for hole in holes if hole is not None for c in hole)]
    if len(set(dealt)) != len(dealt):
        raise HandSkipped("unreadable hand", "a card dealt twice")


def _cards(text: str) -> list[int] | None:
    if "?" in text:
        return None
    try:
        return parse_cards(text)
    except InputError:
        raise HandSkipped("unreadable hand", f"cards {text[:20]!r}") from None


def _read_line(line, state, seat_of, scale, holes, board, tokens) -> HunlState:
    """One PHH action line applied: cards recorded, a betting action played by the rules."""
    parts = line.split("#", 1)[0].split()
    if not parts:
        return state
    if parts[0] == "d" and len(parts) >= 3 and parts[1] in ("dh", "db"):
        cards = _cards(parts[-1])
        if parts[1] == "db":
            if cards is None:
                raise HandSkipped("unreadable hand", "an unknown board card")
            board.extend(cards)
        elif len(parts) == 4:
            holes[seat_of[_player(parts[2])]] = tuple(cards) if cards and len(cards) == 2 else None
        return state
    player = _player(parts[0])
    verb = parts[1] if len(parts) > 1 else ""
    if verb == "sm" or verb == "sd":
        if verb == "sm" and len(parts) == 3 and holes[seat_of[player]] is None:
            cards = _cards(parts[2])
            holes[seat_of[player]] = tuple(cards) if cards and len(cards) == 2 else None
        return state
    if verb not in ("f", "cc", "cbr"):
        raise HandSkipped("unsupported action", line[:40])
    if state.is_over:
        if verb == "cc":  # a call pokerkit records after an all-in is matched
            return state
        raise HandSkipped("illegal under the game's rules", f"{line[:40]!r} after the end")
    if seat_of[player] != state.to_act:
        raise HandSkipped("illegal under the game's rules", f"{line[:40]!r} out of turn")
    if verb == "f":
        action = Action(FOLD)
    elif verb == "cc":
        action = Action(CALL)
    else:
        if len(parts) != 3:
            raise HandSkipped("unreadable hand", line[:40])
        chips = _amount(parts[2]) * Decimal(str(scale))
        if chips > MAX_BB * CHIPS_PER_BB:
            raise HandSkipped("absurd amount", f"a bet of {chips / CHIPS_PER_BB:.3g} bb")
        start = 0 if state.street == 0 else min(state.committed)
        legal = state.legal()
        total = start + int(chips.to_integral_value())
        if legal.max_raise_to is not None and total > legal.max_raise_to:
            total = legal.max_raise_to  # the deeper stack bets more than the effective stack
        action = Action(RAISE, total)
        if legal.max_raise_to is None or total <= state.committed[1 - state.to_act]:
            action = Action(CALL)  # a raise the shorter stack cannot meet: a call of it
    try:
        after = state.apply(action)
    except IllegalAction as exc:
        raise HandSkipped("illegal under the game's rules", str(exc)[:80]) from None
    tokens.append(str(action))
    return after


def _player(text: str) -> int:
    if len(text) < 2 or text[0] != "p" or not text[1:].isdigit() or int(text[1:]) not in (1, 2):
        raise HandSkipped("unreadable hand", f"player {text[:10]!r}")
    return int(text[1:]) - 1
