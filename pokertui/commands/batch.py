"""``pokertui batch``: many independent solves into one folder, and aggregate reports over it.

    pokertui batch JOBFILE [--out DIR]                  # jobs of a TOML job file
    pokertui batch flops SPOT.toml --flops 25 --out DIR --algo dcfr --target 1%
    pokertui batch report DIR [--texture monotone] [--high AK] [--sort ev_oop] [--csv F]

Jobs run on ``--backend local`` (a process pool, the default) or ``--backend ray``
(``--address HOST:PORT`` joins a cluster). A re-run skips finished jobs, so a killed batch
resumes; a failed job is retried once, then reported, and the others go on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pokertui.commands.arguments import bounded_int
from pokertui.commands.interrupt import sigterm_as_interrupt
from pokertui.commands.output import print_json
from solvers.errors import InputError

SUBJECTS = ("flops", "report")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="run many solves into a folder (flop libraries, job files); aggregate reports",
        description="Run a TOML job file or a flop library (batch flops SPOT.toml), or print "
        "the aggregate report of a batch folder (batch report DIR).",
    )
    parser.add_argument("what", metavar="JOBFILE|flops|report", help="a job file, or a subject")
    parser.add_argument("path", nargs="?", help="SPOT.toml after 'flops', DIR after 'report'")
    run = parser.add_argument_group("running")
    run.add_argument("--out", help="batch folder (default: the job file's 'out')")
    run.add_argument("--flops", default="25", help="all, 184, 95, 49, 25 or a file of flops")
    run.add_argument("--algo", default="dcfr", help="solver for 'flops' (default dcfr)")
    run.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE",
                     help="solver option for 'flops', repeatable")  # fmt: skip
    run.add_argument("--iterations", type=bounded_int(1, 10**12), help="stop after these")
    run.add_argument("--seconds", type=float, help="stop after this long per job")
    run.add_argument("--target", help="stop at this exploitability: chips or 0.5%% of the pot")
    run.add_argument("--backend", default="local", help="local (process pool) or ray")
    run.add_argument("--address", help="Ray cluster to join, HOST:PORT (default: start one)")
    run.add_argument("--workers", type=bounded_int(1, 1024), help="processes (default: cores)")
    report = parser.add_argument_group("report")
    report.add_argument("--texture", help="trips, paired, monotone, two-tone, rainbow, connected")
    report.add_argument("--high", help="top card ranks, e.g. A or AKQ")
    report.add_argument("--sort", default="name", help="name, weight, ev_oop, equity_oop, ...")
    report.add_argument("--desc", action="store_true", help="sort from the largest")
    report.add_argument("--csv", metavar="FILE", help="also write the rows as CSV ('-': stdout)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    if args.what == "report":
        return _report(args)
    from solvers.batch.jobs import load_job_file, stop_rule  # noqa: PLC0415

    if args.what == "flops":
        from solvers.algorithms.registry import parse_cli_options  # noqa: PLC0415
        from solvers.batch.flop_jobs import flop_jobs  # noqa: PLC0415
        from solvers.cards.flops import parse_flop_choice  # noqa: PLC0415

        if not args.path:
            raise InputError("batch flops needs a flop spot: pokertui batch flops SPOT.toml")
        if not args.out:
            raise InputError("batch flops needs --out DIR, the batch folder")
        flops = parse_flop_choice(args.flops)
        stop = stop_rule(args.iterations, args.seconds, args.target)
        jobs = flop_jobs(args.path, flops, args.algo, stop, parse_cli_options(args.algo, args.opt))
        folder = Path(args.out)
        about = {"kind": "flops", "spot": str(Path(args.path).resolve()), "flops": args.flops,
                 "algo": args.algo, **stop.identity()}  # fmt: skip
    else:
        if args.path:
            raise InputError(f"unexpected {args.path!r}: give a job file, 'flops' or 'report'")
        jobs, named = load_job_file(args.what)
        if args.out:
            folder = Path(args.out)
        elif named is not None:
            folder = named
        else:  # no --out (or an empty one) and no 'out' in the file
            raise InputError("give --out DIR or 'out' in the job file")
        about = {"kind": "jobs", "jobfile": str(Path(args.what).resolve())}
    return _run(args, jobs, folder, about)


def _run(args: argparse.Namespace, jobs, folder, about) -> int:
    from solvers.batch.runner import run_batch  # noqa: PLC0415

    total = len(jobs)
    count = [0]

    def progress(name: str, outcome) -> None:
        count[0] += 1
        if args.json:
            return
        if outcome is None:
            state = "finished before, skipped"
        elif outcome.ok:
            result = outcome.value["result"]
            gap = result.get("exploitability_pot_percent")
            gap_text = f"{gap:.3g}% of the pot" if gap is not None else (
                f"{result['exploitability']:.3g}")  # fmt: skip
            state = f"done in {outcome.value['job_seconds']:.1f} s, exploitability {gap_text}"
        else:
            state = f"FAILED twice: {outcome.error}"
        sys.stderr.write(f"[{count[0]:>{len(str(total))}}/{total}] {name}: {state}\n")
        sys.stderr.flush()

    with sigterm_as_interrupt():  # stop the workers, not orphan them
        result = run_batch(jobs, folder, backend=args.backend, workers=args.workers,
                           address=args.address, about=about, progress=progress)  # fmt: skip
    if args.json:
        print_json({"folder": str(Path(folder).resolve()), **result.as_dict()})
    else:
        print(
            f"{len(result.done)} solved, {len(result.skipped)} skipped (finished before), "
            f"{len(result.failed)} failed in {result.seconds:.1f} s; folder {folder}"
        )
        for name, error in result.failed.items():
            print(f"  failed: {name}: {error}")
    return 1 if result.failed else 0


def _report(args: argparse.Namespace) -> int:
    from solvers.reports.aggregate import (  # noqa: PLC0415
        by_texture,
        load_batch,
        parse_high,
        row_dict,
        select,
        to_csv,
    )

    if not args.path:
        raise InputError("batch report needs a batch folder: pokertui batch report DIR")
    report = load_batch(args.path)
    rows = select(report.rows, args.texture, parse_high(args.high), args.sort, args.desc)
    groups = by_texture(rows)
    if args.csv:
        text = to_csv(rows)
        if args.csv == "-":
            sys.stdout.write(text)
            return 0
        from solvers.atomic import atomic_write_text  # noqa: PLC0415

        atomic_write_text(args.csv, text)
    if args.json:
        print_json({"folder": str(report.folder), "about": report.about,
                    "rows": [row_dict(r) for r in rows], "textures": groups,
                    "missing": report.missing})  # fmt: skip
        return 0
    from pokertui.commands.batch_view import print_report  # noqa: PLC0415

    print_report(report, rows, groups)
    return 0
