"""Build the preflop values table of a blueprint (``solvers/reports/blueprint_values.py``).

    python scripts/build_blueprint_values.py strategies/hunl_100bb.npz

writes ``strategies/hunl_100bb.values.npz`` (the live panel's preflop EVs). Each finished node
goes into ``<out>.partial.npz``; running the same command again resumes from it.
"""

from __future__ import annotations

import argparse
import sys
import time

from solvers.errors import InputError
from solvers.reports.blueprint_report import open_blueprint_view
from solvers.reports.blueprint_values import DEFAULTS, build_values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("blueprint")
    parser.add_argument("--out", help="default: beside the blueprint, NAME.values.npz")
    for name, value in DEFAULTS.items():
        parser.add_argument(f"--{name}", type=int, default=value, help=f"default {value}")
    args = parser.parse_args(argv)
    if min(args.flops, args.runouts, args.deals) < 1 or args.runouts > 1000:
        print(
            "build_blueprint_values: --flops, --deals and --runouts must be positive",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()

    def progress(message: str) -> None:
        print(f"[{time.monotonic() - started:7.1f} s] {message}", flush=True)

    try:
        view = open_blueprint_view(args.blueprint)
        out = build_values(
            view, args.out, args.flops, args.runouts, args.deals, args.seed, progress
        )
    except InputError as exc:
        print(f"build_blueprint_values: {exc}", file=sys.stderr)
        return 2
    progress(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
