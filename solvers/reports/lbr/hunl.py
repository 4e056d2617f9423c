"""Local best response on full heads-up no-limit hold'em, against any ``Agent``.

Lisý and Bowling's LBR, as their Figure 1 states it. LBR holds real cards and keeps the bot's
range over all 1,326 combos: uniform over the combos its own cards and the board leave, multiplied
by the bot's probability of every action it takes (Bayes' rule on a vector; ``agent.policy``
answers for every combo at once). At its own decisions on the streets it plays greedily, with
``wp`` its equity against the range (``WpRollout``: every remaining board card dealt, see
``lbr.hunl_cards``), ``pot`` the chips in the middle and ``asked`` the chips it must add to call::

    U(call) = wp * pot - (1 - wp) * asked
    U(a)    = fp * pot + (1 - fp) * (wp' * (pot + a) - (1 - wp') * (asked + a))

for a bet or raise that puts ``a`` chips beyond the call, ``fp`` the range's probability of
folding to it (the bot's policy in the state after the bet) and ``wp'`` the equity against the
combos that continue. It plays the best action if its utility is positive and otherwise folds
(or checks, when checking is free). On the other streets it checks or calls.

Action sets, as in the paper: ``fc`` (fold, check/call), ``fcpa`` (also a pot-sized bet or raise
and all-in), ``56`` (all-in and the pot fractions ``0.05 * 1.15**k``, k = 0..54). A raise's
fraction is of the pot after calling; amounts are whole chips and a size below the minimum raise
becomes the minimum raise, one above the stack becomes all-in.

Each deal is played from both seats (duplicate: the cards stay with the seat and LBR changes
seat), and every hand is scored by the paper's imaginary observations: a fold pays its chips, a
showdown pays the expectation over the bot's range on the line played, the board completed
exhaustively from the street where the betting ended (so an all-in preflop is valued over every
board). The bot's own actions are drawn from its policy for its real hand, so the score is an
unbiased estimate of LBR's winnings. With ``control`` each hand is also scored less the luck of
the bot's actions and of the turn and river cards (``lbr.hunl_control``): the same expectation
with a narrower interval.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np

from solvers.agents.bet_sizing import FRACTIONS_56, parse_action_set, pot_fraction_to
from solvers.cards.deck import N_COMBOS
from solvers.errors import InputError
from solvers.games.holdem.memory import give_back_and_freeze
from solvers.games.hunl.agent import Agent, Policy, action_column, forget_deal
from solvers.games.hunl.rules import (
    BOARD_CARDS,
    CALL,
    FOLD,
    RAISE,
    Action,
    HunlConfig,
    HunlState,
)
from solvers.reports.lbr.hunl_cards import HunlEquity, clash_matrix, combos_touching, deal
from solvers.reports.lbr.hunl_control import ControlVariates, imaginary_value
from solvers.reports.lbr.names import STREETS


class HunlLbrError(InputError):
    """An option LBR cannot use on the full game, or a bot whose answers contradict each other."""


def bot_column(policy: Policy, action: Action) -> int:
    """The policy's column for the action the bot took (``action_column``), or LBR's error."""
    try:
        return action_column(policy, action)
    except ValueError:
        raise HunlLbrError(f"the bot played {action}, which its policy does not list") from None


class PlayedHand(NamedTuple):
    value: float
    """LBR's chips, scored by imaginary observations."""
    correction: float
    """The control variates' sum (0 without them): ``value - correction`` is the lower-variance
    score with the same expectation (``lbr.hunl_control``)."""
    state: HunlState
    """The hand's last state (its line, who folded)."""


class HunlLocalBestResponse:
    """LBR against one agent in the full game ``config``; ``control``: also score each hand less
    its control variates (``lbr.hunl_control``), with the value ``estimate`` named there."""

    def __init__(
        self,
        config: HunlConfig,
        agent: Agent,
        action_set: str = "fcpa",
        streets: tuple[str, ...] | None = None,
        control: bool = False,
        estimate: str = "checkdown",
    ) -> None:
        self.config = config
        self.agent = agent
        self.action_set = parse_action_set(action_set)
        if self.action_set == "tree":
            raise HunlLbrError("the full game has no tree of its own: use fc, fcpa or 56")
        self.fractions = {"fc": (), "fcpa": (1.0,), "56": FRACTIONS_56}[self.action_set]
        streets = STREETS if streets is None else tuple(streets)
        wrong = [s for s in streets if s not in STREETS]
        if wrong or not streets:
            raise HunlLbrError(f"streets {', '.join(wrong) or '(none)'}: use {', '.join(STREETS)}")
        self.streets = tuple(s for s in STREETS if s in streets)
        self._greedy = {STREETS.index(s) for s in self.streets}
        self.cards = HunlEquity()
        self.control = ControlVariates(self.cards, estimate) if control else None

    # --- the greedy decision ----------------------------------------------------------------
    def bets(self, state: HunlState) -> list[int]:
        """LBR's candidate raise-to totals in ``state``, ascending and distinct."""
        legal = state.legal()
        if self.action_set == "fc" or legal.min_raise_to is None or legal.max_raise_to is None:
            return []
        own, opp = state.committed[state.to_act], state.committed[1 - state.to_act]
        amounts = [int(pot_fraction_to(own, opp, f)) for f in self.fractions]
        amounts.append(legal.max_raise_to)
        return sorted({min(max(a, legal.min_raise_to), legal.max_raise_to) for a in amounts})

    def utilities(
        self, state: HunlState, board: np.ndarray, combo: int, weights: np.ndarray
    ) -> tuple[float, list[int], np.ndarray]:
        """``U(call)``, the candidate bets and their utilities (chips, relative to folding)."""
        seat = state.to_act
        own, opp = state.committed[seat], state.committed[1 - seat]
        pot, asked = own + opp, opp - own
        eq = self.cards.equity(combo, tuple(int(c) for c in board))
        total = weights.sum()
        wp = float(weights @ eq) / total
        call = wp * pot - (1 - wp) * asked
        bets = self.bets(state)
        if not bets:
            return call, bets, np.zeros(0)
        folds = np.zeros((len(bets), N_COMBOS))
        for row, to in enumerate(bets):
            policy = self.agent.policy(state.apply(Action(RAISE, to)), board)
            for i, listed in enumerate(policy.actions):
                if listed.kind == FOLD:
                    folds[row] += policy.probabilities[:, i]
        cont = weights[None, :] * (1.0 - folds)
        cont_total = cont.sum(axis=1)
        fp = 1.0 - cont_total / total
        wp2 = (cont @ eq) / np.maximum(cont_total, 1e-300)
        a = np.asarray(bets, dtype=np.float64) - opp
        utility = fp * pot + (1 - fp) * (wp2 * (pot + a) - (1 - wp2) * (asked + a))
        return call, bets, utility

    def decide(
        self, state: HunlState, board: np.ndarray, combo: int, weights: np.ndarray
    ) -> Action:
        """LBR's action holding ``combo`` with the bot's (unnormalised) range ``weights``."""
        legal = state.legal()
        if state.street not in self._greedy:
            return Action(CALL)
        call, bets, utility = self.utilities(state, board, combo, weights)
        best_value, best = call, Action(CALL)
        if len(bets):
            top = int(np.argmax(utility))
            if utility[top] > best_value:
                best_value, best = float(utility[top]), Action(RAISE, bets[top])
        if best_value > 0:
            return best
        return Action(FOLD) if legal.can_fold else Action(CALL)

    # --- one hand ---------------------------------------------------------------------------
    def play(
        self, seat: int, combo: int, bot_combo: int, board: np.ndarray, rng: np.random.Generator
    ) -> float:
        """LBR's chips in one hand from ``seat`` holding ``combo``, scored by imaginary
        observations over the bot's range (``board`` is the whole five-card runout)."""
        return self.play_out(seat, combo, bot_combo, board, rng).value

    def play_out(
        self,
        seat: int,
        combo: int,
        bot_combo: int,
        board: np.ndarray,
        rng: np.random.Generator,
        note: Callable[[dict], None] | None = None,
    ) -> PlayedHand:
        """``play``'s chips, the control variates' sum and the hand's last state; ``note``
        hears each step with its numbers (``replay_deal``)."""
        state = HunlState.initial(self.config)
        weights = np.where(clash_matrix()[combo], 0.0, 1.0)
        shown = 0
        street = 0
        correction = 0.0
        while not state.is_over:
            needed = state.board_cards_needed
            if needed != shown:
                step = 0.0
                if self.control is not None and shown >= 3:  # a turn or river card
                    step = self.control.card(state, seat, combo, board[:needed], weights)
                    correction += step
                if note is not None:
                    dealt = [int(c) for c in board[shown:needed]]
                    note({"step": "cards", "street": state.street, "cards": dealt,
                          "correction": step})  # fmt: skip
                weights[combos_touching(board[shown:needed])] = 0.0
                shown = needed
            street = state.street
            visible = board[:needed]
            if state.to_act == seat:
                action = self.decide(state, visible, combo, weights)
                if note is not None:
                    note(self._decision_step(state, visible, combo, weights, action))
            else:
                action = self.agent.act(state, visible, bot_combo, rng)
                policy = self.agent.policy(state, visible)  # after act: the one it played
                column = bot_column(policy, action)
                step = 0.0
                if self.control is not None:
                    step = self.control.action(state, seat, combo, visible, weights, policy,
                                               column)  # fmt: skip
                    correction += step
                if note is not None:
                    chance = float(weights @ policy.probabilities[:, column] / weights.sum())
                    note({"step": "bot", "street": state.street, "action": str(action),
                          "chance": chance, "correction": step})  # fmt: skip
                weights = weights * policy.probabilities[:, column]
                top = weights.max()
                if not top > 0:
                    raise HunlLbrError(f"the bot played {action} with no combo of its range")
                weights /= top  # a long hand of unlikely actions must not underflow
            state = state.apply(action)
        value = self.value(state, seat, combo, board[: BOARD_CARDS[street]], weights)
        return PlayedHand(value, correction, state)

    def _decision_step(
        self, state: HunlState, board: np.ndarray, combo: int, weights: np.ndarray, action: Action
    ) -> dict:
        """What LBR weighed at a decision: folding is 0, then calling and each bet (chips)."""
        step: dict = {"step": "lbr", "street": state.street, "action": str(action)}
        if state.street in self._greedy:
            call, bets, utility = self.utilities(state, board, combo, weights)
            step["call"] = float(call)
            step["bets"] = {str(to): float(u) for to, u in zip(bets, utility, strict=True)}
        return step

    def value(
        self, state: HunlState, seat: int, combo: int, board: np.ndarray, weights: np.ndarray
    ) -> float:
        """LBR's chips at the end of a hand: a fold pays its chips, a showdown the expectation
        over the bot's range with the rest of ``board`` dealt exhaustively."""
        return imaginary_value(self.cards, state, seat, combo, board, weights)

    # --- chunks of duplicate deals ----------------------------------------------------------
    def run_chunk(self, seed: int, index: int, deals: int) -> np.ndarray:
        """``[deals, 2]``: LBR's chips from seat 0 and from seat 1 on each deal of chunk
        ``index``, whose random stream depends only on ``(seed, index)``. With control variates
        ``[deals, 4]``: the corrected scores, then the plain ones (the same hands)."""
        out = np.empty((deals, 4 if self.control is not None else 2))
        for i, seat, hand in self.chunk_hands(seed, index, deals):
            out[i, seat] = hand.value - hand.correction
            if self.control is not None:
                out[i, 2 + seat] = hand.value
        return out

    def chunk_hands(
        self, seed: int, index: int, deals: int, note: Callable[[dict], None] | None = None,
        watch: int | None = None,
    ) -> Iterator[tuple[int, int, PlayedHand]]:
        """Each hand of chunk ``index`` in play order: the deal, LBR's seat and the hand
        (``benchmarks/bench_lbr_lines.py`` sorts the hands by their line); ``note`` hears the
        steps of deal ``watch``'s two hands."""
        rng = np.random.default_rng([seed, index])
        c0, c1, boards = deal(rng, deals)
        for i in range(deals):
            hook = note if i == watch else None
            for seat, (own, other) in enumerate(((c0[i], c1[i]), (c1[i], c0[i]))):
                if hook is not None:
                    hook({"step": "deal", "seat": seat, "combo": int(own), "bot_combo": int(other),
                          "board": [int(c) for c in boards[i]]})  # fmt: skip
                yield i, seat, self.play_out(seat, int(own), int(other), boards[i], rng, hook)
            if forget_deal(self.agent):
                give_back_and_freeze()

    def replay_deal(self, seed: int, chunk_deals: int, number: int) -> list[dict]:
        """Deal ``number`` (from 0, in the order a run with this seed and chunk size plays
        them) again from both seats, every step with its numbers, each hand closed by its
        score: the same hands and figures as the run's, since the chunk is replayed from its
        start (the bot's draws of the deals before it come from the same stream)."""
        if chunk_deals <= 0 or number < 0:
            raise HunlLbrError(f"deal {number} of chunks of {chunk_deals}: both count from 0 up")
        index, watch = divmod(number, chunk_deals)
        steps: list[dict] = []
        for i, seat, hand in self.chunk_hands(seed, index, chunk_deals, steps.append, watch):
            if i == watch:
                steps.append({"step": "end", "seat": seat, "line": "/".join(hand.state.history),
                              "value": hand.value, "correction": hand.correction,
                              "score": hand.value - hand.correction})  # fmt: skip
                if seat == 1:
                    break
        return steps
