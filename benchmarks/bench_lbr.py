"""Local best response speed (issue 14): duplicate deals per second on push/fold and a river spot.

Targets: 100,000 duplicate push/fold deals in under a minute and 20,000 river-spot deals in
under two minutes (medians, all cores). Each run is ``solvers.reports.lbr.spot_run.evaluate`` as
``pokertui lbr`` calls it: worker start-up, file loading in every worker and the deals. The
river bot is ``spots/river.toml`` solved by DCFR to 0.3% of the pot first (not timed).

Run: ``python benchmarks/bench_lbr.py [--repeats 3] [--workers N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import median_seconds, print_rows  # noqa: E402

from solvers.algorithms import make_solver  # noqa: E402
from solvers.exact.evaluation import exploitability  # noqa: E402
from solvers.games import load_game  # noqa: E402
from solvers.reports.lbr.spot_run import evaluate  # noqa: E402
from solvers.strategy_file import save_strategy  # noqa: E402


def solve_river(out: Path, target_percent: float = 0.3) -> float:
    game = load_game(str(ROOT / "spots" / "river.toml"))
    solver = make_solver(game, "dcfr")
    pot = float(sum(game.root.contributions))
    percent = float("inf")
    while percent > target_percent and solver.iterations < 2000:
        solver.run(iterations=50)
        percent = 100 * exploitability(game, solver.average_strategy()).exploitability / pot
    save_strategy(out, game, solver.average_strategy())
    return percent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        river = Path(tmp) / "river.json"
        river_percent = solve_river(river)
        cases = [
            ("push/fold 10bb", ROOT / "strategies" / "push_fold_10bb.json", "fcpa", 100_000, 60),
            ("push/fold 10bb", ROOT / "strategies" / "push_fold_10bb.json", "56", 100_000, 60),
            ("river.toml", river, "fcpa", 20_000, 120),
            ("river.toml", river, "tree", 20_000, 120),
            ("river.toml", river, "56", 20_000, 120),
        ]
        for name, path, action_set, deals, budget in cases:
            seconds, result = median_seconds(
                lambda p=path, a=action_set, d=deals: evaluate(p, a, d, 1, workers=args.workers),
                args.repeats,
                warmup=False,
            )
            rows.append(
                {
                    "strategy": name,
                    "action_set": action_set,
                    "deals": deals,
                    "median_s": seconds,
                    "deals_per_s": deals / seconds,
                    "target_s": budget,
                    "value": result["value"],
                    "ci95": result["ci95"],
                    "unit": result["unit"],
                }
            )
    if args.json:
        print(json.dumps({"river_exploitability_pot_percent": river_percent, "rows": rows}))
        return
    print(f"river bot: spots/river.toml by DCFR, exploitability {river_percent:.3g}% of the pot")
    print_rows("LBR: duplicate deals (each played from both seats)", rows)


if __name__ == "__main__":
    main()
