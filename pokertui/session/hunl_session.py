"""A session of full heads-up no-limit hold'em, preflop to river, against an ``Agent``.

``HunlSession`` is a plain object that the play screen, ``pokertui play --game hunl(...)`` and
the tests drive. It deals nine cards a hand (two each and the board, shown street by street),
takes the human's actions (any legal amount, or the size keys min, 1/3, 1/2, 2/3, pot,
all-in), asks the bot, settles and scores. The live numbers come from
``solvers.reports.hunl_live``; the bot's range there is Bayes' rule over its policy for every
action it took this hand (computed only when asked for, so headless matches stay fast).

Seats follow the rules module: seat 0 is the small blind and button. With ``human_seat=None``
the human alternates, taking the button on odd hands. Chips are the ACPC's (big blind 100).

The variance-reduced score is the all-in adjustment: a hand whose chips all went in before the
river scores the human's equity against the bot's actual cards times the pot (exact over the
remaining runouts from the flop on, 20,000 sampled boards preflop) instead of the card luck of
the one runout dealt. Its mean is the same as the result's, its variance smaller.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokertui.session.scoring import Score
from solvers.cards import evaluator
from solvers.cards.deck import COMBO_INDEX, cards_str
from solvers.errors import InputError
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import (
    BOARD_CARDS,
    CALL,
    FOLD,
    RAISE,
    SHOWDOWN,
    STREET_NAMES,
    Action,
    HunlConfig,
    HunlState,
    IllegalAction,
    parse_action,
)
from solvers.reports.hunl_live import LiveNumbers, bayes_reach, live_numbers
from solvers.reports.spot_equity import equity_on_boards, runouts, sampled_runouts

SIZE_KEYS = (("min", None), ("1/3", 1 / 3), ("1/2", 1 / 2), ("2/3", 2 / 3), ("pot", 1.0))
"""Bet keys: the minimum raise and fractions of the pot after calling; all-in is ``allin``."""
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


@dataclass(frozen=True)
class HunlOption:
    key: str
    action: Action
    label: str


def fresh_seed() -> int:
    return secrets.randbits(32)


class HunlSession:
    def __init__(
        self,
        config: HunlConfig,
        agent: Agent,
        *,
        bot_name: str,
        human_seat: int | None = None,
        seed: int | None = None,
    ) -> None:
        if human_seat not in (None, 0, 1):
            raise InputError("the human's seat is 0 (button), 1 (big blind) or alternating")
        self.config = config
        self.agent = agent
        self.bot_name = bot_name
        self.seat_mode = human_seat
        self.seed = fresh_seed() if seed is None else int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.rng_at_deal = self.rng.bit_generator.state
        self.hands: list[HunlHand] = []
        self.score = Score(unit="bb/100", per_hand_scale=100.0 / config.big_blind)
        self.state = HunlState.initial(config)
        self._bot_steps: list[tuple[HunlState, tuple[int, ...], Action]] = []
        self._live: dict[tuple[int, int], LiveNumbers] = {}

    # --- the hand in progress -----------------------------------------------------------------
    @property
    def hand(self) -> HunlHand:
        if not self.hands:
            raise InputError("no hand has been dealt yet")
        return self.hands[-1]

    @property
    def human_seat(self) -> int:
        return self.hand.human_seat

    @property
    def bot_seat(self) -> int:
        return 1 - self.human_seat

    @property
    def hand_over(self) -> bool:
        return not self.hands or self.hand.result is not None

    @property
    def human_to_act(self) -> bool:
        return not self.hand_over and self.state.to_act == self.human_seat

    @property
    def board(self) -> tuple[int, ...]:
        """The board cards dealt so far."""
        if not self.hands:
            return ()
        if self.hand.result is not None:
            return self.hand.shown_board
        return self.hand.board[: self.state.board_cards_needed]

    def new_hand(self) -> HunlHand:
        if not self.hand_over:
            raise InputError("finish the current hand first")
        number = len(self.hands) + 1
        seat = (number - 1) % 2 if self.seat_mode is None else self.seat_mode
        self.rng_at_deal = self.rng.bit_generator.state
        cards = [int(c) for c in self.rng.permutation(52)[:9]]
        hole = ((cards[0], cards[1]), (cards[2], cards[3]))
        hand = HunlHand(number, seat, hole, tuple(cards[4:]))
        self.hands.append(hand)
        self.state = HunlState.initial(self.config)
        self._bot_steps = []
        self._live = {}
        self._advance()
        return hand

    def decision_key(self) -> tuple[int, int]:
        """Identifies the current decision (hand number, actions so far)."""
        return (self.hand.number, len(self.hand.steps))

    # --- the human's options ----------------------------------------------------------------
    def options(self) -> list[HunlOption]:
        """Fold (when facing a bet), check or call, then the distinct legal raise sizes."""
        if not self.human_to_act:
            return []
        state = self.state
        legal = state.legal()
        found: list[HunlOption] = []
        if legal.can_fold:
            found.append(HunlOption("f", Action(FOLD), "fold"))
        call_text = f"call {self.bb(legal.call_amount)}" if legal.call_amount else "check"
        found.append(HunlOption("c", Action(CALL), call_text))
        seen: set[int] = set()
        for key, total in self.size_totals():
            if total in seen:
                continue
            seen.add(total)
            found.append(HunlOption(key, Action(RAISE, total), self.raise_text(total)))
        return found

    def size_totals(self) -> list[tuple[str, int]]:
        """``(key, raise-to total)`` for min, 1/3, 1/2, 2/3, pot and all-in, clamped to what is
        legal (a fraction below a min-raise becomes the min-raise)."""
        legal = self.state.legal()
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return []
        seat = self.state.to_act
        facing = self.state.committed[1 - seat]
        pot_after_call = self.state.pot + legal.call_amount
        sizes = []
        for key, fraction in SIZE_KEYS:
            total = legal.min_raise_to if fraction is None else facing + fraction * pot_after_call
            total = int(round(min(max(total, legal.min_raise_to), legal.max_raise_to)))
            sizes.append((key, total))
        sizes.append(("allin", legal.max_raise_to))
        return sizes

    def raise_text(self, total: int) -> str:
        """How a raise-to total reads at the table: this street's chips, in big blinds."""
        legal = self.state.legal()
        on_street = self.bb(total - self.street_start())
        if total == legal.max_raise_to:
            return f"all-in {on_street}"
        verb = "raise to" if legal.call_amount > 0 or self.state.street == 0 else "bet"
        return f"{verb} {on_street}"

    def street_start(self) -> int:
        """Chips each seat had in when this street began (0 preflop: blinds are street bets)."""
        if self.state.street == 0:
            return 0
        return min(self.state.committed)

    def bb(self, chips: float) -> str:
        return f"{chips / self.config.big_blind:g}bb"

    def act_amount(self, text: str) -> None:
        """A typed bet or raise: this street's total in chips (``750``) or big blinds
        (``7.5bb``), as the table shows sizes; the rules say what is legal if it is not."""
        if not self.human_to_act:
            raise HunlActionError("it is not your turn to act")
        self.raise_to(self.street_start() + self.parse_amount(text))

    def parse_amount(self, text: str) -> int:
        """A typed amount in chips (``750``) or big blinds (``7.5bb``)."""
        raw = text.strip().lower().replace(",", "")
        scale = 1.0
        if raw.endswith("bb"):
            raw, scale = raw[:-2].strip(), float(self.config.big_blind)
        try:
            value = float(raw) * scale
        except ValueError:
            raise HunlActionError(
                f"type a raise-to total in chips (750) or big blinds (7.5bb), not {text!r}"
            ) from None
        if not np.isfinite(value) or abs(value) > 1e12:
            raise HunlActionError(f"{text!r} is not a sensible amount")
        return int(round(value))

    # --- acting -------------------------------------------------------------------------------
    def act(self, action: Action | str) -> None:
        """The human's action: an ``Action``, an ACPC token (``f``, ``c``, ``r750``) or a size
        key (``min``, ``1/3``, ``1/2``, ``2/3``, ``pot``, ``allin``)."""
        if not self.hands:
            raise HunlActionError("no hand is being played; deal one first")
        if not self.human_to_act:
            raise HunlActionError("it is not your turn to act")
        if isinstance(action, str):
            action = self._read(action)
        try:
            after = self.state.apply(action)
        except IllegalAction as exc:
            raise HunlActionError(str(exc)) from None
        self._record(self.human_seat, action, review=True)
        self.state = after
        self._advance()

    def raise_to(self, total: int) -> None:
        self.act(Action(RAISE, int(total)))

    def _read(self, text: str) -> Action:
        key = text.strip().lower()
        for size_key, total in self.size_totals():
            if key == size_key or (key in ("a", "all-in", "shove") and size_key == "allin"):
                return Action(RAISE, total)
        if key in ("min", "1/3", "1/2", "2/3", "pot", "allin", "a", "all-in", "shove"):
            raise HunlActionError("no raise is possible here")
        try:
            return parse_action(key)
        except IllegalAction as exc:
            raise HunlActionError(str(exc)) from None

    def _record(self, seat: int, action: Action, review: bool) -> None:
        state = self.state
        step = HunlStep(seat, str(action), state.street, state.pot, state.to_call(seat))
        live = self._live.get(self.decision_key()) if review else None
        if live is not None:
            step.evs = [[str(e.action), e.ev] for e in live.evs]
            step.equity = None if np.isnan(live.equity) else float(live.equity)
        self.hand.steps.append(step)

    def _advance(self) -> None:
        """Let the bot act until the human must, or the hand ends."""
        hand = self.hand
        while not self.state.is_over and self.state.to_act == self.bot_seat:
            board = self.board
            combo = int(COMBO_INDEX[hand.hole[self.bot_seat]])
            action = self.agent.act(self.state, np.array(board, dtype=np.intp), combo, self.rng)
            self._bot_steps.append((self.state, board, action))
            self._record(self.bot_seat, action, review=False)
            self.state = self.state.apply(action)
        if self.state.is_over:
            self._settle()

    def _settle(self) -> None:
        hand, state = self.hand, self.state
        hand.betting = state.betting
        if state.folded >= 0:
            winner = None
            hand.board_reached = BOARD_CARDS[state.street]
        else:
            hand.board_reached = 5
            strengths = [evaluator.evaluate_hand([*hand.hole[s], *hand.board]) for s in (0, 1)]
            winner = None if strengths[0] == strengths[1] else int(strengths[1] > strengths[0])
        hand.showdown = state.folded < 0
        payoff = state.payoff(winner)
        hand.result = float(payoff[hand.human_seat])
        hand.adjusted = self._adjusted(hand, state)
        self.score.add(hand.result, hand.adjusted, hand.ev_lost())

    def _adjusted(self, hand: HunlHand, state: HunlState) -> float:
        """The all-in adjusted result: equity against the bot's cards times the pot when the
        chips went in before the river card, the result otherwise."""
        if state.folded >= 0 or not state.all_in:
            return float(hand.result)  # type: ignore[arg-type]
        known = BOARD_CARDS[self._all_in_street(hand)]
        if known >= 5:
            return float(hand.result)  # type: ignore[arg-type]
        board = hand.board[:known]
        me, bot = hand.hole[hand.human_seat], hand.hole[1 - hand.human_seat]
        if known >= 3:
            boards = runouts(board)
        else:
            rng = np.random.default_rng([self.seed, hand.number])
            boards = sampled_runouts(board, (*me, *bot), ALLIN_SAMPLES, rng)
        own = np.array([COMBO_INDEX[me]])
        equity = float(equity_on_boards(boards, own, np.array([COMBO_INDEX[bot]]), np.ones(1))[0])
        put = state.committed[hand.human_seat]
        return equity * state.pot - put

    def _all_in_street(self, hand: HunlHand) -> int:
        """The street on which the last chips went in (where the betting stopped)."""
        return max(step.street for step in hand.steps)

    # --- live numbers -------------------------------------------------------------------------
    def bot_reach(self) -> np.ndarray:
        """The bot's Bayes reach over 1,326 combos from the actions it took this hand."""
        steps = [
            (self.agent.policy(state, np.array(board, dtype=np.intp)), action)
            for state, board, action in self._bot_steps
        ]
        return bayes_reach(steps)

    def live(self) -> LiveNumbers:
        """The live numbers of the human's current decision (cached per decision)."""
        if not self.human_to_act:
            raise InputError("the live numbers are for your decisions")
        key = self.decision_key()
        found = self._live.get(key)
        if found is None:
            found = live_numbers(
                self.state,
                np.array(self.board, dtype=np.intp),
                self.hand.hole[self.human_seat],
                self.bot_reach(),
                self.agent,
                tuple(option.action for option in self.options()),
                seed=self.hand.number,
            )
            self._live[key] = found
        return found

    def store_live(self, key: tuple[int, int], numbers: LiveNumbers) -> None:
        """Keep numbers a worker computed on a snapshot, for the hand review."""
        self._live[key] = numbers

    # --- views ----------------------------------------------------------------------------------
    def hole_text(self, seat: int) -> str:
        return cards_str(sorted(self.hand.hole[seat], reverse=True))

    def board_text(self) -> str:
        return cards_str(self.board, " ")

    def summary(self) -> dict[str, Any]:
        return self.score.summary()

    def street_name(self) -> str:
        return STREET_NAMES[min(self.state.street, SHOWDOWN)]
