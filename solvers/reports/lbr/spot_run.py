"""Running LBR on a strategy file: seeded chunks of duplicate deals over a process pool or Ray.

Deals come in chunks of ``CHUNK_DEALS``; chunk ``i`` draws everything from the stream
``(seed, i)``, and the results are put back in chunk order, so the figures do not depend on the
number of worker processes or the backend (``local`` or ``ray``, ``solvers.parallel``). Each
worker loads the strategy file once. ``run_chunks`` is the same dispatch for any engine with
``run_chunk`` (the full game's LBR uses it too).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from solvers.errors import InputError
from solvers.games.base import Strategy, TreeGame
from solvers.parallel.backends import check_backend, check_workers, run_tasks
from solvers.reports.checkpoint import ChunkCheckpoint
from solvers.reports.lbr.spot import LocalBestResponse, RiverBot, summarise
from solvers.strategy_file import load_strategy
from solvers.strategy_file.binary import as_played

CHUNK_DEALS = 500


RiverFactory = Callable[[TreeGame, Strategy], RiverBot]
"""Makes the bot's river re-solver from the file's game and strategy
(``solvers.agents.river_resolve.RiverResolver``; importable by name, for the workers)."""


@dataclass(frozen=True)
class LbrJob:
    path: str
    action_set: str
    streets: tuple[str, ...] | None
    river: RiverFactory | None = None


def build(job: LbrJob) -> LocalBestResponse:
    loaded = load_strategy(job.path)
    strategy: Strategy = as_played(loaded.strategy)  # type: ignore[assignment]  # as played
    river = None
    if job.river is not None and len(loaded.game.root.board) == 4:  # a turn spot
        river = job.river(loaded.game, strategy)
    return LocalBestResponse(loaded.game, strategy, job.action_set, job.streets, river)


class ChunkEngine(Protocol):
    def run_chunk(self, seed: int, index: int, deals: int) -> np.ndarray: ...


_worker: ChunkEngine | None = None


def _init_worker(build_engine: Callable[[Any], ChunkEngine], job: Any) -> None:
    global _worker  # noqa: PLW0603 - one engine per worker process, built once
    _worker = build_engine(job)


def _run_chunk(seed: int, index: int, deals: int) -> tuple[int, np.ndarray]:
    assert _worker is not None
    return index, _worker.run_chunk(seed, index, deals)


def chunk_sizes(deals: int, chunk_deals: int = CHUNK_DEALS) -> list[int]:
    full, rest = divmod(deals, chunk_deals)
    return [chunk_deals] * full + ([rest] if rest else [])


def agent_chunk_deals(agent: object) -> int:
    """Deals per chunk for a bot: ``CHUNK_DEALS``, or fewer for a bot that declares a smaller
    ``chunk_deals`` (one that solves while it plays, so the pool's workers share its chunks)."""
    return int(getattr(agent, "chunk_deals", CHUNK_DEALS))


def check_counts(deals: int, workers: int | None) -> None:
    if deals <= 0:
        raise InputError(f"--hands must be a positive number of deals, not {deals}")
    check_workers(workers)


def run_chunks(
    engine: ChunkEngine,
    build_engine: Callable[[Any], ChunkEngine],
    job: Any,
    deals: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    chunk_deals: int = CHUNK_DEALS,
    checkpoint: ChunkCheckpoint | None = None,
) -> np.ndarray:
    """``[deals, 2]`` LBR chips per deal and seat, chunk by chunk in chunk order: in this process
    with ``engine`` for one local worker, else on ``backend`` whose workers each run
    ``build_engine(job)`` once (both must be importable by name, for pickling). The figures
    depend on ``chunk_deals`` (each chunk has its own stream), never on the workers. Chunks
    in ``checkpoint`` are taken from it, and every chunk played is saved there."""
    check_backend(backend, workers, address)
    sizes = chunk_sizes(deals, chunk_deals)
    results: list[np.ndarray | None] = [None] * len(sizes)
    if checkpoint is not None:
        results = [checkpoint.known(i, n) for i, n in enumerate(sizes)]
    todo = [i for i, chunk in enumerate(results) if chunk is None]
    done = deals - sum(sizes[i] for i in todo)
    if progress:  # the engines are built: a caller may start its progress bar now
        progress(done)

    def finished(index: int, values: np.ndarray) -> None:
        nonlocal done
        results[index] = values
        if checkpoint is not None:
            checkpoint.save(index, values)
        done += sizes[index]
        if progress:
            progress(done)

    workers = min(workers or os.cpu_count() or 1, max(len(todo), 1))
    if workers == 1 and backend == "local":
        for index in todo:
            finished(index, engine.run_chunk(seed, index, sizes[index]))
    elif todo:
        items = [(seed, i, sizes[i]) for i in todo]
        for position, outcome in run_tasks(_run_chunk, items, backend=backend, workers=workers,
                                           address=address, setup=_init_worker,
                                           setup_args=(build_engine, job)):  # fmt: skip
            if not outcome.ok:
                raise RuntimeError(f"LBR chunk {todo[position]} failed: {outcome.error}")
            finished(*outcome.value)
    chunks = [chunk for chunk in results if chunk is not None]
    assert len(chunks) == len(results), "every chunk returns its values"
    return np.concatenate(chunks)


def evaluate(
    path: str | Path,
    action_set: str = "fcpa",
    deals: int = 10_000,
    seed: int = 0,
    streets: tuple[str, ...] | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    river: RiverFactory | None = None,
) -> dict:
    """LBR on the strategy file at ``path`` over ``deals`` duplicate deals; ``progress`` is
    called with the number of deals finished so far. The chunks run on ``backend`` (``local``
    or ``ray``); the figures are the same on both. ``river``: the bot re-solves a turn spot's
    river after an off-tree bet (``LbrJob.river``)."""
    check_counts(deals, workers)
    check_backend(backend, workers, address)
    job = LbrJob(str(Path(path).resolve()), action_set, streets, river)  # workers start elsewhere
    engine = build(job)  # validates the file and the options before any worker starts
    values = run_chunks(engine, build, job, deals, seed, workers, progress, backend, address)
    unit, scale = engine.unit
    return {
        **_identity(path, engine),
        "deals": int(deals),
        "seed": int(seed),
        "unit": unit,
        **summarise(values, scale),
        "chips": float(values.mean()),
    }


def evaluate_exact(
    path: str | Path,
    action_set: str = "fcpa",
    streets: tuple[str, ...] | None = None,
    river: RiverFactory | None = None,
    workers: int | None = 1,
) -> dict:
    """LBR's exact value over every deal (each hand, the bot's actions and cards to come). With
    ``workers`` above 1 the two seats run in two processes: a seat's re-solves are its own
    (``RiverResolver`` keys them by seat), so nothing is solved twice, and the figure is the
    same. None: one per core for a bot that re-solves (minutes a seat), else this process (a
    pool's start costs more than such a file's whole pass)."""
    check_workers(workers)
    job = LbrJob(str(Path(path).resolve()), action_set, streets, river)
    engine = build(job)  # validates the file and the options before any worker starts
    if workers is None:
        workers = (os.cpu_count() or 1) if engine.river is not None else 1
    if min(workers, 2) == 1:
        seat_chips = [engine.expected_seat(seat) for seat in (0, 1)]
    else:
        seat_chips = [0.0, 0.0]
        for seat, outcome in run_tasks(_exact_seat, [(job, 0), (job, 1)], workers=2):
            if not outcome.ok:
                raise RuntimeError(f"exact LBR, seat {seat + 1}, failed: {outcome.error}")
            seat_chips[seat] = outcome.value
    unit, scale = engine.unit
    return {
        **_identity(path, engine),
        "exact": True,
        "unit": unit,
        "value": float(np.mean(seat_chips)) * scale,
        "ci95": 0.0,
        "seat_values": [v * scale for v in seat_chips],
        "seat_ci95": [0.0, 0.0],
        "chips": float(np.mean(seat_chips)),
    }


def _exact_seat(job: LbrJob, seat: int) -> float:
    """One seat's exact value in a pool worker, on an engine of its own."""
    return build(job).expected_seat(seat)


def _identity(path: str | Path, engine: LocalBestResponse) -> dict:
    """What a result is of: the file, its game, the action set and the greedy streets."""
    return {
        "file": str(path),
        "game": engine.game.spec_string(),
        "action_set": engine.action_set,
        "streets": list(engine.streets),
        "river_resolve": getattr(engine.river, "iterations", None),
        "turn_resolve": getattr(engine.turn, "iterations", None),
    }
