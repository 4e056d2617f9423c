"""How fast the full game's bots play headless: hands per second and seconds per decision by
street, the default re-solving bot beside the blueprint it re-solves over.

Each row plays ``--hands`` hands of ``play_hunl_match`` (the same deals for every row: one
seed) against the blueprint, after the bot's warm-up. The re-solving bot is played twice:
its walks' thread count chosen by timing (``solvers/exact/thread_choice.py``, the default) and
held on every core (as before that choice), so the two rows are a before and after under the
same load. ``--busy N`` starts N processes that spin for the whole run, as a second match, an
LBR run or the test suite's other worker would hold a core.

``--match`` adds the way the evaluation runs play: ``pokertui match``'s duplicate deals
(``play_duplicate``, chunks of 5 deals) of the default bot against the blueprint on one worker
process and on two, each worker's walks on its share of the cores; hands a second over the
whole run, the pool's start and each worker's first loading of the kernels included. Give it
200 hands or more: the start and the last chunk (one worker idle: about a tenth of a 200-hand
run) weigh much on a short run. Over 200, idle, two workers play 2.08 to 2.18 hands a second
with every solve capped at 100 iterations (the default), 1.79 to 1.81 uncapped.

Run: ``.venv/bin/python benchmarks/bench_bot_speed.py [--hands 30] [--busy 1] [--seed 11]
[--match]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from pokertui.session.hunl_headless import play_hunl_match  # noqa: E402
from pokertui.session.hunl_session import warm_up  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.exact import thread_choice  # noqa: E402
from solvers.games.hunl.rules import STREET_NAMES, HunlConfig  # noqa: E402
from solvers.reports.hunl_match import play_duplicate  # noqa: E402

BLUEPRINT = str(ROOT / "strategies" / "hunl_100bb.npz")


class Timed:
    """An agent whose ``act`` calls are timed by street."""

    def __init__(self, agent) -> None:
        self.agent = agent
        self.seconds: dict[int, list[float]] = defaultdict(list)

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def policy(self, state, board):
        return self.agent.policy(state, board)

    def act(self, state, board, combo, rng):
        started = time.perf_counter()
        action = self.agent.act(state, board, combo, rng)
        self.seconds[state.street].append(time.perf_counter() - started)
        return action


def _spin() -> None:
    while True:
        pass


def row(name: str, label: str, hands: int, seed: int) -> dict:
    config = HunlConfig(100)
    agent = make_agent(name, config)
    warm_up(agent, config)
    timed = Timed(agent)
    started = time.perf_counter()
    play_hunl_match(config, timed, make_agent(BLUEPRINT, config), hands, seed=seed)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    out = {"bot": label, "hands": hands, "hands/s": hands / seconds}
    for street, name_ in enumerate(STREET_NAMES[:4]):
        times = timed.seconds.get(street, [])
        out[f"{name_} med s"] = statistics.median(times) if times else ""
        out[f"{name_} max s"] = max(times) if times else ""
    return out


def match_row(workers: int, hands: int, seed: int) -> dict:
    """``hands`` hands (half as many duplicate deals) of the default bot against the blueprint
    through ``play_duplicate`` on ``workers`` processes."""
    deals = max(1, hands // 2)
    started = time.perf_counter()
    play_duplicate(HunlConfig(100), f"resolve:{BLUEPRINT}", BLUEPRINT, make_agent, deals,
                   seed=seed, workers=workers)  # fmt: skip
    seconds = time.perf_counter() - started
    out = {"bot": f"resolve: match, {workers} worker(s)", "hands": 2 * deals,
           "hands/s": 2 * deals / seconds}  # fmt: skip
    for name in STREET_NAMES[:4]:  # a decision's seconds are the workers' own
        out[f"{name} med s"] = out[f"{name} max s"] = ""
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--busy", type=int, default=0, help="processes spinning meanwhile")
    parser.add_argument("--match", action="store_true",
                        help="also play pokertui match's duplicate deals on 1 and 2 workers")
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.busy)]
    for p in spinners:
        p.start()
    try:
        rows = [row(BLUEPRINT, "blueprint", args.hands, args.seed)]
        rows.append(row(f"resolve:{BLUEPRINT}", "resolve: (threads chosen)", args.hands,
                        args.seed))  # fmt: skip
        chosen = thread_choice.ThreadChoice.pick
        thread_choice.ThreadChoice.pick = lambda self, key: self.options[0]  # type: ignore[method-assign]
        try:
            rows.append(row(f"resolve:{BLUEPRINT}", "resolve: (every core)", args.hands,
                            args.seed))  # fmt: skip
        finally:
            thread_choice.ThreadChoice.pick = chosen  # type: ignore[method-assign]
        if args.match:
            rows += [match_row(workers, args.hands, args.seed) for workers in (1, 2)]
    finally:
        for p in spinners:
            p.terminate()
    print_rows(f"Headless against the blueprint, 100 bb, seed {args.seed}, {args.busy} busy "
               "process(es)", rows)  # fmt: skip
    ratio = rows[1]["hands/s"] / rows[2]["hands/s"]
    print(f"\nthreads chosen / every core: {ratio:.2f}x hands per second")
    if args.match:
        ratio = rows[4]["hands/s"] / rows[3]["hands/s"]
        print(f"match, 2 workers / 1 worker: {ratio:.2f}x hands per second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
