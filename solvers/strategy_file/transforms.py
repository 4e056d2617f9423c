"""Simplifications people apply to solver output, to see what each costs in exploitability.

* purification plays each hand's most likely action always (ties go to the first action);
* thresholding drops actions below a frequency such as 0.15 and renormalises, which keeps a
  strategy mixed only where it matters. A row whose every action falls below the threshold
  keeps its most likely action.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from solvers.errors import InputError
from solvers.games.base import Strategy


def purify(strategy: Mapping[int, np.ndarray]) -> Strategy:
    out: Strategy = {}
    for node_id, rows in strategy.items():
        rows = np.asarray(rows)
        pure = np.zeros_like(rows, dtype=float)
        pure[np.arange(rows.shape[0]), rows.argmax(axis=1)] = 1.0
        out[node_id] = pure
    return out


def threshold(strategy: Mapping[int, np.ndarray], cutoff: float) -> Strategy:
    if not 0.0 <= cutoff < 1.0:
        raise InputError(f"the threshold must be in [0, 1), not {cutoff}")
    out: Strategy = {}
    for node_id, rows in strategy.items():
        rows = np.asarray(rows, dtype=float)
        kept = np.where(rows >= cutoff, rows, 0.0)
        empty = kept.sum(axis=1) == 0
        kept[empty, rows[empty].argmax(axis=1)] = 1.0
        out[node_id] = kept / kept.sum(axis=1, keepdims=True)
    return out
