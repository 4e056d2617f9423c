"""Off-tree bet translation: the pseudo-harmonic mapping of Ganzfried & Sandholm (IJCAI 2013).

A bot whose tree has bet sizes A < B (as fractions of the pot) facing a bet x between them
answers as if the bet were A with probability

    f(x) = (B - x)(1 + A) / ((B - A)(1 + x)),

and as if it were B otherwise. It is the only mapping under which a caller who calls a bet of
size s with probability 1 / (1 + s), the clairvoyance game's equilibrium, calls x with exactly
that probability: f / (1 + A) + (1 - f) / (1 + B) = 1 / (1 + x). It meets the boundary
conditions f(A) = 1 and f(B) = 0, is monotone, and is scale invariant (only ratios to the pot
matter). Below the smallest size the bet maps to it; above the largest, to the largest.

Below the smallest size ``B`` a bet lies between a check or call (``A = 0``) and ``B``: the bot
answers as ``B``, except that ``fold_to_call(B, x)`` of each hand's folds call instead
(``move_folds``), so a caller who calls ``B`` with ``1 / (1 + B)`` calls ``x`` with
``1 / (1 + x)``. Mapped up to ``B`` alone, a min-bet or a min-raise would be folded to as often
as ``B``.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solvers.errors import InputError


def pseudo_harmonic(smaller: float, larger: float, bet: float) -> float:
    """Probability of mapping ``bet`` to ``smaller`` (all three in fractions of the pot)."""
    if not 0.0 <= smaller < larger:
        raise InputError(f"need 0 <= A < B, got A={smaller:g}, B={larger:g}")
    if not smaller <= bet <= larger:
        raise InputError(f"the bet {bet:g} is not between {smaller:g} and {larger:g}")
    return (larger - bet) * (1.0 + smaller) / ((larger - smaller) * (1.0 + bet))


@dataclass(frozen=True)
class Translation:
    """Where an off-tree bet goes: two tree sizes (indices into the sizes given) and the
    probability of each; ``lower == upper`` when the bet is on the tree or outside its range."""

    lower: int
    upper: int
    lower_probability: float

    @property
    def upper_probability(self) -> float:
        return 1.0 - self.lower_probability


def translate(sizes: Sequence[float], bet: float) -> Translation:
    """Map ``bet`` onto the sorted tree ``sizes`` (pot fractions) by the pseudo-harmonic rule."""
    if not sizes:
        raise InputError("there is no bet size on the tree to translate to")
    if any(b <= a for a, b in zip(sizes, sizes[1:], strict=False)):
        raise InputError("tree sizes must be strictly increasing")
    if not bet >= 0.0:
        raise InputError(f"a bet must be a non-negative fraction of the pot, not {bet!r}")
    upper = bisect.bisect_left(sizes, bet)
    if upper == len(sizes):
        return Translation(len(sizes) - 1, len(sizes) - 1, 1.0)
    if sizes[upper] == bet or upper == 0:
        return Translation(upper, upper, 1.0)
    lower = upper - 1
    return Translation(lower, upper, pseudo_harmonic(sizes[lower], sizes[upper], bet))


def fold_to_call(smallest: float, bet: float) -> float:
    """The share of a hand's folds that call instead when ``bet`` is below the tree's smallest
    size (pot fractions): ``(B - x) / (B (1 + x))``, the pseudo-harmonic odds of a call
    (``A = 0``) against ``B``; 0 at or above it."""
    return pseudo_harmonic(0.0, smallest, max(bet, 0.0)) if bet < smallest else 0.0


def move_folds(rows: np.ndarray, fold: int, call: int, share: float) -> np.ndarray:
    """``rows`` (``[hands, actions]``) with ``share`` of each hand's fold column moved to its
    call column; the rows themselves when nothing moves."""
    if share <= 0.0:
        return rows
    out = rows.copy()
    moved = share * rows[:, fold]
    out[:, fold] -= moved
    out[:, call] += moved
    return out
