"""Card abstraction: table build times and sizes, and bucket look-ups with and without tables.

- ``deal_buckets`` over a batch of random deals (what the MCCFR sampler asks for), per deal,
  beside the same buckets computed board by board without tables (``combo_buckets`` on an
  empty cache, timed on a few deals and scaled), with the ratio;
- ``combo_buckets`` (the bot's whole-range look-up) per street, from the tables and computed;
- with ``--build``: a fresh build of every table into a temporary cache (a minute or two on
  this machine), its time per street and the sizes on disk.

Run: ``.venv/bin/python benchmarks/bench_abstraction.py [--deals 10000] [--buckets 50]
[--build]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import median_seconds, print_rows  # noqa: E402

from solvers.abstraction import bucket_tables  # noqa: E402
from solvers.abstraction.buckets import CardAbstraction  # noqa: E402
from solvers.cards.deck import COMBO_INDEX  # noqa: E402


def _deals(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    cards = np.argsort(np.random.default_rng(seed).random((n, 52)), axis=1)[:, :9]
    return cards[:, :4].reshape(n, 2, 2).astype(np.int8), cards[:, 4:].astype(np.int8)


def _without_tables(run):
    saved = os.environ.get("POKERTUI_CACHE")
    with tempfile.TemporaryDirectory() as empty:
        os.environ["POKERTUI_CACHE"] = empty
        try:
            return run()
        finally:
            if saved is None:
                del os.environ["POKERTUI_CACHE"]
            else:
                os.environ["POKERTUI_CACHE"] = saved


def build_rows(n: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        saved = os.environ.get("POKERTUI_CACHE")
        os.environ["POKERTUI_CACHE"] = folder
        try:
            for street, name in ((1, "flop"), (2, "turn"), (3, "river")):
                started = time.perf_counter()
                bucket_tables.bucket_table(street, n)
                rows.append({"table": name, "build s": time.perf_counter() - started, "MB": ""})
            for path in sorted(bucket_tables.cache_dir().iterdir()):
                rows.append({"table": path.name, "build s": "", "MB": path.stat().st_size / 1e6})
        finally:
            if saved is None:
                del os.environ["POKERTUI_CACHE"]
            else:
                os.environ["POKERTUI_CACHE"] = saved
    return rows


def lookup_rows(n_deals: int, n: int) -> list[dict]:
    abstraction = CardAbstraction(flop=n, turn=n, river=n)
    abstraction.prepare()
    holes, boards = _deals(n_deals)
    batch, _ = median_seconds(lambda: abstraction.deal_buckets(holes, boards), 7)
    started = time.process_time()
    for _ in range(7):
        abstraction.deal_buckets(holes, boards)
    cpu = (time.process_time() - started) / 7
    few = 8

    def computed():
        fresh = CardAbstraction(flop=n, turn=n, river=n)
        for i in range(few):
            for street in (1, 2, 3):
                fresh.combo_buckets(boards[i], street)[COMBO_INDEX[holes[i, :, 0], holes[i, :, 1]]]

    per_deal_computed, _ = _without_tables(lambda: median_seconds(computed, 3))
    per_table = batch / n_deals
    per_computed = per_deal_computed / few
    rows = [
        {"what": f"deal_buckets, {n_deals:,} deals", "median ms": batch * 1e3,
         "us/deal": per_table * 1e6, "ratio": 1.0},
        {"what": "  the same, CPU time (mean)", "median ms": cpu * 1e3,
         "us/deal": cpu / n_deals * 1e6, "ratio": ""},
        {"what": "per board, no tables", "median ms": per_computed * n_deals * 1e3,
         "us/deal": per_computed * 1e6, "ratio": per_computed / per_table},
    ]  # fmt: skip
    board = boards[0]
    for street, name in ((1, "flop"), (2, "turn"), (3, "river")):
        table, _ = median_seconds(lambda s=street: abstraction.combo_buckets(board, s), 7)
        fresh = CardAbstraction(flop=n, turn=n, river=n)
        alone, _ = _without_tables(
            lambda s=street, f=fresh: median_seconds(lambda: f.combo_buckets(board, s), 3)
        )
        rows.append({"what": f"combo_buckets {name}, table", "median ms": table * 1e3,
                     "us/deal": "", "ratio": 1.0})  # fmt: skip
        rows.append({"what": f"combo_buckets {name}, computed", "median ms": alone * 1e3,
                     "us/deal": "", "ratio": alone / table})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--buckets", type=int, default=50)
    parser.add_argument("--build", action="store_true", help="time a fresh build of the tables")
    args = parser.parse_args()
    if args.build:
        print_rows(f"table build, {args.buckets} buckets a street", build_rows(args.buckets))
    rows = lookup_rows(args.deals, args.buckets)
    print_rows(f"bucket look-ups, {args.buckets} buckets a street", rows)


if __name__ == "__main__":
    main()
