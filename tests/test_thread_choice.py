"""A big walk's passes run on the thread count that its timings found faster
(``solvers/exact/thread_choice.py``), and the count never changes a number.

- The policy on made-up timings: each count tried (the first pass of a kind not counted), then
  the faster, the slower tried again after ``PROBE_EVERY`` passes times how much slower it was;
  kinds are timed apart.
- A walk made to choose between two threads and one: every root value and the whole CFR run are
  the same to the bit as on two threads throughout, while the passes did run on both counts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from solvers.algorithms import make_solver
from solvers.exact import compiled_kernels, thread_choice
from solvers.exact.compiled_walk import MODE_VALUES, Source, compiled_walk
from solvers.exact.thread_choice import PROBE_EVERY, ThreadChoice
from solvers.games import load_game
from tests.test_compiled_walk import TURN, random_profile

ROOT = Path(__file__).resolve().parents[1]


def on_two_threads(test: str) -> bool:
    """Run ``test`` of this file in a child process whose numba has two threads, when this one
    has fewer (the suite's workers run on one core each); True if it was run there."""
    if compiled_kernels.ALL_THREADS >= 2:
        return False
    env = {**os.environ, "NUMBA_NUM_THREADS": "2", "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         f"tests/test_thread_choice.py::{test}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return True


def picks(choice: ThreadChoice, key, times: dict[int, float], n: int) -> list[int]:
    """``n`` passes of ``key``, each taking ``times[threads]``."""
    used = []
    for _ in range(n):
        threads = choice.pick(key)
        choice.record(key, threads, times[threads])
        used.append(threads)
    return used


def test_each_count_is_timed_then_the_faster_kept_and_the_other_tried_again_now_and_then():
    choice = ThreadChoice(2)
    assert choice.chosen("pass") is None
    used = picks(choice, "pass", {2: 1.0, 1: 3.0}, 1 + 2 * PROBE_EVERY)
    # the first pass (buffers touched) is run again on two threads before it counts
    assert used[:3] == [2, 2, 1]
    assert choice.chosen("pass") == 2
    # three times slower: one thread tried once every 3 * PROBE_EVERY passes, none before
    assert used[3:].count(1) == 0
    more = picks(choice, "pass", {2: 1.0, 1: 3.0}, 3 * PROBE_EVERY)
    assert more.count(1) == 1
    # the load changes: two threads become slow, and after one more try of one thread it wins
    later = picks(choice, "pass", {2: 5.0, 1: 1.0}, 6 * PROBE_EVERY)
    assert choice.chosen("pass") == 1
    assert later[-PROBE_EVERY:].count(1) == PROBE_EVERY
    # another kind of pass is timed on its own
    assert choice.chosen("other") is None
    assert picks(choice, "other", {2: 1.0, 1: 0.5}, 4) == [2, 2, 1, 1]


def test_one_thread_only_is_never_timed():
    choice = ThreadChoice(1)
    assert picks(choice, "pass", {1: 1.0}, 5) == [1] * 5
    assert choice.chosen("pass") == 1


class Logged(ThreadChoice):
    """A real choice between two threads and one that notes the count of every pass."""

    def __init__(self) -> None:
        super().__init__(2)
        self.used: list[int] = []

    def record(self, key, threads: int, seconds: float) -> None:
        self.used.append(threads)
        super().record(key, threads, seconds)


def test_the_count_changes_no_number():
    if on_two_threads("test_the_count_changes_no_number"):
        return
    profile = random_profile(load_game(TURN), 3)
    sources = [Source(weights=p.astype(np.float64)) for p in profile]
    fixed = compiled_walk(load_game(TURN), np.float64)
    fixed.thread_choice = ThreadChoice(1)  # one thread throughout: the reference
    chosen = compiled_walk(load_game(TURN), np.float64)
    chosen.thread_choice = logged = Logged()
    for _ in range(2 * PROBE_EVERY):
        for player in (0, 1):
            np.testing.assert_array_equal(
                chosen.root_values(player, sources, MODE_VALUES),
                fixed.root_values(player, sources, MODE_VALUES),
            )
    assert set(logged.used) == {1, 2}


def test_a_solve_on_chosen_threads_is_a_solve_on_one_thread_to_the_bit(monkeypatch):
    if on_two_threads("test_a_solve_on_chosen_threads_is_a_solve_on_one_thread_to_the_bit"):
        return
    game = load_game(TURN)
    runs = []
    for options in ((1,), (2, 1)):
        monkeypatch.setattr(thread_choice, "shared",
                            lambda most, options=options: _forced(options))  # fmt: skip
        game.derived.clear()
        solver = make_solver(game, "dcfr")
        solver.run(iterations=40)
        runs.append(solver.average_strategy())
    assert runs[0].keys() == runs[1].keys()
    for node, rows in runs[0].items():
        np.testing.assert_array_equal(rows, runs[1][node])


def _forced(options: tuple[int, ...]) -> ThreadChoice:
    """A choice whose passes alternate over ``options`` (every count used)."""
    choice = ThreadChoice(max(options))
    calls = iter(range(10**9))
    choice.pick = lambda key: options[next(calls) % len(options)]  # type: ignore[method-assign]
    return choice
