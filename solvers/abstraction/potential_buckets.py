"""Potential-aware buckets (``pa``) of the flop and turn, after Johanson, Burch, Valenzano and
Bowling (2013), "Evaluating state-space abstractions in extensive-form games".

* Turn (distribution-aware): a hand's histogram of its river strength over its 46 rivers
  (``w / 1980`` in ``N_BINS`` equal-width bins), clustered by k-medians under the EMD, which in
  one dimension is the L1 distance between cumulative histograms (``emd_kmeans.kmedians_l1``).
  Every (canonical turn, hand) row counts with the number of real turns its board stands for;
  equal histograms are merged first (230,907 distinct ones among 18.5 M rows), so the fit
  sees every row.
* Flop (potential-aware): a hand's histogram of its turn bucket over its 47 turn cards,
  clustered by k-means under the greedy approximate EMD (``emd_kernels.greedy_emd``) whose
  ground distance between two turn buckets is the EMD between their centroids. The fit runs on
  ``FLOP_FIT_ROWS`` rows drawn with probability proportional to their board's weight; every row
  is then given its nearest mean.
* River: the hand-strength percentile buckets of ``hs2``.

Buckets are numbered by the strength of their centroid (0 the weakest: lowest mean river
strength), so they read like the ``hs2`` ones. The centroids and the tables are cached beside
the ``hs2`` tables (``bucket_tables``); a board whose tables are not built is computed from the
centroids alone (``board_buckets``: a turn about 2 ms, a flop its 49 turns, about 0.1 s).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solvers.abstraction import boards as board_sets
from solvers.abstraction import bucket_tables as tables
from solvers.abstraction import hand_features as hf
from solvers.abstraction.emd_kmeans import ground_order, kmeans_emd, kmedians_l1
from solvers.cards.deck import COMBO_CARDS, COMBO_INDEX, N_COMBOS

N_BINS = 12
"""Equal-width bins of river hand strength in a turn hand's histogram."""
SEED = 0
FLOP_FIT_ROWS = 200_000
"""Flop rows the flop clusters are fitted on (of 2.06 M; every row is assigned after)."""
MAX_PA_BUCKETS = 256
"""Flop and turn bucket counts of ``pa`` (a turn bucket is a byte in the flop's rows)."""
TURN_CARDS = 47
_DIMS = N_BINS - 1


def _kernels():
    from solvers.abstraction import emd_kernels

    return emd_kernels


def _path(name: str) -> Path:
    return tables.cache_dir() / f"{tables.FORMAT}_pa{N_BINS}_{name}.npy"


# -- turn -----------------------------------------------------------------------------------
def turn_keys(boards: np.ndarray) -> np.ndarray:
    """Packed cumulative river histogram of every combo on each 4-card board (-1 blocked)."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    return _kernels().turn_keys(boards, N_BINS, *hf.evaluator_tables())


def decode(keys: np.ndarray) -> np.ndarray:
    """Cumulative river histograms (counts of 46) of packed keys: int64 ``[n, N_BINS - 1]``."""
    return _kernels().decode_keys(np.ascontiguousarray(keys, dtype=np.int64), _DIMS)


def _distinct_turn_rows(progress: tables.Progress = None) -> tuple[np.ndarray, ...]:
    """Distinct histograms of all canonical (turn, hand) rows, their weights in real dealt
    hands, and each row's index among them (-1 blocked)."""
    _, turns, weights = board_sets.canonical_boards(4)
    if progress:
        progress(f"river histograms of {len(turns):,} turns, every river")
    keys = turn_keys(turns)
    valid = keys >= 0
    distinct, inverse = np.unique(keys[valid], return_inverse=True)
    row_weights = np.broadcast_to(weights[:, None], keys.shape)[valid]
    mass = np.bincount(inverse, weights=row_weights, minlength=len(distinct))
    index = np.full(keys.shape, -1, dtype=np.int32)
    index[valid] = inverse
    return distinct, mass, index


def _strength_order(cdf: np.ndarray) -> np.ndarray:
    """Turn centroids from weakest to strongest: least mass above each bin first."""
    return np.argsort(-np.asarray(cdf, dtype=np.float64).sum(axis=1), kind="stable")


def turn_strength(centroids: np.ndarray) -> np.ndarray:
    """Mean river hand strength (0..1) of each turn centroid (cumulative counts of 46)."""
    above = (46.0 - np.asarray(centroids, dtype=np.float64)).sum(axis=1) / 46.0
    return (above + 0.5) / N_BINS


def turn_centroids(n: int, progress: tables.Progress = None) -> np.ndarray:
    """The ``n`` turn centroids (int64 ``[n, N_BINS - 1]``), weakest first; fitted and cached
    with the turn table on first use."""
    found = tables.load_table(_path(f"turn{n}_centroids"), (n, _DIMS), np.int64)
    if found is None:
        _build_turn(n, progress)
        found = tables.load_table(_path(f"turn{n}_centroids"), (n, _DIMS), np.int64)
    assert found is not None
    return np.asarray(found)


def turn_table(n: int, progress: tables.Progress = None) -> np.ndarray:
    """Turn bucket of every combo on every canonical turn (blocked: 0), cached."""
    shape = (len(board_sets.canonical_boards(4)[0]), N_COMBOS)
    found = tables.load_table(_path(f"turn{n}"), shape, np.uint8)
    if found is None:
        _build_turn(n, progress)
        found = tables.load_table(_path(f"turn{n}"), shape, np.uint8)
    assert found is not None
    return found


def _build_turn(n: int, progress: tables.Progress) -> None:
    distinct, mass, index = _distinct_turn_rows(progress)
    points = decode(distinct)
    if progress:
        progress(f"{n} turn clusters of {len(distinct):,} distinct river histograms")
    fitted = kmedians_l1(points, mass, n, SEED, progress=progress)
    centroids = fitted[_strength_order(fitted)]
    labels, _ = _kernels().l1_nearest(points.astype(np.float64), centroids.astype(np.float64))
    table = np.where(index >= 0, labels[np.maximum(index, 0)], 0).astype(np.uint8)
    tables.save_table(_path(f"turn{n}_centroids"), centroids, progress)
    tables.save_table(_path(f"turn{n}"), table, progress)


def turn_ground(centroids: np.ndarray) -> np.ndarray:
    """EMD between turn centroids (in hand strength, 0..1): L1 of the cumulative histograms."""
    cdf = np.asarray(centroids, dtype=np.float64) / 46.0
    return np.abs(cdf[:, None, :] - cdf[None, :, :]).sum(axis=2) / N_BINS


def turn_board_buckets(boards: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Turn bucket of every combo on each 4-card board from the centroids: int16
    ``[boards, 1326]``, -1 where blocked."""
    keys = turn_keys(boards)
    valid = keys >= 0
    labels, _ = _kernels().l1_nearest(decode(keys[valid]).astype(np.float64),
                                      np.asarray(centroids, dtype=np.float64))  # fmt: skip
    out = np.full(keys.shape, -1, dtype=np.int16)
    out[valid] = labels
    return out


# -- flop -----------------------------------------------------------------------------------
def flop_rows(flops: np.ndarray, n_turn: int, progress: tables.Progress = None) -> np.ndarray:
    """Each canonical flop hand's 47 turn buckets, sorted: int16 ``[flops, 1326, 47]``."""
    turn_keys_sorted = board_sets.canonical_boards(4)[0]
    return _kernels().flop_turn_buckets(
        np.ascontiguousarray(flops, dtype=np.int64), turn_keys_sorted,
        np.ascontiguousarray(turn_table(n_turn, progress)), COMBO_INDEX.astype(np.int64),
        COMBO_CARDS.astype(np.int64),
    )  # fmt: skip


def flop_means(n: int, n_turn: int, progress: tables.Progress = None) -> np.ndarray:
    """The ``n`` flop means (float64 ``[n, n_turn]``, histograms over turn buckets), weakest
    first; fitted and cached with the flop table on first use."""
    found = tables.load_table(_path(f"flop{n}_turn{n_turn}_means"), (n, n_turn), np.float64)
    if found is None:
        _build_flop(n, n_turn, progress)
        found = tables.load_table(_path(f"flop{n}_turn{n_turn}_means"), (n, n_turn), np.float64)
    assert found is not None
    return np.asarray(found)


def flop_table(n: int, n_turn: int, progress: tables.Progress = None) -> np.ndarray:
    """Flop bucket of every combo on every canonical flop (blocked: 0), cached."""
    shape = (len(board_sets.canonical_boards(3)[0]), N_COMBOS)
    found = tables.load_table(_path(f"flop{n}_turn{n_turn}"), shape, np.uint8)
    if found is None:
        _build_flop(n, n_turn, progress)
        found = tables.load_table(_path(f"flop{n}_turn{n_turn}"), shape, np.uint8)
    assert found is not None
    return found


def _build_flop(n: int, n_turn: int, progress: tables.Progress) -> None:
    _, flops, weights = board_sets.canonical_boards(3)
    if progress:
        progress(f"turn buckets of {len(flops):,} flops, every turn")
    rows = flop_rows(flops, n_turn, progress)
    valid = rows[:, :, 0] >= 0
    points = rows[valid]
    row_weights = np.broadcast_to(weights[:, None], valid.shape)[valid].astype(np.float64)
    rng = np.random.default_rng(SEED)
    size = min(FLOP_FIT_ROWS, len(points))
    chance = row_weights / row_weights.sum()
    sample = np.sort(rng.choice(len(points), size, replace=False, p=chance))
    ground = turn_ground(turn_centroids(n_turn, progress))
    if progress:
        progress(f"{n} flop clusters of {size:,} sampled flop hands")
    fitted = kmeans_emd(points[sample], np.ones(size), n, ground, SEED, progress=progress)
    means = fitted[np.argsort(fitted @ turn_strength(turn_centroids(n_turn)), kind="stable")]
    if progress:
        progress(f"flop buckets of {len(points):,} flop hands")
    labels = flop_labels(points, means, ground)
    table = np.zeros(valid.shape, dtype=np.uint8)
    table[valid] = labels
    tables.save_table(_path(f"flop{n}_turn{n_turn}_means"), means, progress)
    tables.save_table(_path(f"flop{n}_turn{n_turn}"), table, progress)


def flop_labels(points: np.ndarray, means: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """Nearest flop mean of each hand (rows of 47 sorted turn buckets)."""
    order, distance = ground_order(ground)
    rows = np.ascontiguousarray(points, dtype=np.int16)
    return _kernels().emd_nearest(rows, np.ascontiguousarray(means), order, distance)[0]


def flop_board_rows(flop: np.ndarray, turn_centroids_: np.ndarray) -> np.ndarray:
    """One flop's hands' 47 turn buckets from the turn centroids (its 49 turns computed):
    int16 ``[1326, 47]``, rows of -1 where the flop blocks the hand."""
    flop = np.asarray(flop, dtype=np.int64)
    turn_cards = np.setdiff1d(np.arange(52), flop)
    boards = np.column_stack([np.broadcast_to(flop, (len(turn_cards), 3)), turn_cards])
    buckets = turn_board_buckets(boards, turn_centroids_)  # [49 turns, 1326]
    ordered = np.sort(buckets.T, axis=1)  # the two turns that hit the hand sort first (-1)
    rows = np.ascontiguousarray(ordered[:, 2:])
    blocked = hf.blocked_mask(flop[None, :])[0]
    rows[blocked] = -1
    return rows


# -- one board ------------------------------------------------------------------------------
def board_buckets(board: np.ndarray, street: int, n_flop: int, n_turn: int,
                  progress: tables.Progress = None) -> np.ndarray:  # fmt: skip
    """Flop (street 1) or turn (2) bucket of all 1,326 combos on one board, from the centroids
    (fitted if not cached) without the tables: int16, -1 where the board blocks the combo."""
    board = np.asarray(board, dtype=np.int64)
    t_centroids = turn_centroids(n_turn, progress)
    if street == 2:
        return turn_board_buckets(board[None, :4], t_centroids)[0]
    rows = flop_board_rows(board[:3], t_centroids)
    valid = rows[:, 0] >= 0
    means = flop_means(n_flop, n_turn, progress)
    out = np.full(N_COMBOS, -1, dtype=np.int16)
    out[valid] = flop_labels(rows[valid], means, turn_ground(t_centroids))
    return out


def cached(street: int, n_flop: int, n_turn: int) -> bool:
    """Are the table and centroids of this street on disk (no fit needed)?"""
    shape4 = (len(board_sets.canonical_boards(4)[0]), N_COMBOS)
    turn = (tables.load_table(_path(f"turn{n_turn}"), shape4, np.uint8) is not None
            and tables.load_table(_path(f"turn{n_turn}_centroids"), (n_turn, _DIMS), np.int64)
            is not None)  # fmt: skip
    if street == 2:
        return turn
    shape3 = (len(board_sets.canonical_boards(3)[0]), N_COMBOS)
    name = f"flop{n_flop}_turn{n_turn}"
    return (
        turn
        and tables.load_table(_path(name), shape3, np.uint8) is not None
        and tables.load_table(_path(f"{name}_means"), (n_flop, n_turn), np.float64) is not None
    )
