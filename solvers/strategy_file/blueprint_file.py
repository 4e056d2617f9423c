"""The blueprint file: a JSON header and the quantised strategy of the abstract full game.

A ``.npz`` (zip, no pickles) holding ``header`` (UTF-8 JSON as bytes) and ``strategy``
(uint8, one per slot of the abstract tree: node, bucket, action, the layout of
``BettingTree.slot_offsets``). Each row's probabilities are stored as whole 255ths (largest
remainder rounding, so a row sums to exactly 255): at most 1/510 off per action, and a 4 M-slot
blueprint is 4 MB before compression. The header records the game, both abstractions (their
spec strings rebuild the tree and the buckets), iterations, seed, seconds and the figures
measured later (LBR). Reading checks everything: a corrupt, foreign or inconsistent file is an
``InputError`` naming the problem.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solvers.atomic import atomic_write
from solvers.errors import InputError
from solvers.user_files import check_regular_file

FORMAT = "pokertui-hunl-blueprint"
VERSION = 1
MAX_FILE_BYTES = 64 << 20
MAX_SLOTS = 100_000_000
REQUIRED = ("format", "version", "game", "betting", "cards", "slots", "iterations")


class BlueprintFileError(InputError):
    """A blueprint file that cannot be used; the message says why."""


@dataclass(frozen=True)
class BlueprintFile:
    header: dict[str, Any]
    strategy: np.ndarray
    """uint8 per slot, rows summing to 255."""


def quantise_rows(probabilities: np.ndarray, row_lengths: np.ndarray) -> np.ndarray:
    """Rows of probabilities (concatenated; ``row_lengths`` each) to uint8 summing to 255."""
    starts = np.concatenate(([0], np.cumsum(row_lengths)[:-1]))
    row_of = np.repeat(np.arange(len(row_lengths)), row_lengths)
    p = np.clip(np.asarray(probabilities, dtype=np.float64), 0.0, None)
    totals = np.add.reduceat(p, starts) if len(starts) else np.zeros(0)
    uniform = totals[row_of] <= 0
    p = np.where(uniform, 1.0 / row_lengths[row_of], p / np.where(uniform, 1.0, totals[row_of]))
    scaled = p * 255.0
    base = np.floor(scaled).astype(np.int64)
    short = 255 - np.add.reduceat(base, starts)
    # the `short[row]` largest remainders of each row get one more 255th
    remainder = scaled - base
    order = np.lexsort((-remainder, row_of))
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size) - starts[row_of[order]]
    base += rank < short[row_of]
    return base.astype(np.uint8)


def write_blueprint(path: str | os.PathLike[str], header: dict[str, Any],
                    strategy: np.ndarray) -> Path:  # fmt: skip
    header = {"format": FORMAT, "version": VERSION, **header, "slots": int(strategy.size)}
    text = json.dumps(header, sort_keys=True).encode()
    arrays = {"header": np.frombuffer(text, dtype=np.uint8), "strategy": strategy}
    atomic_write(path, lambda handle: np.savez_compressed(handle, **arrays))  # type: ignore[arg-type]
    return Path(path)


def read_blueprint(path: str | os.PathLike[str]) -> BlueprintFile:
    check_regular_file(path, "blueprint")
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise BlueprintFileError(f"{path} is {size >> 20} MB; a blueprint is at most "
                                 f"{MAX_FILE_BYTES >> 20} MB")  # fmt: skip
    try:
        raw = Path(path).read_bytes()
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            if not isinstance(data, np.lib.npyio.NpzFile) or set(data.files) != {"header",
                                                                                   "strategy"}:
                raise BlueprintFileError(f"{path} is not a pokertui blueprint file")
            header_bytes = data["header"]
            strategy = data["strategy"]
    except BlueprintFileError:
        raise
    except (ValueError, OSError, EOFError, KeyError, zipfile.BadZipFile, AttributeError) as exc:
        raise BlueprintFileError(f"{path} is not a readable blueprint file "
                                 f"({type(exc).__name__})") from None  # fmt: skip
    try:
        header = json.loads(header_bytes.astype(np.uint8).tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BlueprintFileError(f"{path}: the header is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BlueprintFileError(f"{path} is not a pokertui blueprint file")
    missing = [key for key in REQUIRED if key not in header]
    if missing:
        raise BlueprintFileError(f"{path}: the header lacks {', '.join(missing)}")
    if header["version"] != VERSION:
        raise BlueprintFileError(f"{path} is blueprint version {header['version']!r}; "
                                 f"this pokertui reads version {VERSION}")  # fmt: skip
    slots = header["slots"]
    if not isinstance(slots, int) or not 0 < slots <= MAX_SLOTS:
        raise BlueprintFileError(f"{path}: bad slot count {slots!r}")
    if strategy.dtype != np.uint8 or strategy.shape != (slots,):
        raise BlueprintFileError(f"{path}: the strategy is not {slots} bytes")
    return BlueprintFile(header, strategy)


def record_lbr(path: str | os.PathLike[str], figures: dict[str, Any]) -> dict[str, Any]:
    """Merge measured LBR figures (e.g. ``{"fcpa 3-4": {"mbb_per_hand": ..., "ci95": ...}}``)
    into the file's header ``lbr`` entry, rewriting the file atomically; returns the entry."""
    loaded = read_blueprint(path)
    header = dict(loaded.header)
    lbr = dict(header.get("lbr") or {})
    lbr.update(json.loads(json.dumps(figures)))  # plain JSON values only
    header["lbr"] = lbr
    write_blueprint(path, header, loaded.strategy)
    return lbr
