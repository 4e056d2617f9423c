"""Small blueprint games for the parallel training tests, importable by worker processes.

``small_game``: 10 bb, a fixed board, 25 combos a seat and lossless buckets, so
``blueprint_exact`` gives its exact exploitability. ``TINY_SPEC``: a 10 bb ``BlueprintSpec`` with
lossless postflop buckets (no tables to build), for ``train`` and its checkpoints.
``failing_share``: a worker task that dies or raises on one batch, as a crashed worker would.
"""

from __future__ import annotations

import os

import numpy as np

from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import build_tree, root_state
from solvers.algorithms.blueprint_deals import FixedBoardDeals
from solvers.algorithms.blueprint_mccfr import BlueprintMCCFR, MccfrOptions
from solvers.cards.deck import N_COMBOS, parse_cards
from solvers.games.hunl.rules import HunlConfig
from solvers.runs.blueprint_build import BlueprintSpec
from solvers.runs.blueprint_rounds import Delta, Share, TrainerRecipe, run_share

TINY_SPEC = BlueprintSpec(
    stack_bb=10,
    betting="pre=2.5x,a|a; flop=50%,100%,a|a; turn=a; river=a",
    cards="hs2(flop=combo,turn=combo,river=combo)",
    options=MccfrOptions(batch=500, seed=7),
)


def small_game(seed: int = 0, batch: int = 1000) -> BlueprintMCCFR:
    rng = np.random.default_rng(1)
    ranges = (np.zeros(N_COMBOS), np.zeros(N_COMBOS))
    for weights in ranges:
        weights[rng.choice(N_COMBOS, 25, replace=False)] = rng.uniform(0.5, 1.0, 25)
    deals = FixedBoardDeals(parse_cards("Ks 7h 2d 9c 4s"), ranges)
    betting = parse_betting("pre=3x,a|a; flop=75%,a|a; turn=75%,a|a; river=75%,a|a")
    tree = build_tree(betting, root_state(HunlConfig(10)))
    options = MccfrOptions(batch=batch, seed=seed, prune_after=10**12, linear_until=0)
    return BlueprintMCCFR(tree, deals, options, "small fixed-board game")


def failing_share(
    snapshot: np.ndarray, recipe: TrainerRecipe, share: Share, *, batch: int | None, how: str
) -> Delta:
    """``run_share``, except that the share holding batch ``batch`` (None: every share) ends its
    worker process (``how="exit"``) or raises (``how="raise"``) before sending anything back."""
    if batch is None or any(index == batch for index, _ in share.batches):
        if how == "exit":
            os._exit(1)
        raise RuntimeError(f"the share from batch {share.batches[0][0]} failed")
    return run_share(snapshot, recipe, share)


def worker_threads() -> tuple[str | None, int]:
    """In a pool worker: the thread count numba was told and the one it runs with."""
    import numba  # noqa: PLC0415 - loads after the worker's set-up, as the kernels do

    return os.environ.get("NUMBA_NUM_THREADS"), numba.get_num_threads()
