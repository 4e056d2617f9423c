"""How many threads a big walk's passes run on, chosen by timing them.

Each level of a compiled pass is a parallel region that waits for all its threads. On an idle
machine the second core makes a turn re-solve's pass faster; when another process holds that
core (a second match, the test suite's other worker, the app's own work) the region waits for a
descheduled thread at every level, and the same pass takes several times longer on two threads
than on one (a turn re-solve measured under load: 0.25 s a pass on two threads, 0.06 s on one).
So the walks time their passes on each thread count, keep the faster, and try the other again
now and then (``PROBE_EVERY``), so a change of load is followed. One choice serves
every big walk of the process (``shared``), its times per node-hand cell, so a bot's next solve
starts from what the last one learnt instead of timing slow passes again. The choice never
changes a number: each row's arithmetic is the same on any thread count.
"""

from __future__ import annotations

import math
import threading

PROBE_EVERY = 16
"""Passes of one kind between two tries of the thread count not in use, times how many times
slower it was (at most ``PROBE_SPREAD``): a try costs at most about a sixteenth."""
PROBE_SPREAD = 16


class ThreadChoice:
    """Picks between ``most`` threads and one for each kind of pass (``key``: the walking
    player and the mode, whose costs differ), from the last time each took."""

    def __init__(self, most: int) -> None:
        self.options = (most, 1) if most > 1 else (1,)
        self._seconds: dict[object, list[float]] = {}
        self._calls: dict[object, int] = {}
        self.lock = threading.Lock()

    def pick(self, key: object) -> int:
        """The thread count of the next pass of kind ``key``: each option once (the first
        pass of a kind, which also touches its buffers, is run again before it counts), then
        the faster, the other every ``PROBE_EVERY`` passes."""
        if len(self.options) == 1:
            return 1
        with self.lock:
            return self._pick(key)

    def _pick(self, key: object) -> int:
        seconds = self._seconds.setdefault(key, [math.nan] * len(self.options))
        calls = self._calls[key] = self._calls.get(key, -1) + 1
        unmeasured = [i for i, s in enumerate(seconds) if math.isnan(s)]
        if unmeasured:
            return self.options[unmeasured[0]]
        best = min(range(len(self.options)), key=seconds.__getitem__)
        slower = min(PROBE_SPREAD, max(1, round(seconds[1 - best] / seconds[best])))
        if calls % (PROBE_EVERY * slower) == 0:
            return self.options[1 - best]
        return self.options[best]

    def record(self, key: object, threads: int, seconds: float) -> None:
        """The pass of kind ``key`` on ``threads`` threads took ``seconds`` (per cell, for a
        shared choice); the very first pass of a kind is not kept."""
        if len(self.options) == 1:
            return
        with self.lock:
            if self._calls.get(key, 0) > 0:
                self._seconds[key][self.options.index(threads)] = seconds

    def chosen(self, key: object) -> int | None:
        """The thread count now preferred for ``key`` (None before both were timed)."""
        seconds = self._seconds.get(key)
        if len(self.options) == 1:
            return 1
        if seconds is None or any(math.isnan(s) for s in seconds):
            return None
        return self.options[min(range(len(self.options)), key=seconds.__getitem__)]


_SHARED: dict[int, ThreadChoice] = {}
_SHARED_LOCK = threading.Lock()


def shared(most: int) -> ThreadChoice:
    """The process's choice between ``most`` threads and one."""
    with _SHARED_LOCK:
        return _SHARED.setdefault(most, ThreadChoice(most))
