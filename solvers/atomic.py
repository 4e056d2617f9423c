"""Crash-safe file writes, shared by strategy files, checkpoints and saved sessions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write to a temporary file beside ``path``, fsync, then rename over it: never half a file."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        umask = os.umask(0)
        os.umask(umask)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask
        os.chmod(tmp, mode)  # mkstemp makes 0600 files; keep what a plain write would give
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
