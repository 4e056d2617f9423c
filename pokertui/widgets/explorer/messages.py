"""Messages the explorer's workers post; the screen's handlers apply them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message


@dataclass
class Opened(Message):
    """A strategy file loaded and validated."""

    path: str
    loaded: Any
    """The ``StrategyFile``, or a full-game blueprint's ``BlueprintView``."""


@dataclass
class Computed(Message):
    """A worker's result for the file of ``generation``; ``part`` names the pane it feeds
    (``node``, ``exploit``, ``hand`` or ``compare``)."""

    generation: int
    part: str
    result: Any


@dataclass
class Failed(Message):
    """A file that cannot be opened (``part`` is ``open``) or a computation that failed."""

    generation: int
    part: str
    message: str
