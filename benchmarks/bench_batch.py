"""Batch throughput (issue 20): river-spot jobs per minute on the local pool against Ray.

Each run is ``solvers.batch.runner.run_batch`` as ``pokertui batch`` calls it, into a fresh
folder: worker start-up, every job's solve (DCFR, a fixed iteration budget), its strategy file
and summary. Ray is timed twice: with its cluster start-up (``ray.init`` inside the run, as the
CLI does it without ``--address``) and on a cluster already running (the per-job overhead
alone). The same jobs run on both, and the files are compared byte for byte.

Run: ``python benchmarks/bench_batch.py [--jobs 12] [--iterations 150] [--repeats 3]
[--workers 2] [--json]``. Ray comes with ``pip install -e '.[ray]'``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import median_seconds, print_rows  # noqa: E402

from solvers.batch.jobs import Job, StopRule, read_game, varied  # noqa: E402
from solvers.batch.runner import run_batch  # noqa: E402

SPOT = """\
board = "Qs Jh 2h 8d 3c"
pot = 100
stack = 300
oop_range = "TT+,AQs+,KQs,A5s,QJs,JTs"
ip_range = "99+,AJs+,KQs,QJs,T9s"
[river]
oop_bet = "75%, a"
ip_bet = "75%, a"
oop_raise = "a"
ip_raise = "a"
"""


def river_jobs(folder: Path, count: int, iterations: int) -> list[Job]:
    spot = folder / "river.toml"
    spot.write_text(SPOT)
    name, params = read_game(str(spot))
    stacks = [100 + 20 * i for i in range(count)]
    return [Job(f"stack{s}", varied(name, params, "stack", s), "dcfr",
                StopRule(iterations=iterations), {}, {"stack": s}) for s in stacks]  # fmt: skip


def timed(jobs, folder: Path, backend: str, workers: int, repeats: int):
    def run():
        shutil.rmtree(folder, ignore_errors=True)
        result = run_batch(jobs, folder, backend=backend, workers=workers)
        assert len(result.done) == len(jobs), result.failed
        return result

    seconds, _ = median_seconds(run, repeats)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"  # the same bytes on both backends
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        jobs = river_jobs(base, args.jobs, args.iterations)
        local = timed(jobs, base / "local", "local", args.workers, args.repeats)
        rows.append({"backend": "local pool", "seconds": local})
        try:
            import ray  # noqa: PLC0415
        except ImportError:
            ray = None
        if ray is not None:
            cold = timed(jobs, base / "ray", "ray", args.workers, args.repeats)
            rows.append({"backend": "ray (starts its cluster)", "seconds": cold})
            ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
            try:
                warm = timed(jobs, base / "ray", "ray", args.workers, args.repeats)
            finally:
                ray.shutdown()
            rows.append({"backend": "ray (cluster running)", "seconds": warm})
            same = all((base / "local" / j.output_name).read_bytes()
                       == (base / "ray" / j.output_name).read_bytes() for j in jobs)  # fmt: skip
        else:
            same = None
    for row in rows:
        row["jobs/min"] = 60 * args.jobs / row["seconds"]
        row["vs local"] = row["seconds"] / local
    if args.json:
        print(json.dumps({"jobs": args.jobs, "iterations": args.iterations,
                          "workers": args.workers, "rows": rows,
                          "same_bytes": same}))  # fmt: skip
        return 0
    print_rows(f"{args.jobs} river jobs, DCFR {args.iterations} iterations each, "
               f"{args.workers} workers, median of {args.repeats}", rows)  # fmt: skip
    if same is not None:
        print(f"files byte for byte equal on both backends: {same}")
    else:
        print("ray is not installed: pip install -e '.[ray]'")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
