"""Background solver runs: the API the TUI uses to start, follow, cancel and resume solves.

A run is a separate ``pokertui solve ... --json`` process, so solving never competes with the
UI's event loop; its JSON lines are read by whoever holds the handle (a Textual thread worker).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.algorithms.registry import ALGORITHM_NAMES  # the one list of algorithms

__all__ = ["ALGORITHM_NAMES", "SolveRequest", "SolveRun", "start_run"]


@dataclass
class SolveRequest:
    game: str
    algo: str
    out: Path
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int | None = None
    seconds: float | None = None
    target: float | None = None
    seed: int | None = None
    every: float = 0.5
    lock: Path | None = None
    """A lock file: its nodes stay fixed (``pokertui solve --lock``)."""

    def argv(self, resume: bool = False) -> list[str]:
        args = [sys.executable, "-m", "pokertui", "solve", self.game, "--algo", self.algo]
        args += ["--out", str(self.out), "--json", "--every", str(self.every)]
        for key, value in self.options.items():
            args += ["--opt", f"{key}={value}"]
        for flag, value in (
            ("--iterations", self.iterations),
            ("--seconds", self.seconds),
            ("--target", self.target),
            ("--seed", self.seed),
        ):
            if value is not None:
                args += [flag, str(value)]
        if self.lock is not None:
            args += ["--lock", str(self.lock)]
        if resume:
            args.append("--resume")
        return args


class SolveRun:
    """A running solver process. ``events()`` yields its progress dicts until it ends."""

    def __init__(self, request: SolveRequest, resume: bool = False) -> None:
        self.request = request
        self.process = subprocess.Popen(
            request.argv(resume),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.last: dict[str, Any] | None = None

    def events(self) -> Iterator[dict[str, Any]]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            self.last = event
            yield event

    def cancel(self) -> None:
        """Ask the run to stop cleanly: it writes a checkpoint and exits."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def wait(self, timeout: float | None = None) -> dict[str, Any]:
        """Wait for the end; the final event, or an ``error`` event with the message."""
        for _ in self.events():
            pass
        code = self.process.wait(timeout)
        stderr = self.process.stderr.read() if self.process.stderr else ""
        if code not in (0, 130) or self.last is None:
            message = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit code {code}"
            return {"event": "error", "returncode": code, "message": message}
        return self.last

    @property
    def running(self) -> bool:
        return self.process.poll() is None


def start_run(request: SolveRequest, resume: bool = False) -> SolveRun:
    return SolveRun(request, resume)
