"""Strategies in the common format: ``dict[node_id, array[hands, actions]]`` (see ``base.py``).

Helpers to build (uniform, random) and check strategies for any game, including matrix
games, whose two pseudo decision nodes use the same format.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from solvers.errors import InputError
from solvers.games.base import Strategy

__all__ = [
    "SeatProfile",
    "Strategy",
    "StrategyError",
    "random_strategy",
    "uniform_strategy",
    "validate_strategy",
]


class StrategyError(InputError):
    """A strategy that does not fit the game: missing node, wrong shape or bad probabilities."""


class SeatProfile(Mapping[int, np.ndarray]):
    """Seat ``p``'s decisions from ``seats[p]``, read node by node on access: a profile of two
    strategies for one game (a bot against a file) that is never spread over a flop's tree."""

    def __init__(self, game: Any, seats: tuple[Mapping[int, np.ndarray], Mapping[int, np.ndarray]]):
        self.game = game
        self.seats = seats
        self._decisions = [n.id for n in game.decision_nodes()]

    def __getitem__(self, node_id: int) -> np.ndarray:
        return self.seats[self.game.nodes[node_id].player][node_id]

    @classmethod
    def with_default(
        cls, game: Any, strategy: Mapping[int, np.ndarray], player: int
    ) -> SeatProfile:
        """``strategy`` with ``player``'s decisions played uniformly (a partial strategy that
        gives only the opponent's rows, where ``player`` best-responds)."""
        seats: list[Mapping[int, np.ndarray]] = [strategy, strategy]
        seats[player] = uniform_strategy(game, [player])
        return cls(game, (seats[0], seats[1]))

    def __iter__(self) -> Iterator[int]:
        return iter(self._decisions)

    def __len__(self) -> int:
        return len(self._decisions)


def uniform_strategy(game: Any, players: Iterable[int] = (0, 1)) -> Strategy:
    """Every action equally likely, for every hand at every decision node of ``players``."""
    wanted = set(players)
    return {
        n.id: np.full((game.n_hands[n.player], len(n.actions)), 1.0 / len(n.actions))
        for n in game.decision_nodes()
        if n.player in wanted
    }


def random_strategy(game: Any, rng: np.random.Generator) -> Strategy:
    """A random profile (rows drawn uniformly from the simplex); for tests and benchmarks."""
    out: Strategy = {}
    for n in game.decision_nodes():
        draws = rng.exponential(size=(game.n_hands[n.player], len(n.actions)))
        out[n.id] = draws / draws.sum(axis=1, keepdims=True)
    return out


def validate_strategy(
    game: Any, strategy: Mapping[int, np.ndarray], players: Iterable[int] = (0, 1), atol=1e-6
) -> None:
    """Raise ``StrategyError`` naming every problem: missing nodes, shapes, bad rows."""
    problems: list[str] = []
    for n in game.decision_nodes():
        if n.player not in set(players):
            continue
        probs = strategy.get(n.id)
        shape = (game.n_hands[n.player], len(n.actions))
        if probs is None:
            problems.append(f"node {n.key!r}: missing")
            continue
        probs = np.asarray(probs, dtype=float)
        if probs.shape != shape:
            problems.append(f"node {n.key!r}: shape {probs.shape}, expected {shape}")
            continue
        bad = ~np.isfinite(probs).all(axis=1) | (probs < 0).any(axis=1)
        bad |= np.abs(probs.sum(axis=1) - 1) > atol
        for h in np.flatnonzero(bad)[:5]:
            label = game.hand_labels[n.player][h]
            problems.append(f"node {n.key!r} hand {label}: probabilities {probs[h].tolist()}")
    if problems:
        raise StrategyError("invalid strategy: " + "; ".join(problems))
