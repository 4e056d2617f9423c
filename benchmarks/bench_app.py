"""TUI responsiveness: startup time to the first screen, and the worst event-loop stall while
the live panel's numbers are computed.

- **Startup**: a fresh ``python`` process imports the app, builds it with a temporary saves
  folder and runs it headless until the home screen has been composed and rendered; the time is
  measured from just before the process is spawned. Median of ``--launches`` (target <= 1.0 s).
- **Latency**: in one process, the app plays ``--decisions`` decisions of a bot with keys while a
  monitor task on the event loop records the longest gap between its 2 ms ticks (the worst
  frame: how long the UI could not react). It also reports, per decision, the key-to-panel
  time (the key press until ``SpotReady`` is handled) and the time ``current_spot`` takes alone,
  which runs in a thread worker and must not show up in the stall.
- **While solving**: the solver launcher runs a Leduc CFR+ solve (its own process, both cores
  contested) while ``--keys`` keys are typed into its options box; per key, the press until the
  pilot returns, and how late a 20 ms sleep on the event loop wakes (its lag). The suite checks
  only that the keys arrive while the run goes on (``tests/test_app_solve.py``); these times
  depend on the machine's load, so they are measured here.

Run: ``.venv/bin/python benchmarks/bench_app.py [--launches N] [--decisions N] [--bot FILE]
[--keys N] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

STARTUP_CHILD = """
import asyncio, sys, time, tempfile
if sys.argv[2] == "cli":
    import pokertui.cli  # what the console script imports before it opens the app
from pokertui.app import make_app
from pokertui.screens.home import HomeScreen
async def main():
    folders = {"saves_dir": tempfile.mkdtemp()}
    if sys.argv[2] == "app":
        folders["strategies_dir"] = sys.argv[3]
    app = make_app(**folders)
    async with app.run_test(size=(100, 30)) as pilot:
        while not isinstance(app.screen, HomeScreen):
            await pilot.pause()
        await pilot.pause()
        print(time.time() - float(sys.argv[1]))
asyncio.run(main())
"""
"""``app``: the TUI with its folders given (its own cost); ``cli``: as ``pokertui`` starts it,
with ``pokertui.cli`` and ``pokertui.paths`` imported first."""


def startup_seconds(launches: int, variant: str) -> list[float]:
    times = []
    for _ in range(launches):
        started = time.time()
        done = subprocess.run(
            [sys.executable, "-c", STARTUP_CHILD, repr(started), variant, str(ROOT / "strategies")],
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return times


async def latency(bot: Path, decisions: int) -> dict[str, float]:
    from pokertui.app import make_app  # noqa: PLC0415
    from pokertui.screens.play import PlayScreen, snapshot  # noqa: PLC0415
    from pokertui.session import current_spot  # noqa: PLC0415
    from pokertui.widgets.messages import SpotReady  # noqa: PLC0415

    ready_at: list[float] = []

    def hook(message) -> None:
        if isinstance(message, SpotReady):
            ready_at.append(time.perf_counter())

    stalls: list[float] = []
    running = True

    async def monitor() -> None:
        while running:
            before = time.perf_counter()
            await asyncio.sleep(0.002)
            stalls.append(time.perf_counter() - before - 0.002)

    key_to_panel, spot_alone = [], []
    with tempfile.TemporaryDirectory() as saves:
        app = make_app(ROOT / "strategies", saves, bot=str(bot), seed=1)
        async with app.run_test(size=(100, 30), message_hook=hook) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            watcher = asyncio.create_task(monitor())
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            while len(key_to_panel) < decisions:
                if screen.session.hand_over:
                    await pilot.press("n")
                else:
                    count = len(ready_at)
                    started = time.perf_counter()
                    await pilot.press("c")
                    if not screen.session.human_to_act:
                        continue
                    deadline = time.perf_counter() + 10
                    while len(ready_at) == count and time.perf_counter() < deadline:
                        await asyncio.sleep(0.001)
                    key_to_panel.append(ready_at[-1] - started)
                    t0 = time.perf_counter()
                    current_spot(snapshot(screen.session))
                    spot_alone.append(time.perf_counter() - t0)
                await pilot.pause()
            running = False
            await watcher
    return {
        "decisions": len(key_to_panel),
        "worst_stall_ms": 1000 * max(stalls),
        "stall_p99_ms": 1000 * statistics.quantiles(stalls, n=100)[98],
        "stalls_over_50ms": sum(gap > 0.05 for gap in stalls),
        "key_to_panel_median_ms": 1000 * statistics.median(key_to_panel),
        "key_to_panel_max_ms": 1000 * max(key_to_panel),
        "current_spot_median_ms": 1000 * statistics.median(spot_alone),
    }


async def solving_latency(keys: int) -> dict[str, float]:
    from textual.widgets import Input, Select  # noqa: PLC0415

    from pokertui.app import make_app  # noqa: PLC0415
    from pokertui.screens.solve import SolveScreen  # noqa: PLC0415

    latencies, lags = [], []
    with tempfile.TemporaryDirectory() as saves:
        app = make_app(ROOT / "strategies", saves, seed=1)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = SolveScreen(Path(saves) / "runs")
            await app.push_screen(screen)
            await pilot.pause()
            screen.query_one("#solve-algo", Select).value = "cfr+"
            screen.query_one("#solve-stop", Select).value = "seconds"
            await pilot.pause()
            screen.query_one("#solve-spec", Input).value = "leduc"
            screen.query_one("#solve-stop-value", Input).value = "120"
            await pilot.press("ctrl+s")
            record = screen.book.runs[0]
            deadline = time.perf_counter() + 60
            while len(record.history) < 3 and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            if record.state != "running":
                raise SystemExit(f"the solve did not start: {record.state} {record.error}")
            screen.query_one("#solve-options", Input).focus()
            await pilot.press("space", "backspace")  # first paint of the focused input
            for index in range(keys):
                started = time.perf_counter()
                await pilot.press("abcdefghij"[index % 10])
                latencies.append(time.perf_counter() - started)
                started = time.perf_counter()
                await asyncio.sleep(0.02)
                lags.append(time.perf_counter() - started - 0.02)
            screen.book.cancel(record.run_id)
            while record.handle is not None:
                await asyncio.sleep(0.05)
    return {
        "solving_keys": len(latencies),
        "solving_key_median_ms": 1000 * statistics.median(latencies),
        "solving_key_max_ms": 1000 * max(latencies),
        "solving_loop_lag_max_ms": 1000 * max(lags),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--bot", type=Path, default=ROOT / "strategies" / "leduc.json")
    parser.add_argument("--keys", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    app_only = startup_seconds(args.launches, "app")
    via_cli = startup_seconds(args.launches, "cli")
    report = {
        "startup_app_median_s": statistics.median(app_only),
        "startup_cli_median_s": statistics.median(via_cli),
        "startup_cli_max_s": max(via_cli),
        "startup_target_s": 1.0,
        "bot": args.bot.name,
        **asyncio.run(latency(args.bot, args.decisions)),
        **asyncio.run(solving_latency(args.keys)),
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print_rows("pokertui TUI", [report])


if __name__ == "__main__":
    main()
