"""``pokertui show BLUEPRINT.npz [--node LINE] [--board CARDS]``: a full-game blueprint for study.

Without ``--node``: the header and the preflop decision nodes. At a preflop node: each action's
total and its 13x13 chart by hand class. At a later node: each bucket's frequencies on the
``--board`` given and the hands that bucket holds there. The numbers come from
``solvers/reports/blueprint_report.py``.
"""

from __future__ import annotations

import argparse
from typing import Any

from pokertui.commands.output import class_chart, print_json
from solvers.errors import InputError
from solvers.reports.blueprint_report import (
    BlueprintView,
    bucket_chart,
    bucket_payload,
    chart_payload,
    header_summary,
    node_list,
    open_blueprint_view,
    preflop_chart,
)


def run_blueprint_show(args: argparse.Namespace) -> int:
    view = open_blueprint_view(args.file)
    if args.node is None:
        if getattr(args, "board", None):
            raise InputError("--board goes with a flop, turn or river --node, e.g. 'r250c/'")
        payload = {**header_summary(view), "preflop": node_list(view)}
        if args.json:
            print_json(payload)
        else:
            _print_summary(view, payload)
        return 0
    info = view.node(args.node)
    if info.street == 0:
        if getattr(args, "board", None):
            bucket_chart(view, info, args.board)  # raises: a preflop node takes no board
        chart = preflop_chart(view, info)
        payload = chart_payload(view, chart)
        if args.json:
            print_json(payload)
        else:
            _print_chart(payload)
        return 0
    payload = bucket_payload(bucket_chart(view, info, getattr(args, "board", None)))
    if args.json:
        print_json(payload)
    else:
        _print_buckets(payload)
    return 0


def _console():
    from rich.console import Console  # noqa: PLC0415

    return Console()


def _print_summary(view: BlueprintView, payload: dict[str, Any]) -> None:
    console = _console()
    console.print(f"{payload['file']}: {payload['game']}", style="bold")
    console.print(f"  betting     {payload['betting']}")
    console.print(f"  cards       {payload['cards']} (buckets per street {payload['buckets']})")
    iterations, seconds = payload["iterations"], payload["seconds"]
    console.print(
        f"  trained     {iterations:,} iterations"
        + (f" in {seconds:,.0f} s" if seconds else "")
        + f", seed {payload['seed']}"
    )
    console.print(
        f"  tree        {payload['nodes']:,} nodes, {payload['decision_nodes']:,} "
        f"decisions ({payload['preflop_nodes']} preflop), {payload['slots']:,} slots"
    )
    for name, figure in payload["lbr"].items():
        if isinstance(figure, dict) and "value" in figure:
            console.print(
                f"  LBR {name:<7} {figure['value']:+,.0f} ± "
                f"{figure.get('ci95', float('nan')):,.0f} {figure.get('unit', '')} "
                f"({figure.get('deals', '?'):,} deals)"
            )
    console.print("\npreflop nodes (--node LINE; '' is the first action)", style="bold")
    for item in payload["preflop"]:
        key = item["key"] or "''"
        console.print(f"  {key:<22} {item['name']}")
        console.print(f"  {'':<22} [dim]{', '.join(item['actions'])}[/dim]")


def _print_chart(payload: dict[str, Any]) -> None:

    console = _console()
    console.print(f"{payload['node'] or '(root)'}: {payload['name']}", style="bold")
    console.print(
        f"totals over the arriving range ({payload['range_combos']:.0f} of 1,326 "
        "combos, weighted by combos x own reach) and over every hand:"
    )
    for action, arriving, every in zip(
        payload["actions"], payload["totals"], payload["totals_all"], strict=True
    ):
        console.print(f"  {action:<18} {arriving:6.1%}   {every:6.1%}")
    classes = payload["classes"]
    labels = list(classes)
    for a, action in enumerate(payload["actions"]):

        def cell(row: int, col: int, a: int = a) -> str:
            item = classes[labels[row * 13 + col]]
            value = 100 * item["freq"][a]
            return f"[dim]{value:4.0f}[/dim]" if item["reach"] <= 0 else f"{value:4.0f}"

        console.print(class_chart(action, cell))


def _print_buckets(payload: dict[str, Any]) -> None:
    console = _console()
    console.print(f"{payload['node']}: {payload['name']}", style="bold")
    console.print(f"board {payload['board']}; every live combo counted once:")
    for action, every in zip(payload["actions"], payload["totals_all"], strict=True):
        console.print(f"  {action:<18} {every:6.1%}")
    header = "  ".join(f"{a[:10]:>10}" for a in payload["actions"])
    console.print(f"\n{'bucket':>6}  {header}  hands on this board", style="bold")
    for item in payload["buckets"]:
        if not item["hands"]:
            continue
        freqs = "  ".join(f"{p:10.1%}" for p in item["freq"])
        hands = " ".join(item["hands"][:12]) + (" …" if len(item["hands"]) > 12 else "")
        console.print(f"{item['bucket']:>6}  {freqs}  {len(item['hands']):>3}: {hands}")
