"""numba kernels of the potential-aware card abstraction: river-strength histograms, turn-bucket
histograms and the earth mover's distances that cluster them.

Loaded late, like ``strength_kernels`` (the only module it imports), so that numba starts only
when buckets are computed.

* A turn hand's histogram counts its 46 rivers by river strength ``w`` (``strength_kernels``)
  in equal-width bins; it is stored as its cumulative counts over the first ``bins - 1`` bins
  (the last is always 46), packed base 47 into one int64 key, so equal histograms compare equal.
  In one dimension the EMD between two histograms is the L1 distance between their cumulative
  ones, so turn clustering is exact under EMD.
* A flop hand's histogram is its turn bucket on each of its 47 turn cards, kept as the 47
  buckets sorted. Its distance to a cluster mean is the greedy approximate EMD of Ganzfried and
  Sandholm (2014): in rounds ``r = 0, 1, ...`` every unit of the hand's mass still unmoved goes
  to its ``r``-th nearest turn bucket (by the ground distance), taking what that bucket of the
  mean still has room for. It is exact when each mass fits its nearest bucket and an upper bound
  otherwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.abstraction.lookup_kernels import relabelled, turn_row
from solvers.abstraction.strength_kernels import N_COMBOS, W_MAX, river_w

KEY_BASE = 47
"""Cumulative counts run 0..46, so a histogram's key is a number in base 47."""
TURN_CARDS = 47
"""Turn cards a flop hand sees: 52 - 3 board cards - 2 hole cards."""


@njit(cache=True, nogil=True)
def _turn_keys(board, n_bins, combo_cards, card_key, rank7, flush_suit, flush_table, keys):
    """``keys[h]``: the packed cumulative river histogram of combo ``h`` on a 4-card board (-1
    where the board blocks it)."""
    full = np.empty(5, np.int64)
    used = np.zeros(52, np.bool_)
    for j in range(4):
        full[j] = board[j]
        used[board[j]] = True
    counts = np.zeros((N_COMBOS, n_bins), np.int64)
    out = np.empty(N_COMBOS, np.int64)
    order = np.empty(N_COMBOS, np.int64)
    for r in range(52):
        if used[r]:
            continue
        full[4] = r
        river_w(full, combo_cards, card_key, rank7, flush_suit, flush_table, out, order)
        for h in range(N_COMBOS):
            if out[h] >= 0:
                counts[h, out[h] * n_bins // (W_MAX + 1)] += 1
    for h in range(N_COMBOS):
        if used[combo_cards[h, 0]] or used[combo_cards[h, 1]]:
            keys[h] = -1
            continue
        key = np.int64(0)
        cumulative = np.int64(0)
        for b in range(n_bins - 1):
            cumulative += counts[h, b]
            key = key * KEY_BASE + cumulative
        keys[h] = key


@njit(cache=True, parallel=True)
def turn_keys(boards, n_bins, combo_cards, card_key, rank7, flush_suit, flush_table):
    """``_turn_keys`` of each 4-card board over all cores: int64 ``[boards, 1326]``."""
    keys = np.empty((boards.shape[0], N_COMBOS), np.int64)
    for i in prange(boards.shape[0]):
        _turn_keys(boards[i], n_bins, combo_cards, card_key, rank7, flush_suit, flush_table,
                   keys[i])  # fmt: skip
    return keys


@njit(cache=True)
def decode_keys(keys, n_dims):
    """Cumulative counts ``int64[n, n_dims]`` of packed keys (the inverse of the packing)."""
    out = np.empty((keys.shape[0], n_dims), np.int64)
    for i in range(keys.shape[0]):
        key = keys[i]
        for d in range(n_dims - 1, -1, -1):
            out[i, d] = key % KEY_BASE
            key //= KEY_BASE
    return out


@njit(cache=True, parallel=True)
def l1_nearest(points, centroids):
    """Index of the L1-nearest centroid of each point (the first on ties) and the distance."""
    n, k = points.shape[0], centroids.shape[0]
    labels = np.empty(n, np.int64)
    dist = np.empty(n, np.float64)
    for i in prange(n):
        best, arg = np.inf, 0
        for c in range(k):
            d = 0.0
            for j in range(points.shape[1]):
                d += abs(points[i, j] - centroids[c, j])
            if d < best:
                best, arg = d, c
        labels[i], dist[i] = arg, best
    return labels, dist


@njit(cache=True, parallel=True)
def flop_turn_buckets(flops, turn_keys_sorted, turn_table, combo_index, combo_cards):
    """Each flop hand's turn bucket on each of its 47 turn cards, sorted: int16
    ``[flops, 1326, 47]`` (-1 rows where the flop blocks the hand). ``turn_table`` is
    ``[canonical turns, 1326]``, read through each turn's canonical row and suit relabelling."""
    n = flops.shape[0]
    out = np.full((n, N_COMBOS, TURN_CARDS), -1, np.int16)
    for i in prange(n):
        masks = np.zeros(4, np.int64)
        order = np.zeros(4, np.int64)
        perm = np.zeros(4, np.int64)
        used = np.zeros(52, np.bool_)
        filled = np.zeros(N_COMBOS, np.int64)
        for j in range(3):
            used[flops[i, j]] = True
        for t in range(52):
            if used[t]:
                continue
            row = turn_row(flops[i], t, turn_keys_sorted, masks, order, perm)
            for h in range(N_COMBOS):
                seen = relabelled(h, t, used, perm, combo_cards, combo_index)
                if seen >= 0:
                    out[i, h, filled[h]] = turn_table[row, seen]
                    filled[h] += 1
        for h in range(N_COMBOS):
            if filled[h] == TURN_CARDS:
                out[i, h, :] = np.sort(out[i, h, :])
    return out


@njit(cache=True, nogil=True)
def greedy_emd(buckets, masses, m, mean, order, distance, room, left, bound):
    """Approximate EMD from the hand's ``m`` (bucket, mass) pairs to the histogram ``mean``.

    ``order[b, r]`` is the ``r``-th nearest bucket to ``b`` and ``distance[b, r]`` its ground
    distance; ``room`` and ``left`` are scratch. Stops early once past ``bound``.
    """
    room[:] = mean
    for j in range(m):
        left[j] = masses[j]
    unmoved = m
    total = 0.0
    for r in range(order.shape[1]):
        for j in range(m):
            if left[j] <= 1e-12:
                continue
            target = order[buckets[j], r]
            space = room[target]
            if space <= 1e-12:
                continue
            d = distance[buckets[j], r]
            if space < left[j]:
                total += space * d
                left[j] -= space
                room[target] = 0.0
            else:
                total += left[j] * d
                room[target] = space - left[j]
                left[j] = 0.0
                unmoved -= 1
        if unmoved == 0 or total >= bound:
            break
    return total


@njit(cache=True, nogil=True)
def _compress(sorted_buckets, buckets, masses):
    """Sorted turn buckets to distinct (bucket, mass) pairs, mass 1/47 a card; returns how many."""
    m = 0
    n = sorted_buckets.shape[0]
    for j in range(n):
        b = sorted_buckets[j]
        if m > 0 and buckets[m - 1] == b:
            masses[m - 1] += 1.0 / n
        else:
            buckets[m] = b
            masses[m] = 1.0 / n
            m += 1
    return m


@njit(cache=True, parallel=True)
def emd_nearest(rows, means, order, distance):
    """Nearest mean of each flop hand (rows of 47 sorted turn buckets) under ``greedy_emd``, the
    first on ties, and the distance."""
    n, k = rows.shape[0], means.shape[0]
    labels = np.empty(n, np.int64)
    dist = np.empty(n, np.float64)
    n_turn = means.shape[1]
    for i in prange(n):
        buckets = np.empty(TURN_CARDS, np.int64)
        masses = np.empty(TURN_CARDS, np.float64)
        room = np.empty(n_turn, np.float64)
        left = np.empty(TURN_CARDS, np.float64)
        m = _compress(rows[i], buckets, masses)
        best, arg = np.inf, 0
        for c in range(k):
            d = greedy_emd(buckets, masses, m, means[c], order, distance, room, left, best)
            if d < best:
                best, arg = d, c
        labels[i], dist[i] = arg, best
    return labels, dist
