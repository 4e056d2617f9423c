"""Run independent tasks on a backend: ``local`` (a process pool on this machine) or ``ray``.

A task is a module-level function and its (picklable) arguments; ``run_tasks`` yields
``(index, Outcome)`` as tasks finish, in any order, so callers that need an order put the
results back by index. A task that raises, or whose worker dies, yields a failed outcome with
the reason instead of stopping the others. ``setup(*setup_args)`` runs once in each worker
process before its first task (an LBR worker loads its strategy file once), on both backends.

Ray is imported only when the ``ray`` backend is chosen (``pip install 'pokertui[ray]'``).
Without ``address`` it starts a local cluster of ``workers`` CPUs with no dashboard and shuts
it down afterwards; with ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``) it joins that
cluster, whose nodes must have pokertui installed and see the output folder at the same path.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from solvers.errors import InputError

BACKENDS = ("local", "ray")
MAX_WORKERS = 1024


@dataclass(frozen=True)
class Outcome:
    ok: bool
    value: Any = None
    error: str = ""


_SET_UP: set[str] = set()
"""The setups this worker process has run, by function and arguments."""


def _call(setup: Callable | None, setup_args: tuple, fn: Callable, args: tuple) -> Outcome:
    """One task in a worker: its setup once per process, then ``fn(*args)``, errors caught."""
    try:
        if setup is not None:
            key = f"{setup.__module__}.{setup.__qualname__}{setup_args!r}"
            if key not in _SET_UP:
                setup(*setup_args)
                _SET_UP.add(key)
        return Outcome(True, fn(*args))
    except Exception as exc:  # noqa: BLE001 - reported per task; the batch goes on
        return Outcome(False, error=f"{type(exc).__name__}: {exc}")


_PR_SET_PDEATHSIG = 1
THREADS_VARIABLE = "NUMBA_NUM_THREADS"
"""Read by numba when a worker first imports it: the compiled walk's threads per process."""


def local_worker(parent: int, threads: int) -> None:
    """A local worker's initialiser: end with the parent (``follow_parent``), and run the
    compiled walk's parallel regions on ``threads`` threads, the worker's share of the cores.
    A region waits for all its threads, so two workers each running two threads on two cores
    make every region wait for a descheduled thread: a turn re-solve ran 15 times slower per
    iteration that way than on one thread (``docs/resolve.md``)."""
    follow_parent(parent)
    os.environ[THREADS_VARIABLE] = str(threads)
    if "numba" in sys.modules:  # imported before this initialiser (not by a spawned worker)
        import numba  # noqa: PLC0415

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


def follow_parent(parent: int) -> None:
    """A local worker's initialiser: end with the parent process. A parent ended by SIGKILL, or
    by SIGTERM in a command that does not catch it, runs no ``finally`` to stop its pool, and an
    idle spawn worker would otherwise live on with init as its parent."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the parent's finally still stops us
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def check_workers(workers: int | None) -> None:
    """``InputError`` for a worker count outside 1 to ``MAX_WORKERS`` (None: the default)."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")


def check_backend(backend: str, workers: int | None = None, address: str | None = None) -> None:
    """``InputError`` for an unknown backend, a bad worker count or an address without Ray."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    check_workers(workers)
    if address is not None and backend != "ray":
        raise InputError("--address names a Ray cluster: use it with --backend ray")
    if backend == "ray":
        try:
            import ray  # noqa: F401, PLC0415 - optional dependency
        except ImportError:
            raise InputError(
                "the ray backend needs Ray: pip install 'pokertui[ray]'"
            ) from None


def run_tasks(
    fn: Callable,
    items: Sequence[tuple],
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    setup: Callable | None = None,
    setup_args: tuple = (),
) -> Iterator[tuple[int, Outcome]]:
    """``fn(*items[i])`` for every ``i`` on ``backend``; yields ``(i, Outcome)`` as they end."""
    check_backend(backend, workers, address)
    if not items:
        return iter(())
    workers = min(workers or os.cpu_count() or 1, len(items))
    if backend == "ray":
        return _ray(fn, items, workers, address, setup, setup_args)
    if workers == 1:
        return ((i, _call(setup, setup_args, fn, args)) for i, args in enumerate(items))
    return _local(fn, items, workers, setup, setup_args)


def _local(fn, items, workers, setup, setup_args) -> Iterator[tuple[int, Outcome]]:
    # spawn, not fork: a parent that already ran numba's OpenMP threads cannot fork safely
    threads = max(1, (os.cpu_count() or 1) // workers)
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=local_worker,
        initargs=(os.getpid(), threads),
    )
    finished = False
    try:
        futures = {
            pool.submit(_call, setup, setup_args, fn, args): i for i, args in enumerate(items)
        }
        for future in as_completed(futures):
            try:
                outcome = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker killed (out of memory, a signal)
                outcome = Outcome(False, error=f"worker process died ({type(exc).__name__})")
            yield futures[future], outcome
        finished = True
    finally:  # Ctrl-C, SIGTERM or an abandoned generator: stop the tasks running too
        if not finished:
            for pid in list(getattr(pool, "_processes", None) or {}):
                _terminate(pool, pid)
        pool.shutdown(wait=True, cancel_futures=True)


def _terminate(pool: ProcessPoolExecutor, pid: int) -> None:
    """End one of the pool's workers (the executor has no public way to stop running tasks)."""
    process = (getattr(pool, "_processes", None) or {}).get(pid)
    if process is not None and process.is_alive():
        process.terminate()


def _ray(fn, items, workers, address, setup, setup_args) -> Iterator[tuple[int, Outcome]]:
    import ray  # noqa: PLC0415 - optional dependency, loaded only for this backend

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
        if address:
            options["address"] = address
        else:
            options.update(num_cpus=workers, include_dashboard=False)
        try:
            ray.init(**options)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise InputError(f"cannot start or reach the Ray cluster: {exc}") from None
    try:
        # one core a task, so the compiled walk runs one thread (see local_worker)
        one_thread = {"env_vars": {THREADS_VARIABLE: "1"}}
        remote = ray.remote(num_cpus=1, max_retries=0, runtime_env=one_thread)(_call)
        refs = {remote.remote(setup, setup_args, fn, args): i for i, args in enumerate(items)}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    outcome = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a worker died or the task was lost
                    outcome = Outcome(False, error=f"ray task failed ({type(exc).__name__})")
                yield refs[ref], outcome
    finally:
        if started:
            ray.shutdown()
