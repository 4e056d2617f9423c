"""Head-to-head duplicate matches between two full-game bots, on LBR's seeded chunk runner.

Each deal is played twice with the same hole cards and board: once with the bot in seat 0 and
once in seat 1, so each side holds each pair of hole cards once and most of the card luck
cancels in the pair's average. Chunk ``i`` draws its deals and both bots' random choices from
the stream ``(seed, i)``, so the figures depend on the seed and the chunk size, never on the
number of workers or the backend. The score is the bot's, in big blinds per 100 hands.

With ``control`` each hand is also scored less its luck (``lbr.hunl_control`` with each range the
one combo actually held): the chance of each action is the acting bot's policy for its hand and
each turn or river card is uniform over the cards left, both valued by the check-down equity of
the two hands; a showdown after the flop pays the equity of the two hands over the board still
to come. The expectation is the match's; a preflop all-in keeps its real result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import COMBO_CARDS, N_COMBOS
from solvers.cards.evaluator import evaluate
from solvers.errors import InputError
from solvers.games.holdem.memory import give_back_and_freeze
from solvers.games.hunl.agent import Agent, action_column, forget_deal
from solvers.games.hunl.rules import BOARD_CARDS, HunlConfig, HunlState
from solvers.games.hunl.spec import hunl_spec_string
from solvers.reports.checkpoint import run_checkpoint
from solvers.reports.lbr.hunl_cards import HunlEquity, deal
from solvers.reports.lbr.hunl_control import ControlVariates, imaginary_value
from solvers.reports.lbr.hunl_run import AgentFactory, duplicate_figures
from solvers.reports.lbr.spot import summarise
from solvers.reports.lbr.spot_run import agent_chunk_deals, check_counts, run_chunks


@dataclass(frozen=True)
class MatchJob:
    config: HunlConfig
    bot: str
    opponent: str
    make_agent: AgentFactory
    """Importable by name (it is pickled into the worker processes)."""
    control: bool = False


def build(job: MatchJob) -> DuplicateMatch:
    make = job.make_agent
    return DuplicateMatch(job.config, make(job.bot, job.config), make(job.opponent, job.config),
                          job.control)  # fmt: skip


def held(combo: int) -> np.ndarray:
    """A range of the one combo a bot holds."""
    weights = np.zeros(N_COMBOS)
    weights[combo] = 1.0
    return weights


def showdown_winner(holes: tuple[int, int], board: np.ndarray) -> int | None:
    """The seat whose seven cards are stronger, None for a split."""
    seven = np.empty((2, 7), dtype=np.int64)
    seven[:, :2] = COMBO_CARDS[list(holes)]
    seven[:, 2:] = board
    strength = evaluate(seven).astype(np.int64)
    if strength[0] == strength[1]:
        return None
    return 0 if strength[0] > strength[1] else 1


class DuplicateMatch:
    """``bot`` against ``opponent`` on duplicate deals; ``run_chunk`` is the chunk runner's.
    ``control``: each hand is also scored less its luck (the module's note)."""

    def __init__(
        self, config: HunlConfig, bot: Agent, opponent: Agent, control: bool = False
    ) -> None:
        self.config, self.bot, self.opponent = config, bot, opponent
        self.cards = HunlEquity()
        self.control = ControlVariates(self.cards) if control else None

    def hand(
        self, bot_seat: int, holes: tuple[int, int], board: np.ndarray, rng: np.random.Generator
    ) -> float:
        """The bot's chips in one hand from ``bot_seat``; ``holes`` are seat 0's and seat 1's
        combos, ``board`` the whole five-card runout."""
        return self.play(bot_seat, holes, board, rng)[0]

    def play(
        self, bot_seat: int, holes: tuple[int, int], board: np.ndarray, rng: np.random.Generator
    ) -> tuple[float, float]:
        """``hand``'s chips, and the hand's score less its luck (the chips without control)."""
        agents = (self.bot, self.opponent) if bot_seat == 0 else (self.opponent, self.bot)
        mine, theirs = holes[bot_seat], holes[1 - bot_seat]
        control = self.control
        state = HunlState.initial(self.config)
        shown = street = 0
        correction = 0.0
        while not state.is_over:
            seat = state.to_act
            needed = state.board_cards_needed
            visible = board[:needed]
            if control is not None and needed != shown and shown >= 3:  # a turn or river card
                correction += control.card(state, bot_seat, mine, visible, held(theirs))
            shown, street = needed, state.street
            action = agents[seat].act(state, visible, holes[seat], rng)
            if control is not None:
                policy = agents[seat].policy(state, visible)
                column = action_column(policy, action)
                if seat == bot_seat:  # the bot's luck is the opponent's, negated
                    correction -= control.action(state, 1 - bot_seat, theirs, visible,
                                                 held(mine), policy, column)  # fmt: skip
                else:
                    correction += control.action(state, bot_seat, mine, visible, held(theirs),
                                                 policy, column)  # fmt: skip
            state = state.apply(action)
        winner = None if state.folded >= 0 else showdown_winner(holes, board)
        chips = float(state.payoff(winner)[bot_seat])
        if control is None or (state.folded < 0 and street == 0):
            return chips, chips - correction
        board = board[: BOARD_CARDS[street]]  # the showdown over the cards still to come
        scored = imaginary_value(self.cards, state, bot_seat, mine, board, held(theirs))
        return chips, scored - correction

    def run_chunk(self, seed: int, index: int, deals: int) -> np.ndarray:
        """``[deals, 2]``: the bot's chips from seat 0 and from seat 1 on each deal. With
        control variates ``[deals, 4]``: the scores less their luck, then the chips."""
        rng = np.random.default_rng([seed, index])
        c0, c1, boards = deal(rng, deals)
        out = np.empty((deals, 4 if self.control is not None else 2))
        for i in range(deals):
            holes = (int(c0[i]), int(c1[i]))
            for seat in (0, 1):
                chips, scored = self.play(seat, holes, boards[i], rng)
                out[i, seat] = scored
                if self.control is not None:
                    out[i, 2 + seat] = chips
            if forget_deal(self.bot, self.opponent):
                give_back_and_freeze()
        return out


def play_duplicate(
    config: HunlConfig,
    bot: str,
    opponent: str,
    make_agent: AgentFactory,
    deals: int,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    chunk_deals: int | None = None,
    checkpoint: str | None = None,
    control: bool = False,
) -> dict:
    """``bot`` against ``opponent`` over ``deals`` duplicate deals (``2 * deals`` hands): the
    bot's bb/100 per seat and over both, with 95% intervals over the deals' pair averages.
    Chunks hold ``chunk_deals`` deals (default: the fewer the slower bot asks for).
    ``checkpoint``: a file that keeps the finished chunks, to resume or extend the match.
    ``control``: each hand is scored less its luck, the same expectation with a narrower
    interval; ``plain`` then holds the figures of the chips."""
    check_counts(deals, workers)
    if not bot or not opponent:
        raise InputError("a match needs two bots: --bot and --opponent")
    job = MatchJob(config, str(bot), str(opponent), make_agent, control)
    engine = build(job)  # a bad bot fails here, before any worker starts
    chunk = chunk_deals or min(agent_chunk_deals(engine.bot), agent_chunk_deals(engine.opponent))
    saved = run_checkpoint(checkpoint, "match", hunl_spec_string(config),
                           {"bot": str(bot), "opponent": str(opponent)}, seed, chunk,
                           columns=4 if control else 2,
                           **({"control_variates": True} if control else {}))  # fmt: skip
    values = run_chunks(engine, build, job, deals, seed, workers, progress, backend, address, chunk,
                        saved)  # fmt: skip
    scale = 100.0 / config.big_blind
    result = {
        "bot": str(bot),
        "opponent": str(opponent),
        "game": hunl_spec_string(config),
        "control_variates": control,
        **duplicate_figures(values[:, :2], seed, chunk, "bb_per_100", scale),
    }
    if control:
        result["plain"] = summarise(values[:, 2:], scale)
    return result
