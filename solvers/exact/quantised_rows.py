"""16-bit storage of a decision's per-edge rows with one scale per decision (``precision=16``).

A decision's ``[actions, hands]`` block of regrets is kept as int16 and its strategy sums as
uint16, each block with one float32 scale: the stored number times the scale is the value. The
scale is the block's largest magnitude over the largest code (32,767 signed, 65,535 unsigned),
chosen afresh at every update, so a value that grows past the old scale only moves the scale:
nothing overflows. Precision is relative to the block's largest entry (about 1.5e-5 of it for
regrets, 7.6e-6 for sums); hands far below the block's largest lose their small numbers first,
which costs little because they weigh little. Halving the per-edge arrays is what makes a flop's
solve fit where float32 does not (``games/holdem/memory.py``).

Regret matching and the normalisation of sums divide each hand's row by its own total, so the
scale cancels there: strategies are formed from the raw codes. The scale matters only where a
stored value meets a new one: the update (``compiled_kernels._cfr_update``) and predictive
variants (regret plus prediction). numba compiles these helpers into the kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIGNED_LIMIT = 32767
"""Largest int16 code; regrets use ``[-SIGNED_LIMIT, SIGNED_LIMIT]``."""
UNSIGNED_LIMIT = 65535
"""Largest uint16 code; strategy sums use ``[0, UNSIGNED_LIMIT]``."""


@njit(cache=True, nogil=True, inline="always")
def dither(seed, index):
    """A deterministic uniform number in [0, 1) for entry ``index`` at ``seed`` (a splitmix64
    hash: the same on every thread and after a resume, unlike a random generator's state)."""
    x = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(index)
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def store_block(block, count, n, out, first, signed, seed):
    """Encode ``block[:count, :n]`` (float64) into ``out[first:first + count, :n]`` with one
    scale, and return it: the largest magnitude over the largest code, rounded to float32 (the
    codes are computed against that rounded scale). All zeros give scale 0. ``signed``: int16
    codes, else uint16 (negatives clip to 0). ``seed`` 0 rounds to the nearest code; any other
    rounds up with probability equal to the fraction (``dither``), so that increments smaller
    than a code still count on average instead of being lost every time."""
    limit = SIGNED_LIMIT if signed else UNSIGNED_LIMIT
    low = -limit if signed else 0
    top = 0.0
    for j in range(count):
        for h in range(n):
            top = max(top, abs(block[j, h]))
    if top == 0.0:
        for j in range(count):
            for h in range(n):
                out[first + j, h] = 0
        return np.float32(0.0)
    scale = np.float32(top / limit)
    inverse = 1.0 / np.float64(scale)
    for j in range(count):
        base = (first + j) * n
        for h in range(n):
            offset = 0.5 if seed == 0 else dither(seed, base + h)
            code = np.floor(block[j, h] * inverse + offset)
            out[first + j, h] = int(min(max(code, low), limit))
    return scale
