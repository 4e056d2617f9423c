"""``pokertui translate F --node KEY --bet AMOUNT``: how a bot answers an off-tree bet.

Prints the bet as a fraction of the pot and the one or two tree sizes the pseudo-harmonic
translation maps it to, with their probabilities (``solvers/games/holdem/off_tree.py``); for a
full-game blueprint (``.npz``) the node is a betting line (``r250c/``) and the answer the
blueprint bot's (``BlueprintAgent.read_raise``).
"""

from __future__ import annotations

import argparse
from typing import Any

from pokertui.commands.arguments import bounded_float
from pokertui.commands.output import add_json_flag, print_json
from solvers.errors import InputError


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
    parser.add_argument("file", help="strategy file (.json or .json.gz), or a blueprint (.npz)")
    parser.add_argument(
        "--node",
        default="",
        help="node key where the bet is made (default: root); for a blueprint, the betting "
        "line before it (r250c/ is the flop after an open and a call)",
    )
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
    from solvers.reports.blueprint_report import is_blueprint_file  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    if is_blueprint_file(args.file):
        return run_blueprint(args)
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


def run_blueprint(args: argparse.Namespace) -> int:
    """A raise at a blueprint's betting line, read as the blueprint bot reads it."""
    from solvers.agents.blueprint import load_blueprint_agent  # noqa: PLC0415
    from solvers.games.hunl.rules import replay  # noqa: PLC0415

    if args.bet != int(args.bet):
        raise InputError(f"a bet in the full game is whole chips, not {args.bet:g}")
    agent = load_blueprint_agent(args.file, warm=False)
    state = replay(args.node, agent.config)
    if state.is_over:
        raise InputError(f"the hand is over after {args.node!r}: nobody bets there")
    legal, put = state.legal(), state.committed[state.to_act]
    if legal.min_raise_to is not None and legal.max_raise_to is not None and not (
        legal.min_raise_to <= put + args.bet <= legal.max_raise_to
    ):
        raise InputError(f"a raise at {args.node or '(root)'} adds {legal.min_raise_to - put} to "
                         f"{legal.max_raise_to - put} chips, not {args.bet:g}")  # fmt: skip
    reading = agent.read_raise(state, put + int(args.bet))
    if args.json:
        print_json({"node": args.node, "amount": int(args.bet), "to": reading.to,
                    "fraction": reading.fraction, "fold_to_call": reading.fold_to_call,
                    "mapped": [{"to": to, "fraction": fraction, "probability": p}
                               for to, fraction, p in reading.answers]})  # fmt: skip
        return 0
    where = args.node or "(root)"
    print(f"raise to {reading.to} at {where} = {reading.fraction:.4f} of the pot after calling")
    for to, fraction, p in reading.answers:
        print(f"  answered as the tree's raise to {to:<6} ({fraction:.4f} pot) "
              f"with probability {p:.4f}")  # fmt: skip
    if reading.fold_to_call > 0:
        print(
            f"  below the smallest size: a hand that would fold calls instead with probability "
            f"{reading.fold_to_call:.4f}"
        )
    return 0
