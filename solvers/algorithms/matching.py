"""Regret matching (Hart & Mas-Colell 2000): play each action in proportion to its positive
cumulative regret, and uniformly when no regret is positive.

Every solver uses this one rule in one of two forms:

- ``regret_matching`` for arrays, vectorised over hands and decisions: actions along the last
  axis, or along segments of rows (the per-edge layout of the level walk) through ``sum_actions``;
- ``regret_matching_scalar`` for the per-sample walkers (MCCFR, the paper's self-play CFR), which
  touch one information set at a time, where numpy's per-call overhead would dominate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def regret_matching(
    regrets: np.ndarray,
    sum_actions: Callable[[np.ndarray], np.ndarray] | None = None,
    uniform: np.ndarray | float | None = None,
) -> np.ndarray:
    """The current strategy of cumulative ``regrets``, same shape and dtype.

    By default the actions are the last axis. For the per-edge layout pass ``sum_actions``, which
    sums each decision's actions and repeats the total onto each of its edges, and ``uniform``,
    ``1 / (actions of the edge's decision)`` per edge (``[n_edges, 1]``).
    """
    positive = np.maximum(regrets, 0.0)
    if sum_actions is None:
        totals = positive.sum(axis=-1, keepdims=True)
        uniform = 1.0 / regrets.shape[-1]
    elif uniform is None:
        raise ValueError("the per-edge form needs the uniform strategy of each edge")
    else:
        totals = sum_actions(positive)
    no_regret = totals <= 0  # then every action's positive regret is 0: play uniform
    return (positive + no_regret * uniform) / (totals + no_regret)


def regret_matching_scalar(regrets: Sequence[float]) -> list[float]:
    """``regret_matching`` of one information set's regrets, as plain floats."""
    total = 0.0
    for regret in regrets:
        if regret > 0.0:
            total += regret
    if total > 0.0:
        return [regret / total if regret > 0.0 else 0.0 for regret in regrets]
    return [1.0 / len(regrets)] * len(regrets)


def regret_matching_pair(first: float, second: float) -> float:
    """``regret_matching`` of a two-action information set: the first action's probability."""
    positive = first if first > 0.0 else 0.0
    total = positive + (second if second > 0.0 else 0.0)
    return positive / total if total > 0.0 else 0.5
