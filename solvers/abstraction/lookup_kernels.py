"""numba kernel of ``CardAbstraction.deal_buckets``: a batch of deals to their buckets.

A leaf module (imports nothing from ``solvers``), loaded late like ``strength_kernels``. Per
deal it does what ``boards.board_index`` does for whole arrays (suit rank sets grown card by
card, suits sorted by them, a binary search among the canonical keys, hole cards relabelled)
without numpy's temporaries, on the calling thread so that a solver's own threads can call it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_RANK_BITS = 13


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
            # suits by rank set, largest first (stable on ties, as numpy's argsort)
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
            if street == 1:
                row = np.searchsorted(keys3, key)
            elif street == 2:
                row = np.searchsorted(keys4, key)
            else:
                row = np.searchsorted(keys5, key)
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
