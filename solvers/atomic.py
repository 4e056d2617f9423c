"""Crash-safe file writes, shared by strategy files, checkpoints and saved sessions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write to a temporary file beside ``path``, fsync, then rename over it: never half a file.

    A path ending in ``.gz`` is written gzip-compressed (big hold'em strategy files)."""
    if str(path).endswith(".gz"):
        import gzip  # noqa: PLC0415

        atomic_write_bytes(path, gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
        return
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """``atomic_write_text`` for bytes."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        umask = os.umask(0)
        os.umask(umask)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask
        os.chmod(tmp, mode)  # mkstemp makes 0600 files; keep what a plain write would give
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
