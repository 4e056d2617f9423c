"""Binary files as written before the writer symmetrised (no ``symmetric`` in the header), with
twin hands' rows apart at self-image decisions, for the tests of their readers."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solvers.exact.compiled_walk import compiled_walk
from solvers.exact.executor import evaluation_dtype
from solvers.strategy_file.binary import BinaryStrategy, self_image_slots, write_binary
from solvers.strategy_file.binary_codec import live_hands, plan_layout, quantise


def drifted(strategy: BinaryStrategy, seed: int = 0) -> list[np.ndarray]:
    """The file's compact profile with, at every self-image decision, one hand of each twin
    pair given a random row: the pair's rows far apart, as a solve's can drift."""
    game = strategy.game
    rng = np.random.default_rng(seed)
    out = []
    for p in (0, 1):
        compact = strategy.compact_per_edge(p)
        lay = plan_layout(game, p)
        swap = game.suit_swap().hands[p]
        movers = np.flatnonzero(np.arange(len(swap)) < swap)
        for slot in np.flatnonzero(self_image_slots(game, p)):
            first, width = int(lay.first[slot]), int(lay.actions[slot])
            rows = rng.dirichlet(np.full(width, 0.3), size=len(movers)).astype(np.float32)
            compact[first : first + width, movers] = rows.T
        out.append(compact)
    return out


def write_unsymmetrised(path: Path, game, compact: list[np.ndarray]) -> None:
    """``compact`` quantised as it is (not symmetrised) and written without the flag."""
    walk = compiled_walk(game, evaluation_dtype(game), isomorphic=True)
    live = live_hands(walk, compact)
    sections = [quantise(plan_layout(game, p), compact[p], live[p], 8) for p in (0, 1)]
    write_binary(path, game, sections, 8, symmetric=False)
