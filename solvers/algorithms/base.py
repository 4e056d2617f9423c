"""The one solver interface (docs/architecture.md), checkpoints and the ``solve`` helper.

Every iterative solver is built from a game and options and has one step verb,
``run(iterations=None, seconds=None)``, which works in chunks and can be called again to continue
(unlike OpenSpiel, whose CFR steps with ``evaluate_and_update_policy`` and MCCFR with
``iteration``). The strategies and metrics are read at any time:

- ``average_strategy()`` / ``current_strategy()`` in the common ``{node_id: [hands, actions]}``
  format, and ``strategy()``, the one the solver's ``output`` option picks;
- ``metrics()``: iterations, elapsed seconds, exploitability and game value of ``strategy()``,
  measured exactly by ``solvers.exact.evaluation``.

A solver's state is a flat dict of numpy arrays and ints (``state_dict``), saved as ``.npz`` with
no pickle, so that resuming from a checkpoint continues bit for bit like an uninterrupted run.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from solvers.algorithms.registry import LazyAlgorithms, SolverError, check_options, load_factory
from solvers.atomic import atomic_write
from solvers.exact.evaluation import exploitability as measure_exploitability
from solvers.file_reading import read_npz
from solvers.games.base import Strategy, TreeGame
from solvers.user_files import UserFileError


@dataclass(frozen=True)
class Metrics:
    iterations: int
    elapsed_seconds: float
    """Seconds spent inside ``run`` (summed over chunks and resumed runs)."""
    exploitability: float
    """``(BR_0 + BR_1) / 2`` in chips of the output strategy (NashConv / 2)."""
    game_value: float
    """Player 0's expected payoff in chips under the output strategy."""

    @property
    def ms_per_iteration(self) -> float:
        return 1000.0 * self.elapsed_seconds / self.iterations if self.iterations else math.nan

    def as_dict(self) -> dict[str, float]:
        return {
            "iterations": self.iterations,
            "seconds": self.elapsed_seconds,
            "ms_per_iteration": self.ms_per_iteration,
            "exploitability": self.exploitability,
            "game_value": self.game_value,
        }


class Solver:
    """Base of every iterative solver: subclasses implement ``_step`` and the strategies.

    ``chunk`` is how many iterations run between clock checks in ``run(seconds=...)``.
    """

    algorithm: str = ""
    chunk: ClassVar[int] = 10
    fixed_shapes: ClassVar[bool] = True
    """Whether state arrays keep their shapes (False for growing populations)."""

    def __init__(self, game: TreeGame, output: str = "average") -> None:
        if output not in ("average", "current"):
            raise SolverError(f"output must be 'average' or 'current', not {output!r}")
        self.game = game
        self.output = output
        self.iterations = 0
        self.elapsed_seconds = 0.0
        self._metrics_cache: tuple[int, Metrics] | None = None

    # --- to implement ---------------------------------------------------------------------
    def _step(self) -> None:
        """One iteration; increments ``self.iterations``."""
        raise NotImplementedError

    def _steps(self, count: int) -> None:
        """``count`` iterations; a solver with a tight inner loop overrides this."""
        for _ in range(count):
            self._step()

    def average_strategy(self) -> Strategy:
        raise NotImplementedError

    def current_strategy(self) -> Strategy:
        raise NotImplementedError

    def _arrays(self) -> dict[str, np.ndarray]:
        """The solver-specific arrays of the state (regrets, sums...)."""
        raise NotImplementedError

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def settings(self) -> dict[str, Any]:
        """The options that define the run; a checkpoint must match them to be resumed."""
        return {"algorithm": self.algorithm, "output": self.output}

    # --- the step verb --------------------------------------------------------------------
    def run(self, iterations: int | None = None, seconds: float | None = None) -> Solver:
        """Run ``iterations`` more iterations, or until ``seconds`` have passed, whichever first.

        With neither, run one chunk. Time is checked between chunks of ``chunk`` iterations.
        """
        if iterations is not None and iterations < 0:
            raise SolverError("iterations must be >= 0")
        if iterations is None and seconds is None:
            iterations = self.chunk
        started = time.perf_counter()
        done = 0
        try:
            while iterations is None or done < iterations:
                if seconds is not None and time.perf_counter() - started >= seconds:
                    break
                batch = self.chunk if iterations is None else min(self.chunk, iterations - done)
                self._steps(batch)
                done += batch
        finally:
            self.elapsed_seconds += time.perf_counter() - started
        return self

    def strategy(self) -> Strategy:
        """The output strategy: the average (default) or the current one."""
        return self.average_strategy() if self.output == "average" else self.current_strategy()

    def _measure(self):
        """The exact exploitability of ``strategy()`` (a solver with per-edge arrays may skip
        the dictionary)."""
        return measure_exploitability(self.game, self.strategy())

    def metrics(self) -> Metrics:
        """Iterations, elapsed time, and the exact exploitability and value of ``strategy()``."""
        if self._metrics_cache is not None and self._metrics_cache[0] == self.iterations:
            cached = self._metrics_cache[1]
            return Metrics(
                self.iterations, self.elapsed_seconds, cached.exploitability, cached.game_value
            )
        measured = self._measure()
        result = Metrics(
            self.iterations, self.elapsed_seconds, measured.exploitability, measured.game_value
        )
        self._metrics_cache = (self.iterations, result)
        return result

    # --- checkpoints ----------------------------------------------------------------------
    def state_dict(self, copy: bool = True) -> dict[str, np.ndarray]:
        """Everything needed to resume: arrays plus ``iterations`` and ``elapsed_seconds``.
        ``copy=False`` shares the solver's arrays (a checkpoint written at once: a flop spot's
        state is GBs, and a copy would double it)."""
        take = np.array if copy else np.asarray
        state = {f"state/{k}": take(v) for k, v in self._arrays().items()}
        state["iterations"] = np.array(self.iterations, dtype=np.int64)
        state["elapsed_seconds"] = np.array(self.elapsed_seconds)
        state["settings"] = np.array(repr(sorted(self.settings().items())))
        state["game"] = np.array(self.game.spec_string())
        return state

    def load_state_dict(self, state: dict[str, np.ndarray]) -> None:
        for key in ("game", "settings", "iterations", "elapsed_seconds"):
            if key not in state:
                raise SolverError(f"checkpoint has no {key!r} entry: not a pokertui checkpoint")
        game, settings = str(state["game"]), str(state["settings"])
        if game != self.game.spec_string():
            raise SolverError(f"checkpoint is for {game}, not {self.game.spec_string()}")
        if settings != repr(sorted(self.settings().items())):
            raise SolverError(f"checkpoint settings {settings} differ from this solver's")
        current = self._arrays()
        arrays = {k[len("state/") :]: np.asarray(v) for k, v in state.items() if k[:6] == "state/"}
        if set(arrays) != set(current):
            raise SolverError(f"checkpoint arrays {sorted(arrays)} do not fit {sorted(current)}")
        for name, value in arrays.items():
            if self.fixed_shapes and value.shape != np.shape(current[name]):
                raise SolverError(f"checkpoint array {name!r} has shape {value.shape}")
        for name, value in arrays.items():
            if value.dtype.kind not in "biuf" or not np.isfinite(value).all():
                raise SolverError(f"checkpoint array {name!r} is not finite numbers")
        iterations, elapsed = state["iterations"], state["elapsed_seconds"]
        if iterations.shape != () or iterations.dtype.kind not in "iu" or int(iterations) < 0:
            raise SolverError("checkpoint iteration count is not a non-negative integer")
        if elapsed.shape != () or elapsed.dtype.kind != "f" or not 0 <= float(elapsed) < 1e12:
            raise SolverError("checkpoint elapsed time is not a sane number of seconds")
        try:
            self._load_arrays(arrays)
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise SolverError(f"checkpoint state does not fit this solver ({exc})") from None
        self.iterations = int(iterations)
        self.elapsed_seconds = float(elapsed)
        self._metrics_cache = None

    def save_checkpoint(self, path: str | os.PathLike[str]) -> Path:
        """Write ``state_dict()`` to ``path`` (``.npz``) atomically: unique temp file, rename."""
        state = self.state_dict(copy=False)
        # numpy's stub lets **kwds fill its allow_pickle: bool, so a dict of arrays never matches
        atomic_write(path, lambda handle: np.savez(handle, **state))  # type: ignore[arg-type]
        return Path(path)

    def load_checkpoint(self, path: str | os.PathLike[str]) -> None:
        """Resume from ``path``; ``SolverError`` for a file that is not a checkpoint of this
        exact run (corrupt, truncated, pickled, non-finite, another game or solver)."""
        arrays = read_checkpoint(path)
        try:
            self.load_state_dict(arrays)
        except SolverError as exc:  # the state's checks know no file: name it
            raise SolverError(f"cannot resume from {path}: {exc}") from None


MAX_CHECKPOINT_BYTES = 8 * 2**30


def read_checkpoint(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The arrays of a checkpoint file, refusing anything but a regular ``.npz`` of plain
    arrays (no pickles), read whole; ``SolverError`` with the reason otherwise."""
    try:
        return read_npz(path, "checkpoint", MAX_CHECKPOINT_BYTES, 2 * MAX_CHECKPOINT_BYTES)
    except UserFileError as exc:
        raise SolverError(f"cannot resume from {path}: {exc.reason}") from None


def per_player(name: str, pair) -> dict[str, np.ndarray]:
    """Checkpoint entries ``name_0`` and ``name_1`` for a per-player pair of arrays."""
    return {f"{name}_{p}": pair[p] for p in (0, 1)}


def restore_per_player(arrays: dict[str, np.ndarray], name: str) -> list[np.ndarray]:
    """The pair saved by ``per_player``, as fresh float arrays."""
    return [arrays[f"{name}_{p}"].astype(float, copy=True) for p in (0, 1)]


# --- registry and the solve helper ---------------------------------------------------------

SolverFactory = Callable[..., Solver]
ALGORITHMS: LazyAlgorithms = LazyAlgorithms()
"""Iterative algorithm names to factories; the list and options live in ``registry.py``."""


def make_solver(game: TreeGame, algo: str, **options: Any) -> Solver:
    """Build solver ``algo`` (a name in ``ALGORITHMS``) for ``game`` with checked ``options``."""
    if algo not in ALGORITHMS:
        known = ", ".join(sorted(ALGORITHMS))
        raise SolverError(f"unknown algorithm {algo!r}; known: {known}")
    checked = check_options(algo, options)
    try:
        return load_factory(algo)(game, **checked)
    except TypeError as error:
        raise SolverError(f"bad options for {algo}: {error}") from None


def solve(
    game: TreeGame,
    algo: str = "dcfr",
    target_exploitability: float | None = None,
    max_iterations: int | None = None,
    seconds: float | None = None,
    check_every: int = 100,
    **options: Any,
) -> tuple[Solver, Metrics]:
    """Run ``algo`` until the exploitability is at most the target, or a budget runs out.

    Exploitability is measured every ``check_every`` iterations (and at the end). At least one
    of the three stopping rules must be given.
    """
    if target_exploitability is None and max_iterations is None and seconds is None:
        raise SolverError("give a target exploitability, an iteration budget or seconds")
    solver = make_solver(game, algo, **options)
    started = time.perf_counter()
    while True:
        budget = check_every
        if max_iterations is not None:
            budget = min(budget, max_iterations - solver.iterations)
        remaining = None if seconds is None else seconds - (time.perf_counter() - started)
        if budget <= 0 or (remaining is not None and remaining <= 0):
            break
        solver.run(iterations=budget, seconds=remaining)
        if target_exploitability is not None:
            if solver.metrics().exploitability <= target_exploitability:
                break
    return solver, solver.metrics()
