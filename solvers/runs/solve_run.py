"""One solver run from start to strategy file: chunks, progress events, checkpoints, stopping.

``execute`` is what ``pokertui solve`` runs in its own process. It builds the solver, resumes
from the checkpoint if asked, runs in short chunks, and after each chunk emits a progress event
(a dict, printed by the caller as a JSON line) with the exact exploitability. It stops at the
iteration budget, the time budget, the target exploitability or when ``should_stop()`` says so
(Ctrl-C or a cancel from the TUI); then it writes a checkpoint and, unless interrupted, the
strategy file. Both are written atomically, so a crash never leaves half a file and never
touches the previous good output.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.errors import InputError
from solvers.games import load_game
from solvers.strategy_file import SolverInfo, save_strategy

Emit = Callable[[dict[str, Any]], None]

NON_ITERATIVE = ("lp",)


@dataclass
class RunSpec:
    game: str
    algo: str
    out: Path
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int | None = None
    seconds: float | None = None
    target: float | None = None
    """Target exploitability in chips."""
    target_pot_percent: float | None = None
    """Target exploitability in percent of the starting pot (``--target 0.3%``)."""
    checkpoint: Path | None = None
    report_seconds: float = 0.5
    """Emit a progress event (with an exact exploitability) about this often."""
    lock: Path | None = None
    """A lock file (partial readable strategy) whose nodes stay fixed while the rest is solved."""

    def __post_init__(self) -> None:
        self.out = Path(self.out)
        if self.checkpoint is None:
            self.checkpoint = self.out.with_name(self.out.name + ".ckpt.npz")
        if self.algo not in NON_ITERATIVE and (
            self.iterations is None
            and self.seconds is None
            and self.target is None
            and self.target_pot_percent is None
        ):
            raise InputError("give a stopping rule: --iterations, --seconds or --target")
        for name in ("iterations", "seconds", "target", "target_pot_percent"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise InputError(f"--{name} must be positive")
        from solvers.algorithms import ALGORITHMS  # noqa: PLC0415 - registers every algorithm

        if self.algo not in ALGORITHMS and self.algo not in NON_ITERATIVE:
            known = ", ".join(sorted([*ALGORITHMS, *NON_ITERATIVE]))
            raise InputError(f"unknown algorithm {self.algo!r}; known: {known}")
        if not self.out.parent.exists() or not self.out.parent.is_dir():
            raise InputError(f"cannot write {self.out}: folder {self.out.parent} does not exist")
        if self.lock is not None:
            self.lock = Path(self.lock)
            if not self.lock.is_file():
                raise InputError(f"lock file {self.lock} does not exist")
            from solvers.algorithms.full_width import VARIANTS  # noqa: PLC0415

            if self.algo not in VARIANTS:
                raise InputError(
                    f"--lock needs a full-width CFR algorithm ({', '.join(VARIANTS)}), "
                    f"not {self.algo!r}"
                )


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["alpha=1.5", "alternating=false"]`` to typed values (int, float, bool or text)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"options look like key=value, not {pair!r}")
        text = raw.strip()
        value: Any
        if text.lower() in ("true", "false"):
            value = text.lower() == "true"
        else:
            try:
                value = int(text)
            except ValueError:
                try:
                    value = float(text)
                except ValueError:
                    value = text
        options[key.strip().replace("-", "_")] = value
    return options


def pot_fields(game, exploitability: float, game_value: float) -> dict[str, float]:
    """Exploitability in % of the starting pot; for hold'em spots each seat's share of the pot
    (``ev_oop + ev_ip`` is the pot: the chips each put in plus their net value)."""
    pot = float(sum(game.root.contributions))
    fields: dict[str, float] = {}
    if pot > 0:
        fields["exploitability_pot_percent"] = 100.0 * exploitability / pot
    if game.name == "nlhe":
        put0, put1 = game.root.contributions
        fields["ev_oop"] = put0 + game_value
        fields["ev_ip"] = put1 - game_value
    return fields


def _progress(solver, started: float, event: str = "progress") -> dict[str, Any]:
    metrics = solver.metrics()
    extra = solver.progress_info() if hasattr(solver, "progress_info") else {}
    return {
        "event": event,
        **metrics.as_dict(),
        **pot_fields(solver.game, metrics.exploitability, metrics.game_value),
        "wall_seconds": time.perf_counter() - started,
        **extra,
    }


def execute(spec: RunSpec, emit: Emit, should_stop: Callable[[], bool], resume: bool = False):
    """Run to a stopping rule; returns the final event (``done`` or ``interrupted``)."""
    from solvers.algorithms import make_solver  # noqa: PLC0415 - registers every algorithm

    game = load_game(spec.game)
    if spec.target_pot_percent is not None:
        spec.target = spec.target_pot_percent / 100.0 * float(sum(game.root.contributions))
    started = time.perf_counter()
    if spec.algo in NON_ITERATIVE:
        return _execute_lp(spec, game, emit, started)
    if spec.lock is not None:
        from solvers.algorithms.locked_cfr import make_locked_solver  # noqa: PLC0415
        from solvers.strategy_file.locks import load_locks  # noqa: PLC0415

        locks, record = load_locks(spec.lock, game)
        solver = make_locked_solver(game, spec.algo, locks, record, **spec.options)
    else:
        solver = make_solver(game, spec.algo, **spec.options)
    assert spec.checkpoint is not None
    if resume:
        if not spec.checkpoint.exists():
            raise InputError(f"nothing to resume: no checkpoint at {spec.checkpoint}")
        solver.load_checkpoint(spec.checkpoint)
        emit({"event": "resumed", "checkpoint": str(spec.checkpoint), **solver.metrics().as_dict()})
    memory = {"memory_mb": game.memory_estimate_mb} if hasattr(game, "memory_estimate_mb") else {}
    emit(
        {
            "event": "started",
            "game": game.spec_string(),
            "algo": spec.algo,
            **memory,
            **spec.options,
        }
    )
    chunk = 1
    reason = "iterations"
    while True:
        if spec.iterations is not None and solver.iterations >= spec.iterations:
            break
        if spec.seconds is not None and solver.elapsed_seconds >= spec.seconds:
            reason = "seconds"
            break
        if should_stop():
            solver.save_checkpoint(spec.checkpoint)
            event = {
                **_progress(solver, started, "interrupted"),
                "checkpoint": str(spec.checkpoint),
            }
            emit(event)
            return event
        budget = chunk
        if spec.iterations is not None:
            budget = min(budget, spec.iterations - solver.iterations)
        remaining = None if spec.seconds is None else spec.seconds - solver.elapsed_seconds
        tick = time.perf_counter()
        solver.run(iterations=budget, seconds=remaining)
        took = time.perf_counter() - tick
        measuring = time.perf_counter()
        progress = _progress(solver, started)
        measured = time.perf_counter() - measuring
        # grow or shrink chunks so a progress event comes about every report_seconds, and so
        # that the exact exploitability (seconds on a big hold'em tree) stays under a fifth
        # of the run
        per_iteration = max(took, 1e-6) / max(budget, 1)
        wanted = max(spec.report_seconds, 4.0 * measured)
        chunk = max(1, min(chunk * 4, int(wanted / per_iteration)))
        emit(progress)
        if spec.target is not None and progress["exploitability"] <= spec.target:
            reason = "target"
            break
    solver.save_checkpoint(spec.checkpoint)
    info = SolverInfo(
        algorithm=spec.algo,
        settings={k: v for k, v in solver.settings().items() if k != "algorithm"},
        iterations=solver.iterations,
        seed=spec.options.get("seed"),
    )
    saved = save_strategy(spec.out, game, solver.strategy(), solver=info)
    metrics = solver.metrics().as_dict()
    if spec.lock is not None:  # the locked game's gap; the file's own is reported beside it
        metrics["exploitability_unlocked"] = saved.measured.exploitability
    else:
        metrics["exploitability"] = saved.measured.exploitability  # of the rounded file
    metrics.update(pot_fields(game, metrics["exploitability"], saved.measured.game_value))
    event = {
        "event": "done",
        **metrics,
        "file_bytes": spec.out.stat().st_size,
        "stopped_by": reason,
        "out": str(spec.out),
        "checkpoint": str(spec.checkpoint),
    }
    emit(event)
    return event


def _execute_lp(spec: RunSpec, game, emit: Emit, started: float):
    from solvers.exact.lp import solve_lp  # noqa: PLC0415

    emit({"event": "started", "game": game.spec_string(), "algo": "lp"})
    solution = solve_lp(game)
    saved = save_strategy(
        spec.out,
        game,
        solution.strategy,
        solver=SolverInfo(algorithm="lp", settings={"method": "sequence-form, HiGHS"}),
    )
    event = {
        "event": "done",
        "iterations": 1,
        "seconds": solution.seconds,
        "ms_per_iteration": 1000 * solution.seconds,
        "exploitability": saved.measured.exploitability,
        "game_value": saved.measured.game_value,
        **pot_fields(game, saved.measured.exploitability, saved.measured.game_value),
        "wall_seconds": time.perf_counter() - started,
        "stopped_by": "exact",
        "out": str(spec.out),
    }
    emit(event)
    return event
