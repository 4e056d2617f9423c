"""``pokertui play``: the play screen, or with ``--hands N`` a headless match between bots."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pokertui.commands.arguments import bounded_int, seed
from pokertui.commands.output import add_json_flag, print_json
from solvers.errors import InputError

MAX_HANDS = 100_000
"""The most ``--hands`` accepts: about a minute of play; the 95% interval is narrow by then."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play against a bot (TUI), or bot against bot with --hands",
        description=(
            "Without --hands, opens the play screen. With --hands N, plays N hands with no UI "
            "between --bot and --opponent (a strategy file, 'random' or 'call'), alternating "
            "seats, and prints the bot's score."
        ),
    )
    parser.add_argument("--bot", help="the bot's strategy file (default: the shipped Leduc bot)")
    parser.add_argument(
        "--hands",
        type=bounded_int(1, MAX_HANDS),
        help=f"play this many hands headless (1 to {MAX_HANDS:,})",
    )
    parser.add_argument("--opponent", default="random", help="FILE, 'random' or 'call'")
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--resume", metavar="NAME", help="resume a saved session in the TUI")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def _default_bot() -> str:
    from pokertui.paths import default_strategy_path  # noqa: PLC0415

    return str(default_strategy_path())


def require_terminal() -> None:
    """The TUI needs a terminal on both ends; without one it would wait for ever."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("the play screen needs a terminal; for a headless match use --hands N")


def check_before_app(bot: str | None, resume: str | None) -> None:
    """Everything the play screen would load, loaded first: a bad file is exit 2, not a hang."""
    if resume:
        from pokertui import paths  # noqa: PLC0415
        from pokertui.session.saves import load_session, save_path  # noqa: PLC0415

        load_session(save_path(paths.saves_dir(), resume))  # SaveError is an InputError
    if bot:
        from solvers.strategy_file import load_strategy  # noqa: PLC0415

        load_strategy(bot)
    require_terminal()


def run(args: argparse.Namespace) -> int:
    if args.hands is None:
        check_before_app(args.bot, args.resume)
        from pokertui.app import run_app  # noqa: PLC0415 - the TUI loads only when asked for

        return run_app(bot=args.bot, resume=args.resume, seed=args.seed)
    if args.resume:
        raise InputError("--resume opens the TUI; it does not combine with --hands")
    from pokertui.session.headless import play_match  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    bot = load_strategy(args.bot or _default_bot())
    report = play_match(bot, args.opponent, args.hands, args.seed)
    if args.json:
        print_json(report)
        return 0
    print(
        f"{report['hands']} hands, bot {report['bot']} vs {report['opponent']}: "
        f"{report['mean']:+.4f} ± {report['ci95']:.4f} {report['unit']} (95% CI); "
        f"EV-adjusted {report['ev_adjusted_mean']:+.4f} ± {report['ev_adjusted_ci95']:.4f}"
    )
    return 0
