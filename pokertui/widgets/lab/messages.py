"""Messages from the range lab's equity worker to the screen that owns the results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    import numpy as np

    from solvers.cards.equity import EquityResult


@dataclass
class EquityProgress(Message):
    """A Monte Carlo run's pooled estimate so far; ``done`` is the share of samples drawn.

    Only the newest one matters, so a queued progress message is replaced by the next.
    """

    request: int
    done: float
    partial: EquityResult

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, EquityProgress) and message.request == self.request


@dataclass
class EquityDone(Message):
    """The finished equity; ``class_equity`` is the hero's per-class equity (exact runs only)."""

    request: int
    result: EquityResult
    class_equity: np.ndarray | None


@dataclass
class EquityFailed(Message):
    request: int
    error: str


@dataclass
class ClassEquityDone(Message):
    """One hero class's equity against the villain range, computed on demand."""

    request: int
    class_id: int
    result: EquityResult
