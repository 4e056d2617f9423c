"""The one level walk where it used to be slow: fictitious play and headless play.

In one process, on the same machine and load:

- Leduc fictitious play: median milliseconds per iteration of ours (two exact best responses
  per iteration on the level walk, plus the realization-weight update) against OpenSpiel's
  ``XFPSolver`` (Python; its best responses walk the game tree), and ours against our own CFR+
  iteration, the ratio the review quoted (FP was 10x slower than CFR+ before the walk was one);
- headless play: hands per second of ``play_match`` on the shipped Leduc and push/fold bots
  against a random opponent (the EV-adjusted score tabulates every hand pair's value once).

Run: ``.venv/bin/python benchmarks/bench_walk.py [--repeats N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from _timing import median_seconds, print_rows

from pokertui.session.headless import play_match
from solvers.algorithms import make_solver
from solvers.games import load_game
from solvers.strategy_file import load_strategy

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


def ms_per_iteration(solver, iterations: int, repeats: int) -> float:
    solver.run(iterations=2)  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        solver.run(iterations=iterations)
        times.append((time.perf_counter() - started) / iterations)
    return 1000.0 * statistics.median(times)


def openspiel_xfp_ms(iterations: int, repeats: int) -> float:
    import pyspiel
    from open_spiel.python.algorithms import fictitious_play

    solver = fictitious_play.XFPSolver(pyspiel.load_game("leduc_poker"))
    solver.iteration()  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(iterations):
            solver.iteration()
        times.append((time.perf_counter() - started) / iterations)
    return 1000.0 * statistics.median(times)


def fictitious_play_rows(repeats: int) -> list[dict]:
    game = load_game("leduc")
    ours = ms_per_iteration(make_solver(game, "fp"), 100, repeats)
    cfr_plus = ms_per_iteration(make_solver(game, "cfr+"), 100, repeats)
    peer = openspiel_xfp_ms(2, max(1, repeats // 2))
    return [
        {"solver": "pokertui fp", "ms_per_iteration": ours, "ratio": 1.0},
        {"solver": "pokertui cfr+", "ms_per_iteration": cfr_plus, "ratio": ours / cfr_plus},
        {"solver": "OpenSpiel XFPSolver (Python)", "ms_per_iteration": peer, "ratio": peer / ours},
    ]


def headless_rows(repeats: int, hands: int) -> list[dict]:
    rows = []
    for name in ("leduc.json", "push_fold_10bb.json", "kuhn.json"):
        bot = load_strategy(STRATEGIES / name)
        seconds, _ = median_seconds(lambda bot=bot: play_match(bot, "random", hands, 1), repeats)
        rows.append(
            {"bot": name, "hands": hands, "seconds": seconds, "hands_per_s": hands / seconds}
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {
        "fictitious_play": fictitious_play_rows(args.repeats),
        "headless_play": headless_rows(max(1, args.repeats // 2), args.hands),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print_rows("Leduc fictitious play (ratio: ours vs each row)", report["fictitious_play"])
    print_rows("Headless play against a random opponent", report["headless_play"])


if __name__ == "__main__":
    main()
