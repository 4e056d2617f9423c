"""The blueprint solver's speed on the shipped 100 bb abstraction, side by side:

- MCCFR iterations per second (one iteration = one sampled deal traversed by both seats) on
  one thread and on all threads, with the ratio;
- the share of a batch spent dealing and bucketing (numpy + ``deal_buckets``) against the
  compiled traversal, which the design keeps under about a fifth.

The shared two-core machine makes every figure depend on the load; run it when the machine is
quiet and compare rows of one run only. Run: ``.venv/bin/python benchmarks/bench_blueprint.py
[--batch 8192] [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import median_seconds, print_rows  # noqa: E402

from solvers.runs.blueprint_build import SHIPPED_BLUEPRINTS, make_trainer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=8192)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    spec = SHIPPED_BLUEPRINTS[0].spec
    trainer = make_trainer(spec)
    trainer.run(iterations=args.batch)  # compile and load the tables
    rng = np.random.default_rng(0)
    deal_time, _ = median_seconds(lambda: trainer.deals.sample(args.batch, rng), args.repeats)
    rows = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        seconds, _ = median_seconds(lambda: trainer.run(iterations=args.batch), args.repeats)
        rows.append({
            "threads": threads,
            "median s / batch": seconds,
            "iterations / s": args.batch / seconds,
            "dealing share": deal_time / seconds,
        })  # fmt: skip
    for row in rows:
        row["ratio to 1 thread"] = rows[0]["median s / batch"] / row["median s / batch"]
    print_rows(
        f"MCCFR on {spec.game}, {trainer.tree.n_nodes:,} nodes, {trainer.slots:,} slots, "
        f"batches of {args.batch:,} deals",
        rows,
    )


if __name__ == "__main__":
    main()
