"""SIGTERM as Ctrl-C for the pooled commands (``batch``, ``match``, full-game ``lbr``).

Killed by SIGTERM with Python's default handler, the parent dies at once: no ``finally`` stops
its pool, and workers being started print ``multiprocessing`` tracebacks as their parent's pipe
closes. Raised as ``KeyboardInterrupt`` instead, the pool is stopped, the finished chunks stay
in the checkpoint, and ``pokertui`` prints "interrupted" and exits with 130.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():  # signals: main thread only
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(*_: Any) -> None:
    raise KeyboardInterrupt
