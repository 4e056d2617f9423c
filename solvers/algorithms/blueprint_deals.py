"""Where the blueprint solver's deals come from: each deal is both players' buckets on every
street and who wins the showdown.

``RandomDeals`` deals the real game (two hole cards each and a five-card board, uniformly) and
asks a card abstraction for the buckets; ``FixedBoardDeals`` plays a fixed board with given
ranges and lossless buckets (a combo's bucket is its index), the small exact game that tests
compare with the spot engine; ``FixedTurnDeals`` plays a fixed turn with given ranges and deals
the river, bucketed by a card abstraction on that board (or losslessly), the smallest game in
which a card abstraction loses anything and that is still solved exactly
(``blueprint_turn_exact``). All are vectorised over a batch of deals.
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


class BoardBuckets(Protocol):
    """The part of ``CardAbstraction`` a fixed-board game reads: one board's buckets."""

    @property
    def n_buckets(self) -> tuple[int, int, int, int]: ...

    @property
    def spec(self) -> str: ...

    def combo_buckets(self, board: np.ndarray, street: int) -> np.ndarray: ...


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
        chosen = _draw_pairs(self.weights, n, rng)
        holes = COMBO_CARDS[chosen]
        boards = np.broadcast_to(self.board, (n, 5))
        buckets = np.repeat(chosen[:, :, None], 4, axis=2).astype(np.int16)
        return buckets, showdown_winners(holes, boards)


def _range_weights(board: np.ndarray, ranges: tuple[np.ndarray, np.ndarray]) -> list[np.ndarray]:
    blocked = np.isin(COMBO_CARDS, board).any(axis=1)
    out = []
    for weights in ranges:
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (N_COMBOS,):
            raise InputError(f"a range has a weight for each of the {N_COMBOS} combos")
        w = np.where(blocked, 0.0, weights)
        if w.sum() <= 0:
            raise InputError("each range needs positive weight on combos the board allows")
        out.append(w)
    return out


def _draw_pairs(weights: list[np.ndarray], n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` combo pairs ``[n, 2]`` from the two ranges, pairs sharing a card rejected."""
    chosen = np.empty((0, 2), dtype=np.int64)
    cdf = [np.cumsum(w) / w.sum() for w in weights]
    while chosen.shape[0] < n:
        draw = np.stack([np.searchsorted(c, rng.random(2 * n), side="right") for c in cdf], 1)
        draw = np.minimum(draw, N_COMBOS - 1)
        cards = COMBO_CARDS[draw]
        clash = (cards[:, 0, :, None] == cards[:, 1, None, :]).any(axis=(1, 2))
        chosen = np.concatenate([chosen, draw[~clash]])
    return chosen[:n]


class FixedTurnDeals:
    """A fixed four-card board, a weighted range per seat and a uniformly dealt river.

    Turn and river buckets come from ``abstraction.combo_buckets`` on the board (the preflop
    and flop ones are 0: the tree starts at the turn). A street without an abstraction is
    lossless: a turn bucket is the combo, a river bucket the river card and the combo (no
    abstraction at all, or ``lossless_river`` to measure the turn buckets alone).
    """

    RIVERS = N_CARDS - 8
    """Rivers of a deal: 52 cards less the board's four and the two hands' four."""

    def __init__(self, board: list[int], ranges: tuple[np.ndarray, np.ndarray],
                 abstraction: BoardBuckets | None = None,
                 lossless_river: bool = False) -> None:  # fmt: skip
        if len(board) != 4 or len(set(board)) != 4 or not set(board) <= set(range(N_CARDS)):
            raise InputError("a fixed-turn deal source needs four distinct board cards")
        self.board = np.asarray(board, dtype=np.int8)
        self.weights = _range_weights(self.board, ranges)
        self.rivers = np.setdiff1d(np.arange(N_CARDS), self.board)
        self.river_buckets = np.full((N_CARDS, N_COMBOS), -1, dtype=np.int64)
        """``[river card, combo]``: the combo's river bucket (-1 where blocked)."""
        board64 = self.board.astype(np.int64)
        if abstraction is None:
            self.turn_buckets = np.arange(N_COMBOS, dtype=np.int64)
            n_turn, self.spec = N_COMBOS, "lossless"
        else:
            self.turn_buckets = abstraction.combo_buckets(board64, 2).astype(np.int64)
            n_turn, self.spec = int(abstraction.n_buckets[2]), abstraction.spec
        if abstraction is None or lossless_river:
            self.river_buckets[self.rivers] = self.rivers[:, None] * N_COMBOS + np.arange(N_COMBOS)
            n_river = N_CARDS * N_COMBOS
            self.spec += ", lossless river" if abstraction is not None else ""
        else:
            for r in self.rivers:
                self.river_buckets[r] = abstraction.combo_buckets(np.append(board64, r), 3)
            n_river = int(abstraction.n_buckets[3])
        self.n_buckets: tuple[int, ...] = (1, 1, n_turn, n_river)
        blocked = np.isin(COMBO_CARDS, self.board).any(axis=1)
        self.river_buckets[:, blocked] = -1

    def deal(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``n`` deals: the seats' combos ``[n, 2]`` and the river card ``[n]`` (uniform among
        the 44 cards the board and both hands leave)."""
        chosen = _draw_pairs(self.weights, n, rng)
        free = np.ones((n, N_CARDS), dtype=bool)
        free[:, self.board] = False
        np.put_along_axis(free, COMBO_CARDS[chosen].reshape(n, 4).astype(np.int64), False, 1)
        pick = rng.integers(0, self.RIVERS, size=n)
        return chosen, np.argmax(np.cumsum(free, axis=1) > pick[:, None], axis=1)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        chosen, river = self.deal(n, rng)
        holes = COMBO_CARDS[chosen].astype(np.int64)
        boards = np.column_stack([np.broadcast_to(self.board, (n, 4)), river]).astype(np.int64)
        buckets = np.zeros((n, 2, 4), dtype=np.int16)
        buckets[:, :, 2] = self.turn_buckets[chosen]
        buckets[:, :, 3] = self.river_buckets[river[:, None], chosen]
        return buckets, showdown_winners(holes, boards)
