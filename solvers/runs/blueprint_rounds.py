"""The blueprint's MCCFR on several workers, in rounds (``build-bots --workers N``, ``--backend``).

A round: the driver broadcasts its regrets (the snapshot: the traversal reads regrets only, so
the strategy sums stay at the driver), each worker runs its share of the round's batches on a
trainer of its own that starts from the snapshot with zero strategy sums, and returns what it
added (``Delta``: regret change, strategy-sum adds, deals, seat 0's summed values). The driver
adds the deltas in worker order, floors the regrets, and applies the linear discount owed at the
new iteration count. A round ends early at a schedule boundary (``prune_after``, a multiple of
``discount_every`` up to ``linear_until``) so that pruning and discounts start where one process
would start them.

Batch indices are handed out in order: batch ``b``'s deals come from ``(seed, b)`` as in the
single-process loop, so every worker samples different deals and a round's work is fixed by the
trainer's counters, the worker count and the round size. A Ray worker holds one core and a local
worker its share of the cores (``parallel/backends.py``); on one thread its deltas are
reproducible bit for bit, so a run on ``N`` local workers with ``N`` cores equals one on ``N`` Ray
workers. A delta carries only the slots its share touched when that is smaller. A failed share
(its task raised, its worker died) is lost: the round merges the others, the iteration count
grows by the merged deals only, and the lost batch indices are not dealt again. The checkpoint
is the single-process trainer's, so a run resumes on either backend and with any worker count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from solvers.algorithms.blueprint_mccfr import REGRET_FLOOR, BlueprintMCCFR, MccfrOptions
from solvers.errors import InputError
from solvers.parallel.backends import WorkerPool

ROUND_BATCHES = 8
"""Batches each worker runs per round unless told otherwise."""
MAX_EMPTY_ROUNDS = 3
"""Rounds in a row whose every batch failed before the run gives up."""


@dataclass(frozen=True)
class TrainerRecipe:
    """How each worker builds the driver's trainer: a module-level function and its picklable
    arguments (``blueprint_build.make_trainer`` and a ``BlueprintSpec``)."""

    make: Callable[..., BlueprintMCCFR]
    args: tuple = ()

    def key(self) -> str:
        return f"{self.make.__module__}.{self.make.__qualname__}{self.args!r}"


@dataclass(frozen=True)
class Share:
    """One worker's part of a round: ``(batch index, deals)`` pairs, and whether to prune."""

    batches: tuple[tuple[int, int], ...]
    prune: bool

    @property
    def deals(self) -> int:
        return sum(n for _, n in self.batches)


@dataclass
class Delta:
    """What a worker's share added to the snapshot, at the slots it touched when that is
    smaller than two dense arrays (a short share reaches a fraction of the slots)."""

    slots: np.ndarray | None
    """int32: the slots whose regret or strategy sum the share changed, ascending; None: all."""
    regret: np.ndarray
    """float32: the regrets after the share minus the snapshot, at ``slots``."""
    strategy_sum: np.ndarray
    """float64: the share's strategy-sum adds, at ``slots``."""
    iterations: int
    value_sum: float
    seconds: float
    """The worker's time on the share (its traversal, after the snapshot is in place)."""

    @property
    def nbytes(self) -> int:
        slots = 0 if self.slots is None else self.slots.nbytes
        return int(slots + self.regret.nbytes + self.strategy_sum.nbytes)

    def dense(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """The regret change and strategy-sum adds as arrays over all ``size`` slots."""
        if self.slots is None:
            return self.regret, self.strategy_sum
        regret = np.zeros(size, dtype=np.float32)
        sums = np.zeros(size, dtype=np.float64)
        regret[self.slots] = self.regret
        sums[self.slots] = self.strategy_sum
        return regret, sums


_WORKER_TRAINER: dict[str, BlueprintMCCFR] = {}
"""The trainer this worker process built (one recipe at a time)."""


def worker_trainer(recipe: TrainerRecipe) -> BlueprintMCCFR:
    key = recipe.key()
    if key not in _WORKER_TRAINER:
        _WORKER_TRAINER.clear()
        _WORKER_TRAINER[key] = recipe.make(*recipe.args)
    return _WORKER_TRAINER[key]


def run_share(snapshot: np.ndarray, recipe: TrainerRecipe, share: Share) -> Delta:
    """A worker's task: the share's batches from the snapshot's regrets; returns its delta."""
    trainer = worker_trainer(recipe)
    if snapshot.shape != trainer.regret.shape:
        raise InputError(f"the snapshot has {snapshot.size:,} slots, the trainer {trainer.slots:,}")
    trainer.regret[:] = snapshot
    trainer.strategy_sum[:] = 0.0
    started = time.perf_counter()
    value = 0.0
    for index, n in share.batches:
        value += trainer.sample_batch(index, n, share.prune)
    seconds = time.perf_counter() - started
    change = trainer.regret - snapshot
    sums = trainer.strategy_sum
    slots = np.flatnonzero((change != 0.0) | (sums != 0.0)).astype(np.int32)
    if slots.size * 16 >= change.size * 12:  # 4 + 4 + 8 bytes a touched slot, 4 + 8 a slot
        return Delta(None, change, sums.copy(), share.deals, value, seconds)
    return Delta(slots, change[slots], sums[slots], share.deals, value, seconds)


def next_boundary(iterations: int, options: MccfrOptions) -> int | None:
    """The next iteration count after ``iterations`` where pruning starts or a discount falls."""
    found = []
    if iterations < options.prune_after:
        found.append(options.prune_after)
    if iterations < options.linear_until:
        every = options.discount_every
        found.append(min((iterations // every + 1) * every, options.linear_until))
    return min(found) if found else None


def plan_round(trainer: BlueprintMCCFR, workers: int, per_worker: int,
               target: int | None = None) -> list[Share]:  # fmt: skip
    """The next round's shares: up to ``per_worker`` deals for each of ``workers``, fewer at the
    target or a schedule boundary, in batches of the trainer's batch size with consecutive
    indices from ``trainer.batches``; workers left without deals get no share."""
    opts = trainer.options
    total = per_worker * workers
    if target is not None:
        total = min(total, target - trainer.iterations)
    boundary = next_boundary(trainer.iterations, opts)
    if boundary is not None:
        total = min(total, boundary - trainer.iterations)
    if total <= 0:
        return []
    prune = trainer.iterations >= opts.prune_after
    base, extra = divmod(total, workers)
    shares, index = [], trainer.batches
    for w in range(workers):
        deals = base + (1 if w < extra else 0)
        batches = []
        while deals > 0:
            n = min(opts.batch, deals)
            batches.append((index, n))
            index += 1
            deals -= n
        if batches:
            shares.append(Share(tuple(batches), prune))
    return shares


def merge(trainer: BlueprintMCCFR, deltas: list[Delta], batches: int) -> None:
    """Add the deltas (in the order given) to the trainer, floor the regrets, move the counters
    (``batches``: every index the round handed out, merged or lost) and discount."""
    before = trainer.iterations
    for delta in deltas:
        if delta.slots is None:
            trainer.regret += delta.regret
            trainer.strategy_sum += delta.strategy_sum
        else:
            trainer.regret[delta.slots] += delta.regret
            trainer.strategy_sum[delta.slots] += delta.strategy_sum
        trainer.iterations += delta.iterations
        trainer.value_sum += delta.value_sum
    np.maximum(trainer.regret, np.float32(REGRET_FLOOR), out=trainer.regret)
    trainer.batches += batches
    trainer.discount(before)


@dataclass
class RoundReport:
    """What one round did, for progress events and the benchmark."""

    iterations: int
    """Deals merged."""
    lost: int
    """Deals of the shares not merged: failed, or abandoned at a stop."""
    errors: list[str]
    seconds: float
    """The round's wall time at the driver."""
    worker_seconds: list[float]
    """Each merged share's traversal time."""
    merge_seconds: float
    """The driver's time adding the deltas."""
    delta_bytes: int


@dataclass
class RoundTrainer:
    """The driver: ``run`` continues the trainer in rounds on ``pool``."""

    trainer: BlueprintMCCFR
    pool: WorkerPool
    recipe: TrainerRecipe
    per_worker: int | None = None
    """Deals per worker per round (default ``ROUND_BATCHES`` batches)."""
    task: Callable[..., Delta] = run_share
    """What each worker runs: ``task(snapshot, recipe, share) -> Delta``."""
    on_failure: Callable[[str, int], None] = lambda error, deals: None
    rounds: list[RoundReport] = field(default_factory=list)
    empty_rounds: int = 0

    def __post_init__(self) -> None:
        if self.per_worker is None:
            self.per_worker = ROUND_BATCHES * self.trainer.options.batch
        if self.per_worker < 1:
            raise InputError("a round needs at least one iteration per worker")

    @property
    def workers(self) -> int:
        return self.pool.workers

    def round(self, target: int | None = None,
              stop: Callable[[], bool] | None = None) -> RoundReport | None:  # fmt: skip
        """One round; None when the target is reached (nothing to plan)."""
        trainer = self.trainer
        assert self.per_worker is not None
        shares = plan_round(trainer, self.workers, self.per_worker, target)
        if not shares:
            return None
        started = time.perf_counter()
        outcomes: dict[int, Delta] = {}
        errors: list[str] = []
        items = [(self.recipe, share) for share in shares]
        for index, outcome in self.pool.run(self.task, items, shared=trainer.regret,
                                            with_shared=True, stop=stop):  # fmt: skip
            if outcome.ok and isinstance(outcome.value, Delta):
                outcomes[index] = outcome.value
            else:
                error = outcome.error or f"unexpected result {type(outcome.value).__name__}"
                errors.append(error)
                self.on_failure(error, shares[index].deals)
        deltas = [outcomes[i] for i in sorted(outcomes)]
        lost = sum(share.deals for i, share in enumerate(shares) if i not in outcomes)
        merge_started = time.perf_counter()
        merge(trainer, deltas, sum(len(s.batches) for s in shares))
        merged = time.perf_counter()
        report = RoundReport(
            iterations=sum(d.iterations for d in deltas),
            lost=lost,
            errors=errors,
            seconds=merged - started,
            worker_seconds=[d.seconds for d in deltas],
            merge_seconds=merged - merge_started,
            delta_bytes=sum(d.nbytes for d in deltas),
        )
        trainer.elapsed_seconds += report.seconds
        self.rounds.append(report)
        self.empty_rounds = 0 if deltas else self.empty_rounds + 1
        if self.empty_rounds >= MAX_EMPTY_ROUNDS and not (stop is not None and stop()):
            raise WorkersFailed(
                f"every worker failed in {self.empty_rounds} rounds in a row: "
                f"{(errors or ['no result'])[0]}"
            )
        return report

    def run(self, iterations: int | None = None, seconds: float | None = None,
            stop: Callable[[], bool] | None = None) -> RoundTrainer:  # fmt: skip
        """At least one round; then until ``iterations`` more deals are merged, ``seconds``
        have passed or ``stop()``."""
        started = time.perf_counter()
        target = None if iterations is None else self.trainer.iterations + iterations
        while True:
            if self.round(target, stop) is None:
                break
            if stop is not None and stop():
                break
            if seconds is not None and time.perf_counter() - started >= seconds:
                break
            if target is None and seconds is None:
                break
        return self


class WorkersFailed(InputError):
    """Every worker failed, round after round (a cluster gone, a broken install); the merged
    rounds stay in the checkpoint."""
