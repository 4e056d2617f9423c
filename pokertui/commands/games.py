"""``pokertui games`` lists the games; ``pokertui value GAME`` solves one exactly by LP."""

from __future__ import annotations

import argparse
from typing import Any, cast

from pokertui.commands.output import add_json_flag, gap_text, is_noise, print_json


def register(subparsers: Any) -> None:
    games = subparsers.add_parser("games", help="list the games with their parameters and sizes")
    add_json_flag(games)
    games.set_defaults(handler=run_games)

    value = subparsers.add_parser(
        "value", help="solve a game exactly (sequence-form LP) and print its value"
    )
    value.add_argument("game", help="game spec, e.g. kuhn, kuhn(cards=8), leduc(), matrix(rps)")
    add_json_flag(value)
    value.set_defaults(handler=run_value)


def game_rows() -> list[dict[str, Any]]:
    from solvers.games import GAMES, load_game  # noqa: PLC0415 - keep the CLI quick to start
    from solvers.games.base import TreeGame  # noqa: PLC0415

    rows = []
    for name in sorted(GAMES):
        game = load_game(name)
        rows.append(
            {
                "name": name,
                "spec": game.spec_string(),
                "description": cast("type[TreeGame]", GAMES[name]).description,
                "params": game.params.spec_values(),
                "sizes": game.sizes(),
            }
        )
    return rows


def run_games(args: argparse.Namespace) -> int:
    rows = game_rows()
    if args.json:
        print_json({"games": rows})
        return 0
    from rich.console import Console  # noqa: PLC0415 - only people need rich
    from rich.table import Table  # noqa: PLC0415

    table = Table(title="Games (sizes at the default parameters)")
    table.add_column("default spec")
    for column in ("hands", "public nodes", "info sets"):
        table.add_column(column, justify="right")
    for row in rows:
        sizes = row["sizes"]
        hands = " x ".join(str(n) for n in sizes["hands"])
        table.add_row(row["spec"], hands, str(sizes["public_nodes"]), str(sizes["info_sets"]))
    Console().print(table)
    return 0


def value_report(spec: str) -> dict[str, Any]:
    from solvers.exact.evaluation import exploitability  # noqa: PLC0415 - keep the CLI quick to start
    from solvers.exact.lp import solve_lp  # noqa: PLC0415
    from solvers.games import load_game  # noqa: PLC0415

    game = load_game(spec)
    solution = solve_lp(game)
    measured = exploitability(game, solution.strategy)
    report: dict[str, Any] = {
        "game": game.spec_string(),
        "value": solution.value,
        "value_by_profile": measured.game_value,
        "exploitability": measured.exploitability,
        "nash_conv": measured.nash_conv,
        "exploitability_mbb_per_hand": measured.mbb_per_hand,
        "solve_seconds": solution.seconds,
        "pot": float(sum(game.root.contributions)) or 1.0,  # the scale of its rounding noise
        "lp_sizes": solution.sizes,
        "sizes": game.sizes(),
    }
    if hasattr(game, "closed_form"):
        report["continuous_value"] = game.closed_form().value
    if hasattr(game, "bettor_share"):
        report["bettor_pot_share"] = game.bettor_share(solution.value)
    if hasattr(game, "range_percentages"):  # push/fold: SB shove % and BB call % of 1326 combos
        report.update(game.range_percentages(solution.strategy))
    return report


def run_value(args: argparse.Namespace) -> int:
    report = value_report(args.game)
    if args.json:
        print_json(report)
        return 0
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"{report['game']} solved by sequence-form LP", show_header=False)
    table.add_column("quantity")
    table.add_column("value", justify="right")
    table.add_row("game value for player 1", f"{report['value']:.10f}")
    noise = is_noise(report["exploitability"], report["pot"])
    table.add_row(
        "exploitability of the LP equilibrium", gap_text(report["exploitability"], noise, ".3e")
    )
    table.add_row(
        "  in mbb per hand", gap_text(report["exploitability_mbb_per_hand"], noise, ".3e")
    )
    if "continuous_value" in report:
        table.add_row("continuous game value (closed form)", f"{report['continuous_value']:.10f}")
    if "bettor_pot_share" in report:
        table.add_row("bettor's share of the pot", f"{report['bettor_pot_share']:.10f}")
    if "sb_shove_percent" in report:
        table.add_row("SB shoves (% of 1326 combos)", f"{report['sb_shove_percent']:.2f}%")
        table.add_row("BB calls a shove (% of 1326 combos)", f"{report['bb_call_percent']:.2f}%")
    table.add_row("solve time", f"{report['solve_seconds'] * 1000:.1f} ms")
    Console().print(table)
    return 0
