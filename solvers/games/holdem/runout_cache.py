"""Runout matrices kept across games: a flop solved again after an off-tree bet, or several
trees of one spot, build the same matrix of summed signs for the same hands.

The entry ``signs[h, o]`` depends on the two hands and the runouts alone, so a matrix kept for
some hands serves any game on the same runouts whose hands are among them (rows and columns
picked out); a few matrices are kept (at most 7 MB each), the least recently used dropped.
Shared by the threads of one process under a lock; a matrix is built outside it.
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


def signs(
    key: bytes, combos: tuple[np.ndarray, np.ndarray], build: Callable[[np.ndarray], None]
) -> np.ndarray:
    """The ``[len(combos[0]), len(combos[1])]`` float32 matrix for the runouts ``key`` names:
    picked out of a kept matrix over both players' hands, else ``build(out)`` fills a zeroed one,
    which is kept."""
    with _lock:
        entry = _kept.get(key)
        if entry is not None:
            rows, cols = _positions(entry[0], combos[0]), _positions(entry[1], combos[1])
            if rows is not None and cols is not None:
                _kept.move_to_end(key)
                return entry[2][np.ix_(rows, cols)]
    out = np.zeros((len(combos[0]), len(combos[1])), dtype=np.float32)
    build(out)
    with _lock:
        _kept[key] = (np.array(combos[0]), np.array(combos[1]), out)
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return out


def clear() -> None:
    with _lock:
        _kept.clear()


def _positions(kept: np.ndarray, wanted: np.ndarray) -> np.ndarray | None:
    """Where each ``wanted`` combo sits in ``kept``; None if one is missing."""
    where = np.full(N_COMBOS, -1, dtype=np.int64)
    where[kept] = np.arange(len(kept))
    found = where[wanted]
    return None if (found < 0).any() else found
