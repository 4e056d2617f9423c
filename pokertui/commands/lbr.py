"""``pokertui lbr F.json``: local best response, a lower bound on a hold'em bot's exploitability.

Plays ``--hands`` duplicate deals on a process pool (a progress bar on stderr) and prints LBR's
winnings per seat and overall with 95% confidence intervals: mbb per hand for push/fold and the
full game, % of the pot for a spot. ``--exact`` computes the value over every deal instead of
sampling; ``--record`` stores the figure in the strategy file's header. On a turn spot the bot
re-solves the turn after an off-tree turn bet (``turn_resolve.py``) and the river after any
off-tree bet, as in practice play (``river_resolve.py``); ``--no-turn-resolve`` measures the
file's translated turn, ``--no-resolve`` its translated turn and river.

``pokertui lbr 'hunl(stack_bb=200)' --bot call|random-action|FILE`` runs LBR on the full game
against a bot (any name or file ``make_agent`` knows). ``--streets`` takes names or the paper's
street numbers (``3-4`` is turn and river). ``--replay DEAL`` plays one deal of such a run again,
step by step (``lbr_replay_view.py``).
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import Any

from pokertui.commands.arguments import MAX_SEED, add_chunk_pool_arguments, bounded_int, seed
from pokertui.commands.interrupt import sigterm_as_interrupt
from pokertui.commands.output import add_json_flag, deal_progress, print_json
from solvers.errors import InputError
from solvers.reports.lbr.names import ACTION_SETS, ESTIMATES, STREETS

UNIT_LABELS = {"mbb_per_hand": "mbb/hand", "pot_percent": "% of the pot"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lbr",
        help="local best response: how much a greedy opponent wins from a hold'em strategy",
        description="Local best response (Lisý and Bowling) against a hold'em strategy file.",
    )
    parser.add_argument(
        "file", help="push/fold or nlhe spot strategy file, or a full game such as 'hunl(200)'"
    )
    parser.add_argument(
        "--bot",
        help="full game only: a bot file or a chump: call, random-action (the paper's random "
        "agent), random (even kinds), call-raise",
    )
    parser.add_argument(
        "--action-set",
        default="fcpa",
        help=f"LBR's bets: {', '.join(ACTION_SETS)} (default fcpa)",
    )
    parser.add_argument("--hands", type=int, default=10_000, help="duplicate deals to play")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the deals (default 0)")
    parser.add_argument(
        "--streets",
        help=f"streets where LBR plays greedily: names ({', '.join(STREETS)}) separated by "
        "commas, or numbers as in the paper (1-4, 3-4, 4); it checks or calls elsewhere "
        "(default: every street)",
    )
    add_chunk_pool_arguments(
        parser,
        workers_help="processes (default: one per core; with --exact, one per core for a turn "
        "spot whose bot re-solves, else this process)",
    )
    parser.add_argument(
        "--exact", action="store_true", help="exact value over every deal instead of sampling"
    )
    parser.add_argument(
        "--record", action="store_true", help="store the result in the strategy file's header"
    )
    parser.add_argument(
        "--no-resolve",
        action="store_true",
        help="turn spots: the bot plays the file's translated line on the river after an "
        "off-tree bet instead of re-solving that river (not recorded)",
    )
    parser.add_argument(
        "--no-turn-resolve",
        action="store_true",
        help="turn spots: the bot answers an off-tree turn bet as the file's translated tree "
        "size instead of re-solving the turn (the river is still re-solved; not recorded)",
    )
    parser.add_argument(
        "--control-variates",
        nargs="?",
        const="checkdown",
        choices=ESTIMATES,
        metavar="ESTIMATE",
        help="full game: score each hand less the luck of the bot's actions and of the turn "
        "and river cards (AIVAT-style; same expectation, narrower interval); ESTIMATE values "
        "the states in between: checkdown (default) or bets, which also values LBR's pot and "
        "all-in bets against a minimum defence",
    )
    parser.add_argument(
        "--replay",
        type=bounded_int(0, MAX_SEED),
        metavar="DEAL",
        help="full game: play deal DEAL (from 0, in the order of this --seed and --chunk-deals) "
        "again from both seats and print every step with LBR's and the bot's numbers",
    )
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def _street_numbers(text: str) -> tuple[str, ...] | None:
    """``3-4`` or ``4`` (the paper's rounds, preflop = 1) as street names; None if not numbers."""
    low, _, high = text.partition("-")
    if not (low.strip().isdigit() and (not high.strip() or high.strip().isdigit())):
        return None
    first, last = int(low), int(high) if high.strip() else int(low)
    if not 1 <= first <= last <= len(STREETS):
        return ()
    return STREETS[first - 1 : last]


def parse_streets(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    numbered = _street_numbers(text.strip()) if len(text) < 20 else None
    if numbered is not None:
        streets = numbered
    else:
        streets = tuple(s.strip().lower() for s in text.split(",") if s.strip())
    wrong = [s for s in streets if s not in STREETS]
    if wrong or not streets:
        raise InputError(
            f"--streets {text!r}: name streets from {', '.join(STREETS)}, separated by commas, "
            "or give the paper's street numbers such as 1-4 or 3-4"
        )
    return streets


def run(args: argparse.Namespace) -> int:
    from solvers.agents.river_resolve import RiverResolver  # noqa: PLC0415
    from solvers.games.hunl.spec import is_hunl_spec  # noqa: PLC0415
    from solvers.reports.lbr.spot_run import RiverFactory, evaluate, evaluate_exact  # noqa: PLC0415

    streets = parse_streets(args.streets)
    if is_hunl_spec(args.file):
        return _run_full_game(args, streets)
    if args.bot is not None:
        raise InputError("--bot is for the full game ('hunl(...)'); a strategy file is the bot")
    if args.control_variates or args.replay is not None:
        flag = "--control-variates" if args.control_variates else "--replay"
        raise InputError(f"{flag} is for the full game ('hunl(...)')")
    if args.chunk_deals is not None or args.checkpoint is not None:
        flag = "--chunk-deals" if args.chunk_deals is not None else "--checkpoint"
        raise InputError(f"{flag} is for the full game ('hunl(...)')")
    if args.no_resolve and args.record:
        raise InputError("--record stores the bot as it plays, re-solving the river after an "
                         "off-tree bet: drop --no-resolve")  # fmt: skip
    if args.no_turn_resolve and args.record:
        raise InputError("--record stores the bot as it plays, re-solving the turn after an "
                         "off-tree bet: drop --no-turn-resolve")  # fmt: skip
    river: RiverFactory | None = None if args.no_resolve else RiverResolver
    if river is not None and args.no_turn_resolve:
        river = partial(RiverResolver, turn_iterations=0)
    if args.exact:
        result = evaluate_exact(args.file, args.action_set, streets, river, args.workers)
    elif args.json:
        result = evaluate(args.file, args.action_set, args.hands, args.seed, streets, args.workers,
                          backend=args.backend, address=args.address, river=river)  # fmt: skip
    else:
        result = _with_progress(args, streets, partial(evaluate, river=river))
    if args.record:
        from solvers.reports.lbr.record import record_lbr, translation_price  # noqa: PLC0415

        result["recorded"] = True
        result["translation_price"] = translation_price(record_lbr(args.file, result))
    if args.json:
        print_json(result)
        return 0
    _print_table(result)
    if args.record:
        price = result["translation_price"]
        print(f"recorded in the header of {args.file}")
        if price is not None:
            unit = UNIT_LABELS[price["unit"]]
            gap = f"{price['value']:+.4g} ± {price['ci95']:.3g} {unit}"
            print(f"translation price (56 minus tree): {gap}")
    return 0


def _run_full_game(args: argparse.Namespace, streets: tuple[str, ...] | None) -> int:
    from solvers.agents.registry import make_agent  # noqa: PLC0415
    from solvers.games.hunl.spec import parse_hunl_spec  # noqa: PLC0415
    from solvers.reports.lbr.hunl_run import evaluate_hunl  # noqa: PLC0415

    config = parse_hunl_spec(args.file)
    if args.no_resolve or args.no_turn_resolve:
        flag = "--no-resolve" if args.no_resolve else "--no-turn-resolve"
        raise InputError(f"{flag} is for turn spot files: a full-game bot plays as it is")
    if args.exact:
        raise InputError("--exact is for strategy files: the full game is sampled")
    if not args.bot:
        raise InputError("the full game needs a bot: --bot call, --bot random-action or --bot FILE")
    if args.record and args.control_variates:
        raise InputError("--record stores plain figures (the tests recompute them as recorded): "
                         "drop --control-variates")  # fmt: skip
    if args.replay is not None:
        return _replay(args, config, streets)
    if args.record:
        from pathlib import Path  # noqa: PLC0415

        from solvers.strategy_file.blueprint_file import read_blueprint  # noqa: PLC0415

        if not Path(args.bot).is_file():
            raise InputError(f"--record writes the figure into a blueprint file's header; "
                             f"--bot {args.bot!r} is not a file")  # fmt: skip
        read_blueprint(args.bot)  # --record writes into a blueprint file: refuse others first

    def evaluate(_file, action_set, deals, seed, streets, workers, progress=None, **where):
        with sigterm_as_interrupt():  # killed, the pool stops and the checkpoint keeps its chunks
            return evaluate_hunl(
                config, args.bot, make_agent, action_set, deals, seed, streets, workers, progress,
                **where, chunk_deals=args.chunk_deals, checkpoint=args.checkpoint,
                control=args.control_variates is not None,
                estimate=args.control_variates or "checkdown",
            )

    if args.json:
        result = evaluate(None, args.action_set, args.hands, args.seed, streets, args.workers,
                          backend=args.backend, address=args.address)  # fmt: skip
    else:
        result = _with_progress(args, streets, evaluate)
    if args.record:
        from solvers.reports.lbr.hunl_run import record_hunl_lbr  # noqa: PLC0415

        result["recorded"] = record_hunl_lbr(args.bot, result)
    if args.json:
        print_json(result)
        return 0
    _print_table(result)
    if args.record:
        print(f"recorded in the header of {args.bot} as {result['recorded']!r}")
    return 0


def _replay(args: argparse.Namespace, config, streets: tuple[str, ...] | None) -> int:
    from pokertui.commands.lbr_replay_view import replay_lines  # noqa: PLC0415
    from solvers.agents.registry import make_agent  # noqa: PLC0415
    from solvers.reports.lbr.hunl import HunlLocalBestResponse  # noqa: PLC0415
    from solvers.reports.lbr.spot_run import agent_chunk_deals  # noqa: PLC0415

    if args.record or args.checkpoint is not None:
        flag = "--record" if args.record else "--checkpoint"
        raise InputError(f"--replay plays one deal again and keeps nothing: drop {flag}")
    agent = make_agent(args.bot, config)
    chunk = args.chunk_deals or agent_chunk_deals(agent)
    control = args.control_variates is not None
    lbr = HunlLocalBestResponse(config, agent, args.action_set, streets, control,
                                args.control_variates or "checkdown")  # fmt: skip
    steps = lbr.replay_deal(args.seed, chunk, args.replay)
    if args.json:
        print_json({"deal": args.replay, "seed": args.seed, "chunk_deals": chunk,
                    "control_variates": control,
                    **({"value_estimate": args.control_variates} if control else {}),
                    "steps": steps})  # fmt: skip
        return 0
    index, place = divmod(args.replay, chunk)
    print(f"deal {args.replay} of seed {args.seed} (chunk {index}, deal {place} of {chunk}), "
          f"LBR {lbr.action_set} on {', '.join(lbr.streets)} against {agent.name}")  # fmt: skip
    print("\n".join(replay_lines(steps, config.big_blind, control)))
    return 0


def _with_progress(args: argparse.Namespace, streets, evaluate) -> dict[str, Any]:
    if args.hands <= 0:
        raise InputError(f"--hands must be a positive number of deals, not {args.hands}")
    with deal_progress(f"LBR {args.action_set}", args.hands) as progress:
        return evaluate(
            args.file,
            args.action_set,
            args.hands,
            args.seed,
            streets,
            args.workers,
            progress=progress,
            backend=args.backend,
            address=args.address,
        )


def _print_table(result: dict[str, Any]) -> None:
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    unit = UNIT_LABELS[result["unit"]]
    how = "exact" if result.get("exact") else f"{result['deals']:,} duplicate deals"
    table = Table(
        title=f"LBR ({result['action_set']}, {'/'.join(result['streets'])}) on "
        f"{result.get('bot') or result['file']}",
        caption=how,
    )
    table.add_column("LBR plays")
    table.add_column(f"wins ({unit})", justify="right")
    table.add_column("95% CI ±", justify="right")
    for seat in (0, 1):
        table.add_row(
            f"seat {seat + 1}",
            _number(result["seat_values"][seat], "+"),
            _number(result["seat_ci95"][seat]),
        )
    table.add_row(
        "both seats", _number(result["value"], "+"), _number(result["ci95"]), style="bold"
    )
    if "hands" in result:
        table.caption = f"{result['deals']:,} duplicate deals ({result['hands']:,} hands)"
    Console().print(table)
    if "hands" in result:
        bb = result["value"] / 1000
        print(f"LBR wins {bb:+.2f} ± {result['ci95'] / 1000:.2f} BB per hand (the paper's BB/h)")
    if "plain" in result:
        plain = result["plain"]
        print(f"with control variates; without them, on the same hands: "
              f"{_number(plain['value'], '+')} ± {_number(plain['ci95'])} {unit}")  # fmt: skip
    print(f"game {result['game']}")
    sys.stdout.flush()


def _number(value: float, sign: str = "") -> str:
    """Four significant digits, or whole units with separators once there are five or more."""
    return f"{value:{sign},.0f}" if abs(value) >= 10_000 else f"{value:{sign}.4g}"
