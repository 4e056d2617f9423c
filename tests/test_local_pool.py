"""The local process pool of ``run_tasks``: a worker's death costs only the task that killed it."""

from __future__ import annotations

import os
import signal
import time

from solvers.parallel.backends import ISOLATE_AFTER, LOCAL_ATTEMPTS, run_tasks


def square_or_die(i: int, killer: int) -> int:
    """``i * i`` after a moment, except that task ``killer`` kills its own worker at once,
    every time: each shared pool breaks before the other tasks finish."""
    if i == killer:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.2)
    return i * i


def test_a_task_that_kills_its_worker_every_time_fails_alone():
    """Task 0 breaks both shared pools it is in, with every other task unfinished; after
    ``ISOLATE_AFTER`` broken pools each task runs alone, so the others all finish and task 0
    is reported failed after ``LOCAL_ATTEMPTS``."""
    assert ISOLATE_AFTER < LOCAL_ATTEMPTS
    outcomes = dict(run_tasks(square_or_die, [(i, 0) for i in range(6)], workers=2))
    assert sorted(outcomes) == list(range(6))
    assert not outcomes[0].ok and "worker process died" in outcomes[0].error
    assert {i: o.value for i, o in outcomes.items() if i != 0} == {i: i * i for i in range(1, 6)}


def test_a_worker_killed_mid_run_fails_only_its_own_task():
    outcomes = dict(run_tasks(square_or_die, [(i, 3) for i in range(8)], workers=2))
    assert not outcomes[3].ok and "worker process died" in outcomes[3].error
    assert {i: o.value for i, o in outcomes.items() if i != 3} == {
        i: i * i for i in range(8) if i != 3
    }


def test_a_task_that_raises_is_reported_and_the_pool_goes_on():
    outcomes = dict(run_tasks(divmod, [(6, 3), (1, 0), (7, 2)], workers=2))
    assert outcomes[0].value == (2, 0) and outcomes[2].value == (3, 1)
    assert not outcomes[1].ok and outcomes[1].error.startswith("ZeroDivisionError")
