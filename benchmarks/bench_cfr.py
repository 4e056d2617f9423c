"""Full-width CFR speed: pokertui's vectorised public-tree walk against OpenSpiel's C++ CFR+.

In one process, on the same machine and load:

- Leduc CFR+: median milliseconds per iteration of ours and of ``pyspiel.CFRPlusSolver``, and
  the wall time each needs to reach an exploitability of 0.001 (iteration time only: the
  exploitability checks every ``--check-every`` iterations are timed apart). Both follow the same
  update schedule, but Leduc CFR+ is chaotic: rounding differences (summation order) grow from
  1e-16 to visible after about 120 iterations, so the two may need slightly different counts;
- Kuhn: wall time of each variant to reach 1e-6 (and OpenSpiel C++ CFR+ for reference);
- Leduc: iterations per second of every variant, alternating and simultaneous, and of FP;
- peak resident memory of the process (``resource.getrusage``) and the solver state's size.

Run: ``.venv/bin/python benchmarks/bench_cfr.py [--repeats N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time

from solvers.algorithms import make_solver
from solvers.exact.evaluation import exploitability
from solvers.games import load_game
from solvers.strategy_file.openspiel import openspiel_game_for

BLOCK = 10
"""Iterations per timed block; per-iteration figures are block times divided by this."""


def median_ms_per_iteration(step, blocks: int) -> float:
    step()  # warm-up
    times = []
    for _ in range(blocks):
        started = time.perf_counter()
        for _ in range(BLOCK):
            step()
        times.append((time.perf_counter() - started) / BLOCK)
    return 1000.0 * statistics.median(times)


def time_to_target(step, measure, target: float, check_every: int, limit: int) -> dict:
    """Iterate until ``measure() <= target``; only the iterations are timed."""
    iterations, seconds, value = 0, 0.0, float("inf")
    while iterations < limit:
        started = time.perf_counter()
        for _ in range(check_every):
            step()
        seconds += time.perf_counter() - started
        iterations += check_every
        value = measure()
        if value <= target:
            break
    return {"iterations": iterations, "seconds": seconds, "exploitability": value}


def leduc_cfr_plus(repeats: int, check_every: int) -> dict:
    import pyspiel  # noqa: PLC0415 - optional dependency

    game = load_game("leduc")
    os_game = openspiel_game_for(game)
    ours = make_solver(game, "cfr+")
    theirs = pyspiel.CFRPlusSolver(os_game)
    ours_ms = median_ms_per_iteration(ours._step, repeats)
    theirs_ms = median_ms_per_iteration(theirs.evaluate_and_update_policy, max(3, repeats // 10))

    ours = make_solver(game, "cfr+")
    theirs = pyspiel.CFRPlusSolver(os_game)
    ours_target = time_to_target(
        ours._step,
        lambda: exploitability(game, ours.average_strategy()).exploitability,
        1e-3,
        check_every,
        100_000,
    )
    theirs_target = time_to_target(
        theirs.evaluate_and_update_policy,
        lambda: pyspiel.exploitability(os_game, theirs.average_policy()),
        1e-3,
        check_every,
        100_000,
    )
    return {
        "ours_ms_per_iteration": ours_ms,
        "openspiel_cpp_ms_per_iteration": theirs_ms,
        "speedup_per_iteration": theirs_ms / ours_ms,
        "ours_to_0.001": ours_target,
        "openspiel_cpp_to_0.001": theirs_target,
        "speedup_to_0.001": theirs_target["seconds"] / ours_target["seconds"],
    }


def kuhn_to_1e6() -> dict:
    import pyspiel  # noqa: PLC0415

    game = load_game("kuhn")
    rows = {}
    for variant in ("cfr", "cfr+", "lcfr", "dcfr"):
        solver = make_solver(game, variant)
        rows[variant] = time_to_target(
            solver._step,
            lambda s=solver: exploitability(game, s.average_strategy()).exploitability,
            1e-6,
            1000,
            300_000 if variant != "cfr" else 20_000,
        )
    os_game = openspiel_game_for(game)
    theirs = pyspiel.CFRPlusSolver(os_game)
    rows["openspiel_cpp_cfr+"] = time_to_target(
        theirs.evaluate_and_update_policy,
        lambda: pyspiel.exploitability(os_game, theirs.average_policy()),
        1e-6,
        1000,
        300_000,
    )
    return rows


def leduc_rates(repeats: int) -> dict:
    game = load_game("leduc")
    rates = {}
    for variant in ("cfr", "cfr+", "lcfr", "dcfr"):
        for alternating in (True, False):
            solver = make_solver(game, variant, alternating=alternating)
            ms = median_ms_per_iteration(solver._step, repeats)
            rates[f"{variant} ({'alternating' if alternating else 'simultaneous'})"] = 1000 / ms
    fp = make_solver(game, "fp")
    rates["fp"] = 1000 / median_ms_per_iteration(fp._step, max(3, repeats // 10))
    solver = make_solver(game, "dcfr")
    state_bytes = sum(v.nbytes for v in solver.state_dict().values())
    return {"iterations_per_second": rates, "leduc_state_bytes": state_bytes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=100, help="timed blocks of 10 iterations")
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {
        "leduc_cfr_plus": leduc_cfr_plus(args.repeats, args.check_every),
        "kuhn_to_1e-6": kuhn_to_1e6(),
        **leduc_rates(args.repeats),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    if args.json:
        print(json.dumps(report))
        return
    plus = report["leduc_cfr_plus"]
    print(
        f"Leduc CFR+ per iteration: ours {plus['ours_ms_per_iteration']:.3f} ms | OpenSpiel C++ "
        f"{plus['openspiel_cpp_ms_per_iteration']:.2f} ms | {plus['speedup_per_iteration']:.1f}x"
    )
    ours, theirs = plus["ours_to_0.001"], plus["openspiel_cpp_to_0.001"]
    print(
        f"Leduc CFR+ to 0.001: ours {ours['seconds']:.3f} s ({ours['iterations']} it) | "
        f"OpenSpiel C++ {theirs['seconds']:.2f} s ({theirs['iterations']} it) | "
        f"{plus['speedup_to_0.001']:.1f}x"
    )
    for name, row in report["kuhn_to_1e-6"].items():
        print(
            f"Kuhn {name} to 1e-6: {row['seconds']:.3f} s, {row['iterations']} it "
            f"(exploitability {row['exploitability']:.2e})"
        )
    for name, rate in report["iterations_per_second"].items():
        print(f"Leduc {name}: {rate:,.0f} it/s")
    print(
        f"Leduc solver state: {report['leduc_state_bytes'] / 1024:.0f} KiB; "
        f"peak RSS of the process: {report['peak_rss_mb']:.0f} MiB"
    )


if __name__ == "__main__":
    main()
