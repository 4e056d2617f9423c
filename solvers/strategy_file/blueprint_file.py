"""The blueprint file: a JSON header and the quantised strategy of the abstract full game.

A ``.npz`` (zip, no pickles) holding ``header`` (UTF-8 JSON as bytes) and ``strategy``
(uint8, one per slot of the abstract tree: node, bucket, action, the layout of
``BettingTree.slot_offsets``). Each row's probabilities are stored as whole 255ths (largest
remainder rounding, so a row sums to exactly 255): at most 1/510 off per action, and a 4 M-slot
blueprint is 4 MB before compression. The header records the game, both abstractions (their
spec strings rebuild the tree and the buckets), iterations, seed, seconds and the figures
measured later (LBR) and the SHA-256 of the strategy's bytes (``body_sha256``). Reading checks
everything, the digest too: a corrupt, foreign or inconsistent file is an ``InputError`` naming
the problem.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solvers.atomic import atomic_write
from solvers.errors import InputError
from solvers.file_reading import body_digest, check_digest, read_npz
from solvers.user_files import UserFileError, loads_user_json

FORMAT = "pokertui-hunl-blueprint"
VERSION = 1
MAX_FILE_BYTES = 64 << 20
MAX_SLOTS = 100_000_000
MAX_HEADER_BYTES = 1 << 20
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


DIGEST_KEY = "body_sha256"
"""The header's SHA-256 of the strategy's bytes: damage that leaves the zip whole (a copy
gone wrong, a disk error under the deflate layer's CRC, an edited body) is found on load."""
REBUILD = ("rebuild it with `pokertui build-bots --part hunl` (strategies/README.md), or check "
           "it and add the digest with `pokertui add-digest {path}`")  # fmt: skip


def write_blueprint(path: str | os.PathLike[str], header: dict[str, Any],
                    strategy: np.ndarray) -> Path:  # fmt: skip
    strategy = np.ascontiguousarray(strategy, dtype=np.uint8)
    header = {"format": FORMAT, "version": VERSION, **header, "slots": int(strategy.size),
              DIGEST_KEY: body_digest(strategy)}  # fmt: skip
    text = json.dumps(header, sort_keys=True).encode()
    arrays = {"header": np.frombuffer(text, dtype=np.uint8), "strategy": strategy}
    atomic_write(path, lambda handle: np.savez_compressed(handle, **arrays))  # type: ignore[arg-type]
    return Path(path)


def read_blueprint(path: str | os.PathLike[str], *, require_digest: bool = True) -> BlueprintFile:
    """The checked file; ``InputError`` naming the problem. ``require_digest=False`` reads a
    file written before the digest (``add_digest``), checking everything else."""
    try:
        return _read(path, require_digest)
    except UserFileError as exc:  # damaged, missing, too big: one kind of error for callers
        raise BlueprintFileError(str(exc)) from None


def _read(path: str | os.PathLike[str], require_digest: bool) -> BlueprintFile:
    arrays = read_npz(path, "blueprint", MAX_FILE_BYTES, MAX_SLOTS + MAX_HEADER_BYTES)
    if set(arrays) != {"header", "strategy"}:
        raise BlueprintFileError(f"{path} is not a pokertui blueprint file")
    header_bytes, strategy = arrays["header"], arrays["strategy"]
    if header_bytes.dtype != np.uint8 or header_bytes.ndim != 1:
        raise BlueprintFileError(f"{path}: the header is not JSON")
    try:
        text = header_bytes.tobytes().decode()
        header = loads_user_json(text, f"blueprint {path}", allow_non_finite=True)
    except (UnicodeDecodeError, InputError):
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
    if require_digest or DIGEST_KEY in header:
        check_digest(path, "blueprint", header.get(DIGEST_KEY), body_digest(strategy), REBUILD)
    return BlueprintFile(header, strategy)


def recorded_digest(path: str | os.PathLike[str]) -> str | None:
    """The body digest a blueprint's header records, checked against its body; None for a
    file that is not a readable blueprint or records none (loading it says why)."""
    try:
        found = read_blueprint(path, require_digest=False).header.get(DIGEST_KEY)
    except InputError:
        return None
    return found if isinstance(found, str) else None


def add_digest(path: str | os.PathLike[str], check_rows: Callable[[BlueprintFile], None]) -> bool:
    """Write the body digest into the header of a blueprint written before it, after
    ``check_rows`` has checked the strategy against its abstraction (the digest vouches for
    the body from then on); False when the file has a digest already (checked on reading)."""
    loaded = read_blueprint(path, require_digest=False)
    if DIGEST_KEY in loaded.header:
        return False
    check_rows(loaded)
    write_blueprint(path, dict(loaded.header), loaded.strategy)
    return True


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
