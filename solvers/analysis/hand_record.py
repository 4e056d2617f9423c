"""One imported hand in the engine's terms, and the tally of hands left out by reason."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solvers.errors import InputError
from solvers.games.hunl.rules import HunlConfig, HunlState, parse_action


class HandSkipped(InputError):
    """A hand the analysis leaves out; ``reason`` is the tally's key (``SKIP_REASONS``)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


SKIP_REASONS = (
    "unreadable hand",
    "not no-limit hold'em",
    "more than two players",
    "antes",
    "straddles",
    "blinds not 1:2",
    "stack outside 10-250 bb",
    "absurd amount",
    "unsupported action",
    "illegal under the game's rules",
    "unfinished hand",
    "hero not in the hand",
    "hero's cards unknown",
    "duplicate hand id",
    "no model bot at this depth",
)
"""Why a hand is left out, in the order the report lists them."""


@dataclass(frozen=True)
class ImportedHand:
    """A heads-up no-limit hand in ACPC chips (big blind 100): seat 0 is the button."""

    key: str
    """Identity for duplicates and checkpoints: the site's hand id, or the hand's content."""
    source: str
    """The file and the hand's id there, for the report."""
    site: str
    number: int
    """Seeds the preflop equity's sampled boards (the hand's number where it is one)."""
    names: tuple[str, str]
    stack: int
    """The effective stack in chips: the game is ``hunl(stack_bb=stack / 100)``."""
    holes: tuple[tuple[int, int] | None, tuple[int, int] | None]
    board: tuple[int, ...]
    actions: tuple[str, ...]
    """ACPC tokens in order (``r300``, ``c``, ``f``): raise totals over the hand."""

    @property
    def config(self) -> HunlConfig:
        return HunlConfig(stack_bb=self.stack / 100)

    def states(self) -> list[HunlState]:
        """The state before each action, then the final one."""
        state = HunlState.initial(self.config)
        found = [state]
        for token in self.actions:
            state = state.apply(parse_action(token))
            found.append(state)
        return found

    def seat_of(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None


class SkipTally(Counter):
    """Hands left out, counted by reason (``SKIP_REASONS``)."""

    def skip(self, reason: str, count: int = 1) -> None:
        self[reason] += count

    def as_rows(self) -> list[tuple[str, int]]:
        order = {reason: i for i, reason in enumerate(SKIP_REASONS)}
        return sorted(((r, n) for r, n in self.items() if n), key=lambda x: order.get(x[0], 99))
