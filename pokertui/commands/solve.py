"""``pokertui solve GAME --algo NAME ... --out FILE``: one solver run in this process.

People get a progress bar and log lines on stderr; ``--json`` prints every progress event as a
JSON line on stdout, the last line being the final result, which is what the TUI follows. Ctrl-C
(SIGINT) or SIGTERM stops the run cleanly between chunks, writes a checkpoint and says where
it is; ``--resume`` continues from it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path
from typing import Any

from pokertui.runs import ALGORITHM_NAMES
from solvers.errors import InputError
from solvers.runs.solve_run import RunSpec, execute, parse_options


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="run a solver and write a strategy file",
        description="Run a solver on GAME until a stopping rule, writing a strategy file.",
    )
    parser.add_argument("game", help="game spec, e.g. leduc or 'kuhn(cards=8)'")
    parser.add_argument("--algo", required=True, help=f"one of: {', '.join(ALGORITHM_NAMES)}")
    parser.add_argument(
        "--opt",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="solver option, repeatable (e.g. --opt alpha=1.5)",
    )
    parser.add_argument("--iterations", type=int, help="stop after this many iterations in all")
    parser.add_argument("--seconds", type=float, help="stop after this much solving time")
    parser.add_argument(
        "--target", help="stop at this exploitability: chips, or percent of the pot as 0.3%%"
    )
    parser.add_argument(
        "--max-memory",
        type=float,
        metavar="MB",
        help="refuse a hold'em tree whose solve needs more (default: what the machine can spare)",
    )
    parser.add_argument("--seed", type=int, help="seed for sampling solvers")
    parser.add_argument(
        "--lock",
        metavar="LOCK.json",
        help="partial readable strategy file whose nodes stay fixed (full-width CFR family)",
    )
    parser.add_argument("--out", required=True, help="strategy file to write (atomically)")
    parser.add_argument("--checkpoint", help="checkpoint path (default: OUT.ckpt.npz)")
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    parser.add_argument(
        "--every", type=float, default=0.5, help="seconds between progress reports (default 0.5)"
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


def run(args: argparse.Namespace) -> int:
    options = parse_options(args.opt)
    if args.seed is not None:
        options["seed"] = args.seed
    target, target_pot_percent = _parse_target(args.target)
    if args.max_memory is not None and not args.max_memory > 0:
        raise InputError("--max-memory must be positive (megabytes)")
    spec = RunSpec(
        game=args.game,
        algo=args.algo,
        out=Path(args.out),
        options=options,
        iterations=args.iterations,
        seconds=args.seconds,
        target=target,
        target_pot_percent=target_pot_percent,
        checkpoint=Path(args.checkpoint) if args.checkpoint else None,
        report_seconds=args.every,
        lock=Path(args.lock) if args.lock else None,
    )
    from solvers.games.holdem.memory import set_memory_limit  # noqa: PLC0415

    flag = _StopFlag()
    previous = {sig: signal.signal(sig, flag) for sig in (signal.SIGINT, signal.SIGTERM)}
    if args.max_memory is not None:
        set_memory_limit(int(args.max_memory * 2**20))
    try:
        if args.json:
            final = execute(spec, _print_json_line, lambda: flag.stop, resume=args.resume)
        else:
            final = _run_for_people(spec, flag, args.resume)
    finally:
        set_memory_limit(None)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
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
        value = float(raw.removesuffix("%"))
    except ValueError:
        raise InputError(
            f"--target is chips (0.05) or percent of the pot (0.3%), not {text!r}"
        ) from None
    if not value > 0:
        raise InputError("--target must be positive")
    return (None, value) if raw.endswith("%") else (value, None)


def _print_json_line(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def _run_for_people(spec: RunSpec, flag: _StopFlag, resume: bool) -> dict[str, Any]:
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

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

        final = execute(spec, emit, lambda: flag.stop, resume=resume)
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
    return final
