import os
from contextlib import asynccontextmanager
from pathlib import Path

if os.environ.get("PYTEST_XDIST_WORKER"):
    # each of the suite's worker processes has one core of its own: a parallel region on two
    # threads would wait for a thread the other worker has descheduled (docs/resolve.md)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ROOT / "strategies"


def plain_text(renderable, width: int) -> str:
    """A widget's content (or any rich renderable) as plain text, the way a person reads it."""
    import io

    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(getattr(renderable, "content", renderable))
    return console.export_text()


async def wait_until(pilot, condition, timeout: float = 120.0) -> None:
    """Let the app run until `condition()` holds: a loaded machine can take longer than one
    pause to dismiss a dialog or start a worker, so tests wait for the state, not a time."""
    import time

    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out waiting for the app"
        await pilot.pause(0.05)


@asynccontextmanager
async def hunl_dialog(tmp_path, seed: int = 3):
    """The app on its home screen, ``u`` pressed: ``(app, pilot, the full game's new-game
    dialog)``."""
    from pokertui.app import make_app
    from pokertui.screens.hunl_setup import HunlSetupDialog

    app = make_app(STRATEGIES, tmp_path, seed=seed)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, HunlSetupDialog)
        yield app, pilot, app.screen
