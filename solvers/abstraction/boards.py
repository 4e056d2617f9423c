"""Boards up to suit relabelling: the canonical flops, turns and rivers and the map onto them.

Bucket tables are stored once per canonical board (1,755 flops, 16,432 turns, 134,459
rivers instead of 22,100, 270,725 and 2,598,960). A board's canonical form sorts its suits by
their rank sets (13-bit masks, largest first) and relabels them 0..3 in that order; the same
relabelling applied to the hole cards gives the row of the canonical board's table. Suits with
equal rank sets may be ordered either way: swapping them fixes the board, and hand strength
does not depend on suit names, so both orders read the same bucket.

Everything here is numpy over batches of boards (the solver maps thousands of deals at once).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from solvers.cards.deck import N_CARDS

_RANK_BITS = 13
_SUITS = np.arange(4)


def all_boards(k: int) -> np.ndarray:
    """Every set of ``k`` distinct cards, ascending within a row: int8 ``[C(52, k), k]``."""
    boards = np.arange(N_CARDS, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = boards[:, -1]
        counts = N_CARDS - 1 - last
        rows = np.repeat(boards, counts, axis=0)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        new = np.arange(int(counts.sum())) - starts + np.repeat(last + 1, counts)
        boards = np.column_stack([rows, new])
    return boards.astype(np.int8)


def suit_masks(boards: np.ndarray) -> np.ndarray:
    """Rank set of each suit (bit r for rank r): int64 ``[n, 4]``."""
    boards = np.asarray(boards, dtype=np.int64)
    masks = np.zeros((boards.shape[0], 4), dtype=np.int64)
    for j in range(boards.shape[1]):
        card = boards[:, j : j + 1]
        masks += np.where((card & 3) == _SUITS, np.int64(1) << (card >> 2), 0)
    return masks


def _key(sorted_masks: np.ndarray) -> np.ndarray:
    key = sorted_masks[:, 0].copy()
    for s in range(1, 4):
        key = (key << _RANK_BITS) | sorted_masks[:, s]
    return key


def canonical_keys(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each board's canonical key and its suit relabelling ``perm[n, old suit] = new suit``."""
    return _keys_of_masks(suit_masks(boards))


def _keys_of_masks(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-masks, axis=1, kind="stable")
    perm = np.empty_like(order)
    np.put_along_axis(perm, order, np.broadcast_to(_SUITS, order.shape), axis=1)
    return _key(np.take_along_axis(masks, order, axis=1)), perm


def relabel(cards: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Cards ``[n, ...]`` with suits renamed by each row's ``perm[n, 4]``."""
    cards = np.asarray(cards, dtype=np.int64)
    rows = np.arange(cards.shape[0]).reshape((-1,) + (1,) * (cards.ndim - 1))
    return (cards & ~3) | perm[rows, cards & 3]


def boards_from_keys(keys: np.ndarray, k: int) -> np.ndarray:
    """The canonical board of each key (suit s holds the s-th largest rank set): int8 ``[n, k]``."""
    keys = np.asarray(keys, dtype=np.int64)
    masks = np.stack([(keys >> (_RANK_BITS * (3 - s))) & 0x1FFF for s in range(4)], axis=1)
    bits = (masks[:, :, None] >> np.arange(_RANK_BITS)) & 1  # [n, suit, rank]
    cards = (4 * np.arange(_RANK_BITS)[None, :] + _SUITS[:, None]).ravel()
    present = bits.reshape(len(keys), -1).astype(bool)
    return np.broadcast_to(cards, present.shape)[present].reshape(len(keys), k).astype(np.int8)


@cache
def canonical_boards(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(keys, boards, weights)`` of the canonical boards of ``k`` cards, keys ascending.

    ``weights[i]`` is how many of the C(52, k) boards relabel onto board ``i``.
    """
    if k not in (3, 4, 5):
        raise ValueError(f"boards have 3, 4 or 5 cards, not {k}")
    keys, _ = canonical_keys(all_boards(k))
    unique, weights = np.unique(keys, return_counts=True)
    for a in (unique, weights):
        a.setflags(write=False)
    return unique, boards_from_keys(unique, k), weights


def board_index(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row of each board among ``canonical_boards(k)`` and the suit relabelling onto it."""
    boards = np.asarray(boards)
    return _rows(suit_masks(boards), boards.shape[1])


def _rows(masks: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    keys, perm = _keys_of_masks(masks)
    return np.searchsorted(canonical_boards(k)[0], keys), perm
