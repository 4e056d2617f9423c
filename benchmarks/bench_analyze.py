"""Seconds per analysed decision by street for ``pokertui analyze``, and a session's wall time.

A session of ``--hands`` hands is played headless between two copies of the shipped 100 bb
blueprint (fast: no re-solves), exported to PHH as the app exports it, and analysed against
the analyzer's default bot (``pokertui.paths.ANALYSIS_RESOLVE``: the re-solving bot over that
blueprint, the quick flop) on ``--workers`` local processes,
every option valued (``--chosen-only`` values off the re-solve's tree only the size chosen).
Prints the median and maximum seconds per decision by street and the session's wall time,
scaled to 200 hands (the goal: under 10 minutes on 2 cores).

Run: ``.venv/bin/python benchmarks/bench_analyze.py [--hands 20] [--workers 2] [--seed 1]
[--bot 'resolve:strategies/hunl_100bb.npz'] [--think 5] [--chosen-only]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from pokertui.paths import (  # noqa: E402
    ANALYSIS_RESOLVE,
    default_hunl_bot,
    think_options,
    with_resolve_options,
)
from pokertui.session.hunl_headless import play_hunl_match  # noqa: E402
from pokertui.session.phh import session_phhs  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.analysis.importer import read_hands  # noqa: E402
from solvers.analysis.runner import Task, run_analysis  # noqa: E402
from solvers.games.hunl.rules import HunlConfig  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BLUEPRINT = ROOT / "strategies" / "hunl_100bb.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default=default_hunl_bot(ROOT / "strategies", 100,
                                                          ANALYSIS_RESOLVE))  # fmt: skip
    parser.add_argument("--chosen-only", action="store_true")
    parser.add_argument("--think", type=float, help="the bot's turn budget (flop 3x, river /10)")
    args = parser.parse_args()
    config = HunlConfig(100.0)
    blueprint = make_agent(str(BLUEPRINT), config)
    _, session = play_hunl_match(config, blueprint, make_agent(str(BLUEPRINT), config),
                                 args.hands, args.seed)  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.phhs"
        path.write_text(session_phhs(config, session.hands, human="student", bot="bot"))
        hands = read_hands([str(path)]).hands
    bot = args.bot
    if args.think is not None:
        bot = with_resolve_options(bot, think_options(args.think))
    tasks = [Task(h, h.seat_of("student"), bot) for h in hands]
    started = time.perf_counter()
    done, failed = run_analysis(tasks, not args.chosen_only, workers=args.workers)
    wall = time.perf_counter() - started
    decisions = [d for ds in done.values() for d in ds]
    rows = []
    for street in ("preflop", "flop", "turn", "river"):
        seconds = [d["seconds"] for d in decisions if d["street"] == street]
        if seconds:
            rows.append({"street": street, "decisions": len(seconds),
                         "median s": f"{statistics.median(seconds):.2f}",
                         "max s": f"{max(seconds):.2f}"})  # fmt: skip
    print_rows("seconds per analysed decision", rows)
    per_200 = wall / max(len(hands), 1) * 200
    print(
        f"{len(hands)} hands, {len(decisions)} decisions, {len(failed)} failed: "
        f"{wall:.1f} s on {args.workers} workers; 200 hands: about {per_200 / 60:.1f} min"
    )
    for key, error in failed.items():
        print(f"failed {key}: {error}")


if __name__ == "__main__":
    main()
