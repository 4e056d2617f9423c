"""One solver run from start to strategy file: chunks, progress events, checkpoints, stopping.

``execute`` is what ``pokertui solve`` runs in its own process. Everything a user gave is
checked before any work starts: the game, the algorithm and its options (``registry.py``), the
stopping rules and both output paths, so a long solve never loses its result to a typo at the
end. It then builds the solver, resumes from the checkpoint if asked, runs in short chunks and
after each chunk emits a progress event (a dict, printed by the caller as a JSON line) with the
exact exploitability. A checkpoint is written every ``checkpoint_seconds``, so a ``kill -9``
loses at most that much work. It stops at the iteration budget, the time budget, the target
exploitability or when ``should_stop()`` says so (Ctrl-C, or a cancel from the TUI); then it
writes a checkpoint and, unless interrupted, the strategy file. Both are written atomically
under unique temporary names, and a lock beside the output keeps two runs from writing the same
files at once.

A target is a promise: the file written is rounded, and if rounding to the usual 6 decimals
pushes the measured exploitability above ``--target``, it is rounded finer until it meets it;
the result says which precision was used and what rounding added.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solvers.algorithms.registry import (
    ALGORITHM_LIST,
    ITERATIVE,
    SolverError,
    get_algorithm,
    parse_cli_options,
)
from solvers.atomic import check_output_path, clean_stale_temps
from solvers.errors import InputError
from solvers.runs.run_lock import RunLock

if TYPE_CHECKING:
    from solvers.algorithms.base import Solver

Emit = Callable[[dict[str, Any]], None]

NON_ITERATIVE = ("lp",)
MAX_ITERATIONS = 10**12
MAX_SECONDS = 10**8
DEFAULT_CHECKPOINT_SECONDS = 60.0
TARGET_PRECISIONS = (6, 8, 10, 12)
SPARE_COPY_BYTES = 256 << 20
"""A compiled solve's strategy over this size is rounded in place (to 6 decimals only)."""
"""Decimals tried in turn until the written file meets ``--target``."""


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
    checkpoint_seconds: float = DEFAULT_CHECKPOINT_SECONDS
    """Write the checkpoint at least this often while solving."""
    lock: Path | None = None
    """A lock file (partial readable strategy) whose nodes stay fixed while the rest is solved."""

    def __post_init__(self) -> None:
        self.out = Path(self.out)
        if self.checkpoint is None:
            self.checkpoint = self.out.with_name(self.out.name + ".ckpt.npz")
        self.checkpoint = Path(self.checkpoint)
        algorithm = get_algorithm(self.algo)  # unknown names: a clear message
        if self.algo not in NON_ITERATIVE and (
            self.iterations is None
            and self.seconds is None
            and self.target is None
            and self.target_pot_percent is None
        ):
            raise InputError("give a stopping rule: --iterations, --seconds or --target")
        _check_number("iterations", self.iterations, 1, MAX_ITERATIONS, whole=True)
        _check_number("seconds", self.seconds, 0, MAX_SECONDS, open_low=True)
        _check_number("target", self.target, 0, 1e12, open_low=True)
        _check_number("target", self.target_pot_percent, 0, 1e6, open_low=True)
        _check_number("every", self.report_seconds, 0, 86_400)
        _check_number("checkpoint-every", self.checkpoint_seconds, 0, 10**7, open_low=True)
        if self.options and algorithm.name in NON_ITERATIVE:
            raise SolverError(f"{self.algo} takes no options")
        for key, value in self.options.items():
            option = algorithm.option(key)
            if option is None:
                raise SolverError(
                    f"bad options for {self.algo}: unknown option {key!r}; "
                    f"{algorithm.valid_options()}"
                )
            option.check(value)
        check_output_path(self.out, "--out")
        if self.algo in ITERATIVE:
            check_output_path(self.checkpoint, "--checkpoint")
            if _same_file(self.out, self.checkpoint):
                raise InputError("--out and --checkpoint must be different files")
        if self.lock is not None:
            self.lock = Path(self.lock)
            if not self.lock.is_file():
                raise InputError(f"lock file {self.lock} does not exist")
            if algorithm.attr != "FullWidthCFR":
                family = ", ".join(a.name for a in ALGORITHM_LIST if a.attr == "FullWidthCFR")
                raise InputError(f"--lock needs a full-width CFR algorithm ({family}), not "
                                 f"{self.algo!r}")  # fmt: skip


def _check_number(name, value, low, high, *, whole=False, open_low=False) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"--{name} must be a number, not {value!r}")
    if whole and not float(value).is_integer():
        raise InputError(f"--{name} must be a whole number")
    if not math.isfinite(value):
        raise InputError(f"--{name} must be a finite number, not {value}")
    if value < low or (open_low and value == low):
        raise InputError(f"--{name} must be positive" if open_low or whole else f"--{name} >= 0")
    if value > high:
        raise InputError(f"--{name} must be at most {high:g}")


def _same_file(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def parse_options(pairs: list[str], algo: str | None = None) -> dict[str, Any]:
    """``["alpha=1.5", "alternating=false"]`` to values typed and checked for ``algo``.

    Without ``algo``, only the ``key=value`` shape is checked and values are typed by their
    look (the TUI launcher does this; the solve process then checks them against ``algo``).
    """
    if algo is not None:
        return parse_cli_options(algo, pairs)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"options look like key=value, not {pair[:60]!r}")
        options[key.strip().replace("-", "_")] = _typed(raw.strip())
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


def _typed(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text) if len(text) <= 40 else text
        except ValueError:
            continue
    return text


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


@dataclass
class Prepared:
    """A run's game and (for iterative algorithms) its solver, resumed if asked: everything
    a user's input can break, done before any progress is shown."""

    game: Any
    solver: Any = None
    resumed: bool = False


def prepare(spec: RunSpec, resume: bool = False) -> Prepared:
    """Load the game, build the solver and load the checkpoint; ``InputError`` for any mistake."""
    from solvers.games import load_game  # noqa: PLC0415 - keep importing this module cheap

    game = load_game(spec.game)
    if spec.target_pot_percent is not None:
        spec.target = spec.target_pot_percent / 100.0 * float(sum(game.root.contributions))
    if spec.algo in NON_ITERATIVE:
        return Prepared(game)
    from solvers.algorithms.base import make_solver  # noqa: PLC0415 - imports the solver only

    solver: Solver
    if spec.lock is not None:
        from solvers.algorithms.locked_cfr import make_locked_solver  # noqa: PLC0415
        from solvers.strategy_file.locks import load_locks  # noqa: PLC0415

        locks, record = load_locks(spec.lock, game)
        solver = make_locked_solver(game, spec.algo, locks, record, **spec.options)
    else:
        solver = make_solver(game, spec.algo, **spec.options)
    if resume:
        assert spec.checkpoint is not None
        if not spec.checkpoint.exists():
            raise InputError(f"nothing to resume: no checkpoint at {spec.checkpoint}")
        solver.load_checkpoint(spec.checkpoint)
    return Prepared(game, solver, resume)


def execute(
    spec: RunSpec,
    emit: Emit,
    should_stop: Callable[[], bool],
    resume: bool = False,
    prepared: Prepared | None = None,
):
    """Run to a stopping rule; returns the final event (``done`` or ``interrupted``)."""
    with RunLock(spec.out):
        prepared = prepared or prepare(spec, resume)
        assert spec.checkpoint is not None  # __post_init__ names one
        for path in (spec.out, spec.checkpoint):
            clean_stale_temps(path)
        if spec.algo in NON_ITERATIVE:
            return _execute_lp(spec, prepared.game, emit, time.perf_counter())
        return _execute_iterative(spec, prepared, emit, should_stop)


def _execute_iterative(spec: RunSpec, prepared: Prepared, emit: Emit, should_stop):
    started = time.perf_counter()
    game, solver = prepared.game, prepared.solver
    checkpoint = spec.checkpoint
    assert checkpoint is not None
    if prepared.resumed:
        emit({"event": "resumed", "checkpoint": str(checkpoint), **solver.metrics().as_dict()})
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
    last_checkpoint = time.perf_counter()
    while True:
        if spec.iterations is not None and solver.iterations >= spec.iterations:
            break
        if spec.seconds is not None and solver.elapsed_seconds >= spec.seconds:
            reason = "seconds"
            break
        if should_stop():
            solver.save_checkpoint(checkpoint)
            event = {**_progress(solver, started, "interrupted"), "checkpoint": str(checkpoint)}
            emit(event)
            return event
        budget = chunk
        if spec.iterations is not None:
            budget = min(budget, spec.iterations - solver.iterations)
        remaining = None if spec.seconds is None else spec.seconds - solver.elapsed_seconds
        if remaining is not None:
            remaining = min(remaining, spec.checkpoint_seconds)
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
        wanted = min(spec.report_seconds, spec.checkpoint_seconds)
        if wanted > 0:  # --every 0 asks for a check after every iteration
            wanted = max(wanted, 4.0 * measured)
        chunk = max(1, min(chunk * 4, int(wanted / per_iteration)))
        emit(progress)
        if spec.target is not None and progress["exploitability"] <= spec.target:
            reason = "target"
            break
        if time.perf_counter() - last_checkpoint >= spec.checkpoint_seconds:
            solver.save_checkpoint(checkpoint)
            last_checkpoint = time.perf_counter()
    solver.save_checkpoint(checkpoint)
    info = _solver_info(spec, solver)
    unrounded = solver.metrics().exploitability
    compiled = getattr(solver, "compiled", None) is not None and spec.lock is None
    if compiled:
        # the final checkpoint holds the state: the file is written in the memory it held
        compact = solver.compiled_output(release=True)
        written = _write_compiled(spec, game, solver, compact, info, unrounded)
    else:
        written = _write_strategy(spec, game, solver.strategy(), info, unrounded)
    metrics = solver.metrics().as_dict()
    if spec.lock is not None:  # the locked game's gap; the file's own is reported beside it
        written["exploitability_unlocked"] = written.pop("exploitability")
    pot = pot_fields(game, written.get("exploitability", metrics["exploitability"]),
                     written["game_value"])  # fmt: skip
    event = {
        "event": "done",
        **metrics,
        **written,  # the exploitability of the rounded file, as written
        **pot,
        "file_bytes": spec.out.stat().st_size,
        "stopped_by": reason,
        "out": str(spec.out),
        "checkpoint": str(checkpoint),
    }
    emit(event)
    return event


def _solver_info(spec: RunSpec, solver):
    from solvers.strategy_file import SolverInfo  # noqa: PLC0415

    return SolverInfo(
        algorithm=spec.algo,
        settings={k: v for k, v in solver.settings().items() if k != "algorithm"},
        iterations=solver.iterations,
        seed=spec.options.get("seed"),
    )


def _write_strategy(spec: RunSpec, game, strategy, info, unrounded: float) -> dict[str, Any]:
    """Round, measure and write; finer rounding while the rounded file misses ``--target``."""
    import numpy as np  # noqa: PLC0415

    from solvers.atomic import atomic_write_text  # noqa: PLC0415
    from solvers.strategy_file import dumps_document, measure, rounded_strategy, to_document  # noqa: PLC0415

    if not all(np.isfinite(np.asarray(rows)).all() for rows in strategy.values()):
        raise SolverError(
            f"{spec.algo} diverged (its strategy holds NaN or infinity); nothing was written. "
            "Try other options."
        )
    for precision in TARGET_PRECISIONS:
        rounded = rounded_strategy(game, strategy, precision)
        measured = measure(game, rounded)
        if spec.target is None or spec.lock is not None or measured.exploitability <= spec.target:
            break
    document = to_document(game, rounded, solver=info, measured=measured, arrays=True)
    atomic_write_text(spec.out, dumps_document(document))
    return _written(spec, measured, precision, unrounded)


def _written(spec: RunSpec, measured, precision: int, unrounded: float) -> dict[str, Any]:
    """What the ``done`` event says of the file: its measure, and what rounding added."""
    result: dict[str, Any] = {
        "exploitability": measured.exploitability,
        "game_value": measured.game_value,
        "precision": precision,
        "exploitability_unrounded": unrounded,
        "rounding_added": measured.exploitability - unrounded,
    }
    if spec.target is not None and measured.exploitability > spec.target:
        result["target_missed_by_rounding"] = True
    return result


def _write_compiled(spec: RunSpec, game, solver, compact, info, unrounded: float):
    """``_write_strategy`` for a solver on the compiled walk, in bounded memory: rounding and
    the exact measure work on the walked edges (a flop spot's full profile would take GBs),
    and the file is streamed node by node."""
    import numpy as np  # noqa: PLC0415

    from solvers.atomic import atomic_write_chunks  # noqa: PLC0415
    from solvers.exact.compiled_walk import Source, evaluation_dtype  # noqa: PLC0415
    from solvers.exact.evaluation import (  # noqa: PLC0415
        exploitability_of_sources,
        exploitability_per_edge,
    )
    from solvers.exact.walk import build_plan  # noqa: PLC0415
    from solvers.strategy_file import (  # noqa: PLC0415
        document_chunks,
        measured_from,
        round_rows,
        to_document,
    )

    if not all(np.isfinite(x).all() for x in compact):
        raise SolverError(
            f"{spec.algo} diverged (its strategy holds NaN or infinity); nothing was written. "
            "Try other options."
        )
    walk = solver.compiled
    cp = walk.cp
    # Finer rounding while the file misses --target needs the unrounded strategy kept beside
    # the rounded one; a flop spot rounds in place to 6 decimals instead (memory).
    in_place = sum(x.nbytes for x in compact) > SPARE_COPY_BYTES
    for precision in TARGET_PRECISIONS[:1] if in_place else TARGET_PRECISIONS:
        dtype = np.float32 if precision <= 6 else np.float64  # float32 holds 6 decimals
        rounded = []
        for p in (0, 1):
            out = compact[p] if in_place else np.empty(compact[p].shape, dtype=dtype)
            for first, count in zip(cp.slot_first[p], cp.slot_actions[p], strict=True):
                block = compact[p][first : first + count].T.astype(np.float64)
                out[first : first + count] = round_rows(block, precision).T
            rounded.append(out)
        if evaluation_dtype(game) == np.float64:  # exact: the full tree in float64, as exploit
            walk.release()  # the solver's own (float32) buffers are not needed for that
            spread = [  # the decimals the file holds
                np.round(cp.full_edges(p, rounded[p]).astype(np.float64), precision) for p in (0, 1)
            ]
            report = exploitability_per_edge(game, spread)
        else:  # a flop spot: its own walk (float32, suit isomorphism), in the memory it has
            report = exploitability_of_sources(game, [Source(x) for x in rounded], walk=walk)
        measured = measured_from(report)
        if spec.target is None or measured.exploitability <= spec.target:
            break
    head = to_document(game, {}, solver=info, measured=measured, head_only=True)
    plan = build_plan(game)
    slots = [{n: k for k, n in enumerate(e.decision_nodes)} for e in plan.edges]

    def nodes():
        for node in game.decision_nodes():
            p = node.player
            edges = plan.edges[p]
            slot = slots[p][node.id]
            first = edges.first_edge[slot]
            source, swapped = cp.expand[p] if cp.isomorphic else (None, None)
            span = np.arange(first, first + edges.n_actions[slot])
            rows = rounded[p][span if source is None else source[span]].T
            if swapped is not None and swapped[first]:
                rows = rows[cp.hand_swap[p]]
            yield (
                node.key,
                {
                    "actions": list(node.actions),
                    "probs": np.round(rows.astype(np.float64), precision),
                },
            )

    atomic_write_chunks(spec.out, document_chunks(head, nodes()))
    return _written(spec, measured, precision, unrounded)


def _execute_lp(spec: RunSpec, game, emit: Emit, started: float):
    from solvers.exact.lp import solve_lp  # noqa: PLC0415
    from solvers.strategy_file import SolverInfo, save_strategy  # noqa: PLC0415

    emit({"event": "started", "game": game.spec_string(), "algo": "lp"})
    solution = solve_lp(game)
    saved = save_strategy(
        spec.out,
        game,
        solution.strategy,
        solver=SolverInfo(algorithm="lp", settings={"method": "sequence-form, HiGHS"}),
    )
    assert saved.measured is not None  # save_strategy measures by default
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
        "file_bytes": spec.out.stat().st_size,
        "out": str(spec.out),
    }
    emit(event)
    return event
