"""Background solver runs: the API the TUI uses to start, follow, cancel and resume solves.

A run is a separate ``pokertui solve ... --json`` process, so solving never competes with the
UI's event loop; its JSON lines are read by whoever holds the handle (a Textual thread worker).
What it runs is a ``RunRequest`` (``solvers/runs/request.py``), written to the child's argv by
the request itself, the same type ``pokertui solve`` reads its arguments into.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from solvers.algorithms.registry import ALGORITHM_NAMES  # the one list of algorithms
from solvers.runs.request import RunRequest

__all__ = ["ALGORITHM_NAMES", "RunRequest", "SolveRun", "command", "start_run"]


def command(request: RunRequest, resume: bool = False) -> list[str]:
    """The child process's command line: ``pokertui solve`` with the request, as JSON lines."""
    flags = ["--json", "--resume"] if resume else ["--json"]
    return [sys.executable, "-m", "pokertui", "solve", *flags, *request.to_argv()]


class SolveRun:
    """A running solver process. ``events()`` yields its progress dicts until it ends."""

    def __init__(self, request: RunRequest, resume: bool = False) -> None:
        self.request = request
        self.process = subprocess.Popen(
            command(request, resume),
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


def start_run(request: RunRequest, resume: bool = False) -> SolveRun:
    return SolveRun(request, resume)
