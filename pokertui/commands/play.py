"""``pokertui play``: the play screen, or with ``--hands N`` a headless match between bots."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pokertui.commands.arguments import bounded_int, seed
from pokertui.commands.output import add_json_flag, deal_progress, print_json
from solvers.atomic import write_error
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
    parser.add_argument(
        "--game",
        help="play the full game instead of a strategy file: 'hunl(stack_bb=100)' (10 to 250 bb)",
    )
    parser.add_argument(
        "--bot",
        help="the bot's strategy file (default: the shipped Leduc bot); with --game hunl(...) a "
        "bot file or call, random, call-raise; resolve:BOT re-solves the flop, turn and river "
        "over BOT (the default: resolve(flop-tree=turn,flop-sample=10): over the shipped "
        "blueprint of that depth)",
    )
    parser.add_argument(
        "--history",
        metavar="FILE",
        help="with --game hunl(...) --hands N: write the hands in PHH (a .phhs file)",
    )
    parser.add_argument(
        "--hands",
        type=bounded_int(1, MAX_HANDS),
        help=f"play this many hands headless (1 to {MAX_HANDS:,})",
    )
    parser.add_argument(
        "--opponent",
        default="random",
        help="FILE, 'random' or 'call'; with --game hunl(...) any bot --bot takes, such as a "
        "scripted opponent: min-bet, overbet, flop-shove, check-raise, 3bet",
    )
    parser.add_argument(
        "--think",
        metavar="SECONDS",
        help="with --game hunl(...): the re-solving bot's seconds on a turn (default 5; the "
        "flop gets 3x, the river a tenth): less answers faster and plays weaker",
    )
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
    if args.game is not None:
        return run_full_game(args)
    if args.history:
        raise InputError("--history writes full-game hands: use it with --game 'hunl(...)'")
    if args.think is not None:
        raise InputError("--think sets the full game's re-solving bot: use it with --game")
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


def run_full_game(args: argparse.Namespace) -> int:
    """``--game hunl(...)``: the full-game table, or a headless match with ``--hands``."""
    from pokertui.paths import resolve_hunl_bot, strategies_dir  # noqa: PLC0415
    from solvers.agents.registry import make_agent  # noqa: PLC0415
    from solvers.games.hunl.spec import hunl_spec_string, parse_hunl_spec  # noqa: PLC0415

    config = parse_hunl_spec(args.game)
    bot_name = resolve_hunl_bot(args.bot, strategies_dir(), config.stack_bb)
    bot = make_agent(bot_name, config)
    think = None
    if args.think is not None:
        from pokertui.session.hunl_session import check_think, set_think  # noqa: PLC0415

        think = check_think(args.think)
        set_think(bot, think)  # a bot that does not re-solve refuses it
    if args.hands is None:
        if args.resume or args.history:
            raise InputError("--resume and --history do not combine with --game at the table")
        require_terminal()
        from pokertui.app import run_app  # noqa: PLC0415

        return run_app(game=hunl_spec_string(config), bot=bot_name, seed=args.seed, think=think)
    if args.resume:
        raise InputError("--resume opens the TUI; it does not combine with --hands")
    history = None
    if args.history:
        from pathlib import Path  # noqa: PLC0415

        from solvers.atomic import check_output_path  # noqa: PLC0415

        history = Path(args.history)
        check_output_path(history, "history")
    args.opponent = resolve_hunl_bot(args.opponent, strategies_dir(), config.stack_bb)
    opponent = make_agent(args.opponent, config)
    seed = 0 if args.seed is None else args.seed
    from pokertui.session.hunl_headless import play_hunl_match  # noqa: PLC0415

    names = (bot_name, args.opponent)
    if args.json or not sys.stderr.isatty():  # a bar is for a person watching a terminal
        report, session = play_hunl_match(config, bot, opponent, args.hands, seed, names=names)
    else:
        with deal_progress("playing", args.hands, unit="hands") as progress:
            report, session = play_hunl_match(config, bot, opponent, args.hands, seed,
                                              progress=progress, names=names)  # fmt: skip
    report["game"] = hunl_spec_string(config)
    if history is not None:
        from pokertui.session.phh import session_phhs  # noqa: PLC0415
        from solvers.atomic import atomic_write_text  # noqa: PLC0415

        text = session_phhs(config, session.hands, human=args.opponent, bot=bot_name)
        try:
            atomic_write_text(history, text)
        except OSError as exc:
            raise write_error(history, exc) from None
        report["history"] = str(history)
    if args.json:
        print_json(report)
        return 0
    print(
        f"{report['hands']} hands of {report['game']}, bot {bot_name} vs {args.opponent}: "
        f"{report['mean']:+.2f} ± {report['ci95']:.2f} bb/100 (95% CI); all-in adjusted "
        f"{report['ev_adjusted_mean']:+.2f} ± {report['ev_adjusted_ci95']:.2f}"
    )
    if history is not None:
        print(f"hand history (PHH): {history}")
    return 0
