"""Play sessions: the model behind the play screen and ``pokertui play`` (no UI here)."""

from pokertui.session.session import HandRecord, IllegalActionError, Option, Session, Step
from pokertui.session.spot import SizeInfo, Spot, current_spot

__all__ = [
    "HandRecord",
    "IllegalActionError",
    "Option",
    "Session",
    "SizeInfo",
    "Spot",
    "Step",
    "current_spot",
]
