"""Bucket tables per canonical board, built once and cached on disk (not shipped: too big).

Sizes with 50 buckets a street (uint8): flop 2.3 MB, turn 22 MB, river 178 MB, plus the
flop and turn feature tables (uint16, 4.7 and 44 MB) from which any bucket count of those
streets is derived in a fraction of a second. A river table is built per bucket count from the
river strengths (a few seconds). Files are written atomically and read memory-mapped, so two
solver processes share one copy in the page cache; a file of the wrong shape or type is rebuilt.
Replacing a file by rename (as the writes here do) is safe while a process maps it; truncating
and rewriting it in place is not (the mapping loses its pages: a bus error).

The folder is ``$POKERTUI_CACHE/abstraction`` (default ``~/.cache/pokertui/abstraction``); the
potential-aware tables and centroids (``potential_buckets``) are kept there too, the same way.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from solvers.abstraction import boards as board_sets
from solvers.abstraction import hand_features as hf
from solvers.atomic import atomic_write

FORMAT = "v1"
"""Bumped when a feature's definition changes, so old caches are ignored."""

Progress = Callable[[str], None] | None


def cache_dir() -> Path:
    root = os.environ.get("POKERTUI_CACHE") or Path.home() / ".cache" / "pokertui"
    return Path(root) / "abstraction"


_UNSAVED: dict[Path, np.ndarray] = {}
"""Tables that could not be cached, kept for the life of the process."""


def load_table(path: Path, shape: tuple[int, ...], dtype) -> np.ndarray | None:
    """A cached table, memory-mapped; None when it is missing or of another shape or type."""
    if path in _UNSAVED:
        return _UNSAVED[path]
    try:
        table = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    if table.shape != shape or table.dtype != np.dtype(dtype):
        return None
    return table


def save_table(path: Path, table: np.ndarray, progress: Progress = None) -> None:
    """Cache a table; a folder that cannot be written only costs the cache (said, not raised)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda f: np.save(f, table, allow_pickle=False))
    except OSError as exc:
        _UNSAVED[path] = table
        if progress:
            progress(f"could not cache {path.name} ({exc}); keeping it in memory")


def cached_table(path: Path, shape: tuple[int, ...], dtype, build: Callable[[], np.ndarray],
                 progress: Progress = None) -> np.ndarray:  # fmt: skip
    """The table at ``path`` (``load_table``), built by ``build()`` and saved first when it is
    missing or of another shape or type."""
    table = load_table(path, shape, dtype)
    if table is None:
        save_table(path, build(), progress)
        table = load_table(path, shape, dtype)
    assert table is not None
    return table


def _n_boards(street: int) -> int:
    return len(board_sets.canonical_boards(hf.STREET_CARDS[street])[0])


def _feature_path(street: int) -> Path:
    return cache_dir() / f"{FORMAT}_features_{hf.STREET_NAMES[street]}.npy"


def feature_table(street: int, progress: Progress = None) -> np.ndarray:
    """Flop or turn features of every canonical board (uint16 ``[boards, 1326]``), cached;
    the flop's and the turn's are built together (the flop's come from the turn's sums)."""
    table = load_table(_feature_path(street), (_n_boards(street), 1326), np.uint16)
    if table is None:
        built = dict(zip((1, 2), hf.canonical_features(progress), strict=True))
        for s, features in built.items():
            save_table(_feature_path(s), np.maximum(features, 0).astype(np.uint16), progress)
        table = load_table(_feature_path(street), (_n_boards(street), 1326), np.uint16)
    assert table is not None
    return table


def bucket_dtype(n_buckets: int):
    return np.uint8 if n_buckets <= 256 else np.int16


def bucket_table(street: int, n_buckets: int, progress: Progress = None) -> np.ndarray:
    """Bucket of every combo on every canonical board of ``street`` (blocked combos: 0)."""
    lookup = hf.percentile_buckets(hf.shipped_histograms()[hf.STREET_NAMES[street]], n_buckets)
    dtype = bucket_dtype(n_buckets)
    if street in (1, 2):
        return lookup[feature_table(street, progress)].astype(dtype)
    shape = (_n_boards(3), 1326)

    def build() -> np.ndarray:
        built = np.empty(shape, dtype=dtype)
        for start, w in hf.river_chunks(progress):
            built[start : start + len(w)] = lookup[np.maximum(w, 0)]
        return built

    path = cache_dir() / f"{FORMAT}_buckets_river_{n_buckets}.npy"
    return cached_table(path, shape, dtype, build, progress)


def cached(street: int, n_buckets: int) -> bool:
    """Is the table of this street and bucket count on disk already (no build needed)?"""
    if street in (1, 2):
        return load_table(_feature_path(street), (_n_boards(street), 1326), np.uint16) is not None
    path = cache_dir() / f"{FORMAT}_buckets_river_{n_buckets}.npy"
    return load_table(path, (_n_boards(3), 1326), bucket_dtype(n_buckets)) is not None
