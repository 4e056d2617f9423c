"""Runout matrices kept across games: a flop solved again after an off-tree bet, or several
trees of one spot, build the same matrix of summed signs for the same hands.

The entry ``signs[h, o]`` depends on the two hands and the runouts alone, so a matrix kept for
some hands serves any game on the same runouts for the hands it holds (rows and columns picked
out), and only the entries of the others are built; a few matrices are kept (at most 7 MB each),
the least recently used dropped. Shared by the threads of one process under a lock; a matrix is
built outside it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from solvers.cards.deck import N_COMBOS

KEPT = 4
"""Matrices kept per process."""
_kept: OrderedDict[bytes, tuple[np.ndarray, np.ndarray, np.ndarray]] = OrderedDict()
_lock = threading.Lock()


Build = Callable[[np.ndarray, np.ndarray, np.ndarray], None]
"""``build(out, rows, cols)`` fills ``out`` (``[len(rows), len(cols)]``) with the entries of the
wanted hands ``combos[0][rows]`` against ``combos[1][cols]``."""


def signs(key: bytes, combos: tuple[np.ndarray, np.ndarray], build: Build) -> np.ndarray:
    """The ``[len(combos[0]), len(combos[1])]`` float32 matrix for the runouts ``key`` names.
    A kept matrix on the same runouts gives the entries of the hands it holds; only the rest is
    built (the rows it lacks against every column, its rows against the columns it lacks): the
    second play of a duplicate deal reaches the flop with other ranges in each seat (the bot's
    own range where the opponent's, floored to every hand, was), and builds a fraction of the
    matrix instead of all of it. The matrix made is kept, the latest for its runouts."""
    with _lock:
        entry = _kept.get(key)
        if entry is not None:
            _kept.move_to_end(key)
            rows, cols = _positions(entry[0], combos[0]), _positions(entry[1], combos[1])
            if (rows >= 0).all() and (cols >= 0).all():
                return entry[2][np.ix_(rows, cols)]
    out = np.zeros((len(combos[0]), len(combos[1])), dtype=np.float32)
    if entry is None:
        build(out, np.arange(out.shape[0]), np.arange(out.shape[1]))
    else:
        _fill(out, entry[2], rows, cols, build)
    with _lock:
        _kept[key] = (np.array(combos[0]), np.array(combos[1]), out)
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return out


def _fill(out: np.ndarray, kept: np.ndarray, rows: np.ndarray, cols: np.ndarray,
          build: Build) -> None:  # fmt: skip
    """``out`` from ``kept`` where ``rows`` and ``cols`` (positions in it, -1: missing) hold
    both hands, built elsewhere."""
    old_rows, new_rows = np.flatnonzero(rows >= 0), np.flatnonzero(rows < 0)
    old_cols, new_cols = np.flatnonzero(cols >= 0), np.flatnonzero(cols < 0)
    out[np.ix_(old_rows, old_cols)] = kept[np.ix_(rows[old_rows], cols[old_cols])]
    if len(new_rows):
        block = np.zeros((len(new_rows), out.shape[1]), dtype=np.float32)
        build(block, new_rows, np.arange(out.shape[1]))
        out[new_rows] = block
    if len(old_rows) and len(new_cols):
        block = np.zeros((len(old_rows), len(new_cols)), dtype=np.float32)
        build(block, old_rows, new_cols)
        out[np.ix_(old_rows, new_cols)] = block


def clear() -> None:
    with _lock:
        _kept.clear()


def _positions(kept: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Where each ``wanted`` combo sits in ``kept``; -1 where it is not there."""
    where = np.full(N_COMBOS, -1, dtype=np.int64)
    where[kept] = np.arange(len(kept))
    return where[wanted]
