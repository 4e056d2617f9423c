"""The spot bot's turn re-solve after an off-tree turn bet (``turn_resolve.py``): seconds per
re-solve, the subgame's size, its exploitability and the safety gap, per shipped turn spot.

The line: OOP bets 70% of the pot on the turn (between the SRP trees' 66% and 100%), so IP (the
bot) faces a bet its file lacks. Rows: the safe re-solve (the default, through the resolve
gadget) and the unsafe one (the opponent's range read from the translated lines), at several
DCFR iteration counts. ``exploitability`` is the subgame's (both players' best responses, % of
the pot, the opponent's whole pre-bet range entering); ``gap`` is the most any opponent hand
wins in the subgame beyond its best response against the file from the node before the bet
(the gadget's alternative): at most about 0 for a safe re-solve. Medians over repeats, each
building the subgame and solving it (the alternatives' one best-response pass per seat is
made once, before timing).

Run: ``python benchmarks/bench_turn_resolve.py [--repeats 3] [--files 3bet_turn,...]``.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import median_seconds, print_rows  # noqa: E402

from solvers.agents.beliefs import Belief, start  # noqa: E402
from solvers.agents.turn_resolve import TurnResolver, TurnSolve  # noqa: E402
from solvers.exact.evaluation import best_response, exploitability  # noqa: E402
from solvers.runs.shipped import SHIPPED_SPOTS  # noqa: E402
from solvers.strategy_file import load_strategy  # noqa: E402

FILES = ("3bet_turn", "srp_dry_turn", "srp_wet_turn", "srp_paired_turn")
SHIPPED = {spot.spot: spot.filename for spot in SHIPPED_SPOTS}


def resolve_once(reference: TurnResolver, belief: Belief, to: float, iterations: int,
                 safe: bool) -> TurnSolve:  # fmt: skip
    """One re-solve from scratch (the reference's best-response pass shared)."""
    resolver = TurnResolver(reference.game, reference.strategy, iterations, safe=safe)
    resolver.profile = reference.profile  # the best-response pass made once, before timing
    return resolver.solve(0, belief, to)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--files", default=",".join(FILES))
    parser.add_argument("--iterations", default="100,200,400")
    args = parser.parse_args()
    rows = []
    for name in args.files.split(","):
        loaded = load_strategy(ROOT / "strategies" / SHIPPED[name])
        game, strategy = loaded.game, loaded.strategy
        belief = start(game, game.range_weights[1].copy())
        half = game.root.contributions[0]
        to = half + round(0.7 * 2 * half)
        reference = TurnResolver(game, strategy)
        reference.alternatives(0, belief, game)  # the best-response pass, once
        for safe in (True, False):
            for iterations in map(int, args.iterations.split(",")):
                solve = partial(resolve_once, reference, belief, to, iterations, safe)
                seconds, solved = median_seconds(solve, args.repeats)
                sub = solved.game
                values = reference.alternatives(0, belief, sub)
                response = np.nan_to_num(best_response(sub, solved.strategy, 0).per_hand)
                live = sub.hand_weights(0) > 0
                gap = float(np.max((response - values)[live])) / sub.pot * 100.0
                measured = exploitability(sub, solved.strategy).pot_percent
                rows.append({"file": name, "re-solve": "safe" if safe else "unsafe",
                             "iterations": iterations, "nodes": len(sub.nodes),
                             "hands": "/".join(map(str, sub.n_hands)), "seconds": seconds,
                             "exploitability % pot": measured, "gap % pot": gap})  # fmt: skip
    print_rows(f"turn re-solve facing a 70% bet, {args.repeats} repeats (median)", rows)


if __name__ == "__main__":
    main()
