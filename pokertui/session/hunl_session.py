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
from collections.abc import Callable
from typing import Any

import numpy as np

from pokertui.session.hands_in_play import HandsInPlay
from pokertui.session.hunl_hand import (
    HunlActionError,
    HunlHand,
    HunlOption,
    HunlStep,
    all_in_adjusted,
    fill_step,
    parse_amount,
    raise_text,
    size_totals,
    street_start,
)
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
    replay,
)
from solvers.reports.hunl_live import LiveNumbers, bayes_reach, live_numbers


class BotError(InputError):
    """The bot answered with an action the rules do not allow (a broken bot file)."""


def fresh_seed() -> int:
    return secrets.randbits(32)


def warm_up(agent: Agent, config: HunlConfig) -> None:
    """Ask the agent for its policy once on every street (a bot may compile or load tables on
    first use), so that its first real answer at the table is as quick as the rest."""
    board = np.arange(0, 20, 4, dtype=np.intp)  # 2c 3c 4c 5c 6c
    for street, betting in enumerate(("", "cc/", "cc/cc/", "cc/cc/cc/")):
        agent.policy(replay(betting, config), board[: BOARD_CARDS[street]])


class HunlSession(HandsInPlay[HunlHand]):
    def __init__(
        self,
        config: HunlConfig,
        agent: Agent,
        *,
        bot_name: str,
        human_seat: int | None = None,
        seed: int | None = None,
        review: bool = True,
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
        self._pending: dict[tuple[int, int], Callable[[], LiveNumbers]] = {}
        """Live-number jobs of decisions played before their numbers were shown."""
        self.review = review
        """Keep each human decision's equity and valued EVs for the hand review."""

    # --- the hand in progress -----------------------------------------------------------------
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
        return size_totals(self.state)

    def raise_text(self, total: int) -> str:
        return raise_text(self.state, total)

    def street_start(self) -> int:
        return street_start(self.state)

    def bb(self, chips: float) -> str:
        return f"{chips / self.config.big_blind:g}bb"

    def act_amount(self, text: str) -> None:
        """A typed bet or raise: this street's total in chips (``750``) or big blinds
        (``7.5bb``), as the table shows sizes; the rules say what is legal if it is not."""
        if not self.human_to_act:
            raise HunlActionError("it is not your turn to act")
        self.raise_to(self.street_start() + parse_amount(text, self.config.big_blind))

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
        if review and self.review:
            live = self._live.get(self.decision_key())
            if live is not None:
                fill_step(step, live)
            else:  # not shown yet (hints off, or acted quickly): computed for the review
                self._pending[(self.hand.number, len(self.hand.steps))] = self.live_job()
        self.hand.steps.append(step)

    def fill_review(self, hand: HunlHand) -> bool:
        """Compute the live numbers of the hand's decisions that were played before they were
        shown (a second or so each preflop); whether any were missing."""
        missing = [key for key in list(self._pending) if key[0] == hand.number]
        for key in missing:
            job = self._pending.pop(key, None)  # a review worker may run beside another
            if job is not None:
                fill_step(hand.steps[key[1]], job())
        return bool(missing)

    def _advance(self) -> None:
        """Let the bot act until the human must, or the hand ends."""
        hand = self.hand
        while not self.state.is_over and self.state.to_act == self.bot_seat:
            board = self.board
            combo = int(COMBO_INDEX[hand.hole[self.bot_seat]])
            action = self.agent.act(self.state, np.array(board, dtype=np.intp), combo, self.rng)
            try:
                after = self.state.apply(action)
            except IllegalAction as exc:
                raise BotError(
                    f"the bot {self.bot_name} chose {action}, which the rules refuse ({exc}); "
                    "start a new session or pick another bot"
                ) from None
            self._bot_steps.append((self.state, board, action))
            self._record(self.bot_seat, action, review=False)
            self.state = after
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
        luck = np.random.default_rng([self.seed, hand.number])  # a preflop all-in's boards
        hand.adjusted = all_in_adjusted(hand, state, luck)
        self.score.add(hand.result, hand.adjusted, hand.ev_lost())

    # --- live numbers -------------------------------------------------------------------------
    def live(self) -> LiveNumbers:
        """The live numbers of the human's current decision (cached per decision)."""
        job = self.live_job()  # refuses when it is not the human's decision
        key = self.decision_key()
        found = self._live.get(key)
        if found is None:
            found = self._live[key] = job()
        return found

    def live_job(self) -> Callable[[], LiveNumbers]:
        """The current decision's live numbers as a job that a worker thread may run while the
        session moves on: it holds copies of everything it reads."""
        if not self.human_to_act:
            raise InputError("the live numbers are for your decisions")
        state, agent = self.state, self.agent
        board = np.array(self.board, dtype=np.intp)
        hole = self.hand.hole[self.human_seat]
        bot_steps = list(self._bot_steps)
        actions = tuple(option.action for option in self.options())
        seed = self.hand.number

        def job() -> LiveNumbers:
            steps = [(agent.policy(st, np.array(b, dtype=np.intp)), a) for st, b, a in bot_steps]
            reach = bayes_reach(steps)
            return live_numbers(state, board, hole, reach, agent, actions, seed=seed)

        return job

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
