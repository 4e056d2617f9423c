"""A seeded run's finished chunks kept in a file, so that a long evaluation (a match or LBR
against a bot that re-solves while it plays: an hour per 2,000 deals) survives a kill.

Chunk ``i`` of a run is fixed by the run's seed and chunk size (``lbr.spot_run``), so a chunk read
back is the chunk the run would compute again: the same command resumes where it stopped, and
more ``--hands`` extend a finished run without playing its deals twice. The file names the run
(command, game, bots, options, seed, chunk size, and each bot file's SHA-256, so that a copy or
a checkout of the same file resumes and an edited one does not); a file of another run is
refused, never mixed in; a blueprint or binary spot is named by the SHA-256 of its strategy
body that its header records, so that rewriting its header keeps the run. Files written before
(each bot file's size and modification time, or its whole file's SHA-256) still resume while
the file they name is untouched. It is rewritten
atomically after every chunk, so a kill leaves the last complete state, never half a file.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from solvers.atomic import atomic_write_text, check_output_path
from solvers.errors import InputError
from solvers.strategy_file.binary_layout import DIGEST_KEY, is_binary, read_frame
from solvers.strategy_file.blueprint_file import recorded_digest
from solvers.user_files import load_user_json, unreadable_bot_file

FORMAT = "pokertui-chunks"
VERSION = 1
MAX_BYTES = 256 << 20
"""About 7 million deals of two seats: far beyond any run this machine makes."""


def file_digests(names: list[str], whole: bool = False) -> dict[str, str]:
    """SHA-256 of each bot name's file (``resolve(...):FILE`` too): a bot file whose bytes
    changed between two runs makes their chunks different runs; a copy, a checkout or a touch
    of the same bytes does not. A blueprint or binary spot is named by the digest of its
    strategy body its header records (``body-sha256:``), so that a figure recorded in its
    header (``lbr --record``) or a digest added to an older file leaves the run the same;
    ``whole``: every file by all its bytes, as checkpoints named them before."""
    digests = {}
    for path in _bot_files(names):
        body = None if whole else _recorded_body_digest(path)
        if body is not None:
            digests[str(path)] = f"{BODY}{body}"
            continue
        digest = hashlib.sha256()
        try:
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
        except OSError as exc:
            raise unreadable_bot_file(path, exc) from exc
        digests[str(path)] = f"sha256:{digest.hexdigest()}"
    return digests


BODY = "body-"
"""Before a checkpoint's ``sha256:`` of a bot file: the digest of the file's strategy body."""


def _recorded_body_digest(path: Path) -> str | None:
    """The body digest a bot file's header records (loading the bot checks it), or None."""
    if is_binary(path):
        try:
            head, _ = read_frame(path)
        except InputError:
            return None
        found = head.get(DIGEST_KEY)
        return found if isinstance(found, str) else None
    return recorded_digest(path)


def file_stamps(names: list[str]) -> dict[str, list[int]]:
    """Size and modification time of each bot name's file: how checkpoints written before
    ``file_digests`` named them, still read while the file is untouched."""
    stamps = {}
    for path in _bot_files(names):
        info = path.stat()
        stamps[str(path)] = [int(info.st_size), int(info.st_mtime_ns)]
    return stamps


def _bot_files(names: list[str]) -> list[Path]:
    paths = (Path(str(name).rsplit(":", 1)[-1].strip()) for name in names)
    return [path for path in paths if path.is_file()]


def run_checkpoint(path: str | None, command: str, game: str, bots: dict[str, str], seed: int,
                   chunk: int, *, columns: int = 2,
                   **options: Any) -> ChunkCheckpoint | None:  # fmt: skip
    """The checkpoint of a full-game run (``match``, ``lbr``) at ``path``, None without one: the
    run named by its command, game, bots (and their files' digests), options, seed and chunk,
    whose chunks have ``columns`` values a deal."""
    if path is None:
        return None
    identity = {"command": command, "game": game, **bots, **options, "seed": int(seed),
                "chunk_deals": int(chunk)}  # fmt: skip
    files = list(bots.values())
    earlier = tuple({**identity, "files": named}
                    for named in (file_stamps(files), file_digests(files, whole=True)))  # fmt: skip
    return ChunkCheckpoint(path, {**identity, "files": file_digests(files)}, earlier=earlier,
                           columns=columns)  # fmt: skip


class ChunkCheckpoint:
    """The chunks of one run (``identity``: JSON values) saved in ``path``. ``earlier`` are the
    same run as older versions named it: their chunks are read, and the next save names the run
    by ``identity``."""

    def __init__(self, path: str | os.PathLike, identity: dict[str, Any],
                 earlier: tuple[dict[str, Any], ...] = (), columns: int = 2) -> None:  # fmt: skip
        self.path = Path(path)
        self.columns = columns
        self.identity = json.loads(json.dumps(identity))
        self.earlier = [json.loads(json.dumps(other)) for other in earlier]
        check_output_path(self.path, "checkpoint")
        self.chunks: dict[int, np.ndarray] = self._read() if self.path.exists() else {}

    def _read(self) -> dict[int, np.ndarray]:
        data = _document(self.path)
        if data.get("run") != self.identity and data.get("run") not in self.earlier:
            other = _difference(data.get("run"), self.identity)
            raise InputError(f"checkpoint {self.path} holds another run ({other}); run the same "
                             "command as before, or name a new file")  # fmt: skip
        return _chunks(self.path, data, self.columns)

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


def read_checkpoint(path: str | os.PathLike) -> tuple[dict[str, Any], dict[int, np.ndarray]]:
    """Any checkpoint's run and finished chunks, whatever run it holds (``pooled.py`` pools the
    seeds of one run): every chunk has rows of the same 2 or 4 values."""
    data = _document(Path(path))
    run = data.get("run")
    if not isinstance(run, dict) or not isinstance(run.get("seed"), int):
        raise InputError(f"checkpoint {path}: its run is not named")
    chunks = data.get("chunks")
    first = next(iter(chunks.values()), None) if isinstance(chunks, dict) else None
    columns = 2  # the first chunk's width; every other chunk must have it too
    if isinstance(first, list) and first and isinstance(first[0], list):
        columns = len(first[0])
    if columns not in (2, 4):
        raise InputError(f"checkpoint {path}: rows of {columns} values; a run keeps 2 or 4")
    return run, _chunks(Path(path), data, columns)


def _document(path: Path) -> dict[str, Any]:
    data = load_user_json(path, MAX_BYTES, "checkpoint")
    where = f"checkpoint {path}"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{where} is not a pokertui checkpoint; name a new file")
    if data.get("version") != VERSION:
        raise InputError(f"{where} is version {data.get('version')!r}; this pokertui "
                         f"writes version {VERSION}")  # fmt: skip
    return data


def _chunks(path: Path, data: dict[str, Any], columns: int) -> dict[int, np.ndarray]:
    chunks = data.get("chunks")
    if not isinstance(chunks, dict):
        raise InputError(f"checkpoint {path}: its chunks are missing")
    found = {}
    for key, values in chunks.items():
        if not (key.isdigit() and len(key) < 10):
            raise InputError(f"checkpoint {path}: {key!r} is not a chunk number")
        rows = _rows(values, columns)
        if rows is None:
            raise InputError(f"checkpoint {path}: chunk {key} is not a list of rows of "
                             f"{columns} chip values")  # fmt: skip
        found[int(key)] = rows
    return found


def _rows(values: Any, columns: int) -> np.ndarray | None:
    if not isinstance(values, list) or not values:
        return None
    if not all(isinstance(r, list) and len(r) == columns for r in values):
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for r in values for v in r):
        return None
    return np.array(values, dtype=np.float64)  # finite: load_user_json refuses NaN and 1e999


def _difference(saved: Any, wanted: dict[str, Any]) -> str:
    if not isinstance(saved, dict):
        return "no run named"
    keys = [k for k in sorted(set(saved) | set(wanted)) if saved.get(k) != wanted.get(k)]
    return "; ".join(f"{k} {saved.get(k)!r} there, {wanted.get(k)!r} now" for k in keys[:3])
