"""numba kernels of ``board_strengths``: every hand's 7-card strength on every board.

A leaf module (callers pass the evaluator's tables: ``evaluator.kernel_tables``), loaded on
use so that numba starts only when a spot or a report evaluates boards. Strengths are the
evaluator's: the additive rank key looked up in the 7-card rank table and, where five cards
share a suit, the flush table's score of that suit's ranks if higher.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_RANK_MASK = (1 << 23) - 1
_SUIT_SHIFT = 23


@njit(cache=True, nogil=True)
def board_key(board, card_key, suit_ranks):
    """The key sum of a 5-card ``board``; ``suit_ranks[s]`` gets the rank bits of suit ``s``."""
    suit_ranks[:] = 0
    key = np.int64(0)
    for i in range(5):
        c = board[i]
        key += card_key[c]
        suit_ranks[c & 3] |= np.int64(1) << (c >> 2)
    return key


@njit(cache=True, nogil=True, inline="always")
def seven_card_strength(key, suit_ranks, a, b, card_key, rank7, flush_suit, flush_table):
    """The strength of the board (``board_key``'s ``key`` and ``suit_ranks``) with the hole
    cards ``a`` and ``b``, which it does not hold."""
    k = key + card_key[a] + card_key[b]
    strength = np.int64(rank7[k & _RANK_MASK])
    suit = flush_suit[k >> _SUIT_SHIFT]
    if suit >= 0:
        ranks = suit_ranks[suit]
        if (a & 3) == suit:
            ranks |= np.int64(1) << (a >> 2)
        if (b & 3) == suit:
            ranks |= np.int64(1) << (b >> 2)
        strength = max(strength, np.int64(flush_table[ranks]))
    return strength


@njit(cache=True, parallel=True)
def strength_table(boards, hole, card_key, rank7, flush_suit, flush_table, out):
    """``out[i, h]``: the strength of hole cards ``hole[h]`` on ``boards[i]``, -1 where they
    share a card."""
    for i in prange(boards.shape[0]):
        suit_ranks = np.zeros(4, dtype=np.int64)
        dead = np.zeros(52, dtype=np.bool_)
        board = boards[i]
        for j in range(5):
            dead[board[j]] = True
        key = board_key(board, card_key, suit_ranks)
        for h in range(hole.shape[0]):
            a = hole[h, 0]
            b = hole[h, 1]
            if dead[a] or dead[b]:
                out[i, h] = -1
            else:
                out[i, h] = seven_card_strength(
                    key, suit_ranks, a, b, card_key, rank7, flush_suit, flush_table
                )
