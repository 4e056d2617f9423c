"""Exact evaluation of a binary strategy file without its per-node tables.

A flop spot's profile spread over every node as ``{node: [hands, actions]}`` is GBs; here it
stays in the compiled walk's compact per-edge layout (``BinaryStrategy.compact_per_edge``), one
player's array per pass, and the walk is the suit-isomorphic one a solve measures with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from solvers.exact.compiled_walk import CompiledWalk, Source, compiled_walk
from solvers.exact.evaluation import Exploitability, exploitability_of_sources
from solvers.exact.executor import evaluation_dtype
from solvers.strategy_file.binary import BinaryStrategy, symmetrise_compact
from solvers.strategy_file.binary_codec import decode, live_hands, plan_layout, quantise


class PlayerSections(Protocol):
    """A player's sections by index (a list, or sections kept on disk)."""

    def __getitem__(self, player: int, /) -> dict: ...


Change = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""An in-place change of a per-edge array given its decisions' first edges and widths
(``transforms.purify_per_edge``, ``threshold_per_edge``)."""


def binary_walk(strategy: BinaryStrategy) -> CompiledWalk:
    """The walk exact evaluation of a binary file runs on (``evaluation_dtype``, isomorphic)."""
    game = strategy.game
    return compiled_walk(game, evaluation_dtype(game), isomorphic=True)


def binary_profile(strategy: BinaryStrategy, change: Change | None = None) -> list[np.ndarray]:
    """Both players' compact per-edge probabilities as played (``symmetrised``), optionally
    changed."""
    strategy = strategy.symmetrised()
    out = []
    for p in (0, 1):
        per_edge = strategy.compact_per_edge(p)
        lay = strategy.layouts[p]
        if change is not None:
            per_edge = change(lay.first, lay.actions, per_edge)
        out.append(per_edge)
    return out


def binary_exploitability(strategy: BinaryStrategy, change: Change | None = None) -> Exploitability:
    """Exact exploitability of a binary file's profile (``change``d if given)."""
    sources = [Source(x) for x in binary_profile(strategy, change)]
    return exploitability_of_sources(strategy.game, sources, walk=binary_walk(strategy))


def encode_profile(game, compact: list[np.ndarray], bits: int, walk: CompiledWalk | None = None):
    """Quantise a profile given per player in the canonical compact layout, made suit-symmetric
    first (twin hands' rows averaged where a decision is its own suit image, as readers of an
    older file do): the sections to write (``symmetric``), and the exact exploitability of the
    decoded profile (what every reader plays). ``compact`` is overwritten with the decoded
    profile (a flop's is hundreds of MB)."""
    walk = walk or compiled_walk(game, evaluation_dtype(game), isomorphic=True)
    sections = []
    for p in (0, 1):
        sections.append(encode_player(game, p, compact[p], bits, walk))
        compact[p] = decode(plan_layout(game, p), sections[p], bits, out=compact[p])
    report = exploitability_of_sources(game, [Source(x) for x in compact], walk=walk)
    return sections, report


def encode_player(game, player: int, compact: np.ndarray, bits: int, walk: CompiledWalk) -> dict:
    """One player's sections (``binary_codec.quantise``) of its profile in the canonical compact
    layout, made suit-symmetric first (in place); its live hands from one lean reach pass of
    ``walk`` (``live_hands``): a player's own reach needs its own profile only, so a solve's
    file is encoded one player at a time."""
    symmetrise_compact(game, player, compact)
    per_edge: list[np.ndarray | None] = [None, None]
    per_edge[player] = compact
    live = live_hands(walk, per_edge, players=(player,))[player]
    assert live is not None
    return quantise(plan_layout(game, player), compact, live, bits)


def sections_exploitability(game, sections: PlayerSections, bits: int, walk: CompiledWalk):
    """Exact exploitability of the profile ``sections`` decode to (what every reader plays),
    on ``walk``: both players' decoded profiles are held for the measure only."""
    profile = []
    for p in (0, 1):  # in the walk's dtype one player at a time (a float64 walk reads copies)
        profile.append(
            decode(plan_layout(game, p), sections[p], bits).astype(walk.dtype, copy=False)
        )
    return exploitability_of_sources(game, [Source(x) for x in profile], walk=walk)


def compact_from_strategy(game, strategy) -> list[np.ndarray]:
    """``{node: [hands, actions]}`` as the canonical compact per-edge arrays (float32)."""
    out = []
    for p in (0, 1):
        lay = plan_layout(game, p)
        per_edge = np.empty((lay.n_edges, lay.hands), dtype=np.float32)
        for node, first, width in zip(lay.nodes, lay.first, lay.actions, strict=True):
            per_edge[first : first + width] = np.asarray(strategy[int(node)]).T
        out.append(per_edge)
    return out
