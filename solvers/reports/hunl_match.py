"""Head-to-head duplicate matches between two full-game bots, on LBR's seeded chunk runner.

Each deal is played twice with the same hole cards and board: once with the bot in seat 0 and
once in seat 1, so each side holds each pair of hole cards once and most of the card luck
cancels in the pair's average. Chunk ``i`` draws its deals and both bots' random choices from
the stream ``(seed, i)``, so the figures depend on the seed and the chunk size, never on the
number of workers or the backend. The score is the bot's, in big blinds per 100 hands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solvers.cards.deck import COMBO_CARDS
from solvers.cards.evaluator import evaluate
from solvers.errors import InputError
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import HunlConfig, HunlState
from solvers.games.hunl.spec import hunl_spec_string
from solvers.reports.checkpoint import run_checkpoint
from solvers.reports.lbr_hunl_cards import deal
from solvers.reports.lbr_hunl_run import AgentFactory, duplicate_figures
from solvers.reports.lbr_run import agent_chunk_deals, check_counts, run_chunks


@dataclass(frozen=True)
class MatchJob:
    config: HunlConfig
    bot: str
    opponent: str
    make_agent: AgentFactory
    """Importable by name (it is pickled into the worker processes)."""


def build(job: MatchJob) -> DuplicateMatch:
    make = job.make_agent
    return DuplicateMatch(job.config, make(job.bot, job.config), make(job.opponent, job.config))


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
    """``bot`` against ``opponent`` on duplicate deals; ``run_chunk`` is the chunk runner's."""

    def __init__(self, config: HunlConfig, bot: Agent, opponent: Agent) -> None:
        self.config, self.bot, self.opponent = config, bot, opponent

    def hand(
        self, bot_seat: int, holes: tuple[int, int], board: np.ndarray, rng: np.random.Generator
    ) -> float:
        """The bot's chips in one hand from ``bot_seat``; ``holes`` are seat 0's and seat 1's
        combos, ``board`` the whole five-card runout."""
        agents = (self.bot, self.opponent) if bot_seat == 0 else (self.opponent, self.bot)
        state = HunlState.initial(self.config)
        while not state.is_over:
            seat = state.to_act
            visible = board[: state.board_cards_needed]
            state = state.apply(agents[seat].act(state, visible, holes[seat], rng))
        winner = None if state.folded >= 0 else showdown_winner(holes, board)
        return float(state.payoff(winner)[bot_seat])

    def run_chunk(self, seed: int, index: int, deals: int) -> np.ndarray:
        """``[deals, 2]``: the bot's chips from seat 0 and from seat 1 on each deal."""
        rng = np.random.default_rng([seed, index])
        c0, c1, boards = deal(rng, deals)
        out = np.empty((deals, 2))
        for i in range(deals):
            holes = (int(c0[i]), int(c1[i]))
            out[i, 0] = self.hand(0, holes, boards[i], rng)
            out[i, 1] = self.hand(1, holes, boards[i], rng)
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
) -> dict:
    """``bot`` against ``opponent`` over ``deals`` duplicate deals (``2 * deals`` hands): the
    bot's bb/100 per seat and over both, with 95% intervals over the deals' pair averages.
    Chunks hold ``chunk_deals`` deals (default: the fewer the slower bot asks for).
    ``checkpoint``: a file that keeps the finished chunks, to resume or extend the match."""
    check_counts(deals, workers)
    if not bot or not opponent:
        raise InputError("a match needs two bots: --bot and --opponent")
    job = MatchJob(config, str(bot), str(opponent), make_agent)
    engine = build(job)  # a bad bot fails here, before any worker starts
    chunk = chunk_deals or min(agent_chunk_deals(engine.bot), agent_chunk_deals(engine.opponent))
    saved = run_checkpoint(checkpoint, "match", hunl_spec_string(config),
                           {"bot": str(bot), "opponent": str(opponent)}, seed, chunk)  # fmt: skip
    values = run_chunks(engine, build, job, deals, seed, workers, progress, backend, address, chunk,
                        saved)  # fmt: skip
    return {
        "bot": str(bot),
        "opponent": str(opponent),
        "game": hunl_spec_string(config),
        **duplicate_figures(values, seed, chunk, "bb_per_100", 100.0 / config.big_blind),
    }
