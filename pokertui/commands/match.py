"""``pokertui match 'hunl(100)' --bot A --opponent B --hands N``: a duplicate head-to-head match.

Every deal is played twice with the seats swapped (``solvers/reports/hunl_match.py``) on the
same process pool or Ray backend as LBR; prints the bot's bb/100 per seat and overall with 95%
intervals. Bots are anything ``make_agent`` knows: a blueprint file, a chump, or
``resolve(...)`` over either.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pokertui.commands.arguments import add_chunk_pool_arguments, bounded_int, seed
from pokertui.commands.interrupt import sigterm_as_interrupt
from pokertui.commands.output import add_json_flag, deal_progress, print_json

MAX_DEALS = 1_000_000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "match",
        help="duplicate head-to-head match between two full-game bots",
        description="Plays --hands duplicate deals of the full game between --bot and "
        "--opponent (each deal twice, seats swapped) and prints the bot's bb/100.",
    )
    parser.add_argument("game", help="the full game, such as 'hunl(100)' or 'hunl(stack_bb=200)'")
    parser.add_argument("--bot", required=True,
                        help="a bot file, a chump, a scripted opponent (min-bet, overbet, "
                        "flop-shove, check-raise, 3bet) or resolve:BOT")  # fmt: skip
    parser.add_argument("--opponent", required=True, help="the other bot, named the same ways")
    parser.add_argument("--hands", type=bounded_int(1, MAX_DEALS), default=1000,
                        help="duplicate deals to play (two hands each; default 1,000)")  # fmt: skip
    parser.add_argument("--seed", type=seed, default=0, help="seed of the deals (default 0)")
    add_chunk_pool_arguments(parser, bounded_int(1, 1024))
    parser.add_argument(
        "--control-variates",
        action="store_true",
        help="score each hand less the luck of the bots' actions and of the turn and river "
        "cards (same expectation, narrower interval; the chips' figures are printed too)",
    )
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.agents.registry import make_agent  # noqa: PLC0415
    from solvers.games.hunl.spec import parse_hunl_spec  # noqa: PLC0415
    from solvers.reports.hunl_match import play_duplicate  # noqa: PLC0415

    config = parse_hunl_spec(args.game)

    def play(progress=None) -> dict[str, Any]:
        with sigterm_as_interrupt():  # killed, the pool stops and the checkpoint keeps its chunks
            return play_duplicate(config, args.bot, args.opponent, make_agent, args.hands,
                                  args.seed, args.workers, progress, args.backend, args.address,
                                  args.chunk_deals, args.checkpoint,
                                  args.control_variates)  # fmt: skip

    if args.json:
        print_json(play())
        return 0
    with deal_progress("match", args.hands) as progress:
        result = play(progress)
    seats = ", ".join(
        f"seat {s + 1} {result['seat_values'][s]:+.1f} ± {result['seat_ci95'][s]:.1f}"
        for s in (0, 1)
    )
    print(
        f"{result['hands']:,} hands ({result['deals']:,} duplicate deals) of {result['game']}: "
        f"{result['bot']} vs {result['opponent']}: {result['value']:+.2f} ± "
        f"{result['ci95']:.2f} bb/100 (95% CI); {seats}"
    )
    if "plain" in result:
        plain = result["plain"]
        print(f"with control variates; the chips of the same hands: {plain['value']:+.2f} ± "
              f"{plain['ci95']:.2f} bb/100")  # fmt: skip
    sys.stdout.flush()
    return 0
