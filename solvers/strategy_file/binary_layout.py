"""The binary strategy body's layout (``.ptsb``): magic, JSON header, aligned sections.

A flop spot's strategy as JSON is a GB of text (354 MB gzipped); this layout stores what a
reader needs and nothing else (see ``docs/strategy_files.md``):

    bytes 0-7    magic  b"PTSB\\r\\n\\x1a\\x01"
    bytes 8-15   header length L (uint64, little endian)
    bytes 16-    the JSON header (UTF-8, L bytes), then zero padding to a multiple of 64
    sections     each at the offset the header names, 64-byte aligned, little endian

Per player ``p`` (slots and edges in the suit-isomorphic compiled plan's order,
``compiled_plan(game, isomorphic=True)``):

* ``nodes{p}`` int32 ``[slots]``: the node id of each decision (the tree builder's ids).
* ``live{p}``  uint8 ``[slots, ceil(hands / 8)]``: bit ``h`` (``np.packbits``, little bit
  order) set when hand ``h`` can be at that decision (own reach above 0); padding bits 0.
* ``start{p}`` uint64 ``[slots + 1]``: where each decision's values begin in ``probs{p}``.
* ``scale{p}`` float32 ``[edges]``: the largest probability of the edge over live hands.
* ``probs{p}`` uint8 or uint16 ``[values]``: per decision, per action but the first, per
  live hand, ``round(sqrt(prob / scale) * (2**bits - 1))`` (``binary_codec.py``).

This module only parses and checks the frame (header fields, section places and sizes); the
contents are checked and decoded by ``binary.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from typing import Any

import numpy as np

from solvers.file_reading import DIGEST_PREFIX
from solvers.strategy_file.model import Problem, StrategyFileError
from solvers.user_files import UserFileError, loads_user_json

MAGIC = b"PTSB\r\n\x1a\x01"
SUFFIX = ".ptsb"
LAYOUT_VERSION = 1
ALIGN = 64
MAX_HEADER_BYTES = 16 * 1024 * 1024
SECTION_DTYPES = {"nodes": "<i4", "live": "u1", "start": "<u8", "scale": "<f4"}
PROBS_DTYPES = {8: "u1", 16: "<u2"}
BINARY_KEYS = frozenset(
    {"format_version", "layout", "game", "form", "bits", "players", "sections", "solver",
     "measured", "lbr", "float_exploitability", "symmetric", "body_sha256"}
)  # fmt: skip


def is_binary(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a regular file starting with the binary magic."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def section_names() -> list[str]:
    return [f"{kind}{p}" for p in (0, 1) for kind in ("nodes", "live", "start", "scale", "probs")]


def expected_shapes(players: list[dict[str, int]], totals: tuple[int, int]) -> dict[str, tuple]:
    """Each section's shape from the per-player counts (``totals``: values in ``probs{p}``)."""
    shapes: dict[str, tuple] = {}
    for p, info in enumerate(players):
        shapes[f"nodes{p}"] = (info["slots"],)
        shapes[f"live{p}"] = (info["slots"], -(-info["hands"] // 8))
        shapes[f"start{p}"] = (info["slots"] + 1,)
        shapes[f"scale{p}"] = (info["edges"],)
        shapes[f"probs{p}"] = (totals[p],)
    return shapes


DIGEST_KEY = "body_sha256"
"""The header's SHA-256 of the body: every byte from the first section's offset to the end."""


def body_hash(sections: dict[str, np.ndarray]) -> str:
    """The SHA-256 of the body ``frame`` lays ``sections`` out in: each section's bytes, zero
    padded to ``ALIGN`` but the last (the sections' places after the first do not depend on
    the header's length)."""
    digest = hashlib.sha256()
    at = 0
    for array in sections.values():
        digest.update(b"\0" * (aligned(at) - at))
        at = aligned(at)
        digest.update(np.ascontiguousarray(array).data.cast("B"))
        at += array.nbytes
    return DIGEST_PREFIX + digest.hexdigest()


def file_body_hash(path: str | os.PathLike, start: int) -> str:
    """The SHA-256 of the file's bytes from ``start`` to its end, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        handle.seek(start)
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return DIGEST_PREFIX + digest.hexdigest()


def frame(sections: dict[str, np.ndarray], head: dict[str, Any]) -> tuple[bytes, list[int]]:
    """The header bytes (magic, length, JSON, padding) and each section's offset, in order."""
    offsets: list[int] = []
    described: dict[str, Any] = {}
    # the header names the offsets, which depend on its own length: two passes settle it
    length = 0
    for _ in range(3):
        at = aligned(16 + length)
        offsets = []
        described = {}
        for name, array in sections.items():
            offsets.append(at)
            described[name] = {
                "offset": at,
                "dtype": array.dtype.str,
                "shape": list(array.shape),
            }
            at = aligned(at + array.nbytes)
        text = json.dumps({**head, "sections": described}, indent=1).encode("utf-8")
        if aligned(16 + len(text)) == aligned(16 + length):
            break
        length = len(text)
    prefix = MAGIC + len(text).to_bytes(8, "little") + text
    return prefix + b"\0" * (aligned(len(prefix)) - len(prefix)), offsets


def read_frame(path: str | os.PathLike) -> tuple[dict[str, Any], int]:
    """The parsed JSON header and the file's size; ``StrategyFileError`` for a file that is not
    a whole binary strategy file (short, wrong magic, header past the end, bad JSON)."""
    source = str(path)

    def fail(message: str) -> StrategyFileError:
        return StrategyFileError(source, [Problem(message)])

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise fail("not a regular file")
        with open(path, "rb") as handle:
            start = handle.read(16)
            if len(start) < 16 or start[:8] != MAGIC:
                raise fail("not a pokertui binary strategy file (bad magic or too short)")
            length = int.from_bytes(start[8:], "little")
            if length > MAX_HEADER_BYTES or 16 + length > info.st_size:
                raise fail(f"header length {length} runs past the end: truncated or corrupt")
            raw = handle.read(length)
    except OSError as exc:
        raise fail(f"cannot read: {exc.strerror}") from None
    try:
        head = loads_user_json(raw.decode("utf-8"), "header", allow_non_finite=True)
    except UnicodeDecodeError:
        raise fail("the header is not UTF-8 text") from None
    except UserFileError as exc:
        raise fail(f"the header is not JSON: {exc.reason}") from None
    if not isinstance(head, dict):
        raise fail("the header is not a JSON object")
    return head, info.st_size


def check_sections(
    source: str, head: dict[str, Any], size: int, shapes: dict[str, tuple], bits: int
) -> dict[str, tuple[int, np.dtype, tuple]]:
    """Each section's (offset, dtype, shape), checked against ``shapes`` and the file's size."""
    sections = head.get("sections")
    problems: list[Problem] = []
    out: dict[str, tuple[int, np.dtype, tuple]] = {}
    if not isinstance(sections, dict) or set(sections) != set(section_names()):
        raise StrategyFileError(source, [Problem(f"sections must be {', '.join(section_names())}")])
    end = 16
    for name in section_names():
        entry = sections[name]
        kind = name[:-1]
        want = PROBS_DTYPES[bits] if kind == "probs" else SECTION_DTYPES[kind]
        if not isinstance(entry, dict) or set(entry) != {"offset", "dtype", "shape"}:
            problems.append(Problem(f"section {name}: needs offset, dtype and shape"))
            continue
        offset, dtype, shape = entry["offset"], entry["dtype"], entry["shape"]
        if dtype != np.dtype(want).str:
            problems.append(Problem(f"section {name}: dtype {dtype!r}, expected {want!r}"))
            continue
        if not isinstance(shape, list) or tuple(shape) != tuple(shapes[name]):
            expected = list(shapes[name])
            problems.append(Problem(f"section {name}: shape {shape}, expected {expected}"))
            continue
        if not isinstance(offset, int) or offset < end or offset % ALIGN:
            problems.append(Problem(f"section {name}: bad offset {offset!r}"))
            continue
        nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        if offset + nbytes > size:
            problems.append(Problem(f"section {name} runs past the end: the file is truncated"))
            continue
        end = offset + nbytes
        out[name] = (offset, np.dtype(dtype), tuple(shape))
    if not problems and size != end:
        problems.append(Problem(f"{size - end} bytes after the last section"))
    if problems:
        raise StrategyFileError(source, problems)
    return out
