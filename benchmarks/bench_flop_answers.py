"""How each flop tree answers a flop bet: the responder's fold, call and raise frequencies over
its range, facing the first flop bet of the big blind, in the checked-down flop (``resolve:``,
and the answer the app's bot gives the live panel for a size off its tree) and in the flop that
sees the turn (the app's bot, turn cards sampled).

A bet of the tree's size (66% of the pot) and one off every tree (40%, added to each tree as
the bot adds a bet it faces) are each solved from the flop's start in both trees, on the
blueprint's ranges there; the rows give the responder's action frequencies at the bet over
its Bayes range there, with the CPU seconds and the solve's own exploitability (% of the pot). The
checked-down flop, whose turn and river are checked down, has no other way to get value from a
strong hand than raising now.

Run: ``.venv/bin/python benchmarks/bench_flop_answers.py [--pots srp,3bet] [--board "Ks 7h 2d"]
[--shares 0.66,0.4] [--draws 450]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import print_rows  # noqa: E402

from solvers.agents.registry import make_agent  # noqa: E402
from solvers.agents.resolving import FLOP_TREES  # noqa: E402
from solvers.agents.subgame import bayes_ranges, build_subgame  # noqa: E402
from solvers.algorithms.base import make_solver  # noqa: E402
from solvers.cards.deck import parse_cards  # noqa: E402
from solvers.exact.evaluation import bayes_range  # noqa: E402
from solvers.games.hunl.rules import RAISE, Action, HunlConfig, replay  # noqa: E402
from solvers.reports.strategy_report import aggregate_frequencies  # noqa: E402

POTS = {"srp": "r250c/", "3bet": "r250r750c/"}
TREES = (("checkdown", 0, 100), ("turn", 10, None))
"""Each tree, its turn cards drawn an iteration (0: all) and iterations (None: ``--draws``)."""


def answers(sub, strategy, state) -> dict[str, float]:
    """The responder's frequency of each action at ``state`` over its Bayes range there."""
    game = sub.game
    node = game.nodes[sub.node_of(state)]
    held = bayes_range(game, strategy, node.id, node.player)
    shares = aggregate_frequencies(held, strategy[node.id])
    names = {"f": "fold", "c": "call"}
    return {names.get(t, "raise all-in" if i == len(node.tokens) - 1 else f"raise {t}"): float(x)
            for i, (t, x) in enumerate(zip(node.tokens, shares, strict=True))}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strategies/hunl_100bb.npz")
    parser.add_argument("--pots", default="srp,3bet")
    parser.add_argument("--board", default="Ks 7h 2d")
    parser.add_argument("--shares", default="0.66,0.4", help="the bets, in shares of the pot")
    parser.add_argument("--draws", type=int, default=450,
                        help="iterations of the flop that sees the turn (10 turn cards each)")
    args = parser.parse_args()
    config = HunlConfig(100)
    blueprint = make_agent(args.bot, config)
    board = np.array(parse_cards(args.board))
    rows = []
    for pot_name in args.pots.split(","):
        start = replay(POTS[pot_name], config)
        ranges = bayes_ranges(start, board, (blueprint, blueprint))
        for share in (float(x) for x in args.shares.split(",")):
            seat = start.to_act
            facing = start.apply(Action(RAISE, start.committed[seat] + round(share * start.pot)))
            for name, sample, iterations in TREES:
                sub = build_subgame(facing, board, ranges, FLOP_TREES[name])
                solver = make_solver(sub.game, "dcfr", sample=sample)
                cpu = time.process_time()
                solver.run(iterations=iterations or args.draws)
                cpu = time.process_time() - cpu
                strategy = solver.average_strategy()
                own = 100 * solver.metrics().exploitability / float(sub.game.pot)
                row = {"pot": pot_name, "bet % pot": round(100 * share), "flop tree": name,
                       "iterations": solver.iterations, "CPU s": round(cpu, 1),
                       "own expl %": round(own, 2)}  # fmt: skip
                shares = answers(sub, strategy, facing)
                row.update({k: f"{100 * v:.1f}%" for k, v in shares.items()})
                rows.append(row)
                print_rows("", [row])
                sub.game.derived.clear()
    print_rows(f"Answers to the big blind's flop bet on {args.board} (the button's range)", rows)


if __name__ == "__main__":
    main()
