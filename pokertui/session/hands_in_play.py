"""What every play session reads off its list of hands: the last one is the hand in play."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from solvers.errors import InputError


class _Hand(Protocol):
    @property
    def human_seat(self) -> int: ...

    @property
    def result(self) -> object: ...


HandT = TypeVar("HandT", bound=_Hand)


class HandsInPlay(Generic[HandT]):
    """Seats and the hand in play, for a session that keeps ``self.hands`` (oldest first)."""

    hands: list[HandT]

    @property
    def hand(self) -> HandT:
        if not self.hands:
            raise InputError("no hand has been dealt yet")
        return self.hands[-1]

    @property
    def human_seat(self) -> int:
        return self.hand.human_seat

    @property
    def bot_seat(self) -> int:
        return 1 - self.human_seat

    @property
    def hand_over(self) -> bool:
        return not self.hands or self.hand.result is not None
