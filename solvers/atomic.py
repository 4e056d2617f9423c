"""Crash-safe file writes, shared by strategy files, checkpoints, saved sessions and settings.

A write goes to a temporary file beside the target, named uniquely per process
(``.NAME.PID.XXXXXXXX.tmp``), is fsynced and renamed over the target, so a crash never leaves
half a file and concurrent writers never share a temporary. Writing through a symbolic link
updates the link's target, never replaces the link. Targets that are folders, pipes or devices
are refused before anything is written (``check_output_path``), which lets a long job check its
outputs before it starts rather than lose its result at the end. ``clean_stale_temps`` removes
temporaries left behind by processes that were killed.
"""

from __future__ import annotations

import gzip
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from solvers.errors import InputError

_TEMP_SUFFIX = ".tmp"
_TEMP_EXTRA = 32
"""Characters a temporary name adds to the target's name (dot, pid, random part, suffix)."""


class OutputPathError(InputError, OSError):
    """An output path that cannot be written: a folder, a special file, a missing folder...

    Also an ``OSError``, so code that already handles failed writes handles these too."""


def write_error(path: str | os.PathLike, exc: OSError) -> InputError:
    """The message of a failed write to ``path``: an ``OutputPathError`` says it already; any
    other ``OSError`` by its reason."""
    if isinstance(exc, OutputPathError):
        return exc
    return InputError(f"cannot write {path}: {exc.strerror or exc}")


def resolve_output(path: str | os.PathLike) -> Path:
    """The file a write to ``path`` must replace: symbolic links followed to their target."""
    path = Path(path)
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def check_output_path(path: str | os.PathLike, what: str = "output", probe: bool = True) -> Path:
    """The resolved path if an atomic write there can succeed; else ``OutputPathError``.

    Checks the name's length (with room for the temporary's), that an existing target is a
    regular file and that the folder exists, and then that the folder takes a new file: one
    empty temporary is created there and removed (``probe``). Permission bits do not tell:
    root may write any folder by them, yet not into ``/proc``, ``/sys`` or a read-only mount,
    and a run that found out at its first checkpoint had done its first chunk for nothing.
    ``atomic_write`` passes ``probe=False``: its own temporary is the probe.
    """
    try:
        if "\0" in os.fspath(path):
            raise OutputPathError(f"{what} path contains a NUL character")
        target = resolve_output(path)
        name = target.name
        if not name or name in (".", ".."):
            raise OutputPathError(f"{what} {str(path)!r} names a folder, not a file")
        folder = target.parent if str(target.parent) else Path(".")
        if target.exists():
            info = target.stat()
            if stat.S_ISDIR(info.st_mode):
                raise OutputPathError(f"{what} {_show(path)} is a folder, not a file")
            if not stat.S_ISREG(info.st_mode):
                raise OutputPathError(
                    f"{what} {_show(path)} is not a regular file (a pipe or a device?); "
                    "write to a file instead"
                )
        if not folder.is_dir():
            raise OutputPathError(
                f"cannot write {what} {_show(path)}: folder {_show(folder)} does not exist"
            )
        limit = _name_max(folder)
        if len(os.fsencode(name)) + _TEMP_EXTRA > limit:
            raise OutputPathError(
                f"cannot write {what} {_show(path)}: the file name is too long "
                f"(at most {limit - _TEMP_EXTRA} bytes here)"
            )
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputPathError(f"cannot write {what} {_show(path)}: folder is not writable")
        if probe:
            try:
                handle, tmp = _temporary(target, folder)
            except OSError as exc:
                raise OutputPathError(
                    f"cannot write {what} {_show(path)}: folder {_show(folder)} does not take "
                    f"new files ({exc.strerror})"
                ) from None
            os.close(handle)
            os.unlink(tmp)
    except OutputPathError:
        raise
    except OSError as exc:
        raise OutputPathError(f"cannot write {what} {_show(path)}: {exc.strerror}") from None
    except ValueError as exc:  # an embedded NUL byte
        raise OutputPathError(f"cannot write {what} {_show(path)}: {exc}") from None
    return target


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> Path:
    """Call ``write(handle)`` on a fresh temporary file, fsync it and rename it over ``path``.

    Returns the path written (the link target when ``path`` is a symbolic link).
    """
    target = check_output_path(path, probe=False)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        handle, tmp = _temporary(target, directory)
    except OSError as exc:
        raise OutputPathError(f"cannot write {_show(path)}: {exc.strerror}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~umask
        os.chmod(tmp, mode)  # mkstemp makes 0600 files; keep what a plain write would give
        with os.fdopen(handle, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputPathError) and exc.strerror:
            # a full disk or a vanished folder mid-write: the target keeps its last version
            raise OutputPathError(f"cannot write {_show(path)}: {exc.strerror}") from exc
        raise
    return target


def _temporary(target: Path, directory: Path) -> tuple[int, str]:
    """A new temporary beside ``target`` (``.NAME.PID.XXXXXXXX.tmp``): its descriptor, path."""
    return tempfile.mkstemp(
        prefix=f".{target.name}.{os.getpid()}.", suffix=_TEMP_SUFFIX, dir=directory
    )


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically: never half a file.

    A path ending in ``.gz`` is written gzip-compressed (big hold'em strategy files)."""
    data = text.encode("utf-8")
    if str(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)

    def write(out: BinaryIO) -> None:
        out.write(data)

    return atomic_write(path, write)


def atomic_write_chunks(path: str | os.PathLike, chunks: Iterable[str]) -> Path:
    """``atomic_write_text`` of text given in pieces, streamed (gzip-compressed for ``.gz``)
    so that the whole text never sits in memory."""

    def write(out: BinaryIO) -> None:
        if str(path).endswith(".gz"):
            # level 1: a flop spot's file is over a GB of JSON; 6 would triple the writing
            with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=1, mtime=0) as zipped:
                for chunk in chunks:
                    zipped.write(chunk.encode("utf-8"))
        else:
            for chunk in chunks:
                out.write(chunk.encode("utf-8"))

    return atomic_write(path, write)


def clean_stale_temps(path: str | os.PathLike) -> list[Path]:
    """Remove temporaries of ``path`` left by processes that no longer run; the ones removed."""
    target = resolve_output(path)
    directory = target.parent if str(target.parent) else Path(".")
    pattern = re.compile(re.escape(f".{target.name}.") + r"(\d+)\.[^.]+" + re.escape(_TEMP_SUFFIX))
    removed: list[Path] = []
    try:
        candidates = list(directory.iterdir())
    except OSError:
        return removed
    for candidate in candidates:
        match = pattern.fullmatch(candidate.name)
        if match and not _alive(int(match.group(1))):
            try:
                candidate.unlink()
                removed.append(candidate)
            except OSError:
                pass
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError):
        return 255


def _show(path: str | os.PathLike) -> str:
    text = str(path)
    return repr(text if len(text) <= 120 else text[:117] + "...")
