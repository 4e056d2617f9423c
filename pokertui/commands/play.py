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
    parser.add_argument(
        "--seed",
        type=seed,
        default=None,
        help="replay a deck (drills); the TUI otherwise deals fresh cards, headless uses 0",
    )
    parser.add_argument("--resume", metavar="NAME", help="resume a saved session in the TUI")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def _default_bot() -> str:
    from pokertui.paths import default_strategy_path  # noqa: PLC0415

    return str(default_strategy_path())


PROGRESS_BAR_HANDS = 2000
"""Matches at least this long show a progress bar on stderr (unless --json)."""


def _play_with_progress_bar(bot: Any, opponent: str, hands: int, seed: int) -> dict[str, Any]:
    from rich.console import Console  # noqa: PLC0415 - rich loads only for long matches
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeRemainingColumn,
    )

    from pokertui.session.headless import play_match  # noqa: PLC0415

    with Progress(
        "[bold]playing",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("hands", total=hands)
        return play_match(
            bot, opponent, hands, seed, lambda done: bar.update(task, completed=done)
        )


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
    if args.bot:
        from pokertui.paths import resolve_bot, strategies_dir  # noqa: PLC0415

        args.bot = resolve_bot(args.bot, strategies_dir())  # a shipped bot's name works too
    if args.hands is None:
        check_before_app(args.bot, args.resume)
        from pokertui.app import run_app  # noqa: PLC0415 - the TUI loads only when asked for

        return run_app(bot=args.bot, resume=args.resume, seed=args.seed)
    if args.resume:
        raise InputError("--resume opens the TUI; it does not combine with --hands")
    from pokertui.session.headless import play_match  # noqa: PLC0415
    from solvers.strategy_file import load_strategy  # noqa: PLC0415

    bot = load_strategy(args.bot or _default_bot())
    seed = 0 if args.seed is None else args.seed  # headless matches stay reproducible
    if args.json or args.hands < PROGRESS_BAR_HANDS:
        report = play_match(bot, args.opponent, args.hands, seed)
    else:
        report = _play_with_progress_bar(bot, args.opponent, args.hands, seed)
    if args.json:
        print_json(report)
        return 0
    print(
        f"{report['hands']} hands, bot {report['bot']} vs {report['opponent']}: "
        f"{report['mean']:+.4f} ± {report['ci95']:.4f} {report['unit']} (95% CI); "
        f"luck-adjusted (uses the bot's cards) {report['ev_adjusted_mean']:+.4f} "
        f"± {report['ev_adjusted_ci95']:.4f}"
    )
    if "opponent_ev_lost_mean" in report:
        print(
            f"EV lost by the opponent's decisions against the bot: "
            f"{report['opponent_ev_lost_mean']:.4f} ± {report['opponent_ev_lost_ci95']:.4f} "
            f"{report['unit']}"
        )
    return 0
