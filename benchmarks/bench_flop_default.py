"""The default spot solve end to end: ``pokertui solve SPOT --algo dcfr --target T --out F.ptsb``.

Each run is the command a user types, with no other option, in a fresh process: building the
spot, solving to the target with the exact exploitability checks, and writing and measuring
the binary file. Per spot it prints the median wall seconds, the peak resident set (the child's
``ru_maxrss``, which includes the write), the file's MB, the iterations and the file's
exploitability, the share of both cores used (CPU seconds over wall seconds over cores), and
postflop-solver's figures beside them with the ratios. The flop's peers: postflop-solver about
40 s and 760 MB on 2 threads on this machine; its published table (6 threads) 21.8 s / 1.21 GB,
PioSolver 23.4 s / 1.41 GB, GTO+ 22.0 s / 705 MB, TexasSolver 103.5 s / 2.84 GB. The turn's
goal is 8 s and 200 MB (postflop-solver about 10 s and 90 MB here).

The default restarts DCFR's average at each power of 4, as postflop-solver does
(``HoldemGame.solver_restart``); ``--whole`` also runs ``--opt restart=0``, the average kept
whole, beside it. ``--schedule`` also runs postflop-solver's DCFR schedule (alpha 1.5, beta 0.5,
gamma 3: ``--opt beta=0.5 --opt gamma=3``, with the same restarts), for context.

``--passes`` profiles the compiled walk's passes on the flop in this process instead, in the
default command's state (16-bit regrets and sums): milliseconds per call of each pass (a
player's CFR pass, which fuses reach, values and the regret update; a value pass; a best
response; the two-pass walk's reach alone; the whole exact check), nanoseconds per walked node
and hand, and the share of both cores (CPU time over wall time).

Run: ``python benchmarks/bench_flop_default.py [--spots flop turn] [--runs 3] [--whole]
[--passes]``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"flop": "0.5%", "turn": "0.3%"}
PEERS = {
    "flop": [
        ("goal (2 cores, this machine)", 40.0, 760.0),
        ("postflop-solver, 2 threads here", 40.0, 760.0),
        ("postflop-solver, published (6 threads)", 21.8, 1210.0),
        ("PioSolver, published", 23.4, 1410.0),
        ("GTO+, published", 22.0, 705.0),
        ("TexasSolver, published", 103.5, 2840.0),
    ],
    "turn": [
        ("goal (2 cores, this machine)", 8.0, 200.0),
        ("postflop-solver, 2 threads here", 10.0, 90.0),
    ],
}
"""(who, seconds, peak MB) per spot, quoted as they were measured or published."""
FILE_GOAL_MB = {"flop": 60.0}
CORES = os.cpu_count() or 1


def run_command(spot: str, folder: Path, extra: list[str]) -> dict:
    """One ``pokertui solve`` in a child process, as typed (its progress bar and closing lines
    for people): wall seconds, CPU seconds, peak MB, the file's MB, what it says at the end."""
    out = folder / f"{spot}.ptsb"
    for stale in (out, out.with_name(out.name + ".ckpt.npz")):
        stale.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "pokertui", "solve", str(ROOT / "spots" / f"{spot}.toml"),
            "--algo", "dcfr", "--target", TARGETS[spot], "--out", str(out), *extra]  # fmt: skip
    log = folder / f"{spot}.log"
    with open(log, "w+b") as stdout, open(log.with_suffix(".err"), "w+b") as stderr:
        started = time.perf_counter()
        child = subprocess.Popen(argv, stdout=stdout, stderr=stderr, cwd=ROOT)
        # the child's own CPU time and peak resident set (RUSAGE_CHILDREN would be a running
        # maximum over every child)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        lines, errors = stdout.read().decode(), stderr.read().decode()
    if child.returncode != 0:
        raise SystemExit(f"pokertui solve {spot} failed:\n{errors[-2000:]}")
    said = " ".join((lines + errors).split())  # what the command prints for people
    found = [re.search(pattern, said) for pattern in SAID]
    if not all(found):
        raise SystemExit(f"pokertui solve {spot}: unexpected output:\n{said[-2000:]}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
        "file_mb": out.stat().st_size / 1e6,
        "iterations": int(found[0].group(1).replace(",", "")),  # type: ignore[union-attr]
        "pot_percent": float(found[1].group(1)),  # type: ignore[union-attr]
        "bits": int(found[2].group(1)),  # type: ignore[union-attr]
        "load": os.getloadavg()[0],
    }


SAID = (
    r"wrote \S+: ([\d,]+) iterations",
    r"exploitability ([\d.eE+-]+)% of the pot",
    r"quantised to (\d+) bits",
)
"""The iterations, the file's exploitability and its bits in the command's closing lines."""


def report(spot: str, runs: list[dict], label: str) -> None:
    wall = statistics.median(r["wall"] for r in runs)
    peak = statistics.median(r["peak_mb"] for r in runs)
    size = statistics.median(r["file_mb"] for r in runs)
    share = statistics.median(r["cpu"] / r["wall"] / CORES for r in runs)
    print(
        f"\n{spot} to {TARGETS[spot]} ({label}; {len(runs)} run(s), load average "
        f"{min(r['load'] for r in runs):.1f}-{max(r['load'] for r in runs):.1f})"
    )
    for r in runs:
        print(
            f"  run: {r['wall']:7.1f} s wall, {r['cpu']:7.1f} s CPU, {r['peak_mb']:6.0f} MB, "
            f"file {r['file_mb']:5.1f} MB ({r['bits']} bits), {r['iterations']} iterations, "
            f"{r['pot_percent']:.3f}% of the pot"
        )
    goal = FILE_GOAL_MB.get(spot)
    print(
        f"  median: {wall:.1f} s wall, {peak:,.0f} MB peak, file {size:.1f} MB"
        + (f" (goal {goal:.0f} MB)" if goal else "")
        + f", {100 * share:.0f}% of {CORES} cores"
    )
    print(f"  {'against':40s} {'seconds':>8s} {'x':>6s} {'peak MB':>8s} {'x':>6s}")
    for who, seconds, megabytes in PEERS[spot]:
        print(
            f"  {who:40s} {seconds:8.1f} {wall / seconds:6.2f} {megabytes:8,.0f} "
            f"{peak / megabytes:6.2f}"
        )


def profile_passes(repeats: int) -> None:
    """The compiled walk's passes on the benchmark flop, in the default command's state."""
    sys.path.insert(0, str(ROOT))
    from solvers.algorithms.base import make_solver  # noqa: PLC0415
    from solvers.algorithms.full_width import FullWidthCFR  # noqa: PLC0415
    from solvers.exact.compiled_walk import MODE_RESPOND, MODE_VALUES  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415
    from solvers.runs.solve_run import LEAN_PRECISION  # noqa: PLC0415

    game = load_game(str(ROOT / "spots" / "flop.toml"))
    solver = make_solver(game, "dcfr", precision=LEAN_PRECISION)
    assert isinstance(solver, FullWidthCFR) and solver.compiled is not None
    solver.run(iterations=3)  # kernels loaded, strategies no longer uniform
    walk = solver.compiled
    plan = walk.plan
    walked = int((plan.inner_index >= 0).sum() + (plan.terminal_index >= 0).sum())
    hands = max(plan.n_hands)
    sources = solver.output_sources()
    current = [solver._source(p) for p in (0, 1)]

    def timed(run) -> tuple[float, float]:
        walls, shares = [], []
        for _ in range(repeats):
            cpu, wall = time.process_time(), time.perf_counter()
            run()
            wall = time.perf_counter() - wall
            walls.append(wall)
            shares.append((time.process_time() - cpu) / wall / CORES)
        return statistics.median(walls), statistics.median(shares)

    rows = [
        ("CFR iteration (both players' CFR passes)", lambda: solver.run(iterations=1), 2),
        (
            "CFR pass of one player (reach, values, update)",
            lambda: solver._compiled_update(0, solver.iterations + 1),
            1,
        ),
        (
            "value pass of one player (reach, values)",
            lambda: walk.root_values(0, current, MODE_VALUES),
            1,
        ),
        ("best response of one player", lambda: walk.root_values(0, sources, MODE_RESPOND), 1),
        ("two-pass walk: reach of both players alone", lambda: walk.reach_down(current), 1),
        ("exact check (two best responses, game value)", solver._measure, 3),
    ]
    print(
        f"\nflop passes ({LEAN_PRECISION}-bit state, {walked:,} walked nodes x {hands} hands, "
        f"{CORES} cores, load average {os.getloadavg()[0]:.1f}; medians of {repeats})"
    )
    print(f"  {'pass':50s} {'ms':>8s} {'ns/node-hand':>13s} {'cores used':>11s}")
    for name, run, passes in rows:
        wall, share = timed(run)
        per_cell = 1e9 * wall / passes / (walked * hands)
        print(f"  {name:50s} {1000 * wall:8.0f} {per_cell:13.2f} {100 * share:10.0f}%")
    walk.release()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", nargs="+", default=["turn", "flop"], choices=list(TARGETS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--schedule",
        action="store_true",
        help="also run postflop-solver's DCFR schedule (beta 0.5, gamma 3)",
    )
    parser.add_argument("--whole", action="store_true",
                        help="also run --opt restart=0 (DCFR's average never restarted)")
    parser.add_argument("--passes", action="store_true", help="profile the flop's passes")
    parser.add_argument("--repeats", type=int, default=3, help="timings per pass (--passes)")
    args = parser.parse_args()
    if args.passes:
        profile_passes(args.repeats)
        return
    with tempfile.TemporaryDirectory() as folder:
        for spot in args.spots:
            variants: list[tuple[str, list[str]]] = [("the default command", [])]
            if args.whole:
                variants.append(("--opt restart=0", ["--opt", "restart=0"]))
            if args.schedule:
                variants.append(
                    ("--opt beta=0.5 --opt gamma=3", ["--opt", "beta=0.5", "--opt", "gamma=3"])
                )
            for label, extra in variants:
                runs = [run_command(spot, Path(folder), extra) for _ in range(args.runs)]
                report(spot, runs, label)


if __name__ == "__main__":
    main()
