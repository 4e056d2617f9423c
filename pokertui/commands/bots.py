"""``pokertui build-bots``: regenerate the shipped strategy files and their README table."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokertui.commands.arguments import bounded_float, bounded_int
from pokertui.commands.output import add_json_flag, print_json
from solvers.errors import InputError

if TYPE_CHECKING:
    from solvers.parallel.backends import WorkerPool

README_HEAD = """# Shipped strategies

The bots that pokertui plays. Each toy-game file is an exact equilibrium from the sequence-form
LP, rounded to 6 decimals; each hold'em spot file (`.json.gz`, or `.ptsb`, the binary form of
`docs/strategy_files.md`, for a turn with dense river sizes) is a DCFR solution to 0.3% of the
pot or better. Every header records the exploitability of the rounded (or quantised) strategy,
measured by exact best response, and `tests/test_shipped_strategies.py` and
`tests/test_shipped_spots.py` recompute it. Regenerate them with:

```bash
pokertui build-bots --out strategies               # everything (a few minutes)
pokertui build-bots --out strategies --part toys   # the LP-solved games only (about a minute)
pokertui build-bots --out strategies --part spots  # the hold'em river and turn spots
pokertui build-bots --out strategies --part hunl --only hunl_100bb.npz  # the full game (2 h)
```

Every hold'em file (push/fold and the spots) also records the exact local best response of the
four action sets `fc`, `fcpa`, `tree` and `56` (`docs/lbr.md`; `tests/test_shipped_lbr.py`
recomputes them). Each spot tree has an all-in and a pot-sized bet or raise for both players,
so `fc`, `fcpa` and `tree` stay within 1% of the pot everywhere. The turn spots ship with the
river spots' dense river sizes (`.ptsb`), and a turn spot's bot re-solves the turn after an
off-tree turn bet, through the resolve gadget (`solvers/agents/turn_resolve.py`), and the river
after any off-tree bet (`solvers/agents/river_resolve.py`); its figures are measured against
that bot. So `56`, whose 55 sizes no tree holds, stays within 1% of the pot too, on every file
(`docs/lbr.md`).

`hunl_100bb.npz` (and `hunl_200bb.npz`, the ACPC game, when built) is the full-game blueprint:
linear MCCFR over an abstract game, quantised to 255ths; its header records the abstractions,
iterations and LBR figures (`docs/blueprint.md`). Its exploitability cannot be computed exactly.
Every `.npz` and `.ptsb` header records a SHA-256 of the file's body, checked on load
(`pokertui add-digest` checks an older file and adds it). Beside each blueprint,
`hunl_*bb.values.npz` holds the preflop values that the live panel and `pokertui analyze` read;
after a blueprint is trained again, rebuild it with `python scripts/build_blueprint_values.py
strategies/hunl_100bb.npz` (about ten minutes a depth; until then preflop options read "later
play").

"""


def default_strategies_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "strategies"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("build-bots", help="regenerate the shipped strategy files")
    parser.add_argument("--out", default=None, help="folder to write (default: strategies/)")
    parser.add_argument("--only", nargs="*", help="file names to rebuild (default: all)")
    parser.add_argument(
        "--part",
        choices=("all", "toys", "spots", "hunl"),
        default="all",
        help="toys: the LP-solved games (about a minute); spots: the hold'em river and turn "
        "spots (minutes); all: both (default); hunl: the full-game blueprints (up to two hours "
        "each, resumed from their checkpoints when rerun)",
    )
    parser.add_argument(
        "--seconds",
        type=bounded_float(0, 1e7, open_low=True),
        help="hunl: training time per blueprint in this run (default: its budget)",
    )
    parser.add_argument(
        "--iterations",
        type=bounded_int(1, 10**12),
        help="hunl: stop after this many more iterations per blueprint",
    )
    parser.add_argument(
        "--export",
        action="store_true",
        help="hunl: only write each blueprint file from its checkpoint (no training)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="hunl: training processes (default 1: this process, its batches over every "
        "core); more train in rounds that merge the workers' regrets",
    )
    parser.add_argument(
        "--backend", default="local", help="hunl: local (processes on this machine) or ray"
    )
    parser.add_argument(
        "--address", help="hunl: Ray cluster to join, HOST:PORT (default: start one)"
    )
    parser.add_argument(
        "--round-iterations",
        type=int,
        help="hunl: iterations each worker runs per round before the merge (default: 8 batches)",
    )
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.runs.shipped import (  # noqa: PLC0415 - slow
        SHIPPED_BOTS,
        SHIPPED_SPOTS,
        ShippedBot,
        ShippedSpot,
        build_bot,
        build_spot,
        is_lbr_target,
        readme_table,
        record_lbr_figures,
    )

    out_dir = Path(args.out) if args.out else default_strategies_dir()
    if not out_dir.is_dir():
        raise InputError(f"{out_dir} is not a folder")
    if args.part == "hunl":
        return _build_blueprints(args, out_dir)
    training = ("--workers", "--address", "--round-iterations")
    given = [flag for flag in training if getattr(args, flag[2:].replace("-", "_")) is not None]
    if given or args.backend != "local":
        raise InputError(f"{(given or ['--backend'])[0]} trains the full game: use --part hunl")
    parts: dict[str, Sequence[ShippedBot | ShippedSpot]] = {
        "toys": SHIPPED_BOTS,
        "spots": SHIPPED_SPOTS,
    }
    everything: list[ShippedBot | ShippedSpot] = [*SHIPPED_BOTS, *SHIPPED_SPOTS]
    chosen = everything if args.part == "all" else parts[args.part]
    wanted = set(args.only or [bot.filename for bot in chosen])
    unknown = wanted - {bot.filename for bot in everything}
    if unknown:
        raise InputError(f"unknown bot file(s): {', '.join(sorted(unknown))}")
    rows = []
    for bot in everything:
        if bot.filename not in wanted:
            continue
        build = build_bot if bot in SHIPPED_BOTS else build_spot
        saved, seconds = build(bot, out_dir)  # type: ignore[arg-type]
        assert saved.measured is not None  # both builds measure what they save
        lbr = record_lbr_figures(out_dir / bot.filename) if is_lbr_target(bot.filename) else None
        row = {
            "file": bot.filename,
            "game": saved.game.spec_string(),
            "exploitability": saved.measured.exploitability,
            "bound": getattr(bot, "max_exploitability", None),
            "pot_percent": saved.measured.pot_percent,
            "seconds": seconds,
            "lbr": lbr,
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


def _build_blueprints(args: argparse.Namespace, out_dir: Path) -> int:
    """Train (or continue) each full-game blueprint, printing progress as JSON lines: in this
    process on one local worker, else in rounds on a pool of workers (local or Ray) kept for
    every blueprint of the run."""
    import os  # noqa: PLC0415

    from solvers.parallel.backends import WorkerPool, check_backend  # noqa: PLC0415
    from solvers.runs.blueprint_build import SHIPPED_BLUEPRINTS  # noqa: PLC0415 - slow

    known = {bot.filename: bot for bot in SHIPPED_BLUEPRINTS}
    wanted = args.only or list(known)
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise InputError(f"unknown blueprint(s): {', '.join(unknown)}; known: {', '.join(known)}")
    check_backend(args.backend, args.workers, args.address)
    if args.round_iterations is not None and not 1 <= args.round_iterations <= 10**9:
        raise InputError(f"--round-iterations must be from 1 to 10^9, not {args.round_iterations}")
    workers = args.workers or (1 if args.backend == "local" else os.cpu_count() or 1)
    pool = None
    if not args.export and (args.backend != "local" or workers > 1):
        pool = WorkerPool(args.backend, workers, args.address)  # one for every blueprint
    try:
        return _train_blueprints(args, out_dir, wanted, known, pool)
    finally:
        if pool is not None:
            pool.close()


def _train_blueprints(args: argparse.Namespace, out_dir: Path, wanted: list[str],
                      known: dict[str, Any], pool: WorkerPool | None) -> int:  # fmt: skip
    import json  # noqa: PLC0415
    import signal  # noqa: PLC0415

    from solvers.runs.blueprint_build import export_checkpoint, train  # noqa: PLC0415 - slow

    stop = {"now": False}

    def request_stop(signum: int, frame: Any) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    rows = []
    for name in wanted:
        bot = known[name]

        def emit(event: dict[str, Any], name: str = name) -> None:
            print(json.dumps({"file": name, **event}), flush=True)

        if args.export:
            trainer = export_checkpoint(bot.spec, out_dir / bot.checkpoint_name, out_dir / name)
            emit({"event": "exported", "iterations": trainer.iterations})
            rows.append({"file": name, "iterations": trainer.iterations})
            continue
        seconds = args.seconds if args.seconds is not None else bot.seconds
        trainer = train(
            bot.spec, out_dir / name, out_dir / bot.checkpoint_name,
            iterations=args.iterations, seconds=seconds, emit=emit,
            should_stop=lambda: stop["now"], round_iterations=args.round_iterations, pool=pool,
        )  # fmt: skip
        rows.append({"file": name, "iterations": trainer.iterations,
                     "seconds": trainer.elapsed_seconds})  # fmt: skip
        if stop["now"]:
            break
    if args.json:
        print_json({"out": str(out_dir), "blueprints": rows})
    return 0
