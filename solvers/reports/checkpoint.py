"""A seeded run's finished chunks kept in a file, so that a long evaluation (a match or LBR
against a bot that re-solves while it plays: an hour per 2,000 deals) survives a kill.

Chunk ``i`` of a run is fixed by the run's seed and chunk size (``lbr_run``), so a chunk read
back is the chunk the run would compute again: the same command resumes where it stopped, and
more ``--hands`` extend a finished run without playing its deals twice. The file names the run
(command, game, bots, options, seed, chunk size, and each bot file's size and modification
time); a file of another run is refused, never mixed in. It is rewritten atomically after every
chunk, so a kill leaves the last complete state, never half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from solvers.atomic import atomic_write_text, check_output_path
from solvers.errors import InputError
from solvers.user_files import load_user_json

FORMAT = "pokertui-chunks"
VERSION = 1
MAX_BYTES = 256 << 20
"""About 7 million deals of two seats: far beyond any run this machine makes."""


def file_stamps(names: list[str]) -> dict[str, list[int]]:
    """Size and modification time of each bot name's file (``resolve(...):FILE`` too), so that
    a bot file changed between two runs makes their chunks different runs."""
    stamps = {}
    for name in names:
        path = Path(str(name).rsplit(":", 1)[-1].strip())
        if path.is_file():
            info = path.stat()
            stamps[str(path)] = [int(info.st_size), int(info.st_mtime_ns)]
    return stamps


def run_checkpoint(path: str | None, command: str, game: str, bots: dict[str, str], seed: int,
                   chunk: int, **options: Any) -> ChunkCheckpoint | None:  # fmt: skip
    """The checkpoint of a full-game run (``match``, ``lbr``) at ``path``, None without one: the
    run named by its command, game, bots (and their files' stamps), options, seed and chunk."""
    if path is None:
        return None
    identity = {"command": command, "game": game, **bots, **options, "seed": int(seed),
                "chunk_deals": int(chunk), "files": file_stamps(list(bots.values()))}  # fmt: skip
    return ChunkCheckpoint(path, identity)


class ChunkCheckpoint:
    """The chunks of one run (``identity``: JSON values) saved in ``path``."""

    def __init__(self, path: str | os.PathLike, identity: dict[str, Any]) -> None:
        self.path = Path(path)
        self.identity = json.loads(json.dumps(identity))
        check_output_path(self.path, "checkpoint")
        self.chunks: dict[int, np.ndarray] = self._read() if self.path.exists() else {}

    def _read(self) -> dict[int, np.ndarray]:
        data = load_user_json(self.path, MAX_BYTES, "checkpoint")
        where = f"checkpoint {self.path}"
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError(f"{where} is not a pokertui checkpoint; name a new file")
        if data.get("version") != VERSION:
            raise InputError(f"{where} is version {data.get('version')!r}; this pokertui "
                             f"writes version {VERSION}")  # fmt: skip
        if data.get("run") != self.identity:
            other = _difference(data.get("run"), self.identity)
            raise InputError(f"{where} holds another run ({other}); run the same command as "
                             "before, or name a new file")  # fmt: skip
        chunks = data.get("chunks")
        if not isinstance(chunks, dict):
            raise InputError(f"{where}: its chunks are missing")
        found = {}
        for key, values in chunks.items():
            if not (key.isdigit() and len(key) < 10):
                raise InputError(f"{where}: {key!r} is not a chunk number")
            rows = _rows(values)
            if rows is None:
                raise InputError(f"{where}: chunk {key} is not a list of [seat 1, seat 2] "
                                 "chip values")  # fmt: skip
            found[int(key)] = rows
        return found

    def known(self, index: int, deals: int) -> np.ndarray | None:
        """Chunk ``index``'s values if saved with ``deals`` deals (a last chunk of a shorter
        run is played again whole)."""
        rows = self.chunks.get(index)
        return rows if rows is not None and len(rows) == deals else None

    def save(self, index: int, values: np.ndarray) -> None:
        self.chunks[index] = np.asarray(values, dtype=np.float64)
        document = {
            "format": FORMAT,
            "version": VERSION,
            "run": self.identity,
            "chunks": {str(i): self.chunks[i].tolist() for i in sorted(self.chunks)},
        }
        atomic_write_text(self.path, json.dumps(document, separators=(",", ":")) + "\n")


def _rows(values: Any) -> np.ndarray | None:
    if not isinstance(values, list) or not values:
        return None
    if not all(isinstance(r, list) and len(r) == 2 for r in values):
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for r in values for v in r):
        return None
    return np.array(values, dtype=np.float64)  # finite: load_user_json refuses NaN and 1e999


def _difference(saved: Any, wanted: dict[str, Any]) -> str:
    if not isinstance(saved, dict):
        return "no run named"
    keys = [k for k in sorted(set(saved) | set(wanted)) if saved.get(k) != wanted.get(k)]
    return "; ".join(f"{k} {saved.get(k)!r} there, {wanted.get(k)!r} now" for k in keys[:3])
