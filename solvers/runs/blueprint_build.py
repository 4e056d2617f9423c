"""Training a full-game blueprint: the process-side loop with progress, checkpoints and a clock.

``train`` builds the abstract tree and the card abstraction from a ``BlueprintSpec``, resumes
from the checkpoint when one of the same run exists, runs MCCFR in short chunks, emits a
progress event (a dict, printed as a JSON line by the caller) after each, writes the
checkpoint every ``checkpoint_seconds`` (so a kill loses at most that much work) and stops at
the iteration or time budget or when ``should_stop()`` says so. Then it writes a last
checkpoint and the blueprint file (``strategy_file/blueprint_file.py``). Rerunning the same
command continues the run.

On one local worker the loop runs in this process (the kernel's batches over all cores). On
several workers, or on Ray, it runs in rounds on a ``parallel.backends.WorkerPool``
(``blueprint_rounds.py``); the checkpoint is the same, so a run resumes on either backend and
with any worker count.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solvers.abstraction.betting import DEFAULT_BETTING, parse_betting
from solvers.abstraction.betting_tree import DECISION, build_tree, root_state
from solvers.abstraction.buckets import parse_abstraction
from solvers.algorithms.blueprint_deals import RandomDeals
from solvers.algorithms.blueprint_mccfr import BlueprintMCCFR, MccfrOptions
from solvers.atomic import check_output_path
from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig
from solvers.parallel.backends import WorkerPool, check_backend
from solvers.runs.blueprint_rounds import RoundTrainer, TrainerRecipe, WorkersFailed
from solvers.strategy_file.blueprint_file import quantise_rows, write_blueprint

Emit = Callable[[dict[str, Any]], None]
DEFAULT_CARDS = "hs2(flop=50,turn=50,river=50)"


@dataclass(frozen=True)
class BlueprintSpec:
    """What a blueprint is: the game, both abstractions and the solver's options."""

    stack_bb: float = 100.0
    betting: str = DEFAULT_BETTING
    cards: str = DEFAULT_CARDS
    options: MccfrOptions = field(default_factory=MccfrOptions)

    def config(self) -> HunlConfig:
        return HunlConfig(stack_bb=self.stack_bb)

    @property
    def game(self) -> str:
        return f"hunl(stack_bb={self.stack_bb:g})"

    def identity(self) -> str:
        betting = parse_betting(self.betting).spec
        cards = parse_abstraction(self.cards).spec
        return f"{self.game} | betting={betting} | cards={cards}"


def make_trainer(
    spec: BlueprintSpec, progress: Callable[[str], None] | None = None
) -> BlueprintMCCFR:
    betting = parse_betting(spec.betting)
    cards = parse_abstraction(spec.cards)
    cards.prepare(progress)
    tree = build_tree(betting, root_state(spec.config()))
    return BlueprintMCCFR(tree, RandomDeals(cards), spec.options, spec.identity())


def train(
    spec: BlueprintSpec,
    out: Path,
    checkpoint: Path,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    checkpoint_seconds: float = 120.0,
    report_seconds: float = 30.0,
    emit: Emit = lambda event: None,
    should_stop: Callable[[], bool] = lambda: False,
    resume: bool = True,
    workers: int | None = 1,
    backend: str = "local",
    address: str | None = None,
    round_iterations: int | None = None,
    pool: WorkerPool | None = None,
) -> BlueprintMCCFR:
    """Run (or continue, when ``resume`` and the checkpoint exists) the blueprint's solve;
    returns the trainer after writing ``out``.

    ``workers`` (None: one per core) on ``backend`` (``address``: a Ray cluster to join): one
    local worker is this process; more, or Ray, train in rounds of ``round_iterations`` deals
    per worker (``blueprint_rounds.py``). ``pool``: workers already running (kept open)."""
    if iterations is None and seconds is None:
        raise InputError("give a stopping rule: iterations or seconds")
    check_output_path(out, "--out")
    check_output_path(checkpoint, "--checkpoint")
    if Path(out).resolve() == Path(checkpoint).resolve():
        raise InputError("--out and --checkpoint must be different files")
    check_backend(backend, workers, address)
    if round_iterations is not None and round_iterations < 1:
        raise InputError("--round-iterations must be at least 1")
    started = time.perf_counter()
    if pool is not None or (backend == "local" and (workers or os.cpu_count() or 1) == 1):
        return _train(spec, out, checkpoint, started, pool, round_iterations, iterations=iterations,
                      seconds=seconds, checkpoint_seconds=checkpoint_seconds,
                      report_seconds=report_seconds, emit=emit, should_stop=should_stop,
                      resume=resume)  # fmt: skip
    with WorkerPool(backend, workers, address) as owned:  # before the tables: fail fast
        return _train(spec, out, checkpoint, started, owned, round_iterations,
                      iterations=iterations, seconds=seconds,
                      checkpoint_seconds=checkpoint_seconds, report_seconds=report_seconds,
                      emit=emit, should_stop=should_stop, resume=resume)  # fmt: skip


def _train(
    spec: BlueprintSpec,
    out: Path,
    checkpoint: Path,
    started: float,
    pool: WorkerPool | None,
    round_iterations: int | None,
    *,
    iterations: int | None,
    seconds: float | None,
    checkpoint_seconds: float,
    report_seconds: float,
    emit: Emit,
    should_stop: Callable[[], bool],
    resume: bool,
) -> BlueprintMCCFR:
    trainer = make_trainer(spec, lambda text: emit({"event": "prepare", "message": text}))
    if resume and checkpoint.exists():
        trainer.load_checkpoint(checkpoint)
        emit({"event": "resumed", "iterations": trainer.iterations})
    rounds = None
    if pool is not None:
        rounds = RoundTrainer(
            trainer, pool, TrainerRecipe(make_trainer, (spec,)), round_iterations,
            on_failure=lambda error, deals: emit(
                {"event": "worker_failed", "error": error, "lost_iterations": deals}
            ),
        )  # fmt: skip
    target = None if iterations is None else trainer.iterations + iterations
    last_checkpoint = time.perf_counter()
    emit({"event": "start", "slots": trainer.slots, "nodes": trainer.tree.n_nodes,
          "buckets": list(trainer.deals.n_buckets), "identity": trainer.identity,
          "workers": 1 if pool is None else pool.workers,
          "backend": "local" if pool is None else pool.backend})  # fmt: skip
    try:
        while not should_stop():
            left = None if seconds is None else seconds - (time.perf_counter() - started)
            out_of_time = left is not None and left <= 0
            if out_of_time or (target is not None and trainer.iterations >= target):
                break
            chunk = report_seconds if left is None else min(report_seconds, left)
            done_before, step_started = trainer.iterations, time.perf_counter()
            more = None if target is None else target - trainer.iterations
            if rounds is None:
                trainer.run(iterations=more, seconds=chunk)
            else:
                rounds.run(iterations=more, seconds=chunk, stop=should_stop)
            event = _progress(trainer, done_before, time.perf_counter() - step_started)
            if rounds is not None:
                event["workers"] = rounds.workers
                event["lost_iterations"] = sum(r.lost for r in rounds.rounds)
            emit(event)
            if time.perf_counter() - last_checkpoint >= checkpoint_seconds:
                trainer.save_checkpoint(checkpoint)
                last_checkpoint = time.perf_counter()
                emit({"event": "checkpoint", "iterations": trainer.iterations})
    except WorkersFailed:
        trainer.save_checkpoint(checkpoint)  # the merged rounds are kept: rerun to continue
        raise
    trainer.save_checkpoint(checkpoint)
    export(trainer, spec, out)
    emit({"event": "interrupted" if should_stop() else "done", "iterations": trainer.iterations,
          "seconds": trainer.elapsed_seconds, "out": str(out), "checkpoint": str(checkpoint),
          "bytes": out.stat().st_size})  # fmt: skip
    return trainer


OPTION_TYPES = {"batch": int, "prune_after": int, "prune_below": float,
                "prune_probability": float, "linear_until": int, "discount_every": int}  # fmt: skip


def spec_from_options(stack_bb: float, options: dict[str, Any], seed: int | None) -> BlueprintSpec:
    """A ``BlueprintSpec`` from ``pokertui solve 'hunl(...)' --opt key=value`` pairs: ``betting``,
    ``cards`` and the solver's numbers (``OPTION_TYPES``); ``InputError`` for anything else."""
    known = ("betting", "cards", *OPTION_TYPES)
    numbers: dict[str, Any] = {}
    options = {key: value for key, value in options.items() if value is not None}
    for key, value in options.items():
        if key not in known:
            raise InputError(f"unknown option {key!r} for the full game; known: {', '.join(known)}")
        if key in OPTION_TYPES:
            try:
                numbers[key] = OPTION_TYPES[key](value)
            except ValueError:
                raise InputError(f"option {key} must be a number, not {value!r}") from None
    if seed is not None:
        numbers["seed"] = seed
    spec = BlueprintSpec(
        stack_bb=stack_bb,
        betting=options.get("betting", DEFAULT_BETTING),
        cards=options.get("cards", DEFAULT_CARDS),
        options=MccfrOptions(**numbers),
    )
    spec.identity()  # parses both abstractions now: a typo fails before any work
    return spec


def _progress(trainer: BlueprintMCCFR, before: int, wall: float) -> dict[str, Any]:
    return {
        "event": "progress",
        "iterations": trainer.iterations,
        "seconds": round(trainer.elapsed_seconds, 1),
        "iterations_per_second": round((trainer.iterations - before) / max(wall, 1e-9)),
        "sampled_value_sb": round(trainer.mean_value, 2),
    }


def export(trainer: BlueprintMCCFR, spec: BlueprintSpec, out: Path,
           extra: dict[str, Any] | None = None) -> Path:  # fmt: skip
    """Write the average strategy, quantised, with a header that rebuilds everything."""
    tree = trainer.tree
    decisions = tree.decisions
    rows = np.asarray(trainer.deals.n_buckets)[tree.street[decisions].astype(np.int64)]
    lengths = np.repeat(tree.n_actions[decisions].astype(np.int64), rows)
    strategy = quantise_rows(trainer.all_rows("average"), lengths)
    opts = spec.options
    header = {
        "game": spec.game,
        "stack_bb": spec.stack_bb,
        "blinds": [spec.config().small_blind, spec.config().big_blind],
        "betting": parse_betting(spec.betting).spec,
        "cards": parse_abstraction(spec.cards).spec,
        "n_buckets": list(trainer.deals.n_buckets),
        "nodes": tree.n_nodes,
        "decision_nodes": int((tree.kind == DECISION).sum()),
        "iterations": trainer.iterations,
        "seconds": round(trainer.elapsed_seconds, 1),
        "seed": opts.seed,
        "solver": {
            "algorithm": "linear external-sampling MCCFR with pruning",
            "options": {k: v for k, v in vars(opts).items()},
        },  # fmt: skip
        "lbr": {},
        **(extra or {}),
    }
    return write_blueprint(out, header, strategy)


@dataclass(frozen=True)
class ShippedBlueprint:
    """A blueprint in ``strategies/``, rebuilt by ``pokertui build-bots --part hunl``."""

    filename: str
    spec: BlueprintSpec
    seconds: float
    """The training budget (the issue allows two hours each on this machine)."""
    title: str

    @property
    def checkpoint_name(self) -> str:
        return self.filename.removesuffix(".npz") + ".ckpt.npz"


SHIPPED_BETTING = (
    "pre=2.5x,a|3x,a|2.2x,a|a; flop=33%,75%,a|100%,a|a; turn=50%,100%,a|100%,a|a; "
    "river=50%,100%,a|100%,a|a"
)
SHIPPED_CARDS = "hs2(flop=50,turn=50,river=50)"
SHIPPED_OPTIONS = MccfrOptions(
    batch=8192, seed=1, prune_after=5_000_000, prune_below=-1.0e6, linear_until=10_000_000,
    discount_every=500_000,
)  # fmt: skip
"""50 buckets a street and early pruning and discounting: on this shared machine a two-hour run
gets tens of millions of iterations, not the hundreds a finer abstraction would need."""
SHIPPED_BLUEPRINTS: tuple[ShippedBlueprint, ...] = (
    ShippedBlueprint(
        "hunl_100bb.npz",
        BlueprintSpec(100.0, SHIPPED_BETTING, SHIPPED_CARDS, SHIPPED_OPTIONS),
        7000.0,
        "Heads-up no-limit hold'em, 100 bb",
    ),
    ShippedBlueprint(
        "hunl_200bb.npz",
        BlueprintSpec(200.0, SHIPPED_BETTING, SHIPPED_CARDS, SHIPPED_OPTIONS),
        7000.0,
        "Heads-up no-limit hold'em, 200 bb (the ACPC game)",
    ),
)


def export_checkpoint(spec: BlueprintSpec, checkpoint: Path, out: Path) -> BlueprintMCCFR:
    """Write the blueprint file of a run's last checkpoint, without training (the run may be
    going on: checkpoints are replaced atomically)."""
    if not checkpoint.exists():
        raise InputError(f"no checkpoint {checkpoint} to export")
    check_output_path(out, "--out")
    trainer = make_trainer(spec)
    trainer.load_checkpoint(checkpoint)
    export(trainer, spec, out)
    return trainer
