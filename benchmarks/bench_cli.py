"""Whole-command timings of the CLI: start-up, a short solve, and Monte Carlo equity vs eval7.

Run ``python benchmarks/bench_cli.py [--repeats N] [--repo PATH] [--json]``. Every figure is
the median wall time of N fresh processes (default 7), measured side by side in this run:

* ``pokertui --help`` (start-up: what importing the CLI costs);
* ``pokertui solve leduc --algo cfr+ --iterations 300`` (a short solve, mostly start-up);
* ``pokertui equity AhKh QsQd --mc 2000000`` against the same 2M-trial hand-vs-hand Monte Carlo
  in eval7 (``py_hand_vs_range_monte_carlo``) run as its own ``python -c`` command; the ratio
  is eval7's time over ours (above 1: pokertui is faster).

``--repo PATH`` times another checkout (for example the commit before a change) with this
Python, by running ``python -m pokertui`` from that folder.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVAL7_MC = (
    "import eval7\n"
    "hero = [eval7.Card('Ah'), eval7.Card('Kh')]\n"
    "print(eval7.py_hand_vs_range_monte_carlo(hero, eval7.HandRange('QsQd'), [], 2_000_000))\n"
)


def median_run(argv: list[str], repeats: int, cwd: Path) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed: {done.stderr[-500:]}")
    return statistics.median(times)


def measure(repo: Path, repeats: int) -> dict[str, float]:
    pokertui = [sys.executable, "-m", "pokertui"]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "leduc.json"
        rows = {
            "help_seconds": median_run([*pokertui, "--help"], repeats, repo),
            "leduc_300_seconds": median_run(
                [
                    *pokertui,
                    "solve",
                    "leduc",
                    "--algo",
                    "cfr+",
                    "--iterations",
                    "300",
                    "--out",
                    str(out),
                    "--json",
                ],
                repeats,
                repo,
            ),  # fmt: skip
            "equity_mc_2m_seconds": median_run(
                [*pokertui, "equity", "AhKh", "QsQd", "--mc", "2000000", "--seed", "1", "--json"],
                repeats,
                repo,
            ),
        }
    try:
        rows["eval7_mc_2m_seconds"] = median_run([sys.executable, "-c", EVAL7_MC], repeats, repo)
        rows["equity_vs_eval7"] = rows["eval7_mc_2m_seconds"] / rows["equity_mc_2m_seconds"]
    except SystemExit:
        pass  # eval7 is in the test and bench extras
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = measure(args.repo.resolve(), args.repeats)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"CLI timings of {args.repo}, medians of {args.repeats} fresh processes")
    for name, value in rows.items():
        print(f"  {name:24s} {value:8.3f}")


if __name__ == "__main__":
    main()
