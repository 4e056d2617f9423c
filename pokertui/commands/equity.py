"""``pokertui equity RANGE1 RANGE2 [--board CARDS] [--dead CARDS] [--mc N --seed S] [--json]``."""

from __future__ import annotations

import argparse
from typing import Any

from pokertui.commands.arguments import bounded_int, seed
from pokertui.commands.output import add_json_flag, print_json

DEFAULT_SAMPLES = 200_000
"""``solvers.cards.equity.DEFAULT_SAMPLES``, repeated so ``--help`` need not import numpy."""
MAX_EXACT_SECONDS = 60.0
"""``--exact`` is refused when enumeration is estimated to take longer than this."""
MAX_SAMPLES = 100_000_000
"""The most ``--mc`` accepts: about half a minute of sampling; more gains little precision."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "equity",
        help="all-in equity of one range against another",
        description=(
            "Equity of RANGE1 against RANGE2. A single hand such as AhKh is a range too. "
            "Exact enumeration is used when it is quick, Monte Carlo otherwise."
        ),
    )
    parser.add_argument("range1", help="hero's range, e.g. AhKh or 'QQ+,AKs'")
    parser.add_argument("range2", help="villain's range")
    parser.add_argument("--board", default="", help="0 to 5 board cards, e.g. Ts9s2d")
    parser.add_argument("--dead", default="", help="dead cards, removed from the deck")
    parser.add_argument(
        "--mc",
        type=bounded_int(1, MAX_SAMPLES),
        metavar="N",
        help=(
            f"force Monte Carlo with N samples, 1 to {MAX_SAMPLES:,} "
            f"(default: exact if quick, else {DEFAULT_SAMPLES:,})"
        ),
    )
    parser.add_argument("--exact", action="store_true", help="force exact enumeration")
    parser.add_argument("--seed", type=seed, default=None, help="seed for Monte Carlo, 0 to 2^63-1")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.cards.deck import cards_str, parse_cards  # noqa: PLC0415 - quick --help
    from solvers.cards.equity import EquityError, equity  # noqa: PLC0415
    from solvers.cards.ranges import combo_count, format_range, parse_range  # noqa: PLC0415

    board = parse_cards(args.board, max_cards=5)
    dead = parse_cards(args.dead)
    range1, range2 = parse_range(args.range1), parse_range(args.range2)
    if args.mc is not None and args.exact:
        raise EquityError("choose either --mc or --exact, not both")
    if args.mc is not None and args.mc < 1:
        raise EquityError("--mc needs a positive number of samples")
    method = "mc" if args.mc is not None else ("exact" if args.exact else "auto")
    if method == "exact":
        from solvers.cards.equity import estimate_exact_seconds  # noqa: PLC0415

        seconds = estimate_exact_seconds(range1, range2, board, dead)
        if seconds > MAX_EXACT_SECONDS:
            raise EquityError(
                f"exact enumeration would take about {seconds / 60:,.0f} minutes; "
                "use --mc N (Monte Carlo) instead"
            )
    samples = args.mc if args.mc is not None else DEFAULT_SAMPLES
    result = equity(range1, range2, board, dead, method=method, samples=samples, seed=args.seed)
    known = board + dead
    payload: dict[str, Any] = {
        "board": cards_str(board),
        "dead": cards_str(dead),
        "ranges": [format_range(range1), format_range(range2)],
        "combos": [combo_count(range1, known), combo_count(range2, known)],
        **result.as_dict(),
        "seed": args.seed if result.method == "mc" else None,
    }
    if args.json:
        print_json(payload)
    else:
        _print_table(payload)
    return 0


def _print_table(payload: dict[str, Any]) -> None:
    from rich.console import Console  # noqa: PLC0415 - rich only for people
    from rich.table import Table  # noqa: PLC0415

    board = payload["board"] or "(preflop)"
    if payload["method"] == "exact":
        how = f"exact: {payload['boards']:,} runouts x {payload['pairs']:,} hand pairs"
    else:
        how = f"Monte Carlo: {payload['samples']:,} samples, std error {payload['std_error']:.4%}"
    table = Table(title=f"Equity on {board}", caption=how)
    for column in ("range", "combos", "equity", "win", "tie"):
        table.add_column(column, justify="left" if column == "range" else "right")
    for side in range(2):
        table.add_row(
            payload["ranges"][side],
            f"{payload['combos'][side]:g}",
            f"{payload['equity'][side]:.2%}",
            f"{payload['win'][side]:.2%}",
            f"{payload['tie']:.2%}",
        )
    Console().print(table)
