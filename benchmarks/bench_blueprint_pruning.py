"""Does the blueprint's MCCFR keep converging past pruning and the linear discount?

The small game of ``tests/blueprint_fixtures.py`` (10 bb, the board Ks 7h 2d 9c 4s, 25 combos a
seat, lossless buckets) is solved exactly by ``blueprint_exact``, so the exploitability of the
average strategy can be followed as iterations grow under each schedule: no pruning and no
discount; pruning from 50,000 iterations at two thresholds; the linear discount alone; and the
shipped blueprints' schedule scaled to this game (pruning below 100 stacks of regret, as the
shipped -1e6 is 100 stacks of 10,000 chips; the discount every 5,000 iterations to 100,000).
Each row is one run from the same seed; the figures are chips (the pot is 150, stacks 1,000).

Run: ``.venv/bin/python benchmarks/bench_blueprint_pruning.py [--until 800000]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import print_rows  # noqa: E402

from solvers.algorithms.blueprint_exact import exact_figures  # noqa: E402
from solvers.algorithms.blueprint_mccfr import BlueprintMCCFR  # noqa: E402
from tests.blueprint_fixtures import small_game  # noqa: E402

SCHEDULES = {
    "none": {"prune_after": 10**12, "linear_until": 0},
    "prune < -2e5 (200 stacks)": {"prune_after": 50_000, "prune_below": -2e5, "linear_until": 0},
    "prune < -2e4 (20 stacks)": {"prune_after": 50_000, "prune_below": -2e4, "linear_until": 0},
    "linear discount": {"prune_after": 10**12, "linear_until": 200_000, "discount_every": 20_000},
    "shipped, scaled": {"prune_after": 50_000, "prune_below": -1e5, "linear_until": 100_000,
                        "discount_every": 5_000},
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--until", type=int, default=800_000)
    args = parser.parse_args()
    marks = [m for m in (25_000, 50_000, 100_000, 200_000, 400_000, 800_000, 1_600_000)
             if m <= args.until]  # fmt: skip
    rows = []
    for name, options in SCHEDULES.items():
        base = small_game(0, 1000)
        trainer = BlueprintMCCFR(base.tree, base.deals, replace(base.options, **options))
        started, row = time.perf_counter(), {"schedule": name}
        for mark in marks:
            trainer.run(iterations=mark - trainer.iterations)
            figures = exact_figures(trainer.tree, trainer.deals, trainer.node_rows)
            row[f"{mark // 1000}k"] = f"{figures.exploitability:.2f}"
        row["seconds"] = f"{time.perf_counter() - started:.0f}"
        rows.append(row)
    print_rows("exact exploitability of the average strategy (chips; pot 150)", rows)


if __name__ == "__main__":
    main()
