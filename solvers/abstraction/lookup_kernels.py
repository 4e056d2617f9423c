"""numba kernels that read tables of canonical boards: a batch of deals to their buckets
(``CardAbstraction.deal_buckets``), and a flop's runout sums from its turns' (the table build).

A leaf module (imports nothing from ``solvers``), loaded late like ``strength_kernels``. Per
deal it does what ``boards.board_index`` does for whole arrays (suit rank sets grown card by
card, suits sorted by them, a binary search among the canonical keys, hole cards relabelled)
without numpy's temporaries, on the calling thread so that a solver's own threads can call it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_RANK_BITS = 13


@njit(cache=True, nogil=True)
def canonical_row(masks, keys, order, perm):
    """Row of the board with suit rank sets ``masks`` among canonical ``keys``; fills
    ``perm[old suit] = new suit`` (suits by rank set, largest first, stable on ties)."""
    for s in range(4):
        order[s] = s
    for s in range(1, 4):
        t = s
        while t > 0 and masks[order[t - 1]] < masks[order[t]]:
            order[t - 1], order[t] = order[t], order[t - 1]
            t -= 1
    key = np.int64(0)
    for s in range(4):
        perm[order[s]] = s
        key = (key << _RANK_BITS) | masks[order[s]]
    return np.searchsorted(keys, key)


@njit(cache=True, nogil=True)
def turn_row(flop, t, turn_keys, masks, order, perm):
    """Canonical row of the turn ``flop`` + ``t`` among ``turn_keys``; fills ``perm``."""
    masks[:] = 0
    for j in range(3):
        masks[flop[j] & 3] |= np.int64(1) << (flop[j] >> 2)
    masks[t & 3] |= np.int64(1) << (t >> 2)
    return canonical_row(masks, turn_keys, order, perm)


@njit(cache=True, nogil=True)
def relabelled(h, t, used, perm, combo_cards, combo_index):
    """Combo ``h`` under the suit relabelling ``perm``, or -1 if the flop (``used``) or the
    turn card ``t`` blocks it."""
    a = combo_cards[h, 0]
    b = combo_cards[h, 1]
    if used[a] or used[b] or a == t or b == t:
        return -1
    return combo_index[(a & ~3) | perm[a & 3], (b & ~3) | perm[b & 3]]


@njit(cache=True, nogil=True)
def deal_buckets(holes, boards, combo_index, combo_class, keys3, keys4, keys5,
                 table3, table4, table5, by_combo, out):  # fmt: skip
    """Fill ``out[n, 2, 4]``; street ``s`` reads ``table{s+2}`` unless ``by_combo[s]`` is set
    (then its bucket is the hole combo). Tables are ``[canonical boards, 1326]``."""
    masks = np.zeros(4, np.int64)
    order = np.zeros(4, np.int64)
    perm = np.zeros(4, np.int64)
    combos = np.zeros(2, np.int64)
    for i in range(holes.shape[0]):
        for seat in range(2):
            c = combo_index[holes[i, seat, 0], holes[i, seat, 1]]
            combos[seat] = c
            out[i, seat, 0] = combo_class[c]
        masks[:] = 0
        for j in range(5):
            card = boards[i, j]
            masks[card & 3] |= np.int64(1) << (card >> 2)
            if j < 2:
                continue
            street = j - 1
            if by_combo[street]:
                out[i, 0, street] = combos[0]
                out[i, 1, street] = combos[1]
                continue
            if street == 1:
                row = canonical_row(masks, keys3, order, perm)
            elif street == 2:
                row = canonical_row(masks, keys4, order, perm)
            else:
                row = canonical_row(masks, keys5, order, perm)
            for seat in range(2):
                a = holes[i, seat, 0]
                b = holes[i, seat, 1]
                seen = combo_index[(a & ~3) | perm[a & 3], (b & ~3) | perm[b & 3]]
                if street == 1:
                    out[i, seat, street] = table3[row, seen]
                elif street == 2:
                    out[i, seat, street] = table4[row, seen]
                else:
                    out[i, seat, street] = table5[row, seen]


@njit(cache=True, parallel=True)
def flop_sums_from_turns(flops, turn_keys, turn_sums, combo_index, combo_cards):
    """A flop's sum of ``w**2`` over its runouts from the turns' sums over their rivers.

    Each unordered runout {t, r} is counted once from turn t and once from turn r, so the
    flop's sum is half the sum over its turns (``turn_sums[canonical turn, relabelled combo]``,
    0 for combos the turn card blocks). int64 ``[flops, 1326]``.
    """
    sums = np.zeros((flops.shape[0], combo_cards.shape[0]), np.int64)
    for i in prange(flops.shape[0]):
        masks = np.zeros(4, np.int64)
        order = np.zeros(4, np.int64)
        perm = np.zeros(4, np.int64)
        used = np.zeros(52, np.bool_)
        for j in range(3):
            used[flops[i, j]] = True
        for t in range(52):
            if used[t]:
                continue
            row = turn_row(flops[i], t, turn_keys, masks, order, perm)
            for h in range(combo_cards.shape[0]):
                seen = relabelled(h, t, used, perm, combo_cards, combo_index)
                if seen >= 0:
                    sums[i, h] += turn_sums[row, seen]
        for h in range(combo_cards.shape[0]):
            sums[i, h] //= 2
    return sums
