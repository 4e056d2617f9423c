"""Vectorised enumeration of card subsets, and exhaustive counts over all hands.

Subsets are produced in *colex* order (sorted by their largest element first), so the subsets
of ``range(m)`` are always a prefix: the first ``comb(m, k)`` rows. The exhaustive 7-card count
uses this to pair every 5-card prefix with its two larger cards without materialising all
133,784,560 hands at once.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

from solvers.cards import evaluator


@cache
def colex_subsets(n: int, k: int) -> np.ndarray:
    """All k-subsets of ``range(n)`` as an ``int8`` array ``[comb(n, k), k]`` in colex order."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    if k > n:
        return np.zeros((0, k), dtype=np.int8)
    smaller = colex_subsets(n - 1, k - 1) if k - 1 <= n - 1 else np.zeros((0, k - 1), np.int8)
    blocks = []
    for top in range(k - 1, n):
        head = smaller[: comb(top, k - 1)]
        tail = np.full((head.shape[0], 1), top, dtype=np.int8)
        blocks.append(np.hstack([head, tail]))
    out = np.vstack(blocks)
    out.setflags(write=False)
    return out


def subsets_of(cards: np.ndarray, k: int) -> np.ndarray:
    """All k-subsets of the given cards (card ids), as ``[comb(len, k), k]``."""
    cards = np.asarray(cards, dtype=np.int8)
    return cards[colex_subsets(len(cards), k)]


@cache
def five_card_keys() -> tuple[np.ndarray, np.ndarray]:
    """Key sums and bit masks of all 2,598,960 five-card sets, in colex order."""
    boards = colex_subsets(52, 5)
    return evaluator.key_sum(boards), evaluator.bit_mask(boards)


def seven_card_histogram() -> np.ndarray:
    """Count of every strength (index 0..7462) over all C(52, 7) seven-card hands.

    For each pair of top cards (c6 < c7) the other five are any 5-subset of ``range(c6)``,
    which is a prefix of the colex list, so each step is one vectorised lookup.
    """
    keys5, masks5 = five_card_keys()
    rank_table = evaluator._rank_table(7)
    flush_suit_table = evaluator._flush_suit_table()
    flush_table = evaluator._flush_table()
    counts = np.zeros(evaluator.N_STRENGTHS + 1, dtype=np.int64)
    for c6 in range(5, 51):
        prefix = comb(c6, 5)
        base_keys = keys5[:prefix] + evaluator.CARD_KEY[c6]
        base_masks = masks5[:prefix] | evaluator.CARD_BIT[c6]
        for c7 in range(c6 + 1, 52):
            keys = base_keys + evaluator.CARD_KEY[c7]
            strength = rank_table[keys & evaluator._RANK_MASK]
            flush_suit = flush_suit_table[keys >> evaluator._SUIT_SHIFT]
            rows = np.flatnonzero(flush_suit >= 0)
            masks = base_masks[rows] | evaluator.CARD_BIT[c7]
            shift = (16 * flush_suit[rows]).astype(np.uint64)
            suited = ((masks >> shift) & np.uint64(0x1FFF)).astype(np.intp)
            strength[rows] = np.maximum(strength[rows], flush_table[suited])
            counts += np.bincount(strength, minlength=evaluator.N_STRENGTHS + 1)
    return counts


def five_card_histogram() -> np.ndarray:
    """Count of every strength over all 2,598,960 five-card hands."""
    keys5, masks5 = five_card_keys()
    strength = evaluator.evaluate_keys(keys5, 5, lambda rows: masks5[rows])
    return np.bincount(strength, minlength=evaluator.N_STRENGTHS + 1)


def category_counts(histogram: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hands and distinct strengths per category, from a strength histogram."""
    strengths = np.arange(histogram.size)
    cats = evaluator.category(strengths[1:])
    hands = np.bincount(cats, weights=histogram[1:], minlength=evaluator.N_CATEGORIES)
    distinct = np.bincount(cats, weights=histogram[1:] > 0, minlength=evaluator.N_CATEGORIES)
    return hands.astype(np.int64), distinct.astype(np.int64)
