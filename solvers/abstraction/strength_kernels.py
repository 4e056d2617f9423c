"""numba kernels of the card abstraction: hand strength on every river board of a runout.

It imports only the compiled evaluator (``cards/board_kernels.py``; callers pass the
evaluator's tables), and is loaded late so that numba starts only when buckets are computed,
not when the app starts.

A river board's strength for all 1,326 combos comes from one sweep: evaluate every unblocked
combo (7 cards, the evaluator's additive keys), sort by strength, and walk the tie groups
keeping per-card counts of weaker combos, so that card removal costs two subtractions per
combo. The result ``w = 2 * wins + ties`` against the 990 opponent combos is exact (HS is
``w / 1980``). Flop and turn features are sums of ``w**2`` over every runout (E[HS^2] times a
constant), exact integers too, so the tables are reproducible bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.cards.board_kernels import board_key, seven_card_strength

N_COMBOS = 1326
RIVER_OPPONENTS = 990
"""Opponent combos on a river: C(45, 2), the same for every hand and board."""
W_MAX = 2 * RIVER_OPPONENTS
"""``w`` of a hand that beats every opponent combo."""
_N_STRENGTHS = 7462


@njit(cache=True, nogil=True)
def sorted_strengths(board, combo_cards, card_key, rank7, flush_suit, flush_table, strength,
                     order):  # fmt: skip
    """Every combo's 7-card strength on a 5-card ``board`` into ``strength`` (-1 where the
    board blocks it) and the unblocked combos weakest first in ``order[:n]`` (a counting sort,
    combo order within a strength); returns ``n``."""
    dead = np.zeros(52, np.bool_)
    counts = np.zeros(_N_STRENGTHS + 2, np.int64)
    suit_ranks = np.zeros(4, np.int64)
    for i in range(5):
        dead[board[i]] = True
    key = board_key(board, card_key, suit_ranks)
    n = 0
    for h in range(N_COMBOS):
        a = combo_cards[h, 0]
        b = combo_cards[h, 1]
        if dead[a] or dead[b]:
            strength[h] = -1
            continue
        s = seven_card_strength(key, suit_ranks, a, b, card_key, rank7, flush_suit, flush_table)
        strength[h] = s
        counts[s + 1] += 1
        n += 1
    for s in range(1, counts.shape[0]):
        counts[s] += counts[s - 1]
    for h in range(N_COMBOS):
        if strength[h] >= 0:
            order[counts[strength[h]]] = h
            counts[strength[h]] += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def tie_end(strength, order, i, n):
    """Where the tie group starting at ``order[i]`` ends (``sorted_strengths``' order): the
    first position after it with another strength, or ``n``."""
    level = strength[order[i]]
    j = i + 1
    while j < n and strength[order[j]] == level:
        j += 1
    return j


@njit(cache=True, nogil=True)
def river_w(board, combo_cards, card_key, rank7, flush_suit, flush_table, out, order):
    """``out[c] = 2 * wins + ties`` of combo ``c`` on a 5-card ``board`` (-1 if blocked).

    ``order`` is int64 scratch of at least 1,326 entries.
    """
    strength = np.empty(N_COMBOS, np.int64)
    n = sorted_strengths(board, combo_cards, card_key, rank7, flush_suit, flush_table, strength,
                         order)  # fmt: skip
    for h in range(N_COMBOS):
        out[h] = -1 if strength[h] < 0 else 0
    below = np.zeros(52, np.int64)
    tied = np.zeros(52, np.int64)
    below_all = 0
    i = 0
    while i < n:
        j = tie_end(strength, order, i, n)
        for t in range(i, j):
            h = order[t]
            tied[combo_cards[h, 0]] += 1
            tied[combo_cards[h, 1]] += 1
        size = j - i
        for t in range(i, j):
            h = order[t]
            a = combo_cards[h, 0]
            b = combo_cards[h, 1]
            # opponents sharing no card: all minus those holding a or b (h itself holds both)
            wins = below_all - below[a] - below[b]
            ties = size - tied[a] - tied[b] + 1
            out[h] = 2 * wins + ties
        for t in range(i, j):
            h = order[t]
            a = combo_cards[h, 0]
            b = combo_cards[h, 1]
            below[a] += 1
            below[b] += 1
            tied[a] = 0
            tied[b] = 0
        below_all += size
        i = j


@njit(cache=True, parallel=True)
def river_w_table(boards, combo_cards, card_key, rank7, flush_suit, flush_table):
    """``w`` of every combo on each 5-card board: int16 ``[boards, 1326]`` (-1 blocked)."""
    n_boards = boards.shape[0]
    result = np.empty((n_boards, N_COMBOS), np.int16)
    for i in prange(n_boards):
        out = np.empty(N_COMBOS, np.int64)
        order = np.empty(N_COMBOS, np.int64)
        river_w(boards[i], combo_cards, card_key, rank7, flush_suit, flush_table, out, order)
        for h in range(N_COMBOS):
            result[i, h] = out[h]
    return result


@njit(cache=True, nogil=True)
def _add_w2(full, combo_cards, card_key, rank7, flush_suit, flush_table, out, order, acc):
    river_w(full, combo_cards, card_key, rank7, flush_suit, flush_table, out, order)
    for h in range(N_COMBOS):
        w = out[h]
        if w >= 0:
            acc[h] += w * w


@njit(cache=True, nogil=True)
def board_w2_sums(board, combo_cards, card_key, rank7, flush_suit, flush_table, acc):
    """Add ``w**2`` of every river runout of one 3- or 4-card ``board`` into ``acc[1326]``.

    A combo counts only the runouts that avoid its cards (C(47, 2) = 1,081 from a flop, 46
    from a turn), so the sum over the count is its E[HS^2] times 1980**2. Blocked combos get 0.
    """
    k = board.shape[0]
    full = np.empty(5, np.int64)
    used = np.zeros(52, np.bool_)
    for j in range(k):
        full[j] = board[j]
        used[board[j]] = True
    out = np.empty(N_COMBOS, np.int64)
    order = np.empty(N_COMBOS, np.int64)
    tables = (combo_cards, card_key, rank7, flush_suit, flush_table)
    if k == 4:
        for r in range(52):
            if not used[r]:
                full[4] = r
                _add_w2(full, *tables, out, order, acc)
        return
    for t in range(52):
        if used[t]:
            continue
        full[3] = t
        for r in range(t + 1, 52):
            if not used[r]:
                full[4] = r
                _add_w2(full, *tables, out, order, acc)


@njit(cache=True, parallel=True)
def runout_w2_sums(boards, combo_cards, card_key, rank7, flush_suit, flush_table):
    """``board_w2_sums`` of each board, over all cores: int64 ``[boards, 1326]``."""
    sums = np.zeros((boards.shape[0], N_COMBOS), np.int64)
    for i in prange(boards.shape[0]):
        board_w2_sums(boards[i], combo_cards, card_key, rank7, flush_suit, flush_table, sums[i])
    return sums
