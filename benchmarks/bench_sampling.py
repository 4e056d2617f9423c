"""Sampling solvers: convergence and speed of cs-cfr, es-mccfr, os-mccfr and paper-cfr.

- Kuhn and Leduc: exploitability (NashConv / 2) and game value of each MCCFR variant at a few
  iteration counts, and iterations per second (run time only, exploitability checks excluded);
- with ``--openspiel``: the same figures for OpenSpiel's Python external- and outcome-sampling
  MCCFR (``np.random.seed`` set; it samples differently, so only the scale should agree);
- von Neumann (100 bins) with ``paper-cfr``: thresholds x1, x2 and the dealer's middle call
  mass c in bins, exploitability and rounds per second, for each (a, B) of the paper.

Run: ``.venv/bin/python benchmarks/bench_sampling.py [--kuhn 1000,10000,100000]
[--leduc 1000,10000,100000] [--paper 1000000,10000000] [--openspiel] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import print_rows  # noqa: E402

from solvers.algorithms import make_solver, paper_cfr, sampling  # noqa: E402, F401 - registration
from solvers.games import load_game  # noqa: E402
from solvers.games.von_neumann import closed_form  # noqa: E402
from solvers.theory.thresholds import measured_thresholds  # noqa: E402

VARIANTS = ("cs-cfr", "es-mccfr", "os-mccfr")


def _counts(text: str) -> list[int]:
    return [int(float(part)) for part in text.split(",") if part]


def mccfr_rows(spec: str, counts: list[int], seed: int) -> list[dict]:
    game = load_game(spec)
    rows = []
    for algo in VARIANTS:
        solver = make_solver(game, algo, seed=seed)
        for count in counts:
            solver.run(iterations=count - solver.iterations)
            metrics = solver.metrics()
            rows.append(
                {
                    "game": spec,
                    "algo": algo,
                    "iterations": count,
                    "exploitability": metrics.exploitability,
                    "game_value": metrics.game_value,
                    "iterations_per_s": count / metrics.elapsed_seconds,
                }
            )
    return rows


def openspiel_rows(spec: str, counts: list[int], seed: int) -> list[dict]:
    import numpy as np  # noqa: PLC0415
    import pyspiel  # noqa: PLC0415
    from open_spiel.python.algorithms import exploitability  # noqa: PLC0415
    from open_spiel.python.algorithms import external_sampling_mccfr as external  # noqa: PLC0415
    from open_spiel.python.algorithms import outcome_sampling_mccfr as outcome  # noqa: PLC0415

    game = pyspiel.load_game({"kuhn": "kuhn_poker", "leduc": "leduc_poker"}[spec])
    rows = []
    for algo, cls in (
        ("openspiel es", external.ExternalSamplingSolver),
        ("openspiel os", outcome.OutcomeSamplingSolver),
    ):
        np.random.seed(seed)  # noqa: NPY002 - OpenSpiel samples from the global generator
        solver = cls(game)
        done, seconds = 0, 0.0
        for count in counts:
            started = time.perf_counter()
            for _ in range(count - done):
                solver.iteration()
            seconds += time.perf_counter() - started
            done = count
            rows.append(
                {
                    "game": spec,
                    "algo": algo,
                    "iterations": count,
                    "exploitability": exploitability.exploitability(game, solver.average_policy()),
                    "game_value": float("nan"),
                    "iterations_per_s": count / seconds,
                }
            )
    return rows


def paper_rows(counts: list[int], seed: int) -> list[dict]:
    rows = []
    for ante, bet in ((1, 2), (1, 4), (8, 1)):
        game = load_game(f"von_neumann(ante={ante},bet={bet},bins=100)")
        form = closed_form(ante, bet)
        solver = make_solver(game, "paper-cfr", seed=seed)
        for count in counts:
            solver.run(iterations=count - solver.iterations)
            measured = measured_thresholds(game, solver.average_strategy())
            metrics = solver.metrics()
            rows.append(
                {
                    "(a,B)": f"({ante},{bet})",
                    "rounds": count,
                    "x1_bins": 100 * measured.x1,
                    "x2_bins": 100 * measured.x2,
                    "c_bins": 100 * measured.c,
                    "exact_x1/x2/c": f"{100 * form.x1:.1f}/{100 * form.x2:.1f}/{100 * form.c:.1f}",
                    "exploitability": metrics.exploitability,
                    "rounds_per_s": count / metrics.elapsed_seconds,
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kuhn", default="1000,10000,100000")
    parser.add_argument("--leduc", default="1000,10000,30000")
    parser.add_argument("--paper", default="1000000,10000000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--openspiel", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, list[dict]] = {"mccfr": [], "paper": []}
    for spec, counts in (("kuhn", _counts(args.kuhn)), ("leduc", _counts(args.leduc))):
        if counts:
            results["mccfr"] += mccfr_rows(spec, counts, args.seed)
            if args.openspiel:
                results["mccfr"] += openspiel_rows(spec, counts, args.seed)
    if _counts(args.paper):
        results["paper"] = paper_rows(_counts(args.paper), args.seed)
    if args.json:
        print(json.dumps(results))
        return
    print_rows("MCCFR: exploitability (chips) and speed", results["mccfr"])
    print_rows("paper-cfr on von Neumann, 100 bins (thresholds in bins)", results["paper"])


if __name__ == "__main__":
    main()
