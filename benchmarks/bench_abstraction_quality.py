"""How much does each card abstraction cost? hs2 against pa at equal bucket counts, measured as
Johanson et al. (2013) do: the exploitability, in the real game, of the abstract game's
equilibrium.

The game is a fixed turn with the river dealt (``FixedTurnDeals``): 20 bb stacks, both players
in for 400 chips (pot 800), every combo the board allows in both ranges, turn and river bets of
75% of the pot or all-in, one raise. A fixed flop is too big to evaluate exactly here (its
1,081 runouts times the tree); the fixed turn is exact: ``blueprint_turn_exact`` enumerates the
44 rivers of every pair of hands and best-responds with the combos and the river in view. Each
abstraction's buckets come from the full game's tables (``combo_buckets`` on this board), so a
bucket mixes hands as it would in a blueprint. Rows:

* ``river N``: turn and river buckets from the abstraction at the same count N (pa's river
  buckets are hs2's);
* ``river 200``: the abstraction's N turn buckets under a fine river (200 buckets, the same for
  both kinds), so that most of the difference left is the turn buckets', where hs2 and pa
  differ;
* ``river ochsN``, ``ochs200`` (``--rivers``): the same turn buckets over opponent-cluster hand
  strength river buckets (``ochs_buckets``) instead of hs2's percentiles.

(A lossless river, ``FixedTurnDeals(lossless_river=True)``, has 44 x 1,128 river buckets a node,
too many for MCCFR to settle in a few million iterations: 224 chips at 2 M.)

Each abstract game is trained by ``BlueprintMCCFR`` (no pruning, linear discount to the end)
from each seed; the exploitability is reported per seed and as the mean over seeds, at all and
(the mean) at half of the iterations, so that the training's residual and noise (two threads
update lock-free, so a seed's run is not bit for bit repeatable) can be told from the
abstraction's loss. Figures are chips per deal and % of the pot.

Run: ``.venv/bin/python benchmarks/bench_abstraction_quality.py [--counts 10,50]
[--rivers n,200] [--kinds hs2,pa] [--iterations 4000000] [--board "Jh Td 4h 3c"]
[--seeds 0,1,2]`` (``--rivers``: river bucket counts, ``n`` the row's count, ``ochs``
before one for OCHS buckets: ``n,200,ochsn,ochs200``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.abstraction.betting import parse_betting  # noqa: E402
from solvers.abstraction.betting_tree import build_tree, root_state  # noqa: E402
from solvers.abstraction.buckets import CardAbstraction  # noqa: E402
from solvers.algorithms.blueprint_deals import FixedTurnDeals  # noqa: E402
from solvers.algorithms.blueprint_mccfr import BlueprintMCCFR, MccfrOptions  # noqa: E402
from solvers.algorithms.blueprint_turn_exact import exact_turn_figures  # noqa: E402
from solvers.cards.deck import N_COMBOS, parse_cards  # noqa: E402
from solvers.games.hunl.rules import HunlConfig  # noqa: E402

STACK_BB = 20
COMMITTED = 400
BETTING = "pre=a; flop=a; turn=75%,a|a; river=75%,a|a"
FINE_RIVER = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="10,50", help="bucket counts, comma separated")
    parser.add_argument("--iterations", type=int, default=4_000_000)
    parser.add_argument("--board", default="Jh Td 4h 3c", help="the four turn cards")
    parser.add_argument("--seeds", default="0,1,2", help="training seeds, comma separated")
    parser.add_argument(
        "--rivers",
        default=f"n,{FINE_RIVER}",
        help="river buckets per row: counts, n (the row's), ochs before one",
    )
    parser.add_argument("--kinds", default="hs2,pa", help="turn and flop kinds: hs2, pa")
    args = parser.parse_args()
    board = parse_cards(args.board)
    tree = build_tree(parse_betting(BETTING), root_state(HunlConfig(STACK_BB), 2, COMMITTED))
    pot = 2.0 * COMMITTED
    ranges = (np.ones(N_COMBOS), np.ones(N_COMBOS))
    half = args.iterations // 2
    options = MccfrOptions(batch=4096, seed=0, prune_after=10**12,
                           linear_until=args.iterations,
                           discount_every=max(1, args.iterations // 40))  # fmt: skip
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = []
    for n in (int(c) for c in args.counts.split(",")):
        rivers = [r.strip()[:-1] + str(n) if r.strip().endswith("n") else r.strip()
                  for r in args.rivers.split(",")]  # fmt: skip
        for river in rivers:
            for kind in args.kinds.split(","):
                cards = CardAbstraction(n, n, river, kind=kind)
                started = time.perf_counter()
                deals = FixedTurnDeals(board, ranges, cards)
                built = time.perf_counter() - started
                row: dict[str, object] = {"turn": n, "river": river, "kind": kind}
                halves, finals, train, evaluate = [], [], 0.0, 0.0
                for seed in seeds:
                    trainer = BlueprintMCCFR(tree, deals, replace(options, seed=seed))
                    for mark, out in ((half, halves), (args.iterations, finals)):
                        started = time.perf_counter()
                        trainer.run(iterations=mark - trainer.iterations)
                        train += time.perf_counter() - started
                        started = time.perf_counter()
                        figures = exact_turn_figures(tree, deals, trainer.node_rows)
                        evaluate += time.perf_counter() - started
                        out.append(figures.exploitability)
                    row[f"seed {seed}"] = f"{finals[-1]:.2f}"
                row["mean chips"] = f"{np.mean(finals):.2f}"
                row["mean % pot"] = f"{100 * np.mean(finals) / pot:.2f}"
                row[f"mean at {half / 1e6:g}M"] = f"{np.mean(halves):.2f}"
                row["turn buckets used"] = len(np.unique(deals.turn_buckets[deals.weights[0] > 0]))
                row["seconds (buckets/train/exact)"] = f"{built:.0f}/{train:.0f}/{evaluate:.0f}"
                rows.append(row)
                print(row, flush=True)
    print_rows(
        f"exploitability in the real game of the abstract equilibrium: turn {args.board}, "
        f"{STACK_BB} bb, pot {pot:.0f}, chips at {args.iterations:,} iterations a seed",
        rows,
    )


if __name__ == "__main__":
    main()
