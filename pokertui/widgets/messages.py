"""Messages that carry results from workers to the screens that own the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from pokertui.session import Spot


@dataclass
class SpotReady(Message):
    """The live numbers for one decision, computed in a worker.

    ``hand_number`` and ``node_key`` identify the decision, so a result that arrives after the
    player has already acted is recognised as stale and dropped.
    """

    spot: Spot
    hand_number: int
    node_key: str


@dataclass
class SpotFailed(Message):
    """The worker could not compute the spot; the panel says so instead of crashing."""

    error: str
    hand_number: int
    node_key: str
