"""The compiled walk's passes alone, before/after: ms per CFR iteration and per exact measure.

``bench_holdem.py`` times whole solves to a target; on a shared machine its few runs per spot
are noisy. This times the passes themselves: per checkout and round, a fresh process builds the
spot, warms the kernels up, then times ``--blocks`` blocks of ``--block`` dcfr iterations and
``--blocks`` exact exploitability measures (both best responses and the game value, on the
full tree in the evaluation dtype). Checkouts alternate round by round, so they share the
machine's load; the table gives medians and minima over every block of every round (the
minimum is the least disturbed run), and the ratio of this checkout to each other one.

Run: ``python benchmarks/bench_compiled_passes.py --spots river turn --compare before=PATH``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SPOTS = HERE / "spots"


def _one_round(spot: str, block: int, blocks: int, root: str, queue) -> None:
    sys.path.insert(0, root)  # the checkout whose solvers this child runs
    from solvers.algorithms import make_solver  # noqa: PLC0415 - in the child process
    from solvers.exact.evaluation import exploitability_per_edge  # noqa: PLC0415
    from solvers.exact.walk import build_plan, uniform_per_edge  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415

    if not sys.modules["solvers"].__file__.startswith(root):
        raise RuntimeError(f"solvers came from {sys.modules['solvers'].__file__}, not {root}")
    game = load_game(str(SPOTS / f"{spot}.toml"))
    solver = make_solver(game, "dcfr")
    solver.run(iterations=2)
    iteration_ms = []
    for _ in range(blocks):
        started = time.perf_counter()
        solver.run(iterations=block)
        iteration_ms.append(1000 * (time.perf_counter() - started) / block)
    plan = build_plan(game)
    profile = [uniform_per_edge(plan, p) for p in (0, 1)]
    exploitability_per_edge(game, profile)  # warm-up: the evaluation dtype's kernels
    measure_ms = []
    for _ in range(blocks):
        started = time.perf_counter()
        exploitability_per_edge(game, profile)
        measure_ms.append(1000 * (time.perf_counter() - started))
    queue.put({"iteration_ms": iteration_ms, "measure_ms": measure_ms})


def run_round(spot: str, block: int, blocks: int, root: str) -> dict:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_one_round, args=(spot, block, blocks, root, queue))
    child.start()
    result = queue.get()
    child.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", nargs="+", default=["river"], choices=["river", "turn", "flop"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--blocks", type=int, default=5)
    parser.add_argument("--block", type=int, default=20, help="iterations per timed block")
    parser.add_argument("--compare", action="append", default=[], metavar="NAME=PATH")
    args = parser.parse_args()
    checkouts = {"this": str(HERE)}
    for item in args.compare:
        name, _, path = item.partition("=")
        if not path or not (Path(path) / "solvers").is_dir():
            parser.error(f"--compare wants NAME=PATH of a checkout with solvers/: {item!r}")
        checkouts[name] = str(Path(path).resolve())
    names = list(checkouts)
    rows = []
    for spot in args.spots:
        times: dict[str, dict[str, list[float]]] = {
            n: {"iteration_ms": [], "measure_ms": []} for n in names
        }
        for _ in range(args.rounds):
            for name, root in checkouts.items():
                result = run_round(spot, args.block, args.blocks, root)
                for key in ("iteration_ms", "measure_ms"):
                    times[name][key] += result[key]
        for key in ("iteration_ms", "measure_ms"):
            row: dict = {"spot": spot, "pass": key}
            for name in names:
                row[f"median {name}"] = statistics.median(times[name][key])
                row[f"min {name}"] = min(times[name][key])
            for name in names[1:]:
                this, other = times[names[0]][key], times[name][key]
                row[f"median {names[0]}/{name}"] = round(
                    statistics.median(this) / statistics.median(other), 3
                )
                row[f"min {names[0]}/{name}"] = round(min(this) / min(other), 3)
            rows.append(row)
            print(row, flush=True)
    from _timing import print_rows  # noqa: PLC0415 - benchmarks/ helper

    print_rows("Compiled passes, ms (dcfr iteration; exact exploitability measure)", rows)


if __name__ == "__main__":
    main()
