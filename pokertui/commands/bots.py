"""``pokertui build-bots``: regenerate the shipped strategy files and their README table."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pokertui.commands.output import add_json_flag, print_json
from solvers.errors import InputError

README_HEAD = """# Shipped strategies

The bots that pokertui plays. Each file is an exact equilibrium from the sequence-form LP,
rounded to 6 decimals; its header records the exploitability of the rounded strategy, measured
by exact best response, and `tests/test_shipped_strategies.py` recomputes it. Regenerate all of
them with:

```bash
pokertui build-bots --out strategies
```

"""


def default_strategies_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "strategies"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("build-bots", help="regenerate the shipped strategy files")
    parser.add_argument("--out", default=None, help="folder to write (default: strategies/)")
    parser.add_argument("--only", nargs="*", help="file names to rebuild (default: all)")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.runs.shipped import SHIPPED_BOTS, build_bot, readme_table  # noqa: PLC0415 - slow

    out_dir = Path(args.out) if args.out else default_strategies_dir()
    if not out_dir.is_dir():
        raise InputError(f"{out_dir} is not a folder")
    wanted = set(args.only or [bot.filename for bot in SHIPPED_BOTS])
    unknown = wanted - {bot.filename for bot in SHIPPED_BOTS}
    if unknown:
        raise InputError(f"unknown bot file(s): {', '.join(sorted(unknown))}")
    rows = []
    for bot in SHIPPED_BOTS:
        if bot.filename not in wanted:
            continue
        saved, seconds = build_bot(bot, out_dir)
        row = {
            "file": bot.filename,
            "game": saved.game.spec_string(),
            "exploitability": saved.measured.exploitability,
            "bound": bot.max_exploitability,
            "seconds": seconds,
        }
        rows.append(row)
        if not args.json:
            print(
                f"{bot.filename:24s} exploitability {row['exploitability']:.2e}  ({seconds:.1f} s)"
            )
    (out_dir / "README.md").write_text(README_HEAD + readme_table(out_dir) + "\n")
    if args.json:
        print_json({"out": str(out_dir), "bots": rows})
    return 0
