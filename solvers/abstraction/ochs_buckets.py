"""River buckets by opponent-cluster hand strength (``ochs``), after Johanson, Burch, Valenzano
and Bowling (2013), "Evaluating state-space abstractions in extensive-form games".

A river hand's ``hs2`` bucket is its strength against a uniformly random hand: two hands that
beat the same share of all hands share a bucket even when one beats the strong hands an
opponent keeps to the river and the other only the weak ones. OCHS keeps that apart:

* **Opponent clusters.** The 169 starting hands are clustered into ``N_CLUSTERS`` groups by
  their distribution of river strength (a 12-bin histogram of ``w / 1980`` over
  ``CLASS_BOARDS`` random rivers; k-medians under the 1-D EMD, as ``pa``'s turn): pocket
  pairs, suited connectors, weak offsuit hands and so on, weakest first.
* **Features.** A hand's OCHS vector on a river: its equity (wins and half the ties) against
  the combos of each cluster that share no card with it or the board (``ochs_kernels``).
* **Buckets.** k-means (L2) of those vectors, fitted on ``FIT_ROWS`` hands drawn from
  ``FIT_BOARDS`` canonical rivers by their weight in real boards; every hand of every
  canonical river then takes its nearest mean. Buckets are numbered by their mean's equity
  against all clusters, 0 the weakest, like the ``hs2`` ones.

The clusters, the means (``centroids``) and the table are cached beside the other tables
(``bucket_tables``); a river whose table is not built is computed from the means (about a
millisecond a board).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from solvers.abstraction import boards as board_sets
from solvers.abstraction import bucket_tables as tables
from solvers.abstraction import hand_features as hf
from solvers.abstraction.emd_kmeans import kmedians_l1
from solvers.cards.deck import COMBO_CLASS, N_CLASSES, N_COMBOS

N_CLUSTERS = 8
"""Opponent clusters of the 169 starting hands (the paper's 8)."""
CLASS_BOARDS = 4_000
"""Random rivers whose strengths cluster the starting hands."""
CLASS_BINS = 12
FIT_BOARDS = 4_000
"""Canonical rivers the bucket means are fitted on (of 134,459)."""
FIT_ROWS = 400_000
"""Hands of those rivers the k-means runs on."""
MAX_OCHS_BUCKETS = 256
"""A bucket is a byte in the table."""
SEED = 0
KMEANS_PASSES = 50


def _kernels():
    from solvers.abstraction import ochs_kernels

    return ochs_kernels


def _path(name: str) -> Path:
    return tables.cache_dir() / f"{tables.FORMAT}_ochs{N_CLUSTERS}_{name}.npy"


# -- opponent clusters ----------------------------------------------------------------------
def _random_rivers(n: int, seed: int) -> np.ndarray:
    """``n`` uniformly random 5-card boards (int64 ``[n, 5]``)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.int64)


@cache
def combo_clusters() -> np.ndarray:
    """The opponent cluster of each of the 1,326 combos (its starting hand's): int64, the
    clusters numbered from the weakest starting hands' (lowest mean river strength) up."""
    classes = tables.cached_table(_path("classes"), (N_CLASSES,), np.int64,
                                  lambda: class_clusters(CLASS_BOARDS, SEED))  # fmt: skip
    return np.asarray(classes)[COMBO_CLASS].astype(np.int64)


def class_clusters(n_boards: int, seed: int) -> np.ndarray:
    """Cluster of each starting hand from ``n_boards`` random rivers (``combo_clusters``)."""
    w = hf.features(_random_rivers(n_boards, seed), 3)  # [boards, 1326], -1 blocked
    bins = np.minimum(w * CLASS_BINS // (hf.W_MAX + 1), CLASS_BINS - 1)
    valid = w >= 0
    flat = (COMBO_CLASS[None, :] * CLASS_BINS + bins)[valid]
    counts = np.bincount(flat, minlength=N_CLASSES * CLASS_BINS).reshape(N_CLASSES, CLASS_BINS)
    share = counts / counts.sum(axis=1, keepdims=True)
    cumulative = np.rint(np.cumsum(share, axis=1)[:, :-1] * 10_000).astype(np.int64)
    sizes = np.bincount(COMBO_CLASS, minlength=N_CLASSES).astype(np.float64)
    centroids = kmedians_l1(cumulative, sizes, N_CLUSTERS, seed)
    from solvers.abstraction import emd_kernels  # noqa: PLC0415 - numba on use

    labels, _ = emd_kernels.l1_nearest(cumulative.astype(np.float64), centroids.astype(np.float64))
    strength = np.bincount(np.broadcast_to(COMBO_CLASS, w.shape)[valid], weights=w[valid],
                           minlength=N_CLASSES) / np.maximum(counts.sum(axis=1), 1)  # fmt: skip
    mean = np.array([strength[labels == k] @ sizes[labels == k] / sizes[labels == k].sum()
                     if (labels == k).any() else np.inf for k in range(N_CLUSTERS)])  # fmt: skip
    rank = np.empty(N_CLUSTERS, dtype=np.int64)
    rank[np.argsort(mean, kind="stable")] = np.arange(N_CLUSTERS)
    return rank[labels]


# -- features and buckets -------------------------------------------------------------------
def river_features(boards: np.ndarray) -> np.ndarray:
    """OCHS vector of every combo on each river: float32 ``[boards, 1326, N_CLUSTERS]``, -1
    where the board blocks the combo."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    return _kernels().river_ochs_table(boards, combo_clusters(), N_CLUSTERS,
                                       *hf.evaluator_tables())  # fmt: skip


def kmeans_l2(points: np.ndarray, k: int, seed: int, passes: int = KMEANS_PASSES,
              progress: tables.Progress = None) -> np.ndarray:  # fmt: skip
    """``k`` means (float64 ``[k, d]``) of ``points`` under L2: greedy k-means++ seeding (of
    ``2 + log k`` candidates drawn by squared distance, the one that lowers the summed squared
    distance most: on four well-separated clusters, plain k-means++ put two seeds in one
    cluster in 86 of 3,000 draws, this in none), then Lloyd passes to a fixed point or
    ``passes``; an emptied cluster takes the farthest point."""
    points = np.ascontiguousarray(points, dtype=np.float64)
    n = len(points)
    kern = _kernels()
    rng = np.random.default_rng(seed)
    chosen = [int(rng.integers(n))]
    nearest = ((points - points[chosen[0]]) ** 2).sum(axis=1)
    trials = 2 + int(np.log(k))
    while len(chosen) < min(k, n):
        total = nearest.sum()
        if total <= 0:
            break
        candidates = rng.choice(n, trials, p=nearest / total)
        options = [np.minimum(nearest, ((points - points[c]) ** 2).sum(axis=1))
                   for c in candidates]  # fmt: skip
        best = int(np.argmin([o.sum() for o in options]))
        chosen.append(int(candidates[best]))
        nearest = options[best]
    means = points[np.resize(np.asarray(chosen), k)].copy()
    labels = np.full(n, -1, dtype=np.int64)
    for iteration in range(passes):
        new, distance = kern.l2_nearest(points, means)
        if np.array_equal(new, labels):
            break
        labels = new
        if progress:
            progress(f"river clusters: pass {iteration + 1}, mean L2² {distance.mean():.5f}")
        sums = np.zeros_like(means)
        np.add.at(sums, labels, points)
        sizes = np.bincount(labels, minlength=k)
        means = sums / np.maximum(sizes, 1)[:, None]
        for c in np.flatnonzero(sizes == 0):
            far = int(np.argmax(distance))
            means[c] = points[far]
            distance[far] = 0.0
    return means


def fit_centroids(n: int, n_boards: int = FIT_BOARDS, n_rows: int = FIT_ROWS,
                  seed: int = SEED, progress: tables.Progress = None) -> np.ndarray:  # fmt: skip
    """The ``n`` bucket means (float32 ``[n, N_CLUSTERS]``), weakest first, fitted on
    ``n_rows`` hands of ``n_boards`` canonical rivers drawn by their weight in real boards."""
    _, rivers, weights = board_sets.canonical_boards(5)
    rng = np.random.default_rng(seed)
    picked = np.sort(rng.choice(len(rivers), n_boards, replace=False, p=weights / weights.sum()))
    if progress:
        progress(f"OCHS of {n_boards:,} rivers")
    features = river_features(rivers[picked])
    rows = features[features[:, :, 0] >= 0]
    rows = rows[rng.choice(len(rows), min(n_rows, len(rows)), replace=False)]
    if progress:
        progress(f"{n} river clusters of {len(rows):,} hands")
    means = kmeans_l2(rows, n, seed, progress=progress)
    sizes = np.bincount(combo_clusters(), minlength=N_CLUSTERS)
    return means[np.argsort(means @ sizes, kind="stable")].astype(np.float32)


def centroids(n: int, progress: tables.Progress = None) -> np.ndarray:
    """The cached means of ``n`` buckets (fitted and saved on first use)."""
    found = tables.cached_table(_path(f"river{n}_centroids"), (n, N_CLUSTERS), np.float32,
                                lambda: fit_centroids(n, progress=progress), progress)  # fmt: skip
    return np.asarray(found)


def river_buckets(boards: np.ndarray, means: np.ndarray) -> np.ndarray:
    """Bucket of every combo on each river from ``means``: uint8 ``[boards, 1326]`` (0 where
    the board blocks the combo)."""
    return _kernels().river_ochs_buckets(
        np.ascontiguousarray(boards, dtype=np.int64), combo_clusters(),
        np.ascontiguousarray(means, dtype=np.float64), *hf.evaluator_tables(),
    )  # fmt: skip


def river_table(n: int, progress: tables.Progress = None) -> np.ndarray:
    """Bucket of every combo on every canonical river (blocked: 0), cached."""
    _, rivers, _ = board_sets.canonical_boards(5)
    shape = (len(rivers), N_COMBOS)

    def build() -> np.ndarray:
        means = centroids(n, progress)
        built = np.empty(shape, dtype=np.uint8)
        for start in range(0, len(rivers), hf.RIVER_CHUNK):
            if progress:
                progress(f"OCHS buckets of rivers {start:,}/{len(rivers):,}")
            stop = start + hf.RIVER_CHUNK
            built[start:stop] = river_buckets(rivers[start:stop], means)
        return built

    return tables.cached_table(_path(f"river{n}"), shape, np.uint8, build, progress)


def board_buckets(board: np.ndarray, n: int, progress: tables.Progress = None) -> np.ndarray:
    """Bucket of all 1,326 combos on one river from the means (fitted if not cached): int16,
    -1 where the board blocks the combo."""
    board = np.asarray(board, dtype=np.int64)[None, :5]
    buckets = river_buckets(board, centroids(n, progress))[0].astype(np.int16)
    return np.where(hf.blocked_mask(board)[0], np.int16(-1), buckets)


def cached(n: int) -> bool:
    """Are the table and means of ``n`` buckets on disk (no fit needed)?"""
    shape = (len(board_sets.canonical_boards(5)[0]), N_COMBOS)
    return (tables.load_table(_path(f"river{n}"), shape, np.uint8) is not None
            and tables.load_table(_path(f"river{n}_centroids"), (n, N_CLUSTERS), np.float32)
            is not None)  # fmt: skip
