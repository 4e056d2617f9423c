"""``pokertui analyze FILE... [--hero NAME]``: the engine over hands played elsewhere.

Reads heads-up no-limit hold'em hand histories (sites' text, PHH, ACPC logs) through
``solvers/analysis``, values each of the hero's decisions as the app's live panel does against
the default bot of the hand's depth, and prints the session's report: EV lost in total, by
street and per 100 hands, the worst decisions first (``docs/analyze.md``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokertui.commands.arguments import bounded_float, bounded_int
from pokertui.commands.interrupt import sigterm_as_interrupt
from pokertui.commands.output import add_json_flag, deal_progress, print_json
from pokertui.words import plural

FORMATS_HELP = ("PokerStars, Full Tilt, iPoker, Ongame, PartyPoker and Absolute text, PHH "
                "(.phh, .phhs: the app's own exports too) and ACPC logs")  # fmt: skip


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="value the decisions of hands played elsewhere against the engine",
        description=f"Reads heads-up no-limit hold'em hand histories ({FORMATS_HELP}), values "
        "every decision of the hero as the live panel does and reports the EV lost, worst "
        "first. Hands the game cannot hold (antes, straddles, more players, other variants, "
        "stacks outside 10-250 bb) are skipped and counted by reason.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="hand-history files")
    parser.add_argument("--hero", help="the player to analyse (default: the one name in every "
                        "hand whose cards are known)")  # fmt: skip
    parser.add_argument(
        "--both",
        action="store_true",
        help="analyse both seats (ACPC logs, bot matches: both cards known)",
    )
    parser.add_argument("--bot", help="the model of the opponent (default: resolve: over the "
                        "shipped blueprint of each hand's depth, the quick flop)")  # fmt: skip
    parser.add_argument("--think", type=bounded_float(0.05, 600),
                        help="the default bot's turn budget in seconds, the flop's three times "
                        "it, the river's a tenth (default 5, as in the app)")  # fmt: skip
    parser.add_argument("--chosen-only", action="store_true",
                        help="value off the re-solve's tree only the size chosen (faster: the "
                        "other sizes each cost the bot a node re-solve)")  # fmt: skip
    parser.add_argument("--street", choices=("preflop", "flop", "turn", "river"))
    parser.add_argument("--pot", choices=("limped", "single-raised", "3-bet", "4-bet"))
    parser.add_argument("--position", choices=("button", "big blind"))
    parser.add_argument("--depth", type=bounded_float(10, 250), help="effective stack in bb")
    parser.add_argument("--texture", choices=("trips", "paired", "monotone", "two-tone",
                                              "rainbow"), help="the flop's texture")  # fmt: skip
    parser.add_argument("--worst", type=bounded_int(0, 10_000), default=10,
                        help="worst decisions to list (default 10)")  # fmt: skip
    parser.add_argument("--csv", action="store_true", help="print every decision as CSV")
    add_json_flag(parser)
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="keep each finished hand in FILE; the same command resumes there",
    )
    parser.add_argument("--workers", type=bounded_int(1, 1024), default=os.cpu_count() or 1,
                        help="processes (default: one a core)")  # fmt: skip
    parser.add_argument("--backend", default="local", help="local (process pool) or ray")
    parser.add_argument("--address", help="Ray cluster to join, HOST:PORT")
    parser.add_argument("--encoding", help="the files' text encoding (default UTF-8 or UTF-16 "
                        "with its mark)")  # fmt: skip
    parser.add_argument(
        "--acpc-stack",
        type=bounded_float(10, 250),
        default=200.0,
        help="ACPC logs' stacks in bb (default 200, the competition's)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from solvers.analysis.hand_record import SkipTally  # noqa: PLC0415
    from solvers.analysis.importer import read_hands  # noqa: PLC0415
    from solvers.analysis.runner import hero_tasks, options_digest, run_analysis  # noqa: PLC0415
    from solvers.analysis.session_report import (  # noqa: PLC0415
        Filters,
        decisions_csv,
        session_report,
    )

    filters = Filters(args.street, args.pot, args.position, args.depth, args.texture)
    imported = read_hands(args.files, args.encoding, args.acpc_stack)
    skipped: SkipTally = imported.skipped
    heroes = choose_heroes(imported.hands, args.hero, args.both, skipped.as_rows())
    bots = model_bots(args.bot, {h.stack for h in imported.hands}, args.think,
                      warn=_warn)
    tasks = hero_tasks(imported.hands, heroes, bots, skipped)
    digest = options_digest(bots, not args.chosen_only)
    quiet = args.json or args.csv or not sys.stderr.isatty()

    def analyse(progress=None):
        with sigterm_as_interrupt():
            return run_analysis(tasks, not args.chosen_only, workers=args.workers,
                                backend=args.backend, address=args.address,
                                checkpoint=args.checkpoint, digest=digest,
                                progress=progress)  # fmt: skip

    if quiet:
        done, failed = analyse()
    else:
        with deal_progress("analyze", len(tasks)) as progress:
            done, failed = analyse(progress)
    report = session_report(done, filters, args.worst)
    report["skipped"] = dict(skipped.as_rows())
    report["failed"] = failed
    report["formats"] = imported.formats
    if args.csv:
        rows = [d for ds in done.values() for d in ds if filters.keep(d)]
        sys.stdout.write(decisions_csv(rows))
        return 0
    if args.json:
        print_json(report)
        return 0
    print_report(report)
    return 0


def choose_heroes(hands, hero: str | None, both: bool, skipped=()) -> set[str]:
    """The names to analyse: ``--hero``, both seats with ``--both``, else the one name in every
    hand whose cards are known; ``InputError`` naming the candidates otherwise."""
    from solvers.errors import InputError  # noqa: PLC0415

    if not hands:
        reasons = "; ".join(f"{n:,} {reason}" for reason, n in skipped) or "the files hold none"
        raise InputError(f"no hand to analyse: {reasons}")
    names = set.intersection(*(set(h.names) for h in hands))
    if hero is not None:
        if not any(hero in h.names for h in hands):
            raise InputError(f"no hand has a player {hero!r}; players: {_some_names(hands)}")
        return {hero}
    if both:
        return {n for h in hands for n in h.names}
    shown = {n for n in names if all(h.holes[h.names.index(n)] is not None for h in hands)}
    if len(shown) == 1:
        return shown
    candidates = sorted(shown or names)
    if not candidates:
        raise InputError(f"no player is in every hand: name the hero with --hero "
                         f"(players: {_some_names(hands)})")  # fmt: skip
    raise InputError(f"name the hero with --hero (or --both): {', '.join(candidates)}")


def _some_names(hands) -> str:
    names = sorted({n for h in hands for n in h.names})
    return ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")


def _warn(text: str) -> None:
    sys.stderr.write(f"pokertui: {text}\n")


def model_bots(
    bot: str | None,
    stacks: set[int],
    think: float | None = None,
    shipped: Path | None = None,
    warn: Callable[[str], None] | None = None,
) -> dict[int, str | None]:
    """The model bot of each depth: ``--bot``, or the analyzer's default bot of that depth
    (``ANALYSIS_RESOLVE``, the quick flop, over the blueprints in ``shipped``, the strategies
    folder by default) with its budgets scaled by ``think``; None where none is shipped, or
    where the bot named refuses that depth (``warn`` hears why when there are other depths)."""
    from pokertui.paths import (  # noqa: PLC0415
        ANALYSIS_RESOLVE,
        RESOLVE_PREFIX,
        default_hunl_bot,
        resolve_hunl_bot,
        strategies_dir,
        think_options,
        with_resolve_options,
    )
    from solvers.analysis.runner import model_agent  # noqa: PLC0415
    from solvers.errors import InputError  # noqa: PLC0415

    shipped = strategies_dir() if shipped is None else shipped

    if bot is not None and think is not None:
        raise InputError("--think scales the default bot; give --bot its budgets instead: "
                         "resolve(flop=3,turn=1,river=0.1):BOT")  # fmt: skip
    found: dict[int, str | None] = {}
    name: str | None
    for stack in sorted(stacks):
        depth = stack / 100
        default = default_hunl_bot(shipped, depth, ANALYSIS_RESOLVE)
        if bot is None and RESOLVE_PREFIX.match(default) is None:
            found[stack] = None
            continue
        name = resolve_hunl_bot(bot, shipped, depth, ANALYSIS_RESOLVE)
        if think is not None:
            name = with_resolve_options(name, think_options(think))
        try:
            model_agent(name, stack)  # refused here once, not in every worker
        except InputError as exc:
            if len(stacks) == 1:
                raise
            if warn is not None:
                warn(f"{depth:g} bb hands skipped: {exc}")
            name = None
        found[stack] = name
    return found


def print_report(report: dict) -> None:
    print(f"{plural(report['hands'], 'hand')}, {plural(report['decisions'], 'decision')} "
          f"({report['valued']:,} with the chosen option valued)")  # fmt: skip
    print(f"EV lost: {report['ev_lost']:.2f} bb ({report['bb_per_100_lost']:.1f} bb/100)")
    for street, row in report["by_street"].items():
        if row["decisions"]:
            decisions = plural(row["decisions"], "decision")
            print(f"  {street:8} {decisions:>15}, {row['valued']:5,} valued, "
                  f"{row['ev_lost']:8.2f} bb lost")  # fmt: skip
    if report["worst"]:
        print("worst decisions:")
    for row in report["worst"]:
        board = f" on {row['board']}" if row["board"] else ""
        print(f"  {row['ev_lost']:7.2f} bb  {row['hand']}  {row['street']}, {row['position']}, "
              f"{row['hole']}{board}: {row['chosen_label']} ({_bb(row['chosen_ev'])}), "
              f"best {row['best']} ({_bb(row['best_ev'])})")  # fmt: skip
    for reason, count in report["skipped"].items():
        print(f"skipped {count:,}: {reason}")
    for key, error in report["failed"].items():
        print(f"failed {key}: {error}")
    print(f"model: {report['model']}")


def _bb(value: float | None) -> str:
    return "unvalued" if value is None else f"{value:+.2f} bb"
