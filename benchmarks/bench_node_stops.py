"""When a node re-solve stops: its iterations and seconds against what the off-tree action
still wins, with the stop once the gaining hands' total stops falling (``NODE_PLATEAU`` in
``solvers/agents/resolving.py``) and without it (only the largest single hand's gain within the
target ends the solve early).

On each turn board, at 100 bb, with the blueprint's earlier play, the re-solving bot (no clock,
``resolve(iterations=CAP):``) faces turn actions off its tree (the turn's 66% bet, the pot and
all-in raises): the big blind leads 33%, 50%, 130% or 200% of the pot; checks and the button
bets 40%, 90% or 140%; or bets 66% and the button raises to 2.2 or 2.6 times the bet; after the
flop checked through or a 66% flop bet called. Each is the bot's node re-solve
(``ResolvingAgent._solve_node``). Its checks (``Solution.checks``) give the iterations run and,
for the strategy kept, ``total``: what the opponent's hands that gain by the action over their
alternatives win, over its whole range before it (what a bettor of exactly those hands wins),
and ``worst``: the largest single hand's gain; both in % of the pot. The street solves are the
same in every row (no clock), so the rows differ only in when the node solves stop.

Run: ``.venv/bin/python benchmarks/bench_node_stops.py [--caps 100,400] [--boards 6]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.agents import resolving  # noqa: E402
from solvers.agents.registry import make_agent  # noqa: E402
from solvers.cards.deck import parse_cards  # noqa: E402
from solvers.games.hunl.rules import HunlConfig, replay  # noqa: E402

BOARDS = ("Ks 7h 2d 9c", "Qh 8d 5c 2s", "Jh Td 4h 3c", "As 9h 9d 6c", "7s 6s 5s Kd",
          "Ts Th 4s 2d")  # fmt: skip
FLOPS = {"cc": (500, 250), "r580c": (1160, 580)}
"""Flop lines after the button's 2.5 bb open called: checked through, or a 66% bet called
(the pot and each seat's chips in at the turn)."""


def turn_lines() -> list[str]:
    """The off-tree turn actions above, as betting lines."""
    lines = []
    for flop, (pot, put) in FLOPS.items():
        lines += [f"r250c/{flop}/r{put + int(f * pot)}" for f in (0.33, 0.5, 1.3, 2.0)]
        lines += [f"r250c/{flop}/cr{put + int(f * pot)}" for f in (0.4, 0.9, 1.4)]
        bet = int(0.66 * pot)
        lines += [f"r250c/{flop}/r{put + bet}r{put + int(m * bet)}" for m in (2.2, 2.6)]
    return lines


def node_solves(cap: int, stops: bool, boards: tuple[str, ...]) -> list[dict]:
    """Every line's node re-solve on every board: iterations, seconds, total and worst."""
    saved = resolving.NODE_PLATEAU
    if not stops:  # only the largest hand's gain ends a solve early, as before this stop
        resolving.NODE_PLATEAU = -math.inf
    config = HunlConfig(100)
    rows = []
    try:
        for text in boards:
            board = np.array(parse_cards(text))
            bot = make_agent(f"resolve(iterations={cap}):strategies/hunl_100bb.npz", config)
            for line in turn_lines():
                state = replay(line, config)
                bot.policy(state, board)
                solution = bot.solution(state, board)
                if solution.subgame.start is None or not solution.checks:
                    continue  # the tree held the action: no node re-solve
                iterations, worst, total = solution.checks[-1]
                rows.append({"board": text, "line": line, "iterations": iterations,
                             "seconds": solution.seconds, "total": total, "worst": worst,
                             "fell back": solution.fell_back})  # fmt: skip
    finally:
        resolving.NODE_PLATEAU = saved
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--caps", default="100,400", help="iteration caps of the bot's solves")
    parser.add_argument("--boards", type=int, default=len(BOARDS))
    parser.add_argument("--lines", action="store_true", help="print every node re-solve")
    args = parser.parse_args()
    boards = BOARDS[: args.boards]
    summary = []
    for cap in (int(c) for c in args.caps.split(",")):
        for stops in (True, False):
            rows = node_solves(cap, stops, boards)
            if args.lines:
                print_rows(f"cap {cap}, stops {'on' if stops else 'off'}", rows)
            target = resolving.DEFAULT_TARGET_PCT
            summary.append({
                "cap": cap, "plateau stop": "on" if stops else "off", "solves": len(rows),
                "mean iterations": statistics.mean(r["iterations"] for r in rows),
                "mean s": statistics.mean(r["seconds"] for r in rows),
                "mean total %pot": statistics.mean(r["total"] for r in rows),
                "largest total": max(r["total"] for r in rows),
                "mean worst %pot": statistics.mean(r["worst"] for r in rows),
                "worst within target": sum(r["worst"] <= target for r in rows),
                "fell back": sum(r["fell back"] for r in rows),
            })  # fmt: skip
    print_rows("Node re-solves on the turn: when they stop", summary)


if __name__ == "__main__":
    main()
