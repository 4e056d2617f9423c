"""The blueprint's MCCFR on workers, side by side in one run (shipped 100 bb abstraction):

- iterations per second of the single-process loop (one local worker: the kernel's batches on
  all cores), of rounds on two local worker processes and of rounds on two Ray workers (a local
  cluster started by the run), each the median of a few rounds after a warm-up round (which
  compiles the kernel in every worker);
- the merge's cost per round: the driver's time adding the deltas, the round's overhead (its
  wall time minus the slowest worker's traversal: broadcast, transfer, merge), the bytes of the
  deltas (the slots a share touched, or dense arrays when smaller) against two dense arrays a
  worker, and of the regrets broadcast;
- a projection for 16 and 64 workers. Model: a round is W shares of ``--round-iterations``
  deals each, run in parallel at the measured rate of one single-thread worker, then merged
  serially at the driver at the measured overhead per delta; so a round takes
  ``per_worker / rate + W * overhead`` and the cluster trains ``W * per_worker`` deals a round.
  The overhead is measured through Ray's local object store; a second column adds, per worker,
  its delta and the broadcast snapshot sent over a 10 Gb/s network.

The shared two-core machine makes every figure depend on the load (printed with the table); two
workers on two cores share them with the driver. Run: ``.venv/bin/python
benchmarks/bench_blueprint_workers.py [--round-iterations 65536] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import print_rows  # noqa: E402

from solvers.parallel.backends import WorkerPool  # noqa: E402
from solvers.runs.blueprint_build import SHIPPED_BLUEPRINTS, make_trainer  # noqa: E402
from solvers.runs.blueprint_rounds import ROUND_BATCHES, RoundTrainer, TrainerRecipe  # noqa: E402

NETWORK_BYTES_PER_SECOND = 10e9 / 8
COLUMNS = ("setup", "iterations / s", "worker iterations / s", "round s", "merge s",
           "overhead s", "delta MB", "dense MB", "snapshot MB")  # fmt: skip


def single_process(spec, per_worker: int, rounds: int) -> dict:
    trainer = make_trainer(spec)
    trainer.run(iterations=per_worker)  # compile
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        trainer.run(iterations=per_worker)
        times.append(time.perf_counter() - started)
    seconds = statistics.median(times)
    row: dict[str, object] = dict.fromkeys(COLUMNS, "-")
    row.update({"setup": "local, 1 worker (one process, all cores)",
                "iterations / s": per_worker / seconds, "round s": seconds})  # fmt: skip
    return row


def in_rounds(spec, backend: str, workers: int, per_worker: int, rounds: int) -> dict:
    with WorkerPool(backend, workers) as pool:
        runner = RoundTrainer(make_trainer(spec), pool, TrainerRecipe(make_trainer, (spec,)),
                              per_worker=per_worker)  # fmt: skip
        runner.round()  # every worker builds its trainer and compiles the kernel
        reports = [runner.round() for _ in range(rounds)]
    done = [r for r in reports if r is not None]
    median = statistics.median
    overhead = median(r.seconds - max(r.worker_seconds) for r in done)
    return {
        "setup": f"{backend}, {workers} workers (rounds)",
        "iterations / s": median(r.iterations / r.seconds for r in done),
        "worker iterations / s": median(per_worker / s for r in done for s in r.worker_seconds),
        "round s": median(r.seconds for r in done),
        "merge s": median(r.merge_seconds for r in done),
        "overhead s": overhead,
        "delta MB": median(r.delta_bytes for r in done) / 1e6,
        "dense MB": workers * runner.trainer.slots * 12 / 1e6,
        "snapshot MB": runner.trainer.regret.nbytes / 1e6,
    }


def projection(rate: float, overhead_per_delta: float, sent_bytes: float, per_worker: int):
    rows = []
    for workers in (16, 64):
        compute = per_worker / rate
        local = compute + workers * overhead_per_delta
        network = local + workers * sent_bytes / NETWORK_BYTES_PER_SECOND
        rows.append({
            "workers": workers,
            "round s": local,
            "iterations / s": workers * per_worker / local,
            "x one worker": workers * compute / local,
            "with 10 Gb/s transfer": workers * per_worker / network,
        })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round-iterations", type=int, default=ROUND_BATCHES * 8192)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    spec = SHIPPED_BLUEPRINTS[0].spec
    per = args.round_iterations
    rows = [single_process(spec, per, args.rounds)]
    rows.append(in_rounds(spec, "local", 2, per, args.rounds))
    rows.append(in_rounds(spec, "ray", 2, per, args.rounds))
    load = os.getloadavg()
    print_rows(
        f"MCCFR on {spec.game}, {args.round_iterations:,} iterations per worker per round, "
        f"median of {args.rounds} rounds; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
        f"on {os.cpu_count()} cores",
        rows,
    )
    ray = rows[2]
    per_delta = ray["overhead s"] / 2
    sent = ray["delta MB"] * 1e6 / 2 + ray["snapshot MB"] * 1e6
    print_rows(
        f"Projection from the Ray run: {ray['worker iterations / s']:,.0f} iterations/s a worker, "
        f"{per_delta:.3f} s of driver overhead per worker and round, {sent / 1e6:.1f} MB sent "
        "(its delta and the snapshot); round = per-worker deals / rate + W x overhead",
        projection(ray["worker iterations / s"], per_delta, sent, per),
    )


if __name__ == "__main__":
    main()
