"""k-means under the earth mover's distance, the clustering of the potential-aware abstraction.

* ``kmedians_l1``: points are cumulative histograms (one dimension), where EMD is the L1
  distance. Each centroid is the weighted coordinate-wise median of its points, the exact
  minimiser of the summed L1 (so of the summed EMD); a median of cumulative histograms is
  itself non-decreasing, so a valid cumulative histogram.
* ``kmeans_emd``: points are histograms over turn buckets, compared with ``greedy_emd``
  (``emd_kernels``) under a ground distance between buckets. Each centroid is the weighted mean
  histogram of its points, as in Ganzfried and Sandholm (2014) and Johanson et al. (2013).

Both start from k-means++ seeding (a point drawn with probability proportional to its weight
times its distance to the nearest centroid so far), run to a fixed point or an iteration cap,
and give an emptied cluster the point farthest from its centroid. Same seed, same clusters.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Progress = Callable[[str], None] | None


def _kernels():
    from solvers.abstraction import emd_kernels

    return emd_kernels


def _seed(n: int, k: int, weights: np.ndarray, rng: np.random.Generator,
          distance_to: Callable[[int], np.ndarray]) -> list[int]:  # fmt: skip
    """k-means++ indices: the first by weight, then by weight times distance to the nearest."""
    chosen = [int(rng.choice(n, p=weights / weights.sum()))]
    nearest = distance_to(chosen[0])
    while len(chosen) < k:
        score = weights * nearest
        total = score.sum()
        if total <= 0:
            break  # fewer distinct points than clusters
        pick = int(rng.choice(n, p=score / total))
        chosen.append(pick)
        nearest = np.minimum(nearest, distance_to(pick))
    return chosen


def kmedians_l1(points: np.ndarray, weights: np.ndarray, k: int, seed: int,
                max_iterations: int = 100, progress: Progress = None) -> np.ndarray:  # fmt: skip
    """``k`` centroids (int64 ``[k, d]``) of integer points ``[n, d]`` under L1 distance."""
    points = np.ascontiguousarray(points, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    n, d = points.shape
    kern = _kernels()
    if n <= k:
        return np.concatenate([points, np.repeat(points[-1:], k - n, axis=0)])
    rng = np.random.default_rng(seed)
    as_float = points.astype(np.float64)
    chosen = _seed(n, k, weights, rng, lambda i: kern.l1_nearest(as_float, as_float[i : i + 1])[1])
    centroids = points[np.resize(np.asarray(chosen), k)].copy()
    values = int(points.max()) + 1
    flat = (np.arange(d) * values)[None, :] + points  # [n, d] bin of each coordinate's value
    labels = np.full(n, -1, dtype=np.int64)
    for iteration in range(max_iterations):
        new, dist = kern.l1_nearest(as_float, centroids.astype(np.float64))
        if np.array_equal(new, labels):
            break
        labels = new
        if progress:
            progress(f"turn clusters: pass {iteration + 1}, mean L1 {_mean(dist, weights):.3f}")
        bins = (labels[:, None] * (d * values) + flat).ravel()
        counts = np.bincount(bins, weights=np.repeat(weights, d), minlength=k * d * values)
        cumulative = np.cumsum(counts.reshape(k, d, values), axis=2)
        mass = cumulative[:, :, -1:]
        centroids = np.argmax(cumulative >= mass / 2.0, axis=2).astype(np.int64)
        for c in np.flatnonzero(mass[:, 0, 0] <= 0):
            far = int(np.argmax(dist * weights))
            centroids[c] = points[far]
            dist[far] = 0.0
    return centroids


def kmeans_emd(rows: np.ndarray, weights: np.ndarray, k: int, ground: np.ndarray, seed: int,
               max_iterations: int = 20, progress: Progress = None) -> np.ndarray:  # fmt: skip
    """``k`` mean histograms (float64 ``[k, buckets]``, each summing to 1) of hands given as
    rows of sorted bucket ids (``[n, cards]``, one unit of mass per card) under ``greedy_emd``
    with ``ground[a, b]`` the distance between buckets ``a`` and ``b``."""
    rows = np.ascontiguousarray(rows, dtype=np.int16)
    weights = np.asarray(weights, dtype=np.float64)
    n, cards = rows.shape
    n_buckets = ground.shape[0]
    order, distance = ground_order(ground)
    kern = _kernels()
    rng = np.random.default_rng(seed)
    dense = histograms(rows, n_buckets)

    def distance_to(i: int) -> np.ndarray:
        return kern.emd_nearest(rows, dense[i : i + 1], order, distance)[1]

    chosen = _seed(n, min(k, n), weights, rng, distance_to)
    means = dense[np.resize(np.asarray(chosen), k)].copy()
    labels = np.full(n, -1, dtype=np.int64)
    for iteration in range(max_iterations):
        new, dist = kern.emd_nearest(rows, means, order, distance)
        if np.array_equal(new, labels):
            break
        labels = new
        if progress:
            progress(f"flop clusters: pass {iteration + 1}, mean EMD {_mean(dist, weights):.4f}")
        bins = (labels[:, None] * n_buckets + rows).ravel()
        sums = np.bincount(bins, weights=np.repeat(weights / cards, cards),
                           minlength=k * n_buckets).reshape(k, n_buckets)  # fmt: skip
        mass = sums.sum(axis=1, keepdims=True)
        means = sums / np.where(mass > 0, mass, 1.0)
        for c in np.flatnonzero(mass[:, 0] <= 0):
            far = int(np.argmax(dist * weights))
            means[c] = dense[far]
            dist[far] = 0.0
    return means


def ground_order(ground: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per bucket, the buckets from nearest to farthest and their distances (``greedy_emd``)."""
    ground = np.asarray(ground, dtype=np.float64)
    order = np.argsort(ground, axis=1, kind="stable")
    return order.astype(np.int64), np.ascontiguousarray(np.take_along_axis(ground, order, axis=1))


def histograms(rows: np.ndarray, n_buckets: int) -> np.ndarray:
    """Rows of bucket ids (``[n, cards]``) as histograms of mass 1: float64 ``[n, n_buckets]``."""
    n, cards = rows.shape
    flat = (np.arange(n)[:, None] * n_buckets + rows).ravel()
    counts = np.bincount(flat, minlength=n * n_buckets).reshape(n, n_buckets)
    return counts / cards


def _mean(dist: np.ndarray, weights: np.ndarray) -> float:
    return float(dist @ weights / weights.sum())
