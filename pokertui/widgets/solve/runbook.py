"""The launcher's model: every solver run started in this app, and what its process reported.

A ``RunBook`` lives on the App (``book_for(app)``), not on the screen, so runs and their history
survive leaving and re-opening the launcher. It is plain Python: only handlers on the event loop
call ``apply``; the thread worker that follows a run sends it events through messages. A record
keeps the form as typed; ``RunRecord.request`` turns it into the ``RunRequest`` the run's
process is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.algorithms.registry import parse_cli_options
from solvers.runs.request import RunRequest, Target

REPORT_SECONDS = 0.25
"""How often a launched run reports progress (the plot's points)."""

ACTIVE_STATES = ("checking", "starting", "running", "cancelling")
"""States in which a run's process may still be alive (or about to be)."""


@dataclass
class RunRecord:
    run_id: int
    game: str
    algo: str
    out: Path
    options: str
    """The options as typed (``key=value`` pairs); the worker parses them."""
    stop: tuple[str, float | Target]
    """The stopping rule: ``("iterations" | "seconds", number)`` or ``("target", Target)``."""
    state: str = "checking"
    """checking, starting, running, cancelling, done, interrupted or failed."""
    iterations: int = 0
    seconds: float = 0.0
    exploitability: float | None = None
    game_value: float | None = None
    history: list[tuple[int, float]] = field(default_factory=list)
    """(iterations, exploitability) of every progress event, for the convergence plot."""
    error: str = ""
    valid: bool = False
    """The finished file was read back with ``load_strategy`` and passed."""
    handle: Any = None
    """The ``pokertui.runs.SolveRun`` while the process lives."""
    lock: Path | None = None
    """The lock file of a node-locked run."""

    def request(self) -> RunRequest:
        """The run as its process is asked to do it; ``InputError`` for a bad option or number."""
        rule, limit = self.stop
        stop: dict[str, Any] = {rule: limit}  # the rule names the field: iterations, seconds...
        return RunRequest(
            game=self.game,
            algo=self.algo,
            out=self.out,
            options=parse_cli_options(self.algo, split_options(self.options)),
            lock=self.lock,
            report_seconds=REPORT_SECONDS,
            **stop,
        )

    @property
    def active(self) -> bool:
        return self.state in ACTIVE_STATES

    @property
    def resumable(self) -> bool:
        checkpoint = self.out.with_name(self.out.name + ".ckpt.npz")
        return not self.active and self.algo != "lp" and checkpoint.exists()


def split_options(text: str) -> list[str]:
    """``"alpha=1.5, seed=3 beta=0"`` to ``["alpha=1.5", "seed=3", "beta=0"]``. A word whose
    comma-separated pieces are not all ``key=value``, or that has brackets, is one option with
    commas in its value (``opponent=0.5,0.5``, ``cards=hs2(flop=50,turn=50,river=50)``)."""
    parts: list[str] = []
    for word in text.split():
        pieces = [piece for piece in word.split(",") if piece]
        whole = any(bracket in word for bracket in "([") or not all("=" in p for p in pieces)
        parts += [word.rstrip(",")] if whole else pieces
    return parts


class RunBook:
    """All runs, oldest first, with the numbers shown in the launcher's table."""

    def __init__(self) -> None:
        self.runs: list[RunRecord] = []
        self.finished_files: list[Path] = []
        """Validated strategy files, newest last."""
        self.listener: Any = None
        """The launcher screen on show, which receives the workers' messages."""

    def add(self, **fields: Any) -> RunRecord:
        record = RunRecord(run_id=len(self.runs) + 1, **fields)
        self.runs.append(record)
        return record

    def get(self, run_id: int) -> RunRecord:
        return self.runs[run_id - 1]

    def apply(self, run_id: int, event: dict[str, Any], history=None, handle=None) -> RunRecord:
        """Update a run from one event of its worker (on the event loop only)."""
        record = self.get(run_id)
        kind = event.get("event")
        if handle is not None:
            record.handle = handle
        if history is not None:
            record.history = list(history)
        if "iterations" in event:
            record.iterations = int(event["iterations"])
        if "seconds" in event:
            record.seconds = float(event["seconds"])
        if event.get("exploitability") is not None:
            record.exploitability = float(event["exploitability"])
        if event.get("game_value") is not None:
            record.game_value = float(event["game_value"])
        if kind == "launched":
            record.state, record.error = "starting", ""
        elif kind in ("started", "resumed", "progress") and record.state != "cancelling":
            record.state = "running"
        elif kind == "done":
            record.state = "done"
        elif kind == "interrupted":
            record.state = "interrupted"
        elif kind == "validated":
            record.valid = True
            record.handle = None
            path = Path(event["path"])
            if path not in self.finished_files:
                self.finished_files.append(path)
        elif kind == "ended":
            record.handle = None
        elif kind == "error":
            record.state, record.error, record.handle = "failed", str(event["message"]), None
        return record

    def cancel(self, run_id: int) -> bool:
        """Ask a live run to stop cleanly (it writes a checkpoint); False if nothing to stop."""
        record = self.get(run_id)
        if record.handle is None or not record.active:
            return False
        record.state = "cancelling"
        record.handle.cancel()
        return True

    def kill_all(self) -> None:
        """Kill every live process (the App calls this when it quits)."""
        for record in self.runs:
            if record.handle is not None:
                record.handle.kill()


def book_for(app: Any) -> RunBook:
    """The App's run book, created on first use."""
    book = getattr(app, "solve_runs", None)
    if book is None:
        book = RunBook()
        app.solve_runs = book
    return book
