"""The spot bot's river re-solve after an off-tree turn bet (``river_resolve.py``): seconds per
re-solve and the exploitability it reaches, per shipped turn spot and tree.

The line: OOP bets 70% of the pot on the turn (between the trees' 66% and 100%: two translated
lines), IP calls, and the first river card both ranges leave. Rows: the file's own river sizes
(the bot's default), the river spots' denser sizes (``spots/srp_dry_river.toml``'s), and the
default through the safe gadget. Medians over repeats, each building the spot and solving it.

Run: ``python benchmarks/bench_river_resolve.py [--repeats 3] [--files 3bet_turn,...]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import median_seconds, print_rows  # noqa: E402

from solvers.agents.beliefs import after_bot, after_lbr, observations, start  # noqa: E402
from solvers.agents.river_resolve import RiverResolver  # noqa: E402
from solvers.exact.evaluation import exploitability  # noqa: E402
from solvers.games.holdem.spot import load_spot_params  # noqa: E402
from solvers.runs.shipped import SHIPPED_SPOTS  # noqa: E402
from solvers.strategy_file import load_strategy  # noqa: E402

FILES = ("3bet_turn", "srp_dry_turn", "srp_wet_turn", "srp_paired_turn")
SHIPPED = {spot.spot: spot.filename for spot in SHIPPED_SPOTS}
DENSE = load_spot_params(ROOT / "spots" / "srp_dry_river.toml").river


def history(resolver: RiverResolver) -> tuple:
    """OOP (seat 0) bets 70% of the pot, IP calls, the first river card is dealt."""
    game, strategy = resolver.game, resolver.strategy
    half = game.root.contributions[0]
    belief = start(game, game.range_weights[1].copy())
    belief = after_lbr(game, belief, 0, "b", half + round(0.7 * 2 * half))
    belief = after_bot(game, strategy, belief, ("p",), observations(resolver.sizer, belief)[("p",)])
    chance = belief.node
    return (*belief.history, ("C", chance.tokens[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--files", default=",".join(FILES))
    args = parser.parse_args()
    rows = []
    for name in args.files.split(","):
        loaded = load_strategy(ROOT / "strategies" / SHIPPED[name])
        for label, options in (("file sizes", {}), ("dense", {"sizes": DENSE}),
                               ("safe", {"safe": True})):  # fmt: skip
            def solve(options=options, loaded=loaded):
                resolver = RiverResolver(loaded.game, loaded.strategy, **options)
                return resolver.river(0, history(resolver))

            seconds, solved = median_seconds(solve, args.repeats)
            measured = exploitability(solved.game, solved.strategy).pot_percent
            rows.append({"file": name, "tree": label, "nodes": len(solved.game.nodes),
                         "hands": "/".join(map(str, solved.game.n_hands)),
                         "seconds": seconds, "exploitability % pot": measured})  # fmt: skip
    print_rows(f"river re-solve, {args.repeats} repeats (median)", rows)


if __name__ == "__main__":
    main()
