"""``pokertui solve GAME --algo NAME [--opt k=v ...] --iterations/--seconds/--target --out F``.

The arguments are a ``RunRequest`` (``solvers/runs/request.py``), the same type the app writes
to its child processes' argv. Everything is checked before the progress bar appears: the game,
the algorithm and its options, the stopping rules and the output paths. ``--algo ?`` lists every
algorithm with its options.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from typing import Any

from pokertui.commands.output import gap_text, is_noise
from solvers.algorithms.registry import describe_algorithms
from solvers.runs.request import RunRequest, add_arguments


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="run a solver and write a strategy file",
        description="Run a solver on GAME until a stopping rule, writing a strategy file.",
    )
    add_arguments(parser)  # the run request's flags, shared with the app's child processes
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
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
    if args.algo.strip() in ("?", "help", "list"):
        print(describe_algorithms())
        return 0
    from solvers.games.hunl.spec import is_hunl_spec  # noqa: PLC0415
    from solvers.runs.solve_run import execute, json_warning, prepare  # noqa: PLC0415

    spec = RunRequest.from_args(args)
    if is_hunl_spec(spec.game) or spec.algo == BLUEPRINT_ALGO:
        return _solve_blueprint(spec, args)
    from solvers.games.holdem.memory import set_memory_limit  # noqa: PLC0415

    if spec.max_memory_mb is not None:
        set_memory_limit(int(spec.max_memory_mb * 2**20))
    try:
        prepared = prepare(spec, args.resume)  # every mistake fails here, before any progress
        warning = json_warning(spec, prepared.game)
        if warning is not None:  # a flop as JSON: hundreds of MB, minutes to open
            sys.stderr.write(warning + "\n")
            sys.stderr.flush()
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
        percent = final.get("exploitability_pot_percent")
        noise = is_noise(final["exploitability"]) if percent is None else is_noise(percent, 100)
        console.print(
            f"wrote {final['out']}: {final['iterations']:,} iterations in {final['seconds']:.2f} s "
            f"({final['ms_per_iteration']:.3f} ms/it), exploitability "
            f"{gap_text(final['exploitability'], noise)}, game value {final['game_value']:+.6f}"
        )
        if "ev_oop" in final:
            console.print(
                f"exploitability {gap_text(percent, noise)}% of the pot; "
                f"EV OOP {final['ev_oop']:.3f}, EV IP {final['ev_ip']:.3f}; "
                f"file {final['file_bytes'] / 1e6:.2f} MB"
            )
        missed = " (rounding misses the target)" if final.get("target_missed_by_rounding") else ""
        if final.get("bits"):  # a binary file: every probability quantised
            console.print(f"  quantised to {final['bits']} bits a probability, which added "
                          f"{_added(final)}{missed}")  # fmt: skip
        elif final.get("precision", 6) != 6 or final.get("target_missed_by_rounding"):
            console.print(f"  rounded to {final['precision']} decimals to meet the target; "
                          f"rounding added {_added(final)}{missed}")  # fmt: skip
    return final


def _added(final: dict) -> str:
    """What rounding or quantising added to the exploitability, and to what."""
    return f"{final['rounding_added']:.3g} to {final['exploitability_unrounded']:.3g}"


BLUEPRINT_ALGO = "mccfr"


def _solve_blueprint(request: RunRequest, args: argparse.Namespace) -> int:
    """``pokertui solve 'hunl(...)' --algo mccfr``: train a full-game blueprint (JSON lines with
    --json, as the app's launcher reads them); --resume continues from the checkpoint."""
    from solvers.errors import InputError  # noqa: PLC0415
    from solvers.games.hunl.spec import is_hunl_spec, parse_hunl_spec  # noqa: PLC0415
    from solvers.runs.blueprint_build import spec_from_options, train  # noqa: PLC0415

    if not is_hunl_spec(request.game):
        raise InputError(f"{BLUEPRINT_ALGO} solves the full game: give hunl(stack_bb=...), not "
                         f"{request.game[:60]!r}")  # fmt: skip
    config = parse_hunl_spec(request.game)
    if request.algo != BLUEPRINT_ALGO:
        raise InputError(f"the full game is solved by --algo {BLUEPRINT_ALGO} (linear MCCFR with "
                         f"pruning over the abstract game), not {request.algo!r}")  # fmt: skip
    if (config.small_blind, config.big_blind) != (50, 100):
        raise InputError("the blueprint solver plays blinds of 50/100 chips (the ACPC game)")
    if request.target is not None or request.lock is not None:
        raise InputError("the full game's exploitability cannot be measured exactly: stop it "
                         "with --iterations or --seconds (no --target, no --lock)")  # fmt: skip
    options = dict(request.options)
    seed = options.pop("seed", None)
    spec = spec_from_options(config.stack_bb, options, seed)
    request.check_paths()
    checkpoint = request.checkpoint_path
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
        train(spec, request.out, checkpoint, iterations=request.iterations,
              seconds=request.seconds, checkpoint_seconds=request.checkpoint_seconds,
              report_seconds=max(request.report_seconds, 0.5), emit=emit,
              should_stop=lambda: flag.stop, resume=args.resume)  # fmt: skip
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 130 if flag.stop else 0
