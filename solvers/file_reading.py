"""Reading the files pokertui loads: whole, bounded, and damage reported as the file's.

A loader reads its bytes inside ``damaged_file(path, what)``: whatever a damaged file makes
the decoders raise (a broken zip or gzip stream, deflate data with flipped bits, a truncated
array, bytes that are not UTF-8, a malformed ``.npy`` header) becomes one ``DamagedFileError``
naming the file, so that a user sees which file to replace and never an internal error.
``read_npz`` reads every array of an ``.npz`` at once (no lazy member left to fail later),
bounded before and after inflating; ``gunzip`` inflates a whole gzip stream, bounded, and
refuses one cut short or followed by other bytes. ``body_digest`` is the SHA-256 that bot and
spot files carry of their strategy body, so that damage the decoders cannot see is found too.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import struct
import tokenize
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from solvers.errors import InputError
from solvers.user_files import UserFileError, check_regular_file, show_path

DAMAGE = (
    zlib.error,
    gzip.BadGzipFile,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    EOFError,
    UnicodeDecodeError,
    struct.error,
    tokenize.TokenError,
    SyntaxError,
    OSError,
    ValueError,
    KeyError,
    OverflowError,
)
"""What decoders raise on damaged bytes (``InputError``, a ``ValueError``, passes through)."""

DIGEST_PREFIX = "sha256:"


class DamagedFileError(UserFileError):
    """A file whose bytes are not what its kind needs: truncated, flipped, or another format.

    ``detail`` is what was found wrong, for readers that word the message themselves."""

    detail = ""


def damaged(path: str | os.PathLike, what: str, reason: str,
            foreign: bool = True) -> DamagedFileError:  # fmt: skip
    """The error for ``what`` at ``path`` that is damaged (or ``foreign``: of another kind)
    for ``reason``."""
    detail = reason
    reason = f"is damaged{f' or not a {what} file' if foreign else ''} ({detail})"
    error = DamagedFileError(f"{what} {show_path(path)} {reason}", reason=reason)
    error.detail = detail
    return error


@contextmanager
def damaged_file(path: str | os.PathLike, what: str) -> Iterator[None]:
    """Turn what decoding a damaged ``what`` file raises into ``DamagedFileError``."""
    try:
        yield
    except InputError:
        raise
    except DAMAGE as exc:
        raise damaged(path, what, _why(exc)) from None


def _why(exc: BaseException) -> str:
    if isinstance(exc, ValueError) and "pickle" in str(exc):
        return "it holds pickled objects, which are refused"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    kind = type(exc)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    text = str(exc).splitlines()[0] if str(exc) else ""
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"{name}: {text}" if text else name


def read_npz(
    path: str | os.PathLike, what: str, max_bytes: int, max_inflated: int
) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` at ``path``, read now: a regular file of at most
    ``max_bytes`` whose members inflate to at most ``max_inflated`` bytes, with no pickles;
    ``UserFileError`` (``DamagedFileError`` for damage) otherwise."""
    check_regular_file(path, what)
    size = os.path.getsize(path)
    if size > max_bytes:
        reason = f"is {size >> 20} MB; a {what} file is at most {max_bytes >> 20} MB"
        raise UserFileError(f"{what} {show_path(path)} {reason}", reason=reason)
    with damaged_file(path, what):
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise damaged(path, what, "a single array, not an .npz archive")
        with data:
            archive = data.zip
            assert archive is not None  # an open NpzFile holds its zip
            inflated = sum(int(info.file_size) for info in archive.infolist())
            if inflated > max_inflated:
                raise damaged(path, what, f"it inflates to {inflated >> 20} MB")
            for info in archive.infolist():
                _check_member(archive, info, path, what)
            arrays = {key: data[key] for key in data.files}
    for key, array in arrays.items():
        if not isinstance(array, np.ndarray):
            raise damaged(path, what, f"member {key!r} is not an array")
    return arrays


ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
"""How numpy's ``savez`` and ``savez_compressed`` store members."""
ZIP_REFUSED_FLAGS = 0x1 | 0x20 | 0x40
"""Encrypted, compressed patched data, strong encryption: flags numpy never sets, for which
zipfile raises ``RuntimeError`` or ``NotImplementedError`` (a flipped bit of the directory)."""

HEADER_READERS = {
    (1, 0): np.lib.format.read_array_header_1_0,
    (2, 0): np.lib.format.read_array_header_2_0,
}


def _check_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path, what: str) -> None:
    """An ``.npy`` member's header names an array no larger than the member: numpy allocates
    the array its header names before it reads a byte, so a damaged shape must not get there."""
    if not info.filename.endswith(".npy"):
        raise damaged(path, what, f"member {info.filename!r} is not an array")
    if info.flag_bits & ZIP_REFUSED_FLAGS:  # zipfile would want a password or refuse it
        raise damaged(path, what, f"member {info.filename!r} is marked encrypted or patched")
    if info.compress_type not in ZIP_METHODS:  # zipfile would raise NotImplementedError
        raise damaged(path, what, f"member {info.filename!r} has compression method "
                      f"{info.compress_type}")  # fmt: skip
    with archive.open(info) as handle:
        version = np.lib.format.read_magic(handle)
        reader = HEADER_READERS.get(version)
        if reader is None:
            raise damaged(path, what, f".npy format {version} of member {info.filename!r}")
        shape, _, dtype = reader(handle)
    count = 1
    for length in shape:
        count *= int(length)
    if count * dtype.itemsize > info.file_size:
        raise damaged(path, what, f"member {info.filename!r} names more data than it holds")


def gunzip(raw: bytes, limit: int, path: str | os.PathLike, what: str) -> bytes | None:
    """The whole gzip stream ``raw`` inflated, or None when it inflates past ``limit`` bytes
    (a zip bomb); ``DamagedFileError`` when the stream is broken, cut short or followed by
    other bytes (a gzip reader would otherwise take the start of a truncated file)."""
    inflater = zlib.decompressobj(wbits=31)
    with damaged_file(path, what):
        data = inflater.decompress(raw, limit + 1)
        if len(data) > limit:
            return None
        if inflater.unconsumed_tail:  # ``limit`` reached exactly with input left
            return None
    if not inflater.eof:
        raise damaged(path, what, "the gzip stream is cut short")
    if inflater.unused_data:
        raise damaged(path, what, "bytes after the end of the gzip stream")
    return data


def body_digest(*parts: bytes | memoryview | np.ndarray) -> str:
    """``sha256:`` and the hex SHA-256 of ``parts`` one after the other."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(np.ascontiguousarray(part).data.cast("B") if isinstance(part, np.ndarray)
                      else part)  # fmt: skip
    return DIGEST_PREFIX + digest.hexdigest()


def check_digest(path: str | os.PathLike, what: str, recorded: object, actual: str,
                 rebuild: str) -> None:  # fmt: skip
    """Refuse a file whose header records no body digest (saying how to get one: ``rebuild``,
    where ``{path}`` stands for the file) or one that its body does not match (damaged)."""
    if recorded is None:
        reason = (f"its header records no SHA-256 of its body, so damage to it cannot be "
                  f"found; {rebuild.replace('{path}', os.fsdecode(path))}")  # fmt: skip
        raise UserFileError(f"{what} {show_path(path)}: {reason}", reason=reason)
    if not isinstance(recorded, str) or not recorded.startswith(DIGEST_PREFIX):
        raise damaged(path, what, f"its body digest {str(recorded)[:80]!r} is not a SHA-256")
    if recorded != actual:
        raise damaged(path, what, "its body does not match the SHA-256 in its header", False)
