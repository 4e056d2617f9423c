"""Off-tree bet translation: the pseudo-harmonic mapping of Ganzfried & Sandholm (IJCAI 2013).

A bot whose tree has bet sizes A < B (as fractions of the pot) facing a bet x between them
answers as if the bet were A with probability

    f(x) = (B - x)(1 + A) / ((B - A)(1 + x)),

and as if it were B otherwise. It is the only mapping under which a caller who calls a bet of
size s with probability 1 / (1 + s), the clairvoyance game's equilibrium, calls x with exactly
that probability: f / (1 + A) + (1 - f) / (1 + B) = 1 / (1 + x). It meets the boundary
conditions f(A) = 1 and f(B) = 0, is monotone, and is scale invariant (only ratios to the pot
matter). Below the smallest size the bet maps to it; above the largest, to the largest.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

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
