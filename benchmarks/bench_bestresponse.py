"""Exact best response on Leduc: pokertui's vectorised public-tree walk against OpenSpiel.

Times the full exploitability computation (both best responses) for the same strategy profile
with ``solvers.exact.evaluation.exploitability``, OpenSpiel's C++ ``pyspiel.exploitability`` and its
Python ``exploitability.exploitability``, and prints medians and ratios. Policy conversion is
done once, outside the timings.
Run: ``.venv/bin/python benchmarks/bench_bestresponse.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import median_seconds  # noqa: E402

from solvers.exact.evaluation import exploitability
from solvers.exact.lp import solve_lp
from solvers.games import load_game, random_strategy
from solvers.strategy_file.openspiel import openspiel_game_for, to_openspiel_policy


def bench(repeats: int) -> list[dict]:
    import pyspiel  # noqa: PLC0415
    from open_spiel.python import policy as os_policy  # noqa: PLC0415
    from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: PLC0415

    game = load_game("leduc")
    os_game = openspiel_game_for(game)
    profiles = {
        "lp equilibrium": solve_lp(game).strategy,
        "random": random_strategy(game, np.random.default_rng(0)),
    }
    rows = []
    for name, strategy in profiles.items():
        tabular = to_openspiel_policy(game, strategy)
        cpp_policy = os_policy.python_policy_to_pyspiel_policy(tabular)
        ours, ours_value = median_seconds(lambda s=strategy: exploitability(game, s), repeats)
        cpp, cpp_value = median_seconds(
            lambda p=cpp_policy: pyspiel.exploitability(os_game, p), max(3, repeats // 5)
        )
        py, py_value = median_seconds(
            lambda t=tabular: os_exploitability.exploitability(os_game, t), max(3, repeats // 10)
        )
        rows.append(
            {
                "profile": name,
                "exploitability": ours_value.exploitability,
                "openspiel_cpp_exploitability": cpp_value,
                "openspiel_python_exploitability": py_value,
                "ours_ms": ours * 1000,
                "openspiel_cpp_ms": cpp * 1000,
                "openspiel_python_ms": py * 1000,
                "speedup_vs_cpp": cpp / ours,
                "speedup_vs_python": py / ours,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = bench(args.repeats)
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        print(
            f"Leduc, {row['profile']}: exploitability {row['exploitability']:.12g} "
            f"(OpenSpiel C++ {row['openspiel_cpp_exploitability']:.12g})\n"
            f"  ours {row['ours_ms']:.2f} ms | OpenSpiel C++ {row['openspiel_cpp_ms']:.1f} ms "
            f"({row['speedup_vs_cpp']:.1f}x) | OpenSpiel Python "
            f"{row['openspiel_python_ms']:.1f} ms ({row['speedup_vs_python']:.1f}x)"
        )


if __name__ == "__main__":
    main()
