"""The full game's memory over a long session: resident set size after each hand of one
``HunlSession`` against the default re-solving bot, played headless as the play screen plays it.

At every human decision the live numbers are computed (``session.live()``, as the panel asks),
then a scripted human acts: it checks or calls, and on some flops, turns and rivers it opens
with a bet of 45% of the pot (off every re-solve tree: the bot answers it with a node re-solve
or the flop solved again, and the panel values sizes off the tree). Few iterations a solve
(``--iterations``, the bot's ``iterations=`` option, no clock) keep it quick; the trees, and
so what the session keeps, are the app's default bot's (``pokertui.paths.default_hunl_bot``:
the flop's solve sees the turn).

Prints the RSS after hands 1, 10, 25 and the last, and the growth per hand over the second
half (what a long session adds). ``--trace N`` diffs tracemalloc snapshots taken after hand N
and after the last, and prints the largest growths by source line.

Run: ``.venv/bin/python benchmarks/bench_session_memory.py [--hands 50] [--iterations 10]
[--json]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pokertui.paths import default_hunl_bot, with_resolve_options  # noqa: E402
from pokertui.session.hunl_session import HunlSession, warm_up  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.games.holdem.memory import resident_bytes  # noqa: E402
from solvers.games.hunl.rules import HunlConfig  # noqa: E402

OFF_TREE_SHARE = 0.45
"""The scripted human's opening bet, in pot shares: no re-solve tree holds it."""


def scripted_action(session: HunlSession) -> None:
    """Check or call; on a third of the streets after the flop's opens with a 45% pot bet."""
    state = session.state
    legal = state.legal()
    opens = legal.call_amount == 0 and state.street >= 1 and legal.min_raise_to is not None
    if opens and (session.hand.number + state.street) % 3 == 0:
        total = int(state.committed[state.to_act] + OFF_TREE_SHARE * state.pot)
        total = min(max(total, legal.min_raise_to), legal.max_raise_to)
        session.raise_to(total)
    else:
        session.act("c")


def play_hand(session: HunlSession) -> int:
    """One hand, the live numbers at each human decision; the decisions it took."""
    session.new_hand()
    decisions = 0
    while session.human_to_act:
        session.live()
        scripted_action(session)
        decisions += 1
    session.fill_review(session.hand)
    return decisions


def mb(value: int) -> float:
    return value / 2**20


def run(hands: int, iterations: int, seed: int, trace: int | None) -> dict:
    config = HunlConfig(stack_bb=100)
    bot = with_resolve_options(default_hunl_bot(ROOT / "strategies", 100),
                               f"iterations={iterations}")  # the app's bot, its trees
    agent = make_agent(bot, config)
    warm_up(agent, config)
    session = HunlSession(config, agent, bot_name=bot, seed=seed)
    gc.collect()
    rss = {0: resident_bytes()}
    started = time.perf_counter()
    first = None
    for number in range(1, hands + 1):
        if trace is not None and number == trace + 1:
            tracemalloc.start(12)
            gc.collect()
            first = tracemalloc.take_snapshot()
        play_hand(session)
        gc.collect()
        rss[number] = resident_bytes()
        print(f"hand {number:3d}: {mb(rss[number]):7.0f} MB", file=sys.stderr)
    seconds = time.perf_counter() - started
    half = hands // 2
    growth = (rss[hands] - rss[half]) / max(hands - half, 1)
    found = {
        "hands": hands,
        "iterations": iterations,
        "seconds": seconds,
        "rss_mb": {n: round(mb(rss[n])) for n in sorted({0, 1, 10, 25, hands}) if n in rss},
        "peak_mb": round(mb(max(rss.values()))),
        "growth_mb_per_hand": round(mb(growth), 2),
    }
    if first is not None:
        gc.collect()
        last = tracemalloc.take_snapshot()
        tracemalloc.stop()
        top = last.compare_to(first, "traceback")[:15]
        found["trace"] = [
            {"mb": round(mb(stat.size_diff), 2), "where": stat.traceback.format()[-6:]}
            for stat in top
        ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--iterations", type=int, default=10,
                        help="iterations of each of the bot's solves (no clock)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--trace", type=int, default=None,
                        help="diff tracemalloc snapshots after this hand and the last")  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = run(args.hands, args.iterations, args.seed, args.trace)
    if args.json:
        print(json.dumps(found, indent=2))
        return
    rows = ", ".join(f"after {n}: {v} MB" for n, v in found["rss_mb"].items())
    print(f"{found['hands']} hands in {found['seconds']:.0f} s "
          f"({found['iterations']} iterations a solve)")  # fmt: skip
    print(f"RSS {rows}; peak {found['peak_mb']} MB")
    print(f"growth over the second half: {found['growth_mb_per_hand']:+.2f} MB a hand")
    for item in found.get("trace", []):
        print(f"{item['mb']:+9.2f} MB")
        for line in item["where"]:
            print(f"    {line}")


if __name__ == "__main__":
    main()
