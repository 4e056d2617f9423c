"""Reading files and JSON that a user handed us, so nothing in them can hang or crash a reader.

Every command that reads a user's file goes through ``read_user_file``: only regular files are
read (a FIFO would block, ``/dev/zero`` never ends, a folder is not a file) and never more than a
size bound. ``loads_user_json`` parses JSON text but refuses, with a clear ``InputError``,
nesting deeper than ``MAX_JSON_DEPTH`` (which would hit ``RecursionError``), integers longer
than ``MAX_INT_DIGITS`` digits, and ``NaN``, ``Infinity`` or numbers such as ``1e999`` that
overflow to infinity. All checks are linear in the size of the input.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from solvers.errors import InputError

MAX_JSON_DEPTH = 64
MAX_INT_DIGITS = 40
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


class UserFileError(InputError):
    """A file that cannot be read as asked: missing, special, too big, not text or bad JSON.

    ``reason`` is the message without the file's name, for reports that name it already."""

    def __init__(self, message: str, line: int | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.reason = reason or message


def _fail(what: str, path, reason: str) -> UserFileError:
    return UserFileError(f"{what} {show_path(path)}: {reason}", reason=reason)


def unreadable_bot_file(path: str | os.PathLike, exc: OSError) -> UserFileError:
    """The error for a bot file that exists but fails to read (a disk error, ``/proc``): the
    registry's loaders and a checkpoint's digest both read bot files."""
    return UserFileError(f"cannot read the bot file {path}: {exc.strerror}", reason=exc.strerror)


def _kind_problem(mode: int) -> str | None:
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(mode):
        return "is not a regular file (a pipe or a device?)"
    return None


def check_regular_file(path: str | os.PathLike, what: str = "file") -> Path:
    """``path`` if it names an existing regular file (links followed), else ``UserFileError``."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        raise _fail(what, path, f"cannot read it: {_reason(exc)}") from None
    problem = _kind_problem(info.st_mode)
    if problem:
        raise _fail(what, path, problem)
    return Path(path)


def read_user_file(path: str | os.PathLike, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; ``UserFileError`` otherwise."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait for ever
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise _fail(what, path, f"cannot read it: {_reason(exc)}") from None
    try:
        info = os.fstat(fd)
        problem = _kind_problem(info.st_mode)
        if problem:
            raise _fail(what, path, problem)
        if info.st_size > max_bytes:
            raise _fail(what, path, _too_big(info.st_size, max_bytes))
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:  # it grew while we read
            raise _fail(what, path, _too_big(total, max_bytes))
        return b"".join(chunks)
    except OSError as exc:
        raise _fail(what, path, f"cannot read it: {_reason(exc)}") from None
    finally:
        os.close(fd)


def read_user_text(path: str | os.PathLike, max_bytes: int, what: str = "file") -> str:
    """``read_user_file`` decoded as UTF-8."""
    raw = read_user_file(path, max_bytes, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _fail(what, path, "is not UTF-8 text") from None


def json_depth(text: str | bytes) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (0 for a bare value), in linear time.

    Strings are blanked first so brackets inside them do not count; malformed text gives some
    number, and ``json.loads`` then reports what is wrong with it.
    """
    import numpy as np  # noqa: PLC0415 - only readers of real files need it

    raw = text.encode("utf-8", errors="replace") if isinstance(text, str) else text
    if b"[" not in raw and b"{" not in raw:
        return 0
    skeleton = _STRINGS.sub(b'""', raw)
    codes = np.frombuffer(skeleton, dtype=np.uint8)
    opens = (codes == ord("[")) | (codes == ord("{"))
    closes = (codes == ord("]")) | (codes == ord("}"))
    steps = opens.astype(np.int64) - closes.astype(np.int64)
    return int(np.cumsum(steps).max(initial=0))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NumberError(f"an integer with {len(text)} digits is too large")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NumberError(f"number {text[:30]} is too large")
    return value


def _parse_constant(text: str) -> float:
    raise _NumberError(f"{text} is not a number JSON allows")


class _NumberError(ValueError):
    pass


def loads_user_json(
    text: str, what: str = "file", max_depth: int = MAX_JSON_DEPTH, allow_non_finite: bool = False
) -> Any:
    """Parse JSON from a user; ``UserFileError`` (with ``line`` when known) if it is not safe.

    ``allow_non_finite`` lets ``NaN``, ``Infinity`` and overflowing numbers through as floats,
    for readers that report each such value where it stands.
    """
    depth = json_depth(text)
    if depth > max_depth:
        reason = f"JSON nested {depth} deep; at most {max_depth} is allowed"
        raise UserFileError(f"{what}: {reason}", reason=reason)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=float if allow_non_finite else _parse_float,
            parse_constant=float if allow_non_finite else _parse_constant,
        )
    except json.JSONDecodeError as exc:
        reason = f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        raise UserFileError(f"{what}: {reason}", line=exc.lineno, reason=reason) from None
    except _NumberError as exc:
        raise UserFileError(f"{what}: {exc}", reason=str(exc)) from None
    except (RecursionError, ValueError) as exc:  # a last resort: the checks above should hold
        reason = f"invalid JSON ({type(exc).__name__})"
        raise UserFileError(f"{what}: {reason}", reason=reason) from None


def load_user_json(path: str | os.PathLike, max_bytes: int, what: str = "file") -> Any:
    """Read a regular file of at most ``max_bytes`` and parse it with ``loads_user_json``."""
    return loads_user_json(read_user_text(path, max_bytes, what), f"{what} {show_path(path)}")


def _too_big(size: int, limit: int) -> str:
    return f"is {_size(size)}; the limit is {_size(limit)}"


def _size(count: int) -> str:
    return f"{count / 2**20:.1f} MB" if count >= 2**20 else f"{count:,} bytes"


def show_path(path: str | os.PathLike) -> str:
    """A path as messages quote it (shortened past 120 characters)."""
    text = os.fsdecode(path) if isinstance(path, bytes | os.PathLike) else str(path)
    return repr(text if len(text) <= 120 else text[:117] + "...")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
