"""``pokertui pool CHECKPOINT... [--against CHECKPOINT...]``: the seeds of one LBR or match
run, each kept in its checkpoint file, as one figure; ``--against`` pairs them deal by deal with
another bot's runs of the same seeds (``solvers/reports/pooled.py``).
"""

from __future__ import annotations

import argparse
from typing import Any

from pokertui.commands.output import add_json_flag, print_json

UNIT_TEXT = {"mbb_per_hand": "mbb a hand", "bb_per_100": "bb/100"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "pool",
        help="one figure from the checkpoints of several seeds of an lbr or match run",
        description="Pools the finished deals of checkpoint files (--checkpoint of pokertui "
        "lbr and pokertui match) that name one run apart from its seed, and with --against "
        "pairs them deal by deal with another bot's checkpoints of the same seeds.",
    )
    parser.add_argument("checkpoints", nargs="+", metavar="CHECKPOINT",
                        help="checkpoint files of one run, one seed each")  # fmt: skip
    parser.add_argument("--against", nargs="+", metavar="CHECKPOINT",
                        help="another bot's checkpoints of the same seeds: the difference "
                        "deal by deal")  # fmt: skip
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.reports.pooled import paired, pool, read_runs  # noqa: PLC0415

    runs = read_runs(args.checkpoints)
    result: dict[str, Any] = {"pooled": pool(runs)}
    if args.against:
        result["paired"] = paired(runs, read_runs(args.against))
    if args.json:
        print_json(result)
        return 0
    print("\n".join(pool_lines(result)))
    return 0


def _figure(figure: dict[str, Any]) -> str:
    return f"{figure['value']:+,.0f} ± {figure['ci95']:,.0f}"


def pool_lines(result: dict[str, Any]) -> list[str]:
    pooled = result["pooled"]
    unit = UNIT_TEXT[pooled["unit"]]
    run = pooled["run"]
    who = run.get("bot", "?") + (f" against {run['opponent']}" if "opponent" in run else "")
    what = f"LBR {run.get('action_set')} on {'/'.join(run.get('streets', []))}" \
        if run.get("command") == "lbr" else "match"  # fmt: skip
    seeds = ", ".join(f"{s['seed']} ({s['deals']})" for s in pooled["seeds"])
    lines = [f"{what}, {who}: seeds (finished deals) {seeds}",
             f"{pooled['hands']:,} hands ({pooled['deals']:,} duplicate deals): "
             f"{_figure(pooled)} {unit} (95% CI); seat 1 "
             f"{pooled['seat_values'][0]:+,.0f} ± {pooled['seat_ci95'][0]:,.0f}, seat 2 "
             f"{pooled['seat_values'][1]:+,.0f} ± {pooled['seat_ci95'][1]:,.0f}"]  # fmt: skip
    if "plain" in pooled:
        lines.append(f"with control variates ({', '.join(run['control_variates'])}); without "
                     f"them, on the same hands: {_figure(pooled['plain'])} {unit}")  # fmt: skip
    if len(pooled["seeds"]) > 1:
        for one in pooled["seeds"]:
            if "value" in one:
                plain = f" (plain {_figure(one['plain'])})" if "plain" in one else ""
                lines.append(f"  seed {one['seed']}: {2 * one['deals']:,} hands, "
                             f"{_figure(one)}{plain}")  # fmt: skip
    if "paired" in result:
        pair = result["paired"]
        seeds = ", ".join(map(str, pair["seeds"]))
        lines.append(f"less {pair['against']} on the same deals ({pair['hands']:,} hands of "
                     f"seeds {seeds}): {_figure(pair)} {unit}")  # fmt: skip
    return lines
