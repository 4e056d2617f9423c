"""The body of a run's thread worker: check the game, start the process, relay its events.

It runs in a thread the App owns (so leaving the launcher does not cancel it) and only posts
``SolveUpdate`` messages; ``deliver`` falls back to applying the event on the event loop when no
launcher screen is listening. Everything slow (loading the game, validating the finished file)
happens here, never on the event loop.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokertui.widgets.solve.messages import SolveUpdate
from pokertui.widgets.solve.runbook import RunBook

if TYPE_CHECKING:
    from solvers.runs.request import RunRequest

Deliver = Callable[[SolveUpdate], None]


def make_deliver(app: Any, book: RunBook, apply: Callable[[SolveUpdate], None]) -> Deliver:
    """Post to the launcher showing the book, else run ``apply`` on the event loop."""

    def deliver(update: SolveUpdate) -> None:
        listener = book.listener
        if listener is not None and listener.post_message(update):
            return
        if not app.is_running:  # quitting: a call into a stopped loop would never return
            return
        try:
            app.call_from_thread(apply, update)
        except RuntimeError:  # the app stopped meanwhile: nobody to tell
            pass

    return deliver


def watch_cancellation(run: Any) -> None:
    """Stop the run cleanly if the worker is cancelled or dropped (the app quitting).

    The worker itself blocks reading the process's output, so a daemon thread polls
    ``is_cancelled`` for it; the interrupted run leaves a checkpoint to resume from.
    """
    from textual.worker import NoActiveWorker, WorkerState, get_current_worker  # noqa: PLC0415

    try:
        worker = get_current_worker()
    except NoActiveWorker:
        return

    def watch() -> None:
        while run.running:
            # an app that shuts down may cancel the worker's task without ``cancel()``
            if worker.is_cancelled or worker.state != WorkerState.RUNNING:
                run.cancel()
                try:
                    run.process.wait(5)
                except subprocess.TimeoutExpired:
                    run.kill()
                return
            time.sleep(0.1)

    threading.Thread(target=watch, name="solve-watch", daemon=True).start()


def follow_run(
    deliver: Deliver,
    run_id: int,
    request: RunRequest,
    resume: bool,
    history: list[tuple[int, float]],
) -> None:
    """Start (or resume) one run and relay its events until the process ends.

    Any unexpected exception becomes an ``error`` event, so a run never stays "running" after
    its worker died.
    """
    try:
        _follow(deliver, run_id, request, resume, history)
    except Exception as exc:  # noqa: BLE001 - shown inline instead of lost in the worker
        message = f"{type(exc).__name__}: {exc}"
        deliver(SolveUpdate(run_id, {"event": "error", "message": message}, tuple(history)))


def _follow(
    deliver: Deliver,
    run_id: int,
    request: RunRequest,
    resume: bool,
    history: list[tuple[int, float]],
) -> None:
    from pokertui.runs import start_run  # noqa: PLC0415
    from pokertui.widgets.solve.choices import is_full_game  # noqa: PLC0415
    from solvers.errors import InputError  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415
    from solvers.games.hunl.spec import parse_hunl_spec  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415
    from solvers.strategy_file.blueprint_file import read_blueprint  # noqa: PLC0415

    def send(event: dict[str, Any], handle: Any = None) -> None:
        deliver(SolveUpdate(run_id, event, tuple(history), handle))

    full_game = is_full_game(request.game)  # a blueprint, not a tree game's strategy file
    try:
        parse_hunl_spec(request.game) if full_game else load_game(request.game)
    except InputError as exc:
        send({"event": "error", "message": str(exc)})
        return
    try:
        run = start_run(request, resume=resume)
    except OSError as exc:
        send({"event": "error", "message": f"cannot start the solver: {exc}"})
        return
    send({"event": "launched"}, handle=run)
    watch_cancellation(run)
    for event in run.events():
        if event.get("exploitability") is not None and "iterations" in event:
            point = (int(event["iterations"]), float(event["exploitability"]))
            if not history or history[-1] != point:
                history.append(point)
        send(event)
    final = run.wait()
    if final.get("event") == "error":
        message = str(final.get("message", "")).removeprefix("pokertui: error: ")
        send({**final, "message": message})
        return
    if final.get("event") == "done":
        out = Path(final.get("out", request.out))
        try:
            read_blueprint(out) if full_game else load_strategy(out)
        except InputError as exc:
            send({"event": "error", "message": f"the finished file is invalid: {exc}"})
            return
        send({"event": "validated", "path": str(out), "kind": "blueprint" if full_game else "tree"})
        return
    send({"event": "ended"})
