"""``pokertui translate F.json --node KEY --bet AMOUNT``: how a bot answers an off-tree bet.

Prints the bet as a fraction of the pot and the one or two tree sizes the pseudo-harmonic
translation maps it to, with their probabilities (``solvers/games/holdem/off_tree.py``).
"""

from __future__ import annotations

import argparse
from typing import Any

from pokertui.commands.arguments import bounded_float
from pokertui.commands.output import add_json_flag, print_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "translate",
        help="map an off-tree bet onto a strategy file's tree sizes",
        description=(
            "Map a bet or raise of AMOUNT chips (what the bettor puts in; a raise includes the "
            "call) at node KEY onto the tree's nearest sizes by the pseudo-harmonic translation, "
            "and print the sizes with the probability the bot answers as each."
        ),
    )
    parser.add_argument("file", help="strategy file (.json or .json.gz)")
    parser.add_argument("--node", default="", help="node key where the bet is made (default: root)")
    parser.add_argument(
        "--bet",
        type=bounded_float(0, 1e9, open_low=True),
        required=True,
        help="chips the bettor adds",
    )
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.games.holdem.off_tree import translate_bet  # noqa: PLC0415 - start fast
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    game = load_strategy(args.file).game
    result = translate_bet(game, args.node, args.bet)
    if args.json:
        print_json(result.as_dict())
        return 0
    where = result.node_key or "(root)"
    print(f"bet {result.amount:g} at {where} = {result.fraction:.4f} of the pot")
    for mapped in result.mapped:
        print(
            f"  answered as {mapped.label:<16} ({mapped.fraction:.4f} pot, node "
            f"{mapped.child_key}) with probability {mapped.probability:.4f}"
        )
    if result.fold_to_call > 0:
        print(
            f"  below the smallest size: a hand that would fold calls instead with probability "
            f"{result.fold_to_call:.4f}"
        )
    return 0
