"""A session of full heads-up no-limit hold'em, preflop to river, against an ``Agent``.

``HunlSession`` is a plain object that the play screen, ``pokertui play --game hunl(...)`` and
the tests drive. It deals nine cards a hand (two each and the board, shown street by street),
takes the human's actions (any legal amount, or the size keys min, 1/3, 1/2, 2/3, pot,
all-in), asks the bot, settles and scores. The live numbers come from
``solvers.reports.hunl_live``; the bot's range there is Bayes' rule over its policy for every
action it took this hand (computed only when asked for, so headless matches stay fast).

Seats follow the rules module: seat 0 is the small blind and button. With ``human_seat=None``
the human alternates, taking the button on odd hands. Chips are the ACPC's (big blind 100).

The re-solving bot thinks for seconds on the flop, turn and river, so a front end asks for the bot's
action as a job (``bot_job``) that a worker thread runs, then plays it (``play_bot``);
``act(..., advance=False)`` and ``new_hand(advance=False)`` leave the bot's turn to it, while
the defaults play the bot at once (tests, headless). One lock serialises every use of the agent
(its solutions are cached and shared), so the bot's think, the live numbers and the review's
jobs never run it twice at once. ``think`` scales the re-solving bot's time budgets.

The variance-reduced score is the all-in adjustment: a hand whose chips all went in before the
river scores the human's equity against the bot's actual cards times the pot (exact over the
remaining runouts from the flop on, 20,000 sampled boards preflop) instead of the card luck of
the one runout dealt. Its mean is the same as the result's, its variance smaller.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
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
    amount_hint,
    amount_total,
    fill_step,
    raise_text,
    size_totals,
    street_start,
)
from pokertui.session.scoring import Score
from solvers.agents.resolve_values import tree_size
from solvers.agents.resolving import DEFAULT_SECONDS, ResolvingAgent
from solvers.analysis.live_values import live_values_job
from solvers.analysis.live_values import resolve_note as resolve_note  # the review's heading
from solvers.cards import evaluator
from solvers.cards.deck import COMBO_INDEX, cards_str
from solvers.errors import InputError
from solvers.games.holdem.memory import give_back, give_back_and_freeze
from solvers.games.hunl.agent import Agent, forget_deal
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
from solvers.reports.hunl_live import LiveNumbers


class ThinkingStopped(Exception):  # noqa: N818 - a stop, not an error
    """Raised from the re-solving bot's progress hook to end a solve nobody waits for any more
    (the screen closed); the bot keeps no partial solve, the session is untouched."""


class BotError(InputError):
    """The bot answered with an action the rules do not allow (a broken bot file)."""


def fresh_seed() -> int:
    return secrets.randbits(32)


THINK_DEFAULT = DEFAULT_SECONDS[2]
"""The re-solving bot's turn budget in seconds (the flop's is three times it, the river's a
tenth): ``think`` scales all three."""
THINK_LIMITS = (0.05, 600.0)


def check_think(value: float | str) -> float:
    """``think`` seconds as a number in ``THINK_LIMITS``; anything else is an ``InputError``."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise InputError(f"think time {str(value)[:40]!r} is not a number of seconds") from None
    low, high = THINK_LIMITS
    if not (math.isfinite(seconds) and low <= seconds <= high):
        raise InputError(f"think time {str(value)[:40]} must be {low:g} to {high:g} seconds "
                         "(the bot's budget on the turn; 3x on the flop, a tenth on the river)")
    return seconds


def set_think(agent: Agent, seconds: float) -> None:
    """Scale the re-solving bot's per-street budgets so that the turn's default becomes
    ``seconds`` (the river keeps its share); other bots answer at once and refuse it. Once per
    agent: a second call scales again (the session applies it; dialogs only check it)."""
    if not isinstance(agent, ResolvingAgent):
        raise InputError("a think time is for the re-solving bot (resolve:BOT); "
                         f"{getattr(agent, 'name', 'this bot')} answers at once")  # fmt: skip
    scale = check_think(seconds) / THINK_DEFAULT
    agent.seconds = {street: budget * scale for street, budget in agent.seconds.items()}


def warm_up(agent: Agent, config: HunlConfig) -> float:
    """Ask the agent for its policy once on every street (a bot may compile or load tables on
    first use), so that its first real answer at the table is as quick as the rest; the
    seconds it took. A re-solving bot warms its base agent and every kernel its solves and the
    live panel reach (``ResolvingAgent.warm_up``) instead of spending its budgets here."""
    if isinstance(agent, ResolvingAgent):
        return agent.warm_up(config)
    started = time.perf_counter()
    board = np.arange(0, 20, 4, dtype=np.intp)  # 2c 3c 4c 5c 6c
    for street, betting in enumerate(("", "cc/", "cc/cc/", "cc/cc/cc/")):
        agent.policy(replay(betting, config), board[: BOARD_CARDS[street]])
    return time.perf_counter() - started


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
        think: float | None = None,
    ) -> None:
        if human_seat not in (None, 0, 1):
            raise InputError("the human's seat is 0 (button), 1 (big blind) or alternating")
        self.config = config
        self.agent = agent
        self.think = think
        """Seconds the re-solving bot may think on a turn (None: its own budgets); saved."""
        if think is not None:
            set_think(agent, think)
        self.agent_lock = threading.RLock()
        """Held by every use of the agent (the bot's think, live numbers, the review)."""
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
        self._forgotten = 0
        """The hand whose first use of the agent dropped the solutions of the hands before."""
        self.review = review
        """Keep each human decision's equity and valued EVs for the hand review."""
        self.freezes = False
        """Headless play: the first drop of a hand's solutions also freezes what survives
        (``memory.give_back_and_freeze``), so each later one collects in a millisecond, not 40."""

    # --- the hand in progress -----------------------------------------------------------------
    @property
    def human_to_act(self) -> bool:
        return not self.hand_over and self.state.to_act == self.human_seat

    @property
    def bot_to_act(self) -> bool:
        return not self.hand_over and self.state.to_act == self.bot_seat

    @property
    def re_solving(self) -> bool:
        """The bot solves the current street during play (its answers take seconds)."""
        agent = self.agent
        return isinstance(agent, ResolvingAgent) and self.state.street in agent.streets

    @property
    def board(self) -> tuple[int, ...]:
        """The board cards dealt so far."""
        if not self.hands:
            return ()
        if self.hand.result is not None:
            return self.hand.shown_board
        return self.hand.board[: self.state.board_cards_needed]

    def seat_of(self, number: int) -> int:
        """The human's seat in hand ``number`` (the button on odd hands when alternating)."""
        return (number - 1) % 2 if self.seat_mode is None else self.seat_mode

    def new_hand(self, advance: bool = True) -> HunlHand:
        if not self.hand_over:
            raise InputError("finish the current hand first")
        number = len(self.hands) + 1
        self.rng_at_deal = self.rng.bit_generator.state
        cards = [int(c) for c in self.rng.permutation(52)[:9]]
        hole = ((cards[0], cards[1]), (cards[2], cards[3]))
        hand = HunlHand(number, self.seat_of(number), hole, tuple(cards[4:]))
        self._begin(hand)
        if advance:
            self._advance()
        return hand

    def _begin(self, hand: HunlHand) -> None:
        self.hands.append(hand)
        self.state = HunlState.initial(self.config)
        self._bot_steps = []
        self._live = {}

    def restore_hand(self, hand: HunlHand, steps: list[HunlStep]) -> None:
        """Continue an unfinished hand from a save: ``hand``'s cards, then ``steps`` played
        again through the rules (a bot's action as the bot's, so that its Bayes range follows)
        and their review numbers kept; the hand stops at the decision where it was left."""
        if not self.hand_over:
            raise InputError("finish the current hand first")
        if hand.number != len(self.hands) + 1 or hand.human_seat != self.seat_of(hand.number):
            raise InputError(f"hand {hand.number} is not the next hand of this session")
        hand.steps, hand.result = [], None
        self._begin(hand)
        for index, saved in enumerate(steps):
            if self.state.is_over or saved.seat != self.state.to_act:
                raise InputError(f"hand {hand.number}: action {index + 1} is out of turn")
            action = parse_action(saved.action)
            try:
                self.state.apply(action)
            except IllegalAction as exc:
                raise InputError(f"hand {hand.number}: action {index + 1}: {exc}") from None
            if saved.seat == self.human_seat:
                self.act(action, advance=False)
            else:
                self.play_bot(action)
            if saved.evs is not None or saved.equity is not None:
                self._pending.pop((hand.number, index), None)
                hand.steps[index].evs, hand.steps[index].equity = saved.evs, saved.equity
        if self.hand_over:
            raise InputError(f"hand {hand.number}: its actions finish it, so it is not unfinished")

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
        """The size keys' raise-to totals; once the live numbers of this decision are in, a
        key within ``same_size_chips`` of a size they value is that size (the key's 2/3 of the
        pot plays, and reads as, the bot's tree's 66%: one row and one size in the panel)."""
        found = size_totals(self.state)
        live = self._live.get(self.decision_key()) if self.human_to_act else None
        if live is None:
            return found
        valued = [e.action for e in live.evs if e.ev is not None]
        return [(key, tree_size(self.state, Action(RAISE, total), valued).to)
                for key, total in found]  # fmt: skip

    def raise_text(self, total: int) -> str:
        return raise_text(self.state, total)

    def street_start(self) -> int:
        return street_start(self.state)

    def bb(self, chips: float) -> str:
        return f"{chips / self.config.big_blind:g}bb"

    def amount_hint(self) -> str:
        """The legal typed amounts, this street's totals: ``legal: 100 to 9400 chips (1bb to
        94bb)``."""
        return amount_hint(self.state)

    def act_amount(self, text: str, advance: bool = True) -> None:
        """A typed bet or raise: this street's total in chips (``750``) or big blinds
        (``7.5bb``), as the table shows sizes; refused in those terms (``amount_hint``'s
        range, "bet" or "raise") before the rules, whose messages count the whole hand."""
        if not self.human_to_act:
            raise HunlActionError("it is not your turn to act")
        self.raise_to(amount_total(self.state, text), advance)

    # --- acting -------------------------------------------------------------------------------
    def act(self, action: Action | str, advance: bool = True) -> None:
        """The human's action: an ``Action``, an ACPC token (``f``, ``c``, ``r750``) or a size
        key (``min``, ``1/3``, ``1/2``, ``2/3``, ``pot``, ``allin``). The bot then answers at
        once, or with ``advance=False`` waits for ``bot_job`` and ``play_bot``."""
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
        if advance:
            self._advance()
        else:
            self._settle_if_over()

    def raise_to(self, total: int, advance: bool = True) -> None:
        self.act(Action(RAISE, int(total)), advance)

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
            else:  # not shown yet (hints off, or acted quickly): computed for the review,
                # against the solve the bot made of this street to answer the action
                job = self.live_job(taken=action)
                self._pending[(self.hand.number, len(self.hand.steps))] = job
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
        while self.bot_to_act:
            self.play_bot(self.bot_job()())
        self._settle_if_over()

    def bot_job(self) -> Callable[[], Action]:
        """The bot's decision now as a job a worker thread may run (seconds for a re-solve):
        it holds copies of the state and board; the session's generator draws its action."""
        if not self.bot_to_act:
            raise InputError("it is not the bot's turn")
        state, agent, rng, lock = self.state, self.agent, self.rng, self.agent_lock
        board = np.array(self.board, dtype=np.intp)
        combo, number = int(COMBO_INDEX[self.hand.hole[self.bot_seat]]), self.hand.number

        def job() -> Action:
            with lock:
                self._forget_old(number)
                return agent.act(state, board, combo, rng)

        return job

    def _forget_old(self, number: int) -> None:
        """Under the agent's lock, at the first use of the agent in hand ``number``: drop the
        re-solving bot's solutions of the hands before (a new deal's lines are on none of
        them; they hold 100 to 200 MB a hand) and give the memory back. A review of an old
        hand solves its streets again if it needs them."""
        if number <= self._forgotten:
            return
        self._forgotten = number
        if not forget_deal(self.agent):
            return
        if self.freezes:
            give_back_and_freeze()
        else:
            give_back()

    def play_bot(self, action: Action) -> None:
        """The bot's action (from ``bot_job``), checked by the rules; settles a finished hand."""
        if not self.bot_to_act:
            raise InputError("it is not the bot's turn")
        try:
            after = self.state.apply(action)
        except IllegalAction as exc:
            raise BotError(
                f"the bot {self.bot_name} chose {action}, which the rules refuse ({exc}); "
                "start a new session or pick another bot"
            ) from None
        self._bot_steps.append((self.state, self.board, action))
        self._record(self.bot_seat, action, review=False)
        self.state = after
        self._settle_if_over()

    def _settle_if_over(self) -> None:
        if self.state.is_over and self.hand.result is None:
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

    def live_job(self, taken: Action | None = None) -> Callable[..., LiveNumbers]:
        """The current decision's live numbers as a job that a worker thread may run while the
        session moves on: it holds copies of everything it reads. On a street the bot
        re-solves, the EVs are the re-solve's values (``agents/resolve_values.py``), solving
        the street first when the human opens it. Sizes off the re-solve's tree are valued one
        at a time, each against the bot's node re-solve facing it (seconds each on the turn):
        ``job(report)`` calls ``report`` with the numbers so far, those sizes ``pending``,
        before each of them, and returns the numbers with every size valued. For the review of
        an action ``taken`` already, the only size valued off the tree is that action's: the
        bot's answer to it is kept (no new solve), the others would each cost one."""
        if not self.human_to_act:
            raise InputError("the live numbers are for your decisions")
        actions = tuple(option.action for option in self.options())
        number = self.hand.number
        inner = live_values_job(self.agent, self.state, self.board,
                                self.hand.hole[self.human_seat], self._bot_steps, actions,
                                number, self.agent_lock, taken)  # fmt: skip
        if taken is not None:  # a review's: its hand's solutions are the ones to use
            return inner

        def job(report: Callable[[LiveNumbers], None] | None = None) -> LiveNumbers:
            with self.agent_lock:
                self._forget_old(number)
            return inner(report)

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
