"""Run independent tasks on a backend: ``local`` (a process pool on this machine) or ``ray``.

A task is a module-level function and its (picklable) arguments; ``run_tasks`` yields
``(index, Outcome)`` as tasks finish, in any order, so callers that need an order put the
results back by index. A task that raises yields a failed outcome with the reason instead of
stopping the others; on the local pool, tasks that a dying worker left unfinished run again
on a new pool (alone, after two), and only one that kills its worker every time fails.
``setup(*setup_args)`` runs once in each worker process before its first task (an LBR worker
loads its strategy file once), on both backends.

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
import pickle
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
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
    if "numba" in sys.modules:  # imported before this initialiser (by the parent's __main__)
        import numba  # noqa: PLC0415

        # no environment variable now: numba reloads its configuration when the environment
        # changes, and a thread count that differs from the launched one fails the next compile
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    else:
        os.environ[THREADS_VARIABLE] = str(threads)


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
            raise InputError("the ray backend needs Ray: pip install 'pokertui[ray]'") from None


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


LOCAL_ATTEMPTS = 3
"""Pools a task may be left unfinished in by a worker's death before it is reported failed."""
ISOLATE_AFTER = 2
"""Pools a task may be left unfinished in before it runs alone, in a pool of its own."""


def _local(fn, items, workers, setup, setup_args) -> Iterator[tuple[int, Outcome]]:
    """The tasks on a process pool. A worker that dies (out of memory, a signal) breaks the
    whole pool and fails every task not yet finished, those queued behind it included: those
    run again on a new pool, and a task left unfinished by ``ISOLATE_AFTER`` broken pools runs
    alone, so a task that kills its worker every time costs only itself: it is reported failed
    once ``LOCAL_ATTEMPTS`` pools broke under it. Tasks are seeded, so a repeated one gives the
    same result."""
    pending = dict(enumerate(items))
    broken_in = dict.fromkeys(pending, 0)
    while pending:
        shared = {i: args for i, args in pending.items() if broken_in[i] < ISOLATE_AFTER}
        alone = [{i: args} for i, args in pending.items() if broken_in[i] >= ISOLATE_AFTER]
        for tasks in [shared, *alone] if shared else alone:
            lost: list[int] = []
            for i, outcome in _local_pool(fn, tasks, workers, setup, setup_args, lost):
                del pending[i]
                yield i, outcome
            for i in lost:
                broken_in[i] += 1
                if broken_in[i] >= LOCAL_ATTEMPTS:
                    del pending[i]
                    yield i, Outcome(False, error="worker process died (BrokenProcessPool)")


def _local_pool(fn, tasks, workers, setup, setup_args, lost) -> Iterator[tuple[int, Outcome]]:
    """One pool over ``tasks`` (index to arguments), yielding each finished task's outcome;
    the indices of those a broken pool failed go to ``lost``."""
    # spawn, not fork: a parent that already ran numba's OpenMP threads cannot fork safely
    threads = max(1, (os.cpu_count() or 1) // workers)
    pool = ProcessPoolExecutor(
        min(workers, len(tasks)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=local_worker,
        initargs=(os.getpid(), threads),
    )
    finished = False
    try:
        futures = {pool.submit(_call, setup, setup_args, fn, args): i for i, args in tasks.items()}
        for future in as_completed(futures):
            i = futures[future]
            try:
                outcome = future.result()
            except BrokenProcessPool:  # a worker died: this task's pool is gone
                lost.append(i)
                continue
            except Exception as exc:  # noqa: BLE001 - reported per task; the others go on
                outcome = Outcome(False, error=f"worker process died ({type(exc).__name__})")
            yield i, outcome
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

    started = _start_ray(workers, address)
    try:
        remote = _one_core_task(_call)
        refs = {remote.remote(setup, setup_args, fn, args): i for i, args in enumerate(items)}
        yield from _ray_outcomes(refs, list(refs))
    finally:
        if started:
            ray.shutdown()


def _start_ray(workers: int, address: str | None) -> bool:
    """Join the cluster at ``address``, or start a local one of ``workers`` CPUs, unless this
    process is connected already; True when this call connected it (and should shut it down)."""
    import ray  # noqa: PLC0415 - optional dependency, loaded only for this backend

    if address:
        check_reachable(address)  # ray.init retries an address nobody answers for minutes
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address:
        options["address"] = address
    else:
        options.update(num_cpus=workers, include_dashboard=False)
    try:
        ray.init(**options)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"cannot start or reach the Ray cluster: {reason}") from None
    return True


def _one_core_task(fn: Callable) -> Any:
    """``fn`` as a Ray task on one core, never retried: the compiled walk runs one thread there
    (see ``local_worker``)."""
    import ray  # noqa: PLC0415 - optional dependency, loaded only for this backend

    one_thread = {"env_vars": {THREADS_VARIABLE: "1"}}
    return ray.remote(num_cpus=1, max_retries=0, runtime_env=one_thread)(fn)


def _ray_outcomes(
    refs: dict[Any, int],
    pending: list[Any],
    stop: Callable[[], bool] | None = None,
    timeout: float | None = None,
) -> Iterator[tuple[int, Outcome]]:
    """``(index, Outcome)`` of each task of ``refs`` as it ends; ``pending`` (a list the caller
    keeps) holds the tasks not ended yet, for a caller that stops early (``stop()`` true) to
    cancel."""
    import ray  # noqa: PLC0415 - optional dependency, loaded only for this backend

    while pending:
        if stop is not None and stop():
            return
        ready, pending[:] = ray.wait(pending, num_returns=1, timeout=timeout)
        for ref in ready:
            try:
                outcome = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - a worker died or the task was lost
                outcome = Outcome(False, error=f"ray task failed ({type(exc).__name__})")
            yield refs[ref], outcome


class WorkerPool:
    """Workers that outlive one wave of tasks, for work that runs in rounds (the blueprint's
    MCCFR rounds): ``run`` sends one wave and yields ``(index, Outcome)`` as its tasks end, and
    the worker processes (local) or the cluster (ray) stay up for the next wave, so that what a
    worker loaded or compiled for its first task serves every later one.

    A wave may carry one ``shared`` value that each of its tasks receives as its first argument
    (a broadcast): pickled once and sent once to each local worker, or put once in Ray's object
    store. A task that raises, or whose worker dies, yields a failed outcome and the others go
    on; a dead local worker is replaced before the next wave. Local workers are separate
    processes with a pipe each, not a ``ProcessPoolExecutor``, whose every task fails once one
    of its workers dies. A wave ended early (``stop()`` true, or the iterator closed) abandons
    its running tasks: their local workers are ended and replaced, their Ray tasks cancelled.
    """

    POLL_SECONDS = 0.2

    def __init__(self, backend: str = "local", workers: int | None = None,
                 address: str | None = None, threads: int | None = None) -> None:  # fmt: skip
        check_backend(backend, workers, address)
        self.backend = backend
        self.workers = workers or os.cpu_count() or 1
        self.address = address
        self.threads = threads or max(1, (os.cpu_count() or 1) // self.workers)
        """A local worker's numba threads (default: its share of the cores); Ray: one."""
        self._processes: list[Any] = []
        self._connections: list[Any] = []
        self._ray_started = False
        self._remote: Any = None
        if backend == "ray":
            self._start_ray()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, fn: Callable, items: Sequence[tuple], *, shared: Any = None,
            with_shared: bool = False,
            stop: Callable[[], bool] | None = None) -> Iterator[tuple[int, Outcome]]:  # fmt: skip
        """``fn(*items[i])``, or ``fn(shared, *items[i])`` with ``with_shared``, for every
        ``i``; yields ``(i, Outcome)`` as they end. More items than workers wait for a free
        one."""
        if self.backend == "ray":
            return self._run_ray(fn, items, shared, with_shared, stop)
        return self._run_local(fn, items, shared, with_shared, stop)

    def close(self) -> None:
        for connection in self._connections:
            connection.close()  # an idle worker reads the end of its pipe and exits
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        self._processes, self._connections = [], []
        if self._ray_started:
            import ray  # noqa: PLC0415 - optional dependency

            ray.shutdown()
            self._ray_started = False

    # --- local processes -------------------------------------------------------------------
    def _spawn(self, slot: int) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        args = (theirs, os.getpid(), self.threads)
        process = context.Process(target=_serve, args=args, daemon=True)
        process.start()
        theirs.close()  # a dead worker's end closes with it: its pipe then reads as ended
        if slot < len(self._processes):
            self._processes[slot], self._connections[slot] = process, ours
        else:
            self._processes.append(process)
            self._connections.append(ours)

    def _end(self, slot: int) -> None:
        """End one worker (a dead or abandoned one); the next wave starts a new one."""
        process = self._processes[slot]
        if process.is_alive():
            process.terminate()
        process.join()
        self._connections[slot].close()

    def _run_local(self, fn, items, shared, with_shared, stop) -> Iterator[tuple[int, Outcome]]:
        from multiprocessing.connection import wait  # noqa: PLC0415

        for slot in range(self.workers):
            if slot >= len(self._processes):
                self._spawn(slot)
            elif not self._processes[slot].is_alive() or self._connections[slot].closed:
                self._end(slot)
                self._spawn(slot)
        blob = b"S" + pickle.dumps(shared, protocol=5) if with_shared else b""
        queue = list(enumerate(items))
        queue.reverse()
        busy: dict[int, int] = {}  # slot -> item index
        sent_shared: set[int] = set()
        try:
            while queue or busy:
                for slot in range(self.workers):
                    if slot in busy or not queue:
                        continue
                    index, args = queue.pop()
                    connection = self._connections[slot]
                    try:
                        if with_shared and slot not in sent_shared:
                            connection.send_bytes(blob)
                            sent_shared.add(slot)
                        connection.send_bytes(b"T" + pickle.dumps((fn, args, with_shared)))
                    except OSError:  # died between waves: replaced, and the task lost
                        self._end(slot)
                        self._spawn(slot)
                        sent_shared.discard(slot)
                        yield index, Outcome(False, error="worker process died")
                        continue
                    except (pickle.PicklingError, AttributeError, TypeError) as exc:
                        yield index, Outcome(False, error=f"cannot send the task ({exc})")
                        continue
                    busy[slot] = index
                if not busy:
                    continue
                if stop is not None and stop():
                    return
                by_connection = {id(self._connections[slot]): slot for slot in busy}
                for ready in wait([self._connections[s] for s in busy], self.POLL_SECONDS):
                    slot = by_connection[id(ready)]
                    index = busy.pop(slot)
                    try:
                        outcome: Outcome = self._connections[slot].recv()
                    except (EOFError, OSError):
                        code = self._processes[slot].exitcode
                        self._end(slot)
                        outcome = Outcome(False, error=f"worker process died (exit code {code})")
                    yield index, outcome
        finally:  # stopped early: end the workers still running an abandoned task
            for slot in busy:
                self._end(slot)

    # --- Ray -------------------------------------------------------------------------------
    def _start_ray(self) -> None:
        self._ray_started = _start_ray(self.workers, self.address)
        self._remote = _one_core_task(_call_with_shared)

    def _run_ray(self, fn, items, shared, with_shared, stop) -> Iterator[tuple[int, Outcome]]:
        import ray  # noqa: PLC0415 - optional dependency

        reference = ray.put(shared) if with_shared else None
        refs = {
            self._remote.remote(fn, args, reference, with_shared): i for i, args in enumerate(items)
        }
        pending = list(refs)
        try:
            yield from _ray_outcomes(refs, pending, stop, self.POLL_SECONDS)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """``InputError`` unless something accepts a connection at a Ray address (``HOST:PORT`` or
    ``ray://HOST:PORT``; ``auto`` and ``local`` are Ray's own words and pass)."""
    if address in ("auto", "local"):
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise InputError(f"--address must be HOST:PORT or ray://HOST:PORT, not {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise InputError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def _call_with_shared(fn: Callable, args: tuple, shared: Any, with_shared: bool) -> Outcome:
    """A pool's task: ``fn(*args)``, or ``fn(shared, *args)``, errors caught."""
    return _call(None, (), fn, (shared, *args) if with_shared else args)


def _serve(connection: Any, parent: int, threads: int) -> None:
    """A local pool worker: tasks from its pipe, one at a time, until the pipe ends. Ctrl-C
    reaches the whole process group; the driver decides what stops, so the worker ignores it."""
    local_worker(parent, threads)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    shared_blob, shared, loaded = b"", None, False
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            return
        if message[:1] == b"S":
            shared_blob, loaded = message[1:], False
            continue
        try:
            fn, args, with_shared = pickle.loads(message[1:])
            if with_shared and not loaded:
                shared, loaded = pickle.loads(shared_blob), True
        except Exception as exc:  # noqa: BLE001 - a task this process cannot load
            outcome = Outcome(False, error=f"cannot load the task ({type(exc).__name__}: {exc})")
        else:
            outcome = _call_with_shared(fn, args, shared, with_shared)
        try:
            connection.send(outcome)
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            connection.send(Outcome(False, error=f"cannot send the result back ({exc})"))
        except (EOFError, OSError):
            return
