"""What is computed once from a game and kept with it: the flattened plan, the compiled plans
and walks (with their reach and value buffers), small lookup tables.

A game is immutable once built, so these never go stale; they are many MB on a spot (a flop's
compiled walk holds GBs of buffers), so the game owns them in one visible place instead of
attributes written into its ``__dict__`` by other modules, and each kind keeps only its most
recent few entries. ``clear()`` lets them all go.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

BOUND = 2
"""Entries kept per kind (the oldest goes first): a solver's compiled walk and the exact
evaluation's, or a plan with and without suit isomorphism."""


class DerivedCache:
    """Values derived from one game, keyed by ``(kind, key)``, at most ``bound`` per kind."""

    def __init__(self, bound: int = BOUND) -> None:
        self.bound = bound
        self._kinds: dict[str, OrderedDict[Hashable, Any]] = {}

    def get(self, kind: str, key: Hashable, build: Callable[[], T]) -> T:
        """The value of ``(kind, key)``, built by ``build()`` on first use."""
        entries = self._kinds.setdefault(kind, OrderedDict())
        if key in entries:
            entries.move_to_end(key)
            return entries[key]
        value = build()
        entries[key] = value
        while len(entries) > self.bound:
            entries.popitem(last=False)
        return value

    def keys(self, kind: str) -> list[Hashable]:
        """The keys of ``kind`` held now, oldest first."""
        return list(self._kinds.get(kind, ()))

    def __len__(self) -> int:
        """Entries held now, over every kind."""
        return sum(len(entries) for entries in self._kinds.values())

    def clear(self) -> None:
        self._kinds.clear()
