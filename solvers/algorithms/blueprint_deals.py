"""Where the blueprint solver's deals come from: each deal is both players' buckets on every
street and who wins the showdown.

``RandomDeals`` deals the real game (two hole cards each and a five-card board, uniformly) and
asks a card abstraction for the buckets; ``FixedBoardDeals`` plays a fixed board with given
ranges and lossless buckets (a combo's bucket is its index), the small exact game that tests
compare with the spot engine. Both are vectorised over a batch of deals.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from solvers.cards.deck import COMBO_CARDS, N_CARDS, N_COMBOS
from solvers.cards.evaluator import evaluate
from solvers.errors import InputError


class CardBuckets(Protocol):
    """The part of ``solvers.abstraction.buckets.CardAbstraction`` the solver uses."""

    @property
    def n_buckets(self) -> tuple[int, int, int, int]: ...

    @property
    def spec(self) -> str: ...

    def deal_buckets(self, holes: np.ndarray, boards: np.ndarray) -> np.ndarray: ...


class DealSource(Protocol):
    n_buckets: tuple[int, ...]
    spec: str

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``buckets int16[n, 2, 4]`` (seat, street) and ``winners int8[n]`` (+1 seat 0 wins,
        -1 seat 1 wins, 0 split)."""
        ...


def showdown_winners(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """+1, -1 or 0 per deal from the two 7-card strengths."""
    n = holes.shape[0]
    seven = np.empty((2 * n, 7), dtype=np.int64)
    seven[:n, :2] = holes[:, 0]
    seven[n:, :2] = holes[:, 1]
    seven[:n, 2:] = boards
    seven[n:, 2:] = boards
    strength = evaluate(seven).astype(np.int32)
    return np.sign(strength[:n] - strength[n:]).astype(np.int8)


class RandomDeals:
    """Uniform deals of the whole game, bucketed by ``abstraction``."""

    def __init__(self, abstraction: CardBuckets) -> None:
        self.abstraction = abstraction
        self.n_buckets = tuple(int(b) for b in abstraction.n_buckets)
        self.spec = abstraction.spec

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        cards = np.argsort(rng.random((n, N_CARDS)), axis=1)[:, :9].astype(np.int8)
        holes = cards[:, :4].reshape(n, 2, 2)
        boards = cards[:, 4:9]
        buckets = np.asarray(self.abstraction.deal_buckets(holes, boards), dtype=np.int16)
        return buckets, showdown_winners(holes, boards)


class FixedBoardDeals:
    """A fixed five-card board and a weighted range per seat; bucket = combo index on every
    street (perfect recall: the board is known from the start)."""

    def __init__(self, board: list[int], ranges: tuple[np.ndarray, np.ndarray]) -> None:
        if len(board) != 5 or len(set(board)) != 5:
            raise InputError("a fixed-board deal source needs five distinct board cards")
        self.board = np.asarray(board, dtype=np.int8)
        blocked = np.isin(COMBO_CARDS, self.board).any(axis=1)
        self.weights = []
        for weights in ranges:
            w = np.where(blocked, 0.0, np.asarray(weights, dtype=float))
            if w.shape != (N_COMBOS,) or w.sum() <= 0:
                raise InputError("each range needs positive weight on combos the board allows")
            self.weights.append(w)
        self.n_buckets = (N_COMBOS,) * 4
        self.spec = "lossless"

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        chosen = np.empty((0, 2), dtype=np.int64)
        cdf = [np.cumsum(w) / w.sum() for w in self.weights]
        while chosen.shape[0] < n:
            draw = np.stack([np.searchsorted(c, rng.random(2 * n), side="right") for c in cdf], 1)
            draw = np.minimum(draw, N_COMBOS - 1)
            cards = COMBO_CARDS[draw]
            clash = (cards[:, 0, :, None] == cards[:, 1, None, :]).any(axis=(1, 2))
            chosen = np.concatenate([chosen, draw[~clash]])
        chosen = chosen[:n]
        holes = COMBO_CARDS[chosen]
        boards = np.broadcast_to(self.board, (n, 5))
        buckets = np.repeat(chosen[:, :, None], 4, axis=2).astype(np.int16)
        return buckets, showdown_winners(holes, boards)
