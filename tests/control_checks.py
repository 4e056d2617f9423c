"""One check for "the corrected score estimates what the plain score does".

A run with control variates scores the same hands twice: columns 0-1 are the two seats' scores
less their corrections, columns 2-3 the plain scores. The corrections have expectation zero, so
the per-deal gap between the two has mean zero: a bias beyond its 95% interval fails, and so
does a correction that leaves the spread where it was.
"""

from __future__ import annotations

import numpy as np


def assert_unbiased_and_tighter(values: np.ndarray, spread: float) -> None:
    """``values``: ``[deals, 4]`` from a control-variate run; the corrected score's standard
    deviation must be below ``spread`` times the plain one's."""
    corrected, plain = values[:, :2].mean(axis=1), values[:, 2:].mean(axis=1)
    gap = plain - corrected
    assert abs(gap.mean()) <= 1.96 * gap.std(ddof=1) / np.sqrt(len(gap))
    assert corrected.std() < spread * plain.std()
