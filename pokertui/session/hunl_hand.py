"""One hand of the full game: its record, the bet-size keys, typed amounts and the all-in
adjusted score. Plain functions of the rules' state, used by ``HunlSession``.

Size keys are fractions of the pot after calling (the usual "pot-size raise": a pot raise
preflop facing the big blind is to 3bb), clamped to the legal range; amounts are typed as this
street's total, in chips or big blinds, as the table shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solvers.analysis.options import SIZE_KEYS, raise_totals
from solvers.cards.deck import COMBO_INDEX
from solvers.games.hunl.rules import BOARD_CARDS, Action, HunlState, IllegalAction
from solvers.reports.hunl_live import LiveNumbers
from solvers.reports.spot_equity import equity_on_boards, runouts, sampled_runouts

ALLIN_SAMPLES = 20_000
"""Boards sampled for a preflop all-in's equity in the adjusted score."""


class HunlActionError(IllegalAction):
    """The human asked for something the rules do not allow now; the message says what is."""


@dataclass
class HunlStep:
    seat: int
    action: str
    """ACPC token: ``f``, ``c`` or ``r<total>``."""
    street: int
    pot: int
    """The pot before the action."""
    to_call: int
    evs: list[list[Any]] | None = None
    """For the human: ``[token, EV or None]`` of the actions the live numbers valued."""
    equity: float | None = None
    """For the human: equity against the bot's Bayes range at the decision."""


@dataclass
class HunlHand:
    number: int
    human_seat: int
    hole: tuple[tuple[int, int], tuple[int, int]]
    """Each seat's two cards (seat 0 is the button)."""
    board: tuple[int, ...]
    """The five cards dealt for the hand; only those the betting reached are shown."""
    steps: list[HunlStep] = field(default_factory=list)
    result: float | None = None
    """The human's chips won (negative when lost)."""
    adjusted: float | None = None
    showdown: bool = False
    betting: str = ""
    board_reached: int = 0
    """Board cards the betting reached (5 at a showdown)."""

    @property
    def shown_board(self) -> tuple[int, ...]:
        """Board cards the hand reached (all five at a showdown)."""
        if self.result is None:
            return ()
        return self.board[: self.board_reached]

    def ev_lost(self) -> float | None:
        """Chips the human's valued decisions gave up: best valued action minus the chosen one
        (a lower bound where some actions could not be valued); None if nothing was valued."""
        losses = []
        for step in self.steps:
            if step.seat != self.human_seat or not step.evs:
                continue
            valued = {token: ev for token, ev in step.evs if ev is not None}
            if step.action in valued:
                losses.append(max(valued.values()) - valued[step.action])
        return float(sum(losses)) if losses else None


def fill_step(step: HunlStep, live: LiveNumbers) -> None:
    """Keep a decision's equity and valued EVs for the review."""
    step.evs = [[str(e.action), e.ev] for e in live.evs]
    step.equity = None if np.isnan(live.equity) else float(live.equity)


@dataclass(frozen=True)
class HunlOption:
    key: str
    action: Action
    label: str


def size_totals(state: HunlState) -> list[tuple[str, int]]:
    """``(key, raise-to total)`` for min, 1/3, 1/2, 2/3, pot and all-in, clamped to what is
    legal (a fraction below a min-raise becomes the min-raise)."""
    totals = raise_totals(state)
    keys = [key for key, _ in SIZE_KEYS] + ["allin"]
    return list(zip(keys, totals, strict=True)) if totals else []


def raise_text(state: HunlState, total: int) -> str:
    """How a raise-to total reads at the table: this street's chips, in big blinds."""
    legal = state.legal()
    on_street = _bb(state, total - street_start(state))
    if total == legal.max_raise_to:
        return f"all-in {on_street}"
    verb = "raise to" if legal.call_amount > 0 or state.street == 0 else "bet"
    return f"{verb} {on_street}"


def street_start(state: HunlState) -> int:
    """Chips each seat had in when this street began (0 preflop: blinds are street bets)."""
    if state.street == 0:
        return 0
    return min(state.committed)


def _bb(state: HunlState, chips: float) -> str:
    return f"{chips / state.config.big_blind:g}bb"


AMOUNT_FORMS = "type chips (750) or big blinds (7.5bb)"
MAX_TYPED_CHIPS = 1e12
"""Typed amounts beyond this many chips are not read as numbers (``1e999`` is infinite)."""


def parse_amount(text: str, big_blind: int) -> float | None:
    """A typed amount in chips (``750``) or big blinds (``7.5bb``); None if it is not one
    (no number, NaN, infinite or absurdly large)."""
    raw = text.strip().lower().replace(",", "")
    scale = 1.0
    if raw.endswith("bb"):
        raw, scale = raw[:-2].strip(), float(big_blind)
    try:
        value = float(raw) * scale
    except ValueError:
        return None
    if not np.isfinite(value) or abs(value) > MAX_TYPED_CHIPS:
        return None
    return value


def amount_range(state: HunlState) -> tuple[int, int] | None:
    """The legal bet or raise-to amounts as this street's totals (what the amount dialog
    takes), or None when no raise is possible."""
    legal = state.legal()
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return None
    start = street_start(state)
    return legal.min_raise_to - start, legal.max_raise_to - start


def amount_hint(state: HunlState) -> str:
    """The legal amounts as the dialog shows them: this street's chips, then big blinds."""
    found = amount_range(state)
    if found is None:
        return "no bet or raise is possible here"
    low, high = found
    return f"legal: {low} to {high} chips ({_bb(state, low)} to {_bb(state, high)})"


def amount_total(state: HunlState, text: str) -> int:
    """The raise-to total (whole hand) of a typed amount (this street's total); an amount
    outside the legal range or not a number is a ``HunlActionError`` in the dialog's terms."""
    found = amount_range(state)
    if found is None:
        raise HunlActionError("no bet or raise is possible here")
    low, high = found
    raising = state.legal().call_amount > 0 or state.street == 0  # blinds are bets
    rule = "a raise must be to" if raising else "a bet must be"
    if low == high:
        rule = f"{rule} {low} chips ({_bb(state, low)}, all-in) this street"
    else:
        rule = (f"{rule} between {low} and {high} chips ({_bb(state, low)} to "
                f"{_bb(state, high)}) this street")  # fmt: skip
    typed = text.strip()
    if not typed:
        raise HunlActionError(f"{rule}: {AMOUNT_FORMS}")
    value = parse_amount(typed, state.config.big_blind)
    if value is None:
        raise HunlActionError(f"{rule}, not {typed[:24]!r}: {AMOUNT_FORMS}")
    amount = int(round(value))
    if not low <= amount <= high:
        raise HunlActionError(f"{rule}, not {amount} ({_bb(state, amount)})")
    return street_start(state) + amount


def all_in_adjusted(hand: HunlHand, state: HunlState, rng: np.random.Generator) -> float:
    """The all-in adjusted result: the human's equity against the bot's cards times the pot
    when the chips went in before the river card (exact over every runout from the flop on,
    sampled boards from ``rng`` preflop), the result otherwise."""
    if state.folded >= 0 or not state.all_in:
        return float(hand.result)  # type: ignore[arg-type]
    known = BOARD_CARDS[_all_in_street(hand)]
    if known >= 5:
        return float(hand.result)  # type: ignore[arg-type]
    board = hand.board[:known]
    me, bot = hand.hole[hand.human_seat], hand.hole[1 - hand.human_seat]
    if known >= 3:
        boards = runouts(board)
    else:
        boards = sampled_runouts(board, (*me, *bot), ALLIN_SAMPLES, rng)
    own = np.array([COMBO_INDEX[me]])
    equity = float(equity_on_boards(boards, own, np.array([COMBO_INDEX[bot]]), np.ones(1))[0])
    put = state.committed[hand.human_seat]
    return equity * state.pot - put


def _all_in_street(hand: HunlHand) -> int:
    """The street on which the last chips went in (where the betting stopped)."""
    return max(step.street for step in hand.steps)
