"""The full game at the table: how fast the bot answers, how long the live numbers take per
street, and headless match speed.

- **Bot answer**: wall time of each ``HunlSession.act`` (the human's action plus every bot
  action until the human is to act again, and the settlement), over ``--hands`` hands where the
  human always checks or calls; median, 99th percentile and maximum, per bot (after the
  table's ``warm_up``). The issue's target: under a second.
- **Live numbers**: ``HunlSession.live()`` per decision, grouped by street (preflop equity is
  sampled, flop to river exact over every runout), median and maximum.
- **Headless**: hands per second of ``play_hunl_match`` between the bot and always-call.

Run: ``.venv/bin/python benchmarks/bench_hunl_play.py [--hands N] [--bot FILE ...] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from pokertui.session.hunl_headless import play_hunl_match  # noqa: E402
from pokertui.session.hunl_session import HunlSession, warm_up  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.games.hunl.rules import STREET_NAMES, HunlConfig  # noqa: E402


def table_rows(name: str, config: HunlConfig, hands: int) -> tuple[dict, dict]:
    agent = make_agent(name, config)
    warm_up(agent, config)
    session = HunlSession(config, agent, bot_name=name, seed=1)
    answers: list[float] = []
    live: dict[int, list[float]] = {street: [] for street in range(4)}
    for _ in range(hands):
        started = time.perf_counter()
        session.new_hand()
        answers.append(time.perf_counter() - started)
        while session.human_to_act:
            started = time.perf_counter()
            session.live()
            live[session.state.street].append(time.perf_counter() - started)
            started = time.perf_counter()
            session.act("c")
            answers.append(time.perf_counter() - started)
    answers.sort()
    answer_row = {
        "bot": name,
        "actions": len(answers),
        "median_ms": 1e3 * statistics.median(answers),
        "p99_ms": 1e3 * answers[int(0.99 * (len(answers) - 1))],
        "max_ms": 1e3 * answers[-1],
    }
    live_row = {"bot": name}
    for street, times in live.items():
        if times:
            live_row[f"{STREET_NAMES[street]}_median_s"] = statistics.median(times)
            live_row[f"{STREET_NAMES[street]}_max_s"] = max(times)
    return answer_row, live_row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--match-hands", type=int, default=2_000)
    parser.add_argument("--bot", action="append", default=[], help="a bot file (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = HunlConfig(100)
    answers, lives, matches = [], [], []
    for name in ["call", "random", *args.bot]:
        answer_row, live_row = table_rows(name, config, args.hands)
        answers.append(answer_row)
        lives.append(live_row)
        bot = make_agent(name, config)
        started = time.perf_counter()
        play_hunl_match(config, bot, make_agent("call", config), args.match_hands, seed=1)
        seconds = time.perf_counter() - started
        matches.append(
            {"bot": name, "hands": args.match_hands, "hands_per_s": args.match_hands / seconds}
        )
    if args.json:
        print(json.dumps({"answers": answers, "live": lives, "headless": matches}))
        return 0
    print_rows("Bot answer (one HunlSession.act, the human checking or calling)", answers)
    print_rows("Live numbers per decision (seconds)", lives)
    print_rows("Headless matches against always-call", matches)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
