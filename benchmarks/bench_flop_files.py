"""Flop-sized strategy files (issue 21): size, write, validate, show and exploit, old against new.

The benchmark flop (``spots/flop.toml``, Qs Jh 2h, 75%/a) is solved once, outside this script
(it takes minutes and 1.8 GB): ``pokertui solve spots/flop.toml --algo dcfr --target 0.5%
--out DIR/flop.json.gz``, which also leaves ``DIR/flop.json.gz.ckpt.npz``. From the checkpoint
this script writes the binary file (``--write``: a fresh process resumes the solver state and
times only what writing a ``.ptsb`` adds after a solve: the live-hand pass, quantising,
decoding, the exact measure of the decoded profile and the atomic write), then times every
command as a fresh process and reports the median wall time and the peak resident set of the
child (``os.wait4``), side by side:

* ``new``: this checkout on the binary file;
* ``old``: ``--old PATH``, another checkout (main before this change) on the JSON gzip file,
  once (``show --node ''`` took 3 minutes and 11 GB there);
* ``json``: this checkout on the JSON gzip file (``--json-too``), once.

Targets (issue 21): file at most 60 MB written in at most 10 s; ``show --node ''`` at most 5 s
and 1.5 GB; ``exploit`` at most 30 s and 2 GB.

Run: ``python benchmarks/bench_flop_files.py --data DIR [--write] [--old /work/main]
[--json-too] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from benchmarks._timing import print_rows  # noqa: E402

WRITE = """
import sys, time
from pathlib import Path
from solvers.runs.request import RunRequest
from solvers.runs.solve_run import _solver_info, _write_binary, prepare
data = Path(sys.argv[1])
spec = RunRequest(game=str(Path(sys.argv[2])), algo="dcfr", out=data / "flop.ptsb",
                  checkpoint=data / "flop.json.gz.ckpt.npz", iterations=10**9)
prepared = prepare(spec, resume=True)
solver = prepared.solver
unrounded = solver.metrics().exploitability
info = _solver_info(spec, solver)
compact = solver.compiled_output(release=True)
started = time.perf_counter()
written = _write_binary(spec, prepared.game, solver, compact, info, unrounded, None)
print("SECONDS", time.perf_counter() - started, written["exploitability"],
      written["exploitability_unrounded"])
"""


def timed(argv: list[str], cwd: Path, repeats: int, env=None) -> tuple[float, float, str]:
    """Medians of wall seconds and peak MB over ``repeats`` fresh processes, and the output."""
    runs = [_measured(argv, cwd, env) for _ in range(repeats)]
    return (
        statistics.median(r[0] for r in runs),
        statistics.median(r[1] for r in runs),
        runs[-1][2],
    )


def _measured(argv, cwd, env):
    """Wall seconds, the child's own peak RSS in MB (``os.wait4``) and its stdout."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)  # fmt: skip
    out = child.stdout.read()  # type: ignore[union-attr]
    err = child.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {err.decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, out.decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="folder with flop.json.gz")
    parser.add_argument("--spot", type=Path, default=HERE / "spots" / "flop.toml")
    parser.add_argument("--write", action="store_true", help="(re)write flop.ptsb, timed")
    parser.add_argument("--old", type=Path, help="another checkout, run on the JSON file")
    parser.add_argument("--json-too", action="store_true", help="this checkout on the JSON")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    data = args.data.resolve()
    old_file, new_file = data / "flop.json.gz", data / "flop.ptsb"
    rows = []
    if args.write:
        seconds, peak, out = _measured(
            [sys.executable, "-c", WRITE, str(data), str(args.spot.resolve())], HERE, None
        )
        fields = next(line for line in out.splitlines() if line.startswith("SECONDS")).split()
        rows.append({"what": "write .ptsb after a solve", "new s": float(fields[1]),
                     "new MB": peak})  # fmt: skip  (the peak includes resuming the solver)
        print(f"decoded file {float(fields[2]):.5f} chips, float {float(fields[3]):.5f} chips")
    rows.append({"what": "file size", "new MB": new_file.stat().st_size / 1e6,
                 "old MB": old_file.stat().st_size / 1e6})  # fmt: skip
    commands = {
        "validate": ["validate"],
        "show --node ''": ["show", "--node", ""],
        "exploit": ["exploit", "--json"],
    }
    checkouts = [("new", HERE, new_file, args.repeats)]
    if args.json_too:
        checkouts.append(("json", HERE, old_file, 1))
    if args.old:
        checkouts.append(("old", args.old.resolve(), old_file, 1))
    for name, argv in commands.items():
        row: dict = {"what": name}
        for label, root, path, repeats in checkouts:
            if label != "new" and name == "validate":
                continue  # the JSON's validate streams a GB of text: not what is compared
            env = {**os.environ, "PYTHONPATH": str(root)}
            full = [sys.executable, "-m", "pokertui.cli", argv[0], str(path), *argv[1:]]
            seconds, peak, _ = timed(full, root, repeats, env)
            row[f"{label} s"] = seconds
            row[f"{label} MB"] = peak
            print(f"{name:16} {label:5} {seconds:8.1f} s {peak:8.0f} MB", flush=True)
        if "old s" in row:
            row["old/new s"] = row["old s"] / row["new s"]
        rows.append(row)
    columns = ["what"] + [f"{label} {unit}" for label, *_ in checkouts for unit in ("s", "MB")]
    columns += ["old/new s"] if args.old else []
    table = [{c: row.get(c, "") for c in columns} for row in rows]
    print_rows("Benchmark flop files (medians of fresh processes; old and json once)", table)


if __name__ == "__main__":
    main()
