"""``pokertui solve GAME --algo NAME [--opt k=v ...] --iterations/--seconds/--target --out F``.

Everything is checked before the progress bar appears: the game, the algorithm and its options,
the stopping rules and the output paths. ``--algo ?`` lists every algorithm with its options.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
from pathlib import Path
from typing import Any

from pokertui.commands.arguments import bounded_float, bounded_int, seed
from solvers.algorithms.registry import ALGORITHM_NAMES, describe_algorithms, get_algorithm
from solvers.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="run a solver and write a strategy file",
        description="Run a solver on GAME until a stopping rule, writing a strategy file.",
    )
    parser.add_argument("game", help="game spec, e.g. leduc or 'kuhn(cards=8)'")
    parser.add_argument(
        "--algo", required=True, help=f"one of: {', '.join(ALGORITHM_NAMES)}; '?' lists options"
    )
    parser.add_argument(
        "--opt",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="solver option, repeatable (e.g. --opt alpha=1.5); see --algo ?",
    )
    parser.add_argument(
        "--iterations", type=bounded_int(1, 10**12), help="stop after this many iterations in all"
    )
    parser.add_argument(
        "--seconds", type=bounded_float(0, 1e8, open_low=True), help="stop after this much time"
    )
    parser.add_argument(
        "--target",
        help="stop at this exploitability: chips, or percent of the pot as 0.3%%; the written "
        "file meets it",
    )
    parser.add_argument(
        "--max-memory",
        type=bounded_float(0, 1e9, open_low=True),
        metavar="MB",
        help="refuse a hold'em tree whose solve needs more (default: what the machine can spare)",
    )
    parser.add_argument("--seed", type=seed, help="seed for sampling solvers")
    parser.add_argument(
        "--lock",
        metavar="LOCK.json",
        help="partial readable strategy file whose nodes stay fixed (full-width CFR family)",
    )
    parser.add_argument("--out", help="strategy file to write (atomically); required")
    parser.add_argument("--checkpoint", help="checkpoint path (default: OUT.ckpt.npz)")
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    parser.add_argument(
        "--every",
        type=bounded_float(0, 86_400),
        default=0.5,
        help="seconds between progress reports (default 0.5)",
    )
    parser.add_argument(
        "--checkpoint-every",
        type=bounded_float(0, 1e7, open_low=True),
        default=60.0,
        metavar="SECONDS",
        help="write the checkpoint this often while solving (default 60)",
    )
    parser.add_argument(
        "--json", action="store_true", help="JSON lines on stdout; the last line is the result"
    )
    parser.set_defaults(handler=run)


class _StopFlag:
    """Set by SIGINT/SIGTERM; the run checks it between chunks."""

    def __init__(self) -> None:
        self.stop = False

    def __call__(self, *_: Any) -> None:
        self.stop = True


def build_spec(args: argparse.Namespace):
    """The checked ``RunSpec`` of the parsed arguments (``InputError`` for any mistake)."""
    from solvers.errors import InputError  # noqa: PLC0415
    from solvers.runs.solve_run import RunSpec, parse_options  # noqa: PLC0415

    algorithm = get_algorithm(args.algo)
    if not args.out:
        raise InputError("give --out FILE, the strategy file to write")
    options = parse_options(args.opt, algorithm.name)
    if args.seed is not None:
        if algorithm.option("seed") is None:
            raise InputError(f"--seed: {algorithm.name} does not use a random seed")
        options["seed"] = args.seed
    target, target_pot_percent = _parse_target(args.target)
    return RunSpec(
        game=args.game,
        algo=algorithm.name,
        out=Path(args.out),
        options=options,
        iterations=args.iterations,
        seconds=args.seconds,
        target=target,
        target_pot_percent=target_pot_percent,
        checkpoint=Path(args.checkpoint) if args.checkpoint else None,
        report_seconds=args.every,
        checkpoint_seconds=args.checkpoint_every,
        lock=Path(args.lock) if args.lock else None,
    )


def run(args: argparse.Namespace) -> int:
    if args.algo.strip() in ("?", "help", "list"):
        print(describe_algorithms())
        return 0
    from solvers.games.hunl.spec import is_hunl_spec  # noqa: PLC0415

    if is_hunl_spec(args.game):
        return _solve_blueprint(args)
    from solvers.runs.solve_run import execute, prepare  # noqa: PLC0415

    spec = build_spec(args)
    from solvers.games.holdem.memory import set_memory_limit  # noqa: PLC0415

    if args.max_memory is not None:
        set_memory_limit(int(args.max_memory * 2**20))
    try:
        prepared = prepare(spec, args.resume)  # every mistake fails here, before any progress
        flag = _StopFlag()
        previous = {sig: signal.signal(sig, flag) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            if args.json:
                final = execute(spec, _print_json_line, lambda: flag.stop, args.resume, prepared)
            else:
                final = _run_for_people(spec, flag, args.resume, prepared)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
    finally:
        set_memory_limit(None)
    if final["event"] == "interrupted":
        sys.stderr.write(
            f"pokertui: interrupted after {final['iterations']} iterations; checkpoint saved to "
            f"{final['checkpoint']} (continue with --resume)\n"
        )
        return 130
    return 0


def _parse_target(text: str | None) -> tuple[float | None, float | None]:
    """``--target``: chips (``0.05``) or percent of the starting pot (``0.3%``)."""
    if text is None:
        return None, None
    raw = text.strip()
    try:
        value = float(raw.removesuffix("%")) if len(raw) <= 40 else float("nan")
    except ValueError:
        value = float("nan")
    if not math.isfinite(value):
        raise InputError(f"--target is chips (0.05) or percent of the pot (0.3%), not {text!r}")
    if not 0 < value <= 1e12:
        raise InputError("--target must be positive (and at most 1e12)")
    return (None, value) if raw.endswith("%") else (value, None)


def _print_json_line(event: dict[str, Any]) -> None:
    from pokertui.commands.output import jsonable  # noqa: PLC0415

    sys.stdout.write(json.dumps(jsonable(event)) + "\n")
    sys.stdout.flush()


def _run_for_people(spec, flag: _StopFlag, resume: bool, prepared) -> dict[str, Any]:
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    from solvers.runs.solve_run import execute  # noqa: PLC0415

    console = Console(stderr=True)
    total = spec.iterations
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f} it"),
        TextColumn("expl {task.fields[expl]}"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(f"{spec.algo} on {spec.game}", total=total, expl="-")

        def emit(event: dict[str, Any]) -> None:
            if event["event"] == "started" and "memory_mb" in event:
                progress.console.print(f"estimated memory: {event['memory_mb']:,.0f} MB")
            if "iterations" in event and "exploitability" in event:
                progress.update(
                    task, completed=event["iterations"], expl=f"{event['exploitability']:.3g}"
                )
            if event["event"] in ("progress", "resumed"):
                progress.console.print(
                    f"{event['iterations']:>10,} it {event['seconds']:9.2f} s   "
                    f"exploitability {event['exploitability']:<11.6g} "
                    f"value {event['game_value']:+.6f}",
                    highlight=False,
                )

        final = execute(spec, emit, lambda: flag.stop, resume, prepared)
    if final["event"] == "done":
        console.print(
            f"wrote {final['out']}: {final['iterations']:,} iterations in {final['seconds']:.2f} s "
            f"({final['ms_per_iteration']:.3f} ms/it), exploitability "
            f"{final['exploitability']:.3g}, game value {final['game_value']:+.6f}"
        )
        if "ev_oop" in final:
            console.print(
                f"exploitability {final['exploitability_pot_percent']:.3g}% of the pot; "
                f"EV OOP {final['ev_oop']:.3f}, EV IP {final['ev_ip']:.3f}; "
                f"file {final['file_bytes'] / 1e6:.2f} MB"
            )
        if final.get("precision", 6) != 6 or final.get("target_missed_by_rounding"):
            missed = (
                " (rounding misses the target)" if final.get("target_missed_by_rounding") else ""
            )
            console.print(
                f"  rounded to {final['precision']} decimals to meet the target; rounding added "
                f"{final['rounding_added']:.3g} to {final['exploitability_unrounded']:.3g}{missed}"
            )
    return final


BLUEPRINT_ALGO = "mccfr"


def _solve_blueprint(args: argparse.Namespace) -> int:
    """``pokertui solve 'hunl(...)' --algo mccfr``: train a full-game blueprint (JSON lines with
    --json, as the app's launcher reads them); --resume continues from the checkpoint."""
    from solvers.games.hunl.spec import parse_hunl_spec  # noqa: PLC0415
    from solvers.runs.blueprint_build import spec_from_options, train  # noqa: PLC0415

    config = parse_hunl_spec(args.game)
    if args.algo.strip().lower() != BLUEPRINT_ALGO:
        raise InputError(f"the full game is solved by --algo {BLUEPRINT_ALGO} (linear MCCFR with "
                         f"pruning over the abstract game), not {args.algo!r}")  # fmt: skip
    if (config.small_blind, config.big_blind) != (50, 100):
        raise InputError("the blueprint solver plays blinds of 50/100 chips (the ACPC game)")
    if args.target is not None or args.lock is not None:
        raise InputError("the full game's exploitability cannot be measured exactly: stop it "
                         "with --iterations or --seconds (no --target, no --lock)")  # fmt: skip
    if args.iterations is None and args.seconds is None:
        raise InputError("give a stopping rule: --iterations or --seconds")
    if not args.out:
        raise InputError("give --out FILE, the blueprint file to write (.npz)")
    options: dict[str, str] = {}
    for pair in args.opt:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InputError(f"--opt takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    spec = spec_from_options(config.stack_bb, options, args.seed)
    out = Path(args.out)
    checkpoint = Path(args.checkpoint) if args.checkpoint else out.with_name(out.name + ".ckpt.npz")
    if args.resume and not checkpoint.exists():
        raise InputError(f"--resume: there is no checkpoint {checkpoint}")
    flag = _StopFlag()
    previous = {sig: signal.signal(sig, flag) for sig in (signal.SIGINT, signal.SIGTERM)}

    def emit(event: dict[str, Any]) -> None:
        if args.json:
            _print_json_line(event)
        elif event["event"] in ("progress", "resumed", "done", "interrupted"):
            sys.stderr.write(json.dumps(event) + "\n")

    try:
        train(spec, out, checkpoint, iterations=args.iterations, seconds=args.seconds,
              checkpoint_seconds=args.checkpoint_every, report_seconds=max(args.every, 0.5),
              emit=emit, should_stop=lambda: flag.stop, resume=args.resume)  # fmt: skip
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 130 if flag.stop else 0
