"""The table while the re-solving bot thinks: is the app still responsive, and how long it waits.

The app runs headless (``App.run_test``) against the re-solving bot over the shipped 100 bb
blueprint; the human checks or calls every hand. Measured side by side in one run:

- **Event-loop lag**: a 20 ms interval timer records how late each tick fires, grouped by what
  runs at that moment: nothing (idle), the bot's think (``hunl-bot`` worker) or the live numbers
  (``hunl-live`` worker, which solves the bot's street when the human opens it). Median, 99th
  percentile and maximum in milliseconds: how long a key press may wait for the loop.
- **Key to screen**: ``--press-after`` seconds into every turn or river think, ``?`` is pressed
  and the time until the help screen is the active screen is recorded (then Escape); the same
  at every decision of the human, when nothing runs.
- **Waits**: wall time of each bot think on the turn and river (the think time's budgets).

Run: ``.venv/bin/python benchmarks/bench_hunl_thinking.py [--hands N] [--think S] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402
from textual import events  # noqa: E402

from pokertui.app import make_app  # noqa: E402
from pokertui.screens.help import HelpScreen  # noqa: E402
from pokertui.screens.hunl_play import HunlPlayScreen  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
INTERVAL = 0.02


async def help_latency(app) -> float:
    """Seconds from a ``?`` key event (posted to the app as a terminal driver posts it; the
    pilot's ``press`` waits for the process to go idle, a second at least while a solve runs)
    to the help screen being the active screen; then Escape the same way."""
    at = time.perf_counter()
    app.post_message(events.Key("question_mark", "?"))
    await until(lambda: isinstance(app.screen, HelpScreen), "the help screen")
    took = time.perf_counter() - at
    app.post_message(events.Key("escape", None))
    await until(lambda: not isinstance(app.screen, HelpScreen), "the table again")
    return took


async def until(condition, what: str, seconds: float = 120.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError(f"waited {seconds:g} s for {what}")
        await asyncio.sleep(0.002)


def busy_group(app) -> str:
    running = {w.group for w in app.workers if not w.is_finished}
    if "hunl-bot" in running:
        return "bot thinking"
    if "hunl-live" in running:
        return "live numbers"
    return "idle"


async def play(hands: int, think: float, seed: int, press_after: float) -> dict:
    bot = f"resolve:{ROOT / 'strategies' / 'hunl_100bb.npz'}"
    saves = Path(tempfile.mkdtemp(prefix="bench-thinking-"))
    app = make_app(ROOT / "strategies", saves, bot=bot, game="hunl(stack_bb=100)", seed=seed,
                   think=think)  # fmt: skip
    lags: dict[str, list[float]] = {"idle": [], "bot thinking": [], "live numbers": []}
    keys: dict[str, list[float]] = {"bot thinking": [], "idle": []}
    waits: dict[int, list[float]] = {2: [], 3: []}
    async with app.run_test(size=(150, 50)):
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            lags[busy_group(app)].append(now - last[0] - INTERVAL)
            last[0] = now

        app.set_interval(INTERVAL, tick)
        while not isinstance(app.screen, HunlPlayScreen):
            await asyncio.sleep(0.05)
        screen = app.screen
        session = screen.session
        await app.workers.wait_for_complete()
        played = 0
        while played < hands:
            if session.hand_over:
                played += 1
                app.post_message(events.Key("n", "n"))
                await until(lambda: not session.hand_over, f"hand {played + 1}")
            if session.bot_to_act:
                street, started = session.state.street, time.perf_counter()
                pressed = False
                while session.bot_to_act and not session.hand_over:
                    spent = time.perf_counter() - started
                    if street >= 2 and not pressed and spent > press_after and think >= 1:
                        pressed = True
                        keys["bot thinking"].append(await help_latency(app))
                    await asyncio.sleep(0.01)
                if street >= 2:
                    waits[street].append(time.perf_counter() - started)
                continue
            if session.human_to_act:
                while busy_group(app) == "live numbers":
                    await asyncio.sleep(0.01)
                keys["idle"].append(await help_latency(app))
                key = session.decision_key()
                app.post_message(events.Key("c", "c"))  # not pilot.press: it waits for idle
                await until(lambda key=key: session.hand_over or session.decision_key() != key,
                            f"the call at {session.state.betting!r}")  # fmt: skip
            await asyncio.sleep(0.01)
    return {"lags": lags, "keys": keys, "waits": waits}


def summary(name: str, values: list[float], scale: float = 1e3) -> dict:
    if not values:
        return {"what": name, "n": 0}
    ordered = sorted(values)
    return {
        "what": name,
        "n": len(values),
        "median": scale * statistics.median(ordered),
        "p99": scale * ordered[int(0.99 * (len(ordered) - 1))],
        "max": scale * ordered[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--press-after", type=float, default=1.0,
                        help="seconds into a think when '?' is pressed")  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = asyncio.run(play(args.hands, args.think, args.seed, args.press_after))
    lag_rows = [summary(f"event-loop lag, {k} (ms)", v) for k, v in found["lags"].items()]
    key_rows = [summary(f"'?' to help screen, {k} (ms)", v) for k, v in found["keys"].items()]
    wait_rows = [summary(f"bot think, {name} (s)", found["waits"][street], 1.0)
                 for street, name in ((2, "turn"), (3, "river"))]  # fmt: skip
    if args.json:
        print(json.dumps({"lag": lag_rows, "keys": key_rows, "waits": wait_rows}))
        return 0
    print(f"think {args.think:g} s on a turn, {args.hands} hands, seed {args.seed}")
    print_rows("Responsiveness", lag_rows + key_rows)
    print_rows("Waits", wait_rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
