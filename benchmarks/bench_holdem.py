"""Hold'em postflop spots (issue 12): iterations, seconds and peak memory to each target.

For every spot shipped in ``spots/`` and every algorithm, a fresh process builds the game, runs
the solver in blocks of ``--check-every`` iterations and measures the exact exploitability
after each block (that measurement is timed apart: "seconds" is solve time only, as the peers
report it). The first block at or under each target (in % of the starting pot) is recorded;
with ``--repeats`` the seconds are medians. Peak memory is the child process's maximum resident
set (``resource.getrusage``), which includes building the tree and the exact best responses.

Targets (the issue's): river 0.1% of the pot, turn 0.3%, flop 0.5%. Peers on this machine with
2 threads: river postflop-solver 0.09 s, TexasSolver 0.44-0.95 s; turn postflop-solver about
10 s and 90 MB; flop postflop-solver about 40 s and 760 MB.

Run: ``python benchmarks/bench_holdem.py [--spots river turn] [--algos dcfr cfr+] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import statistics
import time
from pathlib import Path

SPOTS = Path(__file__).resolve().parent.parent / "spots"
TARGETS = {"river": [1.0, 0.3, 0.1], "turn": [1.0, 0.5, 0.3], "flop": [1.0, 0.5]}
LIMITS = {"river": 600, "turn": 2000, "flop": 400}
PEER_SECONDS = {("river", 0.1): 0.09, ("turn", 0.3): 10.0, ("flop", 0.5): 40.0}
"""postflop-solver (Rust, 2 threads) at the issue's targets, measured on this machine and quoted
by the issue; the ``x postflop-solver`` column is our seconds over these."""
ALGOS = {
    "dcfr": {},
    "dcfr(1.5,0.5,3)": {"variant": "dcfr", "alpha": 1.5, "beta": 0.5, "gamma": 3.0},
    "cfr+": {},
    "pcfr+": {},
    "pdcfr+": {},
}


def _one_run(spot: str, algo: str, options: dict, check_every: int, budget_s: float, queue):
    from solvers.algorithms import make_solver  # noqa: PLC0415 - in the child process
    from solvers.games import load_game  # noqa: PLC0415

    started = time.perf_counter()
    game = load_game(str(SPOTS / f"{spot}.toml"))
    build = time.perf_counter() - started
    options = dict(options)
    variant = options.pop("variant", algo)
    solver = make_solver(game, variant, **options)
    pot = float(sum(game.root.contributions))
    reached: dict[float, tuple[int, float, float]] = {}
    history = []
    while solver.iterations < LIMITS[spot] and solver.elapsed_seconds < budget_s:
        solver.run(iterations=check_every)
        percent = 100.0 * solver.metrics().exploitability / pot
        history.append((solver.iterations, solver.elapsed_seconds, percent))
        for target in TARGETS[spot]:
            if percent <= target and target not in reached:
                reached[target] = (solver.iterations, solver.elapsed_seconds, percent)
        if len(reached) == len(TARGETS[spot]):
            break
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put(
        {
            "build_s": build,
            "reached": reached,
            "history": history,
            "peak_mb": peak_mb,
            "ms_per_iteration": 1000 * solver.elapsed_seconds / max(1, solver.iterations),
            "memory_estimate_mb": game.memory_estimate_mb,
            "nodes": len(game.nodes),
            "hands": list(game.n_hands),
        }
    )


def run_spot(spot, algo, options, check_every, budget_s):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(
        target=_one_run, args=(spot, algo, options, check_every, budget_s, queue)
    )
    child.start()
    result = queue.get()
    child.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", nargs="+", default=["river", "turn"], choices=list(TARGETS))
    parser.add_argument("--algos", nargs="+", default=list(ALGOS), choices=list(ALGOS))
    parser.add_argument("--repeats", type=int, default=3, help="river repeats (others: 1)")
    parser.add_argument("--precision", default="float32", choices=("float32", "float64"))
    parser.add_argument("--budget", type=float, default=300.0, help="seconds per run at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for spot in args.spots:
        check_every = {"river": 10, "turn": 10, "flop": 10}[spot]
        for algo in args.algos:
            options = {**ALGOS[algo], "precision": args.precision}
            repeats = args.repeats if spot == "river" else 1
            runs = [run_spot(spot, algo, options, check_every, args.budget) for _ in range(repeats)]
            for target in TARGETS[spot]:
                hits = [r["reached"].get(target) for r in runs]
                done = [h for h in hits if h is not None]
                rows.append(
                    {
                        "spot": spot,
                        "algo": algo,
                        "target_%": target,
                        "iterations": done[0][0] if done else None,
                        "seconds": statistics.median(h[1] for h in done) if done else None,
                        "expl_%": done[0][2] if done else None,
                        "peak_MB": max(r["peak_mb"] for r in runs),
                        "ms/it": statistics.median(r["ms_per_iteration"] for r in runs),
                        "reached": f"{len(done)}/{len(runs)}",
                        "x postflop-solver": None,
                    }
                )
                peer = PEER_SECONDS.get((spot, target))
                if peer is not None and done:
                    rows[-1]["x postflop-solver"] = round(rows[-1]["seconds"] / peer, 2)
            if not args.json:
                last = runs[0]["history"][-1]
                print(
                    f"{spot:5} {algo:16} nodes {runs[0]['nodes']:,} hands {runs[0]['hands']} "
                    f"estimate {runs[0]['memory_estimate_mb']:.0f} MB; last: {last[0]} it "
                    f"{last[1]:.2f} s {last[2]:.3f}%",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    from _timing import print_rows  # noqa: PLC0415 - benchmarks/ helper

    print_rows("Iterations and solve seconds to each target (% of the starting pot)", rows)


if __name__ == "__main__":
    main()
