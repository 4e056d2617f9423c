"""Running LBR on the full game against a bot, on the same seeded chunks and pool as spot LBR.

The bot is named (``call``, ``random``) or a file, and turned into an ``Agent`` by a factory the
caller passes in (``solvers.agents.registry.make_agent``, or a test's own). Each
worker process builds the bot once; chunk ``i`` draws its deals and the bot's random choices
from the stream ``(seed, i)``, so the figures do not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import STREET_NAMES, HunlConfig
from solvers.games.hunl.spec import hunl_spec_string
from solvers.reports.checkpoint import run_checkpoint
from solvers.reports.lbr.hunl import HunlLocalBestResponse
from solvers.reports.lbr.spot import summarise
from solvers.reports.lbr.spot_run import agent_chunk_deals, check_counts, run_chunks
from solvers.strategy_file.blueprint_file import record_lbr

AgentFactory = Callable[[str, HunlConfig], Agent]


@dataclass(frozen=True)
class HunlLbrJob:
    config: HunlConfig
    bot: str
    action_set: str
    streets: tuple[str, ...] | None
    make_agent: AgentFactory
    """Importable by name (it is pickled into the worker processes)."""
    control: bool = False
    estimate: str = "checkdown"


def build(job: HunlLbrJob) -> HunlLocalBestResponse:
    agent = job.make_agent(job.bot, job.config)
    return HunlLocalBestResponse(job.config, agent, job.action_set, job.streets, job.control,
                                 job.estimate)  # fmt: skip


def evaluate_hunl(
    config: HunlConfig,
    bot: str,
    make_agent: AgentFactory,
    action_set: str = "fcpa",
    deals: int = 10_000,
    seed: int = 0,
    streets: tuple[str, ...] | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    chunk_deals: int | None = None,
    checkpoint: str | None = None,
    control: bool = False,
    estimate: str = "checkdown",
) -> dict:
    """LBR against ``bot`` over ``deals`` duplicate deals (``2 * deals`` hands): mbb per hand
    per seat and both seats, with 95% intervals; ``progress`` gets the deals finished so far.
    The chunks run on ``backend`` (``local`` or ``ray``) with the same figures. Chunks hold
    ``chunk_deals`` deals (default: what the bot asks for); the same seed and chunk size deal
    the same cards to any bot, so two bots can be compared deal by deal. ``checkpoint``: a
    file that keeps the finished chunks (``reports.checkpoint``), to resume or extend the run.
    ``control``: each hand is scored less its control variates (``lbr.hunl_control``), the same
    expectation with a narrower interval; ``plain`` then holds the figures without them;
    ``estimate`` names their value estimate (``lbr.hunl_control.ESTIMATES``)."""
    check_counts(deals, workers)
    job = HunlLbrJob(config, str(bot), action_set, streets, make_agent, control, estimate)
    engine = build(job)  # a bad bot or option fails here, before any worker starts
    chunk = chunk_deals or agent_chunk_deals(engine.agent)
    saved = run_checkpoint(checkpoint, "lbr", hunl_spec_string(config), {"bot": str(bot)}, seed,
                           chunk, action_set=engine.action_set,
                           streets=list(engine.streets), columns=4 if control else 2,
                           **_control_identity(control, estimate))  # fmt: skip
    values = run_chunks(engine, build, job, deals, seed, workers, progress, backend, address, chunk,
                        saved)  # fmt: skip
    scale = 1000.0 / config.big_blind
    result = {
        "bot": str(bot),
        "agent": engine.agent.name,
        "game": hunl_spec_string(config),
        "action_set": engine.action_set,
        "streets": list(engine.streets),
        "control_variates": control,
        **({"value_estimate": estimate} if control else {}),
        **duplicate_figures(values[:, :2], seed, chunk, "mbb_per_hand", scale),
    }
    if control:
        result["plain"] = summarise(values[:, 2:], scale)
    return result


def _control_identity(control: bool, estimate: str) -> dict:
    """The checkpoint's word on the corrections, so that chunks scored with two value estimates
    never mix; the check-down estimate keeps the ``True`` it had before estimates had names, so
    those checkpoints still resume."""
    if not control:
        return {}
    return {"control_variates": True if estimate == "checkdown" else estimate}


def duplicate_figures(values: np.ndarray, seed: int, chunk: int, unit: str, scale: float) -> dict:
    """What a full-game run over duplicate deals reports (LBR, matches): its sample (deals,
    hands, seed, chunk size) and ``summarise``'s means and intervals in ``unit``, which is
    ``scale`` per chip."""
    deals = len(values)
    return {
        "deals": deals,
        "hands": 2 * deals,
        "seed": int(seed),
        "chunk_deals": int(chunk),
        "unit": unit,
        **summarise(values, scale),
        "chips": float(values.mean()),
    }


RECORDED_KEYS = ("game", "value", "ci95", "unit", "deals", "hands", "seed", "seat_values",
                 "seat_ci95")  # fmt: skip


def figure_name(result: dict) -> str:
    """``fcpa 3-4``: the action set and the paper's street numbers (preflop is 1)."""
    numbers = [STREET_NAMES.index(street) + 1 for street in result["streets"]]
    contiguous = numbers == list(range(numbers[0], numbers[-1] + 1))
    if contiguous and len(numbers) > 1:
        return f"{result['action_set']} {numbers[0]}-{numbers[-1]}"
    return f"{result['action_set']} {','.join(map(str, numbers))}"


def record_hunl_lbr(path: str, result: dict) -> str:
    """Store an LBR result in the blueprint file's header under its ``figure_name``."""
    name = figure_name(result)
    record_lbr(path, {name: {key: result[key] for key in RECORDED_KEYS}})
    return name
