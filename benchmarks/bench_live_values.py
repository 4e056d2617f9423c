"""How long the live panel's EVs take against the re-solving bot, per street and per size.

Hands are dealt with a fixed seed and played headless (``HunlSession``) against the re-solving
bot over the shipped 100 bb blueprint, the human checking or calling to the flop, turn or river.
At the first decision of the human on that street the live job runs as the app runs it
(``live_job()(report)``): the tree's values arrive first (the street's solve, made now when
the human opens the street, then the exact action values), then each bet size off the tree,
valued against the bot's node re-solve facing it (on the flop: the street solved again with
it). Listed per decision: seconds to the tree's values, how many sizes were off the tree, and
each one's seconds (``report`` marks when each starts); then medians and maxima per street.
Two rows per street compare the think times.

Run: ``.venv/bin/python benchmarks/bench_live_values.py [--hands 10] [--streets 2,3]
[--think 5] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from pokertui.paths import default_hunl_bot  # noqa: E402
from pokertui.session.hunl_session import HunlSession, set_think  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.games.hunl.rules import CALL, STREET_NAMES, Action, HunlConfig  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def decision(session: HunlSession, street: int) -> dict | None:
    """Check or call to ``street``; the live job's timings at the human's first decision."""
    while not session.hand_over and session.state.street < street:
        session.act(Action(CALL))
    if session.hand_over or not session.human_to_act or session.state.street != street:
        return None
    marks: list[float] = []
    started = time.perf_counter()
    numbers = session.live_job()(lambda _: marks.append(time.perf_counter()))
    ended = time.perf_counter()
    points = [started, *marks, ended]
    sizes = [b - a for a, b in zip(points[1:], points[2:], strict=False)]
    valued = sum(e.ev is not None for e in numbers.evs)
    return {"street": STREET_NAMES[street], "line": session.state.betting,
            "tree s": (marks[0] if marks else ended) - started, "off-tree sizes": len(sizes),
            "each s": " ".join(f"{s:.2f}" for s in sizes), "valued": f"{valued}/{len(numbers.evs)}",
            "total s": ended - started}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--streets", default="2,3", help="1 flop, 2 turn, 3 river")
    parser.add_argument("--think", type=float, default=5.0, help="the bot's turn seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    config = HunlConfig(100)
    agent = make_agent(default_hunl_bot(ROOT / "strategies", 100), config)
    set_think(agent, args.think)
    rows = []
    for street in (int(s) for s in args.streets.split(",")):
        for hand in range(args.hands):
            session = HunlSession(config, agent, bot_name="resolve", human_seat=hand % 2,
                                  seed=args.seed + hand)  # fmt: skip
            session.new_hand()
            found = decision(session, street)
            if found is not None:
                rows.append(found)
    print_rows(f"live values, think {args.think:g} s", rows)
    summary = []
    for street in sorted({r["street"] for r in rows}):
        mine = [r for r in rows if r["street"] == street]
        each = [float(x) for r in mine for x in r["each s"].split()]
        summary.append({"street": street, "decisions": len(mine),
                        "tree s median": statistics.median(r["tree s"] for r in mine),
                        "sizes off tree": len(each),
                        "size s median": statistics.median(each) if each else None,
                        "size s max": max(each) if each else None,
                        "total s median": statistics.median(r["total s"] for r in mine),
                        })  # fmt: skip
    print_rows("per street", summary)


if __name__ == "__main__":
    main()
