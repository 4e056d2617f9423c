"""The local process pool of ``run_tasks``: a worker's death costs only the task that killed it."""

from __future__ import annotations

import os
import signal

from solvers.parallel.backends import LOCAL_ATTEMPTS, run_tasks


def square_or_die(i: int, killer: int) -> int:
    """``i * i``, except that task ``killer`` kills its own worker process every time."""
    if i == killer:
        os.kill(os.getpid(), signal.SIGKILL)
    return i * i


def test_a_worker_killed_mid_run_fails_only_its_own_task():
    outcomes = dict(run_tasks(square_or_die, [(i, 3) for i in range(8)], workers=2))
    assert sorted(outcomes) == list(range(8))
    assert not outcomes[3].ok and "worker process died" in outcomes[3].error
    # every other task finished, queued behind the death or not, each once
    assert {i: o.value for i, o in outcomes.items() if i != 3} == {
        i: i * i for i in range(8) if i != 3
    }
    assert LOCAL_ATTEMPTS >= 2


def test_a_task_that_raises_is_reported_and_the_pool_goes_on():
    outcomes = dict(run_tasks(divmod, [(6, 3), (1, 0), (7, 2)], workers=2))
    assert outcomes[0].value == (2, 0) and outcomes[2].value == (3, 1)
    assert not outcomes[1].ok and outcomes[1].error.startswith("ZeroDivisionError")
