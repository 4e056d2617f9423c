"""Messages from a solver run's thread worker to the launcher screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.message import Message


@dataclass
class SolveUpdate(Message):
    """One event of run ``run_id``: a ``pokertui solve --json`` line or the worker's own
    ``launched``, ``validated``, ``ended`` or ``error``.

    ``history`` is the run's whole (iterations, exploitability) list so far, so a queued progress
    update may be replaced by a newer one without losing points (toolong's ``can_replace``).
    """

    run_id: int
    event: dict[str, Any]
    history: tuple[tuple[int, float], ...] = ()
    handle: Any = field(default=None, repr=False)

    def can_replace(self, message: Message) -> bool:
        return (
            isinstance(message, SolveUpdate)
            and message.run_id == self.run_id
            and message.event.get("event") == "progress"
            and self.event.get("event") == "progress"
        )
