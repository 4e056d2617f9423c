"""``pokertui show F.json --node KEY --by-card``: one decision after every card a deal can bring.

The numbers come from ``solvers.reports.spot_report.by_next_card``; this module only prints
them, as JSON or as a table sorted by the actor's EV (the cards that favour them first).
"""

from __future__ import annotations

import argparse

import numpy as np

from pokertui.commands.output import print_json
from solvers.errors import InputError


def run_by_card(args: argparse.Namespace, game, strategy) -> int:
    from solvers.reports.by_card import by_card_payload, by_next_card  # noqa: PLC0415

    if args.node is None:
        raise InputError("--by-card needs --node: a deal (e.g. x/x) or a key with * for the card")
    report = by_next_card(game, strategy, args.node)
    if args.json:
        print_json(by_card_payload(report))
        return 0
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    seat = "OOP" if report.player == 0 else "IP"
    table = Table(title=f"{seat} to act after each card of {args.node!r} (best EV first)")
    table.add_column("card")
    table.add_column("reach", justify="right")
    table.add_column(f"{seat} EV", justify="right")
    for action in report.actions:
        table.add_column(action, justify="right")
    for action in report.actions:
        table.add_column(f"EV {action}", justify="right")
    order = np.argsort(-np.nan_to_num(report.ev, nan=-np.inf), kind="stable")
    for i in order:
        cells = [report.cards[i], f"{report.reach[i]:.1%}", _chips(report.ev[i])]
        cells += [_share(x) for x in report.frequency[i]]
        cells += [_chips(x) for x in report.action_ev[i]]
        table.add_row(*cells)
    Console().print(table)
    return 0


def _share(x: float) -> str:
    return "-" if not np.isfinite(x) else f"{x:.1%}"


def _chips(x: float) -> str:
    return "-" if not np.isfinite(x) else f"{x:+.2f}"
