"""``pokertui convert F.ptsb --to readable``: the streamed writer against the whole-document one.

Each run is a fresh process writing the readable JSON of ``--file`` (default the shipped
``strategies/srp_dry_turn.ptsb``, 134 MB of JSON) to a temporary folder:

* ``new``: the command itself, ``pokertui convert FILE --to readable --out OUT`` (ranges
  formatted in numpy a window of nodes at a time, streamed to an atomic write);
* ``old``: the writer convert used before, in one process: ``load_strategy``, ``to_document``
  (``format_range`` per range), ``dumps_document`` and ``atomic_write_text`` of the whole text.

Reported per path: the median wall seconds and CPU seconds of the child (``os.wait4``; on a
shared machine the CPU figure is the one core's work), MB/s of output on each, and the ratio.
The old path takes minutes: ``--old-repeats`` (default 1) is separate from ``--repeats``.
Target: the command finishes in under 10 s (at least 20 MB/s).

Run: ``python benchmarks/bench_convert.py [--file F.ptsb] [--repeats 3] [--old-repeats 1]
[--skip-old]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from benchmarks._timing import print_rows  # noqa: E402

OLD = """
import sys
from solvers.atomic import atomic_write_text
from solvers.strategy_file import dumps_document, load_strategy, to_document
loaded = load_strategy(sys.argv[1])
document = to_document(loaded.game, loaded.strategy, form="readable", solver=loaded.solver,
                       measured=loaded.measured, lbr=loaded.lbr)
atomic_write_text(sys.argv[2], dumps_document(document))
"""


def run_once(argv: list[str], out: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) of the child, and the output's bytes."""
    out.unlink(missing_ok=True)
    started = time.perf_counter()
    child = subprocess.Popen(argv, cwd=HERE, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime, out.stat().st_size


def measure(name: str, argv: list[str], out: Path, repeats: int) -> dict:
    runs = [run_once(argv, out) for _ in range(repeats)]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    size = runs[-1][2]
    return {
        "path": name,
        "runs": repeats,
        "MB": size / 1e6,
        "wall s": wall,
        "cpu s": cpu,
        "MB/s wall": size / 1e6 / wall,
        "MB/s cpu": size / 1e6 / cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(HERE / "strategies" / "srp_dry_turn.ptsb"))
    parser.add_argument("--repeats", type=int, default=3, help="runs of the new path")
    parser.add_argument("--old-repeats", type=int, default=1, help="runs of the old path")
    parser.add_argument("--skip-old", action="store_true", help="time the new path only")
    args = parser.parse_args()
    source = str(Path(args.file).resolve())
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "readable.json"
        new = [sys.executable, "-m", "pokertui", "convert", source, "--to", "readable",
               "--out", str(out)]  # fmt: skip
        rows.append(measure("new", new, out, args.repeats))
        if not args.skip_old:
            old = [sys.executable, "-c", OLD, source, str(out)]
            rows.append(measure("old", old, out, args.old_repeats))
    print_rows(f"convert {Path(source).name} --to readable (medians)", rows)
    if len(rows) == 2:
        print(f"\nold / new: {rows[1]['wall s'] / rows[0]['wall s']:.1f}x wall, "
              f"{rows[1]['cpu s'] / rows[0]['cpu s']:.1f}x cpu")  # fmt: skip


if __name__ == "__main__":
    main()
