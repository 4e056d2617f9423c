"""Simplifications people apply to solver output, to see what each costs in exploitability.

* purification plays each hand's most likely action always (ties go to the first action);
* thresholding drops actions below a frequency such as 0.15 and renormalises, which keeps a
  strategy mixed only where it matters. A row whose every action falls below the threshold
  keeps its most likely action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import numpy as np

from solvers.errors import InputError
from solvers.games.base import Strategy


def purify(strategy: Mapping[int, np.ndarray]) -> Strategy:
    return {node_id: purify_rows(rows) for node_id, rows in strategy.items()}


def purify_rows(rows: np.ndarray) -> np.ndarray:
    """One node's ``[hands, actions]`` purified."""
    rows = np.asarray(rows)
    pure = np.zeros_like(rows, dtype=float)
    pure[np.arange(rows.shape[0]), rows.argmax(axis=1)] = 1.0
    return pure


def threshold(strategy: Mapping[int, np.ndarray], cutoff: float) -> Strategy:
    _check_cutoff(cutoff)
    return {node_id: threshold_rows(rows, cutoff) for node_id, rows in strategy.items()}


def threshold_rows(rows: np.ndarray, cutoff: float) -> np.ndarray:
    """One node's ``[hands, actions]`` thresholded."""
    rows = np.asarray(rows, dtype=float)
    kept = np.where(rows >= cutoff, rows, 0.0)
    empty = kept.sum(axis=1) == 0
    kept[empty, rows[empty].argmax(axis=1)] = 1.0
    return kept / kept.sum(axis=1, keepdims=True)


def _check_cutoff(cutoff: float) -> None:
    if not 0.0 <= cutoff < 1.0:
        raise InputError(f"the threshold must be in [0, 1), not {cutoff}")


class NodeChange(Mapping[int, np.ndarray]):
    """``purify`` or ``threshold`` applied node by node on access (``change`` of one node's
    rows): a binary file's flop is never spread over every node."""

    def __init__(self, base: Mapping[int, np.ndarray], change: Callable[[np.ndarray], np.ndarray]):
        self.base = base
        self.change = change

    def __getitem__(self, node_id: int) -> np.ndarray:
        return self.change(self.base[node_id])

    def __iter__(self) -> Iterator[int]:
        return iter(self.base)

    def __len__(self) -> int:
        return len(self.base)


def _by_width(first: np.ndarray, actions: np.ndarray, per_edge: np.ndarray, change) -> np.ndarray:
    """``change`` applied to every decision's ``[actions, hands]`` block of a per-edge array
    (decisions of one width at a time, vectorised), in place (a flop's profile is hundreds of
    MB)."""
    out = per_edge
    for width in np.unique(actions):
        slots = np.flatnonzero(actions == width)
        for chunk in np.array_split(slots, max(1, len(slots) * int(width) // 4096)):
            index = first[chunk][:, None] + np.arange(int(width))[None, :]
            out[index] = change(np.asarray(per_edge[index]))
    return out


def purify_per_edge(first: np.ndarray, actions: np.ndarray, per_edge: np.ndarray) -> np.ndarray:
    """``purify`` of a per-edge array ``[edges, hands]`` whose decisions start at ``first``,
    in place."""

    def change(block: np.ndarray) -> np.ndarray:
        pure = np.zeros_like(block)
        np.put_along_axis(pure, block.argmax(axis=1)[:, None, :], 1.0, axis=1)
        return pure

    return _by_width(first, actions, per_edge, change)


def threshold_per_edge(
    first: np.ndarray, actions: np.ndarray, per_edge: np.ndarray, cutoff: float
) -> np.ndarray:
    """``threshold`` of a per-edge array ``[edges, hands]``, in place."""
    _check_cutoff(cutoff)

    def change(block: np.ndarray) -> np.ndarray:
        kept = np.where(block >= cutoff, block, 0.0).astype(block.dtype, copy=False)
        sums = kept.sum(axis=1)  # [slots, hands]
        empty = np.nonzero(sums == 0)
        if len(empty[0]):  # every action below the cutoff: the most likely one
            kept[empty[0], block.argmax(axis=1)[empty], empty[1]] = 1.0
            sums[empty] = 1.0
        kept /= sums[:, None, :]
        return kept

    return _by_width(first, actions, per_edge, change)
