"""Per-street hand features (E[HS^2], exact) and the shipped percentile histograms over them.

The feature of a hand on a board is its expected squared hand strength against a uniformly
random opponent over every runout (Johanson et al. 2013 call the percentile buckets of it
"E[HS^2]"): strength now and potential together, since a draw's HS^2 is high on the runouts
that complete it. Values are integers so that tables rebuild bit for bit:

* river: ``w = 2 * wins + ties`` against the 990 opponent combos (0..1980), HS = w / 1980;
* turn and flop: the sum of ``w**2`` over the 46 (turn) or 1,081 (flop) runouts, scaled to
  0..65535 with integer rounding.

Bucket edges are percentiles of a street's feature over every (board, hand) pair of the real
deck, so each bucket holds about the same share of dealt hands. The histograms of those
features over all 22,100 flops, 270,725 turns and 2,598,960 rivers are shipped in
``data/hs2_histograms.npz`` (``write_histograms`` rebuilds them in about a minute), so a single
board's buckets need no table at all.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from solvers.abstraction import boards as board_sets
from solvers.cards import evaluator
from solvers.cards.deck import COMBO_CARDS, COMBO_INDEX

STREET_CARDS = {1: 3, 2: 4, 3: 5}
STREET_NAMES = {0: "preflop", 1: "flop", 2: "turn", 3: "river"}
W_MAX = 1980
"""River ``w`` of a hand that beats all 990 opponent combos."""
Q_MAX = 65535
"""Top of the flop and turn feature scale."""
RUNOUTS = {1: 1081, 2: 46}
"""Runouts that avoid a hand's cards: C(47, 2) from a flop, 46 rivers from a turn."""
HISTOGRAM_FILE = Path(__file__).parent / "data" / "hs2_histograms.npz"
RIVER_CHUNK = 8192
"""Canonical rivers per kernel call (a chunk of ``w`` is 22 MB)."""


def kernels():
    """The numba kernels, imported on first use so numba loads only when buckets are computed."""
    from solvers.abstraction import strength_kernels

    return strength_kernels


def lookup_kernels():
    """The numba kernel of ``deal_buckets``, imported on first use like ``kernels``."""
    from solvers.abstraction import lookup_kernels

    return lookup_kernels


def evaluator_tables() -> tuple:
    """The evaluator's tables as the strength kernels take them (built on first use)."""
    evaluator.warm_up()
    return (COMBO_CARDS.astype(np.int64), *evaluator.kernel_tables())


def features(boards: np.ndarray, street: int) -> np.ndarray:
    """Feature of every combo on each board of ``street`` cards: int32 ``[n, 1326]``, -1 blocked.

    One board runs on the calling thread (starting a parallel region costs more than a river).
    """
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    k = kernels()
    if street == 3:
        if len(boards) == 1:
            w = np.empty(1326, dtype=np.int64)
            k.river_w(boards[0], *evaluator_tables(), w, np.empty(1326, dtype=np.int64))
            return w[None, :].astype(np.int32)
        return k.river_w_table(boards, *evaluator_tables()).astype(np.int32)
    if len(boards) == 1:
        sums = np.zeros((1, 1326), dtype=np.int64)
        k.board_w2_sums(boards[0], *evaluator_tables(), sums[0])
    else:
        sums = k.runout_w2_sums(boards, *evaluator_tables())
    return quantise(sums, boards, street)


def quantise(sums: np.ndarray, boards: np.ndarray, street: int) -> np.ndarray:
    """Flop or turn sums of ``w**2`` onto 0..65535 (integer rounding); -1 where blocked."""
    scale = W_MAX * W_MAX * RUNOUTS[street]
    q = (sums * Q_MAX + scale // 2) // scale
    return np.where(blocked_mask(boards), -1, q).astype(np.int32)


def blocked_mask(boards: np.ndarray) -> np.ndarray:
    """``[n, 1326]``: does the combo share a card with the board?"""
    dead = np.zeros((boards.shape[0], 52), dtype=bool)
    np.put_along_axis(dead, np.asarray(boards, dtype=np.int64), True, axis=1)
    return dead[:, COMBO_CARDS[:, 0]] | dead[:, COMBO_CARDS[:, 1]]


def canonical_features(progress=None) -> tuple[np.ndarray, np.ndarray]:
    """Features of every canonical flop and turn: int32 ``[boards, 1326]`` each.

    The turns are swept (48 rivers each); a flop's sums are then read off its 49 turns
    (``lookup_kernels.flop_sums_from_turns``), exact, in a second instead of 1,176 sweeps.
    """
    turn_keys, turns, _ = board_sets.canonical_boards(4)
    if progress:
        progress(f"hand strength of {len(turns):,} turns, every river")
    turns = np.ascontiguousarray(turns, dtype=np.int64)
    turn_sums = kernels().runout_w2_sums(turns, *evaluator_tables())
    _, flops, _ = board_sets.canonical_boards(3)
    if progress:
        progress(f"hand strength of {len(flops):,} flops, from their turns")
    flop_sums = lookup_kernels().flop_sums_from_turns(
        np.ascontiguousarray(flops, dtype=np.int64), turn_keys, turn_sums,
        COMBO_INDEX.astype(np.int64), COMBO_CARDS.astype(np.int64),
    )  # fmt: skip
    return quantise(flop_sums, flops, 1), quantise(turn_sums, turns, 2)


def river_chunks(progress=None):
    """``(start, w)`` over the canonical rivers in chunks (the whole table would be 356 MB)."""
    _, boards, _ = board_sets.canonical_boards(5)
    for start in range(0, len(boards), RIVER_CHUNK):
        if progress:
            progress(f"hand strength of rivers {start:,}/{len(boards):,}")
        yield start, features(boards[start : start + RIVER_CHUNK], 3)


def histogram(feature: np.ndarray, weights: np.ndarray, street: int) -> np.ndarray:
    """Count of (real board, hand) pairs per feature value, canonical rows weighted."""
    size = (W_MAX if street == 3 else Q_MAX) + 1
    valid = feature >= 0
    rows = np.broadcast_to(np.asarray(weights)[:, None], feature.shape)
    counts = np.bincount(feature[valid], weights=rows[valid], minlength=size)
    return np.rint(counts).astype(np.int64)


def build_histograms(flop: np.ndarray, turn: np.ndarray, progress=None) -> dict[str, np.ndarray]:
    """The three histograms from the flop and turn feature tables (entries of blocked combos
    are ignored) and a pass over the rivers."""
    out = {}
    for street, table in ((1, flop), (2, turn)):
        _, boards, weights = board_sets.canonical_boards(STREET_CARDS[street])
        valid = np.where(blocked_mask(boards), -1, np.asarray(table, dtype=np.int32))
        out[STREET_NAMES[street]] = histogram(valid, weights, street)
    weights = board_sets.canonical_boards(5)[2]
    river = np.zeros(W_MAX + 1, dtype=np.int64)
    for start, w in river_chunks(progress):
        river += histogram(w, weights[start : start + len(w)], 3)
    out["river"] = river
    return out


def write_histograms(flop: np.ndarray, turn: np.ndarray, path: Path = HISTOGRAM_FILE) -> None:
    """Store the histograms (run after changing a feature's definition)."""
    hists = build_histograms(flop, turn)
    np.savez_compressed(path, **hists)  # type: ignore[arg-type]
    shipped_histograms.cache_clear()


@cache
def shipped_histograms() -> dict[str, np.ndarray]:
    with np.load(HISTOGRAM_FILE, allow_pickle=False) as data:
        return {name: data[name] for name in ("flop", "turn", "river")}


def percentile_buckets(hist: np.ndarray, n_buckets: int) -> np.ndarray:
    """Bucket of each feature value: its mid-rank percentile times ``n_buckets``, rounded down.

    Monotone in the feature, and equal values share a bucket, so buckets are as balanced as
    the ties allow.
    """
    hist = np.asarray(hist, dtype=np.float64)
    below = np.cumsum(hist) - hist
    mid = (below + hist / 2) / hist.sum()
    return np.minimum((mid * n_buckets).astype(np.int64), n_buckets - 1).astype(np.int16)
