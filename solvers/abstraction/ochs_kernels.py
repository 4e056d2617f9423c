"""numba kernels of opponent-cluster hand strength (OCHS) on the river.

A hand's OCHS vector holds its equity against each cluster of opponent hands: wins plus half
the ties over the cluster's combos that share no card with the hand or the board. One sweep
per board, as ``strength_kernels.river_w`` does for the whole range: the unblocked combos
sorted by strength (``sorted_strengths``), then a walk over the tie groups keeping
per-cluster counts of weaker and tied combos by card, so card removal costs a few
subtractions per hand and cluster.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.abstraction.strength_kernels import N_COMBOS, sorted_strengths, tie_end


@njit(cache=True, nogil=True)
def river_ochs(board, cluster, n_clusters, combo_cards, card_key, rank7, flush_suit,
               flush_table, out):  # fmt: skip
    """``out[h, c]``: combo ``h``'s equity on the 5-card ``board`` against the combos of
    cluster ``c`` (``cluster[h]`` per combo) that share no card with it; -1 in every column
    where the board blocks ``h``, 0.5 where no combo of the cluster is left."""
    strength = np.empty(N_COMBOS, np.int64)
    order = np.empty(N_COMBOS, np.int64)
    n = sorted_strengths(board, combo_cards, card_key, rank7, flush_suit, flush_table, strength,
                         order)  # fmt: skip
    size = np.zeros(n_clusters, np.int64)
    held = np.zeros((n_clusters, 52), np.int64)
    for h in range(N_COMBOS):
        if strength[h] < 0:
            for c in range(n_clusters):
                out[h, c] = -1.0
            continue
        k = cluster[h]
        size[k] += 1
        held[k, combo_cards[h, 0]] += 1
        held[k, combo_cards[h, 1]] += 1
    below = np.zeros((n_clusters, 52), np.int64)
    below_all = np.zeros(n_clusters, np.int64)
    tied = np.zeros((n_clusters, 52), np.int64)
    tied_all = np.zeros(n_clusters, np.int64)
    i = 0
    while i < n:
        j = tie_end(strength, order, i, n)
        for t in range(i, j):
            h = order[t]
            k = cluster[h]
            tied[k, combo_cards[h, 0]] += 1
            tied[k, combo_cards[h, 1]] += 1
            tied_all[k] += 1
        for t in range(i, j):
            h = order[t]
            a = combo_cards[h, 0]
            b = combo_cards[h, 1]
            own = cluster[h]
            for c in range(n_clusters):
                mine = 1 if c == own else 0  # the hand itself, counted under both its cards
                wins = below_all[c] - below[c, a] - below[c, b]
                ties = tied_all[c] - tied[c, a] - tied[c, b] + mine
                total = size[c] - held[c, a] - held[c, b] + mine
                out[h, c] = (wins + 0.5 * ties) / total if total > 0 else 0.5
        for t in range(i, j):
            h = order[t]
            a = combo_cards[h, 0]
            b = combo_cards[h, 1]
            k = cluster[h]
            below[k, a] += 1
            below[k, b] += 1
            below_all[k] += 1
            tied[k, a] = 0
            tied[k, b] = 0
            tied_all[k] = 0
        i = j


@njit(cache=True, parallel=True)
def river_ochs_table(boards, cluster, n_clusters, combo_cards, card_key, rank7, flush_suit,
                     flush_table):  # fmt: skip
    """``river_ochs`` of each board, over all cores: float32 ``[boards, 1326, clusters]``."""
    result = np.empty((boards.shape[0], N_COMBOS, n_clusters), np.float32)
    for i in prange(boards.shape[0]):
        out = np.empty((N_COMBOS, n_clusters), np.float64)
        river_ochs(boards[i], cluster, n_clusters, combo_cards, card_key, rank7, flush_suit,
                   flush_table, out)  # fmt: skip
        for h in range(N_COMBOS):
            for c in range(n_clusters):
                result[i, h, c] = out[h, c]
    return result


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _nearest(point, centroids):
    """The nearest centroid (L2) of ``point`` (the first of equals) and its squared distance."""
    best, best_distance = 0, np.inf
    for m in range(centroids.shape[0]):
        distance = 0.0
        for c in range(point.shape[0]):
            d = point[c] - centroids[m, c]
            distance += d * d
        if distance < best_distance:
            best, best_distance = m, distance
    return best, best_distance


@njit(cache=True, parallel=True)
def river_ochs_buckets(boards, cluster, centroids, combo_cards, card_key, rank7, flush_suit,
                       flush_table):  # fmt: skip
    """Nearest of ``centroids`` (L2, ``[buckets, clusters]``) of every combo's OCHS vector on
    each board: uint8 ``[boards, 1326]`` (0 where the board blocks the combo)."""
    n_clusters = centroids.shape[1]
    result = np.zeros((boards.shape[0], N_COMBOS), np.uint8)
    for i in prange(boards.shape[0]):
        out = np.empty((N_COMBOS, n_clusters), np.float64)
        river_ochs(boards[i], cluster, n_clusters, combo_cards, card_key, rank7, flush_suit,
                   flush_table, out)  # fmt: skip
        for h in range(N_COMBOS):
            if out[h, 0] >= 0:
                result[i, h] = _nearest(out[h], centroids)[0]
    return result


@njit(cache=True, parallel=True)
def l2_nearest(points, centroids):
    """Nearest centroid (L2) of each point and its squared distance."""
    labels = np.empty(points.shape[0], np.int64)
    distances = np.empty(points.shape[0], np.float64)
    for i in prange(points.shape[0]):
        labels[i], distances[i] = _nearest(points[i], centroids)
    return labels, distances
