"""The decoding of a binary file's rows as one compiled loop over decisions (``binary_codec.py``
describes the quantisation; this is its reading, imported on use so that numba loads only for
spots).

A flop's profile is 22 M stored values per player spread into 46 M float32 cells; the numpy
decoding of the same arithmetic made a dozen passes over ``[edges, hands]`` blocks (masks,
scatter, two ``reduceat``) and took seconds. Here each decision is read once, hand by hand, in
the same float32 operations in the same order, so the rows are the same to the bit
(``tests/test_binary_decode.py`` checks them against the formula written out in numpy).

``own_live`` marks the hands a file stores at each decision (those the player's own strategy
brings there) with one lean reach pass: the compiled walk's rows above the first chance nodes,
then one subtree at a time in a scratch per thread (``tests/test_lean_solve.py`` checks it
against the two-pass walk's reach).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.exact.compiled_kernels import _max_children, _reach_row


@njit(cache=True, nogil=True, inline="always")
def _sum_after_first(out, row, width, h):
    """``out[row + 1 : row + width, h]`` summed in float32 in numpy's order for a row sum
    (``np.add.reduce``'s pairwise summation: in sequence below 8 terms, else 8 running sums
    combined in pairs, then the rest in sequence), so that a row's total is the one the
    formula in numpy gives, to the bit."""
    n = width - 1
    if n < 8:
        total = np.float32(0.0)
        for k in range(n):
            total = total + out[row + 1 + k, h]
        return total
    r = np.empty(8, dtype=np.float32)
    for j in range(8):
        r[j] = out[row + 1 + j, h]
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] = r[j] + out[row + 1 + i + j, h]
        i += 8
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        total = total + out[row + 1 + i, h]
        i += 1
    return total


def _decode_rows(live, start, probs, scale, actions, first, top, out, over):
    """Decisions ``live.shape[0]`` (their packed live bits, value offsets ``start`` with one
    more entry, widths ``actions`` and first edges ``first`` counted from ``out``'s first row)
    into ``out`` ``[edges, hands]``: a live hand's action ``k > 0`` is ``q * (q / top**2) *
    scale`` from its stored code ``q``, the first action ``max(0, 1 - the others)``, the row
    divided by its sum; a hand that is not live plays uniformly. ``over[s]`` is set where a live
    hand's stored actions add up past 1 by more than rounding allows (one step per action)."""
    hands = out.shape[1]
    squared = np.float32(top * top)
    for s in prange(actions.shape[0]):
        width = actions[s]
        row = first[s]
        base = start[s] - start[0]
        limit = 1.0 + (width - 1) / top + 1e-6
        n_live = 0
        for h in range(hands):
            n_live += (live[s, h >> 3] >> (h & 7)) & 1
        uniform = np.float32(1.0 / width)
        rank = 0
        for h in range(hands):
            if not (live[s, h >> 3] >> (h & 7)) & 1:
                for k in range(width):
                    out[row + k, h] = uniform
                continue
            for k in range(1, width):
                q = np.float32(probs[base + (k - 1) * n_live + rank])
                value = q * (q / squared)
                out[row + k, h] = value * scale[row + k]
            given = _sum_after_first(out, row, width, h)
            if np.float64(given) > limit:
                over[s] = True
            first_action = np.float32(1.0) - given
            if first_action < np.float32(0.0):
                first_action = np.float32(0.0)
            total = first_action + given
            out[row, h] = first_action / total
            for k in range(1, width):
                out[row + k, h] = out[row + k, h] / total
            rank += 1


decode_rows = njit(cache=True, nogil=True, parallel=True)(_decode_rows)
"""``_decode_rows`` on every core: a player's whole profile."""
decode_rows_serial = njit(cache=True, nogil=True)(_decode_rows)
"""The same loop on the calling thread: a node or a few (a parallel region's start costs
milliseconds on a busy machine, more than decoding a node, and a step reads a dozen)."""


@njit(cache=True, parallel=True)
def own_live(plan, schedule, source, player, top_reach, other, floor, live, workers):
    """Whether ``player``'s own reach is above ``floor`` at each of its walked decisions
    (``live[decision slot, hand]``), in the lean pass's order (``compiled_kernels.walk_pass``):
    reach down the rows above the cut by levels in ``top_reach`` (the root row holding 1), then
    each subtree in a scratch of its size, ``workers`` scratches interleaved over the subtrees.
    Each row's reach is ``_reach_row``'s, so it is the two-pass walk's to the bit, without its
    ``[inner rows, hands]`` arrays. ``other``: an empty ``[0, hands]`` array for the opponent's
    reach, which is never read."""
    top_index = schedule.top_index
    top_rows = schedule.top_rows
    top_levels = schedule.top_levels
    sub_start = schedule.sub_start
    sub_rows = schedule.sub_rows
    local_index = schedule.local_index
    kind = plan.kind
    slots = plan.decision_slot
    n = top_reach.shape[1]
    mask = 1 << player
    sigma_rows = _max_children(plan) + 1
    for level in range(top_levels.shape[0] - 1):
        lo = top_levels[level, 0]
        hi = top_levels[level, 1]
        n_chunks = min(hi - lo, 64)
        for chunk in prange(n_chunks):
            sigma = np.empty((sigma_rows, n))
            reach0, reach1 = (top_reach, other) if player == 0 else (other, top_reach)
            for i in range(lo + chunk, hi, n_chunks):
                _reach_row(plan, top_index, top_rows[i], source, source, reach0, reach1, sigma,
                           mask)  # fmt: skip
    for i in range(top_rows.shape[0]):
        row = top_rows[i]
        if kind[row] == player and slots[row] >= 0:
            at = top_index[row]
            for h in range(n):
                live[slots[row], h] = top_reach[at, h] > floor
    n_subtrees = sub_start.shape[0] - 1
    most = 1
    for s in range(n_subtrees):
        most = max(most, sub_start[s + 1] - sub_start[s])
    n_chunks = min(n_subtrees, workers)
    for chunk in prange(n_chunks):
        sigma = np.empty((sigma_rows, n))
        reach = np.empty((most, n), top_reach.dtype)
        for s in range(chunk, n_subtrees, n_chunks):
            lo = sub_start[s]
            end = sub_start[s + 1]
            head = top_index[sub_rows[lo]]
            for h in range(n):
                reach[0, h] = top_reach[head, h]
            reach0, reach1 = (reach, other) if player == 0 else (other, reach)
            for i in range(lo, end):
                _reach_row(plan, local_index, sub_rows[i], source, source, reach0, reach1, sigma,
                           mask)  # fmt: skip
            for i in range(lo, end):
                row = sub_rows[i]
                if kind[row] == player and slots[row] >= 0:
                    at = local_index[row]
                    for h in range(n):
                        live[slots[row], h] = reach[at, h] > floor
