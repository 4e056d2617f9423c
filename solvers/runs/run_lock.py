"""An exclusive lock beside a solve's output, so two runs never write the same files at once.

The lock is ``flock`` on ``.OUT.lock`` (released by the kernel even after ``kill -9``); a second
run with the same output stops at once with a message instead of racing the first one.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

from solvers.atomic import OutputPathError
from solvers.errors import InputError


class RunLock:
    """An exclusive lock beside the output: a second run with the same files stops at once."""

    def __init__(self, out: Path) -> None:
        target = Path(os.path.realpath(out))
        self.path = target.with_name(f".{target.name}.lock")
        self.handle: Any = None

    def __enter__(self) -> RunLock:
        try:
            self.handle = open(self.path, "a+")  # noqa: SIM115 - held for the whole run
        except OSError as exc:
            raise OutputPathError(f"cannot lock {self.path}: {exc.strerror}") from None
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.handle.close()
            raise InputError(
                f"another solve is writing {self.path.name[1:-5]} in {self.path.parent} now; "
                "wait for it or choose another --out"
            ) from None
        return self

    def __exit__(self, *_: Any) -> None:
        try:
            self.path.unlink(missing_ok=True)
        finally:
            self.handle.close()
