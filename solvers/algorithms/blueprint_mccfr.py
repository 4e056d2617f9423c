"""The blueprint solver: linear external-sampling MCCFR with pruning over the abstract full game.

Memory is fixed when the solver is built: one float32 regret and one float64 strategy sum per
(decision node, bucket, action) of the abstract tree (``BettingTree.slot_offsets``). The sums
are float64 because a float32 sum past 2^24 times a small probability drops that probability's
adds entirely (0.01 vanishes on a sum of 400,000), which would erase rare actions. Work runs in
batches of sampled deals on all cores (``mccfr_kernels.run_batch``). As in Pluribus, the early
iterations are discounted linearly: every ``discount_every`` iterations up to ``linear_until``,
regrets and strategy sums are multiplied by ``k / (k + 1)`` (k intervals so far), which weighs
iteration t by about t; after ``prune_after`` iterations the traverser skips actions whose regret
has sunk below ``prune_below``, 95% of the time.

Batch b's deals and random streams come from ``(seed, b)`` alone, so a run resumed from a
checkpoint continues exactly as it would have (bit for bit on one thread; on two, lock-free
updates make runs differ by noise).
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from solvers.abstraction.betting_tree import DECISION, BettingTree
from solvers.algorithms.blueprint_deals import DealSource
from solvers.algorithms.options import SolverError
from solvers.atomic import atomic_write
from solvers.errors import InputError
from solvers.file_reading import read_npz
from solvers.user_files import UserFileError

MAX_SLOTS = 300_000_000
"""The two arrays of this many slots take 3.6 GB: refuse bigger abstractions up front."""
REGRET_FLOOR = -3.0e8
CHECKPOINT_FORMAT = "pokertui-blueprint-checkpoint-1"


MAX_CHECKPOINT_BYTES = 8 << 30
"""Far above a 100 M-slot abstraction's two float arrays."""


class CheckpointError(InputError):
    """A checkpoint that is corrupt, foreign or from another run."""


@dataclass(frozen=True)
class MccfrOptions:
    batch: int = 2048
    """Deals per compiled call (each deal is traversed by both seats)."""
    seed: int = 0
    prune_after: int = 2_000_000
    prune_below: float = -2.0e6
    prune_probability: float = 0.95
    linear_until: int = 20_000_000
    discount_every: int = 500_000

    def __post_init__(self) -> None:
        if not 1 <= self.batch <= 1_000_000:
            raise InputError("batch must be between 1 and 1,000,000 deals")
        if not 0 <= self.seed < 2**63:
            raise InputError("seed must be a non-negative integer below 2^63")
        if not 0.0 <= self.prune_probability <= 1.0:
            raise InputError("prune_probability must be between 0 and 1")
        if self.prune_after < 0 or self.linear_until < 0 or self.discount_every < 1:
            raise InputError("prune_after and linear_until >= 0, discount_every >= 1")


class BlueprintMCCFR:
    """MCCFR over ``tree`` with deals from ``deals``; ``run`` continues where it stopped."""

    def __init__(self, tree: BettingTree, deals: DealSource, options: MccfrOptions,
                 identity: str = "") -> None:  # fmt: skip
        self.tree = tree
        self.deals = deals
        self.options = options
        self.identity = identity
        """What the run is (game, betting, cards); a checkpoint must match it to resume."""
        self.offsets, slots = tree.slot_offsets(deals.n_buckets)
        if slots > MAX_SLOTS:
            raise InputError(f"the abstraction needs {slots:,} regret slots; at most {MAX_SLOTS:,}")
        self.regret = np.zeros(slots, dtype=np.float32)
        self.strategy_sum = np.zeros(slots, dtype=np.float64)
        self.iterations = 0
        self.batches = 0
        self.elapsed_seconds = 0.0
        self.value_sum = 0.0
        """Sum of seat 0's sampled root values (an estimate of the game value)."""
        self.max_depth = _max_depth(tree)

    @property
    def slots(self) -> int:
        return int(self.regret.shape[0])

    # --- running ---------------------------------------------------------------------------
    def run(self, iterations: int | None = None, seconds: float | None = None) -> BlueprintMCCFR:
        """At least one batch; then until ``iterations`` more deals or ``seconds`` have passed."""
        started = time.perf_counter()
        target = None if iterations is None else self.iterations + iterations
        opts = self.options
        while True:
            n = opts.batch if target is None else min(opts.batch, target - self.iterations)
            if n <= 0:
                break
            prune = self.iterations >= opts.prune_after
            self.value_sum += self.sample_batch(self.batches, n, prune)
            before = self.iterations
            self.iterations += n
            self.batches += 1
            self.discount(before)
            if seconds is not None and time.perf_counter() - started >= seconds:
                break
            if target is None and seconds is None:
                break
        self.elapsed_seconds += time.perf_counter() - started
        return self

    def sample_batch(self, index: int, n: int, prune: bool) -> float:
        """Batch ``index``: ``n`` deals and their random streams from ``(seed, index)`` alone,
        traversed by both seats into the regrets and strategy sums (no counter moves); returns
        the sum of seat 0's sampled root values."""
        from solvers.algorithms import mccfr_kernels  # noqa: PLC0415 - numba loads on use

        tree, opts = self.tree, self.options
        rng = np.random.default_rng([opts.seed, index])
        buckets, winners = self.deals.sample(n, rng)
        seeds = rng.integers(1, 2**63, size=n, dtype=np.int64).astype(np.uint64)
        value = mccfr_kernels.run_batch(
            buckets, winners, seeds, 0, tree.kind, tree.player, tree.street, tree.amount,
            tree.edge_start, tree.n_actions, tree.edge_child, self.offsets, self.regret,
            self.strategy_sum, self.max_depth, prune, opts.prune_below, opts.prune_probability,
            REGRET_FLOOR,
        )  # fmt: skip
        return float(value)

    def discount(self, before: int) -> None:
        """The linear discount owed when the iteration count went from ``before`` to now: a
        count that reached a multiple of ``discount_every`` (up to ``linear_until``) scales the
        regrets and sums by ``k / (k + 1)``."""
        every, until = self.options.discount_every, self.options.linear_until
        k = min(self.iterations, until) // every
        if k > min(before, until) // every and k >= 1:
            self.regret *= np.float32(k / (k + 1.0))
            self.strategy_sum *= k / (k + 1.0)

    # --- strategies ------------------------------------------------------------------------
    def node_rows(self, node: int, source: str = "average") -> np.ndarray:
        """``[buckets, actions]`` probabilities at a decision node: the average strategy (rows
        never reached fall back to the current one), or the current (regret matching) one."""
        if self.tree.kind[node] != DECISION:
            raise ValueError(f"node {node} is not a decision")
        na = int(self.tree.n_actions[node])
        nb = self.deals.n_buckets[int(self.tree.street[node])]
        start = int(self.offsets[node])
        regret = self.regret[start : start + nb * na].reshape(nb, na).astype(np.float64)
        positive = np.maximum(regret, 0.0)
        total = positive.sum(axis=1, keepdims=True)
        current = np.where(total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / na)
        if source == "current":
            return current
        sums = self.strategy_sum[start : start + nb * na].reshape(nb, na).astype(np.float64)
        mass = sums.sum(axis=1, keepdims=True)
        return np.where(mass > 0, sums / np.where(mass > 0, mass, 1.0), current)

    def all_rows(self, source: str = "average") -> np.ndarray:
        """Every slot's probability, laid out like the regrets (for the blueprint file)."""
        out = np.zeros(self.slots, dtype=np.float32)
        for node in self.tree.decisions:
            rows = self.node_rows(int(node), source)
            start = int(self.offsets[node])
            out[start : start + rows.size] = rows.ravel()
        return out

    @property
    def mean_value(self) -> float:
        return self.value_sum / self.iterations if self.iterations else 0.0

    # --- checkpoints -----------------------------------------------------------------------
    def save_checkpoint(self, path: str | os.PathLike[str]) -> Path:
        state = {
            "format": np.array(CHECKPOINT_FORMAT),
            "identity": np.array(self._identity()),
            "regret": self.regret,
            "strategy_sum": self.strategy_sum,
            "counters": np.array([self.iterations, self.batches], dtype=np.int64),
            "floats": np.array([self.elapsed_seconds, self.value_sum]),
        }
        atomic_write(path, lambda handle: np.savez(handle, **state))  # type: ignore[arg-type]
        return Path(path)

    def load_checkpoint(self, path: str | os.PathLike[str]) -> None:
        try:
            state = read_npz(path, "checkpoint", MAX_CHECKPOINT_BYTES, 2 * MAX_CHECKPOINT_BYTES)
        except UserFileError as exc:
            raise CheckpointError(f"cannot resume from {path}: {exc.reason}") from None
        if str(state.get("format", "")) != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{path} is not a blueprint checkpoint")
        if str(state.get("identity", "")) != self._identity():
            raise CheckpointError(f"{path} is a checkpoint of another run: {state.get('identity')}")
        for name in ("regret", "strategy_sum"):
            array = state.get(name)
            expected = getattr(self, name).dtype
            if array is None or array.shape != (self.slots,) or array.dtype != expected:
                raise CheckpointError(f"{path}: {name} does not fit this abstraction")
            if not np.isfinite(array).all():
                raise CheckpointError(f"{path}: {name} holds non-finite numbers")
        counters, floats = state.get("counters"), state.get("floats")
        if counters is None or counters.shape != (2,) or floats is None or floats.shape != (2,):
            raise CheckpointError(f"{path}: counters missing")
        self.regret[:] = state["regret"]
        self.strategy_sum[:] = state["strategy_sum"]
        self.iterations, self.batches = (int(c) for c in counters)
        self.elapsed_seconds, self.value_sum = (float(f) for f in floats)

    def _identity(self) -> str:
        return f"{self.identity} | deals={self.deals.spec} | {asdict(self.options)}"


def _max_depth(tree: BettingTree) -> int:
    """The most decisions on any path (scratch rows the kernel needs)."""
    depth = np.zeros(tree.n_nodes, dtype=np.int64)
    # depth-first numbering: every child comes after its parent
    for node in range(tree.n_nodes):
        start, count = int(tree.edge_start[node]), int(tree.n_actions[node])
        if count:
            depth[tree.edge_child[start : start + count]] = depth[node] + 1
    return int(depth.max()) + 1


def refuse_tree_game(game, **options):
    """The registry's factory for ``mccfr``: it solves only the full game, which
    ``pokertui solve 'hunl(...)' --algo mccfr`` routes to ``runs/blueprint_build.py``."""
    raise SolverError(
        f"mccfr solves the full game: give hunl(stack_bb=...), not {game.spec_string()}"
    )
