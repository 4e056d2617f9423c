"""Which executor walks a game's plan: the one place that decides.

There is one plan (``walk.py``'s rows, levels and per-edge layout) and two executors: the numpy
level walk, which serves every game and is the reference, and the compiled loops of
``compiled_walk.py``, which serve games with combo terminal tables (hold'em spots) when every
update is alternating. ``walk`` (a solver option) is ``auto`` (compiled where it applies),
``compiled`` (refused where it does not) or ``numpy``.
"""

from __future__ import annotations

import numpy as np

from solvers.errors import InputError
from solvers.exact.compiled_walk import CompiledWalk, compiled_walk
from solvers.games.base import TreeGame

WALKS = ("auto", "compiled", "numpy")

EXACT_CELLS = 1 << 25
"""Trees up to this many non-terminal node-hands are evaluated in float64 storage."""


def compiled_applies(game: TreeGame) -> bool:
    """Whether ``game`` gives combo terminal tables, so that the compiled loops can walk it."""
    return callable(getattr(game, "combo_terminals", None)) and not game.simultaneous


def uses_compiled(game: TreeGame, walk: str = "auto", alternating: bool = True) -> bool:
    """Whether the compiled executor serves ``game`` under the option ``walk``; ``alternating``
    is False for a solver that updates both players at once (only the numpy walk does)."""
    if walk not in WALKS:
        raise InputError(f"walk must be auto, compiled or numpy, not {walk!r}")
    possible = compiled_applies(game) and alternating
    if walk == "compiled" and not possible:
        raise InputError("the compiled walk needs a hold'em spot and alternating updates")
    return possible and walk != "numpy"


def evaluation_dtype(game: TreeGame) -> np.dtype:
    """Storage of exact evaluation on the compiled walk: float64 (file headers and reports
    agree to 1e-12) unless the tree is over ``EXACT_CELLS`` node-hands, as a flop spot is; then
    float32 (relative error about 1e-6; every sum still accumulates in float64). Counted
    without building the full tree's plan (every non-terminal node is a row of it), which a
    walk with suit isomorphism never needs."""
    cells = (len(game.nodes) - len(game.terminal_ids)) * max(game.n_hands)
    return np.dtype(np.float64 if cells <= EXACT_CELLS else np.float32)


def evaluation_walk(game: TreeGame) -> CompiledWalk | None:
    """The compiled walk exact evaluation runs on (full tree, ``evaluation_dtype``), or None
    when ``game`` is evaluated on the numpy walk."""
    if not uses_compiled(game):
        return None
    return compiled_walk(game, evaluation_dtype(game))
